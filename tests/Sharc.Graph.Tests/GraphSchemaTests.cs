namespace Sharc.Graph.Tests;

public class GraphSchemaTests
{
    [Fact]
    public void CreateDefaultMakesTheLayoutAndSqliteFindsTheFileIntact()
    {
        using var dir = new TempDir();
        string path = dir.File("g.db");
        using (var db = SharcDatabase.Create(path))
        {
            GraphSchema.CreateDefault(db).Should().Be(GraphSchema.Default);
            GraphSchema.CreateDefault(db); // a second call finds everything in place
            db.Execute("INSERT INTO _concepts(key, kind) VALUES (1, 'a'), (2, 'b')");
            db.Execute("INSERT INTO _relations(source_key, target_key, kind) VALUES (1, 2, 'x')");
            var graph = new SharcGraph(db);
            graph.KeyType.Should().Be(GraphKeyType.Integer);
            graph.OutIndexName.Should().Be(GraphSchema.DefaultOutIndex);
            graph.InIndexName.Should().Be(GraphSchema.DefaultInIndex);
            using var edges = graph.PrepareEdges(GraphDirection.Out);
            edges.Reset(1);
            edges.MoveNext().Should().BeTrue();
            edges.Weight.Should().Be(1.0, "the default layout's weight defaults to 1.0");
        }
        GraphFixture.IntegrityCheck(path).Should().Be("ok");
    }

    [Theory]
    [InlineData("nodes_missing", "_relations", GraphMappingProblem.UnknownTable)]
    [InlineData("_concepts", "edges_missing", GraphMappingProblem.UnknownTable)]
    public void UnknownTablesAreNamed(string nodes, string edges, GraphMappingProblem problem)
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        GraphSchema.CreateDefault(db);
        var act = () => new SharcGraph(db, GraphSchema.Default with { NodeTable = nodes, EdgeTable = edges });
        act.Should().Throw<GraphMappingException>().Where(e => e.Problem == problem && e.Message.Contains("_missing"));
    }

    [Fact]
    public void UnknownColumnsAreNamed()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        GraphSchema.CreateDefault(db);
        foreach (var schema in new[]
                 {
                     GraphSchema.Default with { NodeKey = "nope" },
                     GraphSchema.Default with { EdgeSource = "nope" },
                     GraphSchema.Default with { EdgeTarget = "nope" },
                     GraphSchema.Default with { EdgeKind = "nope" },
                     GraphSchema.Default with { EdgeWeight = "nope" },
                     GraphSchema.Default with { NodeKind = "nope" },
                 })
        {
            var act = () => new SharcGraph(db, schema);
            act.Should().Throw<GraphMappingException>().Where(e => e.Problem == GraphMappingProblem.UnknownColumn && e.Message.Contains("nope"));
        }
    }

    [Fact]
    public void MissingEdgeIndexesAreRefusedWithTheStatementThatFixesThem()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        db.Execute("CREATE TABLE n(id INTEGER PRIMARY KEY); CREATE TABLE e(a INTEGER, b INTEGER, w REAL); CREATE INDEX e_a ON e(a, b)");
        var mapping = new GraphSchema("n", "id", "e", "a", "b") { EdgeWeight = "w" };
        var act = () => new SharcGraph(db, mapping);
        var error = act.Should().Throw<GraphMappingException>().Which;
        error.Problem.Should().Be(GraphMappingProblem.MissingIndex);
        error.CreateIndexSql.Should().StartWith("CREATE INDEX").And.Contain("(b, a)");
        error.Message.Should().Contain(error.CreateIndexSql!);
        db.Execute(error.CreateIndexSql!);
        new SharcGraph(db, mapping).InIndexName.Should().Be("e_by_target");
    }

    [Fact]
    public void PartialOrCollatedIndexesDoNotCountAsEdgeIndexes()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        db.Execute("CREATE TABLE n(k TEXT PRIMARY KEY); CREATE TABLE e(a TEXT, b TEXT); " +
                   "CREATE INDEX e_a ON e(a) WHERE a IS NOT NULL; CREATE INDEX e_b ON e(b COLLATE NOCASE)");
        var act = () => new SharcGraph(db, new GraphSchema("n", "k", "e", "a", "b"));
        act.Should().Throw<GraphMappingException>().Where(e => e.Problem == GraphMappingProblem.MissingIndex && e.Message.Contains("nor"));
    }

    [Fact]
    public void NodeKeyWithoutIndexIsRefused()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        db.Execute("CREATE TABLE n(k INTEGER); CREATE TABLE e(a INTEGER, b INTEGER); CREATE INDEX e_a ON e(a); CREATE INDEX e_b ON e(b)");
        var act = () => new SharcGraph(db, new GraphSchema("n", "k", "e", "a", "b"));
        act.Should().Throw<GraphMappingException>()
            .Where(e => e.Problem == GraphMappingProblem.MissingIndex && e.CreateIndexSql == "CREATE UNIQUE INDEX n_k ON n(k);");
    }

    [Fact]
    public void KeysMustBeIntegerOrTextAndEdgesMustMatchThem()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        db.Execute("CREATE TABLE n(k REAL UNIQUE, t TEXT UNIQUE); CREATE TABLE e(a INTEGER, b INTEGER); CREATE INDEX e_a ON e(a); CREATE INDEX e_b ON e(b)");
        var real = () => new SharcGraph(db, new GraphSchema("n", "k", "e", "a", "b"));
        real.Should().Throw<GraphMappingException>().Where(e => e.Problem == GraphMappingProblem.KeyType && e.Message.Contains("INTEGER or TEXT"));
        var mixed = () => new SharcGraph(db, new GraphSchema("n", "t", "e", "a", "b"));
        mixed.Should().Throw<GraphMappingException>().Where(e => e.Problem == GraphMappingProblem.KeyType && e.Message.Contains("e.a"));
    }

    [Fact]
    public void WithoutRowIdEdgeTablesAreRefused()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        db.Execute("CREATE TABLE n(k INTEGER PRIMARY KEY); CREATE TABLE e(a INTEGER, b INTEGER, PRIMARY KEY(a, b)) WITHOUT ROWID; CREATE INDEX e_b ON e(b)");
        var act = () => new SharcGraph(db, new GraphSchema("n", "k", "e", "a", "b"));
        act.Should().Throw<GraphMappingException>().Where(e => e.Problem == GraphMappingProblem.UnsupportedTable);
    }

    [Fact]
    public void KindFilterWithoutKindColumnIsRefused()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        db.Execute("CREATE TABLE n(k INTEGER PRIMARY KEY); CREATE TABLE e(a INTEGER, b INTEGER); CREATE INDEX e_a ON e(a); CREATE INDEX e_b ON e(b)");
        var graph = new SharcGraph(db, new GraphSchema("n", "k", "e", "a", "b"));
        var act = () => graph.PrepareEdges(GraphDirection.Out, "x");
        act.Should().Throw<GraphMappingException>().Where(e => e.Problem == GraphMappingProblem.UnknownColumn);
    }

    [Fact]
    public void KeysOfTheWrongTypeAreRefused()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("g.db"));
        GraphSchema.CreateDefault(db);
        var graph = new SharcGraph(db);
        using var edges = graph.PrepareEdges(GraphDirection.Out);
        var act = () => edges.Reset("text");
        act.Should().Throw<GraphKeyTypeException>();
        using var nodes = graph.PrepareNodeLookup();
        var lookup = () => nodes.TrySeek("text");
        lookup.Should().Throw<GraphKeyTypeException>();
    }
}
