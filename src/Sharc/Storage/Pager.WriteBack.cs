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
            int j = i;
            _run.Clear();
            do _run.Add(_dirty[order[j]]);
            while (++j < order.Length && order[j] == order[j - 1] + 1);
            _file.Write(_run, (long)(order[i] - 1) * PageSize);
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
