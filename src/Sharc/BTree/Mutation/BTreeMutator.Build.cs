using System.Buffers.Binary;
using Sharc.Storage;

namespace Sharc.BTree.Mutation;

/// <summary>
/// An index b-tree built bottom-up from entries already in order, as CREATE INDEX needs: leaves are packed full
/// left to right, the entry between two leaves goes up as their divider, and each interior level is packed the same
/// way from the dividers below it, until one level fits the root. Every entry is written once and no page is ever
/// split or rebalanced, where inserting the entries one by one walks down from the root and splits a leaf every few
/// hundred entries.
/// </summary>
internal sealed partial class BTreeMutator
{
    /// <summary>
    /// Fills the empty index b-tree at <paramref name="root"/> with <paramref name="entries"/>, which must be sorted
    /// in the index's order and distinct.
    /// </summary>
    public void BuildIndex(uint root, IndexEntryBuffer entries)
    {
        int n = entries.Count;
        if (n == 0) return;
        // Level 0 takes every entry; the levels above take the dividers promoted from below, with their children.
        int[]? items = null;
        int count = n;
        uint[]? children = null;
        bool leaf = true;
        while (true)
        {
            var ranges = Partition(entries, items, count, leaf);
            int pages = ranges.Count;
            var upItems = pages > 1 ? new int[pages - 1] : null;
            var upChildren = pages > 1 ? new uint[pages] : null;
            for (int k = 0; k < pages; k++)
            {
                var (a, b) = ranges[k];
                uint page = pages == 1 ? root : _allocator.Allocate();
                WriteLevelPage(page, entries, items, children, a, b, leaf);
                if (upChildren is null) continue;
                upChildren[k] = page;
                if (k < pages - 1) upItems![k] = items is null ? b : items[b];
            }
            if (pages == 1) return;
            items = upItems;
            count = pages - 1;
            children = upChildren;
            leaf = false;
        }
    }

    /// <summary>
    /// Splits items 0..count-1 of a level into pages packed greedily: a page takes [a, b) and item b goes up as the
    /// divider, the next page starting at b + 1. The last page never ends up empty: when only the divider would be
    /// left, the page gives up its last item to be the divider instead.
    /// </summary>
    private List<(int Start, int End)> Partition(IndexEntryBuffer entries, int[]? items, int count, bool leaf)
    {
        int usable = Usable;
        int capacity = PageWriter.Capacity(2, leaf ? BTreePageType.LeafIndex : BTreePageType.InteriorIndex, usable);
        var ranges = new List<(int, int)>();
        int a = 0;
        while (true)
        {
            int used = 0, b = a;
            while (b < count)
            {
                int length = CellBuilder.IndexLeafLength(entries[items is null ? b : items[b]].Length, usable) + (leaf ? 0 : 4);
                int footprint = PageWriter.CellFootprint(length);
                if (used + footprint > capacity) break;
                used += footprint;
                b++;
            }
            if (b >= count)
            {
                ranges.Add((a, count));
                return ranges;
            }
            if (b == count - 1) b--;
            if (b <= a) ThrowHelper.Corrupt("an index entry does not fit an empty page", 0);
            ranges.Add((a, b));
            a = b + 1;
        }
    }

    private void WriteLevelPage(uint page, IndexEntryBuffer entries, int[]? items, uint[]? children, int a, int b, bool leaf)
    {
        var buf = _pager.Write(page);
        PageWriter.Initialize(buf, page, leaf ? BTreePageType.LeafIndex : BTreePageType.InteriorIndex, Usable);
        for (int i = a; i < b; i++)
        {
            var payload = entries[items is null ? i : items[i]];
            var cell = leaf ? _cells.IndexLeaf(payload) : _cells.IndexInterior(children![i], payload);
            // Overflow pages a cell spills to are written (and may be allocated) above: fetch the page buffer again.
            buf = _pager.Write(page);
            if (!PageWriter.TryInsert(buf, page, Usable, i - a, cell)) ThrowHelper.Corrupt("index cells do not fit the page being built", page);
        }
        if (!leaf) BinaryPrimitives.WriteUInt32BigEndian(buf.AsSpan(BTreePageHeader.HeaderOffset(page) + 8), children![b]);
        _map.MapChildrenOf(page, Usable);
    }
}
