using Sharc.Format;

namespace Sharc.BTree;

internal sealed partial class BTreeCursor
{
    /// <summary>
    /// From the current entry on, while <paramref name="comparer"/> finds an entry equal to its key, stores field
    /// <paramref name="field"/> of each entry into <paramref name="values"/> (and, when <paramref name="lastFields"/> is
    /// not empty, the entry's last field — an index entry's rowid — into it), read in place from the page: no cell
    /// state per entry, no record layout. Entries whose field is not stored as an integer are passed over. Stops when
    /// <paramref name="values"/> is full (the cursor then rests on the next unread entry) or on the first entry that
    /// does not match (the cursor rests on it), or at the end of the tree (the cursor is then invalid).
    /// </summary>
    public int ReadRunInt64<TComparer>(ref TComparer comparer, int field, Span<long> values, Span<long> lastFields) where TComparer : struct, IRecordComparer
    {
        int count = 0;
        bool wantLast = !lastFields.IsEmpty;
        while (_valid)
        {
            ref Frame top = ref _stack[_depth];
            if (count == values.Length)
            {
                ParseCell(ref top);
                return count;
            }
            var record = ProbeRecord(ref top, top.Page.Span, top.Index);
            if (comparer.CompareRecordToKey(record) != 0)
            {
                // The cursor's cell state was left behind by the in-place steps: bring it to the entry it rests on.
                ParseCell(ref top);
                return count;
            }
            if (TryFieldInteger(record, field, wantLast, out long value, out long last))
            {
                values[count] = value;
                if (wantLast) lastFields[count] = last;
                count++;
            }
            // The next cell of the same leaf is read in place; a leaf's end or an interior entry goes the general way.
            if (top.Header.IsLeaf && top.Index + 1 < top.Header.CellCount) top.Index++;
            else MoveNext();
        }
        return count;
    }

    /// <summary>
    /// Field <paramref name="field"/> of a record when it is stored as an integer, and (when asked) the last field
    /// when that is one (else 0); false when the field is absent or of another storage class.
    /// </summary>
    private bool TryFieldInteger(ReadOnlySpan<byte> record, int field, bool wantLast, out long value, out long last)
    {
        value = last = 0;
        int hs, hp;
        if (record.Length > 0 && record[0] < 0x80)
        {
            hs = record[0];
            hp = 1;
        }
        else
        {
            hp = Varint.Read(record, out long h);
            if (hp == 0 || h > int.MaxValue) return BadRecord();
            hs = (int)h;
        }
        if (hs > record.Length || hs < hp) return BadRecord();
        int bp = hs;
        bool found = false;
        long lastType = -1;
        int lastOffset = 0;
        for (int i = 0; hp < hs; i++)
        {
            long type = record[hp];
            if (type < 0x80) hp++;
            else
            {
                int m = Varint.Read(record[hp..hs], out type);
                if (m == 0) return BadRecord();
                hp += m;
            }
            long size = SerialType.ContentSize(type);
            if (size < 0 || bp + size > record.Length) return BadRecord();
            if (i == field)
            {
                if (!SerialType.IsInteger(type)) return false;
                value = SerialType.ReadInteger(type, record.Slice(bp, (int)size));
                found = true;
                if (!wantLast) return true;
            }
            lastType = type;
            lastOffset = bp;
            bp += (int)size;
        }
        if (found && SerialType.IsInteger(lastType))
            last = SerialType.ReadInteger(lastType, record.Slice(lastOffset, (int)SerialType.ContentSize(lastType)));
        return found;
    }

    private bool BadRecord() => ThrowHelper.Corrupt<bool>("index record header is malformed", CurrentPage);
}
