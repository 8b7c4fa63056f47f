using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Sql.Functions.Json;

/// <summary>JSONB's number payloads: checking them, rendering them as JSON text and reading them as SQL values.</summary>
internal static class JsonNumbers
{
    private static bool IsDigit(byte b) => b is >= (byte)'0' and <= (byte)'9';

    /// <summary>An INT payload: optional '-', then digits without a leading zero.</summary>
    public static bool IsCanonicalInt(ReadOnlySpan<byte> p)
    {
        int i = p.Length > 0 && p[0] == (byte)'-' ? 1 : 0;
        if (i == p.Length) return false;
        if (p[i] == (byte)'0' && p.Length > i + 1) return false;
        for (; i < p.Length; i++)
            if (!IsDigit(p[i])) return false;
        return true;
    }

    /// <summary>An INT5 payload: optional '-', then 0x and hex digits.</summary>
    public static bool IsHexInt(ReadOnlySpan<byte> p)
    {
        int i = p.Length > 0 && p[0] == (byte)'-' ? 1 : 0;
        if (p.Length < i + 3 || p[i] != (byte)'0' || (p[i + 1] | 0x20) != (byte)'x') return false;
        for (i += 2; i < p.Length; i++)
            if (JsonStrings.HexValue(p[i]) < 0) return false;
        return true;
    }

    /// <summary>A FLOAT payload (or FLOAT5, which may also begin or end its digits with the decimal point).</summary>
    public static bool IsFloat(ReadOnlySpan<byte> p, bool json5)
    {
        int i = p.Length > 0 && p[0] == (byte)'-' ? 1 : 0;
        int intDigits = 0, fracDigits = 0;
        bool dot = false, exp = false;
        if (i < p.Length && p[i] == (byte)'0' && i + 1 < p.Length && IsDigit(p[i + 1])) return false;
        while (i < p.Length && IsDigit(p[i])) { i++; intDigits++; }
        if (i < p.Length && p[i] == (byte)'.')
        {
            dot = true;
            i++;
            while (i < p.Length && IsDigit(p[i])) { i++; fracDigits++; }
        }
        if (i < p.Length && (p[i] | 0x20) == (byte)'e')
        {
            exp = true;
            i++;
            if (i < p.Length && p[i] is (byte)'+' or (byte)'-') i++;
            int e = 0;
            while (i < p.Length && IsDigit(p[i])) { i++; e++; }
            if (e == 0) return false;
        }
        if (i != p.Length || intDigits + fracDigits == 0 || (!dot && !exp)) return false;
        return json5 || (intDigits > 0 && (!dot || fracDigits > 0));
    }

    /// <summary>Appends a number element as standard JSON text (INT5 in decimal, FLOAT5 with its missing zeros).</summary>
    public static void AppendJson(int type, ReadOnlySpan<byte> p, JsonBuffer dst)
    {
        switch (type)
        {
            case Jsonb.Int5:
            {
                bool neg = p[0] == (byte)'-';
                if (!TryHex(p, out ulong u))
                {
                    dst.Append(neg ? "-9.0e999"u8 : "9.0e999"u8);
                    return;
                }
                if (neg) dst.Append((byte)'-');
                Span<byte> digits = stackalloc byte[24];
                u.TryFormat(digits, out int n, default, System.Globalization.CultureInfo.InvariantCulture);
                dst.Append(digits[..n]);
                return;
            }
            case Jsonb.Float5:
            {
                int i = 0;
                if (p.Length > 0 && p[0] == (byte)'-') { dst.Append((byte)'-'); i = 1; }
                if (i < p.Length && p[i] == (byte)'.') dst.Append((byte)'0');
                for (; i < p.Length; i++)
                {
                    dst.Append(p[i]);
                    if (p[i] == (byte)'.' && (i + 1 == p.Length || !IsDigit(p[i + 1]))) dst.Append((byte)'0');
                }
                return;
            }
            default:
                dst.Append(p);
                return;
        }
    }

    // The magnitude of an INT5 payload; false when it does not fit 64 bits.
    private static bool TryHex(ReadOnlySpan<byte> p, out ulong value)
    {
        value = 0;
        int i = p[0] == (byte)'-' ? 3 : 2;
        for (; i < p.Length; i++)
        {
            if (value > ulong.MaxValue >> 4) return false;
            value = value << 4 | (uint)JsonStrings.HexValue(p[i]);
        }
        return true;
    }

    /// <summary>A number element as the SQL value json_extract returns: INTEGER when it fits, REAL otherwise.</summary>
    public static SqlValue ToSqlValue(int type, ReadOnlySpan<byte> p)
    {
        switch (type)
        {
            case Jsonb.Int:
            {
                bool neg = p[0] == (byte)'-';
                ulong u = 0;
                bool overflow = false;
                for (int i = neg ? 1 : 0; i < p.Length; i++)
                {
                    if (u > (ulong.MaxValue - 9) / 10) { overflow = true; break; }
                    u = u * 10 + (uint)(p[i] - '0');
                }
                if (!overflow && u <= long.MaxValue) return SqlValue.Integer(neg ? -(long)u : (long)u);
                if (!overflow && neg && u == 9223372036854775808UL) return SqlValue.Integer(long.MinValue);
                return SqlValue.Real(SqlRealParser.Parse(p));
            }
            case Jsonb.Int5:
            {
                bool neg = p[0] == (byte)'-';
                if (!TryHex(p, out ulong u)) JsonErrors.Malformed();
                if (u <= long.MaxValue) return SqlValue.Integer(neg ? -(long)u : (long)u);
                return SqlValue.Real(neg ? -(double)u : u);
            }
            default:
                return SqlValue.Real(ParseFloat(p));
        }
    }

    private static double ParseFloat(ReadOnlySpan<byte> p)
    {
        // 9e999 and -9e999 are how JSONB spells the infinities.
        int i = p.Length > 0 && p[0] == (byte)'-' ? 1 : 0;
        if (p[i..].SequenceEqual("9e999"u8)) return i == 1 ? double.NegativeInfinity : double.PositiveInfinity;
        return SqlRealParser.Parse(p);
    }

    /// <summary>Appends a REAL as SQLite writes it into JSON (the infinities as ±9.0e+999).</summary>
    public static void AppendReal(double r, JsonBuffer dst)
    {
        if (double.IsInfinity(r))
        {
            dst.Append(r < 0 ? "-9.0e+999"u8 : "9.0e+999"u8);
            return;
        }
        Span<byte> buf = stackalloc byte[40];
        dst.Append(buf[..ValueConvert.FormatReal(r, buf)]);
    }
}
