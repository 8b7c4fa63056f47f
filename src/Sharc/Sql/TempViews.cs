using Sharc.Schema.Parsing;

namespace Sharc.Sql;

/// <summary>A database a connection holds besides main: the temp database or an attached one.</summary>
/// <param name="Name">"temp" or the ATTACH name.</param>
/// <param name="Database">The open database.</param>
/// <param name="File">The full path PRAGMA database_list shows ('' for one in memory).</param>
internal sealed record AttachedDatabase(string Name, SharcDatabase Database, string File);

/// <summary>
/// What one <see cref="SharcDatabase"/> holds besides its own schema, as SQLite's connection does: the views
/// registered on it (in code, or by CREATE TEMP VIEW) and the temp and attached databases. Immutable: registering or
/// dropping a view, or attaching or detaching a database, makes a new set, so a plan compiled against a set can tell
/// that it is stale by identity.
/// </summary>
internal sealed class TempViews
{
    private readonly Dictionary<string, SharcView> _views;

    private TempViews(Dictionary<string, SharcView> views, IReadOnlyList<AttachedDatabase> databases)
    {
        _views = views;
        Databases = databases;
    }

    /// <summary>No views, no other databases.</summary>
    public static TempViews Empty { get; } = new(new Dictionary<string, SharcView>(SqlNameComparer.Instance), []);

    /// <summary>The number of views.</summary>
    public int Count => _views.Count;

    /// <summary>True when there is nothing: no view and no other database.</summary>
    public bool IsEmpty => _views.Count == 0 && Databases.Count == 0;

    /// <summary>The views, in no particular order.</summary>
    public IEnumerable<SharcView> All => _views.Values;

    /// <summary>The temp database (when made) and the attached ones, in the order SQLite searches them after temp.</summary>
    public IReadOnlyList<AttachedDatabase> Databases { get; }

    /// <summary>The view named <paramref name="name"/> (case-insensitively), or null.</summary>
    public SharcView? Find(string name) => _views.GetValueOrDefault(name);

    /// <summary>The temp or attached database named <paramref name="name"/>, or null.</summary>
    public SharcDatabase? FindDatabase(string name)
    {
        foreach (var d in Databases)
            if (SqlNameComparer.Instance.Equals(d.Name, name)) return d.Database;
        return null;
    }

    /// <summary>A copy with <paramref name="view"/> added.</summary>
    public TempViews With(SharcView view)
    {
        var copy = new Dictionary<string, SharcView>(_views, SqlNameComparer.Instance) { [view.Name] = view };
        return new TempViews(copy, Databases);
    }

    /// <summary>A copy without the view named <paramref name="name"/>.</summary>
    public TempViews Without(string name)
    {
        var copy = new Dictionary<string, SharcView>(_views, SqlNameComparer.Instance);
        copy.Remove(name);
        return new TempViews(copy, Databases);
    }

    /// <summary>A copy with <paramref name="database"/> added (temp goes first: it is searched before the others).</summary>
    public TempViews WithDatabase(AttachedDatabase database)
    {
        var list = new List<AttachedDatabase>(Databases);
        if (SqlNameComparer.Instance.Equals(database.Name, "temp")) list.Insert(0, database);
        else list.Add(database);
        return new TempViews(_views, list);
    }

    /// <summary>A copy without the database named <paramref name="name"/>.</summary>
    public TempViews WithoutDatabase(string name)
        => new(_views, [.. Databases.Where(d => !SqlNameComparer.Instance.Equals(d.Name, name))]);
}
