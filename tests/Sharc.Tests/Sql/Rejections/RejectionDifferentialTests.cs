using FluentAssertions;
using Sharc.Tests.Infrastructure;
using Sharc.Tests.Sql.Writes;

namespace Sharc.Tests.Sql.Rejections;

/// <summary>Mutated sqllogictest queries: Sharc fails exactly where SQLite fails (see <see cref="RejectionHarness"/>).</summary>
public class RejectionDifferentialTests
{
    [ConformanceTheory]
    [InlineData("select1.test", 1)]
    [InlineData("select2.test", 2)]
    [InlineData("select3.test", 3)]
    public void Mutated_queries_fail_where_sqlite_fails(string file, int seed)
    {
        var (setup, queries) = RejectionHarness.Read(Path.Combine(Infrastructure.Conformance.Directory!, "sqllogictest", file), 400);
        using var o = new WriteOracle();
        o.Ok("BEGIN");
        foreach (var s in setup) o.Ok(s);
        o.Ok("COMMIT");
        var mismatches = RejectionHarness.Run(o, queries, seed);
        int ran = RejectionHarness.Ran, rejected = RejectionHarness.Rejected;
        ran.Should().BeGreaterThan(1000);
        rejected.Should().BeGreaterThan(ran / 4, "most mutations make statements SQLite rejects");
        string report = $"ran {ran}, SQLite rejected {rejected}\n" + string.Join("\n", mismatches.GroupBy(m => m.Kind).Select(g =>
            $"{g.Key}: {g.Count()}\n  " + string.Join("\n  ", g.Take(3).Select(m => $"{m.Sql.Replace('\n', ' ')}  => sqlite: {m.SqliteError ?? "ok"}; sharc: {m.SharcError ?? "ok"}"))));
        var dump = Environment.GetEnvironmentVariable("SHARC_REJECTION_REPORT");
        if (!string.IsNullOrEmpty(dump)) File.WriteAllText(dump + "." + file + ".txt", report);
        mismatches.Should().BeEmpty(report);
    }

    /// <summary>Hand-picked statements SQLite rejects (schema, DML and query errors): Sharc rejects each too.</summary>
    [Fact]
    public void Statements_sqlite_rejects_are_rejected()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t1(a INTEGER, b TEXT, c)");
        o.Ok("INSERT INTO t1 VALUES (1, 'x', 2.5), (2, 'y', NULL)");
        var mismatches = new List<string>();
        foreach (var sql in RejectedStatements)
        {
            var sqlite = o.RunSqlite(sql, []);
            WriteOracle.Outcome sharc;
            try
            {
                sharc = o.RunSharc(sql, []);
            }
            catch (Exception e)
            {
                mismatches.Add($"{sql}  => sqlite: {sqlite.Error}; sharc throws {e.GetType().Name}: {e.Message}");
                continue;
            }
            if (sqlite.Error is null) mismatches.Add($"SQLite accepts (fix the list): {sql}");
            else if (sharc.Error is null) mismatches.Add($"{sql}  => sqlite: {sqlite.Error}; sharc: ok");
        }
        var dump = Environment.GetEnvironmentVariable("SHARC_REJECTION_REPORT");
        if (!string.IsNullOrEmpty(dump)) File.WriteAllText(dump + ".handpicked.txt", string.Join("\n", mismatches));
        mismatches.Should().BeEmpty();
    }

    public static readonly string[] RejectedStatements =
    [
        "INSERT INTO t1 VALUES (1, 2)",
        "INSERT INTO t1(a, b) VALUES (1)",
        "INSERT INTO t1(zz) VALUES (1)",
        "UPDATE t1 SET zz = 1",
        "UPDATE t1 SET a = zz",
        "DELETE FROM t1 WHERE zz = 1",
        "INSERT INTO t1 SELECT 1, 2",
        "INSERT INTO t1 DEFAULT VALUES RETURNING zz",
        "CREATE TABLE t1(x)",
        "CREATE TABLE x1(a, a)",
        "CREATE TABLE x2(a PRIMARY KEY, b PRIMARY KEY)",
        "CREATE TABLE x3(a TEXT PRIMARY KEY AUTOINCREMENT)",
        "CREATE TABLE x4(a, b DEFAULT (a + 1))",
        "CREATE TABLE x5(a CHECK ((SELECT 1)))",
        "CREATE TABLE x6(a, b AS (zz))",
        "CREATE TABLE x7(a) WITHOUT ROWID",
        "CREATE TABLE x8(a FOO) STRICT",
        "CREATE TABLE x9(a, FOREIGN KEY (a, b) REFERENCES t1(a))",
        "CREATE TABLE x10(a, b AS (b))",
        "CREATE TABLE x11(a, b AS (a) STORED DEFAULT 1)",
        "CREATE TABLE x12(a, b AS (count(a)))",
        "CREATE TABLE x13(a, b AS (random()))",
        "CREATE TABLE x14(a INTEGER PRIMARY KEY AS (1))",
        "CREATE TABLE x15(a CHECK (count(*) > 0))",
        "CREATE TABLE x16 AS SELECT zz",
        "CREATE TABLE sqlite_x(a)",
        "CREATE INDEX i1 ON t1(zz)",
        "CREATE INDEX i2 ON nosuch(a)",
        "CREATE INDEX i3 ON t1(a) WHERE random() > 0",
        "CREATE INDEX i4 ON t1(count(a))",
        "CREATE INDEX i5 ON t1(a) WHERE (SELECT 1)",
        "CREATE INDEX i6 ON t1(a) WHERE zz > 0",
        "CREATE INDEX i7 ON t1(a + zz)",
        "CREATE INDEX i8 ON t1(random())",
        "CREATE INDEX i9 ON t1(a) WHERE sum(a) > 0",
        "CREATE VIEW v2 AS SELECT ?",
        "CREATE TRIGGER tr1 AFTER INSERT ON nosuch BEGIN SELECT 1; END",
        "CREATE TRIGGER tr2 INSTEAD OF INSERT ON t1 BEGIN SELECT 1; END",
        "DROP TABLE nosuch",
        "DROP INDEX nosuch",
        "DROP VIEW t1",
        "DROP TABLE sqlite_master",
        "ALTER TABLE t1 ADD COLUMN d PRIMARY KEY",
        "ALTER TABLE t1 ADD COLUMN d UNIQUE",
        "ALTER TABLE t1 ADD COLUMN a",
        "ALTER TABLE t1 ADD COLUMN d NOT NULL",
        "ALTER TABLE t1 ADD COLUMN d DEFAULT CURRENT_TIME",
        "ALTER TABLE t1 ADD COLUMN d AS (a) STORED",
        "ALTER TABLE t1 RENAME COLUMN zz TO y",
        "ALTER TABLE t1 RENAME COLUMN a TO b",
        "ALTER TABLE t1 DROP COLUMN zz",
        "ALTER TABLE t1 RENAME TO sqlite_y",
        "SELECT * FROM t1 ORDER BY 4",
        "SELECT a FROM t1 GROUP BY 2",
        "SELECT a FROM t1 UNION SELECT a, b FROM t1",
        "SELECT 1 UNION SELECT 2 ORDER BY 3",
        "SELECT 1 UNION SELECT 2 ORDER BY zz",
        "SELECT a FROM t1 WHERE count(*) > 1",
        "SELECT sum(count(a)) FROM t1",
        "SELECT a FROM t1 GROUP BY count(*)",
        "SELECT abs(a) OVER () FROM t1",
        "SELECT sum(a) OVER w FROM t1",
        "SELECT a FROM t1 WHERE row_number() OVER () > 1",
        "SELECT raise(ignore)",
        "SELECT * FROM t1 AS x, t1 AS x",
        "SELECT x.* FROM t1",
        "SELECT a FROM t1, t1 AS y",
        "SELECT a FROM t1 WHERE a IN (SELECT a, b FROM t1)",
        "SELECT (SELECT a, b FROM t1)",
        "SELECT 1 LIMIT 'x'",
        "SELECT 1 LIMIT 1.5",
        "SELECT abs(1, 2)",
        "SELECT abs()",
        "SELECT substr('x')",
        "SELECT nosuchfn(1)",
        "SELECT count(DISTINCT a, b) FROM t1",
        "SELECT * FROM t1 NATURAL JOIN t1 AS y ON 1",
        "SELECT * FROM t1 JOIN t1 AS y USING (zz)",
        "SELECT * FROM t1 INDEXED BY nosuch",
        "SELECT a FROM t1 HAVING a > 0",
        "SELECT * FROM (SELECT 1) AS s, s",
        "WITH c(x, y) AS (SELECT 1) SELECT * FROM c",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT count(*) FROM c) SELECT * FROM c",
        "SELECT 1 IN (1, 2) IN (SELECT 1, 2)",
        "SELECT (1, 2) = 3",
        "SELECT (1, 2)",
        "SELECT a FROM t1 ORDER BY (1, 2)",
        "SELECT * FROM t1 WHERE a MATCH 1",
        "SELECT * FROM t1 LIMIT 1 OFFSET zz",
        "SELECT a, count(*) FROM t1 GROUP BY a HAVING zz",
        "INSERT INTO t1 VALUES (1, 2, 3) ON CONFLICT (zz) DO NOTHING",
        "INSERT INTO t1 VALUES (1, 2, 3) ON CONFLICT (a) DO NOTHING",
        "UPDATE t1 SET a = 1 FROM t1",
        "PRAGMA nosuchschema.user_version",
        "REINDEX nosuch",
        "SAVEPOINT a; RELEASE b",
        "SELECT * FROM pragma_nosuch",
        "SELECT json_nosuch(1)",
        "SELECT iif(1)",
        "SELECT likelihood(1, 2)",
        "SELECT zeroblob()",
        "SELECT char() FILTER (WHERE 1)",
        "SELECT min() FROM t1",
        "SELECT group_concat() FROM t1",
        "SELECT ntile(0) OVER () FROM t1",
        "SELECT nth_value(a, 0) OVER () FROM t1",
        "SELECT lag(a, -1, 0, 1) OVER () FROM t1",
        "SELECT sum(a) OVER (w ORDER BY a) FROM t1 WINDOW w AS (ORDER BY b)",
        "SELECT sum(a) OVER (ROWS BETWEEN 1 FOLLOWING AND 1 PRECEDING) FROM t1",
        "SELECT sum(a) OVER (RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t1",
        "SELECT sum(a) OVER (ROWS -1 PRECEDING) FROM t1",
        "SELECT * FROM t1 WHERE a = ?5 AND b = ?1000000",
        "SELECT 9223372036854775808 % 0 LIMIT -1 OFFSET x'00'",
        "VALUES (1), (1, 2)",
        "SELECT * FROM t1 ORDER BY a COLLATE nosuch",
        "CREATE TABLE x20(a INTEGER PRIMARY KEY DESC AUTOINCREMENT)",
        "CREATE TABLE x21(a, CONSTRAINT c CHECK (a) CHECK (zz))",
        "CREATE TABLE x22(a REFERENCES t1(a) ON DELETE CASCADE, FOREIGN KEY (zz) REFERENCES t1)",
        "CREATE TABLE x23(a UNIQUE (b))",
        "CREATE TEMP TABLE main.x24(a)",
        "CREATE TABLE x26(rowid, a PRIMARY KEY (rowid))",
        "CREATE TABLE x27(a, PRIMARY KEY (zz))",
        "CREATE TABLE x28(a, UNIQUE (zz))",
    ];
}
