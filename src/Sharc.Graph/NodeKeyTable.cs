namespace Sharc.Graph;

/// <summary>
/// Gives each distinct node key met by one execution a dense id (0, 1, 2… in order of first sight), so traversals
/// keep their state in flat arrays. Cleared in O(1) by a generation stamp, so re-execution allocates nothing once
/// the arrays have grown to the largest execution's size.
/// </summary>
internal sealed class NodeKeyTable
{
    private readonly bool _text;
    private long[] _ints = new long[64];
    private int[] _textStart = [], _textLength = [];
    private byte[] _arena = [];
    private int _arenaUsed;
    private int[] _slotId = new int[128];
    private int[] _slotGen = new int[128];
    private int _gen = 1;
    private long[] _sortKeys = [];
    private Comparison<int>? _textOrder;

    public NodeKeyTable(bool text)
    {
        _text = text;
        if (text)
        {
            _textStart = new int[64];
            _textLength = new int[64];
            _arena = new byte[1024];
        }
    }

    public int Count { get; private set; }

    public void Clear()
    {
        Count = 0;
        _arenaUsed = 0;
        if (++_gen == int.MaxValue)
        {
            Array.Clear(_slotGen);
            _gen = 1;
        }
    }

    public long IntKey(int id) => _ints[id];

    public ReadOnlySpan<byte> TextKey(int id) => _arena.AsSpan(_textStart[id], _textLength[id]);

    public int GetOrAdd(long key, out bool added)
    {
        int mask = _slotId.Length - 1;
        for (int slot = Hash(key) & mask; ; slot = (slot + 1) & mask)
        {
            if (_slotGen[slot] != _gen)
            {
                added = true;
                int id = Count;
                if (id == _ints.Length) Array.Resize(ref _ints, id * 2);
                _ints[id] = key;
                return Claim(slot, id);
            }
            if (_ints[_slotId[slot]] == key)
            {
                added = false;
                return _slotId[slot];
            }
        }
    }

    public int GetOrAdd(ReadOnlySpan<byte> key, out bool added)
    {
        int mask = _slotId.Length - 1;
        for (int slot = Hash(key) & mask; ; slot = (slot + 1) & mask)
        {
            if (_slotGen[slot] != _gen)
            {
                added = true;
                int id = Count;
                if (id == _textStart.Length)
                {
                    Array.Resize(ref _textStart, id * 2);
                    Array.Resize(ref _textLength, id * 2);
                }
                if (_arenaUsed + key.Length > _arena.Length) Array.Resize(ref _arena, Math.Max(_arena.Length * 2, _arenaUsed + key.Length));
                key.CopyTo(_arena.AsSpan(_arenaUsed));
                _textStart[id] = _arenaUsed;
                _textLength[id] = key.Length;
                _arenaUsed += key.Length;
                return Claim(slot, id);
            }
            if (TextKey(_slotId[slot]).SequenceEqual(key))
            {
                added = false;
                return _slotId[slot];
            }
        }
    }

    /// <summary>The id of <paramref name="key"/>, or -1 when it has none (adds nothing).</summary>
    public int Find(long key)
    {
        int mask = _slotId.Length - 1;
        for (int slot = Hash(key) & mask; _slotGen[slot] == _gen; slot = (slot + 1) & mask)
            if (_ints[_slotId[slot]] == key) return _slotId[slot];
        return -1;
    }

    /// <summary>The id of <paramref name="key"/>, or -1 when it has none (adds nothing).</summary>
    public int Find(ReadOnlySpan<byte> key)
    {
        int mask = _slotId.Length - 1;
        for (int slot = Hash(key) & mask; _slotGen[slot] == _gen; slot = (slot + 1) & mask)
            if (TextKey(_slotId[slot]).SequenceEqual(key)) return _slotId[slot];
        return -1;
    }

    /// <summary>
    /// Sorts <paramref name="ids"/> by their keys in index order (integers ascending, text bytewise, as BINARY
    /// collates): expanding a set of nodes in that order makes consecutive edge-index seeks land on the same or the
    /// next leaf, where the cursor finds them without descending from the root.
    /// </summary>
    public void SortByKey(Span<int> ids)
    {
        if (ids.Length < 2) return;
        if (_text)
        {
            // A delegate made once: sorting with a comparer object would wrap it in a new delegate per call.
            ids.Sort(_textOrder ??= (x, y) => TextKey(x).SequenceCompareTo(TextKey(y)));
            return;
        }
        if (_sortKeys.Length < ids.Length) _sortKeys = new long[Math.Max(ids.Length, _sortKeys.Length * 2)];
        var keys = _sortKeys.AsSpan(0, ids.Length);
        for (int i = 0; i < ids.Length; i++) keys[i] = _ints[ids[i]];
        keys.Sort(ids);
    }

    private int Claim(int slot, int id)
    {
        _slotId[slot] = id;
        _slotGen[slot] = _gen;
        Count++;
        // Half full at most, so probes stay short.
        if (Count * 2 > _slotId.Length) Grow();
        return id;
    }

    private void Grow()
    {
        _slotId = new int[_slotId.Length * 2];
        _slotGen = new int[_slotGen.Length * 2];
        int mask = _slotId.Length - 1;
        for (int id = 0; id < Count; id++)
        {
            int slot = (_text ? Hash(TextKey(id)) : Hash(_ints[id])) & mask;
            while (_slotGen[slot] == _gen) slot = (slot + 1) & mask;
            _slotId[slot] = id;
            _slotGen[slot] = _gen;
        }
    }

    private static int Hash(long key) => (int)(((ulong)key * 0x9E3779B97F4A7C15UL) >> 33);

    private static int Hash(ReadOnlySpan<byte> key)
    {
        var h = new HashCode();
        h.AddBytes(key);
        return h.ToHashCode() & int.MaxValue;
    }
}
