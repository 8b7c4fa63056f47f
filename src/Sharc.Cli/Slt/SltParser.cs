using System.Globalization;

namespace Sharc.Cli.Slt;

/// <summary>
/// Reads the records of a sqllogictest file. Records are separated by blank lines; lines starting with '#' between
/// records are comments, and a '#' word ends the meaningful part of a keyword line ("onlyif sqlite # why").
/// </summary>
/// <remarks>
/// The parser never throws on bad input: a record it cannot read becomes an <see cref="SltMalformed"/> that the runner
/// reports as a failure, so one typo costs one record rather than the whole file.
/// </remarks>
internal static class SltParser
{
    private const string ResultSeparator = "----";

    /// <summary>Parses the text of a test file.</summary>
    public static List<SltRecord> Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        string[] lines = text.Split('\n');
        for (int k = 0; k < lines.Length; k++)
            if (lines[k].EndsWith('\r')) lines[k] = lines[k][..^1];

        var records = new List<SltRecord>();
        int i = 0;
        while (i < lines.Length)
        {
            if (IsBlank(lines[i]) || IsComment(lines[i]))
            {
                i++;
                continue;
            }

            int first = i;
            var conditions = new List<SltCondition>();
            while (i < lines.Length && !IsBlank(lines[i]))
            {
                if (IsComment(lines[i]))
                {
                    i++;
                    continue;
                }
                var w = Words(lines[i]);
                if (w.Length >= 2 && w[0] is "skipif" or "onlyif")
                {
                    conditions.Add(new SltCondition(w[0] == "onlyif", w[1]));
                    i++;
                    continue;
                }
                break;
            }
            if (i >= lines.Length || IsBlank(lines[i]))
            {
                records.Add(new SltMalformed(first + 1, "skipif/onlyif lines with no record after them", lines[first]));
                continue;
            }

            records.Add(ParseRecord(lines, ref i, conditions));
        }
        return records;
    }

    /// <summary>Parses the record whose keyword is on line <paramref name="i"/>; leaves <paramref name="i"/> after it.</summary>
    private static SltRecord ParseRecord(string[] lines, ref int i, List<SltCondition> conditions)
    {
        int line = i + 1;
        string keywordLine = lines[i];
        var w = Words(keywordLine);
        i++;
        switch (w.Length == 0 ? "" : w[0])
        {
            case "statement" when w.Length == 2 && w[1] is "ok" or "error":
            {
                string sql = ReadSql(lines, ref i, stopAtSeparator: false);
                SkipToBlank(lines, ref i);
                return sql.Length == 0
                    ? new SltMalformed(line, "statement without SQL", keywordLine)
                    : new SltStatement(line, conditions, w[1] == "error", sql);
            }
            case "query" when w.Length is >= 2 and <= 4:
                return ParseQuery(lines, ref i, conditions, line, keywordLine, w);
            case "hash-threshold" when w.Length == 2
                && int.TryParse(w[1], NumberStyles.None, CultureInfo.InvariantCulture, out int threshold):
                SkipToBlank(lines, ref i);
                return new SltHashThreshold(line, conditions, threshold);
            case "halt" when w.Length == 1:
                SkipToBlank(lines, ref i);
                return new SltHalt(line, conditions);
            default:
                SkipToBlank(lines, ref i);
                return new SltMalformed(line, "unrecognised record", keywordLine);
        }
    }

    private static SltRecord ParseQuery(string[] lines, ref int i, List<SltCondition> conditions, int line, string keywordLine, string[] w)
    {
        string types = w[1];
        SltSortMode? sort = w.Length < 3 ? SltSortMode.NoSort : w[2] switch
        {
            "nosort" => SltSortMode.NoSort,
            "rowsort" => SltSortMode.RowSort,
            "valuesort" => SltSortMode.ValueSort,
            _ => null,
        };
        string? label = w.Length == 4 ? w[3] : null;

        string sql = ReadSql(lines, ref i, stopAtSeparator: true);
        var values = new List<string>();
        if (i < lines.Length && lines[i] == ResultSeparator)
        {
            i++;
            // Values are taken verbatim: a rendered text value may start with '#' or carry spaces.
            while (i < lines.Length && !IsBlank(lines[i])) values.Add(lines[i++]);
        }
        else
        {
            SkipToBlank(lines, ref i);
        }

        if (types.Length == 0 || types.Any(c => c is not ('T' or 'I' or 'R')))
            return new SltMalformed(line, $"query column types '{types}' are not all T, I or R", keywordLine);
        if (sort is null)
            return new SltMalformed(line, $"unknown sort mode '{w[2]}' (nosort, rowsort or valuesort)", keywordLine);
        if (sql.Length == 0)
            return new SltMalformed(line, "query without SQL", keywordLine);

        var expected = values.Count == 1 && SltResult.TryParseHashLine(values[0], out int count, out string hash)
            ? SltExpected.Hashed(count, hash)
            : SltExpected.Listed(values);
        return new SltQuery(line, conditions, types, sort.Value, label, sql, expected);
    }

    /// <summary>The SQL lines from <paramref name="i"/> up to a blank line (or the result separator), joined by "\n".</summary>
    private static string ReadSql(string[] lines, ref int i, bool stopAtSeparator)
    {
        int start = i;
        while (i < lines.Length && !IsBlank(lines[i]) && !(stopAtSeparator && lines[i] == ResultSeparator)) i++;
        return string.Join('\n', lines, start, i - start);
    }

    private static void SkipToBlank(string[] lines, ref int i)
    {
        while (i < lines.Length && !IsBlank(lines[i])) i++;
    }

    // Whitespace-only lines separate records too: hand-edited files often carry stray spaces.
    private static bool IsBlank(string line) => string.IsNullOrWhiteSpace(line);

    private static bool IsComment(string line) => line.StartsWith('#');

    /// <summary>The whitespace-separated words of a keyword line, up to a word starting with '#'.</summary>
    private static string[] Words(string line)
    {
        var words = line.Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries);
        int n = Array.FindIndex(words, x => x.StartsWith('#'));
        return n < 0 ? words : words[..n];
    }
}
