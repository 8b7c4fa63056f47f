using System.Globalization;

namespace Sharc.Tests.Cli.Graph;

/// <summary><c>sharc graph pagerank</c> and <c>components</c> against plain references over the edges SQLite reads.</summary>
public sealed class GraphAnalyticsVerbTests : IDisposable
{
    private readonly CliFixture _fx = new();

    public void Dispose() => _fx.Dispose();

    /// <summary>Node keys as the graph sees them: the node table's keys and every edge end, ascending.</summary>
    private static List<long> Keys(string db)
        => CliFixture.Query(db, "SELECT key FROM _concepts UNION SELECT source_key FROM _relations UNION SELECT target_key FROM _relations ORDER BY 1")
            .Select(r => (long)r[0]!).ToList();

    [Theory]
    [InlineData(null, 0.85)]
    [InlineData("knows", 0.5)]
    public void Pagerank_prints_every_node_in_key_order_with_the_power_iteration_rank(string? kind, double damping)
    {
        string db = GraphCliData.BuildRandom(_fx, "g.db", seed: 31, nodes: 60, edges: 150);
        var keys = Keys(db);
        var edges = GraphCliData.Edges(db).Where(e => kind is null || e.Kind == kind).ToList();
        var index = keys.Select((k, i) => (k, i)).ToDictionary(x => x.k, x => x.i);
        int n = keys.Count;
        // The reference: each edge row moves rank along it; a node without out edges spreads its rank evenly.
        var rank = Enumerable.Repeat(1.0 / n, n).ToArray();
        var outDegree = new int[n];
        foreach (var e in edges) outDegree[index[e.Source]]++;
        for (int iteration = 0; iteration < 200; iteration++)
        {
            double dangling = Enumerable.Range(0, n).Where(i => outDegree[i] == 0).Sum(i => rank[i]);
            var next = Enumerable.Repeat((1 - damping) / n + damping * dangling / n, n).ToArray();
            foreach (var e in edges) next[index[e.Target]] += damping * rank[index[e.Source]] / outDegree[index[e.Source]];
            rank = next;
        }
        string[] args = ["graph", "pagerank", db, "--damping", damping.ToString(CultureInfo.InvariantCulture), "--tolerance", "0", "--iterations", "200",
                         .. kind is null ? Array.Empty<string>() : ["--kind", kind]];

        var result = CliFixture.Run(args);

        result.ExitCode.Should().Be(0, result.Stderr);
        var rows = CliFixture.ParseJsonl(result.Stdout);
        rows.Select(r => (long)r[0]!).Should().Equal(keys);
        for (int i = 0; i < n; i++) ((double)rows[i][1]!).Should().BeApproximately(rank[i], 1e-9);
    }

    [Fact]
    public void Components_number_weakly_connected_parts_in_order_of_their_smallest_key()
    {
        string db = GraphCliData.BuildRandom(_fx, "g.db", seed: 37, nodes: 200, edges: 120);
        var keys = Keys(db);
        var parent = keys.ToDictionary(k => k, k => k);
        long Find(long k) => parent[k] == k ? k : parent[k] = Find(parent[k]);
        foreach (var e in GraphCliData.Edges(db)) parent[Find(e.Source)] = Find(e.Target);
        var numbers = new Dictionary<long, int>();
        var expected = keys.Select(k => (object?[])[k, (long)(numbers.TryGetValue(Find(k), out int c) ? c : numbers[Find(k)] = numbers.Count)]).ToList();

        var result = CliFixture.Run("graph", "components", db);

        result.ExitCode.Should().Be(0, result.Stderr);
        numbers.Count.Should().BeGreaterThan(1, "the sparse random graph has several parts");
        CliFixture.ShouldMatch(CliFixture.ParseJsonl(result.Stdout), expected);
    }

    [Theory]
    [InlineData("--damping", "1.5")]
    [InlineData("--damping", "x")]
    [InlineData("--iterations", "0")]
    public void Pagerank_refuses_options_out_of_range_as_usage_errors(string option, string value)
    {
        string db = GraphCliData.BuildRandom(_fx, "g.db", seed: 1, nodes: 5, edges: 5);

        var result = CliFixture.Run("graph", "pagerank", db, option, value);

        result.ExitCode.Should().Be(2);
        result.Stderr.Should().StartWith("sharc: error: graph pagerank: ").And.Contain(option.TrimStart('-'));
    }
}
