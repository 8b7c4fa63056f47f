namespace Sharc.Graph;

/// <summary>
/// Dense ids (0, 1, 2… in order of first sight) for integer keys, for loading a snapshot. Keys in the window spanned
/// by the node table's keys, when those are dense enough (the usual 1…N), are looked up by offset in a flat array;
/// others in an open-addressing table whose slots hold the key and its id side by side. Either way a key not in
/// cache costs one memory miss, which is what loading millions of edges spends its time on.
/// </summary>
internal sealed class LongIdMap
{
    // Slot s is _slots[2s] (the key) and _slots[2s + 1] (id + 1; 0 marks an empty slot).
    private long[] _slots = new long[2 * 1024];
    private long[] _keys = new long[512];
    // Window: key k with (ulong)(k − _windowStart) < _window.Length has id _window[that offset] − 1 (0: not yet met).
    private int[] _window = [];
    private long _windowStart;
    private int _tableCount;

    public int Count { get; private set; }

    public long KeyAt(int id) => _keys[id];

    /// <summary>Adds the first keys (the node table's), opening the window over their range when it is dense.</summary>
    public void AddFirst(ReadOnlySpan<long> keys)
    {
        if (keys.Length > 0)
        {
            long min = long.MaxValue, max = long.MinValue;
            foreach (long k in keys)
            {
                min = Math.Min(min, k);
                max = Math.Max(max, k);
            }
            // At most 8 bytes of window per key: past that the table is as small and as fast.
            ulong span = (ulong)(max - min) + 1;
            if (span <= 2UL * (ulong)keys.Length + 1024 && span <= (ulong)Array.MaxLength)
            {
                _window = new int[span];
                _windowStart = min;
            }
        }
        if (_keys.Length < keys.Length) Array.Resize(ref _keys, keys.Length);
        foreach (long k in keys) GetOrAdd(k);
    }

    public int GetOrAdd(long key)
    {
        ulong offset = unchecked((ulong)(key - _windowStart));
        if (offset < (ulong)_window.Length)
        {
            int known = _window[offset];
            if (known != 0) return known - 1;
            int id = NewId(key);
            _window[offset] = id + 1;
            return id;
        }
        long[] slots = _slots;
        int mask = (slots.Length >> 1) - 1;
        for (int slot = Hash(key) & mask; ; slot = (slot + 1) & mask)
        {
            long idPlusOne = slots[2 * slot + 1];
            if (idPlusOne == 0) return AddToTable(key, slot);
            if (slots[2 * slot] == key) return (int)idPlusOne - 1;
        }
    }

    private int NewId(long key)
    {
        int id = Count++;
        if (id == _keys.Length) Array.Resize(ref _keys, id * 2);
        _keys[id] = key;
        return id;
    }

    private int AddToTable(long key, int slot)
    {
        int id = NewId(key);
        _slots[2 * slot] = key;
        _slots[2 * slot + 1] = id + 1;
        _tableCount++;
        // Half full at most, so probes stay short.
        if (_tableCount * 4 > _slots.Length) Grow();
        return id;
    }

    private void Grow()
    {
        var old = _slots;
        var slots = new long[old.Length * 2];
        int mask = (slots.Length >> 1) - 1;
        for (int i = 0; i < old.Length; i += 2)
        {
            if (old[i + 1] == 0) continue;
            int slot = Hash(old[i]) & mask;
            while (slots[2 * slot + 1] != 0) slot = (slot + 1) & mask;
            slots[2 * slot] = old[i];
            slots[2 * slot + 1] = old[i + 1];
        }
        _slots = slots;
    }

    private static int Hash(long key) => (int)(((ulong)key * 0x9E3779B97F4A7C15UL) >> 33);
}
