using System.Text;
using Sharc.Format;
using Sharc.Schema;
using Sharc.Schema.Parsing;

namespace Sharc.Write;

/// <summary>
/// Turns a value to be written into what SQLite stores for a column of a given affinity: numeric text becomes a
/// number under NUMERIC/INTEGER/REAL, numbers become text under TEXT, integral reals become integers (REAL keeps
/// them as integers only within ±2^47, as SQLite's "IntReal" optimisation does), NaN becomes NULL.
/// </summary>
internal static class StorageAffinity
{
    private const long IntRealLimit = 140737488355327; // 2^47 - 1

    /// <summary>Converts a .NET value (null, integers, floating point, bool, string, byte[], spans) to a stored value.</summary>
    public static StoredValue FromObject(object? value, SharcAffinity affinity, SharcTextEncoding encoding)
    {
        object? v = AffinityRules.ApplyForStorage(Normalize(value), affinity);
        if (affinity == SharcAffinity.Real && v is long big && (big > IntRealLimit || big < -IntRealLimit - 1)) v = (double)big;
        return v switch
        {
            null => StoredValue.Null,
            long l => StoredValue.FromInteger(l),
            double d => double.IsNaN(d) ? StoredValue.Null : StoredValue.FromReal(d),
            string s => StoredValue.FromText(TextCodec.For(encoding).GetBytes(s)),
            byte[] b => StoredValue.FromBlob(b),
            _ => throw ClrValues.Unsupported(v, nameof(value)),
        };
    }

    private static object? Normalize(object? value) => ClrValues.Normalize(value);

    /// <summary>An integer written to a column (no allocation unless the column is TEXT).</summary>
    public static void SetInteger(ref StoredValue slot, ref byte[]? scratch, long v, SharcAffinity affinity, SharcTextEncoding encoding)
    {
        if (affinity == SharcAffinity.Text)
        {
            Span<byte> tmp = stackalloc byte[24];
            v.TryFormat(tmp, out int n, default, System.Globalization.CultureInfo.InvariantCulture);
            SetTextUtf8(ref slot, ref scratch, tmp[..n], SharcAffinity.Text, encoding);
            return;
        }
        slot = affinity == SharcAffinity.Real && (v > IntRealLimit || v < -IntRealLimit - 1) ? StoredValue.FromReal(v) : StoredValue.FromInteger(v);
    }

    /// <summary>A real written to a column.</summary>
    public static void SetReal(ref StoredValue slot, ref byte[]? scratch, double v, SharcAffinity affinity, SharcTextEncoding encoding)
    {
        if (double.IsNaN(v))
        {
            slot = StoredValue.Null;
            return;
        }
        switch (affinity)
        {
            case SharcAffinity.Text:
            {
                Span<byte> tmp = stackalloc byte[40];
                int n = ValueConvert.FormatReal(v, tmp);
                SetTextUtf8(ref slot, ref scratch, tmp[..n], SharcAffinity.Text, encoding);
                return;
            }
            case SharcAffinity.Integer or SharcAffinity.Numeric or SharcAffinity.Real:
            {
                long ix = ValueConvert.RealToInt64(v);
                bool exact = ix == v && ix > long.MinValue && ix < long.MaxValue;
                if (exact && (affinity != SharcAffinity.Real || (ix <= IntRealLimit && ix >= -IntRealLimit - 1)))
                {
                    slot = StoredValue.FromInteger(ix);
                    return;
                }
                break;
            }
        }
        slot = StoredValue.FromReal(v);
    }

    /// <summary>UTF-8 text written to a column: copied (and transcoded for UTF-16 databases) into the slot's scratch buffer.</summary>
    public static void SetTextUtf8(ref StoredValue slot, ref byte[]? scratch, ReadOnlySpan<byte> utf8, SharcAffinity affinity, SharcTextEncoding encoding)
    {
        if (affinity is SharcAffinity.Numeric or SharcAffinity.Integer or SharcAffinity.Real && MightBeNumber(utf8))
        {
            // Rare in hot loops: numeric-looking text in a numeric column goes through the general conversion.
            slot = FromObject(Encoding.UTF8.GetString(utf8), affinity, encoding);
            if (slot.Type != SharcColumnType.Text) return;
        }
        if (encoding == SharcTextEncoding.Utf8)
        {
            Ensure(ref scratch, utf8.Length);
            utf8.CopyTo(scratch);
            slot = StoredValue.FromText(new ReadOnlyMemory<byte>(scratch, 0, utf8.Length));
            return;
        }
        var codec = TextCodec.For(encoding);
        Ensure(ref scratch, utf8.Length * 2 + 2);
        int chars = Encoding.UTF8.GetCharCount(utf8);
        char[] tmp = System.Buffers.ArrayPool<char>.Shared.Rent(Math.Max(1, chars));
        int nc = Encoding.UTF8.GetChars(utf8, tmp);
        int nb = codec.GetBytes(tmp, 0, nc, scratch!, 0);
        System.Buffers.ArrayPool<char>.Shared.Return(tmp);
        slot = StoredValue.FromText(new ReadOnlyMemory<byte>(scratch, 0, nb));
    }

    public static void SetBlob(ref StoredValue slot, ref byte[]? scratch, ReadOnlySpan<byte> bytes)
    {
        Ensure(ref scratch, bytes.Length);
        bytes.CopyTo(scratch);
        slot = StoredValue.FromBlob(new ReadOnlyMemory<byte>(scratch, 0, bytes.Length));
    }

    private static bool MightBeNumber(ReadOnlySpan<byte> s)
    {
        foreach (byte b in s)
        {
            if (b is (byte)' ' or (byte)'\t' or (byte)'\n' or (byte)'\r' or (byte)'\f') continue;
            return b is >= (byte)'0' and <= (byte)'9' or (byte)'+' or (byte)'-' or (byte)'.';
        }
        return false;
    }

    private static void Ensure(ref byte[]? a, int n)
    {
        if (a is null || a.Length < n) a = new byte[Math.Max(n, Math.Max(16, (a?.Length ?? 0) * 2))];
    }
}
