using System.Runtime.CompilerServices;

namespace Sharc.BTree;

/// <summary>
/// A test a forward table walk runs on each entry's record where it lies on the page. A struct, so that the walk is
/// compiled once per test type and calls it directly, without a virtual call per cell.
/// </summary>
internal interface ICellFilter
{
    /// <summary>True to stop the walk on this entry; false to skip it.</summary>
    bool Accept(ReadOnlySpan<byte> record, long rowId);
}

internal sealed partial class BTreeCursor
{
    /// <summary>
    /// <see cref="MoveNext"/> over a table b-tree, skipping entries <paramref name="filter"/> rejects: the cells of a
    /// leaf are parsed and tested in one loop, without leaving it per cell. Stops (true) on the first entry the filter
    /// accepts, or on one whose record overflows its page (<see cref="IsPayloadLocal"/> false), which it does not see.
    /// </summary>
    public bool MoveNextWhere<T>(ref T filter) where T : struct, ICellFilter
    {
        if (!_valid) return false;
        while (true)
        {
            ref Frame top = ref _stack[_depth];
            if (_isIndex || !top.Header.IsLeaf)
            {
                if (!MoveNext()) return false;
                if (Accepts(ref filter)) return true;
                continue;
            }
            int count = top.Header.CellCount;
            while (++top.Index < count)
            {
                if (!TryParseSmallTableCell(ref top))
                {
                    ParseCell(ref top);
                    if (_cell.Overflow != 0) return true;
                }
                if (filter.Accept(new ReadOnlySpan<byte>(top.Page.Buffer, top.Page.Offset + _cell.LocalOffset, _cell.LocalSize), _cell.RowId))
                    return true;
            }
            // The leaf is done: on to the next one, as MoveNext goes, which lands on (and parses) its first cell.
            if (!AdvanceFromExhaustedLeaf()) return false;
            if (Accepts(ref filter)) return true;
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool Accepts<T>(ref T filter) where T : struct, ICellFilter
        => _cell.Overflow != 0 || filter.Accept(LocalPayload, _cell.RowId);
}
