using Sharc.Schema.Parsing;
namespace Sharc.Write;

/// <summary>
/// CREATE / DROP of views and triggers: rows of sqlite_schema with root page 0 and the statement's text stored as
/// SQLite stores it (<see cref="StoredText"/>).
/// SQLite checks names only; what the view or trigger body refers to is resolved when it is used.
/// </summary>
internal sealed partial class SchemaWriter
{
    /// <summary>CREATE VIEW from the statement's text; returns false when it exists and IF NOT EXISTS was given.</summary>
    public bool CreateView(string sql, bool ifNotExists)
    {
        var stmt = Parse(sql, SchemaObjectKind.View);
        string name = stmt.Name;
        var schema = _db.Schema;
        if (schema.FindView(name) is not null || schema.FindTable(name) is not null)
        {
            if (ifNotExists) return false;
            throw new SharcException($"{(schema.FindView(name) is not null ? "view" : "table")} {name} already exists");
        }
        if (schema.FindIndex(name) is not null)
        {
            if (ifNotExists) return false;
            throw new SharcException($"there is already an index named {name}");
        }
        CheckName(name);
        InsertSchemaRow("view", name, name, 0, StoredText(sql, stmt));
        BumpCookie();
        return true;
    }

    /// <summary>
    /// CREATE TRIGGER from the statement's text, on <paramref name="table"/> (the table's name as the schema spells it);
    /// returns false when it exists and IF NOT EXISTS was given.
    /// </summary>
    public bool CreateTrigger(string sql, string table, bool ifNotExists)
    {
        var stmt = Parse(sql, SchemaObjectKind.Trigger);
        string name = stmt.Name;
        foreach (var t in _db.Schema.Triggers)
        {
            if (!SqlNameComparer.Instance.Equals(t.Name, name)) continue;
            if (ifNotExists) return false;
            throw new SharcException($"trigger {name} already exists");
        }
        CheckName(name);
        InsertSchemaRow("trigger", name, table, 0, StoredText(sql, stmt));
        BumpCookie();
        return true;
    }

    /// <summary>DROP VIEW, with SQLite's errors for a missing view or a table named instead.</summary>
    public void DropView(string name, bool ifExists)
    {
        var view = _db.Schema.FindView(name);
        if (view is null)
        {
            if (_db.Schema.FindTable(name) is { } table) throw new SharcException($"use DROP TABLE to delete table {table.Name}");
            if (ifExists) return;
            throw new SharcException($"no such view: {name}");
        }
        DeleteSchemaRows(r => r.Type == "view" && SqlNameComparer.Instance.Equals(r.Name, view.Name));
        BumpCookie();
    }

    /// <summary>DROP TRIGGER.</summary>
    public void DropTrigger(string name, bool ifExists)
    {
        var trigger = _db.Schema.Triggers.FirstOrDefault(t => SqlNameComparer.Instance.Equals(t.Name, name));
        if (trigger is null)
        {
            if (ifExists) return;
            throw new SharcException($"no such trigger: {name}");
        }
        DeleteSchemaRows(r => r.Type == "trigger" && SqlNameComparer.Instance.Equals(r.Name, trigger.Name));
        BumpCookie();
    }

    /// <summary>REINDEX of one index: its b-tree is emptied and filled again from the table's rows.</summary>
    public void Rebuild(SharcIndex index)
    {
        if (index.IsPrimaryKey) return; // a WITHOUT ROWID table's own b-tree: nothing separate to rebuild
        Mutator.FreeTree(index.RootPage, keepRoot: true);
        _db.WriterFor(index.TableName, changesRows: false).BuildIndex(index);
    }
}
