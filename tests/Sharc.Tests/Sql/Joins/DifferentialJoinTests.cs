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
    [InlineData(9)]
    [InlineData(10)]
    [InlineData(11)]
    [InlineData(12)]
    [InlineData(13)]
    [InlineData(14)]
    [InlineData(15)]
    [InlineData(16)]
    [InlineData(24)]
    public void Random_join_queries_answer_as_sqlite_does(int seed)
    {
        var generator = new JoinQueryGenerator(seed);
        using var db = new QueryOracle([.. generator.Schema()]);
        var (failures, errors) = db.Disagreements(generator.Next, QueriesPerSeed);
        output.WriteLine($"seed {seed}: {QueriesPerSeed} queries, {failures.Count} disagreements, {errors} that SQLite rejects");
        errors.Should().BeLessThan(QueriesPerSeed / 3, "most generated queries should run");
        failures.Should().BeEmpty(string.Join("\n\n", failures.Take(6)));
    }
}
