namespace Sharc.Tests.Sql.Execution;

/// <summary>How the differential tests compare SQLite's answer with Sharc's.</summary>
internal static class AnswerComparison
{
    /// <summary>
    /// Null when the answers agree — as sequences when <paramref name="ordered"/>, else as multisets (both lists are
    /// then sorted in place) — else a description of the first difference.
    /// </summary>
    public static string? Difference(string sql, List<string> expected, List<string> actual, bool ordered)
    {
        if (!ordered)
        {
            expected.Sort(StringComparer.Ordinal);
            actual.Sort(StringComparer.Ordinal);
        }
        if (expected.SequenceEqual(actual)) return null;
        int at = 0;
        while (at < Math.Min(expected.Count, actual.Count) && expected[at] == actual[at]) at++;
        return $"{sql}\n  {expected.Count} rows expected, {actual.Count} given, first difference at row {at}" +
            $"\n  expected: {string.Join("; ", expected.Skip(at).Take(4))}\n  actual:   {string.Join("; ", actual.Skip(at).Take(4))}";
    }
}
