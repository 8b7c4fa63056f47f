using Sharc.Format;
using Sharc.Schema.Parsing;

namespace Sharc.Write;

/// <summary>
/// FOREIGN KEY enforcement with SQLite's bookkeeping: violations are counted, not thrown on sight — an immediate
/// constraint's count must be back to zero when the statement ends, a deferred one's when the transaction commits.
/// A child row whose parent is missing adds one, removing that child (or inserting its parent) takes one away, a
/// deleted or re-keyed parent adds its children; ON DELETE / ON UPDATE actions then change the children, and the
/// children they fix are not counted. RESTRICT fails at once, deferred or not.
/// </summary>
internal sealed class ForeignKeys
{
    private readonly SharcDatabase _db;
    private readonly Dictionary<SharcForeignKey, ForeignKeyPlan> _plans = new(ReferenceEqualityComparer.Instance);
    // While an action changes the children of one key, those children's own "parent missing" bookkeeping for that
    // key is skipped: the parent's count of them was never added.
    private readonly Dictionary<SharcForeignKey, int> _acting = new(ReferenceEqualityComparer.Instance);
    private SharcSchema? _plannedFor;
    private long _immediate;
    private long _deferred;
    private long _deferredAtStatement;
    private bool _keepDeferredOnRollback;

    public ForeignKeys(SharcDatabase db) => _db = db;

    /// <summary>Deferred violations pending in the current transaction.</summary>
    public long DeferredViolations => _deferred;

    public void BeginTransaction() => _deferred = 0;

    public void BeginStatement()
    {
        _immediate = 0;
        _keepDeferredOnRollback = false;
        _deferredAtStatement = _deferred;
    }

    /// <summary>Fails the statement if it leaves an immediate violation (or, outside a transaction, a deferred one).</summary>
    public void EndStatement(bool autocommit)
    {
        if (_immediate > 0 || (autocommit && _deferred > 0)) throw Failed();
    }

    public void RollbackStatement()
    {
        _immediate = 0;
        if (!_keepDeferredOnRollback) _deferred = _deferredAtStatement;
        _keepDeferredOnRollback = false;
    }

    public static SharcConstraintException Failed() => new("FOREIGN KEY constraint failed");

    private ForeignKeyPlan Plan(SharcTable child, SharcForeignKey fk)
    {
        if (!ReferenceEquals(_plannedFor, _db.Schema))
        {
            foreach (var p in _plans.Values) p.Dispose();
            _plans.Clear();
            _plannedFor = _db.Schema;
        }
        if (!_plans.TryGetValue(fk, out var plan)) _plans[fk] = plan = ForeignKeyPlan.Resolve(_db, child, fk);
        return plan;
    }

    /// <summary>Every foreign key (of any table) whose parent is <paramref name="parent"/>.</summary>
    private IEnumerable<(SharcTable Child, SharcForeignKey Fk)> Referencing(SharcTable parent)
    {
        foreach (var t in _db.Schema.Tables)
            foreach (var fk in t.ForeignKeys)
                if (SqlNameComparer.Instance.Equals(fk.ParentTable, parent.Name)) yield return (t, fk);
    }

    private void Count(SharcForeignKey fk, long delta)
    {
        if (fk.IsDeferred) _deferred += delta;
        else _immediate += delta;
    }

    private long Counter(SharcForeignKey fk) => fk.IsDeferred ? _deferred : _immediate;

    // ---------------------------------------------------------------- child side

    private void ChildAdded(SharcTable table, StoredValue[] row, Func<int, bool>? changed, bool singleRowInsert = false)
    {
        // SQLite walks a table's foreign keys newest first.
        for (int i = table.ForeignKeys.Count - 1; i >= 0; i--)
        {
            var fk = table.ForeignKeys[i];
            if (changed is not null && !fk.Columns.Any(changed)) continue;
            var plan = Plan(table, fk);
            if (plan.HasNullKey(row) || plan.ParentExists(_db, row)) continue;
            if (singleRowInsert && !fk.IsDeferred)
            {
                // SQLite's single-row INSERT halts at once, without a statement savepoint: deferred violations
                // already counted for this row's other keys stay counted, even though the row is not inserted.
                _keepDeferredOnRollback = true;
                throw Failed();
            }
            Count(fk, +1);
        }
    }

    private void ChildRemoved(SharcTable table, StoredValue[] row, Func<int, bool>? changed)
    {
        foreach (var fk in table.ForeignKeys)
        {
            if (changed is not null && !fk.Columns.Any(changed)) continue;
            var plan = Plan(table, fk);
            // Only a violation counted before can be taken away (SQLite's OP_FkIfZero).
            if (_acting.ContainsKey(fk) || Counter(fk) == 0) continue;
            if (!plan.HasNullKey(row) && !plan.ParentExists(_db, row)) Count(fk, -1);
        }
    }

    // ---------------------------------------------------------------- hooks called by TableWriter

    /// <summary>
    /// After a row was inserted (<paramref name="row"/>: its values, the rowid alias filled in);
    /// <paramref name="singleRow"/> for a plain INSERT of one row (not OR REPLACE).
    /// </summary>
    public void AfterInsert(SharcTable table, StoredValue[] row, long rowId, bool singleRow)
    {
        ChildAdded(table, row, null, singleRow);
        ParentAdded(table, row, rowId, null);
    }

    /// <summary>After a row was deleted.</summary>
    public void AfterDelete(SharcTable table, StoredValue[] row, long rowId)
    {
        ChildRemoved(table, row, null);
        foreach (var (child, fk) in Referencing(table))
        {
            var plan = Plan(child, fk);
            var children = plan.FindChildren(_db, row, rowId);
            if (children.Count == 0) continue;
            if (fk.OnDelete == SharcForeignKeyAction.Restrict) throw Failed();
            if (fk.OnDelete == SharcForeignKeyAction.NoAction)
            {
                Count(fk, children.Count);
                continue;
            }
            Act(plan, children, fk.OnDelete, newParent: null, deleting: true);
        }
    }

    /// <summary>After a row was updated in place of <paramref name="oldRow"/>; <paramref name="changed"/> tells which columns the update set.</summary>
    public void AfterUpdate(SharcTable table, StoredValue[] oldRow, long oldRowId, StoredValue[] newRow, long rowId, Func<int, bool> changed)
    {
        ChildRemoved(table, oldRow, changed);
        ChildAdded(table, newRow, changed);
        foreach (var (child, fk) in Referencing(table))
        {
            var plan = Plan(child, fk);
            if (!plan.ParentColumns.Any(changed)) continue;
            if (SameKey(plan, oldRow, newRow)) continue;
            var children = plan.FindChildren(_db, oldRow, oldRowId);
            if (children.Count > 0)
            {
                if (fk.OnUpdate == SharcForeignKeyAction.Restrict) throw Failed();
                if (fk.OnUpdate == SharcForeignKeyAction.NoAction) Count(fk, children.Count);
                else Act(plan, children, fk.OnUpdate, newRow, deleting: false);
            }
            FixOrphans(plan, newRow, rowId);
        }
    }

    private void ParentAdded(SharcTable table, StoredValue[] row, long rowId, Func<int, bool>? changed)
    {
        foreach (var (child, fk) in Referencing(table))
        {
            // Nothing counted, nothing to take away: SQLite does not even resolve the key then (no mismatch error).
            if (Counter(fk) == 0) continue;
            var plan = Plan(child, fk);
            if (changed is not null && !plan.ParentColumns.Any(changed)) continue;
            FixOrphans(plan, row, rowId);
        }
    }

    /// <summary>A new parent key adopts children counted as orphans: take them off the count.</summary>
    private void FixOrphans(ForeignKeyPlan plan, StoredValue[] parentRow, long rowId)
    {
        if (Counter(plan.Key) == 0) return;
        int n = plan.FindChildren(_db, parentRow, rowId).Count;
        Count(plan.Key, -n);
    }

    /// <summary>
    /// The parent key did not change (SQLite's "old.k IS NOT new.k" for each key column, under the parent column's
    /// collation): no action fires.
    /// </summary>
    private bool SameKey(ForeignKeyPlan plan, StoredValue[] oldRow, StoredValue[] newRow)
    {
        var enc = _db.TextEncoding;
        foreach (int c in plan.ParentColumns)
        {
            var a = oldRow[c];
            var b = newRow[c];
            if (a.Type != b.Type) return false;
            switch (a.Type)
            {
                case SharcColumnType.Null: continue;
                case SharcColumnType.Integer when a.Integer == b.Integer: continue;
                case SharcColumnType.Real when a.Real == b.Real: continue;
                case SharcColumnType.Blob when a.Bytes.Span.SequenceEqual(b.Bytes.Span): continue;
                case SharcColumnType.Text:
                    CollationCompare.TryParse(plan.Parent!.Columns[c].Collation, out var coll);
                    var text = TextCodec.For(enc).GetString(b.Bytes.Span);
                    if (CollationCompare.Compare(coll, a.Bytes.Span, enc, b.Bytes.Span, System.Text.Encoding.UTF8.GetBytes(text)) == 0) continue;
                    return false;
                default: return false;
            }
        }
        return true;
    }

    /// <summary>A child's triggers fire for the rows an action changes, as SQLite's actions (trigger programs themselves) fire them.</summary>
    private ITriggerHook ChildTriggers(ForeignKeyPlan plan)
    {
        if (plan.Child.IsWithoutRowId)
            throw new SharcException($"firing the triggers of WITHOUT ROWID table {plan.Child.Name} from a FOREIGN KEY action is not supported");
        return _db.Triggers;
    }

    /// <summary>CASCADE, SET NULL or SET DEFAULT on the children of a deleted or re-keyed parent.</summary>
    private void Act(ForeignKeyPlan plan, List<(long RowId, StoredValue[] Row)> children, SharcForeignKeyAction action, StoredValue[]? newParent, bool deleting)
    {
        var writer = _db.WriterFor(plan.Child.Name);
        var fk = plan.Key;
        _acting[fk] = _acting.GetValueOrDefault(fk) + 1;
        try
        {
            foreach (var (rowId, row) in children)
            {
                if (action == SharcForeignKeyAction.Cascade && deleting)
                {
                    if (writer.HasTriggers) ChildTriggers(plan).Delete(writer, rowId);
                    else writer.DeleteIdentified(rowId, row);
                    continue;
                }
                var values = new StoredValue[fk.Columns.Count];
                for (int i = 0; i < values.Length; i++)
                {
                    var column = plan.Child.Columns[fk.Columns[i]];
                    values[i] = action switch
                    {
                        SharcForeignKeyAction.SetNull => StoredValue.Null,
                        SharcForeignKeyAction.SetDefault => writer.DefaultFor(column),
                        // CASCADE on update: the new parent key, with the child column's affinity (an assignment).
                        _ => StorageAffinity.FromObject(RowValues.ToObject(newParent![plan.ParentColumns[i]], _db.TextEncoding), column.Affinity, _db.TextEncoding),
                    };
                }
                if (writer.HasTriggers) ChildTriggers(plan).Update(writer, rowId, [.. fk.Columns], values);
                else writer.UpdateIdentified(rowId, row, [.. fk.Columns], values);
            }
        }
        finally
        {
            if (--_acting[fk] == 0) _acting.Remove(fk);
        }
    }

}
