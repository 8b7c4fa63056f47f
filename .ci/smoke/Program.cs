using Sharc;
using Sharc.Data;
using Sharc.Graph;

// Writes a database through the core API, reads it through ADO.NET and walks it as a graph: what a new user tries first.
string path = Path.Combine(Path.GetTempPath(), $"sharc-smoke-{Environment.ProcessId}.db");
File.Delete(path);
using (var db = SharcDatabase.Create(path))
{
    GraphSchema.CreateDefault(db);
    db.Execute("INSERT INTO _concepts(key, kind) VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    db.Execute("INSERT INTO _relations(source_key, target_key, kind) VALUES (1, 2, 'x'), (2, 3, 'x')");
    var graph = new SharcGraph(db);
    using var paths = graph.PrepareShortestPath();
    if (!paths.TryFindFewestHops(1, 3) || paths.NodeCount != 3) throw new Exception("graph: no 3-node path from 1 to 3");
}
using (var connection = new SharcConnection($"Data Source={path}"))
{
    connection.Open();
    using var command = connection.CreateCommand();
    command.CommandText = "SELECT count(*) FROM _relations WHERE kind = $kind";
    command.Parameters.AddWithValue("$kind", "x");
    long edges = (long)command.ExecuteScalar()!;
    if (edges != 2) throw new Exception($"ado.net: expected 2 edges, got {edges}");
}
File.Delete(path);
Console.WriteLine("smoke ok");
