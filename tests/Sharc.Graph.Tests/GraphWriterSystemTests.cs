using System.Diagnostics;
using Xunit.Abstractions;

namespace Sharc.Graph.Tests;

public class GraphWriterSystemTests(ITestOutputHelper output)
{
    [Fact]
    public void EnsureIndexesCreatesWhatTheMappingLacksInOneTransactionThenTheGraphOpens()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var mapping = new GraphSchema("n", "k", "e", "a", "b") { EdgeKind = "kind" };
        using (var db = SharcDatabase.Create(path))
        {
            db.Execute("CREATE TABLE n(k INTEGER); CREATE TABLE e(a INTEGER, b INTEGER, kind TEXT)");
            db.Execute("INSERT INTO n VALUES (1), (2); INSERT INTO e VALUES (1, 2, 'x'), (2, 1, 'y')");
            var graph = SharcGraph.EnsureIndexes(db, mapping, out var created);
            created.Should().Equal("CREATE UNIQUE INDEX n_k ON n(k);", "CREATE INDEX e_by_source ON e(a, kind, b); CREATE INDEX e_by_target ON e(b, kind, a);");
            (graph.OutIndexName, graph.InIndexName).Should().Be(("e_by_source", "e_by_target"));
            using var edges = graph.PrepareEdges(GraphDirection.Both, "y");
            edges.Reset(1);
            edges.MoveNext().Should().BeTrue();
            edges.NeighborInt64.Should().Be(2);
            SharcGraph.EnsureIndexes(db, mapping, out var none);
            none.Should().BeEmpty();
        }
        WriterFixture.Rows(path, "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name").Select(r => r[0])
            .Should().Equal("e_by_source", "e_by_target", "n_k");
    }

    [Fact]
    public void EnsureIndexesRecreatesADroppedDefaultIndexAndLeavesOtherProblemsToTheirErrors()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        using var db = WriterFixture.CreateDefault(path);
        db.Execute("DROP INDEX _relations_in");
        SharcGraph.EnsureIndexes(db).InIndexName.Should().Be("_relations_by_target");
        var act = () => SharcGraph.EnsureIndexes(db, GraphSchema.Default with { EdgeTable = "missing" });
        act.Should().Throw<GraphMappingException>().Where(e => e.Problem == GraphMappingProblem.UnknownTable);
        db.InTransaction.Should().BeFalse();
    }

    [Fact]
    public void EnsureIndexesInsideTheCallersTransactionIsUndoneWithIt()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.Execute("CREATE TABLE n(k TEXT PRIMARY KEY); CREATE TABLE e(a TEXT, b TEXT)");
            using (db.BeginTransaction()) SharcGraph.EnsureIndexes(db, new GraphSchema("n", "k", "e", "a", "b"), out var created).Should().NotBeNull();
        }
        WriterFixture.Rows(path, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")[0][0].Should().Be(0L);
    }

    /// <summary>
    /// The edge and node tables' first leaves are zeroed in the file: a scan of either table would fail there. Removing
    /// a node, removing edges between two nodes and the duplicate check of an add only seek, so they succeed.
    /// </summary>
    [Fact]
    public void RemovalAndDuplicateChecksSeekAndNeverScanTheTables()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        using (var conn = GraphFixture.Open(path))
        {
            GraphFixture.Exec(conn, GraphSchema.DefaultLayoutSql);
            // Rows with low rowids fill the left-most leaves; the nodes and edges written below come after them.
            GraphFixture.Exec(conn, "BEGIN; WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 3000) " +
                                    "INSERT INTO _relations(source_key, target_key, kind) SELECT 100000 + i, 200000 + i, 'filler' FROM c;" +
                                    "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 3000) INSERT INTO _concepts(key) SELECT 300000 + i FROM c; COMMIT");
            GraphFixture.Exec(conn, "INSERT INTO _concepts(key) VALUES (1), (2); INSERT INTO _relations(source_key, target_key, kind) VALUES (1, 2, 'x'), (2, 1, 'x'), (1, 1, 'y'), (2, 2, 'y'), (2, 2, 'z')");
        }
        var edgeLeaf = WriterFixture.BreakLeftmostLeaf(path, "_relations");
        var nodeLeaf = WriterFixture.BreakLeftmostLeaf(path, "_concepts");
        try
        {
            using var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true });
            var scan = () =>
            {
                using var r = db.CreateReader("_relations");
                while (r.Read()) { }
            };
            scan.Should().Throw<SharcException>("the broken leaf is where a scan starts");
            using var w = new SharcGraph(db).CreateWriter();
            ((Action)(() => w.AddNode(2))).Should().Throw<GraphDuplicateNodeException>();
            w.RemoveEdges(2, 2, "y").Should().Be(1);
            w.RemoveNode(1).Should().BeTrue();
            w.AddNode(3).Should().BeGreaterThan(3000);
        }
        finally
        {
            WriterFixture.Restore(path, edgeLeaf);
            WriterFixture.Restore(path, nodeLeaf);
        }
        WriterFixture.Rows(path, "SELECT source_key, target_key, kind FROM _relations WHERE source_key < 100000 ORDER BY id")
            .Should().BeEquivalentTo(new List<object?[]> { new object?[] { 2L, 2L, "z" } });
    }

    [Fact]
    public void AConcurrentTraversalSeesTheGraphBeforeOrAfterEachCommitNeverBetween()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        using var db = WriterFixture.CreateDefault(path);
        var graph = new SharcGraph(db);
        using (var w = graph.CreateWriter())
            for (long i = 0; i < 9; i++) w.AddEdge(i, i + 1);
        var seen = new System.Collections.Concurrent.ConcurrentDictionary<int, int>();
        using var stop = new ManualResetEventSlim();
        Exception? failure = null;
        var reader = new Thread(() =>
        {
            try
            {
                using var bfs = graph.PrepareBfs();
                while (!stop.IsSet)
                {
                    bfs.Execute(0);
                    seen.AddOrUpdate(bfs.VisitedCount, 1, (_, n) => n + 1);
                }
            }
            catch (Exception e)
            {
                failure = e;
            }
        });
        reader.Start();
        using (var w = graph.CreateWriter())
        {
            for (int round = 0; round < 20; round++)
            {
                using (var tx = db.BeginTransaction())
                {
                    // Extend the chain from its end: a traversal that sees any new edge has gone through all earlier ones.
                    long from = 9 + round * 10;
                    for (long i = from; i < from + 10; i++)
                    {
                        w.AddEdge(i, i + 1);
                        Thread.Yield();
                    }
                    tx.Commit();
                }
                while (!seen.ContainsKey(10 + (round + 1) * 10) && reader.IsAlive) Thread.Yield();
            }
            w.RemoveNode(100);
            while (!seen.ContainsKey(100) && reader.IsAlive) Thread.Yield();
        }
        stop.Set();
        reader.Join();
        failure.Should().BeNull();
        seen.Keys.Should().OnlyContain(n => n % 10 == 0, "each commit adds ten nodes to the chain (and the removal cuts it at 100)");
        seen.Keys.Should().Contain(210);
    }

    /// <summary>
    /// The engine allocates on page splits and merges (cell copies), so a write is not 0 B; the writer's own share —
    /// the same rows written through the row API directly, into a twin table, are the baseline — must stay small.
    /// </summary>
    [Fact]
    public void TheWriterAddsLittleAllocationToTheEnginesOwn()
    {
        using var dir = new TempDir();
        using var db = WriterFixture.CreateDefault(dir.File("g.db"));
        db.Execute("CREATE TABLE twin(id INTEGER PRIMARY KEY, source_key INTEGER NOT NULL, target_key INTEGER NOT NULL, kind TEXT, weight REAL NOT NULL DEFAULT 1.0, data TEXT);" +
                   "CREATE INDEX twin_out ON twin(source_key, kind, target_key); CREATE INDEX twin_in ON twin(target_key, kind, source_key)");
        using var w = new SharcGraph(db).CreateWriter();
        var raw = db.PrepareInsert("twin", "source_key", "target_key", "kind", "weight", "data");
        using var tx = db.BeginTransaction();
        const int N = 2000;
        long key = 0, rawKey = 0, edge = 0, rawEdge = 0;
        long rawAdd = GraphFixture.Measure(() =>
        {
            raw.SetInt64(0, rawKey++);
            raw.SetInt64(1, rawKey);
            raw.SetText(2, "k");
            raw.SetDouble(3, 2.0);
            raw.SetNull(4);
            rawEdge = raw.Execute();
        }, N) / N;
        long add = GraphFixture.Measure(() => edge = w.AddEdge(key++, key, "k", 2.0), N) / N;
        string[] columns = ["kind", "weight", "data"];
        object?[] values = ["j", 3.0, null];
        long rawUpdate = GraphFixture.Measure(() => db.Update("twin", 5, columns, values), N / 4) / (N / 4);
        long update = GraphFixture.Measure(() => w.UpdateEdge(5, "j", 3.0, null), N / 4) / (N / 4);
        long rawRemove = GraphFixture.Measure(() => db.Delete("twin", rawEdge--), N / 4) / (N / 4);
        long remove = GraphFixture.Measure(() => w.RemoveEdge(edge--), N / 4) / (N / 4);
        long addNode = GraphFixture.Measure(() => w.AddNode(key++, "k"), N) / N;
        long removeNode = GraphFixture.Measure(() => w.RemoveNode(--key), N / 4) / (N / 4);
        output.WriteLine($"bytes per operation in a transaction (engine's row API alone in brackets): AddEdge {add} ({rawAdd}), UpdateEdge {update} ({rawUpdate}), " +
                         $"RemoveEdge {remove} ({rawRemove}), AddNode {addNode}, RemoveNode {removeNode}");
        add.Should().BeLessThan(rawAdd + 128);
        update.Should().BeLessThan(rawUpdate + 128);
        remove.Should().BeLessThan(rawRemove + 128);
    }

    /// <summary>100,000 nodes and 1,000,000 edges in one transaction, timed against SQLite doing the same inserts (prints; no assertion on time).</summary>
    [Fact]
    [Trait("Category", "Measure")]
    public void BulkLoadOfAMillionEdgesIsMeasuredAgainstSqlite()
    {
        const int NodeCount = 100_000, EdgeCount = 1_000_000;
        using var dir = new TempDir();
        var rng = new Random(42);
        string[] kinds = ["knows", "cites", "likes"];
        var nodes = new GraphNodeRecord[NodeCount];
        for (int i = 0; i < NodeCount; i++) nodes[i] = new GraphNodeRecord(i, "person");
        var edges = new GraphEdgeRecord[EdgeCount];
        for (int i = 0; i < EdgeCount; i++) edges[i] = new GraphEdgeRecord(rng.Next(NodeCount), rng.Next(NodeCount), kinds[i % 3], 1.5);

        (TimeSpan Wall, TimeSpan Cpu) Load(string path, bool rebuild)
        {
            var cpu = Process.GetCurrentProcess().TotalProcessorTime;
            var sw = Stopwatch.StartNew();
            using (var db = WriterFixture.CreateDefault(path))
            using (var w = new SharcGraph(db).CreateWriter())
                w.BulkLoad(nodes, edges, rebuild).Should().Be(new GraphBulkLoadResult(NodeCount, EdgeCount));
            return (sw.Elapsed, Process.GetCurrentProcess().TotalProcessorTime - cpu);
        }
        string sharcPath = dir.File("sharc.db"), rebuiltPath = dir.File("rebuilt.db");
        var sharc = Load(sharcPath, rebuild: false);
        var rebuilt = Load(rebuiltPath, rebuild: true);

        string sqlitePath = dir.File("sqlite.db");
        var cpu = Process.GetCurrentProcess().TotalProcessorTime;
        var sw = Stopwatch.StartNew();
        using (var conn = GraphFixture.Open(sqlitePath))
        {
            GraphFixture.Exec(conn, GraphSchema.DefaultLayoutSql);
            using var tx = conn.BeginTransaction();
            using var node = conn.CreateCommand();
            node.CommandText = "INSERT INTO _concepts(key, kind) VALUES ($k, $kind)";
            var k = node.Parameters.Add("$k", Microsoft.Data.Sqlite.SqliteType.Integer);
            var nk = node.Parameters.Add("$kind", Microsoft.Data.Sqlite.SqliteType.Text);
            node.Prepare();
            foreach (var n in nodes)
            {
                k.Value = n.Key.Int64;
                nk.Value = n.Kind;
                node.ExecuteNonQuery();
            }
            using var edge = conn.CreateCommand();
            edge.CommandText = "INSERT INTO _relations(source_key, target_key, kind, weight) VALUES ($s, $t, $kind, $w)";
            var s = edge.Parameters.Add("$s", Microsoft.Data.Sqlite.SqliteType.Integer);
            var t = edge.Parameters.Add("$t", Microsoft.Data.Sqlite.SqliteType.Integer);
            var ek = edge.Parameters.Add("$kind", Microsoft.Data.Sqlite.SqliteType.Text);
            var wt = edge.Parameters.Add("$w", Microsoft.Data.Sqlite.SqliteType.Real);
            edge.Prepare();
            foreach (var e in edges)
            {
                s.Value = e.Source.Int64;
                t.Value = e.Target.Int64;
                ek.Value = e.Kind;
                wt.Value = e.Weight;
                edge.ExecuteNonQuery();
            }
            tx.Commit();
        }
        var sqlite = (sw.Elapsed, Process.GetCurrentProcess().TotalProcessorTime - cpu);
        output.WriteLine($"bulk load {NodeCount:N0} nodes + {EdgeCount:N0} edges, one transaction: Sharc GraphWriter.BulkLoad {sharc.Wall.TotalSeconds:F1} s " +
                         $"(CPU {sharc.Cpu.TotalSeconds:F1} s, {new FileInfo(sharcPath).Length >> 20} MB); with rebuildIndexes {rebuilt.Wall.TotalSeconds:F1} s " +
                         $"(CPU {rebuilt.Cpu.TotalSeconds:F1} s, {new FileInfo(rebuiltPath).Length >> 20} MB); SQLite prepared inserts (input order) " +
                         $"{sqlite.Item1.TotalSeconds:F1} s (CPU {sqlite.Item2.TotalSeconds:F1} s, {new FileInfo(sqlitePath).Length >> 20} MB)");
        var expected = WriterFixture.Rows(sqlitePath, "SELECT count(*), sum(source_key), sum(target_key) FROM _relations")[0];
        WriterFixture.Rows(sharcPath, "SELECT count(*), sum(source_key), sum(target_key) FROM _relations")[0].Should().Equal(expected);
        WriterFixture.Rows(rebuiltPath, "SELECT count(*), sum(source_key), sum(target_key) FROM _relations")[0].Should().Equal(expected);
    }
}
