namespace Sharc.Graph.Tests;

public class GraphWriterTests
{
    private const string NodesSql = "SELECT key, kind, data FROM _concepts ORDER BY key";
    private const string EdgesSql = "SELECT id, source_key, target_key, kind, weight, data FROM _relations ORDER BY id";

    internal const string TextLayoutSql =
        "CREATE TABLE _concepts(id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, kind TEXT, data TEXT);" +
        "CREATE TABLE _relations(id INTEGER PRIMARY KEY, source_key TEXT NOT NULL, target_key TEXT NOT NULL, kind TEXT, weight REAL NOT NULL DEFAULT 1.0, data TEXT);" +
        "CREATE INDEX _relations_out ON _relations(source_key, kind, target_key);" +
        "CREATE INDEX _relations_in ON _relations(target_key, kind, source_key);";

    [Fact]
    public void NodesAndEdgesAddedAreTheRowsSqliteReads()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        using (var db = WriterFixture.CreateDefault(path))
        {
            var graph = new SharcGraph(db);
            using var w = graph.CreateWriter();
            w.AddNode(1, "person", "{\"name\":\"ann\"}").Should().Be(1);
            w.AddNode(2, "paper").Should().Be(2);
            w.AddNode(3).Should().Be(3);
            w.AddEdge(1, 2, "wrote", 2.5, "{\"year\":2020}").Should().Be(1);
            w.AddEdge(2, 3, "cites").Should().Be(2);
            w.AddEdge(3, 3).Should().Be(3);
            using var edges = graph.PrepareEdges(GraphDirection.Out);
            edges.Reset(1);
            edges.MoveNext().Should().BeTrue();
            (edges.NeighborInt64, edges.EdgeKind, edges.Weight, edges.EdgeRowId).Should().Be((2L, "wrote", 2.5, 1L));
        }
        WriterFixture.Rows(path, NodesSql).Should().BeEquivalentTo(new List<object?[]>
        {
            new object?[] { 1L, "person", "{\"name\":\"ann\"}" }, new object?[] { 2L, "paper", null }, new object?[] { 3L, null, null },
        }, o => o.WithStrictOrdering());
        WriterFixture.Rows(path, EdgesSql).Should().BeEquivalentTo(new List<object?[]>
        {
            new object?[] { 1L, 1L, 2L, "wrote", 2.5, "{\"year\":2020}" },
            new object?[] { 2L, 2L, 3L, "cites", 1.0, null },
            new object?[] { 3L, 3L, 3L, null, 1.0, null },
        }, o => o.WithStrictOrdering());
    }

    [Fact]
    public void AddingAnExistingKeyIsATypedErrorAndWritesNothing()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        using (var db = WriterFixture.CreateDefault(path))
        {
            using var w = new SharcGraph(db).CreateWriter();
            w.AddNode(7, "a");
            var act = () => w.AddNode(7, "b");
            act.Should().Throw<GraphDuplicateNodeException>().Where(e => e.Key == 7 && e.Message.Contains("_concepts") && e.Message.Contains("7"));
        }
        WriterFixture.Rows(path, NodesSql).Should().BeEquivalentTo(new List<object?[]> { new object?[] { 7L, "a", null } });
    }

    [Fact]
    public void DuplicateKeysAreFoundByTheGraphWhenTheKeyIndexIsNotUnique()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.Execute("CREATE TABLE n(k TEXT, label TEXT); CREATE INDEX n_k ON n(k); CREATE TABLE e(a TEXT, b TEXT); CREATE INDEX e_a ON e(a); CREATE INDEX e_b ON e(b)");
            using var w = new SharcGraph(db, new GraphSchema("n", "k", "e", "a", "b") { NodeKind = "label" }).CreateWriter();
            w.AddNode("x", "one");
            var act = () => w.AddNode("x", "two");
            act.Should().Throw<GraphDuplicateNodeException>();
        }
        WriterFixture.Rows(path, "SELECT k, label FROM n").Should().BeEquivalentTo(new List<object?[]> { new object?[] { "x", "one" } });
    }

    [Fact]
    public void UpsertAddsThenReplacesTheMappedColumnsKeepingRowIdAndOtherColumns()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        using (var db = WriterFixture.CreateDefault(path))
        {
            db.Execute("ALTER TABLE _concepts ADD COLUMN note TEXT DEFAULT 'kept'");
            using var w = new SharcGraph(db).CreateWriter();
            long id = w.UpsertNode(5, "draft", "v1");
            w.AddNode(6);
            w.UpsertNode(5, "final", null).Should().Be(id);
            w.UpdateNode(6, "touched", "d").Should().BeTrue();
            w.UpdateNode(99, "x", null).Should().BeFalse();
        }
        WriterFixture.Rows(path, "SELECT id, key, kind, data, note FROM _concepts ORDER BY key").Should().BeEquivalentTo(new List<object?[]>
        {
            new object?[] { 1L, 5L, "final", null, "kept" }, new object?[] { 2L, 6L, "touched", "d", "kept" },
        }, o => o.WithStrictOrdering());
    }

    [Fact]
    public void RemovingANodeRemovesItsSelfLoopsParallelAndIncomingEdgesAndNothingElse()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        using (var db = WriterFixture.CreateDefault(path))
        {
            using var w = new SharcGraph(db).CreateWriter();
            foreach (long k in new long[] { 1, 2, 3 }) w.AddNode(k);
            w.AddEdge(1, 2, "x");
            w.AddEdge(1, 2, "x");
            w.AddEdge(2, 1);
            w.AddEdge(1, 1);
            w.AddEdge(1, 1, "y");
            w.AddEdge(3, 1, "z");
            long kept = w.AddEdge(2, 3, "x");
            w.AddEdge(4, 1); // an edge whose source has no node row
            w.RemoveNode(1).Should().BeTrue();
            w.RemoveNode(1).Should().BeFalse();
            w.RemoveNode(4).Should().BeFalse("no node row, and its edges went with node 1");
            kept.Should().Be(7);
        }
        WriterFixture.Rows(path, "SELECT key FROM _concepts ORDER BY key").Select(r => r[0]).Should().Equal(2L, 3L);
        WriterFixture.Rows(path, "SELECT id FROM _relations").Select(r => r[0]).Should().Equal(7L);
    }

    [Fact]
    public void EdgesAreUpdatedAndRemovedByRowIdAndBetweenTwoNodesByKind()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        using (var db = WriterFixture.CreateDefault(path))
        {
            using var w = new SharcGraph(db).CreateWriter();
            long a = w.AddEdge(1, 2, "x");
            w.AddEdge(1, 2, "y");
            w.AddEdge(1, 2, "y");
            w.AddEdge(1, 2);
            long other = w.AddEdge(1, 3, "y");
            w.AddEdge(2, 1, "y");
            w.UpdateEdge(a, "z", 4.0, "p").Should().BeTrue();
            w.UpdateEdge(999, "z", 4.0, null).Should().BeFalse();
            w.RemoveEdges(1, 2, "y").Should().Be(2);
            w.RemoveEdges(1, 2, "none").Should().Be(0);
            w.RemoveEdge(other).Should().BeTrue();
            w.RemoveEdge(other).Should().BeFalse();
            w.RemoveEdges(1, 2).Should().Be(2);
            w.AddEdge(1, 2, "again");
        }
        WriterFixture.Rows(path, EdgesSql).Should().BeEquivalentTo(new List<object?[]>
        {
            new object?[] { 6L, 2L, 1L, "y", 1.0, null }, new object?[] { 7L, 1L, 2L, "again", 1.0, null },
        }, o => o.WithStrictOrdering());
    }

    [Fact]
    public void TextKeysInAMappingWithoutKindWeightOrDataColumns()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.Execute("CREATE TABLE people(handle TEXT PRIMARY KEY, joined TEXT DEFAULT 'today'); CREATE TABLE follows(follower TEXT, followee TEXT);" +
                       "CREATE INDEX f_out ON follows(follower, followee); CREATE INDEX f_in ON follows(followee, follower)");
            var graph = new SharcGraph(db, new GraphSchema("people", "handle", "follows", "follower", "followee") { NodeData = null, EdgeData = null });
            using var w = graph.CreateWriter();
            w.AddNode("ann");
            w.AddNode("bob");
            w.AddEdge("ann", "bob");
            w.AddEdge("bob", "ann");
            w.AddEdge("bob", "bob");
            w.AddEdge("ann", "bob");
            ((Action)(() => w.AddNode("cy", kind: "k"))).Should().Throw<GraphMappingException>().Where(e => e.Message.Contains("node kind"));
            ((Action)(() => w.AddNode("cy", data: "d"))).Should().Throw<GraphMappingException>().Where(e => e.Message.Contains("node data"));
            ((Action)(() => w.AddEdge("ann", "bob", weight: 2))).Should().Throw<GraphMappingException>().Where(e => e.Message.Contains("edge weight"));
            ((Action)(() => w.RemoveEdges("ann", "bob", "k"))).Should().Throw<GraphMappingException>();
            ((Action)(() => w.AddNode(5))).Should().Throw<GraphKeyTypeException>();
            ((Action)(() => w.AddEdge("ann", 5))).Should().Throw<GraphKeyTypeException>();
            w.UpdateNode("ann", null, null).Should().BeTrue("nothing is mapped to change, and the node exists");
            w.UpdateEdge(1, null, 1.0, null).Should().BeTrue();
            w.UpdateEdge(42, null, 1.0, null).Should().BeFalse();
            w.RemoveEdges("ann", "bob").Should().Be(2);
            w.RemoveNode("bob").Should().BeTrue();
        }
        WriterFixture.Rows(path, "SELECT handle, joined FROM people").Should().BeEquivalentTo(new List<object?[]> { new object?[] { "ann", "today" } });
        WriterFixture.Rows(path, "SELECT count(*) FROM follows")[0][0].Should().Be(0L);
    }

    [Fact]
    public void WithoutRowIdNodeTablesAreWrittenByKey()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.Execute("CREATE TABLE n(k TEXT PRIMARY KEY, kind TEXT, data TEXT) WITHOUT ROWID; CREATE TABLE e(a TEXT, b TEXT); CREATE INDEX e_a ON e(a); CREATE INDEX e_b ON e(b)");
            using var w = new SharcGraph(db, new GraphSchema("n", "k", "e", "a", "b") { NodeKind = "kind", NodeData = "data" }).CreateWriter();
            w.AddNode("a", "x").Should().Be(0);
            w.UpsertNode("a", "y", "d");
            w.UpsertNode("b", "z");
            ((Action)(() => w.AddNode("b"))).Should().Throw<GraphDuplicateNodeException>();
            w.AddEdge("a", "b");
            w.RemoveNode("b").Should().BeTrue();
        }
        WriterFixture.Rows(path, "SELECT k, kind, data FROM n").Should().BeEquivalentTo(new List<object?[]> { new object?[] { "a", "y", "d" } });
        WriterFixture.Rows(path, "SELECT count(*) FROM e")[0][0].Should().Be(0L);
    }

    [Fact]
    public void WritesJoinTheCallersTransactionAndItsRollbackLeavesNothing()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        using (var db = WriterFixture.CreateDefault(path))
        {
            using var w = new SharcGraph(db).CreateWriter();
            w.AddNode(1);
            w.AddEdge(1, 1);
            using (db.BeginTransaction())
            {
                w.AddNode(2);
                w.AddEdge(1, 2);
                w.UpsertNode(1, "changed");
                w.RemoveNode(1);
                db.InTransaction.Should().BeTrue("the writer neither committed nor ended the caller's transaction");
            }
            db.Execute("BEGIN");
            w.AddNode(3, "kept");
            w.AddEdge(3, 1);
            db.Execute("COMMIT");
        }
        WriterFixture.Rows(path, NodesSql).Should().BeEquivalentTo(new List<object?[]> { new object?[] { 1L, null, null }, new object?[] { 3L, "kept", null } },
            o => o.WithStrictOrdering());
        WriterFixture.Rows(path, "SELECT source_key, target_key FROM _relations ORDER BY id").Should().BeEquivalentTo(
            new List<object?[]> { new object?[] { 1L, 1L }, new object?[] { 3L, 1L } }, o => o.WithStrictOrdering());
    }

    [Fact]
    public void ReadOnlyDatabasesAndMissingDataColumnsAreRefused()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.Execute("CREATE TABLE n(k INTEGER PRIMARY KEY); CREATE TABLE e(a INTEGER, b INTEGER); CREATE INDEX e_a ON e(a); CREATE INDEX e_b ON e(b)");
            var act = () => new SharcGraph(db, new GraphSchema("n", "k", "e", "a", "b") { EdgeData = "payload" }).CreateWriter();
            act.Should().Throw<GraphMappingException>().Where(e => e.Problem == GraphMappingProblem.UnknownColumn && e.Message.Contains("payload"));
        }
        using var ro = SharcDatabase.Open(path);
        var write = () => new SharcGraph(ro, new GraphSchema("n", "k", "e", "a", "b")).CreateWriter();
        write.Should().Throw<InvalidOperationException>().Where(e => e.Message.Contains("read-only"));
    }

    [Fact]
    public void RowIdKeyedNodesAreWrittenWithTheirKeyAsRowId()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.Execute("CREATE TABLE n(label TEXT); CREATE TABLE e(a INTEGER, b INTEGER); CREATE INDEX e_a ON e(a); CREATE INDEX e_b ON e(b)");
            using var w = new SharcGraph(db, new GraphSchema("n", "rowid", "e", "a", "b") { NodeKind = "label" }).CreateWriter();
            w.AddNode(40, "forty").Should().Be(40);
            w.UpsertNode(40, "again").Should().Be(40);
            w.AddNode(41).Should().Be(41);
            ((Action)(() => w.AddNode(41))).Should().Throw<GraphDuplicateNodeException>();
            w.RemoveNode(41).Should().BeTrue();
        }
        WriterFixture.Rows(path, "SELECT rowid, label FROM n").Should().BeEquivalentTo(new List<object?[]> { new object?[] { 40L, "again" } });
    }
}
