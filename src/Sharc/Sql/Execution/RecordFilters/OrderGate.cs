using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution.RecordFilters;

/// <summary>
/// The bar a row must clear to enter a full top-N heap (ORDER BY … LIMIT): its first ORDER BY key, read from the
/// record's bytes, must not sort after the worst row kept. A row that sorts after it can never be returned, so the
/// scan drops it with the rows WHERE rejects, before any value is decoded; ties and rows the bytes cannot settle
/// (an overflowing record, UTF-16 text) go on to the heap's full comparison, which keeps SQLite's answer.
/// </summary>
internal sealed class OrderGate(RecordColumn column, bool descending, bool nullsFirst, Collation collation)
{
    private SqlValue _worst;
    private bool _armed;

    /// <summary>Lets every row through (a new run; the heap is not full yet).</summary>
    public void Disarm() => _armed = false;

    /// <summary>
    /// Sets the bar to <paramref name="worst"/>, the first key of the worst row kept. The value may borrow bytes that
    /// the heap keeps (they stay put until that row is replaced, which raises the bar again).
    /// </summary>
    public void Raise(in SqlValue worst)
    {
        _worst = worst;
        _armed = true;
    }

    /// <summary>True when the record's key sorts strictly after the bar, under the key's direction, NULL placement and collation.</summary>
    public bool Rejects(ReadOnlySpan<byte> record, long rowId)
    {
        if (!_armed || !StoredValue.TryRead(record, rowId, column, out var x)) return false;
        int c;
        bool isNull = x.Type == SharcColumnType.Null;
        if (isNull || _worst.IsNull)
        {
            if (isNull && _worst.IsNull) return false;
            // NULL placement is absolute, as in the heap's comparer: it does not flip with DESC.
            c = isNull == nullsFirst ? -1 : 1;
        }
        else
        {
            // No affinity: ORDER BY compares values as stored, across storage classes in SQLite's order.
            if (!StoredCompare.TryCompare(x, _worst, SqlAffinity.None, collation, out c)) return false;
            if (descending) c = -c;
        }
        return c > 0;
    }
}

/// <summary>The test of a filter that has no WHERE to test, only a gate: every row is True.</summary>
internal sealed class PassTest : RecordTest
{
    public static readonly PassTest Instance = new();

    public override void Bind(ExecContext ctx, ValueArena arena)
    {
    }

    public override RecordTruth Test(ReadOnlySpan<byte> record, long rowId) => RecordTruth.True;
}
