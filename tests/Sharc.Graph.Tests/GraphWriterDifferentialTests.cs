namespace Sharc.Graph.Tests;

public class GraphWriterDifferentialTests
{
    private const string NodesSql = "SELECT key, kind, data FROM _concepts ORDER BY key";
    private const string EdgesSql = "SELECT id, source_key, target_key, kind, weight, data FROM _relations ORDER BY id";
    private static readonly string?[] Kinds = ["a", "b", null];

    [Theory]
    [InlineData(1, false)]
    [InlineData(2, true)]
    [InlineData(3, false)]
    [InlineData(4, true)]
    public void RandomOperationsLeaveTheRowsOfAPlainModel(int seed, bool text)
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var rng = new Random(seed);
        var model = new WriteModel();
        int keys = 40;
        GraphKey KeyAt(int i) => text ? new GraphKey("n" + i.ToString("D3", System.Globalization.CultureInfo.InvariantCulture)) : new GraphKey(i);
        using (var db = SharcDatabase.Create(path))
        {
            db.Execute(text ? GraphWriterTests.TextLayoutSql : GraphSchema.DefaultLayoutSql);
            using var w = new SharcGraph(db).CreateWriter();
            for (int step = 0; step < 1500; step++)
            {
                // Now and then a batch in the caller's transaction, committed or rolled back.
                SharcTransaction? tx = rng.Next(40) == 0 ? db.BeginTransaction() : null;
                var saved = Snapshot(model);
                int ops = tx is null ? 1 : rng.Next(1, 30);
                for (int o = 0; o < ops; o++) Step(w, model, rng, KeyAt(rng.Next(keys)), KeyAt(rng.Next(keys)));
                if (tx is null) continue;
                if (rng.Next(2) == 0) tx.Commit();
                else
                {
                    tx.Dispose();
                    Restore(model, saved);
                }
            }
        }
        var nodes = model.NodeRows(text);
        WriterFixture.Rows(path, NodesSql).Should().BeEquivalentTo(nodes, o => o.WithStrictOrdering());
        WriterFixture.Rows(path, EdgesSql).Should().BeEquivalentTo(model.EdgeRows(), o => o.WithStrictOrdering());
    }

    private static void Step(GraphWriter w, WriteModel model, Random rng, GraphKey a, GraphKey b)
    {
        string? kind = Kinds[rng.Next(Kinds.Length)];
        string? data = rng.Next(3) == 0 ? "d" + rng.Next(100) : null;
        object source = a.Text ?? (object)a.Int64, target = b.Text ?? (object)b.Int64;
        switch (rng.Next(9))
        {
            case 0:
                if (model.Nodes.ContainsKey(WriteModel.Key(a)))
                    ((Action)(() => w.AddNode(a, kind, data))).Should().Throw<GraphDuplicateNodeException>();
                else
                {
                    w.AddNode(a, kind, data);
                    model.Nodes[WriteModel.Key(a)] = (kind, data);
                }
                break;
            case 1:
                w.UpsertNode(a, kind, data);
                model.Nodes[WriteModel.Key(a)] = (kind, data);
                break;
            case 2:
                bool exists = model.Nodes.ContainsKey(WriteModel.Key(a));
                w.UpdateNode(a, kind, data).Should().Be(exists);
                if (exists) model.Nodes[WriteModel.Key(a)] = (kind, data);
                break;
            case 3:
                w.RemoveNode(a).Should().Be(model.Nodes.ContainsKey(WriteModel.Key(a)));
                model.RemoveNode(a);
                break;
            case 4:
            case 5:
            case 6:
                double weight = Math.Round(rng.NextDouble() * 5, 2);
                long id = w.AddEdge(a, b, kind, weight, data);
                model.Edges.Should().NotContainKey(id);
                model.Edges[id] = (source, target, kind, weight, data);
                break;
            case 7:
                if (model.Edges.Count == 0) break;
                long pick = model.Edges.Keys.ElementAt(rng.Next(model.Edges.Count));
                if (rng.Next(2) == 0)
                {
                    w.RemoveEdge(pick).Should().BeTrue();
                    model.Edges.Remove(pick);
                }
                else
                {
                    w.UpdateEdge(pick, kind, 0.5, data).Should().BeTrue();
                    var e = model.Edges[pick];
                    model.Edges[pick] = (e.Source, e.Target, kind, 0.5, data);
                }
                break;
            default:
                string? only = rng.Next(2) == 0 ? kind : null;
                w.RemoveEdges(a, b, only).Should().Be(model.RemoveEdges(a, b, only));
                break;
        }
    }

    private static (List<KeyValuePair<string, (string?, string?)>>, List<KeyValuePair<long, (object, object, string?, double, string?)>>) Snapshot(WriteModel m)
        => (m.Nodes.ToList(), m.Edges.ToList());

    private static void Restore(WriteModel m, (List<KeyValuePair<string, (string?, string?)>> Nodes, List<KeyValuePair<long, (object, object, string?, double, string?)>> Edges) s)
    {
        m.Nodes.Clear();
        foreach (var (k, v) in s.Nodes) m.Nodes[k] = v;
        m.Edges.Clear();
        foreach (var (k, v) in s.Edges) m.Edges[k] = v;
    }

    [Theory]
    [InlineData(false, false)]
    [InlineData(true, false)]
    [InlineData(false, true)]
    [InlineData(true, true)]
    public void BulkLoadWritesEveryRecordAsSqliteReadsThem(bool text, bool rebuildIndexes)
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var rng = new Random(text ? 11 : 12);
        GraphKey Key(int i) => text ? new GraphKey("k" + i) : new GraphKey(i);
        var nodes = Enumerable.Range(0, 2000).Select(i => new GraphNodeRecord(Key(i), Kinds[i % 3], i % 5 == 0 ? "p" + i : null)).ToList();
        var edges = Enumerable.Range(0, 20_000)
            .Select(i => new GraphEdgeRecord(Key(rng.Next(2100)), Key(rng.Next(2100)), Kinds[i % 3], i % 7, i % 11 == 0 ? "e" + i : null)).ToList();
        using (var db = SharcDatabase.Create(path))
        {
            db.Execute(text ? GraphWriterTests.TextLayoutSql : GraphSchema.DefaultLayoutSql);
            db.Execute("CREATE INDEX extra ON _relations(weight)");
            var graph = new SharcGraph(db);
            using var w = graph.CreateWriter();
            w.AddEdge(Key(0), Key(0), "before");
            w.BulkLoad(nodes, edges, rebuildIndexes).Should().Be(new GraphBulkLoadResult(2000, 20_000));
            // The writer's own lookups carry on over the rebuilt indexes; so does a graph made before.
            w.RemoveEdges(Key(0), Key(0), "before").Should().Be(1);
            using var cursor = graph.PrepareEdges(GraphDirection.Out);
            if (text) cursor.Reset(Key(1).Text!);
            else cursor.Reset(1);
            int count = 0;
            while (cursor.MoveNext()) count++;
            count.Should().Be(edges.Count(e => e.Source == Key(1)));
        }
        WriterFixture.Rows(path, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = '_relations' ORDER BY name").Select(r => r[0])
            .Should().Equal("_relations_in", "_relations_out", "extra");
        object K(GraphKey k) => k.Text ?? (object)k.Int64;
        WriterFixture.Rows(path, "SELECT key, kind, data FROM _concepts ORDER BY id")
            .Should().BeEquivalentTo(nodes.Select(n => new object?[] { K(n.Key), n.Kind, n.Data }), o => o.WithStrictOrdering());
        // Edges are written in source order (stable), so their rowids follow it.
        var expected = edges.Select((e, i) => (e, i)).OrderBy(x => x.e.Source.Text is null ? x.e.Source.Int64.ToString("D10") : x.e.Source.Text, StringComparer.Ordinal)
            .ThenBy(x => x.i).Select(x => new object?[] { K(x.e.Source), K(x.e.Target), x.e.Kind, x.e.Weight, x.e.Data });
        WriterFixture.Rows(path, "SELECT source_key, target_key, kind, weight, data FROM _relations ORDER BY id")
            .Should().BeEquivalentTo(expected, o => o.WithStrictOrdering());
    }

    [Fact]
    public void ABulkLoadWithADuplicateKeyWritesNothing()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        using (var db = WriterFixture.CreateDefault(path))
        {
            using var w = new SharcGraph(db).CreateWriter();
            w.AddNode(1);
            var act = () => w.BulkLoad([new(5), new(6), new(5)], [new(5, 6)]);
            act.Should().Throw<GraphDuplicateNodeException>().Where(e => e.Key == 5);
            var again = () => w.BulkLoad([new(7), new(1)], []);
            again.Should().Throw<GraphDuplicateNodeException>().Where(e => e.Key == 1);
        }
        WriterFixture.Rows(path, "SELECT key FROM _concepts").Select(r => r[0]).Should().Equal(1L);
        WriterFixture.Rows(path, "SELECT count(*) FROM _relations")[0][0].Should().Be(0L);
    }
}
