using Sharc.Format;
using Sharc.Sql.Ast;
using Sharc.Sql.Execution;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;
using Sharc.Write;

namespace Sharc.Sql.Writes;

/// <summary>
/// INSERT [OR action] INTO t [AS alias] [(columns)] VALUES … | SELECT … | DEFAULT VALUES [RETURNING …]: the source
/// rows are computed first (a SELECT runs to completion before the first row is written), then each row gets its
/// columns' affinity and defaults and goes through the table writer with SQLite's conflict resolution.
/// </summary>
internal sealed class DmlInsert : IDisposable
{
    private readonly SharcDatabase _db;
    private readonly string _sql;
    private readonly SqlInsertStatement _insert;
    private readonly SharcTable _table;
    private readonly int[] _targets;
    private readonly SqlConflictAction _action;
    private readonly bool _byConstraint;
    private readonly RowExpressions? _values;
    private readonly int _valueRows;
    private readonly StoredValue[] _stored;
    private readonly bool[] _given;
    private readonly byte[]?[] _scratch;
    private readonly SqlValue[] _row;
    private TableTriggers? _triggers;
    // Where the run's inserted rowids go for last_insert_rowid() (null inside a trigger).
    private SqlSession? _session;

    private DmlInsert(SharcDatabase db, string sql, SqlInsertStatement insert)
    {
        _db = db;
        _sql = sql;
        if (insert.With is not null)
        {
            // WITH before INSERT names tables for the SELECT that feeds it: it becomes that SELECT's own WITH.
            if (insert.Source is { With: not null }) Unsupported.Throw("WITH both before INSERT and in its SELECT", sql, insert.With.Start);
            if (insert.Source is not null) insert = insert with { Source = insert.Source with { With = insert.With } };
        }
        _insert = insert;
        _table = DmlTarget.Resolve(db, sql, insert.Table);
        Schema = db.Schema;
        _targets = insert.Source is null ? [] : TargetColumns(sql, insert, _table);
        // DEFAULT VALUES supplies no value for a column list (SQLite checks the names first, then the count).
        if (insert.Source is null && insert.Columns.Count > 0) CheckCount(sql, insert, _table, TargetColumns(sql, insert, _table), 0);
        _action = insert.Conflict == SqlConflictAction.Default ? SqlConflictAction.Abort : insert.Conflict;
        // Without an OR clause each constraint resolves its conflicts by its own ON CONFLICT clause.
        _byConstraint = insert.Conflict == SqlConflictAction.Default && _table.HasConflictClauses;
        _stored = new StoredValue[_table.Columns.Count];
        _given = new bool[_table.Columns.Count];
        _scratch = new byte[]?[_table.Columns.Count + 1];
        _row = new SqlValue[_targets.Length];
        if (insert.Source is { With: null, Body: SqlValuesBody values, OrderBy.Count: 0, Limit: null })
        {
            var flat = new List<SqlExpr>();
            foreach (var row in values.Rows)
            {
                if (row.Count != values.Rows[0].Count)
                    throw new SharcSqlException("all VALUES must have the same number of terms", sql, row.Count > 0 ? row[0].Start : insert.Source.Start);
                flat.AddRange(row);
            }
            CheckCount(sql, insert, _table, _targets, values.Rows[0].Count);
            _values = RowExpressions.Compile(db, sql, flat);
            _valueRows = values.Rows.Count;
        }
    }

    /// <summary>The schema the statement was compiled under (a prepared insert compiles again after a change).</summary>
    public SharcSchema Schema { get; }

    /// <summary>Compiles the statement: target table and columns, and the VALUES expressions.</summary>
    public static DmlInsert Compile(SharcDatabase db, string sql, SqlInsertStatement insert) => new(db, sql, insert);

    /// <summary>Compiles and runs the statement once.</summary>
    public static StatementOutcome Run(SharcDatabase db, string sql, SqlInsertStatement insert, SqlValue[] parameters)
    {
        using var command = new DmlInsert(db, sql, insert);
        return command.Run(parameters);
    }

    /// <summary>
    /// Runs the statement with <paramref name="parameters"/>. VALUES rows are computed one at a time, each just
    /// before it is inserted (as SQLite does); a SELECT source runs to completion first.
    /// </summary>
    public StatementOutcome Run(SqlValue[] parameters)
        => _db.RunSqlStatement((this, parameters), static s => s.Item1.RunCore(s.parameters), _action);

    private StatementOutcome RunCore(SqlValue[] parameters)
    {
        var db = _db;
        using var returning = _insert.Returning.Count == 0 ? null : ReturningRows.Create(db, _sql, _insert.Returning, _insert.Table, _table, parameters);
        using var upsert = _insert.Upserts.Count > 0 ? new DmlUpsert(db, _sql, _insert, _table, parameters) : null;
        var writer = db.WriterFor(_table.Name);
        _triggers = writer.HasTriggers ? db.TriggerRunner.For(_table, SqlTriggerEvent.Insert) : null;
        int changes = 0;
        // Inside a trigger program too: the program's later statements see its inserts, and TriggerRunner puts the
        // firing statement's value back when the program ends, as SQLite does.
        _session = db.Session;
        if (_insert.Source is null)
        {
            InsertRow(writer, upsert, returning, ref changes);
        }
        else if (_values is not null)
        {
            DmlTarget.Bind(_values.Parameters, parameters);
            int k = 0;
            for (int r = 0; r < _valueRows; r++)
            {
                for (int i = 0; i < _row.Length; i++) _row[i] = _values.Evaluate(k++);
                InsertRow(writer, upsert, returning, ref changes);
            }
        }
        else
        {
            var select = new SqlSelectStatement(_insert.Source)
            {
                Start = _insert.Source.Start,
                End = _insert.Source.End,
                ParameterCount = _insert.ParameterCount,
                ParameterNames = _insert.ParameterNames,
            };
            var rows = DmlTarget.RunSelect(db, _sql, select, parameters, out int width, planKey: _insert);
            CheckCount(_sql, _insert, _table, _targets, width);
            foreach (var source in rows)
            {
                db.Interruption.Check();
                source.AsSpan().CopyTo(_row);
                InsertRow(writer, upsert, returning, ref changes);
            }
        }
        return new StatementOutcome(changes, true, returning is null ? null : new QueryExecution(returning.Columns, returning.Rows));
    }

    /// <summary>Inserts the values in <see cref="_row"/> (one per target column) with the statement's conflict action.</summary>
    private void InsertRow(TableWriter writer, DmlUpsert? upsert, ReturningRows? returning, ref int changes)
    {
        var encoding = _db.TextEncoding;
        var table = _table;
        var stored = _stored;
        var explicitRowId = StoredValue.Null;
        Array.Clear(stored);
        Array.Clear(_given);
        for (int i = 0; i < _targets.Length; i++)
        {
            int o = _targets[i];
            if (o < 0)
            {
                WriteValues.Store(ref explicitRowId, ref _scratch[^1], _row[i], SharcAffinity.Integer, encoding);
                continue;
            }
            WriteValues.Store(ref stored[o], ref _scratch[o], _row[i], table.Columns[o].Affinity, encoding);
            _given[o] = true;
        }
        writer.FillDefaults(stored, _given);
        if (_action == SqlConflictAction.Replace) DefaultsForNotNull(writer, table, stored);
        if (explicitRowId.Type is not (SharcColumnType.Null or SharcColumnType.Integer)) CheckRowId(ref explicitRowId);
        var triggers = _triggers;
        if (triggers is not null && !triggers.BeforeInsert(stored, explicitRowId, _insert.Conflict)) return;
        if (_byConstraint && !writer.ResolveNotNull(stored)) return;
        if (upsert is not null && upsert.TryHandle(_db, writer, stored, explicitRowId, ref changes, returning)) return;
        bool replace = _action == SqlConflictAction.Replace;
        if (_byConstraint && !writer.ResolveUnique(stored, explicitRowId, out replace)) return;
        long rowId;
        try
        {
            rowId = writer.Insert(stored, replace, explicitRowId);
        }
        catch (SharcConstraintException e) when (_action == SqlConflictAction.Ignore && !TableWriter.IsDatatypeError(e))
        {
            return; // OR IGNORE: nothing of the row was written
        }
        changes++;
        // Set per row: the statement's next VALUES row reads it, as in SQLite.
        if (_session is not null && !table.IsWithoutRowId) _session.LastInsertRowId = rowId;
        if (returning is not null)
        {
            var asSql = new SqlValue[stored.Length];
            WriteValues.ToSql(stored, asSql, table, encoding);
            returning.Add(asSql, rowId);
        }
        triggers?.AfterInsert(stored, rowId, _insert.Conflict);
    }

    public void Dispose() => _values?.Dispose();

    /// <summary>Table column ordinal of each value (-1 for the rowid named "rowid", "oid" or "_rowid_").</summary>
    private static int[] TargetColumns(string sql, SqlInsertStatement insert, SharcTable table)
    {
        // Without a column list the values fill the columns that can be written: generated ones are skipped, as in SQLite.
        if (insert.Columns.Count == 0)
            return [.. table.Columns.Where(c => !c.IsHidden && c.Generated == SharcGeneratedKind.None).Select(c => c.Ordinal)];
        var targets = new int[insert.Columns.Count];
        for (int i = 0; i < targets.Length; i++)
        {
            string name = insert.Columns[i];
            if (table.FindColumn(name) is { } c) targets[i] = c.Ordinal;
            else if (!table.IsWithoutRowId && DmlTarget.IsRowIdName(name)) targets[i] = -1;
            else throw new SharcSqlException($"table {table.Name} has no column named {name}", sql, insert.Table.End);
        }
        return targets;
    }

    private static void CheckCount(string sql, SqlInsertStatement insert, SharcTable table, int[] targets, int count)
    {
        if (count == targets.Length) return;
        if (insert.Columns.Count == 0)
            throw new SharcSqlException($"table {table.Name} has {targets.Length} columns but {count} values were supplied", sql, insert.Table.Start);
        throw new SharcSqlException($"{count} values for {targets.Length} columns", sql, insert.Table.Start);
    }

    /// <summary>OR REPLACE: a NULL in a NOT NULL column with a default takes the default, as SQLite does.</summary>
    private static void DefaultsForNotNull(TableWriter writer, SharcTable table, StoredValue[] row)
    {
        foreach (var c in table.Columns)
            if (c.IsNotNull && !c.IsRowIdAlias && row[c.Ordinal].Type == SharcColumnType.Null && c.DefaultSql is not null)
                row[c.Ordinal] = writer.DefaultFor(c);
    }

    /// <summary>A rowid given as "rowid" must be an integer (a real with an integral value is one).</summary>
    private static void CheckRowId(ref StoredValue v)
    {
        if (v.Type == SharcColumnType.Real && v.Real == Math.Floor(v.Real) && v.Real >= long.MinValue && v.Real < 9.2233720368547758E18)
        {
            v = StoredValue.FromInteger((long)v.Real);
            return;
        }
        throw new SharcConstraintException("datatype mismatch");
    }
}
