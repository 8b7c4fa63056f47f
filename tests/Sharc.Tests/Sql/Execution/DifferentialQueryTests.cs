using Xunit.Abstractions;

namespace Sharc.Tests.Sql.Execution;

/// <summary>
/// Seeded random single-table queries — WHERE clauses mixing types, NULLs, LIKE, GLOB, BETWEEN, IN, CASE, CAST,
/// arithmetic and functions; GROUP BY / HAVING with aggregates; ORDER BY with several keys, DESC, NULLS FIRST/LAST
/// and collations; LIMIT/OFFSET; DISTINCT; scalar, EXISTS and IN subqueries — answered by Sharc and by SQLite over
/// a table with mixed types and NULLs and several indexes. Answers must match: as sequences when the ORDER BY
/// fixes the order, else as multisets. Every disagreement of a seed is listed.
/// </summary>
public sealed class DifferentialQueryTests(MixedDatabaseFixture fixture, ITestOutputHelper output) : IClassFixture<MixedDatabaseFixture>
{
    private const int QueriesPerSeed = 250;

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    [InlineData(5)]
    [InlineData(6)]
    [InlineData(7)]
    [InlineData(8)]
    public void Random_queries_answer_as_sqlite_does(int seed)
    {
        var db = fixture.Oracle;
        var generator = new QueryGenerator(seed);
        var failures = new List<string>();
        int errors = 0;
        for (int q = 0; q < QueriesPerSeed; q++)
        {
            var (sql, ordered) = generator.Next();
            var expected = db.Expected(sql);
            var actual = db.Actual(sql);
            if (expected is ["ERROR"]) errors++;
            if (AnswerComparison.Difference(sql, expected, actual, ordered) is { } difference) failures.Add(difference);
        }
        output.WriteLine($"seed {seed}: {QueriesPerSeed} queries, {failures.Count} disagreements, {errors} that SQLite rejects");
        failures.Should().BeEmpty(string.Join("\n\n", failures.Take(8)));
    }
}
