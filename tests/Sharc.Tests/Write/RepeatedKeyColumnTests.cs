using Sharc.Tests.Api;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// A column named twice in a key. SQLite keeps both copies in a key unless it is a WITHOUT ROWID table's PRIMARY
/// KEY naming the column again with the same collation, which it drops; a WITHOUT ROWID record holds every
/// remaining key field, the column twice when its two collations differ. Sharc reads and writes such tables as
/// SQLite does, and SQLite finds Sharc's file sound.
/// </summary>
public sealed class RepeatedKeyColumnTests
{
    public static IEnumerable<object[]> Tables() =>
    [
        ["CREATE TABLE t(a, b, PRIMARY KEY(a COLLATE nocase, a)) WITHOUT ROWID"],
        ["CREATE TABLE t(a, b, PRIMARY KEY(a, a COLLATE nocase)) WITHOUT ROWID"],
        ["CREATE TABLE t(a, b, PRIMARY KEY(a, b, a)) WITHOUT ROWID"],
        ["CREATE TABLE t(a, b, PRIMARY KEY(b DESC, a, b COLLATE rtrim)) WITHOUT ROWID"],
        ["CREATE TABLE t(a, b, c, UNIQUE(a, b, a), PRIMARY KEY(b, c, b)) WITHOUT ROWID"],
        ["CREATE TABLE t(a, b, PRIMARY KEY(a, a))"],
        ["CREATE TABLE t(a, b, UNIQUE(a, a COLLATE nocase))"],
        ["CREATE TABLE t(a, b, c UNIQUE, PRIMARY KEY(a COLLATE nocase, a)) WITHOUT ROWID"],
    ];

    [Theory]
    [MemberData(nameof(Tables))]
    public void SharcWritesTablesWithARepeatedKeyColumnAsSqliteDoes(string create)
    {
        using var twin = new WriteTwin();
        bool hasC = create.Contains(" c");
        twin.Schema(create, "CREATE INDEX t_aba ON t(a, b, a)");
        string[] texts = ["one", "One", "ONE", "one ", "two", "Two"];
        for (int i = 0; i < 24; i++)
        {
            object a = i % 3 == 0 ? i : texts[i % texts.Length];
            string aSql = a is int n ? n.ToString() : $"'{a}'";
            string sql = hasC ? $"INSERT INTO t VALUES({aSql}, 'b{i % 5}', {i})" : $"INSERT INTO t VALUES({aSql}, 'b{i % 5}')";
            twin.Both(sql, d => d.Execute(sql));
        }
        twin.Both("UPDATE t SET b = b || 'x' WHERE a = 'one'", d => d.Execute("UPDATE t SET b = b || 'x' WHERE a = 'one'"));
        twin.Both("DELETE FROM t WHERE a = 'Two'", d => d.Execute("DELETE FROM t WHERE a = 'Two'"));
        twin.Both("INSERT OR REPLACE INTO t(a, b) VALUES('ONE', 'b1')", d => d.Execute("INSERT OR REPLACE INTO t(a, b) VALUES('ONE', 'b1')"));
        twin.AssertSame("SELECT * FROM t ORDER BY 1, 2", "SELECT * FROM t WHERE a = 'one'", "SELECT a, b FROM t INDEXED BY t_aba WHERE a > 'O'");
        twin.Db.CheckIntegrity().Should().BeEmpty();
        // What Sharc reads from its own file, b-tree by b-tree, is what SQLite reads.
        OracleComparison.CompareAll(twin.SharcPath, twin.Db).Should().BeGreaterThan(0);
    }

    [Theory]
    [MemberData(nameof(Tables))]
    public void SharcReadsTablesSqliteWroteWithARepeatedKeyColumn(string create)
    {
        using var dir = new TempDir();
        string path = dir.File("sqlite.db");
        bool hasC = create.Contains(" c");
        Oracle.Exec(path, create, "CREATE INDEX t_aba ON t(a, b, a)",
            hasC ? "INSERT INTO t VALUES(1, 'one', 1), ('A', 'two', 2), ('a', 'three', 3), ('b', 'x', 4)"
                 : "INSERT INTO t VALUES(1, 'one'), ('A', 'two'), ('a', 'three'), ('b', 'x')");
        using var db = SharcDatabase.Open(path);
        db.CheckIntegrity().Should().BeEmpty();
        OracleComparison.CompareAll(path, db).Should().BeGreaterThan(0);
        foreach (var q in new[] { "SELECT * FROM t ORDER BY 1, 2", "SELECT b FROM t WHERE a = 'a'", "SELECT a FROM t WHERE b = 'two'" })
            SharcRows.All(db.Query(q)).ShouldEqual(Oracle.Rows(path, q), q);
    }
}
