namespace Sharc.Sql.Execution;

/// <summary>
/// A stable sort of row indexes into a <see cref="RowStore"/> (rows that compare equal keep their order): insertion
/// sort of short runs, then merges of runs. Sorting indexes moves ints, not rows; a merge sort makes few
/// comparisons, which is what costs here; its scratch buffer is kept for the next sort, so a warm sort allocates
/// nothing.
/// </summary>
internal sealed class RowIndexSort
{
    private const int Run = 16;
    private int[] _scratch = [];

    /// <summary>Sorts <paramref name="indexes"/> by the rows they name in <paramref name="store"/>.</summary>
    public void Sort(Span<int> indexes, RowStore store, RowOrderComparer order)
    {
        int n = indexes.Length;
        for (int start = 0; start < n; start += Run) InsertionSort(indexes.Slice(start, Math.Min(Run, n - start)), store, order);
        if (n <= Run) return;
        if (_scratch.Length < n) _scratch = new int[Math.Max(n, _scratch.Length * 2)];
        Span<int> from = indexes, to = _scratch.AsSpan(0, n);
        for (int width = Run; width < n; width *= 2)
        {
            for (int lo = 0; lo < n; lo += 2 * width)
            {
                int mid = Math.Min(lo + width, n), hi = Math.Min(lo + 2 * width, n);
                Merge(from[lo..mid], from[mid..hi], to[lo..hi], store, order);
            }
            var swap = from;
            from = to;
            to = swap;
        }
        if (from != indexes) from.CopyTo(indexes);
    }

    private static void InsertionSort(Span<int> run, RowStore store, RowOrderComparer order)
    {
        for (int i = 1; i < run.Length; i++)
        {
            int x = run[i];
            var row = store.Row(x);
            int j = i - 1;
            // Strictly greater only: an equal row stays after the one before it.
            while (j >= 0 && order.Compare(store.Row(run[j]), row) > 0)
            {
                run[j + 1] = run[j];
                j--;
            }
            run[j + 1] = x;
        }
    }

    private static void Merge(ReadOnlySpan<int> left, ReadOnlySpan<int> right, Span<int> into, RowStore store, RowOrderComparer order)
    {
        int a = 0, b = 0, o = 0;
        // Already in order (common when rows arrive sorted): one comparison, then a copy.
        if (left.Length > 0 && right.Length > 0 && order.Compare(store.Row(left[^1]), store.Row(right[0])) <= 0)
        {
            left.CopyTo(into);
            right.CopyTo(into[left.Length..]);
            return;
        }
        while (a < left.Length && b < right.Length)
            into[o++] = order.Compare(store.Row(right[b]), store.Row(left[a])) < 0 ? right[b++] : left[a++];
        while (a < left.Length) into[o++] = left[a++];
        while (b < right.Length) into[o++] = right[b++];
    }
}
