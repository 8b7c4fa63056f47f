using System.Runtime.CompilerServices;
using Sharc.Format;

namespace Sharc.BTree;

/// <summary>
/// The seek comparer for a one-field integer key (graph node and edge keys, foreign keys): small enough to inline into
/// the binary search, it reads an entry's leading integer in place and leaves every other shape of entry (a real, a
/// NULL, a long header) to the general <see cref="KeyComparer"/>, which it wraps.
/// </summary>
internal struct Int64KeyComparer(KeyComparer general) : IRecordComparer
{
    private KeyComparer _general = general;
    private readonly long _key = general.Key[0].Integer;
    private readonly bool _descending = general.Descending[0];

    /// <summary>The integer sought.</summary>
    public readonly long Key => _key;

    /// <summary>True when the key column sorts descending.</summary>
    public readonly bool Descending => _descending;

    /// <summary>True when <paramref name="comparer"/>'s key is this comparer's kind: one integer value.</summary>
    public static bool Serves(in KeyComparer comparer) => comparer.KeyCount == 1 && comparer.Key[0].Type == SharcColumnType.Integer;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int CompareRecordToKey(ReadOnlySpan<byte> record)
    {
        if (record.Length > 2)
        {
            uint headerSize = record[0], type = record[1];
            // Serial types 1-6: one to eight bytes of big-endian two's complement, right after a one-byte header size.
            if (headerSize - 2 < 0x7E && type - 1 < 6)
            {
                int size = type < 5 ? (int)type : type == 5 ? 6 : 8;
                if (headerSize + size <= record.Length)
                {
                    long v = SerialType.ReadInteger(type, record.Slice((int)headerSize, size));
                    int c = v < _key ? -1 : v > _key ? 1 : 0;
                    return _descending ? -c : c;
                }
            }
        }
        return _general.CompareRecordToKey(record);
    }
}
