using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// The values of a constant <c>x IN (list)</c>, hashed once per execution, as SQLite keeps them in an ephemeral index.
/// <see cref="SqlCompare.CompareWithAffinity"/> finds two values equal exactly when they are equal under
/// <see cref="SqlCompare.Compare"/> after the comparison affinity is applied to each on its own, so the items are
/// stored with the affinity applied and a probe applies it to x: a hash lookup then answers what the linear scan of
/// <see cref="SqlCompare.In"/> answers. The arrays and the arena survive executions, so a prepared statement rebuilds
/// the set without allocating once it has run.
/// </summary>
internal sealed class InListSet
{
    private readonly SqlAffinity _affinity;
    private readonly SqlValueComparer _hasher;
    private readonly SqlValue[] _values;
    private readonly int[] _hashes;
    // Open addressing: each slot holds an index into _values plus one; 0 is empty.
    private readonly int[] _slots;
    private readonly ValueArena _arena = new();
    private readonly byte[] _probeText = new byte[SqlValue.NumberTextMax];
    private int _count;
    private bool _sawNull;

    public InListSet(int capacity, SqlAffinity affinity, Collation collation)
    {
        _affinity = affinity;
        _hasher = SqlValueComparer.For(collation);
        _values = new SqlValue[capacity];
        _hashes = new int[capacity];
        _slots = new int[Math.Max(4, (int)System.Numerics.BitOperations.RoundUpToPowerOf2((uint)capacity * 2))];
    }

    /// <summary>Forgets the previous execution's items.</summary>
    public void Clear()
    {
        Array.Clear(_slots);
        Array.Clear(_values, 0, _count);
        _arena.Reset();
        _count = 0;
        _sawNull = false;
    }

    /// <summary>Adds an item; borrowed bytes are copied, so <paramref name="item"/> need not outlive the call.</summary>
    public void Add(in SqlValue item)
    {
        if (item.IsNull)
        {
            _sawNull = true;
            return;
        }
        var key = Key(item, _arena);
        int hash = _hasher.GetHashCode(key);
        if (Find(key, hash) >= 0) return;
        _values[_count] = key;
        _hashes[_count] = hash;
        _count++;
        int mask = _slots.Length - 1;
        int s = hash & mask;
        while (_slots[s] != 0) s = (s + 1) & mask;
        _slots[s] = _count;
    }

    /// <summary>
    /// <c>x IN (list)</c> over the items added: 1 when one equals x, otherwise NULL when x or an item is NULL, else 0.
    /// The caller settles the empty list (0 even for a NULL x).
    /// </summary>
    public SqlValue Contains(in SqlValue x)
    {
        if (x.IsNull) return SqlValue.Null;
        var key = Key(x, null);
        if (Find(key, _hasher.GetHashCode(key)) >= 0) return SqlValue.True;
        return _sawNull ? SqlValue.Null : SqlValue.False;
    }

    private int Find(in SqlValue key, int hash)
    {
        int mask = _slots.Length - 1;
        for (int s = hash & mask; _slots[s] != 0; s = (s + 1) & mask)
        {
            int i = _slots[s] - 1;
            if (_hashes[i] == hash && SqlCompare.Compare(_values[i], key, _hasher.Collation) == 0) return i;
        }
        return -1;
    }

    /// <summary>
    /// The value with the comparison affinity applied. A number under TEXT affinity is rendered into the arena
    /// (items) or the probe buffer (x, valid until the next probe), never into a new array.
    /// </summary>
    private SqlValue Key(in SqlValue v, ValueArena? keep)
    {
        if (_affinity == SqlAffinity.Text && v.IsNumber)
        {
            int n = v.TextBytes(_probeText).Length;
            return keep is null ? SqlValue.BorrowedText(_probeText, 0, n) : keep.Text(_probeText.AsSpan(0, n));
        }
        var applied = SqlAffinities.ApplyForComparison(v, _affinity);
        return keep is not null && applied.IsBorrowed ? keep.Keep(applied) : applied;
    }
}
