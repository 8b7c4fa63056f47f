namespace Sharc.Graph.Tests;

/// <summary>Table layouts the snapshot is loaded from: each reaches the node keys and edge fields another way.</summary>
public enum SnapshotLayout
{
    /// <summary>The default layout: node keys through a UNIQUE index, covering edge indexes, NOT NULL ends.</summary>
    Default,
    /// <summary>Node key = rowid; covering edge indexes; edges with NULL, text and real ends besides.</summary>
    RowIdKey,
    /// <summary>Edge indexes on (source) and (target) alone: target and kind come from the edge rows; odd node keys besides.</summary>
    NarrowIndexes,
    /// <summary>TEXT keys, the node table WITHOUT ROWID; edges with NULL and BLOB ends besides.</summary>
    TextWithoutRowId,
    /// <summary>TEXT keys through a UNIQUE index; edge indexes without the kind (a kind filter reads rows).</summary>
    TextIndexed,
}

/// <summary>
/// A random graph's shape. Keys are distinct random integers (text layouts store "n" + the integer, so text order
/// differs from numeric order); some keys have a node row, some node rows have no edges, and some edges are junk
/// (an end NULL or of another type) that must be ignored.
/// </summary>
public sealed record GraphSpec(int Nodes, int Edges, int Seed)
{
    public double NodeRowShare { get; init; } = 0.7;
    public int IsolatedRows { get; init; } = 3;
    public double SelfLoops { get; init; } = 0.05;
    public double Parallel { get; init; } = 0.1;
    /// <summary>Extra nodes joined one after another in a path.</summary>
    public int Chain { get; init; }
    /// <summary>Edges only go forward in a random order of the nodes, so there is no cycle.</summary>
    public bool Acyclic { get; init; }
    public int Junk { get; init; } = 4;
    /// <summary>Keys 0…N−1 (shuffled) instead of spread over two million values.</summary>
    public bool DenseKeys { get; init; }

    public override string ToString() => $"{Nodes}n/{Edges}e seed {Seed}{(Chain > 0 ? $" chain {Chain}" : "")}{(Acyclic ? " acyclic" : "")}{(DenseKeys ? " dense" : "")}";
}

public static class SnapshotFixture
{
    public static readonly string?[] Kinds = ["knows", "cites", null];

    public static bool IsText(SnapshotLayout layout) => layout is SnapshotLayout.TextWithoutRowId or SnapshotLayout.TextIndexed;

    public static GraphSchema Schema(SnapshotLayout layout)
        => layout == SnapshotLayout.Default ? GraphSchema.Default : new GraphSchema("n", "k", "e", "s", "t") { EdgeKind = "kind" };

    private static string Ddl(SnapshotLayout layout) => layout switch
    {
        SnapshotLayout.Default => GraphSchema.DefaultLayoutSql,
        SnapshotLayout.RowIdKey => "CREATE TABLE n(k INTEGER PRIMARY KEY, kind TEXT); CREATE TABLE e(s INTEGER, t INTEGER, kind TEXT);" +
                                   "CREATE INDEX e_s ON e(s, kind, t); CREATE INDEX e_t ON e(t, kind, s);",
        SnapshotLayout.NarrowIndexes => "CREATE TABLE n(k INTEGER UNIQUE, kind TEXT); CREATE TABLE e(s INTEGER, t INTEGER, kind TEXT);" +
                                        "CREATE INDEX e_s ON e(s); CREATE INDEX e_t ON e(t);",
        SnapshotLayout.TextWithoutRowId => "CREATE TABLE n(k TEXT PRIMARY KEY, kind TEXT) WITHOUT ROWID; CREATE TABLE e(s TEXT, t TEXT, kind TEXT);" +
                                           "CREATE INDEX e_s ON e(s, kind, t); CREATE INDEX e_t ON e(t, kind, s);",
        _ => "CREATE TABLE n(id INTEGER PRIMARY KEY, k TEXT UNIQUE); CREATE TABLE e(s TEXT, t TEXT, kind TEXT);" +
             "CREATE INDEX e_s ON e(s, t); CREATE INDEX e_t ON e(t, s);",
    };

    /// <summary>The key a test's reference uses for a snapshot node (the integer behind a text key's "n").</summary>
    public static long RefKey(GraphSnapshot snapshot, int node)
        => snapshot.KeyType == GraphKeyType.Text ? long.Parse(snapshot.GetKeyString(node)[1..], System.Globalization.CultureInfo.InvariantCulture) : snapshot.GetKeyInt64(node);

    /// <summary>Writes a random graph of <paramref name="spec"/>'s shape with SQLite and returns it (junk edges left out).</summary>
    public static RefGraph Build(string path, SnapshotLayout layout, GraphSpec spec)
    {
        var rng = new Random(spec.Seed);
        bool text = IsText(layout);
        var keys = new HashSet<long>();
        var order = new List<long>();
        int total = spec.Nodes + spec.Chain + spec.IsolatedRows;
        while (order.Count < total)
        {
            // Dense keys are shuffled below, so that edges still join random keys.
            long k = spec.DenseKeys ? order.Count : rng.NextInt64(-1_000_000, 1_000_000);
            if (keys.Add(k)) order.Add(k);
        }
        if (spec.DenseKeys) rng.Shuffle(System.Runtime.InteropServices.CollectionsMarshal.AsSpan(order));
        var g = new RefGraph();
        var edges = new List<(object? S, object? T, string? Kind)>();
        long id = 1;
        void AddEdge(long s, long t, string? kind)
        {
            g.Add(new Edge(id++, s, t, kind, 1));
            edges.Add((Stored(s), Stored(t), kind));
        }
        object Stored(long k) => text ? "n" + k : k;

        // Acyclic graphs draw edges forward in the (random) order of `order`; others anywhere.
        int n = spec.Nodes;
        for (int j = 0; j < spec.Edges && n > 0; j++)
        {
            string? kind = Kinds[rng.Next(Kinds.Length)];
            int a = rng.Next(n), b = rng.Next(n);
            if (spec.Acyclic)
            {
                if (a == b) continue;
                if (a > b) (a, b) = (b, a);
            }
            else if (rng.NextDouble() < spec.SelfLoops) b = a;
            AddEdge(order[a], order[b], kind);
            if (rng.NextDouble() < spec.Parallel) AddEdge(order[a], order[b], kind);
        }
        for (int c = 0; c < spec.Chain; c++)
        {
            if (c == 0 && n == 0) continue;
            long from = c == 0 ? order[rng.Next(n)] : order[n + c - 1];
            AddEdge(from, order[n + c], Kinds[0]);
        }
        for (int i = 0; i < spec.Nodes + spec.Chain; i++)
            if (rng.NextDouble() < spec.NodeRowShare) g.Nodes.Add(order[i]);
        for (int i = spec.Nodes + spec.Chain; i < total; i++) g.Nodes.Add(order[i]);

        if (layout != SnapshotLayout.Default && spec.Junk > 0)
        {
            // Ends that name no node: NULL, or a value of another type than the keys. The other end may be a real key.
            object?[] odd = text ? [null, new byte[] { 0x6e, 0x31 }] : [null, "abc", 2.5, "n" + order.FirstOrDefault()];
            for (int j = 0; j < spec.Junk; j++)
            {
                object? good = n > 0 ? Stored(order[rng.Next(n)]) : null;
                object? bad = odd[rng.Next(odd.Length)];
                edges.Add(rng.Next(2) == 0 ? (good, bad, Kinds[0]) : (bad, good, Kinds[0]));
            }
        }

        using var conn = GraphFixture.Open(path);
        GraphFixture.Exec(conn, Ddl(layout));
        using var tx = conn.BeginTransaction();
        string nodeTable = layout == SnapshotLayout.Default ? "_concepts(key)" : "n(k)";
        string edgeTable = layout == SnapshotLayout.Default ? "_relations(source_key, target_key, kind)" : "e(s, t, kind)";
        using var nodeInsert = GraphFixture.Command(conn, tx, $"INSERT INTO {nodeTable} VALUES ($k)", "$k");
        using var edgeInsert = GraphFixture.Command(conn, tx, $"INSERT INTO {edgeTable} VALUES ($s, $t, $kind)", "$s", "$t", "$kind");
        foreach (long k in g.Nodes) GraphFixture.Run(nodeInsert, Stored(k));
        if (layout == SnapshotLayout.NarrowIndexes)
            foreach (object? odd in new object?[] { null, null, "zz", 1.5 }) GraphFixture.Run(nodeInsert, odd);
        // Edge rows in random order, so index order and rowid order differ.
        foreach (var (s, t, kind) in edges.OrderBy(_ => rng.Next())) GraphFixture.Run(edgeInsert, s, t, kind);
        tx.Commit();
        return g;
    }

    /// <summary>Builds <paramref name="spec"/> in a file of <paramref name="dir"/> and loads its snapshot (of <paramref name="kind"/>).</summary>
    public static (RefGraph Graph, GraphSnapshot Snapshot) Load(TempDir dir, SnapshotLayout layout, GraphSpec spec, string? kind = null)
    {
        string path = dir.File($"g{Guid.NewGuid():N}.db");
        var g = Build(path, layout, spec);
        using var db = SharcDatabase.Open(path);
        return (g, new SharcGraph(db, Schema(layout)).LoadSnapshot(kind));
    }

    /// <summary>A default-layout graph written by Sharc with <paramref name="sql"/>, in a new file of <paramref name="dir"/>, as a snapshot.</summary>
    public static GraphSnapshot FromDefaultLayout(TempDir dir, string sql)
    {
        using var db = SharcDatabase.Create(dir.File($"d{Guid.NewGuid():N}.db"));
        GraphSchema.CreateDefault(db);
        if (sql.Length > 0) db.Execute(sql);
        return new SharcGraph(db).LoadSnapshot();
    }

    /// <summary>The multigraph whose PageRank and degree centrality were computed with NetworkX 3.6.1 (nodes 0…5).</summary>
    public const string NetworkXSample = "INSERT INTO _concepts(key) VALUES (0), (1), (2), (3), (4), (5);" +
        "INSERT INTO _relations(source_key, target_key) VALUES (0, 1), (0, 1), (1, 2), (2, 0), (2, 2), (3, 2), (4, 5)";

    public static IEnumerable<GraphSpec> Shapes()
    {
        yield return new GraphSpec(0, 0, 1) { IsolatedRows = 0 };
        yield return new GraphSpec(0, 0, 2) { IsolatedRows = 1 };
        yield return new GraphSpec(1, 3, 3) { SelfLoops = 1, NodeRowShare = 0 };
        yield return new GraphSpec(20, 80, 4) { SelfLoops = 0.2, Parallel = 0.3 };
        yield return new GraphSpec(200, 150, 5);
        yield return new GraphSpec(60, 200, 6) { Acyclic = true, Parallel = 0.3 };
        yield return new GraphSpec(10, 20, 7) { Chain = 1500 };
        yield return new GraphSpec(3000, 9000, 8);
        yield return new GraphSpec(800, 2400, 10) { DenseKeys = true, Parallel = 0.2 };
        yield return new GraphSpec(2000, 5000, 9) { Acyclic = true, Chain = 300 };
    }

    public static IEnumerable<object?[]> ShapesAndLayouts()
    {
        var layouts = Enum.GetValues<SnapshotLayout>();
        int i = 0;
        foreach (var spec in Shapes())
            foreach (var layout in layouts)
                // Every shape in every layout, with the kind filter on every other case.
                yield return [spec, layout, i++ % 2 == 0 ? null : "knows"];
    }
}
