using System.Numerics;

namespace Sharc.Format;

/// <summary>
/// Binary ↔ decimal conversion of doubles exactly as SQLite 3.53 does it (util.c's FpDecode and AtoF), which is
/// fixed-point arithmetic over a table of 96-bit powers of ten, not the correctly rounded conversion .NET offers:
/// binary → decimal yields 18 digits (the 18th rounded half to even) and rounds that digit string again, so 1/3 at
/// 17 digits is …332, not …331; decimal → binary is usually, not always, the nearest double. Matching it bit for bit
/// is what makes CAST(x AS TEXT), printf, text affinity and numeric literals give SQLite's answers.
/// </summary>
internal static class FloatDigits
{
    private const int FirstPower = -348, LastPower = 347;

    // 5^n normalized to the top bit: 10^n for n in [0, 27) with the factor 2^n folded into the exponent (exact).
    private static readonly ulong[] SmallPowers = BuildSmallPowers();

    // 10^(27g) for g in [-13, 13), index g + 13, as a 96-bit significand truncated: high 64 bits and next 32.
    // Index 13 (g = 0, which 10^0 never needs) holds 10^-1, the one negative power that gets a dedicated entry.
    private static readonly (ulong Hi, uint Lo)[] LargePowers = BuildLargePowers();

    private static ulong[] BuildSmallPowers()
    {
        var t = new ulong[27];
        for (int n = 0; n < 27; n++)
        {
            var v = BigInteger.Pow(5, n);
            t[n] = (ulong)(v << (64 - (int)v.GetBitLength()));
        }
        return t;
    }

    private static (ulong, uint)[] BuildLargePowers()
    {
        var t = new (ulong, uint)[26];
        for (int i = 0; i < 26; i++) t[i] = Normalized96(i == 13 ? -1 : 27 * (i - 13));
        return t;
    }

    /// <summary>10^p's leading 96 bits (top bit set), truncated.</summary>
    private static (ulong, uint) Normalized96(int p)
    {
        BigInteger top;
        if (p >= 0)
        {
            var v = BigInteger.Pow(10, p);
            int shift = (int)v.GetBitLength() - 96;
            top = shift >= 0 ? v >> shift : v << -shift;
        }
        else
        {
            // 2^k / 10^-p with k chosen so the quotient has exactly 96 bits.
            var den = BigInteger.Pow(10, -p);
            int k = 95 + (int)den.GetBitLength();
            top = (BigInteger.One << k) / den;
            if (top.GetBitLength() > 96) top >>= 1;
        }
        return ((ulong)(top >> 32), (uint)(top & uint.MaxValue));
    }

    /// <summary>10^p (p in [-348, 347]) as a normalized 96-bit significand: the high 64 bits, and the next 32 in <paramref name="lo"/>.</summary>
    private static ulong PowerOfTen(int p, out uint lo)
    {
        int g, n;
        if (p < 0)
        {
            if (p == -1)
            {
                (ulong h1, lo) = LargePowers[13];
                return h1;
            }
            g = p / 27;
            n = p % 27;
            if (n != 0)
            {
                g--;
                n += 27;
            }
        }
        else if (p < 27)
        {
            lo = 0;
            return SmallPowers[p];
        }
        else
        {
            g = p / 27;
            n = p % 27;
        }
        var (s, sLo) = LargePowers[g + 13];
        if (n == 0)
        {
            lo = sLo;
            return s;
        }
        ulong x = Multiply160(s, sLo, SmallPowers[n], out lo);
        if ((x & (1UL << 63)) == 0)
        {
            x = x << 1 | ((lo >> 31) & 1);
            lo = (lo << 1) | 1;
        }
        return x;
    }

    /// <summary>The high 64 bits of (a·2^32 + aLo) × b / 2^32, and the 32 bits below them.</summary>
    private static ulong Multiply160(ulong a, uint aLo, ulong b, out uint lo)
    {
        UInt128 r = (UInt128)a * b;
        r += ((UInt128)aLo * b) >> 32;
        lo = (uint)(r >> 32);
        return (ulong)(r >> 64);
    }

    private static int Pwr10To2(int p) => (p * 108853) >> 15;

    private static int Pwr2To10(int p) => (p * 78913) >> 18;

    /// <summary>m × 2^e (m with its top bit set) as about d × 10^p with at least <paramref name="n"/> digits
    /// (1–18); at 18 digits the last is rounded half to even, below that truncated.</summary>
    private static ulong ToDecimal(ulong m, int e, int n, out int p10)
    {
        int p = n - 1 - Pwr2To10(e + 63);
        ulong h = Math.BigMul(m, PowerOfTen(p, out _), out _);
        ulong d;
        if (n == 18)
        {
            h >>= -(e + Pwr10To2(p) + 2);
            d = (h + ((h << 1) & 2)) >> 1;
        }
        else
        {
            d = h >> -(e + Pwr10To2(p) + 1);
        }
        p10 = -p;
        return d;
    }

    /// <summary>d × 10^p (d ≠ 0) as SQLite's text-to-real conversion computes it.</summary>
    public static double ToDouble(ulong d, int p)
    {
        if (p < FirstPower) return 0.0;
        if (p > LastPower) return double.PositiveInfinity;
        int b = 64 - BitOperations.LeadingZeroCount(d);
        int lp = Pwr10To2(p);
        int e = 53 - b - lp;
        if (e > 1074)
        {
            if (e >= 1130) return 0.0;
            e = 1074;
        }
        int s = -(e - (64 - b) + lp + 3);
        ulong pwrHi = PowerOfTen(p, out uint pwrLo);
        if (pwrLo != 0)
        {
            // Rounded up, so that the correction below only ever subtracts.
            pwrHi++;
            pwrLo = ~pwrLo;
        }
        ulong x = d << (64 - b);
        ulong hi = Math.BigMul(x, pwrHi, out ulong lo);
        uint mid1 = (uint)(lo >> 32);
        ulong sticky = 1;
        if ((hi & ((1UL << s) - 1)) == 0)
        {
            // The bits that decide rounding are all zero: look at the power's low 32 bits to settle it.
            uint mid2 = (uint)(Math.BigMul(x, (ulong)pwrLo << 32, out _) >> 32);
            sticky = unchecked(mid1 - mid2) > 1 ? 1UL : 0UL;
            if (mid1 < mid2) hi--;
        }
        ulong u = (hi >> s) | sticky;
        if (u >= (1UL << 55) - 2)
        {
            u = (u >> 1) | (u & 1);
            e--;
        }
        ulong bits = (u + 1 + ((u >> 2) & 1)) >> 2;
        if (e <= -972) return double.PositiveInfinity;
        if ((bits & (1UL << 52)) != 0) bits = (bits & ~(1UL << 52)) | ((ulong)(1075 - e) << 52);
        return BitConverter.UInt64BitsToDouble(bits);
    }

    /// <summary>
    /// The significant digits of a finite positive <paramref name="r"/> as SQLite's FpDecode gives them, no trailing
    /// zeros, into <paramref name="digits"/> (at least 20 bytes); returns their count. The value is
    /// 0.d₁d₂… × 10^<paramref name="decimalPoint"/>. <paramref name="round"/> &gt; 0 rounds to that many significant
    /// digits (at most <paramref name="maxDigits"/>; at 17, fewer when they read back as the same double);
    /// <paramref name="round"/> ≤ 0 rounds to −round digits after the decimal point.
    /// </summary>
    public static int Decode(double r, int round, int maxDigits, Span<byte> digits, out int decimalPoint)
    {
        ulong bits = BitConverter.DoubleToUInt64Bits(r);
        int e = (int)((bits >> 52) & 0x7ff);
        ulong v = bits & 0x000f_ffff_ffff_ffffUL;
        if (e == 0)
        {
            int nn = BitOperations.LeadingZeroCount(v);
            v <<= nn;
            e = -1074 - nn;
        }
        else
        {
            v = (v << 11) | (1UL << 63);
            e -= 1086;
        }
        v = ToDecimal(v, e, round <= 0 || round >= 18 ? 18 : round + 1, out int exp);

        // z = buf[start..start+n]; one spare byte in front for a carry out of the first digit.
        Span<byte> buf = stackalloc byte[24];
        int end = 22, start = end;
        do
        {
            buf[--start] = (byte)('0' + (int)(v % 10));
            v /= 10;
        } while (v != 0);
        int n = end - start;
        int dp = n + exp;
        if (round <= 0)
        {
            round = dp - round;
            if (round == 0 && buf[start] >= '5')
            {
                round = 1;
                buf[--start] = (byte)'0';
                n++;
                dp++;
            }
        }
        if (round > 0 && (round < n || n > maxDigits))
        {
            if (round > maxDigits) round = maxDigits;
            if (round == 17) round = Shorten(buf[start..], n, exp, r, round, dp);
            n = round;
            if (buf[start + round] >= '5')
            {
                int j = start + round - 1;
                while (true)
                {
                    buf[j]++;
                    if (buf[j] <= '9') break;
                    buf[j] = (byte)'0';
                    if (j == start)
                    {
                        buf[--start] = (byte)'1';
                        n++;
                        dp++;
                        break;
                    }
                    j--;
                }
            }
        }
        while (n > 1 && buf[start + n - 1] == '0') n--;
        buf.Slice(start, n).CopyTo(digits);
        decimalPoint = dp;
        return n;
    }

    /// <summary>
    /// Where 17 significant digits are asked for, SQLite keeps fewer when the digits end in a run of 9s or 0s and
    /// the shorter number reads back as the same double; returns the digit count to round at.
    /// </summary>
    private static int Shorten(ReadOnlySpan<byte> z, int n, int exp, double r, int round, int dp)
    {
        if (z[15] == '9' && z[14] == '9')
        {
            int jj = 14;
            while (jj > 0 && z[jj - 1] == '9') jj--;
            ulong v2 = 1;
            if (jj != 0)
            {
                v2 = (ulong)(z[0] - '0');
                for (int k = 1; k < jj; k++) v2 = v2 * 10 + (ulong)(z[k] - '0');
                v2++;
            }
            if (r == ToDouble(v2, exp + n - jj)) return jj + 1;
        }
        else if (dp >= n || (z[15] == '0' && z[14] == '0' && z[13] == '0'))
        {
            int jj = 13;
            while (z[jj - 1] == '0') jj--;
            ulong v2 = (ulong)(z[0] - '0');
            for (int k = 1; k < jj; k++) v2 = v2 * 10 + (ulong)(z[k] - '0');
            if (r == ToDouble(v2, exp + n - jj)) return jj + 1;
        }
        return round;
    }
}
