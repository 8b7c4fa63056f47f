using Sharc.Schema.Parsing;

namespace Sharc;

/// <summary>The schema of a database, read from sqlite_schema when the database is opened.</summary>
public sealed class SharcSchema
{
    private readonly Dictionary<string, SharcTable> _tables;
    private readonly Dictionary<string, SharcIndex> _indexes;
    private readonly Dictionary<string, SharcView> _views;

    /// <summary>Creates a schema from its parts.</summary>
    public SharcSchema(IReadOnlyList<SharcTable> tables, IReadOnlyList<SharcIndex> indexes, IReadOnlyList<SharcView> views, IReadOnlyList<SharcTrigger> triggers)
    {
        AllTables = tables;
        Tables = tables.Where(t => !IsSchemaTable(t)).ToArray();
        Indexes = indexes;
        Views = views;
        Triggers = triggers;
        _tables = new(SqlNameComparer.Instance);
        foreach (var t in tables) _tables.TryAdd(t.Name, t);
        _indexes = new(SqlNameComparer.Instance);
        foreach (var i in indexes) _indexes.TryAdd(i.Name, i);
        _views = new(SqlNameComparer.Instance);
        foreach (var v in views) _views.TryAdd(v.Name, v);
    }

    /// <summary>
    /// Tables in sqlite_schema order, including internal tables such as sqlite_sequence and sqlite_stat1 but not
    /// sqlite_schema itself (<see cref="FindTable"/> still finds it, as "sqlite_schema" or "sqlite_master").
    /// </summary>
    public IReadOnlyList<SharcTable> Tables { get; }

    /// <summary>Every table, sqlite_schema first (page 1), for the checks that walk every b-tree.</summary>
    internal IReadOnlyList<SharcTable> AllTables { get; }

    /// <summary>
    /// The first name SQLite would fail to resolve in the schema's generated columns, as its "malformed database
    /// schema (t) - no such column: x"; found by the SQL layer on first use (<see cref="ExpressionsChecked"/>).
    /// </summary>
    internal string? ExpressionProblem { get; set; }

    internal volatile bool ExpressionsChecked;

    private static bool IsSchemaTable(SharcTable t) => t.RootPage == 1 && SqlNameComparer.Instance.Equals(t.Name, "sqlite_schema");
    /// <summary>Indexes in sqlite_schema order.</summary>
    public IReadOnlyList<SharcIndex> Indexes { get; }
    /// <summary>Views in sqlite_schema order.</summary>
    public IReadOnlyList<SharcView> Views { get; }
    /// <summary>Triggers in sqlite_schema order.</summary>
    public IReadOnlyList<SharcTrigger> Triggers { get; }

    /// <summary>The table with this name (ASCII case-insensitive, as SQLite matches names), or null.
    /// "sqlite_master" names sqlite_schema, as in SQLite.</summary>
    public SharcTable? FindTable(string name)
    {
        if (_tables.TryGetValue(name, out var t)) return t;
        return SqlNameComparer.Instance.Equals(name, "sqlite_master") ? _tables.GetValueOrDefault("sqlite_schema") : null;
    }
    /// <summary>The index with this name (case-insensitive), or null.</summary>
    public SharcIndex? FindIndex(string name) => _indexes.GetValueOrDefault(name);
    /// <summary>The view with this name (case-insensitive), or null.</summary>
    public SharcView? FindView(string name) => _views.GetValueOrDefault(name);

    /// <summary>The table with this name; throws <see cref="SharcException"/> when there is none.</summary>
    public SharcTable GetTable(string name)
        => FindTable(name) ?? throw new SharcException($"no such table: {name}");

    /// <summary>The index with this name; throws <see cref="SharcException"/> when there is none.</summary>
    public SharcIndex GetIndex(string name)
        => FindIndex(name) ?? throw new SharcException($"no such index: {name}");
}
