using Sharc.Format;

namespace Sharc.BTree.Mutation;

/// <summary>
/// Index searches of the writer compare each probed entry with the search key. Decoding the key's fields once (into
/// the reader's <see cref="KeyComparer"/>) lets each probe compare integers and BINARY text in place, where comparing
/// two records parses both headers on every probe.
/// </summary>
internal sealed partial class BTreeMutator
{
    private KeyComparer _probe = new() { Key = new KeyValue[4], Collations = [], Descending = [] };
    private Collation[]? _probeCollationsOf;
    private bool[]? _probeDescendingOf;
    private bool _probeReady;
    private int _probeFields;

    /// <summary>
    /// Decodes the first <paramref name="fields"/> fields of <paramref name="key"/> (all of them when it has fewer)
    /// for <see cref="Probe"/>; the fast path is off for UTF-16 databases, whose text the key would need in two forms.
    /// </summary>
    private void PrepareProbe(ReadOnlySpan<byte> key, int fields, Collation[] collations, bool[] descending, SharcTextEncoding encoding)
    {
        _probeReady = false;
        if (encoding != SharcTextEncoding.Utf8) return;
        int hp = Varint.Read(key, out long hs);
        if (hp == 0 || hs > key.Length || hs < hp) return;
        int bp = (int)hs, n = 0;
        while (hp < hs && n < fields)
        {
            int m = Varint.Read(key[hp..(int)hs], out long type);
            if (m == 0) return;
            hp += m;
            long size = SerialType.ContentSize(type);
            if (size < 0 || bp + size > key.Length) return;
            if (n == _probe.Key.Length) Array.Resize(ref _probe.Key, n * 2);
            ref var k = ref _probe.Key[n];
            var value = key.Slice(bp, (int)size);
            switch (SerialType.StorageClass(type))
            {
                case SharcColumnType.Null: k.SetNull(); break;
                case SharcColumnType.Integer: k.SetInteger(SerialType.ReadInteger(type, value)); break;
                case SharcColumnType.Real: k.SetReal(SerialType.ReadReal(value)); break;
                case SharcColumnType.Text: k.SetUtf8(value, encoding); break;
                default: k.SetBlob(value); break;
            }
            bp += (int)size;
            n++;
        }
        if (n > _probe.Collations.Length || !ReferenceEquals(_probeCollationsOf, collations) || !ReferenceEquals(_probeDescendingOf, descending))
        {
            // The comparer indexes both per key field; an index's arrays may stop before its trailing rowid field.
            // Refilled in place: a row write alternates between its indexes, and new arrays per switch were garbage.
            int length = Math.Max(n, Math.Max(collations.Length, descending.Length));
            if (_probe.Collations.Length < length || _probe.Descending.Length != _probe.Collations.Length)
            {
                _probe.Collations = new Collation[length];
                _probe.Descending = new bool[length];
            }
            for (int i = 0; i < _probe.Collations.Length; i++)
            {
                _probe.Collations[i] = i < collations.Length ? collations[i] : Collation.Binary;
                _probe.Descending[i] = i < descending.Length && descending[i];
            }
            _probeCollationsOf = collations;
            _probeDescendingOf = descending;
        }
        _probe.KeyCount = n;
        _probe.Encoding = encoding;
        _probeFields = n;
        _probeReady = true;
    }

    /// <summary>
    /// <see cref="RecordCompare.Compare"/> of an entry with the prepared key (limited to <paramref name="fields"/>
    /// fields): the same answer, including "a record that is a prefix of the other sorts first".
    /// </summary>
    private int Probe(ReadOnlySpan<byte> record, ReadOnlySpan<byte> key, Collation[] collations, bool[] descending, SharcTextEncoding encoding, uint page, int fields)
    {
        if (!_probeReady) return RecordCompare.Compare(record, key, collations, descending, encoding, page, fields);
        _probe.Page = page;
        int c = _probe.CompareRecordToKey(record);
        if (c != 0 || _probeFields >= fields) return c;
        // Equal on every field of a key shorter than the limit: the longer record sorts after it.
        return FieldCount(record) > _probeFields ? 1 : 0;
    }

    private static int FieldCount(ReadOnlySpan<byte> record)
    {
        int hp = Varint.Read(record, out long hs), n = 0;
        while (hp < hs && hp < record.Length)
        {
            int m = Varint.Read(record[hp..(int)Math.Min(hs, record.Length)], out _);
            if (m == 0) break;
            hp += m;
            n++;
        }
        return n;
    }
}
