namespace Sharc.Format;

/// <summary>
/// The decimal digits of a double as SQLite's printf produces them — not correctly rounded: the value is scaled by
/// powers of ten in double-double arithmetic to an 18–19 digit integer, whose digit string is then rounded half-up.
/// So printf('%.20f', 0.1) and round(2.675, 2) agree with SQLite where exact decimal expansion would not.
/// </summary>
/// <remarks>The scaling is <see cref="ValueConvert.ScaledDigits"/>, shared with the %!.15g rendering of REAL values.</remarks>
internal static class FloatDigits
{
    /// <summary>
    /// Writes the digits of a finite positive <paramref name="r"/> (no leading zeros, at most 20) to
    /// <paramref name="digits"/>; returns their count. <paramref name="decimalPoint"/> places them:
    /// r ≈ 0.d₁d₂… × 10^decimalPoint.
    /// </summary>
    public static int Decode(double r, Span<byte> digits, out int decimalPoint)
    {
        ulong v = ValueConvert.ScaledDigits(r, out int exp10);
        Span<byte> tmp = stackalloc byte[24];
        int n = 0;
        for (ulong t = v; t != 0; t /= 10) tmp[n++] = (byte)('0' + (int)(t % 10));
        for (int i = 0; i < n; i++) digits[i] = tmp[n - 1 - i];
        decimalPoint = n + exp10;
        return n;
    }

    /// <summary>
    /// Rounds a digit string half-up to <paramref name="keep"/> digits (capped at <paramref name="cap"/>: 16, or 26 with
    /// printf's '!' flag) and drops trailing zeros; returns the new count, which is 0 when the value rounds to zero.
    /// Keeping 0 digits rounds to a single 1 one place higher when the first digit is 5 or more.
    /// </summary>
    public static int Round(Span<byte> digits, int n, ref int decimalPoint, int keep, int cap)
    {
        if (keep > cap) keep = cap;
        if (keep <= 0)
        {
            if (keep == 0 && n > 0 && digits[0] >= '5')
            {
                digits[0] = (byte)'1';
                decimalPoint++;
                return 1;
            }
            return 0;
        }
        if (keep < n)
        {
            bool up = digits[keep] >= '5';
            n = keep;
            if (up)
            {
                int j = keep - 1;
                while (true)
                {
                    if (digits[j] < '9')
                    {
                        digits[j]++;
                        break;
                    }
                    digits[j] = (byte)'0';
                    if (j == 0)
                    {
                        digits[0] = (byte)'1';
                        decimalPoint++;
                        break;
                    }
                    j--;
                }
            }
        }
        while (n > 0 && digits[n - 1] == '0') n--;
        return n;
    }
}
