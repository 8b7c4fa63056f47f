using FluentAssertions;

namespace Sharc.Tests.Sql.Writes;

/// <summary>changes(), total_changes() and last_insert_rowid() after each kind of write, against SQLite.</summary>
public class SessionFunctionTests
{
    private const string Counters = "SELECT last_insert_rowid(), changes(), total_changes()";

    [Fact]
    public void The_counters_follow_each_statement_as_sqlite_keeps_them()
    {
        using var o = new WriteOracle();
        o.Ok(Counters);
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT UNIQUE, n INT)");
        o.Ok("CREATE TABLE w(k TEXT PRIMARY KEY, v) WITHOUT ROWID");
        o.Ok("CREATE TABLE log(id INTEGER PRIMARY KEY, what TEXT)");
        o.Ok("CREATE TRIGGER t_ins AFTER INSERT ON t BEGIN INSERT INTO log(what) VALUES('ins ' || new.a); INSERT INTO log(what) VALUES('again'); END");
        foreach (var sql in new[]
        {
            "INSERT INTO t(a, n) VALUES('x', 1)",
            "INSERT INTO t(a, n) VALUES('y', 2), ('z', 3)",
            "INSERT INTO t(id, a, n) VALUES(100, 'big', 4)",
            "INSERT INTO w VALUES('k', 1)",
            "INSERT OR IGNORE INTO t(a, n) VALUES('x', 9)",
            "INSERT INTO t(a, n) VALUES('x', 5) ON CONFLICT(a) DO UPDATE SET n = excluded.n",
            "UPDATE t SET n = n + 1 WHERE n > 1",
            "DELETE FROM log WHERE what = 'again'",
            "INSERT INTO t(a, n) SELECT a || '2', n FROM t WHERE id < 3",
            "CREATE TABLE u(x)",
            "SELECT count(*) FROM t",
        })
        {
            o.Ok(sql);
            o.Ok(Counters);
        }
    }

    [Fact]
    public void An_insert_reads_the_counters_of_the_statements_before_it()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, prev INT, ch INT)");
        o.Ok("INSERT INTO t(prev, ch) VALUES(last_insert_rowid(), changes())");
        o.Ok("INSERT INTO t(prev, ch) VALUES(last_insert_rowid(), changes()), (last_insert_rowid(), total_changes())");
        o.Ok("SELECT * FROM t");
    }

    [Fact]
    public void Each_thread_reads_its_own_statements_counters()
    {
        using var dir = new Infrastructure.TempDir();
        using var db = SharcDatabase.Create(dir.File("s.db"));
        db.Execute("CREATE TABLE t(id INTEGER PRIMARY KEY, a)");
        db.Execute("INSERT INTO t(a) VALUES(1), (2)");
        long other = -1;
        var thread = new Thread(() =>
        {
            using var r = db.Query("SELECT last_insert_rowid()");
            r.Read();
            other = r.GetInt64(0);
        });
        thread.Start();
        thread.Join();
        other.Should().Be(0);
        db.LastInsertRowId.Should().Be(2);
    }
}
