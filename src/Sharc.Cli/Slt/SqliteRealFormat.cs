using System.Globalization;
using System.Numerics;
using System.Text;

namespace Sharc.Cli.Slt;

/// <summary>
/// Formats doubles the way SQLite's own printf does, for the two formats sqllogictest results depend on:
/// <c>%.Nf</c> (type R) and SQLite's REAL-to-TEXT conversion (type T: <c>%!.17g</c>, as SQLite 3.53 does).
/// </summary>
/// <remarks>
/// SQLite's printf differs from C's in two ways that matter here: it never prints more than 16 significant digits
/// (the rest are zeros, so -9223372036854775808.0 prints as -9223372036854776000.000), and it rounds half up on the
/// first dropped decimal digit rather than to even. We round the exact binary value. SQLite itself computes the digits
/// approximately (in extended precision where the platform has it: about 18 correct significant digits up to 1e±40,
/// fewer for huge or tiny exponents), so for a value that close to a rounding tie its output may round the other way,
/// and may differ between SQLite builds; everywhere else the two agree.
/// </remarks>
internal static class SqliteRealFormat
{
    /// <summary>SQLite's printf keeps at most this many significant digits unless the '!' flag asks for more.</summary>
    private const int MaxSignificantDigits = 16;

    /// <summary>SQLite converts a REAL to TEXT with at most this many significant digits; it is also the precision of
    /// the %g layout it uses.</summary>
    private const int TextFallbackDigits = 17;

    /// <summary>The largest double below which every integer is exact, so the fast path can use a long.</summary>
    private const double ExactIntegerLimit = 9007199254740992.0;

    /// <summary><c>printf("%.{decimals}f", value)</c> as SQLite prints it.</summary>
    public static string Fixed(double value, int decimals)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(decimals);
        if (!double.IsFinite(value)) return NonFinite(value);
        var sb = new StringBuilder();
        // Negative zero has no sign in SQLite's output; a negative value that rounds to zero keeps it ("-0.000").
        if (value < 0) sb.Append('-');
        string digits = "";
        int point = 0;
        if (value != 0)
        {
            (digits, point) = ExactDigits(Math.Abs(value));
            Round(ref digits, ref point, Math.Min(point + decimals, MaxSignificantDigits));
        }

        if (point <= 0) sb.Append('0');
        for (int k = 0; k < point; k++) sb.Append(DigitAt(digits, k));
        if (decimals > 0)
        {
            sb.Append('.');
            for (int k = point; k < point + decimals; k++) sb.Append(DigitAt(digits, k));
        }
        return sb.ToString();
    }

    /// <summary>The text SQLite gives a REAL value (<c>sqlite3_column_text</c>, <c>CAST(x AS TEXT)</c>).</summary>
    public static string Text(double value)
    {
        if (!double.IsFinite(value)) return NonFinite(value);
        if (value == 0) return "0.0";
        var sb = new StringBuilder();
        if (value < 0) sb.Append('-');
        var (digits, point) = TextDigits(Math.Abs(value));

        int exponent = point - 1;
        if (exponent < -4 || exponent >= TextFallbackDigits)
        {
            // The '!' flag keeps one decimal even when it is zero: 1.0e+20, not 1e+20.
            sb.Append(digits[0]).Append('.').Append(digits.Length > 1 ? digits.AsSpan(1) : "0");
            sb.Append('e').Append(exponent < 0 ? '-' : '+');
            sb.Append(Math.Abs(exponent).ToString("00", CultureInfo.InvariantCulture));
        }
        else if (point <= 0)
        {
            sb.Append("0.").Append('0', -point).Append(digits);
        }
        else if (point >= digits.Length)
        {
            sb.Append(digits).Append('0', point - digits.Length).Append(".0");
        }
        else
        {
            sb.Append(digits, 0, point).Append('.').Append(digits, point, digits.Length - point);
        }
        return sb.ToString();
    }

    /// <summary>
    /// The significant digits SQLite 3.53 writes for a REAL as text: the exact value rounded to 18 digits (half to
    /// even), then to 17 (half up), then cut shorter where digits 14–16 are zeros or the tail is a run of nines and
    /// the shorter number reads back as the same double. SQLite computes the 18 digits approximately, so very close
    /// to a rounding tie it may differ from this.
    /// </summary>
    private static (string Digits, int Point) TextDigits(double magnitude)
    {
        var (exact, point) = ExactDigits(magnitude);
        string d18 = exact.PadRight(19, '0')[..19];
        // Half to even at 18 digits, judged on the exact tail.
        string tail = exact.Length > 18 ? exact[18..] : "";
        bool up = tail.Length > 0 && (tail[0] > '5' || (tail[0] == '5' && (tail.TrimEnd('0').Length > 1 || (d18[17] - '0') % 2 == 1)));
        var (digits, p) = (d18[..18], point);
        if (up) digits = Increment(digits, ref p);
        string z = digits.PadRight(18, '0');
        int keep = TextFallbackDigits;
        bool ReadsBack(string d, int pt) => double.Parse($"0.{d}e{pt}", CultureInfo.InvariantCulture) == magnitude;
        if (z[15] == '9' && z[14] == '9')
        {
            int jj = 14;
            while (jj > 0 && z[jj - 1] == '9') jj--;
            int pt = p;
            string shorter = jj == 0 ? "1" : Increment(z[..jj], ref pt);
            if (jj == 0) pt++;
            if (ReadsBack(shorter, pt)) keep = jj + 1;
        }
        else if (p >= 18 || z[13..16] == "000")
        {
            int jj = 13;
            while (z[jj - 1] == '0') jj--;
            if (ReadsBack(z[..jj], p)) keep = jj + 1;
        }
        digits = z;
        Round(ref digits, ref p, keep);
        return (digits, p);
    }

    /// <summary>A digit string plus one in its last place; a carry out of the first digit moves the point.</summary>
    private static string Increment(string digits, ref int point)
    {
        var c = digits.ToCharArray();
        int j = c.Length - 1;
        while (j >= 0 && c[j] == '9') c[j--] = '0';
        if (j < 0)
        {
            point++;
            return "1" + new string(c);
        }
        c[j]++;
        return new string(c);
    }

    /// <summary>
    /// The exact decimal expansion of a positive finite double: its significant digits (no leading or trailing
    /// zeros) and the position of the decimal point, so that the value is 0.<c>digits</c> × 10^<c>point</c>.
    /// </summary>
    internal static (string Digits, int Point) ExactDigits(double magnitude)
    {
        if (magnitude < ExactIntegerLimit && magnitude == Math.Floor(magnitude))
        {
            string whole = ((long)magnitude).ToString(CultureInfo.InvariantCulture);
            return (whole.TrimEnd('0'), whole.Length);
        }

        long bits = BitConverter.DoubleToInt64Bits(magnitude);
        int biased = (int)((bits >> 52) & 0x7FF);
        long mantissa = bits & 0xF_FFFF_FFFF_FFFFL;
        if (biased == 0) biased = 1; // subnormal: no implicit leading bit
        else mantissa |= 1L << 52;
        int exponent = biased - 1075; // value = mantissa × 2^exponent

        string text;
        int point;
        if (exponent >= 0)
        {
            text = (new BigInteger(mantissa) << exponent).ToString(CultureInfo.InvariantCulture);
            point = text.Length;
        }
        else
        {
            // m / 2^k = m × 5^k / 10^k: the digits of m × 5^k, with the point k places from the right.
            text = (mantissa * BigInteger.Pow(5, -exponent)).ToString(CultureInfo.InvariantCulture);
            point = text.Length + exponent;
        }
        return (text.TrimEnd('0'), point);
    }

    /// <summary>
    /// Keeps the first <paramref name="keep"/> significant digits, rounding half up on the first dropped digit (as
    /// SQLite does). <paramref name="keep"/> may be zero or negative when the value is below the last kept place.
    /// </summary>
    private static void Round(ref string digits, ref int point, int keep)
    {
        if (keep >= digits.Length) return;
        if (keep < 0)
        {
            digits = "";
            return;
        }
        bool up = digits[keep] >= '5';
        var kept = digits.ToCharArray(0, keep);
        if (up)
        {
            int j = keep - 1;
            while (j >= 0 && kept[j] == '9') kept[j--] = '0';
            if (j >= 0)
            {
                kept[j]++;
            }
            else
            {
                // Carried out of the first digit (9.99 → 10.0), or rounded up from below the last kept place.
                digits = "1";
                point++;
                return;
            }
        }
        digits = new string(kept).TrimEnd('0');
    }

    private static char DigitAt(string digits, int k) => k >= 0 && k < digits.Length ? digits[k] : '0';

    private static string NonFinite(double value)
        => double.IsNaN(value) ? "NaN" : value > 0 ? "Inf" : "-Inf";
}
