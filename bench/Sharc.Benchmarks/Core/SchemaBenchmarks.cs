using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Core;

/// <summary>
/// Schema read from a cold open: every user table's name and every column name. SQLite: a new unpooled
/// connection and one query joining sqlite_schema with pragma_table_info (SQLite parses the schema on that first
/// statement); a second row uses the default pool, where the schema is already parsed. Sharc: Open (which loads
/// the schema) and a walk of <see cref="SharcSchema.Tables"/>. Internal tables (sqlite_*) are skipped on both sides.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class SchemaBenchmarks
{
    private const string Sql =
        "SELECT m.name, p.name FROM sqlite_schema AS m JOIN pragma_table_info(m.name) AS p " +
        "WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'";

    private string _path = null!;
    private string _unpooled = null!;
    private string _pooled = null!;

    [GlobalSetup]
    public void Setup()
    {
        _path = UsersData.Path(UsersShape.Core);
        _unpooled = Engines.FileConnectionString(_path);
        _pooled = Engines.FileConnectionString(_path, pooling: true);
        Verify.Same("table and column names", ("SqliteSchema", SqliteSchema()), ("SqliteSchemaPooled", SqliteSchemaPooled()), ("SharcSchema", SharcSchema()));
    }

    [GlobalCleanup]
    public void Cleanup() => SqliteConnection.ClearAllPools();

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Schema")]
    public long SqliteSchema() => ReadSchema(_unpooled);

    [Benchmark]
    [BenchmarkCategory("Schema")]
    public long SqliteSchemaPooled() => ReadSchema(_pooled);

    [Benchmark]
    [BenchmarkCategory("Schema")]
    public long SharcSchema()
    {
        using var db = SharcDatabase.Open(_path);
        long sum = 0;
        foreach (var table in db.Schema.Tables)
        {
            if (table.Name.StartsWith("sqlite_", StringComparison.OrdinalIgnoreCase)) continue;
            foreach (var column in table.Columns)
                sum += 1_000_000 + Mix.Of(table.Name) * 1000 + Mix.Of(column.Name);
        }
        return sum;
    }

    private static long ReadSchema(string connectionString)
    {
        using var conn = new SqliteConnection(connectionString);
        conn.Open();
        using var cmd = conn.CreateCommand();
        cmd.CommandText = Sql;
        using var r = cmd.ExecuteReader();
        long sum = 0;
        while (r.Read()) sum += 1_000_000 + Mix.Of(r.GetString(0)) * 1000 + Mix.Of(r.GetString(1));
        return sum;
    }
}
