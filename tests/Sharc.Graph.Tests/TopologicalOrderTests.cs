namespace Sharc.Graph.Tests;

public class TopologicalOrderTests
{
    [Theory]
    [MemberData(nameof(SnapshotFixture.ShapesAndLayouts), MemberType = typeof(SnapshotFixture))]
    public void OrdersEveryNodeWithEdgesForwardOrNamesARealCycle(GraphSpec spec, SnapshotLayout layout, string? kind)
    {
        using var dir = new TempDir();
        var (g, snap) = SnapshotFixture.Load(dir, layout, spec, kind);
        var reference = new RefAnalytics(g, kind);
        if (reference.HasCycle())
        {
            var act = () => snap.TopologicalOrder();
            var cycle = act.Should().Throw<GraphCycleException>().Which.Cycle;
            var edges = reference.Edges.ToHashSet();
            var keys = cycle.Select(k => SnapshotFixture.IsText(layout) ? long.Parse(k[1..]) : long.Parse(k)).ToList();
            keys.Should().OnlyHaveUniqueItems();
            Enumerable.Range(0, keys.Count).Where(i => !edges.Contains((keys[i], keys[(i + 1) % keys.Count]))).Should().BeEmpty("each key has an edge to the next");
            return;
        }
        int[] order = snap.TopologicalOrder();
        order.Should().BeEquivalentTo(Enumerable.Range(0, snap.NodeCount));
        var place = new Dictionary<long, int>();
        for (int i = 0; i < order.Length; i++) place[SnapshotFixture.RefKey(snap, order[i])] = i;
        reference.Edges.Where(e => place[e.Source] >= place[e.Target]).Should().BeEmpty("every edge goes forward");
    }

    [Fact]
    public void ASelfLoopIsACycleOfOneNode()
    {
        using var dir = new TempDir();
        var snap = SnapshotFixture.FromDefaultLayout(dir, "INSERT INTO _relations(source_key, target_key) VALUES (1, 2), (2, 3), (3, 3), (4, 1)");
        var act = () => snap.TopologicalOrder();
        act.Should().Throw<GraphCycleException>().Where(e => e.Cycle.SequenceEqual(new[] { "3" }) && e.Message.EndsWith(": 3 -> 3"));
    }

    [Fact]
    public void ALongCycleIsNamedWholeInCycleAndShortenedInTheMessage()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        db.Execute("CREATE TABLE n(k TEXT PRIMARY KEY); CREATE TABLE e(s TEXT, t TEXT); CREATE INDEX e_s ON e(s, t); CREATE INDEX e_t ON e(t, s)");
        using (var tx = db.BeginTransaction())
        {
            for (int i = 0; i < 100; i++) db.Execute("INSERT INTO e VALUES (?, ?)", "k" + i, "k" + (i + 1) % 100);
            db.Execute("INSERT INTO e VALUES ('start', 'k0'), ('k50', 'end')");
            tx.Commit();
        }
        var act = () => new SharcGraph(db, new GraphSchema("n", "k", "e", "s", "t")).LoadSnapshot().TopologicalOrder();
        var e = act.Should().Throw<GraphCycleException>().Which;
        e.Cycle.Should().HaveCount(100).And.OnlyHaveUniqueItems();
        for (int i = 0; i < 100; i++)
        {
            int from = int.Parse(e.Cycle[i][1..]), to = int.Parse(e.Cycle[(i + 1) % 100][1..]);
            to.Should().Be((from + 1) % 100);
        }
        e.Message.Should().Contain("(100 nodes in all)").And.Contain(e.Cycle[19]).And.NotContain(" " + e.Cycle[20] + " ");
    }

    [Fact]
    public void IsolatedNodesAndParallelEdgesAreOrdered()
    {
        using var dir = new TempDir();
        var snap = SnapshotFixture.FromDefaultLayout(dir, "INSERT INTO _concepts(key) VALUES (0), (5);" +
                                                          "INSERT INTO _relations(source_key, target_key) VALUES (3, 1), (3, 1), (1, 2), (3, 2)");
        // Nodes in key order: 0 1 2 3 5; 0, 3 and 5 wait for nothing and come first, in node order.
        snap.TopologicalOrder().Should().Equal(0, 3, 4, 1, 2);
    }
}
