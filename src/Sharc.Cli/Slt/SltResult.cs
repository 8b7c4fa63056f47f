using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace Sharc.Cli.Slt;

/// <summary>A query's rows turned into the list of values a test file compares: rendered, sorted, hashed.</summary>
internal static class SltResult
{
    private const string HashMarker = " values hashing to ";

    /// <summary>
    /// Renders every value by its column's type letter and orders them as <paramref name="sort"/> says. Every row must
    /// have <paramref name="types"/>.Length values.
    /// </summary>
    public static List<string> Render(IReadOnlyList<object?[]> rows, string types, SltSortMode sort)
    {
        var rendered = new List<string[]>(rows.Count);
        foreach (var row in rows)
        {
            if (row.Length != types.Length)
                throw new ArgumentException($"a row has {row.Length} values for {types.Length} column types", nameof(rows));
            var cells = new string[row.Length];
            for (int c = 0; c < row.Length; c++) cells[c] = SltValueFormat.Render(row[c], types[c]);
            rendered.Add(cells);
        }

        // Rendered values are ASCII, so ordinal comparison is the byte comparison the reference harness uses.
        if (sort == SltSortMode.RowSort) rendered.Sort(CompareRows);
        var values = new List<string>(rendered.Count * types.Length);
        foreach (var cells in rendered) values.AddRange(cells);
        if (sort == SltSortMode.ValueSort) values.Sort(StringComparer.Ordinal);
        return values;
    }

    /// <summary>The lowercase hex MD5 of the values, each followed by "\n".</summary>
    public static string Md5(IReadOnlyList<string> values)
    {
        using var md5 = IncrementalHash.CreateHash(HashAlgorithmName.MD5);
        foreach (var v in values)
        {
            md5.AppendData(Encoding.UTF8.GetBytes(v));
            md5.AppendData("\n"u8);
        }
        return Convert.ToHexStringLower(md5.GetHashAndReset());
    }

    /// <summary>The line a file uses for a hashed result: <c>N values hashing to H</c>.</summary>
    public static string HashLine(int count, string hash)
        => count.ToString(CultureInfo.InvariantCulture) + HashMarker + hash;

    /// <summary>Reads <c>N values hashing to H</c>, with H 32 lowercase hex digits.</summary>
    public static bool TryParseHashLine(string line, out int count, out string hash)
    {
        count = 0;
        hash = "";
        int marker = line.IndexOf(HashMarker, StringComparison.Ordinal);
        if (marker <= 0) return false;
        var h = line.AsSpan(marker + HashMarker.Length);
        if (h.Length != 32) return false;
        foreach (char c in h)
            if (!char.IsAsciiDigit(c) && c is not (>= 'a' and <= 'f')) return false;
        if (!int.TryParse(line.AsSpan(0, marker), NumberStyles.None, CultureInfo.InvariantCulture, out count)) return false;
        hash = h.ToString();
        return true;
    }

    private static int CompareRows(string[] a, string[] b)
    {
        for (int c = 0; c < a.Length; c++)
        {
            int cmp = string.CompareOrdinal(a[c], b[c]);
            if (cmp != 0) return cmp;
        }
        return 0;
    }
}
