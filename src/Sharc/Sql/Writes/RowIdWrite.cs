using Sharc.Format;
using Sharc.Schema.Parsing;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;
using Sharc.Sql.Ast;
using Sharc.Sql.Values;

namespace Sharc.Sql.Writes;

/// <summary>
/// A prepared <c>UPDATE t SET c = ?, … WHERE rowid = ?</c> or <c>DELETE FROM t WHERE rowid = ?</c> on a rowid table
/// without triggers: the statement names at most one row, so it goes straight to the writer by rowid instead of
/// planning and running a query, gathering its rows, and building the values of the whole row per execution. Compiled
/// per schema (the caller drops it when the schema object changes); any other shape of statement, or a key that is
/// not an integer, takes the general path (<see cref="DmlChange"/>), which this must agree with.
/// </summary>
internal sealed class RowIdWrite
{
    private readonly SharcDatabase _db;
    private readonly SharcTable _table;
    private readonly int _keySlot;
    private readonly int[] _ordinals;
    private readonly int[] _slots;
    private readonly SharcAffinity[] _affinities;
    private readonly StoredValue[] _values;
    private readonly byte[]?[] _scratch;
    private readonly StoredValue[] _newRow;
    private readonly SqlConflictAction _action, _perRow;
    private readonly bool _delete;
    private SqlValue[] _parameters = [];
    private long _rowId;

    private RowIdWrite(SharcDatabase db, SharcTable table, int keySlot, int[] ordinals, int[] slots, SqlConflictAction conflict, bool delete)
    {
        _db = db;
        _table = table;
        _keySlot = keySlot;
        _ordinals = ordinals;
        _slots = slots;
        _delete = delete;
        _affinities = new SharcAffinity[ordinals.Length];
        for (int i = 0; i < ordinals.Length; i++) _affinities[i] = table.Columns[ordinals[i]].Affinity;
        _values = new StoredValue[ordinals.Length];
        _scratch = new byte[]?[ordinals.Length];
        _newRow = new StoredValue[table.Columns.Count];
        // As DmlChange.Update: Default lets each constraint's own ON CONFLICT clause decide.
        _action = conflict == SqlConflictAction.Default ? SqlConflictAction.Abort : conflict;
        _perRow = conflict == SqlConflictAction.Default && table.HasConflictClauses ? SqlConflictAction.Default : _action;
    }

    /// <summary>The fast form of <paramref name="statement"/>, or null when it does not have that shape.</summary>
    public static RowIdWrite? TryCompile(SharcDatabase db, SqlStatement statement)
    {
        if (statement.Explain != SqlExplainMode.None) return null;
        switch (statement)
        {
            case SqlUpdateStatement u when u.With is null && u.From is null && u.Returning.Count == 0 && u.OrderBy.Count == 0 && u.Limit is null:
            {
                var table = Target(db, u.Table);
                if (table is null || KeySlot(table, u.Table, u.Where) is not int key) return null;
                var ordinals = new int[u.Set.Count];
                var slots = new int[u.Set.Count];
                for (int i = 0; i < ordinals.Length; i++)
                {
                    var a = u.Set[i];
                    if (a.Columns.Count != 1 || a.Value is not SqlParameterExpr p) return null;
                    // The rowid, generated columns and repeated names keep the general path's rules and errors.
                    if (table.FindColumn(a.Columns[0]) is not { } c || c.IsRowIdAlias || c.Generated != SharcGeneratedKind.None) return null;
                    if (Array.IndexOf(ordinals, c.Ordinal, 0, i) >= 0) return null;
                    ordinals[i] = c.Ordinal;
                    slots[i] = p.Index;
                }
                return new RowIdWrite(db, table, key, ordinals, slots, u.Conflict, delete: false);
            }
            case SqlDeleteStatement d when d.With is null && d.Returning.Count == 0 && d.OrderBy.Count == 0 && d.Limit is null:
            {
                var table = Target(db, d.Table);
                if (table is null || KeySlot(table, d.Table, d.Where) is not int key) return null;
                return new RowIdWrite(db, table, key, [], [], SqlConflictAction.Default, delete: true);
            }
            default:
                return null;
        }
    }

    /// <summary>A plain rowid table of this database with no triggers (anything else: the general path and its errors).</summary>
    private static SharcTable? Target(SharcDatabase db, SqlTableRef target)
    {
        if (target.Schema is not null || target.IndexedBy is not null || target.NotIndexed) return null;
        var table = db.Schema.FindTable(target.Name);
        if (table is null || table.IsWithoutRowId || table.IsVirtual || table.Name.StartsWith("sqlite_", StringComparison.OrdinalIgnoreCase)) return null;
        return db.HasTriggers(table.Name) ? null : table;
    }

    /// <summary>The parameter slot of <c>WHERE rowid = ?</c> (either side, the rowid under any of its names), or null.</summary>
    private static int? KeySlot(SharcTable table, SqlTableRef target, SqlExpr? where)
    {
        if (where is not SqlBinaryExpr { Operator: SqlBinaryOperator.Equal } eq) return null;
        var (column, value) = eq.Left is SqlColumnRef ? (eq.Left, eq.Right) : (eq.Right, eq.Left);
        if (column is not SqlColumnRef { Schema: null } c || value is not SqlParameterExpr p) return null;
        if (c.Table is not null && !SqlNameComparer.Instance.Equals(c.Table, target.Alias ?? target.Name)) return null;
        bool isRowId = table.FindColumn(c.Name) is { } col ? col.IsRowIdAlias : DmlTarget.IsRowIdName(c.Name);
        return isRowId ? p.Index : null;
    }

    /// <summary>
    /// Runs the statement with <paramref name="parameters"/>; false, having done nothing, when the key is not an
    /// integer (SQLite's comparison rules for other types are the general path's).
    /// </summary>
    public bool TryRun(SqlValue[] parameters, out StatementOutcome outcome)
    {
        outcome = default;
        var key = parameters[_keySlot - 1];
        if (key.Type != SharcColumnType.Integer) return false;
        _rowId = key.IntegerValue;
        _parameters = parameters;
        var interruption = _db.Interruption;
        interruption.Enter();
        try
        {
            int changes = _db.RunSqlStatement(this, static self => self.RunCore(), _action);
            outcome = new StatementOutcome(changes, true, null);
        }
        finally
        {
            interruption.Exit();
            _parameters = [];
        }
        _db.LastChanges = outcome.Changes;
        return true;
    }

    private int RunCore()
    {
        _db.Interruption.Check();
        var writer = _db.WriterFor(_table.Name);
        if (_delete) return writer.DeleteRow(_rowId) ? 1 : 0;
        var encoding = _db.TextEncoding;
        for (int i = 0; i < _values.Length; i++)
            WriteValues.Store(ref _values[i], ref _scratch[i], _parameters[_slots[i] - 1], _affinities[i], encoding);
        return writer.UpdateRow(_rowId, _ordinals, _values, null, _perRow, _newRow, out _) ? 1 : 0;
    }
}
