namespace Sharc.Storage;

/// <summary>
/// Writing changed pages into the database file (at commit, or when a large transaction spills): in page order,
/// each run of consecutive pages in one gathered write, since a batch of appends leaves long runs at the end of
/// the file.
/// </summary>
internal sealed partial class Pager
{
    private uint[] _order = [];
    private readonly List<ReadOnlyMemory<byte>> _run = new();

    /// <summary>Writes the changed pages numbered up to <paramref name="last"/> into the file.</summary>
    private void WriteDirtyPages(uint last)
    {
        var order = DirtyPagesInOrder(last);
        for (int i = 0; i < order.Length;)
        {
            int j = i + 1;
            while (j < order.Length && order[j] == order[j - 1] + 1) j++;
            long offset = (long)(order[i] - 1) * PageSize;
            // A lone page goes through the span write: the gather write pins its buffers through an array per call,
            // which was most of what a commit of scattered pages allocated.
            if (j == i + 1) _file.Write(_dirty[order[i]], offset);
            else
            {
                _run.Clear();
                for (int k = i; k < j; k++) _run.Add(_dirty[order[k]]);
                _file.Write(_run, offset);
            }
            i = j;
        }
        _run.Clear();
    }

    /// <summary>The changed pages numbered up to <paramref name="last"/>, ascending (valid until the next call).</summary>
    private ReadOnlySpan<uint> DirtyPagesInOrder(uint last)
    {
        if (_order.Length < _dirty.Count) _order = new uint[Math.Max(_dirty.Count, _order.Length * 2)];
        int n = 0;
        foreach (uint page in _dirty.Keys)
            if (page <= last) _order[n++] = page;
        Array.Sort(_order, 0, n);
        return _order.AsSpan(0, n);
    }
}
