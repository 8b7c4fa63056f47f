using Sharc.Schema.Parsing;

namespace Sharc.Sql;

/// <summary>
/// The views registered on one <see cref="SharcDatabase"/> (in code, or by CREATE TEMP VIEW): SQLite's temp schema
/// for views. Immutable: registering or dropping one makes a new set, so a plan compiled against a set can tell
/// that it is stale by identity.
/// </summary>
internal sealed class TempViews
{
    private readonly Dictionary<string, SharcView> _views;

    private TempViews(Dictionary<string, SharcView> views) => _views = views;

    /// <summary>No views.</summary>
    public static TempViews Empty { get; } = new(new Dictionary<string, SharcView>(SqlNameComparer.Instance));

    /// <summary>The number of views.</summary>
    public int Count => _views.Count;

    /// <summary>The views, in no particular order.</summary>
    public IEnumerable<SharcView> All => _views.Values;

    /// <summary>The view named <paramref name="name"/> (case-insensitively), or null.</summary>
    public SharcView? Find(string name) => _views.GetValueOrDefault(name);

    /// <summary>A copy with <paramref name="view"/> added.</summary>
    public TempViews With(SharcView view)
    {
        var copy = new Dictionary<string, SharcView>(_views, SqlNameComparer.Instance) { [view.Name] = view };
        return new TempViews(copy);
    }

    /// <summary>A copy without the view named <paramref name="name"/>.</summary>
    public TempViews Without(string name)
    {
        var copy = new Dictionary<string, SharcView>(_views, SqlNameComparer.Instance);
        copy.Remove(name);
        return new TempViews(copy);
    }
}
