using Sharc.Sql.Execution;
using Sharc.Sql.Execution.RecordFilters;

namespace Sharc;

public partial class SharcDataReader
{
    /// <summary>Where column <paramref name="ordinal"/> of this b-tree reader lies in its records; null when it is not stored there.</summary>
    internal RecordColumn? RecordColumnOf(int ordinal)
    {
        var c = _columns[ordinal];
        return c.Kind switch
        {
            ColumnKind.Field => new RecordColumn(c.Field, _encoding == SharcTextEncoding.Utf8),
            ColumnKind.RowId when _plan.Mode == ReaderMode.RowIdTable => RecordColumn.RowId,
            _ => null,
        };
    }

    /// <summary>What <paramref name="filter"/> says of the current row (Unknown when its record overflows its page).</summary>
    internal RecordTruth JudgeCurrent(RecordFilter filter)
        => _cursor.IsPayloadLocal ? filter.Test(_cursor.LocalPayload, _cursor.RowId) : RecordTruth.Unknown;

    /// <summary>The leaf walk's test: the filter's answer per cell, stopping on rows it does not prove false or NULL.</summary>
    private struct WalkFilter(RecordFilter filter, StatementInterruption interruption) : BTree.ICellFilter
    {
        public bool Proven;
        private int _skipped;

        public bool Accept(ReadOnlySpan<byte> record, long rowId)
        {
            var t = filter.Test(record, rowId);
            if (t is RecordTruth.True or RecordTruth.Unknown)
            {
                Proven = t == RecordTruth.True;
                return true;
            }
            // A scan that rejects everything must still stop when interrupted.
            if ((++_skipped & 1023) == 0) interruption.Check();
            return false;
        }
    }

    /// <summary>
    /// <see cref="Read"/>, skipping the rows <paramref name="filter"/> proves false or NULL. On a forward table walk
    /// the rejected cells of a leaf are tested in one loop straight off the page, without positioning the reader on
    /// them. <paramref name="proven"/> tells whether the filter proved the row it stops on true.
    /// </summary>
    internal bool ReadWhere(RecordFilter filter, StatementInterruption interruption, out bool proven)
    {
        int skipped = 0;
        while (true)
        {
            if (_state == State.OnRow && _indexCursor is null && !_backward && _query is null)
            {
                CheckVersion();
                var walk = new WalkFilter(filter, interruption);
                bool found = _cursor.MoveNextWhere(ref walk);
                // A record that overflows its page was not tested: the general WHERE decides it.
                proven = found && _cursor.IsPayloadLocal && walk.Proven;
                return Land(found);
            }
            if (!Read())
            {
                proven = false;
                return false;
            }
            var r = JudgeCurrent(filter);
            if (r is RecordTruth.True or RecordTruth.Unknown)
            {
                proven = r == RecordTruth.True;
                return true;
            }
            if ((++skipped & 1023) == 0) interruption.Check();
        }
    }
}
