namespace Sharc.Graph.Tests;

public class BfsBudgetTests
{
    private static RefGraph Chain(SharcDatabase db, int length)
    {
        GraphSchema.CreateDefault(db);
        var g = new RefGraph();
        using var tx = db.BeginTransaction();
        for (int i = 0; i < length; i++)
        {
            db.Execute("INSERT INTO _relations(id, source_key, target_key) VALUES (?, ?, ?)", i + 1, i, i + 1);
            g.Add(new Edge(i + 1, i, i + 1, null, 1));
        }
        tx.Commit();
        return g;
    }

    [Fact]
    public void ZeroTimeBudgetVisitsOnlyTheStartsAndSaysSo()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        Chain(db, 500);
        using var bfs = new SharcGraph(db).PrepareBfs(new BfsOptions { TimeBudget = TimeSpan.Zero });
        bfs.Execute([0L, 250L]);
        bfs.StopReason.Should().Be(StopReason.TimeBudget);
        bfs.BudgetExhausted.Should().BeTrue();
        Enumerable.Range(0, bfs.VisitedCount).Select(bfs.GetKeyInt64).Should().Equal(0, 250);
    }

    [Fact]
    public void HugeTimeBudgetCompletes()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        Chain(db, 5000);
        using var bfs = new SharcGraph(db).PrepareBfs(new BfsOptions { TimeBudget = TimeSpan.MaxValue });
        bfs.Execute(0);
        bfs.StopReason.Should().Be(StopReason.Completed);
        bfs.VisitedCount.Should().Be(5001);
        bfs.GetDepth(5000).Should().Be(5000);
        using var day = new SharcGraph(db).PrepareBfs(new BfsOptions { TimeBudget = TimeSpan.FromDays(1) });
        day.Execute(0);
        day.StopReason.Should().Be(StopReason.Completed);
        day.VisitedCount.Should().Be(5001);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(37)]
    [InlineData(400)]
    public void NodeBudgetStopsOnReachingItWithAPrefixOfTheFullWalk(int maxNodes)
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed: 31, graphs: 3, maxNodes: 300, edgesPerNode: 2);
        using var db = SharcDatabase.Open(path);
        var graph = new SharcGraph(db);
        using var full = graph.PrepareBfs(new BfsOptions { Direction = GraphDirection.Both });
        using var capped = graph.PrepareBfs(new BfsOptions { Direction = GraphDirection.Both, MaxNodes = maxNodes });
        foreach (long start in g.Nodes.Where((_, i) => i % 25 == 0))
        {
            full.Execute(start);
            capped.Execute(start);
            var all = BfsFilterTests.Visits(full, text: false);
            var some = BfsFilterTests.Visits(capped, text: false);
            capped.VisitedCount.Should().Be(Math.Min(maxNodes, all.Count));
            capped.StopReason.Should().Be(capped.VisitedCount == maxNodes ? StopReason.NodeBudget : StopReason.Completed);
            some.Should().Equal(all.Take(some.Count));
            g.Bfs([start], GraphDirection.Both, null, textKeys: false, maxNodes: maxNodes).Visits.Should().Equal(some);
        }
    }

    [Fact]
    public void TinyTimeBudgetGivesAPrefixOfTheFullWalkWithDepthsAndParents()
    {
        // Where a tiny budget stops depends on the machine; what holds wherever it stops is checked.
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed: 32, graphs: 2, maxNodes: 900, edgesPerNode: 2);
        using var db = SharcDatabase.Open(path);
        var graph = new SharcGraph(db);
        using var full = graph.PrepareBfs(new BfsOptions { Direction = GraphDirection.Both });
        using var timed = graph.PrepareBfs(new BfsOptions { Direction = GraphDirection.Both, TimeBudget = TimeSpan.FromTicks(1) });
        foreach (long start in g.Nodes.Where((_, i) => i % 50 == 0))
        {
            full.Execute(start);
            timed.Execute(start);
            var all = BfsFilterTests.Visits(full, text: false);
            var some = BfsFilterTests.Visits(timed, text: false);
            some.Should().Equal(all.Take(some.Count));
            if (timed.StopReason == StopReason.Completed) some.Count.Should().Be(all.Count);
            else timed.StopReason.Should().Be(StopReason.TimeBudget);
        }
    }

    [Fact]
    public void BadBudgetsAreRefused()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        GraphSchema.CreateDefault(db);
        var graph = new SharcGraph(db);
        var negativeTime = () => graph.PrepareBfs(new BfsOptions { TimeBudget = TimeSpan.FromSeconds(-1) });
        negativeTime.Should().Throw<ArgumentOutOfRangeException>();
        var noEdges = () => graph.PrepareBfs(new BfsOptions { MaxEdgesPerNode = 0 });
        noEdges.Should().Throw<ArgumentOutOfRangeException>();
        var noNodes = () => graph.PrepareBfs(new BfsOptions { MaxNodes = 0 });
        noNodes.Should().Throw<ArgumentOutOfRangeException>();
    }

    [Fact]
    public void FanOutCapOfOneOnAStarReachesOneLeafPerExpansion()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        GraphSchema.CreateDefault(db);
        // A hub with 50 leaves, each leaf with one further edge: capped at 1, the walk takes the hub's first edge only.
        using (var tx = db.BeginTransaction())
        {
            for (int i = 1; i <= 50; i++) db.Execute("INSERT INTO _relations(source_key, target_key) VALUES (0, ?), (?, ?)", i, i, 1000 + i);
            tx.Commit();
        }
        using var bfs = new SharcGraph(db).PrepareBfs(new BfsOptions { MaxEdgesPerNode = 1 });
        bfs.Execute(0);
        Enumerable.Range(0, bfs.VisitedCount).Select(bfs.GetKeyInt64).Should().Equal(0, 1, 1001);
        bfs.StopReason.Should().Be(StopReason.Completed);
    }
}
