namespace Sharc.Graph.Tests;

public class ComponentTests
{
    [Theory]
    [MemberData(nameof(SnapshotFixture.ShapesAndLayouts), MemberType = typeof(SnapshotFixture))]
    public void ComponentsAreTheReferencePartitionNumberedByFirstNode(GraphSpec spec, SnapshotLayout layout, string? kind)
    {
        using var dir = new TempDir();
        var (g, snap) = SnapshotFixture.Load(dir, layout, spec, kind);
        var expected = new RefAnalytics(g, kind).Components();
        var result = snap.ConnectedComponents();

        result.Count.Should().Be(expected.Count);
        result.ComponentOf.Should().HaveCount(snap.NodeCount);
        var got = Enumerable.Range(0, snap.NodeCount)
            .GroupBy(v => result.ComponentOf[v])
            .ToDictionary(grp => grp.Key, grp => grp.Select(v => SnapshotFixture.RefKey(snap, v)).ToHashSet());
        // Same partition: every component found is one of the reference's, and there are as many.
        var byMember = expected.SelectMany(set => set.Select(k => (k, set))).ToDictionary(x => x.k, x => x.set);
        got.Values.Where(set => !byMember[set.First()].SetEquals(set)).Should().BeEmpty();
        result.Sizes.Should().Equal(Enumerable.Range(0, result.Count).Select(c => got[c].Count));
        // Numbered in order of first node: walking the nodes in order meets 0, 1, 2… each for the first time.
        result.ComponentOf.Distinct().Should().Equal(Enumerable.Range(0, result.Count));
    }

    [Fact]
    public void EdgesJoinComponentsWhicheverWayTheyPoint()
    {
        using var dir = new TempDir();
        var snap = SnapshotFixture.FromDefaultLayout(dir, "INSERT INTO _concepts(key) VALUES (9);" +
                                                          "INSERT INTO _relations(source_key, target_key) VALUES (1, 2), (3, 2), (5, 4), (6, 6)");
        var result = snap.ConnectedComponents();
        // Nodes in key order: 1 2 3 4 5 6 9.
        result.ComponentOf.Should().Equal(0, 0, 0, 1, 1, 2, 3);
        result.Sizes.Should().Equal(3, 2, 1, 1);
    }
}
