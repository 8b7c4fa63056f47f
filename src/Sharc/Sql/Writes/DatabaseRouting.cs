using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;

namespace Sharc.Sql.Writes;

/// <summary>
/// Which of the connection's databases a statement writes or defines objects in: the one its qualifier names, the
/// temp database for TEMP objects, or — unqualified — the first that holds the object in SQLite's search order
/// (temp, main, then attached). The statement then runs on that database's own writer, journal and schema; its
/// queries still see every database. A qualifier that names no database leaves the statement where it is, so that
/// it fails with SQLite's message for its kind.
/// </summary>
internal static class DatabaseRouting
{
    public static SharcDatabase Target(SharcDatabase db, SqlStatement statement)
    {
        var connection = db.Connection;
        if (connection.TempViewSet is not { Databases.Count: > 0 } && !CreatesTemp(statement)) return db;
        var target = statement switch
        {
            SqlInsertStatement i => Holding(connection, i.Table.Schema, i.Table.Name),
            SqlUpdateStatement u => Holding(connection, u.Table.Schema, u.Table.Name),
            SqlDeleteStatement d => Holding(connection, d.Table.Schema, d.Table.Name),
            SqlCreateTableStatement t => t.Temporary ? (t.Schema is null || IsTemp(t.Schema) ? connection.TempDatabase : null) : Named(connection, t.Schema),
            SqlCreateIndexStatement x => x.Schema is null ? Holding(connection, null, x.Table)
                : IsTemp(x.Schema) ? (Existing(connection, "temp") is { } temp && temp.Schema.FindTable(x.Table) is not null ? temp : null)
                : Named(connection, x.Schema),
            SqlCreateViewStatement v => v.Temporary || (v.Schema is not null && IsTemp(v.Schema)) ? connection.TempDatabase : Named(connection, v.Schema),
            // A TEMP trigger lives in temp whatever database its table is in.
            SqlCreateTriggerStatement tr => tr.Temporary || (tr.Schema is not null && IsTemp(tr.Schema)) ? connection.TempDatabase
                : tr.Schema is not null ? Named(connection, tr.Schema)
                : TempHolds(connection, tr.Table) ? connection.TempDatabase : null,
            // A registered temp view lives on the connection itself.
            SqlDropStatement { Kind: SqlObjectKind.View } dv when (dv.Schema is null || IsTemp(dv.Schema)) && connection.HasTempView(dv.Name) => null,
            SqlDropStatement drop => drop.Kind switch
            {
                SqlObjectKind.Table => Holding(connection, drop.Schema, drop.Name),
                _ => drop.Schema is not null ? Existing(connection, drop.Schema) : HoldingObject(connection, drop.Kind, drop.Name),
            },
            SqlAlterTableStatement alter => Holding(connection, alter.Schema, alter.Table),
            SqlPragmaStatement p => p.Schema is not null ? Existing(connection, p.Schema)
                : p.Value is not null && p.Name.ToLowerInvariant() is "table_info" or "table_xinfo" or "index_list" ? Holding(connection, null, p.Value)
                : p.Value is not null && p.Name.ToLowerInvariant() is "index_info" or "index_xinfo" ? HoldingObject(connection, SqlObjectKind.Index, p.Value)
                : null,
            SqlReindexStatement r when r.Qualifier is not null => Existing(connection, r.Qualifier),
            _ => null,
        };
        return target ?? connection;
    }

    private static bool CreatesTemp(SqlStatement statement) => statement switch
    {
        SqlCreateTableStatement t => t.Temporary || (t.Schema is not null && IsTemp(t.Schema)),
        SqlCreateTriggerStatement tr => tr.Temporary || (tr.Schema is not null && IsTemp(tr.Schema)),
        SqlCreateViewStatement v => v.Temporary || (v.Schema is not null && IsTemp(v.Schema)),
        _ => false,
    };

    internal static bool IsTemp(string name) => SqlNameComparer.Instance.Equals(name, "temp");

    /// <summary>The database called <paramref name="name"/> if it exists (temp only once made).</summary>
    internal static SharcDatabase? Existing(SharcDatabase connection, string name)
        => SqlNameComparer.Instance.Equals(name, "main") ? connection : connection.TempViewSet?.FindDatabase(name);

    /// <summary>A database a CREATE names: temp is made on demand.</summary>
    private static SharcDatabase? Named(SharcDatabase connection, string? name)
        => name is null ? null : IsTemp(name) ? connection.TempDatabase : Existing(connection, name);

    private static bool TempHolds(SharcDatabase connection, string table)
        => Existing(connection, "temp") is { } temp && (temp.Schema.FindTable(table) is not null || temp.Schema.FindView(table) is not null);

    /// <summary>The database holding table or view <paramref name="name"/>: the qualified one, or the first in search order.</summary>
    internal static SharcDatabase? Holding(SharcDatabase connection, string? qualifier, string name)
    {
        if (qualifier is not null) return Existing(connection, qualifier);
        foreach (var db in SearchOrder(connection))
            if (db.Schema.FindTable(name) is not null || db.Schema.FindView(name) is not null) return db;
        return null;
    }

    private static SharcDatabase? HoldingObject(SharcDatabase connection, SqlObjectKind kind, string name)
    {
        foreach (var db in SearchOrder(connection))
        {
            var schema = db.Schema;
            bool holds = kind switch
            {
                SqlObjectKind.Index => schema.FindIndex(name) is not null,
                SqlObjectKind.View => schema.FindView(name) is not null,
                SqlObjectKind.Trigger => schema.Triggers.Any(t => SqlNameComparer.Instance.Equals(t.Name, name)),
                _ => schema.FindTable(name) is not null,
            };
            if (holds) return db;
        }
        return null;
    }

    /// <summary>temp (when made), main, then the attached databases in ATTACH order.</summary>
    private static IEnumerable<SharcDatabase> SearchOrder(SharcDatabase connection)
    {
        var databases = connection.TempViewSet?.Databases ?? [];
        if (databases.Count > 0 && IsTemp(databases[0].Name)) yield return databases[0].Database;
        yield return connection;
        foreach (var d in databases)
            if (!IsTemp(d.Name)) yield return d.Database;
    }
}
