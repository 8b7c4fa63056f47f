using System.Runtime.CompilerServices;

namespace Sharc.BTree;

internal sealed partial class BTreeCursor
{
    /// <summary>What <see cref="ProbeInt64"/> returns for a cell it does not read in place.</summary>
    private const int NotInPlace = int.MinValue;

    /// <summary>
    /// One binary-search probe of a seek: the comparison of index cell <paramref name="index"/> with the search key.
    /// A one-integer key (<see cref="Int64KeyComparer"/>, fixed when the seek is compiled for it) is compared straight
    /// from the page array; every other key, and any cell of another shape, goes through the comparer.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int Probe<TComparer>(ref TComparer comparer, ref Frame f, ReadOnlySpan<byte> span, int index) where TComparer : struct, IRecordComparer
    {
        if (typeof(TComparer) == typeof(Int64KeyComparer))
        {
            ref Int64KeyComparer integer = ref Unsafe.As<TComparer, Int64KeyComparer>(ref comparer);
            int c = ProbeInt64(ref f, index, integer.Key);
            if (c != NotInPlace) return integer.Descending ? -c : c;
        }
        return comparer.CompareRecordToKey(ProbeRecord(ref f, span, index));
    }

    /// <summary>
    /// <see cref="TrySearchInt64(ref Frame, long, int, out int, out double, out double)"/> for an ascending one-integer key;
    /// false (nothing searched) for any other key, whose comparer the caller's binary search uses.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TrySearchInt64<TComparer>(ref TComparer comparer, ref Frame f, int from, out int lowerBound, out double childLow, out double childHigh)
        where TComparer : struct, IRecordComparer
    {
        lowerBound = 0;
        childLow = childHigh = 0;
        if (typeof(TComparer) != typeof(Int64KeyComparer)) return false;
        ref Int64KeyComparer integer = ref Unsafe.As<TComparer, Int64KeyComparer>(ref comparer);
        return !integer.Descending && TrySearchInt64(ref f, integer.Key, from, out lowerBound, out childLow, out childHigh);
    }

    /// <summary>Compares the leading integer of index cell <paramref name="index"/> with <paramref name="key"/> (ascending).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int ProbeInt64(ref Frame f, int index, long key)
    {
        if (!TryReadLeadingInt64(ref f, index, out long v)) return NotInPlace;
        return v < key ? -1 : v > key ? 1 : 0;
    }

    /// <summary>
    /// The leading integer of index cell <paramref name="index"/>, read from the page array in place: a payload size
    /// of one or two bytes, a record whose one-byte header starts with an integer of serial type 1-6, the record whole
    /// on the page (what nearly every integer-keyed index entry looks like). False for anything else, including a
    /// cell pointer out of place: the general path then checks the cell and throws for corruption as usual.
    /// </summary>
    private bool TryReadLeadingInt64(ref Frame f, int index, out long value)
    {
        value = 0;
        byte[] buf = f.Page.Buffer;
        int baseOff = f.Page.Offset;
        int ptr = baseOff + f.Header.CellPointers + 2 * index;
        int cell = (buf[ptr] << 8) | buf[ptr + 1];
        if (cell < f.Header.CellPointers + 2 * f.Header.CellCount) return false;
        // An interior cell starts with its left child's page number.
        if (!f.Header.IsLeaf) cell += 4;
        if (cell + 2 > _usable) return false;
        int p = baseOff + cell;
        int size = buf[p];
        if (size < 0x80)
        {
            p++;
        }
        else
        {
            int low = buf[p + 1];
            if (low >= 0x80) return false;
            size = ((size & 0x7F) << 7) | low;
            p += 2;
        }
        if (size < 2 || size > _maxIndexLocal || p - baseOff + size > _usable) return false;
        uint header = buf[p], type = buf[p + 1];
        // A one-byte header size, and serial types 1-6: one to eight bytes of big-endian two's complement.
        if (header - 2 >= 0x7E || type - 1 >= 6) return false;
        int n = type < 5 ? (int)type : type == 5 ? 6 : 8;
        if (header + n > size) return false;
        int q = p + (int)header;
        long v = (sbyte)buf[q];
        for (int i = 1; i < n; i++) v = (v << 8) | buf[q + i];
        value = v;
        return true;
    }

    /// <summary>
    /// The lower bound of an ascending one-integer key on one page (the first cell not below <paramref name="key"/>,
    /// or CellCount), found by interpolation: integer keys are mostly spread evenly over a page (dense ids, hashed or
    /// random keys), so the position that the page's key range predicts is at or next to the answer, and a gallop
    /// from there to a bracket, then a binary search of it, costs two or three probes instead of log2 of the cell
    /// count. Skewed keys still end in the binary search, at most about twice its probes. The range comes from the
    /// parent's separators around this page (<see cref="Frame.HintLow"/>), or else from the page's own first and last
    /// cells; it only steers the search, which is exact whatever it says. <paramref name="childLow"/> and
    /// <paramref name="childHigh"/> bound the keys of the child the answer descends into, for its own search. Cells
    /// before <paramref name="from"/> are known to be below the key (a seek that starts from a held page). False when
    /// a cell is not of the shape read in place (the caller then searches the general way).
    /// </summary>
    private bool TrySearchInt64(ref Frame f, long key, int from, out int lowerBound, out double childLow, out double childHigh)
    {
        lowerBound = 0;
        childLow = childHigh = 0;
        int n = f.Header.CellCount;
        if (n == 0) return true;
        long v;
        if (!f.Hinted)
        {
            if (!TryReadLeadingInt64(ref f, 0, out long first) || !TryReadLeadingInt64(ref f, n - 1, out long last)) return false;
            // Bounds are exclusive, as a parent's separators are.
            f.HintLow = (double)first - 1;
            f.HintHigh = (double)last + 1;
            f.Hinted = true;
        }
        double low = f.HintLow, high = f.HintHigh;
        // Keys spread evenly between exclusive bounds L and H sit at L + 1 + i for cell i of n = H - L - 1.
        double at = ((double)key - low) / (high - low) * (n + 1) - 1;
        // Invariant: cells before lo are below the key (the last of them is `low`), cells from hi on are not (`high`).
        int lo = from, hi = n;
        if (lo >= hi)
        {
            lowerBound = hi;
            return true;
        }
        int probe0 = at >= n - 1 ? n - 1 : at > lo ? (int)at : lo;
        if (!TryReadLeadingInt64(ref f, probe0, out v)) return false;
        if (v >= key)
        {
            hi = probe0;
            high = v;
            for (int step = 1; hi - step >= lo; step <<= 1)
            {
                int probe = hi - step;
                if (!TryReadLeadingInt64(ref f, probe, out v)) return false;
                if (v < key)
                {
                    lo = probe + 1;
                    low = v;
                    break;
                }
                hi = probe;
                high = v;
            }
        }
        else
        {
            lo = probe0 + 1;
            low = v;
            for (int step = 1; lo + step - 1 < hi; step <<= 1)
            {
                int probe = lo + step - 1;
                if (!TryReadLeadingInt64(ref f, probe, out v)) return false;
                if (v >= key)
                {
                    hi = probe;
                    high = v;
                    break;
                }
                lo = probe + 1;
                low = v;
            }
        }
        while (lo < hi)
        {
            int mid = (lo + hi) >>> 1;
            if (!TryReadLeadingInt64(ref f, mid, out v)) return false;
            if (v < key)
            {
                lo = mid + 1;
                low = v;
            }
            else
            {
                hi = mid;
                high = v;
            }
        }
        lowerBound = lo;
        childLow = low;
        childHigh = high;
        return true;
    }
}
