using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Integrity;

/// <summary>
/// Rows that break a STRICT table's column types (written before the table was made STRICT, through
/// writable_schema) are problems for SQLite's integrity_check; Sharc's check reports the same ones, in the same order.
/// </summary>
public class StrictTypeIntegrityTests
{
    [Fact]
    public void Values_of_the_wrong_type_in_a_strict_table_are_reported_as_sqlite_reports_them()
    {
        using var dir = new TempDir();
        string path = dir.File("strict.db");
        const string Columns = "a INT, b TEXT, c REAL, d BLOB, e ANY, f INTEGER NOT NULL, g INTEGER";
        Oracle.Exec(path,
            $"CREATE TABLE t({Columns})",
            "INSERT INTO t VALUES ('x', 5, 'y', 7, 'z', 3, 1.0)",
            "INSERT INTO t VALUES (1.5, x'00', 2, 'q', 1, 4, 2)",
            "INSERT INTO t VALUES (NULL, NULL, NULL, NULL, NULL, 5, NULL)",
            "INSERT INTO t VALUES (7, 'ok', 2.5, x'01', x'02', 6, 3)");
        Oracle.Exec(path, "PRAGMA writable_schema = ON", $"UPDATE sqlite_schema SET sql = 'CREATE TABLE t({Columns}) STRICT' WHERE name = 't'");

        var sqlite = Oracle.Rows(path, "PRAGMA integrity_check").Select(r => (string)r[0]!).ToList();
        sqlite.Should().Contain("non-INT value in t.a");
        using var db = SharcDatabase.Open(path);
        // Sharc adds where it found each problem: "(row 1 on page 2)".
        var sharc = db.CheckIntegrity().Select(line => line.Split(" (")[0]).ToList();
        sharc.Should().Equal(sqlite);
    }

    [Fact]
    public void A_strict_table_written_by_sharc_passes_both_checks()
    {
        using var dir = new TempDir();
        string path = dir.File("ok.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.Execute("CREATE TABLE t(a INT, b TEXT, c REAL, d BLOB, e ANY) STRICT");
            db.Execute("INSERT INTO t VALUES (1, 'x', 2, x'00', 'any'), (NULL, NULL, 1.5, NULL, 3)");
            db.CheckIntegrity().Should().BeEmpty();
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }
}
