using System.Buffers.Binary;
using System.Runtime.InteropServices;
using Sharc.Storage;

namespace Sharc.BTree.Mutation;

/// <summary>
/// Restores the b-tree invariants after a page became too full or too empty, as SQLite's balance() does:
/// the page and up to two neighbours are redistributed evenly (splitting or merging as needed) and the parent's
/// dividers rewritten; an overfull root grows the tree by one level (its page number never changes) and a root
/// left with a single child absorbs it. All leaves stay at the same depth; no non-root page is left empty.
/// In table b-trees dividers are copies of the largest rowid on their left; in index b-trees a divider is an
/// entry that moves up out of the children (it is not copied).
/// </summary>
internal sealed class Balancer
{
    private readonly Pager _pager;
    private readonly PageAllocator _allocator;
    private readonly PointerMap _map;
    private readonly CellArena _arena;

    // Scratch reused by every balance (writes are serialized per database, and balancing never nests).
    private readonly uint[] _siblingPages = new uint[3];
    private readonly NodeImage[] _siblings = new NodeImage[3];
    private readonly List<CellRef> _combined = [];
    private readonly List<uint> _newPages = [];
    private readonly List<CellRef> _dividers = [];
    private readonly List<int> _ends = [];
    private int[] _size = new int[64];
    private int[] _starts = new int[8];

    public Balancer(Pager pager, PageAllocator allocator, PointerMap map, CellArena arena)
    {
        _pager = pager;
        _allocator = allocator;
        _map = map;
        _arena = arena;
    }

    private int Usable => _pager.UsableSize;

    /// <summary>
    /// Writes <paramref name="node"/> as the content of <c>path[level]</c>, rebalancing upward as far as needed.
    /// <paramref name="path"/> holds, for each level from the root, the page and the child index taken from it.
    /// </summary>
    public void Settle(ReadOnlySpan<(uint Page, int Index)> path, int level, NodeImage node)
    {
        while (true)
        {
            uint page = path[level].Page;
            if (level == 0)
            {
                SettleRoot(page, node);
                return;
            }
            if (node.FitsOn(page, Usable) && !IsUnderfull(node, page))
            {
                node.Write(_pager, page, _map);
                return;
            }
            var parentPage = path[level - 1].Page;
            var parent = NodeImage.Read(_arena, _pager, parentPage, Usable);
            int childIndex = path[level - 1].Index;
            if (level - 1 == 0 && parent.Cells.Count == 0 && node.Cells.Count == 0 && node.IsLeaf)
            {
                // The tree emptied out: the root becomes an empty leaf again.
                _allocator.Free(page);
                _arena.Rent(node.Type, 0).Write(_pager, parentPage, _map);
                return;
            }
            node = BalanceSiblings(parent, childIndex, page, node);
            level--;
        }
    }

    private bool IsUnderfull(NodeImage node, uint page)
    {
        if (node.Cells.Count == 0) return true;
        // SQLite rebalances a page once more than two thirds of it is free.
        int free = PageWriter.Capacity(page, node.Type, Usable) - node.Footprint();
        return free > Usable * 2 / 3;
    }

    private void SettleRoot(uint root, NodeImage node)
    {
        if (node.FitsOn(root, Usable))
        {
            if (!node.IsLeaf && node.Cells.Count == 0)
            {
                // A root with only a right child absorbs that child when its content fits.
                uint child = node.RightChild;
                var childNode = NodeImage.Read(_arena, _pager, child, Usable);
                if (childNode.FitsOn(root, Usable))
                {
                    childNode.Write(_pager, root, _map);
                    _allocator.Free(child);
                    return;
                }
            }
            node.Write(_pager, root, _map);
            return;
        }
        // Grow a level: the root's content moves to a new child, which is then split under the (empty) root.
        uint newChild = _allocator.Allocate();
        _map.Put(newChild, PtrmapType.BTree, root);
        var emptyRoot = _arena.Rent(NodeImage.InteriorOf(node.Type), newChild);
        var parent = BalanceSiblings(emptyRoot, 0, newChild, node);
        SettleRoot(root, parent);
    }

    /// <summary>
    /// Redistributes the child at <paramref name="childIndex"/> of <paramref name="parent"/> (whose new content is
    /// <paramref name="child"/>) together with up to two neighbours. Writes the children and returns the parent's new
    /// image (not yet written).
    /// </summary>
    private NodeImage BalanceSiblings(NodeImage parent, int childIndex, uint childPage, NodeImage child)
    {
        var arena = _arena;
        int n = parent.Cells.Count;
        int lo = Math.Max(0, Math.Min(childIndex - 1, n - 2));
        int hi = Math.Min(n, lo + 2);
        lo = Math.Max(0, hi - 2);

        int siblingCount = hi - lo + 1;
        var pages = _siblingPages;
        var nodes = _siblings;
        for (int s = lo; s <= hi; s++)
        {
            uint pg = parent.Child(s);
            if (pg == 0 || pg > _pager.PageCount) ThrowHelper.Corrupt($"child page {pg} is outside the database", pg);
            pages[s - lo] = pg;
            nodes[s - lo] = s == childIndex ? child : NodeImage.Read(arena, _pager, pg, Usable);
        }
        var type = child.Type;
        for (int i = 0; i < siblingCount; i++)
            if (nodes[i].Type != type) ThrowHelper.Corrupt($"sibling pages of different types under one parent ({nodes[i].Type} and {type})", childPage);
        bool leaf = child.IsLeaf, table = child.IsTable;

        // Everything in key order: sibling cells with the parent's dividers between them.
        var combined = _combined;
        combined.Clear();
        for (int i = 0; i < siblingCount; i++)
        {
            combined.AddRange(CollectionsMarshal.AsSpan(nodes[i].Cells));
            if (i == siblingCount - 1) break;
            var divider = parent.Cells[lo + i];
            if (table && leaf) continue;
            if (table) combined.Add(arena.AddTableInterior(nodes[i].RightChild, NodeImage.TableKey(arena[divider], BTreePageType.InteriorTable)));
            else if (leaf) combined.Add(NodeImage.ToIndexLeaf(divider));
            else combined.Add(arena.CopyWithChild(divider, nodes[i].RightChild));
        }
        uint lastRight = nodes[siblingCount - 1].RightChild;
        bool consumesDividers = !(table && leaf);

        var all = CollectionsMarshal.AsSpan(combined);
        int k = Distribute(all, type, consumesDividers);
        var starts = _starts;
        var ends = _ends;

        // Reuse the siblings' pages in order, take more from the allocator, free the rest.
        var newPages = _newPages;
        newPages.Clear();
        for (int j = 0; j < k; j++) newPages.Add(j < siblingCount ? pages[j] : _allocator.Allocate());
        for (int j = k; j < siblingCount; j++) _allocator.Free(pages[j]);

        var dividers = _dividers;
        dividers.Clear();
        for (int j = 0; j < k; j++)
        {
            int start = starts[j], end = ends[j];
            uint right = 0;
            if (!leaf)
            {
                right = j == k - 1 ? lastRight : BinaryPrimitives.ReadUInt32BigEndian(arena[all[end]]);
            }
            NodeImage.WriteCells(_pager, newPages[j], _map, type, arena, all[start..end], right);
            if (j == k - 1) break;
            if (table && leaf) dividers.Add(arena.AddTableInterior(newPages[j], NodeImage.TableKey(arena[all[end - 1]], type)));
            else if (table) dividers.Add(arena.AddTableInterior(newPages[j], NodeImage.TableKey(arena[all[end]], type)));
            else if (leaf) dividers.Add(arena.AddWithChild(newPages[j], all[end]));
            else dividers.Add(arena.CopyWithChild(all[end], newPages[j]));
        }

        var result = arena.Rent(parent.Type, parent.RightChild);
        var parentCells = CollectionsMarshal.AsSpan(parent.Cells);
        result.Cells.EnsureCapacity(n - (hi - lo) + dividers.Count);
        result.Cells.AddRange(parentCells[..lo]);
        result.Cells.AddRange(CollectionsMarshal.AsSpan(dividers));
        result.Cells.AddRange(parentCells[hi..]);
        result.SetChild(lo + dividers.Count, newPages[k - 1]);
        return result;
    }

    /// <summary>
    /// Splits <paramref name="cells"/> into page-sized runs: greedily first (fewest pages), then evened out from
    /// right to left so that neighbours hold similar amounts. With <paramref name="consumesDividers"/>, the cell
    /// between two runs goes up to the parent and belongs to neither. Returns the number of runs; run j is
    /// <c>_starts[j]</c> to <c>_ends[j]</c> (exclusive).
    /// </summary>
    private int Distribute(ReadOnlySpan<CellRef> cells, BTreePageType type, bool consumesDividers)
    {
        int cap = PageWriter.Capacity(2, type, Usable);
        int count = cells.Length;
        if (_size.Length < count) _size = new int[Math.Max(count, _size.Length * 2)];
        var size = _size;
        for (int i = 0; i < count; i++)
        {
            size[i] = PageWriter.CellFootprint(cells[i].Length);
            if (size[i] > cap) ThrowHelper.Corrupt($"a {cells[i].Length}-byte cell does not fit any page");
        }

        var ends = _ends;
        ends.Clear();
        int pos = 0;
        while (true)
        {
            int used = 0;
            while (pos < count && used + size[pos] <= cap) used += size[pos++];
            ends.Add(pos);
            if (pos >= count) break;
            if (consumesDividers)
            {
                pos++; // the divider
                if (pos >= count)
                {
                    // The divider would have nothing on its right: keep it as the last page's only cell.
                    ends.Add(pos);
                    break;
                }
            }
        }
        int k = ends.Count;
        if (_starts.Length < k) _starts = new int[Math.Max(k, _starts.Length * 2)];
        var starts = _starts;
        starts[0] = 0;
        for (int j = 1; j < k; j++) starts[j] = consumesDividers ? ends[j - 1] + 1 : ends[j - 1];
        // Fix the degenerate tail produced above (its start equals its end + 1 when it owns the divider only).
        if (consumesDividers && k > 1 && starts[k - 1] >= ends[k - 1])
        {
            // Last page empty: move one boundary left so the old divider becomes its cell.
            ends[k - 2]--;
            starts[k - 1] = ends[k - 2] + 1;
        }

        for (int j = k - 2; j >= 0; j--)
        {
            // Both sums are carried along as cells move, so evening out stays linear in the number of cells.
            int left = Used(size, starts[j], ends[j]), right = Used(size, starts[j + 1], ends[j + 1]);
            while (true)
            {
                if (ends[j] - starts[j] <= 1) break;
                int moving = consumesDividers ? size[ends[j]] : size[ends[j] - 1];
                int leaving = size[ends[j] - 1];
                int newRight = right + moving, newLeft = left - leaving;
                if (newRight > cap) break;
                if (right != 0 && newRight > newLeft) break;
                ends[j]--;
                starts[j + 1]--;
                left = newLeft;
                right = newRight;
            }
        }

        for (int j = 0; j < k; j++)
        {
            if (ends[j] <= starts[j] && !(k == 1 && count == 0))
                ThrowHelper.Corrupt("balancing produced an empty page");
        }
        return k;
    }

    private static int Used(int[] size, int start, int end)
    {
        int u = 0;
        for (int i = start; i < end; i++) u += size[i];
        return u;
    }
}
