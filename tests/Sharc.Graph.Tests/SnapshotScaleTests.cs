using System.Diagnostics;
using Xunit.Abstractions;

namespace Sharc.Graph.Tests;

/// <summary>A measurement, not a check of speed: runs only when SHARC_GRAPH_SCALE=1 (it writes a 300 MB file).</summary>
public sealed class ScaleFactAttribute : FactAttribute
{
    public ScaleFactAttribute()
    {
        if (Environment.GetEnvironmentVariable("SHARC_GRAPH_SCALE") != "1")
            Skip = "set SHARC_GRAPH_SCALE=1 to measure snapshot loading on a 1,000,000-node / 5,000,000-edge graph";
    }
}

public class SnapshotScaleTests(ITestOutputHelper output)
{
    private const int Nodes = 1_000_000, Edges = 5_000_000;

    [ScaleFact]
    public void LoadsAMillionNodesAndFiveMillionEdgesAndRunsTwentyPageRankIterations()
    {
        using var dir = new TempDir();
        // Not *.db: the file is written by SQLite alone, and TempDir's integrity_check of 300 MB would only add time.
        string path = dir.File("scale.sqlite");
        var clock = Stopwatch.StartNew();
        Generate(path);
        output.WriteLine($"generated with SQLite in {clock.Elapsed.TotalSeconds:F1} s, {new FileInfo(path).Length / 1e6:F0} MB");

        GC.Collect();
        long heapBefore = GC.GetTotalMemory(true), allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
        GraphSnapshot snapshot;
        TimeSpan load, loadCpu;
        using (var db = SharcDatabase.Open(path))
        {
            var graph = new SharcGraph(db);
            var cpu = CpuTime();
            clock.Restart();
            snapshot = graph.LoadSnapshot();
            load = clock.Elapsed;
            loadCpu = CpuTime() - cpu;
        }
        long allocated = GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore;
        // The database is closed (its page cache gone): what the heap keeps now is the snapshot.
        long retained = GC.GetTotalMemory(true) - heapBefore;
        var pageRankCpu = CpuTime();
        clock.Restart();
        var ranks = snapshot.PageRank(new PageRankOptions { Tolerance = 0, MaxIterations = 20 });
        var pageRank = clock.Elapsed;
        pageRankCpu = CpuTime() - pageRankCpu;

        output.WriteLine($"LoadSnapshot: {load.TotalSeconds:F2} s ({loadCpu.TotalSeconds:F2} s of CPU) for {snapshot.NodeCount:N0} nodes and {snapshot.EdgeCount:N0} edges");
        output.WriteLine($"  arrays {snapshot.MemoryBytes / 1e6:F1} MB; heap kept {retained / 1e6:F1} MB; allocated while loading {allocated / 1e6:F0} MB");
        output.WriteLine($"PageRank, 20 iterations: {pageRank.TotalSeconds:F2} s ({pageRankCpu.TotalSeconds:F2} s of CPU)");
        clock.Restart();
        var components = snapshot.ConnectedComponents();
        output.WriteLine($"ConnectedComponents: {clock.Elapsed.TotalSeconds:F2} s, {components.Count} components");
        clock.Restart();
        snapshot.DegreeCentrality();
        output.WriteLine($"DegreeCentrality: {clock.Elapsed.TotalSeconds:F2} s");
        if (File.Exists("/proc/loadavg")) output.WriteLine($"load average while measuring: {File.ReadAllText("/proc/loadavg").Trim()} ({Environment.ProcessorCount} cores)");

        snapshot.NodeCount.Should().Be(Nodes);
        snapshot.EdgeCount.Should().Be(Edges);
        ranks.Ranks.Sum().Should().BeApproximately(1.0, 1e-9);
    }

    private static TimeSpan CpuTime() => Process.GetCurrentProcess().TotalProcessorTime;

    /// <summary>The default layout, filled by SQLite itself (recursive CTEs, indexes built after the rows) to be quick.</summary>
    private static void Generate(string path)
    {
        using var conn = GraphFixture.Open(path);
        GraphFixture.Exec(conn, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -500000;");
        foreach (string statement in GraphSchema.DefaultLayoutSql.Split('\n').Where(s => s.StartsWith("CREATE TABLE", StringComparison.Ordinal)))
            GraphFixture.Exec(conn, statement);
        GraphFixture.Exec(conn, $"WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < {Nodes - 1}) " +
                                "INSERT INTO _concepts(key, kind) SELECT i, 'node' FROM c");
        GraphFixture.Exec(conn, $"WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < {Edges - 1}) " +
                                $"INSERT INTO _relations(source_key, target_key, kind) SELECT abs(random() % {Nodes}), abs(random() % {Nodes}), " +
                                "CASE abs(random() % 3) WHEN 0 THEN 'knows' WHEN 1 THEN 'cites' END FROM c");
        foreach (string statement in GraphSchema.DefaultLayoutSql.Split('\n').Where(s => s.StartsWith("CREATE INDEX", StringComparison.Ordinal)))
            GraphFixture.Exec(conn, statement);
    }
}
