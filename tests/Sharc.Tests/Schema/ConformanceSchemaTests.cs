using Microsoft.Data.Sqlite;
using Sharc.Schema;
using Sharc.Schema.Parsing;
using Sharc.Tests.Infrastructure;
using ConformanceData = Sharc.Tests.Infrastructure.Conformance;

namespace Sharc.Tests.Schema;

/// <summary>Schema reading over the external conformance material (../shared/conformance), when it is present.</summary>
public class ConformanceSchemaTests
{
    [ConformanceFact]
    public void Every_create_statement_sqllogictest_runs_successfully_parses()
    {
        var statements = new HashSet<string>();
        foreach (var file in Directory.EnumerateFiles(Path.Combine(ConformanceData.Directory!, "sqllogictest"), "*.test", SearchOption.AllDirectories))
        {
            // Records are separated by blank lines: conditions (onlyif/skipif), "statement ok", then the SQL.
            foreach (var record in File.ReadAllText(file).Split("\n\n"))
            {
                var lines = record.Trim('\n').Split('\n');
                int k = 0;
                bool forSqlite = true;
                for (; k < lines.Length && (lines[k].StartsWith("onlyif ") || lines[k].StartsWith("skipif ")); k++)
                {
                    string engine = lines[k][7..].Trim();
                    if (lines[k].StartsWith("onlyif ") ? engine != "sqlite" : engine == "sqlite") forSqlite = false;
                }
                if (!forSqlite || k + 1 >= lines.Length || lines[k].Trim() != "statement ok") continue;
                string sql = string.Join("\n", lines[(k + 1)..]);
                if (sql.StartsWith("CREATE", StringComparison.OrdinalIgnoreCase)) statements.Add(sql);
            }
        }
        statements.Should().HaveCountGreaterThan(100);
        foreach (var sql in statements)
        {
            var act = () => SchemaStatementParser.Parse(sql);
            act.Should().NotThrow(sql);
        }
    }

    public static TheoryData<string> RealDatabases()
    {
        var data = new TheoryData<string>();
        if (ConformanceData.Directory is null) return data;
        foreach (var f in Directory.EnumerateFiles(Path.Combine(ConformanceData.Directory, "databases")))
        {
            if (f.EndsWith(".db") || f.EndsWith(".sqlite")) data.Add(Path.GetFileName(f));
        }
        return data;
    }

    [ConformanceTheory]
    [MemberData(nameof(RealDatabases))]
    public void Real_databases_schemas_match_sqlite(string file)
    {
        using var copy = new TempCopy(Path.Combine(ConformanceData.Directory!, "databases", file));
        using var db = SchemaOracle.OpenFile(copy.Path);
        var schema = db.Build();
        schema.Tables.Select(t => t.Name).Should().Equal(db.SchemaRows().Where(r => r.Type == "table").Select(r => r.Name));
        foreach (var table in schema.Tables.Where(t => !t.IsVirtual))
        {
            SchemaAssert.ColumnsMatch(db, table);
            SchemaAssert.IndexesMatch(db, table);
            SchemaAssert.PrimaryKeyMatches(db, table);
        }
    }

    public static TheoryData<string> CorruptDatabases()
    {
        var data = new TheoryData<string>();
        if (ConformanceData.Directory is null) return data;
        foreach (var f in Directory.EnumerateFiles(Path.Combine(ConformanceData.Directory, "corrupt"), "*.db")) data.Add(Path.GetFileName(f));
        return data;
    }

    /// <summary>
    /// Whatever rows a damaged file's sqlite_schema yields, building the schema succeeds or reports corruption;
    /// and when SQLite itself calls the schema malformed, so does Sharc.
    /// </summary>
    [ConformanceTheory]
    [MemberData(nameof(CorruptDatabases))]
    public void Damaged_schemas_are_reported_as_corruption(string file)
    {
        using var copy = new TempCopy(Path.Combine(ConformanceData.Directory!, "corrupt", file));
        string? sqliteError = null;
        List<SchemaRow> rows;
        uint pageCount;
        try
        {
            using (var db = SchemaOracle.OpenFile(copy.Path))
            {
                try
                {
                    db.Rows("SELECT count(*) FROM sqlite_schema");
                }
                catch (SqliteException e)
                {
                    sqliteError = e.Message;
                }
            }
            using var raw = SchemaOracle.OpenFile(copy.Path);
            raw.Exec("PRAGMA writable_schema = ON");
            rows = raw.SchemaRows();
            pageCount = raw.PageCount;
        }
        catch (Exception e) when (e is SqliteException or InvalidCastException)
        {
            return; // SQLite cannot even list the rows: nothing to compare
        }

        Exception? sharcError = null;
        try
        {
            SchemaBuilder.Build(rows, pageCount);
        }
        catch (Exception e)
        {
            sharcError = e;
        }
        if (sharcError is not null) sharcError.Should().BeOfType<SharcCorruptException>();
        if (sqliteError?.Contains("malformed database schema") == true)
        {
            sharcError.Should().NotBeNull(sqliteError);
            string obj = sqliteError[sqliteError.IndexOf('(')..(sqliteError.IndexOf(')') + 1)];
            sharcError!.Message.Should().Contain("malformed database schema " + obj);
        }
    }

    private sealed class TempCopy : IDisposable
    {
        public TempCopy(string source)
        {
            Path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), $"sharc-schema-{Guid.NewGuid():N}.db");
            File.Copy(source, Path);
        }

        public string Path { get; }

        public void Dispose()
        {
            SqliteConnection.ClearAllPools();
            foreach (var suffix in new[] { "", "-wal", "-shm", "-journal" })
            {
                if (File.Exists(Path + suffix)) File.Delete(Path + suffix);
            }
        }
    }
}
