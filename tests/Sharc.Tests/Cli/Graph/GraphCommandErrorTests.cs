using Sharc.Graph;

namespace Sharc.Tests.Cli.Graph;

public sealed class GraphCommandErrorTests : IDisposable
{
    private readonly CliFixture _fx = new();

    public void Dispose() => _fx.Dispose();

    private string SmallGraph() => _fx.CreateDb("g.db", GraphCliData.DefaultLayout, "INSERT INTO _relations(source_key, target_key) VALUES (1, 2)");

    private static void ShouldFail(CliResult result, int exitCode, params string[] fragments)
    {
        result.ExitCode.Should().Be(exitCode);
        result.Stdout.Should().BeEmpty();
        result.Stderr.Should().StartWith("sharc: error: ").And.EndWith("\n");
        result.Stderr.TrimEnd('\n').Should().NotContain("\n", "an error is one line");
        foreach (var f in fragments) result.Stderr.Should().Contain(f);
    }

    [Fact]
    public void An_unknown_table_is_a_data_error_naming_it()
    {
        string db = SmallGraph();

        ShouldFail(CliFixture.Run("graph", "bfs", db, "1", "--nodes", "people", "--node-key", "id", "--edges", "_relations",
            "--edge-source", "source_key", "--edge-target", "target_key"), 1, "node table people does not exist");
        ShouldFail(CliFixture.Run("graph", "stats", _fx.CreateDb("empty.db", "CREATE TABLE t(x)")), 1, "_concepts does not exist");
    }

    [Fact]
    public void An_unknown_column_is_a_data_error_naming_it()
    {
        ShouldFail(CliFixture.Run("graph", "neighbors", SmallGraph(), "1", "--nodes", "_concepts", "--node-key", "key", "--edges", "_relations",
            "--edge-source", "src", "--edge-target", "target_key"), 1, "no column src");
    }

    [Fact]
    public void A_missing_edge_index_is_a_data_error_giving_the_create_index_statement()
    {
        string db = _fx.CreateDb("noindex.db",
            "CREATE TABLE n(k INTEGER PRIMARY KEY)",
            "CREATE TABLE e(s INTEGER, t INTEGER, kind TEXT)",
            "CREATE INDEX e_out ON e(s, kind, t)");
        string[] mapping = ["--nodes", "n", "--node-key", "k", "--edges", "e", "--edge-source", "s", "--edge-target", "t", "--edge-kind", "kind"];
        string expectedSql;
        using (var sharc = SharcDatabase.Open(db))
        {
            var act = () => new SharcGraph(sharc, new GraphSchema("n", "k", "e", "s", "t") { EdgeKind = "kind" });
            expectedSql = act.Should().Throw<GraphMappingException>().Which.CreateIndexSql!;
        }
        expectedSql.Should().StartWith("CREATE INDEX");

        var result = CliFixture.Run(["graph", "neighbors", db, "1", .. mapping]);

        ShouldFail(result, 1, expectedSql, "no usable index");
        // The statement printed is the fix: after running it, the same command succeeds.
        using (var c = CliFixture.Connect(db)) CliFixture.Exec(c, expectedSql);
        CliFixture.Run(["graph", "neighbors", db, "1", .. mapping]).ExitCode.Should().Be(0);
    }

    [Fact]
    public void A_key_that_is_not_an_integer_is_a_usage_error_for_an_integer_graph()
    {
        string db = SmallGraph();

        ShouldFail(CliFixture.Run("graph", "bfs", db, "abc"), 2, "<key> 'abc' is not an integer", "_concepts.key");
        ShouldFail(CliFixture.Run("graph", "path", db, "1", "2.5"), 2, "<to> '2.5' is not an integer");
    }

    [Theory]
    [InlineData(new[] { "graph", "pagerank2", "g.db" }, "unknown verb 'pagerank2'")]
    [InlineData(new[] { "graph" }, "missing <verb>")]
    [InlineData(new[] { "graph", "bfs", "g.db", "1", "--depth", "2" }, "unknown option '--depth'")]
    [InlineData(new[] { "graph", "stats", "g.db", "--kind", "x" }, "unknown option '--kind'")]
    [InlineData(new[] { "graph", "bfs", "g.db" }, "missing <key>")]
    [InlineData(new[] { "graph", "path", "g.db", "1" }, "missing <to>")]
    [InlineData(new[] { "graph", "neighbors", "g.db", "1", "2" }, "unexpected argument '2'")]
    [InlineData(new[] { "graph", "bfs", "g.db", "1", "--direction", "up" }, "--direction must be out, in or both")]
    [InlineData(new[] { "graph", "bfs", "g.db", "1", "--max-depth", "-1" }, "--max-depth needs a non-negative integer")]
    [InlineData(new[] { "graph", "bfs", "g.db", "1", "--edges", "e" }, "a mapping also needs --nodes, --node-key, --edge-source, --edge-target")]
    public void A_malformed_command_line_is_a_usage_error(string[] args, string message)
    {
        string db = SmallGraph();

        ShouldFail(CliFixture.Run(args.Select(a => a == "g.db" ? db : a).ToArray()), 2, message);
    }

    [Fact]
    public void A_missing_file_is_a_data_error()
    {
        string path = _fx.PathOf("nope.db");

        ShouldFail(CliFixture.Run("graph", "stats", path), 1, $"{path}: no such file");
        File.Exists(path).Should().BeFalse();
    }

    [Fact]
    public void A_negative_weight_in_a_weighted_path_is_a_data_error_naming_the_edge()
    {
        string db = _fx.CreateDb("neg.db", GraphCliData.DefaultLayout, "INSERT INTO _relations(id, source_key, target_key, weight) VALUES (7, 1, 2, -1)");

        ShouldFail(CliFixture.Run("graph", "path", db, "1", "2", "--weighted"), 1, "edge rowid 7", "-1");
        CliFixture.Run("graph", "path", db, "1", "2").Stdout.Should().Be("{\"length\":1,\"path\":[1,2]}\n", "hops ignore weights");
    }

    [Fact]
    public void Help_lists_the_verbs_and_the_mapping_options()
    {
        var help = CliFixture.Run("graph", "--help");
        help.ExitCode.Should().Be(0);
        foreach (var s in new[] { "sharc graph neighbors <db> <key>", "sharc graph bfs", "sharc graph path", "sharc graph stats", "sharc graph pagerank", "sharc graph components", "--damping", "--edge-source", "--weighted", "--min-depth" })
            help.Stdout.Should().Contain(s);
        CliFixture.Run("help", "graph").Stdout.Should().Be(help.Stdout);
        CliFixture.Run("--help").Stdout.Should().Contain("sharc graph <verb> <db>");
    }
}
