using System.Globalization;
using System.Text.Json;

namespace Sharc.Tests.Cli.Graph;

public sealed class GraphCommandTests : IDisposable
{
    private readonly CliFixture _fx = new();

    public void Dispose() => _fx.Dispose();

    private static string[] Args(string verb, string db, string[] rest, string direction, string? kind)
        => ["graph", verb, db, .. rest, "--direction", direction, .. kind is null ? Array.Empty<string>() : ["--kind", kind]];

    [Theory]
    [InlineData("out", null)]
    [InlineData("in", "knows")]
    [InlineData("both", null)]
    [InlineData("both", "cites")]
    public void Neighbors_prints_the_edges_SQLite_finds_in_index_order(string direction, string? kind)
    {
        string db = GraphCliData.BuildRandom(_fx, "g.db", seed: 5, nodes: 40, edges: 160);
        for (long key = 0; key < 40; key += 3)
        {
            var result = CliFixture.Run(Args("neighbors", db, [key.ToString(CultureInfo.InvariantCulture)], direction, kind));

            result.ExitCode.Should().Be(0, result.Stderr);
            CliFixture.ShouldMatch(CliFixture.ParseJsonl(result.Stdout), GraphCliData.Neighbors(db, key, direction, kind));
        }
    }

    [Theory]
    [InlineData("out", null, 0, int.MaxValue)]
    [InlineData("in", null, 1, int.MaxValue)]
    [InlineData("both", "knows", 0, 3)]
    [InlineData("out", "cites", 2, 4)]
    public void Bfs_reaches_what_SQLite_reaches_at_the_same_depths_in_breadth_first_order(string direction, string? kind, int minDepth, int maxDepth)
    {
        string db = GraphCliData.BuildRandom(_fx, "g.db", seed: 11, nodes: 120, edges: 200);
        string[] depthArgs = ["--min-depth", minDepth.ToString(CultureInfo.InvariantCulture),
                              .. maxDepth == int.MaxValue ? Array.Empty<string>() : ["--max-depth", maxDepth.ToString(CultureInfo.InvariantCulture)]];
        for (long start = 0; start < 120; start += 13)
        {
            var result = CliFixture.Run([.. Args("bfs", db, [start.ToString(CultureInfo.InvariantCulture)], direction, kind), .. depthArgs]);

            result.ExitCode.Should().Be(0, result.Stderr);
            var rows = CliFixture.ParseJsonl(result.Stdout);
            var got = rows.ToDictionary(r => (long)r[0]!, r => (int)(long)r[1]!);
            got.Should().HaveCount(rows.Count, "each node is printed once");
            got.Should().BeEquivalentTo(GraphCliData.Distances(db, start, direction, kind, maxDepth).Where(kv => kv.Value >= minDepth).ToDictionary());
            rows.Select(r => (long)r[1]!).Should().BeInAscendingOrder();
        }
    }

    [Theory]
    [InlineData("out", null)]
    [InlineData("both", "knows")]
    [InlineData("in", null)]
    public void Path_has_as_many_hops_as_SQLite_distance_and_follows_real_edges(string direction, string? kind)
    {
        string db = GraphCliData.BuildRandom(_fx, "g.db", seed: 17, nodes: 80, edges: 240);
        var edges = GraphCliData.Edges(db);
        var rng = new Random(3);
        int found = 0;
        for (int i = 0; i < 40; i++)
        {
            long from = rng.Next(80), to = rng.Next(80);
            var result = CliFixture.Run(Args("path", db, [from.ToString(CultureInfo.InvariantCulture), to.ToString(CultureInfo.InvariantCulture)], direction, kind));

            result.ExitCode.Should().Be(0, result.Stderr);
            result.Lines.Should().HaveCount(1);
            var expected = GraphCliData.Distances(db, from, direction, kind);
            var path = GraphCliData.ParsePath(result.Lines[0]);
            if (!expected.TryGetValue(to, out int hops))
            {
                path.Should().BeNull();
                continue;
            }
            found++;
            path.Should().NotBeNull();
            var (length, keys) = path!.Value;
            length.GetRawText().Should().Be(hops.ToString(CultureInfo.InvariantCulture), "hops are an integer");
            keys.Select(k => k.GetInt64()).Should().HaveCount(hops + 1).And.StartWith(from).And.EndWith(to);
            for (int h = 0; h < hops; h++)
                HasEdge(edges, keys[h].GetInt64(), keys[h + 1].GetInt64(), direction, kind).Should().BeTrue($"{keys[h]} → {keys[h + 1]} is an edge");
        }
        found.Should().BeGreaterThan(3, "the test must see some paths");
    }

    [Theory]
    [InlineData("out", null)]
    [InlineData("both", null)]
    [InlineData("out", "cites")]
    public void Weighted_path_has_the_least_total_weight(string direction, string? kind)
    {
        string db = GraphCliData.BuildRandom(_fx, "g.db", seed: 23, nodes: 60, edges: 150);
        var edges = GraphCliData.Edges(db);
        var rng = new Random(4);
        for (int i = 0; i < 20; i++)
        {
            long from = rng.Next(60), to = rng.Next(60);
            var result = CliFixture.Run([.. Args("path", db, [from.ToString(CultureInfo.InvariantCulture), to.ToString(CultureInfo.InvariantCulture)], direction, kind), "--weighted"]);

            result.ExitCode.Should().Be(0, result.Stderr);
            double? expected = GraphCliData.LeastWeight(edges, from, to, direction, kind);
            var path = GraphCliData.ParsePath(result.Lines.Single());
            if (expected is null)
            {
                path.Should().BeNull();
                continue;
            }
            var (length, keys) = path!.Value;
            length.GetRawText().Should().MatchRegex("[.eE]", "a weight is a real");
            length.GetDouble().Should().BeApproximately(expected.Value, 1e-9);
            double walked = 0;
            for (int h = 0; h + 1 < keys.Count; h++)
                walked += edges.Where(e => Matches(e, keys[h].GetInt64(), keys[h + 1].GetInt64(), direction, kind)).Min(e => e.Weight);
            walked.Should().BeApproximately(expected.Value, 1e-9, "the path printed is the one weighed");
        }
    }

    private static bool Matches((long Source, long Target, string? Kind, double Weight) e, long a, long b, string direction, string? kind)
        => (kind is null || e.Kind == kind)
           && ((direction != "in" && e.Source == a && e.Target == b) || (direction != "out" && e.Target == a && e.Source == b));

    private static bool HasEdge(List<(long Source, long Target, string? Kind, double Weight)> edges, long a, long b, string direction, string? kind)
        => edges.Any(e => Matches(e, a, b, direction, kind));

    [Fact]
    public void Stats_match_SQLite_counts_over_node_rows_and_edge_ends()
    {
        string db = GraphCliData.BuildRandom(_fx, "g.db", seed: 29, nodes: 300, edges: 700);
        // Keys 1000+ exist only as edge ends; a node row without edges has degree 0.
        using (var c = CliFixture.Connect(db))
            CliFixture.Exec(c, "INSERT INTO _relations(source_key, target_key) VALUES (1000, 1001), (1001, 1001); INSERT INTO _concepts(key) VALUES (5000)");
        var expected = CliFixture.Query(db,
            "WITH keys(k) AS (SELECT key FROM _concepts UNION SELECT source_key FROM _relations UNION SELECT target_key FROM _relations), " +
            "deg AS (SELECT (SELECT count(*) FROM _relations WHERE source_key = k) o, (SELECT count(*) FROM _relations WHERE target_key = k) i FROM keys) " +
            "SELECT count(*), (SELECT count(*) FROM _relations), min(o), max(o), avg(o), min(i), max(i), avg(i) FROM deg").Single();

        var result = CliFixture.Run("graph", "stats", db);

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Lines.Should().HaveCount(1);
        using var doc = JsonDocument.Parse(result.Lines[0]);
        var root = doc.RootElement;
        object?[] got =
        [
            root.GetProperty("nodes").GetInt64(), root.GetProperty("edges").GetInt64(),
            root.GetProperty("out_degree").GetProperty("min").GetInt64(), root.GetProperty("out_degree").GetProperty("max").GetInt64(),
            root.GetProperty("out_degree").GetProperty("mean").GetDouble(),
            root.GetProperty("in_degree").GetProperty("min").GetInt64(), root.GetProperty("in_degree").GetProperty("max").GetInt64(),
            root.GetProperty("in_degree").GetProperty("mean").GetDouble(),
        ];
        CliFixture.ShouldMatch([got], [expected]);
    }

    [Fact]
    public void Output_is_compact_json_with_keys_and_values_as_stored()
    {
        string db = _fx.CreateDb("small.db", GraphCliData.DefaultLayout,
            "INSERT INTO _concepts(key) VALUES (1), (2), (3), (4)",
            "INSERT INTO _relations(source_key, target_key, kind, weight) VALUES (1, 2, 'knows', 1.5), (2, 3, NULL, 2), (1, 3, 'cites', 10), (3, 3, 'knows', 0.25)",
            // An integer graph's edge may still store text: neighbors prints it as stored, traversals do not follow it.
            "INSERT INTO _relations(source_key, target_key, kind) VALUES (1, 'abc', 'odd')");

        CliFixture.Run("graph", "neighbors", db, "1").Stdout.Should().Be("[3,\"cites\",10.0]\n[2,\"knows\",1.5]\n[\"abc\",\"odd\",1.0]\n");
        CliFixture.Run("graph", "neighbors", db, "3", "--direction", "both").Stdout
            .Should().Be("[3,\"knows\",0.25]\n[2,null,2.0]\n[1,\"cites\",10.0]\n[3,\"knows\",0.25]\n");
        CliFixture.Run("graph", "neighbors", db, "4").Stdout.Should().BeEmpty();
        CliFixture.Run("graph", "bfs", db, "1").Stdout.Should().Be("[1,0]\n[3,1]\n[2,1]\n");
        CliFixture.Run("graph", "bfs", db, "1", "--min-depth", "1", "--kind", "knows").Stdout.Should().Be("[2,1]\n");
        CliFixture.Run("graph", "path", db, "1", "3").Stdout.Should().Be("{\"length\":1,\"path\":[1,3]}\n");
        CliFixture.Run("graph", "path", db, "1", "3", "--weighted").Stdout.Should().Be("{\"length\":3.5,\"path\":[1,2,3]}\n");
        CliFixture.Run("graph", "path", db, "2", "2").Stdout.Should().Be("{\"length\":0,\"path\":[2]}\n");
        CliFixture.Run("graph", "path", db, "3", "1").Stdout.Should().Be("null\n");
        CliFixture.Run("graph", "stats", db).Stdout.Should().Be(
            "{\"nodes\":4,\"edges\":5,\"out_degree\":{\"min\":0,\"max\":3,\"mean\":1.25},\"in_degree\":{\"min\":0,\"max\":3,\"mean\":1.0}}\n");
    }

    [Fact]
    public void Text_keyed_tables_are_mapped_with_the_mapping_options()
    {
        string db = _fx.CreateDb("people.db",
            "CREATE TABLE people(handle TEXT PRIMARY KEY, name TEXT) WITHOUT ROWID",
            "CREATE TABLE follows(follower TEXT NOT NULL, followee TEXT NOT NULL, via TEXT, strength REAL)",
            "CREATE INDEX follows_out ON follows(follower, via, followee)",
            "CREATE INDEX follows_in ON follows(followee, via, follower)",
            "INSERT INTO people VALUES ('ada', 'Ada'), ('bo\"b', 'Bob'), ('zoë', 'Zoe'), ('7', 'Seven')",
            "INSERT INTO follows VALUES ('ada', 'bo\"b', 'web', 2), ('bo\"b', 'zoë', 'web', NULL), ('ada', '7', 'mail', 5), ('7', 'zoë', 'mail', 0.5)");
        string[] mapping = ["--nodes", "people", "--node-key", "handle", "--edges", "follows", "--edge-source", "follower",
                            "--edge-target", "followee", "--edge-kind", "via", "--edge-weight", "strength"];

        CliFixture.Run(["graph", "neighbors", db, "ada", .. mapping]).Stdout.Should().Be("[\"7\",\"mail\",5.0]\n[\"bo\\\"b\",\"web\",2.0]\n");
        CliFixture.Run(["graph", "bfs", db, "ada", .. mapping, "--kind", "web"]).Stdout.Should().Be("[\"ada\",0]\n[\"bo\\\"b\",1]\n[\"zoë\",2]\n");
        CliFixture.Run(["graph", "path", db, "ada", "zoë", .. mapping, "--weighted"]).Stdout.Should().Be("{\"length\":3.0,\"path\":[\"ada\",\"bo\\\"b\",\"zoë\"]}\n");
        CliFixture.Run(["graph", "path", db, "zoë", "ada", .. mapping, "--direction", "in", "--kind", "web"]).Stdout.Should().Be("{\"length\":2,\"path\":[\"zoë\",\"bo\\\"b\",\"ada\"]}\n");
        CliFixture.Run(["graph", "stats", db, .. mapping]).Stdout.Should().Be(
            "{\"nodes\":4,\"edges\":4,\"out_degree\":{\"min\":0,\"max\":2,\"mean\":1.0},\"in_degree\":{\"min\":0,\"max\":2,\"mean\":1.0}}\n");
        // "7" is a text key here, not a number.
        CliFixture.Run(["graph", "neighbors", db, "7", .. mapping]).Stdout.Should().Be("[\"zoë\",\"mail\",0.5]\n");
    }
}
