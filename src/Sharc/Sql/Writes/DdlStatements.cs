using Sharc.Schema.Parsing;
using Sharc.Format;
using Sharc.Sql.Ast;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;
using Sharc.Write;

namespace Sharc.Sql.Writes;

/// <summary>
/// CREATE / DROP / ALTER, REINDEX, ATTACH / DETACH, VACUUM, ANALYZE and the statements Sharc refuses, run on
/// the schema writer as one statement each. The writer's errors become <see cref="SharcSqlException"/> at the
/// statement, worded as SQLite words them.
/// </summary>
internal static class DdlStatements
{
    public static StatementOutcome Run(SharcDatabase db, string sql, SqlStatement statement, SqlValue[] parameters)
    {
        // SQLite's stored text can reach past the last token, up to the ';' or the end of the script.
        string text = sql[statement.Start..new SqlLexer(sql, statement.End).Next().Start];
        try
        {
            switch (statement)
            {
                case SqlCreateTableStatement { Temporary: true, Schema: { } s } when !IsTemp(s) && db.FindDatabase(s) is not null:
                    throw new SharcException("temporary table name must be unqualified");
                case SqlCreateTableStatement { Schema: { } s } when !IsOwn(db, s):
                    throw new SharcException($"unknown database {s}");
                case SqlCreateTableStatement { AsSelect: not null } t:
                    return CreateTableAs.Run(db, sql, t, parameters);
                case SqlCreateTableStatement t:
                    if (db.Schema.FindView(t.Name) is { } existing)
                        return t.IfNotExists ? StatementOutcome.None : throw new SharcException($"view {existing.Name} already exists");
                    return Write(db, () => new SchemaWriter(db).CreateTable(text));
                case SqlCreateIndexStatement index:
                    if (index.Schema is { } ixSchema && !IsOwn(db, ixSchema))
                    {
                        if (!IsTemp(ixSchema)) throw new SharcException($"unknown database {ixSchema}");
                        if (db.Schema.FindTable(index.Table) is { } mainTable)
                            throw new SharcException($"cannot create a TEMP index on non-TEMP table \"{mainTable.Name}\"");
                    }
                    if (db.Schema.FindView(index.Table) is not null) throw new SharcException("views may not be indexed");
                    return Write(db, () => new SchemaWriter(db).CreateIndex(text));
                case SqlCreateViewStatement view:
                    return CreateView(db, sql, text, view);
                case SqlCreateTriggerStatement trigger:
                    return CreateTrigger(db, sql, text, trigger);
                case SqlCreateVirtualTableStatement v:
                    return Unsupported.Throw<StatementOutcome>("CREATE VIRTUAL TABLE", sql, v.Start);
                case SqlDropStatement drop:
                    return Drop(db, drop);
                case SqlAlterTableStatement { Schema: { } s } alter when !IsOwn(db, s):
                    throw new SharcException($"no such table: {s}.{alter.Table}");
                case SqlAddColumnStatement add:
                    return Write(db, () => new SchemaWriter(db).AddColumn(add.Table, sql[add.Column.Start..add.Column.End]));
                case SqlRenameTableStatement rename:
                    string renamed = db.Schema.FindTable(rename.Table)?.Name ?? rename.Table;
                    var afterRename = Write(db, () => db.RenameTableInStatement(rename.Table, rename.NewName));
                    TempTriggers.TableRenamed(db, renamed, rename.NewName);
                    return afterRename;
                case SqlRenameColumnStatement rename:
                    return Write(db, () => db.RenameColumnInStatement(rename.Table, rename.Column, rename.NewName));
                case SqlDropColumnStatement d:
                    return Write(db, () => db.DropColumnInStatement(d.Table, d.Column));
                case SqlReindexStatement reindex:
                    return Reindex(db, reindex);
                case SqlVacuumStatement v:
                    return VacuumStatement.Run(db, sql, v, parameters);
                case SqlAnalyzeStatement a:
                    return AnalyzeStatement.Run(db, sql, a);
                case SqlAttachStatement attach:
                    return Attachments.Attach(db, sql, attach, parameters);
                case SqlDetachStatement detach:
                    return Attachments.Detach(db, sql, detach, parameters);
                default:
                    return Unsupported.Throw<StatementOutcome>(IntentCompiler.StatementName(statement), sql, statement.Start);
            }
        }
        catch (SharcException e) when (e.GetType() == typeof(SharcException))
        {
            throw new SharcSqlException(e.Message, sql, statement.Start);
        }
    }

    private static StatementOutcome Write(SharcDatabase db, Action op)
        => db.RunSqlStatement(() =>
        {
            op();
            return StatementOutcome.None;
        });

    private static StatementOutcome CreateView(SharcDatabase db, string sql, string text, SqlCreateViewStatement view)
    {
        if (view.Temporary && view.Schema is { } vs && !IsTemp(vs) && db.FindDatabase(vs) is not null)
            throw new SharcException("temporary table name must be unqualified");
        CheckSchemaName(db, sql, view.Schema, view.Start);
        // A TEMP view is a view of the temp database (listed in sqlite_temp_schema), routed there like a TEMP table.
        return Write(db, () => new SchemaWriter(db).CreateView(text, view.IfNotExists));
    }

    private static StatementOutcome CreateTrigger(SharcDatabase db, string sql, string text, SqlCreateTriggerStatement trigger)
    {
        CheckSchemaName(db, sql, trigger.Schema, trigger.Start);
        if (IsTemp(db.SchemaName)) return TempTriggers.Create(db, text, trigger);
        if (trigger.TableSchema is { } tableSchema && !IsOwn(db, tableSchema))
            throw new SharcException($"trigger {trigger.Name} cannot reference objects in database {tableSchema}");
        var table = db.Schema.FindTable(trigger.Table);
        bool isView = table is null && db.Schema.FindView(trigger.Table) is not null;
        if (table is null && !isView) throw new SharcException($"no such table: {db.SchemaName}.{trigger.Table}");
        string name = table?.Name ?? db.Schema.FindView(trigger.Table)!.Name;
        CheckTriggerTarget(trigger, name, isView);
        return Write(db, () => new SchemaWriter(db).CreateTrigger(text, trigger.Table, trigger.IfNotExists));
    }

    /// <summary>SQLite's refusals of a trigger's table or view <paramref name="name"/> (as the schema spells it).</summary>
    internal static void CheckTriggerTarget(SqlCreateTriggerStatement trigger, string name, bool isView)
    {
        if (name.StartsWith("sqlite_", StringComparison.OrdinalIgnoreCase)) throw new SharcException("cannot create trigger on system table");
        if (isView && trigger.Timing != SqlTriggerTiming.InsteadOf)
            throw new SharcException($"cannot create {(trigger.Timing == SqlTriggerTiming.After ? "AFTER" : "BEFORE")} trigger on view: {name}");
        if (!isView && trigger.Timing == SqlTriggerTiming.InsteadOf)
            throw new SharcException($"cannot create INSTEAD OF trigger on table: {name}");
    }

    private static StatementOutcome Drop(SharcDatabase db, SqlDropStatement drop)
    {
        // A connection-local (TEMP) view is found before the schema's objects, as SQLite searches temp first.
        if (drop.Kind == SqlObjectKind.View && (drop.Schema is null || SqlNameComparer.Instance.Equals(drop.Schema, "temp")) && db.HasTempView(drop.Name))
        {
            db.DropTempView(drop.Name, drop.IfExists);
            return StatementOutcome.None;
        }
        if (drop.Schema is { } s && !IsOwn(db, s))
        {
            // Sharc has no other schema, so nothing there exists.
            if (drop.IfExists) return StatementOutcome.None;
            throw new SharcException($"no such {drop.Kind.ToString().ToLowerInvariant()}: {s}.{drop.Name}");
        }
        switch (drop.Kind)
        {
            case SqlObjectKind.Table:
                if (db.Schema.FindTable(drop.Name) is null && db.Schema.FindView(drop.Name) is { } v)
                    throw new SharcException($"use DROP VIEW to delete view {v.Name}");
                if (db.Schema.FindTable(drop.Name) is not { } dropped)
                {
                    if (drop.IfExists) return StatementOutcome.None;
                    throw new SharcException($"no such table: {drop.Name}");
                }
                var outcome = Write(db, () => new SchemaWriter(db).DropTable(drop.Name, drop.IfExists));
                TempTriggers.TableDropped(db, dropped.Name);
                return outcome;
            case SqlObjectKind.Index:
                if (db.Schema.FindIndex(drop.Name) is null && !drop.IfExists) throw new SharcException($"no such index: {drop.Name}");
                return Write(db, () => new SchemaWriter(db).DropIndex(drop.Name, drop.IfExists));
            case SqlObjectKind.View:
                if (db.Schema.FindView(drop.Name) is null && db.Schema.FindTable(drop.Name) is null)
                {
                    if (drop.IfExists) return StatementOutcome.None;
                    throw new SharcException($"no such view: {drop.Name}");
                }
                return Write(db, () => new SchemaWriter(db).DropView(drop.Name, drop.IfExists));
            default:
                if (!db.Schema.Triggers.Any(t => SqlNameComparer.Instance.Equals(t.Name, drop.Name)))
                {
                    if (drop.IfExists) return StatementOutcome.None;
                    throw new SharcException($"no such trigger: {(drop.Schema is null ? "" : drop.Schema + ".")}{drop.Name}");
                }
                return Write(db, () => new SchemaWriter(db).DropTrigger(drop.Name, drop.IfExists));
        }
    }

    /// <summary>
    /// REINDEX [name]: every index, the indexes of a table, one index, or the indexes using a collation are emptied and
    /// filled again from their tables.
    /// </summary>
    private static StatementOutcome Reindex(SharcDatabase db, SqlReindexStatement reindex)
    {
        if (reindex.Qualifier is { } q && !IsOwn(db, q))
            throw new SharcException($"unknown database {q}");
        var schema = db.Schema;
        List<SharcIndex> indexes;
        if (reindex.Name is null)
        {
            indexes = [.. schema.Indexes];
        }
        else if (reindex.Qualifier is null && CollationCompare.TryParse(reindex.Name, out _) &&
                 !(schema.FindTable(reindex.Name) is not null || schema.FindIndex(reindex.Name) is not null))
        {
            indexes = [.. schema.Indexes.Where(ix => ix.Columns.Any(c => SqlNameComparer.Instance.Equals(c.Collation, reindex.Name)))];
        }
        else if (schema.FindTable(reindex.Name) is { } table)
        {
            indexes = [.. table.Indexes];
        }
        else if (schema.FindIndex(reindex.Name) is { } index)
        {
            indexes = [index];
        }
        else
        {
            throw new SharcException("unable to identify the object to be reindexed");
        }
        return Write(db, () =>
        {
            foreach (var ix in indexes) new SchemaWriter(db).Rebuild(ix);
        });
    }

    private static void CheckSchemaName(SharcDatabase db, string sql, string? schema, int at)
    {
        if (schema is not null && !IsOwn(db, schema) && !IsTemp(schema))
            throw new SharcSqlException($"unknown database {schema}", sql, at);
    }

    /// <summary>True when <paramref name="schema"/> names <paramref name="db"/> itself: the statement was routed to it.</summary>
    private static bool IsOwn(SharcDatabase db, string schema) => SqlNameComparer.Instance.Equals(schema, db.SchemaName);

    private static bool IsTemp(string? schema) => schema is not null && SqlNameComparer.Instance.Equals(schema, "temp");
}
