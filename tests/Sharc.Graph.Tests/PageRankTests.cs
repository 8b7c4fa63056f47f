namespace Sharc.Graph.Tests;

public class PageRankTests
{
    [Theory]
    [MemberData(nameof(SnapshotFixture.ShapesAndLayouts), MemberType = typeof(SnapshotFixture))]
    public void EachIterationMatchesTheReferencePowerIteration(GraphSpec spec, SnapshotLayout layout, string? kind)
    {
        using var dir = new TempDir();
        var (g, snap) = SnapshotFixture.Load(dir, layout, spec, kind);
        var expected = new RefAnalytics(g, kind).PageRank(0.85, iterations: 25);
        var result = snap.PageRank(new PageRankOptions { Tolerance = 0, MaxIterations = 25 });
        result.Ranks.Should().HaveCount(snap.NodeCount);
        MaxDifference(snap, result.Ranks, expected).Should().BeLessThan(1e-12);
        if (snap.NodeCount == 0) return;
        result.Ranks.Sum().Should().BeApproximately(1.0, 1e-9);
        result.Iterations.Should().Be(25);
        result.Converged.Should().BeFalse("a zero tolerance never stops early");
    }

    private static double MaxDifference(GraphSnapshot snap, double[] ranks, Dictionary<long, double> expected)
        => Enumerable.Range(0, snap.NodeCount).Select(v => Math.Abs(ranks[v] - expected[SnapshotFixture.RefKey(snap, v)])).DefaultIfEmpty().Max();

    [Theory]
    [InlineData(0.85)]
    [InlineData(0.5)]
    [InlineData(0.95)]
    public void StopsOnceAnIterationChangesLessThanTheTolerance(double damping)
    {
        using var dir = new TempDir();
        var (g, snap) = SnapshotFixture.Load(dir, SnapshotLayout.RowIdKey, new GraphSpec(400, 1200, 17));
        var result = snap.PageRank(new PageRankOptions { Damping = damping, Tolerance = 1e-9, MaxIterations = 1000 });
        result.Converged.Should().BeTrue();
        result.LastChange.Should().BeLessThan(1e-9);
        var previous = snap.PageRank(new PageRankOptions { Damping = damping, Tolerance = 0, MaxIterations = result.Iterations - 1 });
        previous.LastChange.Should().BeGreaterThanOrEqualTo(1e-9, "the iteration before the last had not converged yet");
        var expected = new RefAnalytics(g, null).PageRank(damping, result.Iterations);
        MaxDifference(snap, result.Ranks, expected).Should().BeLessThan(1e-12);
    }

    [Fact]
    public void MatchesNetworkXOnAMultigraphWithParallelEdgesSelfLoopsAndDanglingNodes()
    {
        // networkx 3.6.1: pagerank(MultiDiGraph, weight=None, tol=1e-14) on SnapshotFixture.NetworkXSample.
        double[] networkX = [0.21780027256644569, 0.21900939599544023, 0.4327555488294186, 0.03387916431394693, 0.03387916431394693, 0.06267645398080182];
        using var dir = new TempDir();
        var snap = SnapshotFixture.FromDefaultLayout(dir, SnapshotFixture.NetworkXSample);
        // NetworkX stops at N × tol.
        var result = snap.PageRank(new PageRankOptions { Tolerance = 6 * 1e-14, MaxIterations = 1000 });
        result.Converged.Should().BeTrue();
        for (int v = 0; v < 6; v++) result.Ranks[v].Should().BeApproximately(networkX[v], 1e-13);
    }

    [Fact]
    public void RanksThatOscillateStopAtTheIterationCapAndSaySo()
    {
        using var dir = new TempDir();
        // With damping 1 the rank moves back and forth between 1 and 2: (2/3, 1/3, 0), (1/3, 2/3, 0), …
        var snap = SnapshotFixture.FromDefaultLayout(dir, "INSERT INTO _relations(source_key, target_key) VALUES (1, 2), (2, 1), (3, 1)");
        var result = snap.PageRank(new PageRankOptions { Damping = 1, MaxIterations = 51 });
        result.Converged.Should().BeFalse();
        result.Iterations.Should().Be(51);
        result.LastChange.Should().BeApproximately(2.0 / 3, 1e-12);
        result.Ranks.Zip([2.0 / 3, 1.0 / 3, 0], (a, b) => Math.Abs(a - b)).Max().Should().BeLessThan(1e-12);
    }

    [Fact]
    public void WithDampingZeroEveryNodeGetsTheSameRank()
    {
        using var dir = new TempDir();
        var (_, snap) = SnapshotFixture.Load(dir, SnapshotLayout.Default, new GraphSpec(50, 200, 18));
        var result = snap.PageRank(new PageRankOptions { Damping = 0 });
        result.Ranks.Max(r => Math.Abs(r - 1.0 / snap.NodeCount)).Should().BeLessThan(1e-15);
        result.Converged.Should().BeTrue();
        result.Iterations.Should().Be(1);
    }

    [Fact]
    public void AnEmptyGraphHasNoRanksAndHasConverged()
    {
        using var dir = new TempDir();
        var (_, snap) = SnapshotFixture.Load(dir, SnapshotLayout.Default, new GraphSpec(0, 0, 19) { IsolatedRows = 0 });
        var result = snap.PageRank();
        result.Ranks.Should().BeEmpty();
        result.Converged.Should().BeTrue();
    }

    [Theory]
    [InlineData(-0.1, 1e-6, 100)]
    [InlineData(1.01, 1e-6, 100)]
    [InlineData(double.NaN, 1e-6, 100)]
    [InlineData(0.85, -1e-6, 100)]
    [InlineData(0.85, double.NaN, 100)]
    [InlineData(0.85, 1e-6, 0)]
    public void OptionsOutOfRangeAreRefused(double damping, double tolerance, int maxIterations)
    {
        using var dir = new TempDir();
        var (_, snap) = SnapshotFixture.Load(dir, SnapshotLayout.Default, new GraphSpec(5, 5, 20));
        var act = () => snap.PageRank(new PageRankOptions { Damping = damping, Tolerance = tolerance, MaxIterations = maxIterations });
        act.Should().Throw<ArgumentOutOfRangeException>();
    }
}
