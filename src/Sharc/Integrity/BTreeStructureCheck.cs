using System.Buffers.Binary;
using Sharc.BTree;
using Sharc.Format;

namespace Sharc.Integrity;

/// <summary>
/// The structure of one b-tree, page by page: page types (all table pages or all index pages, leaves exactly at
/// the bottom level), the page header, cell pointers inside the cell content area, cells inside the page, the
/// freeblock list (ascending, at least 4 bytes each, separated by at least 4 bytes, inside the content area),
/// no byte used twice by cells and freeblocks, the fragmented-byte count equal to the bytes nothing accounts for,
/// rowids in strictly increasing order and consistent with the interior keys (left subtree ≤ divider &lt; right
/// subtree), overflow chains and pointer-map entries. Index key order needs collations and record decoding and is
/// checked by <see cref="IndexConsistencyCheck"/>, which walks the trees in key order with a cursor.
/// </summary>
internal sealed class BTreeStructureCheck
{
    private struct Cell
    {
        public int Offset;
        /// <summary>Bytes the cell occupies (at least 4, the smallest space a cell can be given).</summary>
        public int Size;
        /// <summary>The rowid (table leaf) or the divider key (table interior).</summary>
        public long Key;
        public long Payload;
        public int Local;
        public uint Overflow;
        public uint Child;
        /// <summary>False when the cell's pointer or extent was bad (already reported).</summary>
        public bool Ok;
    }

    /// <summary>Per-level state: the page's bytes (copied, so nothing stays pinned while children are walked) and its cells.</summary>
    private sealed class Level
    {
        public byte[] Page = [];
        public Cell[] Cells = [];
        /// <summary>The subtree height under each child (the right child last); -1 when unknown.</summary>
        public int[] Heights = [];
    }

    private readonly CheckContext _ctx;
    private readonly int _usable;
    private readonly Level[] _levels = new Level[BTreeCursor.MaxDepth];
    private long[] _extents = [];

    // The walk of one tree.
    private uint _tree;
    private bool _isIndex;
    private bool _hasPrevious;
    private long _previous;
    private bool _previousIsDivider;

    public BTreeStructureCheck(CheckContext ctx)
    {
        _ctx = ctx;
        _usable = ctx.UsableSize;
    }

    /// <summary>Checks the b-tree rooted at <paramref name="root"/>, an index b-tree when <paramref name="isIndex"/>.</summary>
    public void CheckTree(uint root, bool isIndex)
    {
        _tree = root;
        _isIndex = isIndex;
        _hasPrevious = false;
        var where = Where.Tree(root);
        if (!_ctx.Pages.Claim(root, PageUse.BTree, where)) return;
        if (root != 1) _ctx.PointerMap?.Expect(root, PointerMapCheck.RootPage, 0, where);
        CheckPage(root, 0);
    }

    /// <summary>Checks one (already claimed) page and its subtree. Returns the subtree's height (1 for a leaf), or -1 when unknown.</summary>
    private int CheckPage(uint pageNo, int level)
    {
        var at = Where.Page(_tree, pageNo);
        if (level >= BTreeCursor.MaxDepth)
        {
            _ctx.Log.Add(at, $"the b-tree is more than {BTreeCursor.MaxDepth} levels deep");
            return -1;
        }
        var lv = _levels[level] ??= new Level();
        if (lv.Page.Length < _ctx.PageSize) lv.Page = new byte[_ctx.PageSize];
        if (!_ctx.TryCopyPage(pageNo, lv.Page, at)) return -1;
        var page = lv.Page.AsSpan(0, _usable);

        int hdr = BTreePageHeader.HeaderOffset(pageNo);
        byte typeByte = page[hdr];
        if (typeByte is not (2 or 5 or 10 or 13))
        {
            _ctx.Log.Add(at, $"invalid b-tree page type {typeByte} (btreeInitPage() returns error code 11)");
            return -1;
        }
        bool isTable = (typeByte & 1) != 0, leaf = (typeByte & 8) != 0;
        if (isTable == _isIndex)
        {
            _ctx.Log.Add(at, $"{Describe(typeByte)} inside {(_isIndex ? "an index" : "a table")} b-tree");
            return -1;
        }

        int nCell = BinaryPrimitives.ReadUInt16BigEndian(page[(hdr + 3)..]);
        int pointers = hdr + (leaf ? 8 : 12);
        int cellAreaFirst = pointers + 2 * nCell;
        if (cellAreaFirst > _usable)
        {
            _ctx.Log.Add(at, $"{nCell} cells cannot fit on the page (btreeInitPage() returns error code 11)");
            return -1;
        }
        int contentStart = BinaryPrimitives.ReadUInt16BigEndian(page[(hdr + 5)..]);
        if (contentStart == 0) contentStart = 65536;
        int fragmented = page[hdr + 7];
        bool coverage = true;

        if (contentStart < cellAreaFirst || contentStart > _usable)
        {
            _ctx.Log.Add(at, $"free space corruption: the cell content area starts at {contentStart}, outside {cellAreaFirst}..{_usable}");
            coverage = false;
            contentStart = cellAreaFirst; // judge cells and freeblocks against the page itself, not the bad header field
        }

        // Freeblocks: collected into the extent list, for the overlap and fragmentation check below.
        int extents = 0;
        EnsureExtents(nCell + _usable / 4 + 1);
        int freeBytes = 0;
        int fb = BinaryPrimitives.ReadUInt16BigEndian(page[(hdr + 1)..]);
        while (fb != 0)
        {
            if (fb < contentStart || fb > _usable - 4)
            {
                _ctx.Log.Add(at, $"free space corruption: freeblock at {fb} is outside the cell content area {contentStart}..{_usable - 4}");
                coverage = false;
                break;
            }
            int size = BinaryPrimitives.ReadUInt16BigEndian(page[(fb + 2)..]);
            int next = BinaryPrimitives.ReadUInt16BigEndian(page[fb..]);
            if (size < 4)
            {
                _ctx.Log.Add(at, $"free space corruption: freeblock at {fb} has size {size} (at least 4)");
                coverage = false;
                break;
            }
            if (fb + size > _usable)
            {
                _ctx.Log.Add(at, $"free space corruption: freeblock at {fb} of {size} bytes extends past the end of the page ({_usable})");
                coverage = false;
                break;
            }
            _extents[extents++] = ((long)fb << 32) | (uint)(fb + size - 1);
            freeBytes += size;
            if (next != 0 && next <= fb + size + 3)
            {
                _ctx.Log.Add(at, $"free space corruption: freeblock at {next} follows the freeblock at {fb}..{fb + size - 1} " +
                    "(freeblocks must be in ascending order, at least 4 bytes apart)");
                coverage = false;
                break;
            }
            fb = next; // strictly ascending, so the loop ends
        }
        if (coverage && fragmented + freeBytes + (contentStart - cellAreaFirst) > _usable - cellAreaFirst)
        {
            _ctx.Log.Add(at, $"free space corruption: {fragmented} fragmented + {freeBytes} freeblock + {contentStart - cellAreaFirst} unallocated bytes exceed the page");
            coverage = false;
        }

        // Cells.
        if (lv.Cells.Length < nCell) lv.Cells = new Cell[Math.Max(nCell, lv.Cells.Length * 2)];
        var cells = lv.Cells;
        for (int i = 0; i < nCell; i++)
        {
            ref Cell c = ref cells[i];
            c = default;
            c.Offset = BinaryPrimitives.ReadUInt16BigEndian(page[(pointers + 2 * i)..]);
            var here = Where.Cell(_tree, pageNo, i);
            if (c.Offset < contentStart || c.Offset > _usable - 4)
            {
                _ctx.Log.Add(here, $"Offset {c.Offset} out of range {contentStart}..{_usable - 4}");
                coverage = false;
                continue;
            }
            string? problem = ParseCell(page, typeByte, ref c);
            if (problem is not null)
            {
                _ctx.Log.Add(here, problem);
                coverage = false;
                continue;
            }
            c.Ok = true;
            _extents[extents++] = ((long)c.Offset << 32) | (uint)(c.Offset + c.Size - 1);
        }

        if (coverage) CheckCoverage(at, pageNo, extents, contentStart, fragmented);

        // Keys, overflow chains and children, in key order (for an interior page: child i, then divider i).
        if (!leaf && lv.Heights.Length < nCell + 1) lv.Heights = new int[Math.Max(nCell + 1, lv.Heights.Length * 2)];
        for (int i = 0; i < nCell; i++)
        {
            ref Cell c = ref cells[i];
            if (!leaf) lv.Heights[i] = c.Ok ? Child(c.Child, pageNo, level, Where.Cell(_tree, pageNo, i)) : -1;
            if (!c.Ok) continue;
            var here = Where.Cell(_tree, pageNo, i);
            if (isTable) CheckKey(c.Key, divider: !leaf, here);
            if (c.Payload > c.Local) OverflowChainCheck.Check(_ctx, c.Overflow, c.Payload, c.Local, pageNo, here);
        }
        if (leaf) return 1;

        uint right = BinaryPrimitives.ReadUInt32BigEndian(page[(hdr + 8)..]);
        lv.Heights[nCell] = Child(right, pageNo, level, at);
        int height = CheckHeights(pageNo, lv, nCell, page, pointers);
        return height < 0 ? -1 : height + 1;
    }

    /// <summary>Walks into a child page; returns its subtree's height, or -1 when unknown.</summary>
    private int Child(uint child, uint parent, int level, in Where from)
    {
        if (!_ctx.Pages.Claim(child, PageUse.BTree, from)) return -1;
        _ctx.PointerMap?.Expect(child, PointerMapCheck.BTreePage, parent, from);
        return CheckPage(child, level + 1);
    }

    /// <summary>
    /// All children of an interior page must have subtrees of the same height (leaves all at the same depth).
    /// The height most children share is taken as right; each child that differs is reported. Returns that height.
    /// </summary>
    private int CheckHeights(uint pageNo, Level lv, int nCell, ReadOnlySpan<byte> page, int pointers)
    {
        // Heights are at most MaxDepth (deeper walks stop), so a small tally finds the most common one.
        Span<int> tally = stackalloc int[BTreeCursor.MaxDepth + 2];
        for (int i = 0; i <= nCell; i++)
            if (lv.Heights[i] > 0) tally[Math.Min(lv.Heights[i], tally.Length - 1)]++;
        int best = -1;
        for (int h = 1; h < tally.Length; h++)
            if (tally[h] > 0 && (best < 0 || tally[h] > tally[best])) best = h;
        if (best < 0) return -1;
        for (int i = 0; i <= nCell; i++)
        {
            int h = lv.Heights[i];
            if (h < 0 || h == best) continue;
            uint child = i < nCell
                ? BinaryPrimitives.ReadUInt32BigEndian(page[BinaryPrimitives.ReadUInt16BigEndian(page[(pointers + 2 * i)..])..])
                : BinaryPrimitives.ReadUInt32BigEndian(page[(pointers - 4)..]);
            var from = i < nCell ? Where.Cell(_tree, pageNo, i) : Where.Page(_tree, pageNo);
            _ctx.Log.Add(from, $"Child page depth differs: the subtree of page {child} is {h} level(s) high, its siblings' {best} (leaves must all be at the same depth)");
        }
        return best;
    }

    /// <summary>
    /// Rowids in key order: leaf rowids strictly increase; a divider is not less than the rowids before it (its left
    /// subtree) and the rowids after it (its right subtree) are greater.
    /// </summary>
    private void CheckKey(long key, bool divider, in Where here)
    {
        if (_hasPrevious)
        {
            bool ok = divider && !_previousIsDivider ? key >= _previous : key > _previous;
            if (!ok)
                _ctx.Log.Add(here, divider
                    ? $"Rowid {key} out of order (interior key {key} is less than rowid {_previous} to its left)"
                    : $"Rowid {key} out of order (follows {(_previousIsDivider ? "interior key" : "rowid")} {_previous})");
        }
        _hasPrevious = true;
        _previous = key;
        _previousIsDivider = divider;
    }

    /// <summary>Sorts the cells and freeblocks by offset; reports overlaps and a fragmented-byte count that does not match the gaps.</summary>
    private void CheckCoverage(in Where at, uint pageNo, int extents, int contentStart, int fragmented)
    {
        Array.Sort(_extents, 0, extents);
        int gaps = 0;
        int previousEnd = contentStart - 1;
        for (int i = 0; i < extents; i++)
        {
            int start = (int)(_extents[i] >> 32), end = (int)(uint)_extents[i];
            if (start <= previousEnd)
            {
                _ctx.Log.Add(at, $"Multiple uses for byte {start} of page {pageNo} (cells and freeblocks overlap)");
                return;
            }
            gaps += start - previousEnd - 1;
            previousEnd = end;
        }
        gaps += _usable - previousEnd - 1;
        if (gaps != fragmented)
            _ctx.Log.Add(at, $"Fragmentation of {gaps} bytes reported as {fragmented} on page {pageNo}");
    }

    /// <summary>Decodes one cell's extent, key, payload split and child; returns a problem description, or null.</summary>
    private string? ParseCell(ReadOnlySpan<byte> page, byte type, ref Cell c)
    {
        int pos = c.Offset;
        bool interior = (type & 8) == 0, table = (type & 1) != 0;
        if (interior)
        {
            if (pos + 4 > _usable) return "Extends off end of page";
            c.Child = BinaryPrimitives.ReadUInt32BigEndian(page[pos..]);
            pos += 4;
            if (table)
            {
                int n = Varint.Read(page[pos..], out c.Key);
                if (n == 0) return "Extends off end of page";
                c.Size = Math.Max(4, pos + n - c.Offset);
                return null;
            }
        }
        int m = Varint.Read(page[pos..], out long payload);
        if (m == 0) return "Extends off end of page";
        pos += m;
        if (table)
        {
            int k = Varint.Read(page[pos..], out c.Key);
            if (k == 0) return "Extends off end of page";
            pos += k;
        }
        if ((ulong)payload > int.MaxValue) return $"payload size {payload} is impossible";
        int local = CellParser.LocalSize(payload, _usable, tableLeaf: table);
        long end = (long)pos + local + (local < payload ? 4 : 0);
        if (end > _usable) return "Extends off end of page";
        c.Payload = payload;
        c.Local = local;
        c.Overflow = local < payload ? BinaryPrimitives.ReadUInt32BigEndian(page[(pos + local)..]) : 0;
        c.Size = Math.Max(4, (int)end - c.Offset);
        return null;
    }

    private void EnsureExtents(int n)
    {
        if (_extents.Length < n) _extents = new long[Math.Max(n, _extents.Length * 2)];
    }

    private static string Describe(byte type) => type switch
    {
        2 => "an index interior page (type 2)",
        5 => "a table interior page (type 5)",
        10 => "an index leaf page (type 10)",
        _ => "a table leaf page (type 13)",
    };
}
