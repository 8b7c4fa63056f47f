using System.Text;

namespace Sharc.Graph.Tests;

public class SnapshotTests
{
    [Theory]
    [MemberData(nameof(SnapshotFixture.ShapesAndLayouts), MemberType = typeof(SnapshotFixture))]
    public void HoldsTheReferenceNodesInKeyOrderAndItsEdgesBothWays(GraphSpec spec, SnapshotLayout layout, string? kind)
    {
        using var dir = new TempDir();
        var (g, snap) = SnapshotFixture.Load(dir, layout, spec, kind);
        var reference = new RefAnalytics(g, kind);

        snap.KeyType.Should().Be(SnapshotFixture.IsText(layout) ? GraphKeyType.Text : GraphKeyType.Integer);
        snap.Kind.Should().Be(kind);
        var keys = Enumerable.Range(0, snap.NodeCount).Select(v => SnapshotFixture.RefKey(snap, v)).ToList();
        keys.Order().Should().Equal(reference.Nodes.Order());
        var stored = Enumerable.Range(0, snap.NodeCount).Select(snap.GetKeyString).ToList();
        if (snap.KeyType == GraphKeyType.Text) stored.Should().BeInAscendingOrder(StringComparer.Ordinal).And.OnlyHaveUniqueItems();
        else keys.Should().BeInAscendingOrder().And.OnlyHaveUniqueItems();

        snap.EdgeCount.Should().Be(reference.Edges.Count);
        // Each edge as (source, target) keys, read from the out rows and from the in rows: both are the reference's edges.
        var expected = reference.Edges.Order().ToList();
        var fromOut = new List<(long, long)>();
        var fromIn = new List<(long, long)>();
        for (int v = 0; v < snap.NodeCount; v++)
        {
            foreach (int t in snap.OutNeighbors(v)) fromOut.Add((keys[v], keys[t]));
            foreach (int u in snap.InNeighbors(v)) fromIn.Add((keys[u], keys[v]));
        }
        fromOut.Order().Should().Equal(expected);
        fromIn.Order().Should().Equal(expected);
        var outDegree = reference.OutDegrees();
        var inDegree = reference.InDegrees();
        Enumerable.Range(0, snap.NodeCount).Select(v => (snap.OutDegree(v), snap.InDegree(v)))
            .Should().Equal(keys.Select(k => (outDegree[k], inDegree[k])));
    }

    [Theory]
    [InlineData(SnapshotLayout.RowIdKey)]
    [InlineData(SnapshotLayout.NarrowIndexes)]
    [InlineData(SnapshotLayout.TextWithoutRowId)]
    public void CountsAndDegreesAgreeWithSqliteQueriesOverTheSameFile(SnapshotLayout layout)
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        SnapshotFixture.Build(path, layout, new GraphSpec(500, 1500, 31) { Junk = 40 });
        using var db = SharcDatabase.Open(path);
        var snap = new SharcGraph(db, SnapshotFixture.Schema(layout)).LoadSnapshot();

        string type = SnapshotFixture.IsText(layout) ? "text" : "integer";
        string valid = $"typeof(s) = '{type}' AND typeof(t) = '{type}'";
        using var conn = GraphFixture.Open(path);
        Scalar(conn, $"SELECT count(*) FROM (SELECT k FROM n WHERE typeof(k) = '{type}' UNION SELECT s FROM e WHERE {valid} UNION SELECT t FROM e WHERE {valid})")
            .Should().Be(snap.NodeCount);
        Scalar(conn, $"SELECT count(*) FROM e WHERE {valid}").Should().Be(snap.EdgeCount);
        foreach (var (column, degree) in new[] { ("s", (Func<int, int>)snap.OutDegree), ("t", snap.InDegree) })
        {
            using var cmd = conn.CreateCommand();
            cmd.CommandText = $"SELECT {column}, count(*) FROM e WHERE {valid} GROUP BY {column}";
            using var r = cmd.ExecuteReader();
            int rows = 0;
            while (r.Read())
            {
                bool found = type == "text" ? snap.TryGetNode(r.GetString(0), out int v) : snap.TryGetNode(r.GetInt64(0), out v);
                found.Should().BeTrue();
                degree(v).Should().Be(r.GetInt32(1));
                rows++;
            }
            Enumerable.Range(0, snap.NodeCount).Count(v => degree(v) > 0).Should().Be(rows);
        }
    }

    private static long Scalar(Microsoft.Data.Sqlite.SqliteConnection conn, string sql)
    {
        using var cmd = conn.CreateCommand();
        cmd.CommandText = sql;
        return (long)cmd.ExecuteScalar()!;
    }

    [Fact]
    public void KindSnapshotKeepsEveryNodeNumberedAsInTheWholeSnapshot()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        SnapshotFixture.Build(path, SnapshotLayout.Default, new GraphSpec(300, 900, 12));
        using var db = SharcDatabase.Open(path);
        var graph = new SharcGraph(db);
        var whole = graph.LoadSnapshot();
        var cites = graph.LoadSnapshot("cites");
        var none = graph.LoadSnapshot("no such kind");
        cites.NodeCount.Should().Be(whole.NodeCount);
        none.NodeCount.Should().Be(whole.NodeCount);
        none.EdgeCount.Should().Be(0);
        cites.EdgeCount.Should().BeGreaterThan(0).And.BeLessThan(whole.EdgeCount);
        for (int v = 0; v < whole.NodeCount; v++) cites.GetKeyInt64(v).Should().Be(whole.GetKeyInt64(v));
    }

    [Fact]
    public void NodeRowsWithoutEdgesAndEdgeEndsWithoutRowsAreBothNodes()
    {
        using var dir = new TempDir();
        var snap = SnapshotFixture.FromDefaultLayout(dir, "INSERT INTO _concepts(key) VALUES (7), (3);" +
                                                          "INSERT INTO _relations(source_key, target_key) VALUES (3, 10), (-4, 3), (3, 10)");
        Enumerable.Range(0, snap.NodeCount).Select(snap.GetKeyInt64).Should().Equal(-4, 3, 7, 10);
        snap.TryGetNode(7, out int isolated).Should().BeTrue();
        (snap.OutDegree(isolated) + snap.InDegree(isolated)).Should().Be(0);
        snap.TryGetNode(3, out int three).Should().BeTrue();
        snap.OutNeighbors(three).ToArray().Should().Equal(3, 3);
        snap.InNeighbors(three).ToArray().Should().Equal(0);
        snap.TryGetNode(5, out int missing).Should().BeFalse();
        missing.Should().Be(-1);
        snap.GetKeyString(0).Should().Be("-4");
    }

    [Fact]
    public void TextKeysAreFoundAndOrderedByTheirUtf8Bytes()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        db.Execute("CREATE TABLE n(k TEXT PRIMARY KEY) WITHOUT ROWID; CREATE TABLE e(s TEXT, t TEXT); CREATE INDEX e_s ON e(s, t); CREATE INDEX e_t ON e(t, s);" +
                   "INSERT INTO n VALUES ('zoë'), ('Zed'); INSERT INTO e VALUES ('b', 'a'), ('a', 'zoë'), ('é', 'b')");
        var snap = new SharcGraph(db, new GraphSchema("n", "k", "e", "s", "t")).LoadSnapshot();
        Enumerable.Range(0, snap.NodeCount).Select(snap.GetKeyString).Should().Equal("Zed", "a", "b", "zoë", "é");
        snap.TryGetNode("zoë", out int v).Should().BeTrue();
        v.Should().Be(3);
        snap.TryGetNode(Encoding.UTF8.GetBytes("é"), out v).Should().BeTrue();
        v.Should().Be(4);
        snap.TryGetNode("c", out _).Should().BeFalse();
        snap.GetKeyUtf8(1).ToArray().Should().Equal((byte)'a');
    }

    [Fact]
    public void AnEmptyGraphHasNoNodes()
    {
        using var dir = new TempDir();
        var snap = SnapshotFixture.FromDefaultLayout(dir, "");
        snap.NodeCount.Should().Be(0);
        snap.EdgeCount.Should().Be(0);
        snap.TryGetNode(1, out _).Should().BeFalse();
    }

    [Fact]
    public void WrongKeyTypesUnknownNodesAndKindsWithoutAColumnAreRefused()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        db.Execute("CREATE TABLE n(k TEXT PRIMARY KEY); CREATE TABLE e(s TEXT, t TEXT); CREATE INDEX e_s ON e(s, t); CREATE INDEX e_t ON e(t, s);" +
                   "INSERT INTO e VALUES ('a', 'b')");
        var graph = new SharcGraph(db, new GraphSchema("n", "k", "e", "s", "t"));
        var byKind = () => graph.LoadSnapshot("x");
        byKind.Should().Throw<GraphMappingException>().Where(e => e.Problem == GraphMappingProblem.UnknownColumn && e.Message.Contains("kind"));
        var snap = graph.LoadSnapshot();
        var intKey = () => snap.GetKeyInt64(0);
        intKey.Should().Throw<GraphKeyTypeException>();
        var intLookup = () => snap.TryGetNode(1L, out _);
        intLookup.Should().Throw<GraphKeyTypeException>();
        var outOfRange = () => snap.OutDegree(2);
        outOfRange.Should().Throw<ArgumentOutOfRangeException>().WithMessage("*2 nodes*");
        var negative = () => snap.GetKeyString(-1);
        negative.Should().Throw<ArgumentOutOfRangeException>();

        var intSnap = SnapshotFixture.FromDefaultLayout(dir, "INSERT INTO _relations(source_key, target_key) VALUES (1, 2)");
        var textKey = () => intSnap.GetKeyUtf8(0).Length;
        textKey.Should().Throw<GraphKeyTypeException>();
        var textLookup = () => intSnap.TryGetNode("1", out _);
        textLookup.Should().Throw<GraphKeyTypeException>();
    }

    [Fact]
    public void IntegerKeyedSnapshotTakesSixteenBytesANodeAndEightAnEdge()
    {
        using var dir = new TempDir();
        var (_, snap) = SnapshotFixture.Load(dir, SnapshotLayout.Default, new GraphSpec(1000, 4000, 14));
        // Two offsets arrays hold one entry more than there are nodes.
        snap.MemoryBytes.Should().Be(16L * snap.NodeCount + 8L * snap.EdgeCount + 8);
    }

    [Fact]
    public void ASnapshotKeepsWhatItLoadedWhenTheDatabaseChanges()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        GraphSchema.CreateDefault(db);
        db.Execute("INSERT INTO _relations(source_key, target_key) VALUES (1, 2)");
        var graph = new SharcGraph(db);
        var before = graph.LoadSnapshot();
        db.Execute("INSERT INTO _relations(source_key, target_key) VALUES (2, 3); DELETE FROM _relations WHERE source_key = 1");
        (before.NodeCount, before.EdgeCount, before.GetKeyInt64(0)).Should().Be((2, 1, 1L));
        var after = graph.LoadSnapshot();
        Enumerable.Range(0, after.NodeCount).Select(after.GetKeyInt64).Should().Equal(2, 3);
        after.EdgeCount.Should().Be(1);
    }

    [Fact]
    public void ThreadsSharingOneSnapshotGetTheSameAnswers()
    {
        using var dir = new TempDir();
        var (_, snap) = SnapshotFixture.Load(dir, SnapshotLayout.Default, new GraphSpec(2000, 6000, 15));
        var expectedRanks = snap.PageRank().Ranks;
        var expectedComponents = snap.ConnectedComponents().ComponentOf;
        var results = new (double[] Ranks, int[] Components)[4];
        Parallel.For(0, results.Length, new ParallelOptions { MaxDegreeOfParallelism = 4 },
            i => results[i] = (snap.PageRank().Ranks, snap.ConnectedComponents().ComponentOf));
        results.Should().AllSatisfy(r =>
        {
            r.Ranks.Should().Equal(expectedRanks);
            r.Components.Should().Equal(expectedComponents);
        });
    }

    [Fact]
    public void AUtf16DatabaseWhoseIndexOrderIsNotUtf8OrderStillGivesNodesInUtf8Order()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        // In UTF-16LE, BINARY compares the low byte first: 'Ą' (04 01) sorts before '3' (33 00), unlike in UTF-8.
        string[] names = ["a3", "aĄ", "Ąb", "3", "ĄĄ", "b", "z€", "€", "a", "ā"];
        var rng = new Random(16);
        var expected = new List<(string, string)>();
        using (var conn = GraphFixture.Open(path))
        {
            GraphFixture.Exec(conn, "PRAGMA encoding = 'UTF-16le'; CREATE TABLE n(k TEXT PRIMARY KEY); CREATE TABLE e(s TEXT, t TEXT);" +
                                    "CREATE INDEX e_s ON e(s, t); CREATE INDEX e_t ON e(t, s); INSERT INTO n VALUES ('only a node')");
            using var tx = conn.BeginTransaction();
            using var insert = GraphFixture.Command(conn, tx, "INSERT INTO e VALUES ($s, $t)", "$s", "$t");
            for (int i = 0; i < 60; i++)
            {
                string s = names[rng.Next(names.Length)], t = names[rng.Next(names.Length)];
                expected.Add((s, t));
                GraphFixture.Run(insert, s, t);
            }
            tx.Commit();
        }
        using var db = SharcDatabase.Open(path);
        var snap = new SharcGraph(db, new GraphSchema("n", "k", "e", "s", "t")).LoadSnapshot();
        var keys = Enumerable.Range(0, snap.NodeCount).Select(snap.GetKeyString).ToList();
        keys.Should().BeEquivalentTo(expected.SelectMany(e => new[] { e.Item1, e.Item2 }).Append("only a node").Distinct());
        keys.Select(Encoding.UTF8.GetBytes).Should().BeInAscendingOrder(Comparer<byte[]>.Create((a, b) => a.AsSpan().SequenceCompareTo(b)));
        var fromOut = new List<(string, string)>();
        var fromIn = new List<(string, string)>();
        for (int v = 0; v < snap.NodeCount; v++)
        {
            foreach (int t in snap.OutNeighbors(v)) fromOut.Add((keys[v], keys[t]));
            foreach (int u in snap.InNeighbors(v)) fromIn.Add((keys[u], keys[v]));
        }
        fromOut.Should().BeEquivalentTo(expected);
        fromIn.Should().BeEquivalentTo(expected);
        snap.TryGetNode("Ąb", out int node).Should().BeTrue();
        snap.GetKeyString(node).Should().Be("Ąb");
    }
}
