using System.Runtime.CompilerServices;
using Sharc.Format;
using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using Sharc.Sql.Execution;
using Sharc.Sql.Intent;
using Sharc.Sql.Parsing;
using Sharc.Sql.Values;
using Sharc.Write;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Writes;

/// <summary>A stored trigger, parsed once per schema.</summary>
internal sealed record TriggerProgram(SharcTrigger Stored, SqlCreateTriggerStatement Ast, bool InTemp = false)
{
    /// <summary>The text the program was parsed from, which its positions refer to.</summary>
    public string Sql { get; init; } = Stored.Sql;

    /// <summary>BEFORE when no timing was written, as in SQLite.</summary>
    public SqlTriggerTiming Timing => Ast.Timing == SqlTriggerTiming.Unspecified ? SqlTriggerTiming.Before : Ast.Timing;
}

/// <summary>
/// Fires triggers as SQLite does (FOR EACH ROW; BEFORE, AFTER and INSTEAD OF; WHEN; UPDATE OF; RAISE). A trigger's
/// NEW and OLD rows are handed to its statements as parameter slots (<see cref="TriggerRows"/>); its statements run
/// through the ordinary SQL write engine inside the statement that fired them (no savepoint of their own: a failure
/// undoes the whole firing statement). With recursive_triggers off (the default) a trigger never fires while it is
/// already running, and rows deleted by REPLACE fire no DELETE trigger; with it on, triggers nest to SQLite's depth
/// limit (or as deep as the thread's stack allows, with the same error), and a REPLACE that would delete a row of a
/// table with DELETE triggers is refused as not supported.
/// </summary>
internal sealed class TriggerRunner : ITriggerHook
{
    /// <summary>SQLite's SQLITE_MAX_TRIGGER_DEPTH.</summary>
    private const int MaxDepth = 1000;

    private const string NoSuchTable = "no such table: ";

    private readonly SharcDatabase _db;
    private SharcSchema? _schema;
    private List<TriggerProgram> _programs = [];
    private readonly List<TriggerProgram> _active = [];

    public TriggerRunner(SharcDatabase db) => _db = db;

    /// <summary>The database's text encoding (trigger rows hold text as the SQL engine's UTF-8).</summary>
    public SharcTextEncoding TextEncoding => _db.TextEncoding;

    /// <summary>Every trigger of the schema in firing order: SQLite fires the most recently created first.</summary>
    internal List<TriggerProgram> Programs
    {
        get
        {
            var schema = _db.Schema;
            if (ReferenceEquals(schema, _schema)) return _programs;
            var programs = new List<TriggerProgram>(schema.Triggers.Count);
            for (int i = schema.Triggers.Count - 1; i >= 0; i--)
            {
                var stored = schema.Triggers[i];
                // SQLite stores a TEMP trigger as "CREATE TRIGGER …"; parsed back as TEMP, its steps may name schemas.
                bool inTemp = SqlNameComparer.Instance.Equals(_db.SchemaName, "temp");
                string text = inTemp && stored.Sql.StartsWith("CREATE ", StringComparison.OrdinalIgnoreCase) ? "CREATE TEMP " + stored.Sql["CREATE ".Length..] : stored.Sql;
                if (SqlParser.ParseStatement(text) is not SqlCreateTriggerStatement ast)
                    throw new SharcCorruptException($"malformed database schema ({stored.Name})");
                programs.Add(new TriggerProgram(stored, ast, inTemp) { Sql = text });
            }
            _programs = programs;
            _schema = schema;
            return programs;
        }
    }

    /// <summary>True when any trigger (its own, or a TEMP one) may be attached to the table or view named <paramref name="name"/>.</summary>
    public bool HasTriggers(string name) => _db.HasTriggers(name);

    /// <summary>
    /// The triggers on <paramref name="name"/> in the order SQLite tries them: the temp database's triggers bound to
    /// this database's table, oldest first (SQLite puts them ahead of the table's own list), then the table's own
    /// triggers, newest first. In the temp database, a trigger bound to another database's table is not its own.
    /// </summary>
    private IEnumerable<TriggerProgram> Candidates(string name)
    {
        if (TempTriggers.Existing(_db) is { } temp)
        {
            if (!ReferenceEquals(temp, _db))
            {
                var programs = temp.TriggerRunner.Programs;
                for (int i = programs.Count - 1; i >= 0; i--)
                {
                    var p = programs[i];
                    if (SqlNameComparer.Instance.Equals(p.Ast.Table, name) && ReferenceEquals(TempTriggers.HomeOf(temp, p.Stored.Name, p.Ast), _db)) yield return p;
                }
            }
            else
            {
                foreach (var p in Programs)
                    if (SqlNameComparer.Instance.Equals(p.Ast.Table, name) && ReferenceEquals(TempTriggers.HomeOf(temp, p.Stored.Name, p.Ast), temp)) yield return p;
                yield break;
            }
        }
        foreach (var p in Programs) yield return p;
    }

    /// <summary>
    /// The triggers a statement fires on <paramref name="table"/>, or null when there are none. For UPDATE,
    /// <paramref name="assigned"/> names the columns the statement sets (an UPDATE OF trigger fires only when one of
    /// its columns is among them).
    /// </summary>
    public TableTriggers? For(SharcTable table, SqlTriggerEvent kind, IReadOnlyList<string>? assigned = null)
        // The name list is built only for a table that has triggers: the C# API asks for every row it writes.
        => HasTriggers(table.Name) ? For(table.Name, table, [.. table.Columns.Select(c => c.Name)], kind, assigned) : null;

    /// <summary>As <see cref="For(SharcTable, SqlTriggerEvent, IReadOnlyList{string}?)"/> for a table or a view (<paramref name="table"/> null).</summary>
    public TableTriggers? For(string name, SharcTable? table, IReadOnlyList<string> columns, SqlTriggerEvent kind, IReadOnlyList<string>? assigned)
    {
        if (!HasTriggers(name)) return null;
        List<TriggerProgram>? before = null, after = null, instead = null;
        foreach (var p in Candidates(name))
        {
            var ast = p.Ast;
            if (ast.Event != kind || !SqlNameComparer.Instance.Equals(ast.Table, name)) continue;
            if (kind == SqlTriggerEvent.Update && ast.UpdateColumns.Count > 0 && !Overlaps(ast.UpdateColumns, assigned)) continue;
            var list = p.Timing switch
            {
                SqlTriggerTiming.After => after ??= [],
                SqlTriggerTiming.InsteadOf => instead ??= [],
                _ => before ??= [],
            };
            list.Add(p);
        }
        if (before is null && after is null && instead is null) return null;
        var rows = new TriggerRows(table, columns, kind != SqlTriggerEvent.Delete, kind != SqlTriggerEvent.Insert);
        return new TableTriggers(this, rows, before ?? [], after ?? [], instead ?? []);
    }

    private static bool Overlaps(IReadOnlyList<string> columns, IReadOnlyList<string>? assigned)
    {
        if (assigned is null) return false;
        foreach (var c in columns)
            foreach (var a in assigned)
                if (SqlNameComparer.Instance.Equals(c, a)) return true;
        return false;
    }

    /// <summary>
    /// Runs <paramref name="programs"/> for one row, in order. Returns false when one of them raised IGNORE: the rest
    /// of the row's work is abandoned (the row is not written by a BEFORE trigger; later triggers do not run).
    /// <paramref name="conflict"/> is the firing statement's OR clause, which overrides those of the trigger's statements.
    /// </summary>
    public bool Fire(IReadOnlyList<TriggerProgram> programs, TriggerRows rows, SqlValue[] slots, SqlConflictAction conflict)
    {
        foreach (var p in programs)
        {
            if (!_db.Settings.RecursiveTriggers && _active.Contains(p)) continue;
            if (_active.Count >= MaxDepth || !RuntimeHelpers.TryEnsureSufficientExecutionStack())
                throw new SharcException("too many levels of trigger recursion");
            _active.Add(p);
            _db.TriggerDepth++;
            var session = _db.Session;
            var saved = session.Save();
            try
            {
                using var scope = IntentCompiler.EnterTrigger(rows);
                if (p.Ast.When is { } when && !WhenHolds(p, when, slots)) continue;
                foreach (var statement in p.Ast.Body) RunStep(p, statement, rows, slots, conflict);
            }
            catch (TriggerIgnoreException)
            {
                return false;
            }
            catch (SharcSqlException e) when (!p.InTemp && e.SqliteMessage.StartsWith(NoSuchTable, StringComparison.Ordinal)
                && !e.SqliteMessage.Contains('.', StringComparison.Ordinal))
            {
                // SQLite binds every table a trigger names to the trigger's schema, and says so when one is missing
                // (a TEMP trigger's names are searched as a statement's are).
                throw new SharcSqlException(NoSuchTable + "main." + e.SqliteMessage[NoSuchTable.Length..], p.Sql, 0);
            }
            finally
            {
                session.Restore(saved);
                _active.RemoveAt(_active.Count - 1);
                _db.TriggerDepth--;
            }
        }
        return true;
    }

    private bool WhenHolds(TriggerProgram p, SqlExpr when, SqlValue[] slots)
    {
        using var rx = RowExpressions.Compile(_db, p.Sql, [when]);
        DmlTarget.Bind(rx.Parameters, slots);
        return rx.IsTrue(0);
    }

    /// <summary>
    /// A trigger's writes count in total_changes(); changes() reports each to the program's later statements, and
    /// the firing statement's own count replaces it when the program ends.
    /// </summary>
    private void Counted(StatementOutcome outcome) => _db.Session.TriggerStatementDone(outcome.Changes);

    private void RunStep(TriggerProgram p, SqlStatement statement, TriggerRows rows, SqlValue[] slots, SqlConflictAction conflict)
    {
        string sql = p.Sql;
        int count = rows.SlotCount;
        // A TEMP trigger's writes go to the first database holding the table they name (temp, main, attached), which
        // need not be the database of the table that fired it.
        var db = p.InTemp && statement is not SqlSelectStatement ? DatabaseRouting.Target(_db, statement) : _db;
        if (!ReferenceEquals(db, _db)) db.JoinConnectionTransaction();
        switch (statement)
        {
            case SqlInsertStatement insert:
                insert = insert with { ParameterCount = count, Conflict = conflict == SqlConflictAction.Default ? insert.Conflict : conflict };
                if (!ViewTriggers.TryRun(db, sql, insert, slots, out _)) Counted(DmlInsert.Run(db, sql, insert, slots));
                break;
            case SqlUpdateStatement update:
                update = update with { ParameterCount = count, Conflict = conflict == SqlConflictAction.Default ? update.Conflict : conflict };
                if (!ViewTriggers.TryRun(db, sql, update, slots, out _)) Counted(DmlChange.Update(db, sql, update, slots));
                break;
            case SqlDeleteStatement delete:
                delete = delete with { ParameterCount = count };
                if (!ViewTriggers.TryRun(db, sql, delete, slots, out _)) Counted(DmlChange.Delete(db, sql, delete, slots));
                break;
            case SqlSelectStatement select:
                DmlTarget.RunSelect(_db, sql, select with { ParameterCount = count }, slots, out _);
                break;
            default:
                Unsupported.Throw(IntentCompiler.StatementName(statement) + " in a trigger", sql, statement.Start);
                break;
        }
    }

    // ---------------------------------------------------------------- the C# API's writes

    long ITriggerHook.Insert(TableWriter writer, StoredValue[] row, bool replace, StoredValue explicitRowId)
    {
        var triggers = For(writer.Table, SqlTriggerEvent.Insert);
        if (triggers is null) return writer.Insert(row, replace, explicitRowId);
        var conflict = replace ? SqlConflictAction.Replace : SqlConflictAction.Default;
        if (!triggers.BeforeInsert(row, explicitRowId, conflict)) return 0;
        long rowId = writer.Insert(row, replace, explicitRowId);
        triggers.AfterInsert(row, rowId, conflict);
        return rowId;
    }

    bool ITriggerHook.Update(TableWriter writer, long rowId, int[] columns, StoredValue[] values)
    {
        var table = writer.Table;
        var triggers = For(table, SqlTriggerEvent.Update, [.. columns.Select(c => table.Columns[c].Name)]);
        if (triggers is null) return writer.Update(rowId, columns, values);
        var old = new StoredValue[table.Columns.Count];
        if (!writer.ReadRow(rowId, old)) return false;
        var proposed = (StoredValue[])old.Clone();
        long newRowId = rowId;
        for (int i = 0; i < columns.Length; i++)
        {
            proposed[columns[i]] = values[i];
            if (columns[i] == table.RowIdAliasOrdinal && values[i].Type == SharcColumnType.Integer) newRowId = values[i].Integer;
        }
        if (!triggers.BeforeUpdate(old, rowId, proposed, newRowId, SqlConflictAction.Default)) return false;
        if (!writer.Update(rowId, columns, values)) return false;
        var now = new StoredValue[old.Length];
        if (writer.ReadRow(newRowId, now)) triggers.AfterUpdate(old, rowId, now, newRowId, SqlConflictAction.Default);
        return true;
    }

    bool ITriggerHook.Delete(TableWriter writer, long rowId)
    {
        var triggers = For(writer.Table, SqlTriggerEvent.Delete);
        if (triggers is null) return writer.DeleteRow(rowId);
        var old = new StoredValue[writer.Table.Columns.Count];
        if (!writer.ReadRow(rowId, old)) return false;
        if (!triggers.BeforeDelete(old, rowId, SqlConflictAction.Default)) return false;
        if (!writer.DeleteRow(rowId)) return false;
        triggers.AfterDelete(old, rowId, SqlConflictAction.Default);
        return true;
    }
}

/// <summary>
/// The triggers one statement fires on one table or view, with the slots that carry each row's NEW and OLD values
/// to them (reused from row to row: a trigger program has finished with them before the next row).
/// </summary>
internal sealed class TableTriggers(TriggerRunner runner, TriggerRows rows, List<TriggerProgram> before, List<TriggerProgram> after, List<TriggerProgram> insteadOf)
{
    private readonly SqlValue[] _slots = new SqlValue[rows.SlotCount];

    public TriggerRows Rows => rows;

    public bool HasBefore => before.Count > 0;

    public bool HasAfter => after.Count > 0;

    public bool HasInsteadOf => insteadOf.Count > 0;

    private SharcTable Table => rows.Table!;

    /// <summary>
    /// BEFORE INSERT: NEW is the row about to be inserted (affinity applied); its rowid is -1 while it is not chosen
    /// yet, as in SQLite. False when a trigger raised IGNORE (the row must not be inserted).
    /// </summary>
    public bool BeforeInsert(ReadOnlySpan<StoredValue> row, StoredValue explicitRowId, SqlConflictAction conflict)
    {
        if (before.Count == 0) return true;
        int alias = Table.RowIdAliasOrdinal;
        var given = alias >= 0 && row[alias].Type != SharcColumnType.Null ? row[alias] : explicitRowId;
        long rowId = given.Type == SharcColumnType.Integer ? given.Integer : -1;
        SetRow(0, row, rowId);
        ClearRow(rows.OldBase);
        return runner.Fire(before, rows, _slots, conflict);
    }

    /// <summary>AFTER INSERT: NEW is the row as inserted.</summary>
    public bool AfterInsert(ReadOnlySpan<StoredValue> row, long rowId, SqlConflictAction conflict)
    {
        if (after.Count == 0) return true;
        SetRow(0, row, rowId);
        ClearRow(rows.OldBase);
        return runner.Fire(after, rows, _slots, conflict);
    }

    /// <summary>BEFORE UPDATE: OLD is the row as it stands, NEW the values the statement computed for it.</summary>
    public bool BeforeUpdate(ReadOnlySpan<StoredValue> old, long oldRowId, ReadOnlySpan<StoredValue> proposed, long newRowId, SqlConflictAction conflict)
    {
        if (before.Count == 0) return true;
        SetRow(0, proposed, newRowId);
        SetRow(rows.OldBase, old, oldRowId);
        return runner.Fire(before, rows, _slots, conflict);
    }

    /// <summary>AFTER UPDATE: OLD is the row before the statement (and its BEFORE triggers) changed it, NEW the row as written.</summary>
    public bool AfterUpdate(ReadOnlySpan<StoredValue> old, long oldRowId, ReadOnlySpan<StoredValue> written, long rowId, SqlConflictAction conflict)
    {
        if (after.Count == 0) return true;
        SetRow(0, written, rowId);
        SetRow(rows.OldBase, old, oldRowId);
        return runner.Fire(after, rows, _slots, conflict);
    }

    /// <summary>BEFORE DELETE: OLD is the row as it stands.</summary>
    public bool BeforeDelete(ReadOnlySpan<StoredValue> old, long rowId, SqlConflictAction conflict)
    {
        if (before.Count == 0) return true;
        ClearRow(0);
        SetRow(rows.OldBase, old, rowId);
        return runner.Fire(before, rows, _slots, conflict);
    }

    /// <summary>AFTER DELETE: OLD is the row as it was read before its BEFORE triggers ran.</summary>
    public bool AfterDelete(ReadOnlySpan<StoredValue> old, long rowId, SqlConflictAction conflict)
    {
        if (after.Count == 0) return true;
        ClearRow(0);
        SetRow(rows.OldBase, old, rowId);
        return runner.Fire(after, rows, _slots, conflict);
    }

    /// <summary>INSTEAD OF on a view: the rows are the view's values as they are (no affinity is applied).</summary>
    public bool InsteadOf(SqlValue[]? newRow, SqlValue[]? oldRow, SqlConflictAction conflict)
    {
        int width = rows.Columns.Count;
        for (int i = 0; i < width; i++)
        {
            _slots[i] = newRow is null ? SqlValue.Null : newRow[i].ToOwned();
            _slots[rows.OldBase + i] = oldRow is null ? SqlValue.Null : oldRow[i].ToOwned();
        }
        _slots[width] = _slots[rows.OldBase + width] = SqlValue.Null;
        return runner.Fire(insteadOf, rows, _slots, conflict);
    }

    private void SetRow(int at, ReadOnlySpan<StoredValue> row, long rowId)
    {
        var table = Table;
        var encoding = runner.TextEncoding;
        int alias = table.RowIdAliasOrdinal;
        for (int i = 0; i < row.Length; i++)
            _slots[at + i] = i == alias ? SqlValue.Integer(rowId) : WriteValues.ToSql(row[i], table.Columns[i], encoding).ToOwned();
        _slots[at + row.Length] = SqlValue.Integer(rowId);
    }

    private void ClearRow(int at) => Array.Clear(_slots, at, rows.Width);
}
