using Sharc.Tests.Sql.Execution;
using Xunit.Abstractions;

namespace Sharc.Tests.Sql.Joins;

/// <summary>
/// Seeded random schemas and join queries (<see cref="JoinQueryGenerator"/>), answered by Sharc and by SQLite; the
/// answers must match — as sequences when ORDER BY fixes the order, else as multisets, and errors where SQLite errs.
/// </summary>
public sealed class DifferentialJoinTests(ITestOutputHelper output)
{
    private const int QueriesPerSeed = 120;

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    [InlineData(5)]
    [InlineData(6)]
    [InlineData(7)]
    [InlineData(8)]
    public void Random_join_queries_answer_as_sqlite_does(int seed)
    {
        var generator = new JoinQueryGenerator(seed);
        using var db = new QueryOracle([.. generator.Schema()]);
        var failures = new List<string>();
        int errors = 0;
        for (int q = 0; q < QueriesPerSeed; q++)
        {
            var (sql, ordered) = generator.Next();
            var expected = db.Expected(sql);
            var actual = db.Actual(sql);
            if (expected is ["ERROR"]) errors++;
            if (!ordered)
            {
                expected.Sort(StringComparer.Ordinal);
                actual.Sort(StringComparer.Ordinal);
            }
            if (!expected.SequenceEqual(actual))
            {
                int at = 0;
                while (at < Math.Min(expected.Count, actual.Count) && expected[at] == actual[at]) at++;
                failures.Add($"{sql}\n  {SqliteError(db, sql)}{expected.Count} rows expected, {actual.Count} given, first difference at row {at}" +
                    $"\n  expected: {string.Join("; ", expected.Skip(at).Take(3))}\n  actual:   {string.Join("; ", actual.Skip(at).Take(3))}");
            }
        }
        output.WriteLine($"seed {seed}: {QueriesPerSeed} queries, {failures.Count} disagreements, {errors} that SQLite rejects");
        errors.Should().BeLessThan(QueriesPerSeed / 3, "most generated queries should run");
        failures.Should().BeEmpty(string.Join("\n\n", failures.Take(6)));
    }

    private static string SqliteError(QueryOracle db, string sql)
    {
        try
        {
            using var cmd = db.Sqlite.CreateCommand();
            cmd.CommandText = sql;
            using var r = cmd.ExecuteReader();
            while (r.Read()) { }
            return "";
        }
        catch (Microsoft.Data.Sqlite.SqliteException e)
        {
            return e.Message + "\n  ";
        }
    }
}
