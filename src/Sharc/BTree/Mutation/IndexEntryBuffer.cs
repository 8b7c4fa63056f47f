using System.Runtime.CompilerServices;
using Sharc.Format;

namespace Sharc.BTree.Mutation;

/// <summary>
/// The entries of an index being built, copied into large shared chunks (not one array each) and sorted in index
/// order, for <see cref="BTreeMutator.BuildIndex"/>. When every entry's first field is an integer or NULL — the usual
/// case for keys, foreign keys and graph edge ends — entries are ordered by that value held beside them first, so
/// most comparisons never parse a record.
/// </summary>
internal sealed class IndexEntryBuffer
{
    private const int ChunkSize = 1 << 20;

    private readonly List<byte[]> _chunks = [];
    private int _used = ChunkSize;
    private Entry[] _entries = new Entry[1024];
    private int _count;
    private bool _prefixUsable = true;

    private struct Entry
    {
        public long Prefix;
        public int Chunk;
        public int Offset;
        public int Length;
        /// <summary>0 for NULL, 1 for an integer: NULL sorts first (SQLite's order of storage classes).</summary>
        public byte Class;
    }

    public int Count => _count;

    /// <summary>The <paramref name="i"/>-th entry (in index order once <see cref="Sort"/> has run).</summary>
    public ReadOnlySpan<byte> this[int i]
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            ref readonly var e = ref _entries[i];
            return _chunks[e.Chunk].AsSpan(e.Offset, e.Length);
        }
    }

    public void Add(ReadOnlySpan<byte> record)
    {
        if (_count == _entries.Length) Array.Resize(ref _entries, _entries.Length * 2);
        if (_used + record.Length > ChunkSize || _chunks.Count == 0)
        {
            // An entry larger than a chunk gets a chunk of its own.
            _chunks.Add(new byte[Math.Max(ChunkSize, record.Length)]);
            _used = 0;
        }
        var chunk = _chunks[^1];
        record.CopyTo(chunk.AsSpan(_used));
        ref var e = ref _entries[_count++];
        e.Chunk = _chunks.Count - 1;
        e.Offset = _used;
        e.Length = record.Length;
        _used += record.Length;
        if (_prefixUsable) _prefixUsable = TryFirstInteger(record, out e.Class, out e.Prefix);
    }

    /// <summary>Reads the first field when it is NULL or an integer (else false: the prefix cannot order the entries).</summary>
    private static bool TryFirstInteger(ReadOnlySpan<byte> record, out byte cls, out long value)
    {
        cls = 0;
        value = 0;
        int n = Varint.Read(record, out long headerSize);
        if (n == 0 || headerSize <= n || headerSize > record.Length) return false;
        if (Varint.Read(record[n..(int)headerSize], out long type) == 0) return false;
        if (type == 0) return true;
        if (type is < 1 or > 9 || type == 7) return false;
        int size = (int)SerialType.ContentSize(type);
        if ((int)headerSize + size > record.Length) return false;
        cls = 1;
        value = SerialType.ReadInteger(type, record.Slice((int)headerSize, size));
        return true;
    }

    /// <summary>True when one of the first <paramref name="fields"/> fields of entry <paramref name="i"/> is NULL.</summary>
    public bool HasNull(int i, int fields)
    {
        var record = this[i];
        int pos = Varint.Read(record, out long headerSize);
        if (pos == 0 || headerSize > record.Length) ThrowHelper.Corrupt("index record header is malformed", 0);
        for (int f = 0; f < fields && pos < headerSize; f++)
        {
            int n = Varint.Read(record[pos..(int)headerSize], out long type);
            if (n == 0) ThrowHelper.Corrupt("index record header is malformed", 0);
            if (type == 0) return true;
            pos += n;
        }
        return false;
    }

    /// <summary>Sorts the entries in the index's order (the same order <see cref="RecordCompare"/> gives).</summary>
    public void Sort(Collation[] collations, bool[] descending, SharcTextEncoding encoding)
    {
        var comparer = new EntryComparer(this, collations, descending, encoding, _prefixUsable);
        if (!_prefixUsable || _count < 2)
        {
            _entries.AsSpan(0, _count).Sort(comparer);
            return;
        }
        // A primitive sort of the first fields (NULLs set apart: they sort before every number), then only runs of
        // entries that tie on the first field are ordered by their whole records.
        bool desc = descending.Length > 0 && descending[0];
        int nulls = 0;
        for (int i = 0; i < _count; i++) if (_entries[i].Class == 0) nulls++;
        var keys = new long[_count - nulls];
        var order = new int[_count - nulls];
        var sorted = new Entry[_entries.Length];
        int k = 0, at = desc ? _count - nulls : 0;
        for (int i = 0; i < _count; i++)
        {
            if (_entries[i].Class == 0)
            {
                sorted[at++] = _entries[i];
                continue;
            }
            // The complement reverses the order without overflowing at long.MinValue.
            keys[k] = desc ? ~_entries[i].Prefix : _entries[i].Prefix;
            order[k++] = i;
        }
        Array.Sort(keys, order);
        int first = desc ? 0 : nulls;
        for (int i = 0; i < order.Length; i++) sorted[first + i] = _entries[order[i]];
        var span = sorted.AsSpan(0, _count);
        int nullStart = desc ? _count - nulls : 0;
        span.Slice(nullStart, nulls).Sort(comparer);
        for (int i = 0; i < keys.Length;)
        {
            int j = i + 1;
            while (j < keys.Length && keys[j] == keys[i]) j++;
            if (j - i > 1) span.Slice(first + i, j - i).Sort(comparer);
            i = j;
        }
        _entries = sorted;
    }

    /// <summary>Compares two entries by the index's order; <paramref name="fields"/> limits it to a key prefix.</summary>
    public int Compare(int a, int b, Collation[] collations, bool[] descending, SharcTextEncoding encoding, int fields = int.MaxValue)
        => RecordCompare.Compare(this[a], this[b], collations, descending, encoding, fields: fields);

    private readonly struct EntryComparer(IndexEntryBuffer owner, Collation[] collations, bool[] descending, SharcTextEncoding encoding, bool prefix) : IComparer<Entry>
    {
        public int Compare(Entry x, Entry y)
        {
            if (prefix)
            {
                int c = x.Class != y.Class ? x.Class.CompareTo(y.Class) : x.Prefix.CompareTo(y.Prefix);
                if (c != 0) return descending.Length > 0 && descending[0] ? -c : c;
            }
            var chunks = owner._chunks;
            return RecordCompare.Compare(chunks[x.Chunk].AsSpan(x.Offset, x.Length), chunks[y.Chunk].AsSpan(y.Offset, y.Length), collations, descending, encoding);
        }
    }
}
