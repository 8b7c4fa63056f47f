using Sharc.Tests.Sql.Execution;
using Xunit.Abstractions;

namespace Sharc.Tests.Sql.Compound;

/// <summary>
/// Seeded random compounds (<see cref="CompoundGenerator"/>) and recursive CTEs (<see cref="CteGenerator"/>),
/// answered by Sharc and by SQLite over the mixed-type table; answers must match value for value and storage class
/// for storage class: as sequences when an ORDER BY fixes the order, else as multisets. A query whose answers differ
/// only in which of several equal values shows (see <see cref="Canonical"/>) is counted, and must stay rare.
/// </summary>
public sealed class DifferentialCompoundTests(MixedDatabaseFixture fixture, ITestOutputHelper output) : IClassFixture<MixedDatabaseFixture>
{
    private const int QueriesPerSeed = 150;

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    [InlineData(5)]
    [InlineData(6)]
    public void Random_compounds_answer_as_sqlite_does(int seed)
    {
        var generator = new CompoundGenerator(seed);
        Run(seed, generator.Next);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void Random_ctes_answer_as_sqlite_does(int seed)
    {
        var generator = new CteGenerator(seed);
        Run(seed, generator.Next);
    }

    /// <summary>
    /// Rows with each value replaced by a form equal values share (1 and 1.0, 'abc' and 'ABC'): which of several
    /// equal values a set operator keeps depends on the order its arms are read in, which depends on the index each
    /// engine walks. Sorted, since ties may then move.
    /// </summary>
    private static List<string> Canonical(List<string> rows)
    {
        var canonical = rows.Select(r => System.Text.RegularExpressions.Regex.Replace(r.ToLowerInvariant(), @"\b[ir]:(-?\d+)\b(?!\.)", "n:$1").Replace(" '", "'", StringComparison.Ordinal)).ToList();
        canonical.Sort(StringComparer.Ordinal);
        return canonical;
    }

    private void Run(int seed, Func<(string Sql, bool Ordered)> next)
    {
        var db = fixture.Oracle;
        var failures = new List<string>();
        int errors = 0, representatives = 0;
        for (int q = 0; q < QueriesPerSeed; q++)
        {
            var (sql, ordered) = next();
            var expected = db.Expected(sql);
            var actual = db.Actual(sql);
            if (expected is ["ERROR"]) errors++;
            var difference = AnswerComparison.Difference(sql, expected, actual, ordered);
            if (difference is null) continue;
            if (Canonical(expected).SequenceEqual(Canonical(actual))) representatives++;
            else failures.Add(difference);
        }
        output.WriteLine($"seed {seed}: {QueriesPerSeed} queries, {failures.Count} disagreements, {errors} that SQLite rejects, " +
            $"{representatives} that differ only in which of several equal values shows");
        representatives.Should().BeLessThan(QueriesPerSeed / 10, "the value a set operator keeps among equal ones should mostly be SQLite's");
        failures.Should().BeEmpty(string.Join("\n\n", failures.Take(10)));
    }
}
