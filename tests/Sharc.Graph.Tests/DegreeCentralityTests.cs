namespace Sharc.Graph.Tests;

public class DegreeCentralityTests
{
    [Theory]
    [MemberData(nameof(SnapshotFixture.ShapesAndLayouts), MemberType = typeof(SnapshotFixture))]
    public void DegreesAreTheReferenceCountsAndCentralityIsDegreeOverNMinusOne(GraphSpec spec, SnapshotLayout layout, string? kind)
    {
        using var dir = new TempDir();
        var (g, snap) = SnapshotFixture.Load(dir, layout, spec, kind);
        var reference = new RefAnalytics(g, kind);
        var inDegree = reference.InDegrees();
        var outDegree = reference.OutDegrees();
        var result = snap.DegreeCentrality();
        int n = snap.NodeCount;
        var keys = Enumerable.Range(0, n).Select(v => SnapshotFixture.RefKey(snap, v)).ToList();
        result.InDegree.Should().Equal(keys.Select(k => inDegree[k]));
        result.OutDegree.Should().Equal(keys.Select(k => outDegree[k]));
        result.Degree.Should().Equal(keys.Select(k => inDegree[k] + outDegree[k]));
        double Normalized(int degree) => n == 1 ? 1 : (double)degree / (n - 1);
        static double Worst(double[] got, IEnumerable<double> expected) => got.Zip(expected, (a, b) => Math.Abs(a - b)).DefaultIfEmpty().Max();
        Worst(result.Centrality, result.Degree.Select(Normalized)).Should().BeLessThan(1e-15);
        Worst(result.InCentrality, result.InDegree.Select(Normalized)).Should().BeLessThan(1e-15);
        Worst(result.OutCentrality, result.OutDegree.Select(Normalized)).Should().BeLessThan(1e-15);
    }

    [Fact]
    public void MatchesNetworkXOnAMultigraphWithParallelEdgesAndASelfLoop()
    {
        // networkx 3.6.1: degree_centrality(MultiDiGraph) on SnapshotFixture.NetworkXSample.
        double[] networkX = [0.6000000000000001, 0.6000000000000001, 1.0, 0.2, 0.2, 0.2];
        using var dir = new TempDir();
        var snap = SnapshotFixture.FromDefaultLayout(dir, SnapshotFixture.NetworkXSample);
        snap.DegreeCentrality().Centrality.Should().Equal(networkX);
    }
}
