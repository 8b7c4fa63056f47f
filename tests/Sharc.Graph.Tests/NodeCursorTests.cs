namespace Sharc.Graph.Tests;

public class NodeCursorTests
{
    [Fact]
    public void FindsNodesByIntegerKeyThroughTheUniqueIndex()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed: 1, graphs: 20, maxNodes: 30, edgesPerNode: 1);
        using var db = SharcDatabase.Open(path);
        using var nodes = new SharcGraph(db).PrepareNodeLookup();
        foreach (long key in g.Nodes)
        {
            nodes.TrySeek(key).Should().BeTrue();
            nodes.Kind.Should().Be(key % 1000 % 2 == 0 ? "person" : "paper");
        }
        nodes.TrySeek(-5).Should().BeFalse();
        nodes.TrySeek(999_999).Should().BeFalse();
        var read = () => nodes.Kind;
        read.Should().Throw<InvalidOperationException>();
    }

    [Fact]
    public void FindsNodesByTextKeyInWithoutRowIdTable()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        db.Execute("CREATE TABLE n(name TEXT PRIMARY KEY, label TEXT) WITHOUT ROWID; CREATE TABLE e(a TEXT, b TEXT); CREATE INDEX e_a ON e(a); CREATE INDEX e_b ON e(b);" +
                   "INSERT INTO n VALUES ('ada', 'person'), ('bob', NULL)");
        using var nodes = new SharcGraph(db, new GraphSchema("n", "name", "e", "a", "b") { NodeKind = "label" }).PrepareNodeLookup();
        nodes.TrySeek("ada").Should().BeTrue();
        nodes.Kind.Should().Be("person");
        nodes.TrySeek("bob"u8).Should().BeTrue();
        nodes.Kind.Should().BeNull();
        nodes.TrySeek("carl").Should().BeFalse();
    }

    [Fact]
    public void LookupByKeyAllocatesNothingAfterWarmUp()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed: 2, graphs: 50, maxNodes: 40, edgesPerNode: 1);
        using var db = SharcDatabase.Open(path);
        using var nodes = new SharcGraph(db).PrepareNodeLookup();
        int i = 0, found = 0;
        long allocated = GraphFixture.Measure(() =>
        {
            if (nodes.TrySeek(g.Nodes[i++ % g.Nodes.Count]) && nodes.KindUtf8.Length > 0) found++;
        }, 500);
        allocated.Should().Be(0);
        found.Should().BeGreaterThan(0);
    }

    [Fact]
    public void RowIdComesFromTheIndexAndTheRowIsReadForTheKindOfTheLastSeek()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        var g = GraphFixture.BuildRandom(path, seed: 3, graphs: 10, maxNodes: 30, edgesPerNode: 1);
        var expected = new Dictionary<long, (long Id, string? Kind)>();
        using (var conn = GraphFixture.Open(path))
        using (var cmd = conn.CreateCommand())
        {
            cmd.CommandText = "SELECT key, id, kind FROM _concepts";
            using var r = cmd.ExecuteReader();
            while (r.Read()) expected[r.GetInt64(0)] = (r.GetInt64(1), r.IsDBNull(2) ? null : r.GetString(2));
        }
        using var db = SharcDatabase.Open(path);
        using var nodes = new SharcGraph(db).PrepareNodeLookup();
        long previous = g.Nodes[0];
        foreach (long key in g.Nodes)
        {
            // Seek two nodes, read the second's fields: the row read must follow the latest seek.
            nodes.TrySeek(previous).Should().BeTrue();
            nodes.TrySeek(key).Should().BeTrue();
            nodes.RowId.Should().Be(expected[key].Id);
            nodes.Kind.Should().Be(expected[key].Kind);
            nodes.RowId.Should().Be(expected[key].Id);
            previous = key;
        }
    }
}
