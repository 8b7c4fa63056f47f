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
        var (failures, errors) = db.Disagreements(generator.Next, QueriesPerSeed);
        output.WriteLine($"seed {seed}: {QueriesPerSeed} queries, {failures.Count} disagreements, {errors} that SQLite rejects");
        failures.Should().BeEmpty(string.Join("\n\n", failures.Take(8)));
    }

    [Theory]
    [InlineData(101)]
    [InlineData(105)]
    [InlineData(103)]
    [InlineData(104)]
    public void Random_queries_with_row_values_answer_as_sqlite_does(int seed)
    {
        var db = fixture.Oracle;
        var generator = new QueryGenerator(seed) { RowValues = true };
        var (failures, errors) = db.Disagreements(generator.Next, QueriesPerSeed);
        output.WriteLine($"seed {seed}: {QueriesPerSeed} queries, {failures.Count} disagreements, {errors} that SQLite rejects");
        failures.Should().BeEmpty(string.Join("\n\n", failures.Take(8)));
    }
}
