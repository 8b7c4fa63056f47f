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

/// <summary>changes() and last_insert_rowid() read inside trigger programs, and recursive_triggers, against SQLite.</summary>
public class TriggerSessionFunctionTests
{
    private static void Script(WriteOracle o, string script)
    {
        foreach (var sql in script.Split(";\n", StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            o.Ok(sql);
    }

    [Fact]
    public void A_trigger_program_sees_its_own_statements_counters_and_the_firing_statement_gets_its_own_back()
    {
        using var o = new WriteOracle();
        Script(o, """
            CREATE TABLE t(a INTEGER PRIMARY KEY, b);
            CREATE TABLE log(x, y, z);
            CREATE TABLE u(v);
            CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO log VALUES(changes(), last_insert_rowid(), total_changes()); INSERT INTO u VALUES(1),(2),(3); INSERT INTO log VALUES(changes(), last_insert_rowid(), total_changes()); END;
            INSERT INTO u VALUES(10),(11);
            INSERT INTO t VALUES(100, 'a');
            INSERT INTO log VALUES(changes(), last_insert_rowid(), total_changes());
            INSERT INTO t SELECT 200, changes();
            INSERT INTO log SELECT changes(), last_insert_rowid(), (SELECT changes());
            UPDATE t SET b = (SELECT last_insert_rowid()) WHERE a = 100;
            CREATE TRIGGER tr2 AFTER DELETE ON u BEGIN INSERT INTO log VALUES('del', changes(), last_insert_rowid()); DELETE FROM log WHERE x = 'nothing'; INSERT INTO log VALUES('del2', changes(), last_insert_rowid()); END;
            DELETE FROM u WHERE v < 3;
            INSERT INTO log VALUES(changes(), last_insert_rowid(), total_changes());
            CREATE VIEW vw AS SELECT * FROM t;
            CREATE TRIGGER tr3 INSTEAD OF INSERT ON vw BEGIN INSERT INTO t VALUES(NEW.a, NEW.b); INSERT INTO log VALUES('iv', changes(), last_insert_rowid()); END;
            INSERT INTO vw VALUES(300, 'x');
            INSERT INTO log VALUES(changes(), last_insert_rowid(), total_changes());
            CREATE TRIGGER tr4 BEFORE UPDATE ON t BEGIN UPDATE u SET v = v + 1; INSERT INTO log VALUES('bu', changes(), last_insert_rowid()); END;
            UPDATE t SET b = 'y' WHERE a >= 200;
            SELECT changes(), last_insert_rowid(), total_changes();
            SELECT rowid, * FROM log ORDER BY rowid;
            SELECT * FROM t
            """);
        o.AssertSameContents();
    }

    [Fact]
    public void Recursive_triggers_nest_when_the_pragma_is_on_and_not_when_it_is_off()
    {
        using var o = new WriteOracle();
        Script(o, """
            CREATE TABLE c(n INTEGER);
            CREATE TRIGGER up AFTER INSERT ON c WHEN new.n < 40 BEGIN INSERT INTO c VALUES(new.n + 1); END;
            INSERT INTO c VALUES(1);
            SELECT count(*), max(n) FROM c;
            PRAGMA recursive_triggers;
            PRAGMA recursive_triggers = ON;
            PRAGMA recursive_triggers;
            INSERT INTO c VALUES(10);
            SELECT count(*), max(n), changes(), total_changes() FROM c;
            DELETE FROM c;
            CREATE TABLE d(n INTEGER);
            CREATE TRIGGER down AFTER DELETE ON d WHEN old.n > 0 BEGIN DELETE FROM d WHERE n = old.n - 1; INSERT INTO c VALUES(old.n); END;
            INSERT INTO d WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 30) SELECT i FROM k;
            DELETE FROM d WHERE n = 30;
            SELECT count(*) FROM d;
            SELECT count(*), sum(n) FROM c;
            PRAGMA recursive_triggers = OFF;
            INSERT INTO c VALUES(5);
            SELECT count(*), sum(n) FROM c
            """);
        o.AssertSameContents();
    }

    [Fact]
    public void Endless_recursion_stops_with_sqlites_error_and_undoes_the_statement()
    {
        using var o = new WriteOracle();
        Script(o, """
            PRAGMA recursive_triggers = 1;
            CREATE TABLE c(n INTEGER);
            CREATE TRIGGER up AFTER INSERT ON c BEGIN INSERT INTO c VALUES(new.n + 1); END
            """);
        var outcome = o.Both("INSERT INTO c VALUES(1)");
        outcome.Error.Should().Contain("too many levels of trigger recursion");
        o.Ok("SELECT count(*) FROM c");
    }

    [Fact]
    public void A_replace_that_would_fire_delete_triggers_recursively_is_refused_not_silently_skipped()
    {
        using var dir = new Infrastructure.TempDir();
        using var db = SharcDatabase.Create(dir.File("r.db"));
        db.Execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v); CREATE TABLE log(x); CREATE TRIGGER d AFTER DELETE ON t BEGIN INSERT INTO log VALUES(old.id); END");
        db.Execute("INSERT INTO t VALUES(1, 'a')");
        db.Execute("INSERT OR REPLACE INTO t VALUES(1, 'b')"); // off: SQLite fires nothing either
        db.Execute("PRAGMA recursive_triggers = ON");
        var act = () => db.Execute("INSERT OR REPLACE INTO t VALUES(1, 'c')");
        act.Should().Throw<Exception>().WithMessage("*recursive_triggers*not supported*");
        using var r = db.Query("SELECT v, (SELECT count(*) FROM log) FROM t");
        r.Read().Should().BeTrue();
        r.GetString(0).Should().Be("b");
        r.GetInt64(1).Should().Be(0);
    }
}
