using FluentAssertions;
using Microsoft.Data.Sqlite;
using Sharc.Tests.Infrastructure;
using Sharc.Tests.Sql.Writes;

namespace Sharc.Tests.Sql.Functions;

/// <summary>
/// Collations registered with <see cref="SharcDatabase.CreateCollation"/>, compared with SQLite given the same
/// comparison: in COLLATE, in column definitions and in indexes Sharc writes (which SQLite must find in order).
/// </summary>
public sealed class UserCollationTests
{
    // Case-insensitive, then reversed: an order no built-in collation gives.
    private static int Reverse(string? a, string? b) => -string.Compare(a, b, StringComparison.OrdinalIgnoreCase);

    [Fact]
    public void Collate_orders_compares_groups_and_distincts_with_the_registered_comparison()
    {
        using var o = new WriteOracle();
        o.Db.CreateCollation("rev", Reverse);
        o.Sqlite.CreateCollation("rev", Reverse);
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, s TEXT)");
        string[] words = ["apple", "Banana", "cherry", "APPLE", "banana", "date", "Cherry", "egg", "fig", "DATE"];
        foreach (var w in words) o.Ok("INSERT INTO t(s) VALUES (?1)", w);
        o.Ok("SELECT s FROM t ORDER BY s COLLATE rev, id");
        o.Ok("SELECT count(*) FROM t WHERE s COLLATE rev = 'BANANA'");
        o.Ok("SELECT count(*) FROM t WHERE s > 'c' COLLATE rev");
        o.Ok("SELECT s COLLATE rev, count(*) FROM t GROUP BY s COLLATE rev ORDER BY 1 COLLATE binary");
        o.Ok("SELECT count(DISTINCT s COLLATE rev) FROM t");
        o.Ok("SELECT max(s COLLATE rev), min(s COLLATE rev) FROM t");
        o.Both("SELECT s FROM t ORDER BY s COLLATE nope").Error.Should().Be("no such collation sequence: nope");
    }

    [Fact]
    public void An_index_on_a_column_with_the_collation_is_written_in_the_order_sqlite_expects()
    {
        using var o = new WriteOracle();
        o.Db.CreateCollation("rev", Reverse);
        o.Sqlite.CreateCollation("rev", Reverse);
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, s TEXT COLLATE rev, u TEXT)");
        o.Ok("CREATE INDEX t_s ON t(s)");
        o.Ok("CREATE UNIQUE INDEX t_u ON t(u COLLATE rev)");
        var rng = new Random(7);
        for (int i = 0; i < 300; i++)
        {
            string s = new string((char)(rng.Next(2) == 0 ? 'a' + rng.Next(6) : 'A' + rng.Next(6)), rng.Next(1, 5)) + rng.Next(100);
            o.Ok("INSERT INTO t(s, u) VALUES (?1, ?2)", s, "u" + i);
        }
        o.Both("INSERT INTO t(s, u) VALUES ('x', 'U7')").Error.Should().Be("UNIQUE constraint failed: t.u");
        o.Ok("DELETE FROM t WHERE id % 7 = 0");
        o.Ok("UPDATE t SET s = upper(s) WHERE id % 5 = 0");
        o.Ok("SELECT s FROM t WHERE s = 'A12' ORDER BY id");
        o.Ok("SELECT s FROM t WHERE s > 'c' ORDER BY s, id");
        o.Ok("SELECT s FROM t ORDER BY s, id LIMIT 20");

        // SQLite, given the same collation, finds Sharc's indexes in order.
        o.Db.Dispose();
        using var check = Oracle.Open(o.SharcPath);
        check.CreateCollation("rev", Reverse);
        Oracle.Rows(check, "PRAGMA integrity_check").Single()[0].Should().Be("ok");
        Oracle.Rows(check, "SELECT s FROM t INDEXED BY t_s ORDER BY s, id").Select(r => r[0])
            .Should().Equal(Oracle.Rows(check, "SELECT s FROM t NOT INDEXED ORDER BY s, id").Select(r => r[0]));
    }

    [Fact]
    public void A_file_using_a_collation_is_readable_once_it_is_registered_and_refused_clearly_before()
    {
        using var dir = new TempDir();
        string path = dir.File("coll.db");
        using (var c = Oracle.Open(path))
        {
            c.CreateCollation("rev", Reverse);
            Oracle.Exec(c, "CREATE TABLE t(id INTEGER PRIMARY KEY, s TEXT COLLATE rev)");
            Oracle.Exec(c, "CREATE INDEX t_s ON t(s)");
            for (int i = 0; i < 100; i++) Oracle.Exec(c, "INSERT INTO t(s) VALUES ($s)", ("$s", "w" + (i * 37 % 100)));
        }
        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true }))
        {
            FluentActions.Invoking(() => db.Execute("SELECT s FROM t ORDER BY s")).Should().Throw<SharcSqlException>().WithMessage("*no such collation sequence: rev*");
            FluentActions.Invoking(() => db.Execute("INSERT INTO t(s) VALUES ('w5')")).Should().Throw<SharcException>().WithMessage("*no such collation sequence: rev*");
            db.CreateCollation("rev", Reverse);
            using var r = db.Query("SELECT s FROM t WHERE s >= 'w50' ORDER BY s, id");
            var sharc = SharcRows.All(r);
            db.Execute("INSERT INTO t(s) VALUES ('w5'), ('W77'), ('a')");
            using var check = Oracle.Open(path, readOnly: true);
            check.CreateCollation("rev", Reverse);
            sharc.ShouldEqual(Oracle.Rows(check, "SELECT s FROM t WHERE s >= 'w50' AND id <= 100 ORDER BY s, id"));
        }
        using (var check = Oracle.Open(path, readOnly: true))
        {
            check.CreateCollation("rev", Reverse);
            Oracle.Rows(check, "PRAGMA integrity_check").Single()[0].Should().Be("ok");
        }
    }
}
