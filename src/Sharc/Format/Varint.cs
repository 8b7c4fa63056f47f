using System.Runtime.CompilerServices;

namespace Sharc.Format;

/// <summary>
/// SQLite's variable-length integer: 1–9 bytes, big-endian, seven bits per byte with the high bit
/// as "more follows", except the ninth byte, which contributes all eight bits.
/// </summary>
internal static class Varint
{
    /// <summary>Reads a varint at the start of <paramref name="src"/>; returns the number of bytes used, or 0 when the span ends first.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Read(ReadOnlySpan<byte> src, out long value)
    {
        if (src.Length > 1)
        {
            // One and two bytes cover most rowids, sizes and serial types: keep them branch-light and inlined.
            int n = TryReadShort(src, 0, out int shortValue);
            if (n > 0)
            {
                value = shortValue;
                return n;
            }
        }
        return ReadSlow(src, out value);
    }

    /// <summary>
    /// A varint of one or two bytes at <paramref name="at"/>, read in place (the caller guarantees two readable
    /// bytes): its length, or 0 when it is longer and needs <see cref="Read"/>.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int TryReadShort(ReadOnlySpan<byte> src, int at, out int value)
    {
        int b0 = src[at];
        if (b0 < 0x80)
        {
            value = b0;
            return 1;
        }
        int b1 = src[at + 1];
        value = ((b0 & 0x7F) << 7) | b1;
        return b1 < 0x80 ? 2 : 0;
    }

    private static int ReadSlow(ReadOnlySpan<byte> src, out long value)
    {
        ulong v = 0;
        int n = Math.Min(src.Length, 8);
        for (int i = 0; i < n; i++)
        {
            byte b = src[i];
            v = (v << 7) | (uint)(b & 0x7F);
            if (b < 0x80)
            {
                value = (long)v;
                return i + 1;
            }
        }
        if (src.Length < 9)
        {
            value = 0;
            return 0;
        }
        v = (v << 8) | src[8];
        value = (long)v;
        return 9;
    }

    /// <summary>The number of bytes <see cref="Write"/> uses for <paramref name="value"/>.</summary>
    public static int Length(long value)
    {
        ulong v = (ulong)value;
        if (v > 0x00FFFFFFFFFFFFFFUL) return 9;
        int n = 1;
        while ((v >>= 7) != 0) n++;
        return n;
    }

    /// <summary>Writes <paramref name="value"/> as a varint; returns the number of bytes written.</summary>
    public static int Write(Span<byte> dst, long value)
    {
        ulong v = (ulong)value;
        if (v > 0x00FFFFFFFFFFFFFFUL)
        {
            dst[8] = (byte)v;
            v >>= 8;
            for (int i = 7; i >= 0; i--)
            {
                dst[i] = (byte)((v & 0x7F) | 0x80);
                v >>= 7;
            }
            return 9;
        }
        int len = Length(value);
        for (int i = len - 1; i >= 0; i--)
        {
            dst[i] = (byte)((v & 0x7F) | (i == len - 1 ? 0u : 0x80u));
            v >>= 7;
        }
        return len;
    }
}
