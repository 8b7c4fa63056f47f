using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using Sharc.Storage;

namespace Sharc.BTree;

/// <summary>
/// Walks one b-tree (table or index) in key order. Keeps a stack of pinned pages, one per level; for index
/// b-trees the interior cells are entries too and are visited between their children, as SQLite orders them.
/// Every walk is bounded: at most <see cref="MaxDepth"/> levels, and never more page visits than the database
/// has pages, so cycles and shared subtrees in a corrupt file end in <see cref="SharcCorruptException"/>.
/// </summary>
internal sealed partial class BTreeCursor : IDisposable
{
    /// <summary>SQLite's own limit (BTCURSOR_MAX_DEPTH); a deeper tree is corrupt.</summary>
    public const int MaxDepth = 20;

    private struct Frame
    {
        public PageRef Page;
        public BTreePageHeader Header;
        /// <summary>Leaf: the current cell. Interior: the child being walked (CellCount means the right child).</summary>
        public int Index;
        /// <summary>
        /// Integer seeks: exclusive bounds of the page's leading keys (its parent's separators around it, or its first
        /// and last keys), when <see cref="Hinted"/>; they steer the search's first probe (BTreeCursor.Int64.cs).
        /// </summary>
        public double HintLow, HintHigh;
        public bool Hinted;
    }

    private readonly IPageSource _source;
    private uint _root;
    private readonly int _usable;
    private readonly bool _isIndex;
    /// <summary>The largest index payload kept whole on its page (SQLite's maxLocal for index b-trees).</summary>
    private readonly int _maxIndexLocal;
    private uint _pageCount;
    private long _generation;
    private readonly Frame[] _stack = new Frame[MaxDepth];
    private int _held; // frames [0, _held) hold a pinned page (some may be above _depth, kept for reuse)
    private int _depth = -1;
    private long _visits;
    private bool _valid;
    private CellPayload _cell;
    private bool _disposed;

    public BTreeCursor(IPageSource source, uint root, int usableSize, bool isIndex)
    {
        _source = source;
        _root = root;
        _usable = usableSize;
        _isIndex = isIndex;
        _maxIndexLocal = CellParser.IndexMaxLocal(usableSize);
        _pageCount = source.PageCount;
    }

    public bool IsIndex => _isIndex;
    public uint RootPage => _root;

    /// <summary>The usable page size the cursor reads cells with.</summary>
    public int UsableSize => _usable;

    /// <summary>True when positioned on an entry.</summary>
    public bool IsValid => _valid;

    /// <summary>The rowid of the current table entry.</summary>
    public long RowId => _cell.RowId;

    /// <summary>The size of the current entry's payload (record) in bytes.</summary>
    public int PayloadSize => _cell.PayloadSize;

    /// <summary>The page holding the current cell (for error messages).</summary>
    public uint CurrentPage => _depth >= 0 ? _stack[_depth].Page.PageNumber : 0;

    /// <summary>Positions on the first entry; false when the tree is empty.</summary>
    public bool MoveFirst()
    {
        BeginWalk();
        if (DescendLeftmost(_root)) return true;
        return AdvanceFromExhaustedLeaf();
    }

    /// <summary>Moves to the next entry in key order; false at the end.</summary>
    public bool MoveNext()
    {
        if (!_valid) return false;
        ref Frame top = ref _stack[_depth];
        if (top.Header.IsLeaf)
        {
            if (++top.Index < top.Header.CellCount)
            {
                // The small table cell is parsed here, without the call; anything else goes the general way.
                if (_isIndex || !TryParseSmallTableCell(ref top)) ParseCell(ref top);
                return true;
            }
            return AdvanceFromExhaustedLeaf();
        }
        // On an interior index entry: the next entries are in the subtree to its right.
        top.Index++;
        if (DescendLeftmost(ChildAt(ref top, top.Index))) return true;
        return AdvanceFromExhaustedLeaf();
    }

    /// <summary>Positions on the last entry; false when the tree is empty.</summary>
    public bool MoveLast()
    {
        BeginWalk();
        if (DescendRightmost(_root)) return true;
        return RetreatFromExhaustedLeaf();
    }

    /// <summary>Moves to the previous entry in key order; false at the start.</summary>
    public bool MovePrevious()
    {
        if (!_valid) return false;
        ref Frame top = ref _stack[_depth];
        if (top.Header.IsLeaf)
        {
            if (--top.Index >= 0)
            {
                ParseCell(ref top);
                return true;
            }
            return RetreatFromExhaustedLeaf();
        }
        // On interior index entry i: the entries just before it are the subtree of child i, which lies to its left.
        if (DescendRightmost(ChildAt(ref top, top.Index))) return true;
        return RetreatFromExhaustedLeaf();
    }

    /// <summary>
    /// Positions on the last table entry whose rowid is at most <paramref name="rowId"/> (below it when
    /// <paramref name="inclusive"/> is false); false when there is none.
    /// </summary>
    public bool SeekRowIdLast(long rowId, bool inclusive)
    {
        if (inclusive)
        {
            if (rowId == long.MaxValue) return MoveLast();
            rowId++;
        }
        // The first entry at or past the bound, then one step back; past the end, the last entry is the answer.
        SeekRowId(rowId);
        return _valid ? MovePrevious() : MoveLast();
    }

    /// <summary>
    /// Positions on the last index entry that sorts before the search key (<paramref name="inclusive"/> false), or
    /// before or equal to it (true: an entry whose leading fields equal a prefix key counts as equal); false when
    /// there is none.
    /// </summary>
    public bool SeekKeyLast<TComparer>(ref TComparer comparer, bool inclusive) where TComparer : struct, IRecordComparer
    {
        if (inclusive)
        {
            // Counting equal entries as smaller turns the lower-bound search into an upper-bound one.
            var upper = new EqualAsLess<TComparer>(comparer);
            SeekKey(ref upper);
        }
        else
        {
            SeekKey(ref comparer);
        }
        return _valid ? MovePrevious() : MoveLast();
    }

    private struct EqualAsLess<TComparer>(TComparer inner) : IRecordComparer where TComparer : struct, IRecordComparer
    {
        private TComparer _inner = inner;

        public int CompareRecordToKey(ReadOnlySpan<byte> record)
        {
            int c = _inner.CompareRecordToKey(record);
            return c == 0 ? -1 : c;
        }
    }

    /// <summary>
    /// Positions on the table entry with rowid <paramref name="rowId"/> and returns true; when there is none,
    /// positions on the next larger rowid (or past the end) and returns false.
    /// </summary>
    public bool SeekRowId(long rowId)
    {
        BeginWalk();
        if (SeekNearby && TrySeekRowIdOnHeldLeaf(rowId, out bool found)) return found;
        uint page = _root;
        while (true)
        {
            ref Frame f = ref Push(page);
            var span = f.Page.Span;
            int lo = 0, hi = f.Header.CellCount;
            if (f.Header.IsLeaf)
            {
                while (lo < hi)
                {
                    int mid = (lo + hi) >>> 1;
                    if (LeafRowId(ref f, span, mid) < rowId) lo = mid + 1;
                    else hi = mid;
                }
                f.Index = lo;
                if (lo < f.Header.CellCount)
                {
                    ParseCell(ref f);
                    return _cell.RowId == rowId;
                }
                AdvanceFromExhaustedLeaf();
                return false;
            }
            while (lo < hi)
            {
                int mid = (lo + hi) >>> 1;
                int cell = f.Header.CellOffset(span, mid, f.Page.PageNumber, _usable);
                if (InteriorKey(span, cell, f.Page.PageNumber) < rowId) lo = mid + 1;
                else hi = mid;
            }
            f.Index = lo;
            page = ChildAt(ref f, lo);
        }
    }

    /// <summary>
    /// The seek of <see cref="SeekRowId"/> on the leaf still held from the last walk, when that leaf's first and last
    /// rowids bracket <paramref name="rowId"/>: the row (or the next larger one) is then on it, and the held frames
    /// above it are its path, so reads past it climb on as usual. A join's inner seeks by ascending rowids mostly land
    /// on the same leaf and cost one binary search of it instead of a descent from the root. False when the leaf does
    /// not bracket the rowid (nothing is changed then).
    /// </summary>
    private bool TrySeekRowIdOnHeldLeaf(long rowId, out bool found)
    {
        found = false;
        int leaf = _held - 1;
        if (leaf < 0) return false;
        ref Frame f = ref _stack[leaf];
        int n = f.Header.CellCount;
        if (!f.Header.IsLeaf || n == 0) return false;
        var span = f.Page.Span;
        if (rowId < LeafRowId(ref f, span, 0) || rowId > LeafRowId(ref f, span, n - 1)) return false;
        _depth = leaf;
        _visits = leaf + 1;
        int lo = 0, hi = n - 1;
        while (lo < hi)
        {
            int mid = (lo + hi) >>> 1;
            if (LeafRowId(ref f, span, mid) < rowId) lo = mid + 1;
            else hi = mid;
        }
        f.Index = lo;
        ParseCell(ref f);
        found = _cell.RowId == rowId;
        return true;
    }

    /// <summary>
    /// Positions on the first index entry whose key is not less than the search key described by
    /// <paramref name="comparer"/> (a lower bound). Returns false when every entry is smaller.
    /// </summary>
    public bool SeekKey<TComparer>(ref TComparer comparer) where TComparer : struct, IRecordComparer
    {
        BeginWalk();
        uint page = _root;
        int from = 0;
        // The keys below the separators an integer search ended between, for the child's own search.
        double childLow = 0, childHigh = 0;
        bool bounded = false;
        if (SeekNearby && _held > 1)
        {
            int level = NearbyLevel(ref comparer, out from);
            // The held frames above that level are the path to it, so reads past its subtree climb on as usual.
            _depth = level - 1;
            if (level > 0) page = _stack[level].Page.PageNumber;
        }
        while (true)
        {
            ref Frame f = ref Push(page);
            if (bounded && !f.Hinted)
            {
                f.HintLow = childLow;
                f.HintHigh = childHigh;
                f.Hinted = true;
            }
            bounded = false;
            var span = f.Page.Span;
            int lo = 0, hi = f.Header.CellCount;
            if (TrySearchInt64(ref comparer, ref f, from, out int bound, out childLow, out childHigh))
            {
                lo = hi = bound;
                bounded = true;
            }
            else if (from > 0)
            {
                // Every cell before `from` is below the key: gallop forward from there (1, 2, 4… cells), so a key a
                // child or two ahead costs two or three probes, then binary-search the last stride.
                lo = from;
                for (int step = 1; lo + step - 1 < hi; step <<= 1)
                {
                    int probe = lo + step - 1;
                    if (Probe(ref comparer, ref f, span, probe) >= 0)
                    {
                        hi = probe;
                        break;
                    }
                    lo = probe + 1;
                }
            }
            while (lo < hi)
            {
                int mid = (lo + hi) >>> 1;
                if (Probe(ref comparer, ref f, span, mid) < 0) lo = mid + 1;
                else hi = mid;
            }
            from = 0;
            f.Index = lo;
            if (f.Header.IsLeaf)
            {
                if (lo < f.Header.CellCount)
                {
                    ParseCell(ref f);
                    return true;
                }
                // Every entry here is smaller: the lower bound is the next entry up the tree, if any.
                return AdvanceFromExhaustedLeaf();
            }
            page = ChildAt(ref f, lo);
        }
    }

    /// <summary>
    /// When set, <see cref="SeekKey{TComparer}"/> (and <see cref="SeekRowId"/>, on the held leaf) first looks for the key on the pages still held from the last walk
    /// (this generation's, so current): it starts the descent at the deepest of them whose first entry is below the
    /// key and whose last entry is not, instead of at the root. Ascending or clustered seeks then cost a binary
    /// search of one leaf; a seek elsewhere pays up to two probes per held level before descending from the root.
    /// </summary>
    public bool SeekNearby { get; set; }

    /// <summary>
    /// The deepest held level (below the root) whose page brackets the key: the lower bound then lies in its
    /// subtree, because a page's first and last entries bound every entry between them. 0 when none does.
    /// </summary>
    /// <remarks>
    /// <paramref name="from"/> is set when the key lies beyond the whole held page below that level: cells before
    /// the child that page hangs from are then all below the key too, so the search there starts at that child.
    /// </remarks>
    private int NearbyLevel<TComparer>(ref TComparer comparer, out int from) where TComparer : struct, IRecordComparer
    {
        bool beyondBelow = false;
        for (int level = _held - 1; level > 0; level--)
        {
            ref Frame f = ref _stack[level];
            int n = f.Header.CellCount;
            if (n < 2)
            {
                beyondBelow = false;
                continue;
            }
            // Read before probing: a spilled cell's probe moves the frame's index, and gathers from the frame at _depth.
            int child = f.Index;
            _depth = level;
            var span = f.Page.Span;
            // Forward seeks mostly fail on the last entry (the key lies beyond this page), so it is probed first.
            if (Probe(ref comparer, ref f, span, n - 1) < 0)
            {
                beyondBelow = true;
                continue;
            }
            // Beyond the whole held page below, the key is past everything before this page's subtree (that page is in
            // it), so the first entry need not be probed.
            if (beyondBelow || Probe(ref comparer, ref f, span, 0) < 0)
            {
                // The held child (f.Index) lies wholly below the key only on an interior page walked into it. On the
                // leaf, an ascending seek usually lands past the entry held: probed, it narrows the search to the rest.
                if (!f.Header.IsLeaf) from = beyondBelow ? child : 0;
                else from = child > 0 && child < n - 1 && Probe(ref comparer, ref f, span, child) < 0 ? child + 1 : 0;
                return level;
            }
            beyondBelow = false;
        }
        from = 0;
        return 0;
    }

    /// <summary>
    /// The record of index cell <paramref name="index"/> for a binary-search probe. A record that lies whole on the
    /// page with a one- or two-byte size (nearly every index cell) is sliced in place, skipping what the probe does
    /// not need (the cursor's current-cell state); a spilled or unusual cell goes through the general parser, which
    /// checks everything and gathers the overflow.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ReadOnlySpan<byte> ProbeRecord(ref Frame f, ReadOnlySpan<byte> span, int index)
    {
        int cell = f.Header.CellOffset(span, index, f.Page.PageNumber, _usable);
        int start = f.Header.IsLeaf ? cell : cell + 4;
        if (start + 2 <= _usable)
        {
            int n = Format.Varint.TryReadShort(span, start, out int size);
            if (n > 0 && size <= _maxIndexLocal && start + n + size <= _usable) return span.Slice(start + n, size);
        }
        f.Index = index;
        ParseCell(ref f);
        return GetPayload(_cell.PayloadSize);
    }

    private void BeginWalk()
    {
        if (_disposed) ThrowHelper.Disposed(nameof(BTreeCursor));
        // A writable database may have grown since the cursor was made.
        _pageCount = _source.PageCount;
        long generation = _source.Generation;
        if (generation != _generation)
        {
            // The pages held from the last walk may read differently now: borrow them afresh.
            for (int i = 0; i < _held; i++) _source.Release(_stack[i].Page);
            _held = 0;
            _generation = generation;
        }
        _depth = -1;
        _visits = 0;
        _valid = false;
    }

    /// <summary>Descends from <paramref name="page"/> along first children; true when it lands on a leaf entry.</summary>
    private bool DescendLeftmost(uint page)
    {
        while (true)
        {
            ref Frame f = ref Push(page);
            f.Index = 0;
            if (f.Header.IsLeaf)
            {
                if (f.Header.CellCount == 0) return false;
                ParseCell(ref f);
                return true;
            }
            page = ChildAt(ref f, 0);
        }
    }

    /// <summary>Descends from <paramref name="page"/> along last (right) children; true when it lands on a leaf entry.</summary>
    private bool DescendRightmost(uint page)
    {
        while (true)
        {
            ref Frame f = ref Push(page);
            if (f.Header.IsLeaf)
            {
                f.Index = f.Header.CellCount - 1;
                if (f.Header.CellCount == 0) return false;
                ParseCell(ref f);
                return true;
            }
            f.Index = f.Header.CellCount;
            page = ChildAt(ref f, f.Index);
        }
    }

    /// <summary>The top leaf has no earlier entries: climb to the previous entry in key order. Interior frames keep
    /// the index of the child being walked, as forwards, so that either direction can follow the other.</summary>
    private bool RetreatFromExhaustedLeaf()
    {
        while (true)
        {
            _depth--;
            if (_depth < 0)
            {
                _valid = false;
                return false;
            }
            ref Frame p = ref _stack[_depth];
            if (p.Index == 0) continue; // came up from the first child
            p.Index--;
            // In an index b-tree the cell that separates child i from child i+1 is itself the previous entry.
            if (_isIndex)
            {
                ParseCell(ref p);
                return true;
            }
            if (DescendRightmost(ChildAt(ref p, p.Index))) return true;
        }
    }

    /// <summary>The top leaf has no more entries: climb to the next entry in key order (iteratively, so that
    /// any number of empty leaves cannot exhaust the stack).</summary>
    private bool AdvanceFromExhaustedLeaf()
    {
        while (true)
        {
            _depth--;
            if (_depth < 0)
            {
                _valid = false;
                return false;
            }
            ref Frame p = ref _stack[_depth];
            if (p.Index >= p.Header.CellCount) continue; // came up from the right child
            if (_isIndex)
            {
                ParseCell(ref p);
                return true;
            }
            p.Index++;
            if (DescendLeftmost(ChildAt(ref p, p.Index))) return true;
        }
    }

    private ref Frame Push(uint page)
    {
        int level = _depth + 1;
        if (level >= MaxDepth || ++_visits > _pageCount) WalkTooLong(level, page);

        ref Frame f = ref _stack[level];
        if (level < _held && f.Page.PageNumber == page)
        {
            _depth = level;
            return ref f;
        }
        PageRef pr;
        if (level < _held)
        {
            // The old path below this level leads elsewhere: its pages go back too, or they would stay pinned for good.
            for (int i = level + 1; i < _held; i++) _source.Release(_stack[i].Page);
            // The frame's old page goes back as the new one is borrowed (one cache lock, not two).
            _held = level;
            pr = _source.Exchange(f.Page, page);
        }
        else
        {
            pr = _source.Acquire(page);
        }
        BTreePageHeader header;
        try
        {
            header = BTreePageHeader.Parse(pr.Span, page, _usable);
            if (header.IsTable == _isIndex) WrongPageKind(page, header.IsTable);
        }
        catch
        {
            _source.Release(pr);
            throw;
        }
        f.Page = pr;
        f.Header = header;
        f.Index = 0;
        f.Hinted = false;
        _held = level + 1;
        _depth = level;
        return ref f;
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private void WalkTooLong(int level, uint page)
    {
        if (level >= MaxDepth)
            ThrowHelper.Corrupt($"b-tree rooted at page {_root} is deeper than {MaxDepth} levels (a page cycle?)", page);
        ThrowHelper.Corrupt($"b-tree rooted at page {_root} visits more pages than the database has (a page cycle?)", page);
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private void WrongPageKind(uint page, bool isTable)
        => ThrowHelper.Corrupt($"page {page} is a {(isTable ? "table" : "index")} page inside {(isTable ? "an index" : "a table")} b-tree rooted at page {_root}", page);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private uint ChildAt(ref Frame f, int index)
    {
        uint child;
        if (index < f.Header.CellCount)
        {
            var span = f.Page.Span;
            int cell = f.Header.CellOffset(span, index, f.Page.PageNumber, _usable);
            if (cell + 4 > _usable) ThrowHelper.Corrupt("interior cell runs off the page", f.Page.PageNumber, cell);
            child = CellParser.LeftChild(span, cell);
        }
        else
        {
            child = f.Header.RightChild;
        }
        if (child == 0 || child > _pageCount)
            ThrowHelper.ChildOutOfRange(child, _pageCount, f.Page.PageNumber);
        return child;
    }

    /// <summary>Just the rowid of a leaf cell: the binary search needs nothing else, so the payload is not sized.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private long LeafRowId(ref Frame f, ReadOnlySpan<byte> span, int index)
    {
        int cell = f.Header.CellOffset(span, index, f.Page.PageNumber, _usable);
        // The common case, read in place: a payload size of one or two bytes and a rowid of one or two.
        if (cell + 4 <= _usable)
        {
            int n = Format.Varint.TryReadShort(span, cell, out _);
            if (n > 0 && Format.Varint.TryReadShort(span, cell + n, out int rowId) > 0) return rowId;
        }
        return LeafRowIdSlow(ref f, span, cell);
    }

    /// <summary>The rowid key of a table interior cell, with the one- and two-byte cases read in place.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private long InteriorKey(ReadOnlySpan<byte> span, int cell, uint page)
    {
        if (cell + 6 <= _usable && Format.Varint.TryReadShort(span, cell + 4, out int key) > 0) return key;
        return CellParser.TableInteriorKey(span, cell, _usable, page);
    }

    private long LeafRowIdSlow(ref Frame f, ReadOnlySpan<byte> span, int cell)
    {
        var s = span[cell.._usable];
        int n1 = Format.Varint.Read(s, out _);
        long rowId = 0;
        if (n1 == 0 || Format.Varint.Read(s[n1..], out rowId) == 0)
            return ThrowHelper.Corrupt<long>("cell rowid runs off the page", f.Page.PageNumber, cell);
        return rowId;
    }

    private void ParseCell(ref Frame f)
    {
        if (!_isIndex && TryParseSmallTableCell(ref f)) return;
        var span = f.Page.Span;
        uint pg = f.Page.PageNumber;
        int cell = f.Header.CellOffset(span, f.Index, pg, _usable);
        if (_isIndex) CellParser.IndexCell(span, cell, _usable, pg, !f.Header.IsLeaf, out _cell);
        else CellParser.TableLeaf(span, cell, _usable, pg, out _cell);
        if (_cell.Overflow != 0)
        {
            long spill = _cell.PayloadSize - _cell.LocalSize;
            long pages = (spill + _usable - 5) / (_usable - 4);
            if (pages > _pageCount)
                ThrowHelper.Corrupt($"payload of {_cell.PayloadSize} bytes needs more overflow pages than the database has", pg, cell);
        }
        _valid = true;
        _assembled = -1;
    }

    /// <summary>
    /// The scan's hot case, read straight from the page array: a table leaf cell whose payload size and rowid are
    /// one- or two-byte varints and whose payload fits the page. Anything else falls back to the general parser,
    /// which does every check.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryParseSmallTableCell(ref Frame f)
    {
        byte[] buf = f.Page.Buffer;
        int baseOff = f.Page.Offset;
        int ptr = baseOff + f.Header.CellPointers + 2 * f.Index;
        int cell = (buf[ptr] << 8) | buf[ptr + 1];
        if (cell < f.Header.CellPointers + 2 * f.Header.CellCount || cell + 4 > _usable) return false;
        int p = baseOff + cell;
        int size = buf[p];
        int n = 1;
        if (size >= 0x80)
        {
            if (buf[p + 1] >= 0x80) return false;
            size = ((size & 0x7F) << 7) | buf[p + 1];
            n = 2;
        }
        int r = buf[p + n];
        long rowId;
        if (r < 0x80)
        {
            rowId = r;
            n++;
        }
        else
        {
            int r1 = buf[p + n + 1];
            if (r1 >= 0x80) return false;
            rowId = ((r & 0x7F) << 7) | r1;
            n += 2;
        }
        // Local only when the payload is at most usable - 35 bytes (the table-leaf rule) and ends on the page.
        if (size > _usable - 35 || cell + n + size > _usable) return false;
        _cell.RowId = rowId;
        _cell.PayloadSize = size;
        _cell.LocalOffset = cell + n;
        _cell.LocalSize = size;
        _cell.Overflow = 0;
        _valid = true;
        _assembled = -1;
        return true;
    }

    /// <summary>
    /// Lets go of the pages the cursor holds and leaves it unpositioned, ready to seek again: a cursor kept for one
    /// lookup after another (the writer's row loads) holds no page while the writer changes pages in between.
    /// </summary>
    public void Park()
    {
        for (int i = 0; i < _held; i++) _source.Release(_stack[i].Page);
        _held = 0;
        _depth = -1;
        _valid = false;
    }

    /// <summary>
    /// Makes the cursor walk the b-tree rooted at <paramref name="root"/> (the same object after a schema change moved
    /// it, as VACUUM does); it is left unpositioned.
    /// </summary>
    public void Reroot(uint root)
    {
        Park();
        _root = root;
        _pageCount = _source.PageCount;
    }

    public void Dispose()
    {
        if (_disposed) return;
        _disposed = true;
        for (int i = 0; i < _held; i++) _source.Release(_stack[i].Page);
        _held = 0;
        _depth = -1;
        _valid = false;
    }
}
