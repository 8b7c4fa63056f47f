namespace Sharc.Storage;

/// <summary>
/// A bounded page cache with CLOCK eviction and pin counts. Readers pin the pages they are positioned on,
/// so a buffer is only reused once nobody is looking at it; steady-state hits and misses allocate nothing.
/// Safe for concurrent readers: one short lock around lookup, pin and unpin.
/// </summary>
internal sealed partial class PageCache
{
    private struct Slot
    {
        public uint Page;
        public int Pins;
        public bool Referenced;
        public byte[] Buffer;
    }

    private readonly object _lock = new();
    private readonly int _pageSize;
    private readonly int _capacity;
    private readonly Action<uint, byte[]> _load;
    private readonly Dictionary<uint, int> _map;
    private Slot[] _slots;
    private int _count;
    private int _hand;

    public PageCache(int pageSize, int capacity, Action<uint, byte[]> load)
    {
        _pageSize = pageSize;
        _capacity = Math.Max(8, capacity);
        _load = load;
        // Grows with use: a small file never pays for a map sized to the whole cache.
        _map = new Dictionary<uint, int>();
        _slots = new Slot[Math.Min(_capacity, 16)];
    }

    public long Misses { get; private set; }

    /// <summary>The cache's lock, which <see cref="Concurrency.ConcurrencyControl"/> shares for its snapshot state.</summary>
    public object Sync => _lock;

    /// <summary>The number of page buffers currently held.</summary>
    public int Count => _count;

    public PageRef Acquire(uint page)
    {
        lock (_lock)
        {
            return AcquireLocked(page);
        }
    }

    /// <summary>Release then Acquire under one lock: what a cursor does each time it moves to another page.</summary>
    public PageRef Exchange(in PageRef old, uint page)
    {
        lock (_lock)
        {
            ReleaseLocked(old);
            return AcquireLocked(page);
        }
    }

    private PageRef AcquireLocked(uint page)
    {
        if (_map.TryGetValue(page, out int slot))
        {
            ref Slot s = ref _slots[slot];
            s.Pins++;
            s.Referenced = true;
            return new PageRef(s.Buffer, 0, _pageSize, page, slot);
        }
        return Miss(page);
    }

    private PageRef Miss(uint page)
    {
        int slot = FindVictim();
        ref Slot s = ref _slots[slot];
        if (s.Buffer is null) s.Buffer = PageBufferPool.Rent(_pageSize);
        else if (s.Page != 0) _map.Remove(s.Page);

        s.Page = 0;
        try
        {
            _load(page, s.Buffer);
        }
        catch
        {
            // Leave the slot empty and unpinned so the failure cannot poison the cache.
            s.Pins = 0;
            throw;
        }
        Misses++;
        s.Page = page;
        s.Pins = 1;
        s.Referenced = true;
        _map[page] = slot;
        return new PageRef(s.Buffer, 0, _pageSize, page, slot);
    }

    private int FindVictim()
    {
        if (_count < _capacity) return Grow();
        // Two sweeps give every referenced page its second chance; after that, all pages are pinned.
        for (int i = 0; i < 2 * _count; i++)
        {
            int idx = _hand;
            _hand = (_hand + 1) % _count;
            ref Slot s = ref _slots[idx];
            if (s.Pins > 0) continue;
            if (s.Referenced)
            {
                s.Referenced = false;
                continue;
            }
            return idx;
        }
        // Every page is pinned by a live reader: go over the bound rather than hand out a page in use.
        return Grow();
    }

    private int Grow()
    {
        if (_count == _slots.Length) Array.Resize(ref _slots, _slots.Length * 2);
        return _count++;
    }

    /// <summary>
    /// Overwrites the cached copy of <paramref name="page"/>, if any, with committed content. A buffer a reader has
    /// pinned is never written under it: the slot takes a fresh buffer and the reader keeps the bytes it was reading.
    /// </summary>
    public void Update(uint page, ReadOnlySpan<byte> content)
    {
        lock (_lock)
        {
            if (!_map.TryGetValue(page, out int slot)) return;
            ref Slot s = ref _slots[slot];
            if (s.Pins > 0)
            {
                s.Buffer = new byte[_pageSize];
                s.Pins = 0;
            }
            content.CopyTo(s.Buffer);
        }
    }

    /// <summary>Forgets every cached page (another connection changed the file). Pinned buffers stay with their readers.</summary>
    public void InvalidateAll()
    {
        lock (_lock)
        {
            _map.Clear();
            for (int i = 0; i < _count; i++)
            {
                _slots[i].Page = 0;
                // A pinned buffer still belongs to a reader; give the slot a fresh buffer on its next use.
                if (_slots[i].Pins > 0)
                {
                    _slots[i].Buffer = null!;
                    _slots[i].Pins = 0;
                }
            }
        }
    }

    public void Release(in PageRef page)
    {
        if (page.Slot < 0) return;
        lock (_lock)
        {
            ReleaseLocked(page);
        }
    }

    private void ReleaseLocked(in PageRef page)
    {
        if (page.Slot < 0) return;
        ref Slot s = ref _slots[page.Slot];
        // After InvalidateAll the slot may hold another buffer: only the owner of the current buffer unpins.
        if (s.Pins > 0 && ReferenceEquals(s.Buffer, page.Buffer)) s.Pins--;
    }

    /// <summary>
    /// Hands the buffers no reader has pinned to <see cref="PageBufferPool"/> and forgets every page: the owner is
    /// closing. A pinned buffer stays with its reader, whose next page read fails on the closed file.
    /// </summary>
    public void ReturnBuffers()
    {
        lock (_lock)
        {
            var free = new List<byte[]>(_count);
            for (int i = 0; i < _count; i++)
            {
                ref Slot s = ref _slots[i];
                if (s.Buffer is not null && s.Pins == 0) free.Add(s.Buffer);
                s.Buffer = null!;
                s.Page = 0;
                s.Pins = 0;
            }
            _map.Clear();
            PageBufferPool.Return(free);
        }
    }
}
