using System.Collections.Immutable;
using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using Sharc.Write;

namespace Sharc.Sql.Writes;

/// <summary>
/// TEMP triggers on tables and views of main or an attached database. As in SQLite they are rows of the temp
/// database's schema (so only this connection has them), each bound when created to the database its table was found
/// in (its qualifier, or temp, main, attached in search order); they fire before that table's own triggers, oldest
/// first, and go with the table when it is dropped or follow it when it is renamed.
/// </summary>
internal static class TempTriggers
{
    /// <summary>The connection's temp database when it has been made, else null.</summary>
    public static SharcDatabase? Existing(SharcDatabase db)
    {
        var databases = db.Connection.TempViewSet?.Databases;
        return databases is { Count: > 0 } && IsTemp(databases[0].Name) ? databases[0].Database : null;
    }

    /// <summary>True when a temp trigger names <paramref name="table"/> of <paramref name="db"/> (not itself temp); a cheap test.</summary>
    public static bool AnyOn(SharcDatabase db, string table)
    {
        if (Existing(db) is not { } temp || ReferenceEquals(temp, db)) return false;
        var triggers = temp.Schema.Triggers;
        for (int i = 0; i < triggers.Count; i++)
            if (SqlNameComparer.Instance.Equals(triggers[i].TableName, table) && ReferenceEquals(HomeOf(temp, triggers[i].Name, null), db)) return true;
        return false;
    }

    /// <summary>
    /// The database whose table trigger <paramref name="name"/> of the temp database fires on: the one recorded when it
    /// was created, else (a trigger of an earlier life of the record) the one its text and the search order give.
    /// </summary>
    public static SharcDatabase? HomeOf(SharcDatabase temp, string name, SqlCreateTriggerStatement? ast)
    {
        if (temp.TempTriggerHomes.TryGetValue(name, out var home)) return Database(temp, home);
        if (ast is null) return temp;
        return ast.TableSchema is { } s ? Database(temp, s) : Holding(temp, ast.Table);
    }

    /// <summary>The database called <paramref name="name"/> (temp, main or an attached one), as any statement finds it.</summary>
    private static SharcDatabase? Database(SharcDatabase temp, string name) => DatabaseRouting.Existing(temp.Connection, name);

    /// <summary>The first database, in SQLite's search order (temp, main, attached), holding table or view <paramref name="name"/>.</summary>
    private static SharcDatabase? Holding(SharcDatabase temp, string name) => DatabaseRouting.Holding(temp.Connection, null, name);

    private static bool Holds(SharcDatabase db, string name) => db.Schema.FindTable(name) is not null || db.Schema.FindView(name) is not null;

    /// <summary>CREATE TRIGGER routed to the temp database: its table may lie in any database of the connection.</summary>
    public static StatementOutcome Create(SharcDatabase temp, string text, SqlCreateTriggerStatement trigger)
    {
        SharcDatabase? home;
        if (trigger.TableSchema is { } s)
        {
            home = Database(temp, s);
            if (home is null || !Holds(home, trigger.Table)) throw new SharcException($"no such table: {s}.{trigger.Table}");
        }
        else
        {
            home = Holding(temp, trigger.Table) ?? throw new SharcException($"no such table: {trigger.Table}");
        }
        var table = home.Schema.FindTable(trigger.Table);
        string name = table?.Name ?? home.Schema.FindView(trigger.Table)!.Name;
        DdlStatements.CheckTriggerTarget(trigger, name, isView: table is null);
        return temp.RunSqlStatement(() =>
        {
            if (new SchemaWriter(temp).CreateTrigger(text, trigger.Table, trigger.IfNotExists))
                temp.TempTriggerHomes = temp.TempTriggerHomes.SetItem(trigger.Name, home.SchemaName);
            return StatementOutcome.None;
        });
    }

    /// <summary>After DROP TABLE of <paramref name="table"/> in <paramref name="db"/>: its temp triggers go too, as in SQLite.</summary>
    public static void TableDropped(SharcDatabase db, string table)
    {
        if (Existing(db) is not { } temp || ReferenceEquals(temp, db)) return;
        var names = new List<string>();
        foreach (var t in temp.Schema.Triggers)
            if (SqlNameComparer.Instance.Equals(t.TableName, table) && ReferenceEquals(HomeOf(temp, t.Name, null), db)) names.Add(t.Name);
        if (names.Count == 0) return;
        temp.JoinConnectionTransaction();
        temp.RunSqlStatement(() =>
        {
            foreach (var n in names) new SchemaWriter(temp).DropTrigger(n, ifExists: true);
            return StatementOutcome.None;
        });
    }

    /// <summary>
    /// After ALTER TABLE <paramref name="oldName"/> RENAME TO <paramref name="newName"/> in <paramref name="db"/>: the
    /// temp triggers on it name the new table (tbl_name and text), and temp triggers and views that read it by a name
    /// temp does not shadow are rewritten, as SQLite rewrites sqlite_temp_schema.
    /// </summary>
    public static void TableRenamed(SharcDatabase db, string oldName, string newName)
    {
        if (Existing(db) is not { } temp || ReferenceEquals(temp, db)) return;
        bool shadowed = Holds(temp, oldName);
        bool Affected(SharcTrigger t) => (SqlNameComparer.Instance.Equals(t.TableName, oldName) && ReferenceEquals(HomeOf(temp, t.Name, null), db))
            || (!shadowed && RenameRewriter.MentionsTable(t.Sql, oldName));
        if (!temp.Schema.Triggers.Any(Affected) && (shadowed || !temp.Schema.Views.Any(v => RenameRewriter.MentionsTable(v.Sql, oldName)))) return;
        var owned = temp.Schema.Triggers.Where(t => SqlNameComparer.Instance.Equals(t.TableName, oldName) && ReferenceEquals(HomeOf(temp, t.Name, null), db))
            .Select(t => t.Name).ToHashSet(SqlNameComparer.Instance);
        temp.JoinConnectionTransaction();
        temp.RunSqlStatement(() =>
        {
            new SchemaWriter(temp).RenameInTempSchema(oldName, newName, owned, rewriteReaders: !shadowed);
            return StatementOutcome.None;
        });
    }

    private static bool IsTemp(string name) => DatabaseRouting.IsTemp(name);
}
