using System.Globalization;

namespace Sharc.Cli.Output;

/// <summary>How values are spelled in every output format, so jsonl, csv and table agree.</summary>
internal static class ValueText
{
    /// <summary>The text written for +Infinity: a JSON number too large for a double, which parsers read back as +Infinity.</summary>
    public const string PositiveInfinity = "1e999";

    /// <summary>The text written for -Infinity.</summary>
    public const string NegativeInfinity = "-1e999";

    /// <summary>
    /// A real as the shortest text that reads back as the same double, always a valid JSON number and never
    /// mistakable for an integer. The digits are the shortest round-trip digits; the layout is fixed here rather
    /// than left to the runtime: when 1e-4 ≤ |value| &lt; 1e15 it is plain decimal with at least one digit after the
    /// point ("1.0", "0.1", "-0.0", "0.0001", "100000000000000.0"); otherwise a mantissa, a lowercase "e", an
    /// explicit sign and the exponent without leading zeros ("1e+15", "1.5e+300", "-2.5e-10", "1e-5", "5e-324").
    /// ±Infinity (which SQLite can store) is written as <see cref="PositiveInfinity"/> / <see cref="NegativeInfinity"/>.
    /// NaN cannot be stored in SQLite (it reads back as NULL); should one arrive it is written as "null".
    /// </summary>
    public static string Real(double value)
    {
        if (double.IsPositiveInfinity(value)) return PositiveInfinity;
        if (double.IsNegativeInfinity(value)) return NegativeInfinity;
        if (double.IsNaN(value)) return "null";

        // "R" gives the shortest round-trip digits (on .NET Core 3.0 and later) in a layout of the runtime's choosing:
        // "1", "0.0001", "1E-05", "1.2345678901234568E+17". Take the digits and the exponent from it and lay them out.
        string r = value.ToString("R", CultureInfo.InvariantCulture);
        bool negative = r.StartsWith('-');
        ReadOnlySpan<char> body = negative ? r.AsSpan(1) : r.AsSpan();
        int exponent = 0;
        int e = body.IndexOfAny('E', 'e');
        if (e >= 0)
        {
            exponent = int.Parse(body[(e + 1)..], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);
            body = body[..e];
        }
        int point = body.IndexOf('.');
        int integerDigits = point >= 0 ? point : body.Length;
        Span<char> digits = stackalloc char[body.Length];
        int n = 0;
        foreach (char c in body)
            if (c != '.') digits[n++] = c;

        // The decimal exponent of the first digit; then drop leading and trailing zeros.
        int exp10 = integerDigits - 1 + exponent;
        int first = 0;
        while (first < n && digits[first] == '0')
        {
            first++;
            exp10--;
        }
        while (n > first && digits[n - 1] == '0') n--;
        var d = digits[first..n];

        var sb = new System.Text.StringBuilder(32);
        if (negative) sb.Append('-');
        if (d.Length == 0) return sb.Append("0.0").ToString();
        if (exp10 >= -4 && exp10 < 15)
        {
            if (exp10 < 0)
            {
                sb.Append("0.").Append('0', -exp10 - 1).Append(d);
            }
            else if (d.Length <= exp10 + 1)
            {
                sb.Append(d).Append('0', exp10 + 1 - d.Length).Append(".0");
            }
            else
            {
                sb.Append(d[..(exp10 + 1)]).Append('.').Append(d[(exp10 + 1)..]);
            }
            return sb.ToString();
        }
        sb.Append(d[0]);
        if (d.Length > 1) sb.Append('.').Append(d[1..]);
        sb.Append(exp10 < 0 ? "e-" : "e+").Append(Math.Abs(exp10).ToString(CultureInfo.InvariantCulture));
        return sb.ToString();
    }

    /// <summary>Value <paramref name="i"/> of <paramref name="row"/> as plain text: numbers as above, text as it is, a blob as hex, NULL as "".</summary>
    public static string Plain(IRowValues row, int i) => row.GetColumnType(i) switch
    {
        SharcColumnType.Null => "",
        SharcColumnType.Integer => Integer(row.GetInt64(i)),
        SharcColumnType.Real => Real(row.GetDouble(i)),
        SharcColumnType.Text => row.GetText(i),
        _ => Hex(row.GetBlob(i)),
    };

    /// <summary>An integer in decimal.</summary>
    public static string Integer(long value) => value.ToString(CultureInfo.InvariantCulture);

    /// <summary>Bytes as lowercase hex, two digits per byte ("" for none).</summary>
    public static string Hex(ReadOnlySpan<byte> bytes) => Convert.ToHexStringLower(bytes);
}
