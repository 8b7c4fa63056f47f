using FluentAssertions;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Sql.Writes;

/// <summary>
/// Triggers fire as SQLite fires them: every statement runs on Sharc and on SQLite (<see cref="WriteOracle"/>), and
/// rows changed, errors and the resulting contents must agree.
/// </summary>
public class TriggerTests
{
    private static void Script(WriteOracle o, params string[] statements)
    {
        foreach (var sql in statements) o.Both(sql);
        o.AssertSameContents();
    }

    [Fact]
    public void Before_and_after_insert_see_new_with_affinity_and_rowid_minus_one_until_chosen()
    {
        using var o = new WriteOracle();
        Script(o,
            "CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c REAL)",
            "CREATE TABLE log(k, x, y, z)",
            "CREATE TRIGGER b1 BEFORE INSERT ON t BEGIN INSERT INTO log VALUES('b1', new.id, new.rowid, typeof(new.a) || new.a); END",
            "CREATE TRIGGER b2 BEFORE INSERT ON t BEGIN INSERT INTO log VALUES('b2', new.b, typeof(new.c), new.c); END",
            "CREATE TRIGGER a1 AFTER INSERT ON t BEGIN INSERT INTO log VALUES('a1', new.id, new.rowid, new.a + 1); END",
            "INSERT INTO t(a, b, c) VALUES ('5', 7, 3), (6, 'y', '2.5')",
            "INSERT INTO t VALUES (10, 1, 2, NULL)",
            "INSERT INTO t(rowid, a) VALUES (20, 1)",
            "SELECT * FROM log ORDER BY rowid");
    }

    [Fact]
    public void Triggers_on_one_event_fire_most_recently_created_first()
    {
        using var o = new WriteOracle();
        Script(o,
            "CREATE TABLE t(a)",
            "CREATE TABLE log(x)",
            "CREATE TRIGGER first AFTER INSERT ON t BEGIN INSERT INTO log VALUES('first ' || new.a); END",
            "CREATE TRIGGER second AFTER INSERT ON t BEGIN INSERT INTO log VALUES('second ' || new.a); END",
            "CREATE TRIGGER third BEFORE INSERT ON t BEGIN INSERT INTO log VALUES('third ' || new.a); END",
            "CREATE TRIGGER fourth BEFORE INSERT ON t BEGIN INSERT INTO log VALUES('fourth ' || new.a); END",
            "INSERT INTO t VALUES (1), (2)",
            "DROP TRIGGER first",
            "CREATE TRIGGER first AFTER INSERT ON t BEGIN INSERT INTO log VALUES('first again ' || new.a); END",
            "INSERT INTO t VALUES (3)",
            "SELECT * FROM log ORDER BY rowid");
    }

    [Fact]
    public void Update_triggers_see_old_and_new_honour_update_of_and_when()
    {
        using var o = new WriteOracle();
        Script(o,
            "CREATE TABLE u(a, b TEXT COLLATE NOCASE, c)",
            "CREATE TABLE log(x, y, z)",
            "INSERT INTO u VALUES (1, 'A', 1), (2, 'b', 2), (3, 'C', 3)",
            "CREATE TRIGGER u1 BEFORE UPDATE ON u BEGIN INSERT INTO log VALUES('u1', old.a || '>' || new.a, typeof(new.a)); END",
            "CREATE TRIGGER u2 AFTER UPDATE OF b, c ON u WHEN new.a > 1 BEGIN INSERT INTO log VALUES('u2', old.rowid, new.rowid); END",
            "CREATE TRIGGER u3 AFTER UPDATE OF b ON u WHEN new.b = 'a' BEGIN INSERT INTO log VALUES('u3', old.b, new.b); END",
            "UPDATE u SET a = a + 1",
            "UPDATE u SET b = upper(b), rowid = rowid + 10",
            "UPDATE u SET c = '7' WHERE a = 3",
            "SELECT * FROM log ORDER BY rowid");
    }

    [Fact]
    public void Rows_are_read_when_their_turn_comes_and_before_triggers_may_change_or_delete_them()
    {
        using var o = new WriteOracle();
        Script(o,
            "CREATE TABLE t(a INTEGER PRIMARY KEY, b, c)",
            "CREATE TABLE log(x)",
            "INSERT INTO t VALUES (1, 1, 1), (2, 2, 2), (3, 3, 3)",
            "CREATE TRIGGER bu BEFORE UPDATE ON t WHEN new.a = 1 BEGIN UPDATE t SET c = 100 WHERE a = 1; UPDATE t SET b = 50 WHERE a = 2; DELETE FROM t WHERE a = 3; END",
            "CREATE TRIGGER au AFTER UPDATE ON t BEGIN INSERT INTO log VALUES(old.a || ':' || old.b || ',' || old.c || '->' || new.b || ',' || new.c); END",
            "UPDATE t SET b = b + 1",
            "CREATE TRIGGER bd BEFORE DELETE ON t WHEN old.a = 1 BEGIN DELETE FROM t WHERE a = 2; UPDATE t SET b = 7; END",
            "CREATE TRIGGER ad AFTER DELETE ON t BEGIN INSERT INTO log VALUES('ad ' || old.a || ' ' || old.b); END",
            "INSERT INTO t VALUES (2, 2, 2)",
            "DELETE FROM t",
            "SELECT * FROM log ORDER BY rowid");
    }

    [Fact]
    public void Raise_ignore_abort_fail_and_rollback_act_as_in_sqlite()
    {
        using var o = new WriteOracle();
        Script(o,
            "CREATE TABLE t(a PRIMARY KEY, b)",
            "CREATE TABLE log(x)",
            "CREATE TRIGGER r BEFORE INSERT ON t WHEN new.b < 0 BEGIN SELECT RAISE(ABORT, 'negative b'); END",
            "CREATE TRIGGER r2 BEFORE INSERT ON t WHEN new.b = 0 BEGIN INSERT INTO log VALUES('ignored ' || new.a); SELECT RAISE(IGNORE); END",
            "CREATE TRIGGER r3 BEFORE INSERT ON t WHEN new.b = 99 BEGIN SELECT RAISE(FAIL, 'fail ' || new.a); END",
            "CREATE TRIGGER r4 AFTER INSERT ON t WHEN new.b = 5 BEGIN SELECT RAISE(IGNORE); INSERT INTO log VALUES('never'); END",
            "CREATE TRIGGER r5 AFTER INSERT ON t WHEN new.b = 5 BEGIN INSERT INTO log VALUES('skipped by r4'); END",
            "INSERT INTO t VALUES (1, -1)",
            "INSERT INTO t VALUES (1, 1), (2, 0), (3, 3), (4, 5)",
            "INSERT INTO t VALUES (7, 7), (8, 99)",
            "SELECT RAISE(IGNORE)",
            "BEGIN",
            "INSERT INTO t VALUES (20, 20)",
            "INSERT INTO t VALUES (21, -1), (22, 22)",
            "INSERT INTO t VALUES (23, 99)",
            "CREATE TRIGGER r6 BEFORE DELETE ON t WHEN old.a = 20 BEGIN SELECT RAISE(ROLLBACK, 'rolled back'); END",
            "DELETE FROM t WHERE a = 20",
            "COMMIT",
            "SELECT * FROM t ORDER BY a");
    }

    [Fact]
    public void Conflict_clauses_of_the_outer_statement_override_those_of_the_trigger_body()
    {
        using var o = new WriteOracle();
        Script(o,
            "CREATE TABLE p(a)",
            "CREATE TABLE q(a UNIQUE, n)",
            "INSERT INTO q VALUES (1, 'old'), (2, 'old')",
            "CREATE TRIGGER pq AFTER INSERT ON p BEGIN INSERT OR IGNORE INTO q VALUES (new.a, 'new'); END",
            "INSERT INTO p VALUES (1)",
            "INSERT OR REPLACE INTO p VALUES (2)",
            "INSERT OR ABORT INTO p VALUES (1)",
            "INSERT OR FAIL INTO p VALUES (3), (1)",
            "SELECT * FROM p ORDER BY rowid",
            "CREATE TRIGGER pr AFTER UPDATE ON p BEGIN INSERT INTO q VALUES (new.a, 'upd'); END",
            "UPDATE p SET a = 5 WHERE a = 3",
            "UPDATE p SET a = 1 WHERE a = 5",
            "UPDATE OR REPLACE p SET a = 2 WHERE a = 5");
    }

    [Fact]
    public void Replace_deletes_fire_no_delete_trigger_and_changes_count_only_the_statement()
    {
        using var o = new WriteOracle();
        Script(o,
            "CREATE TABLE t(a PRIMARY KEY, b)",
            "CREATE TABLE log(x)",
            "CREATE TRIGGER d AFTER DELETE ON t BEGIN INSERT INTO log VALUES('del ' || old.a); END",
            "CREATE TRIGGER i AFTER INSERT ON t BEGIN INSERT INTO log VALUES('ins ' || new.a); INSERT INTO log VALUES('again'); END",
            "INSERT INTO t VALUES (1, 1), (2, 2)",
            "INSERT OR REPLACE INTO t VALUES (1, 5)",
            "REPLACE INTO t VALUES (2, 6)",
            "DELETE FROM t WHERE a = 1",
            "UPDATE t SET b = 9",
            "SELECT * FROM log ORDER BY rowid");
    }

    [Fact]
    public void A_trigger_does_not_fire_itself_but_fires_others_in_a_chain()
    {
        using var o = new WriteOracle();
        Script(o,
            "CREATE TABLE r(a)",
            "CREATE TRIGGER rr AFTER INSERT ON r WHEN new.a < 5 BEGIN INSERT INTO r VALUES (new.a + 1); END",
            "INSERT INTO r VALUES (1)",
            "CREATE TABLE x(a)",
            "CREATE TABLE y(a)",
            "CREATE TRIGGER xy AFTER INSERT ON x BEGIN INSERT INTO y VALUES (new.a * 2); END",
            "CREATE TRIGGER yx AFTER INSERT ON y WHEN new.a < 100 BEGIN INSERT INTO x VALUES (new.a + 1); END",
            "INSERT INTO x VALUES (1)",
            "INSERT INTO y VALUES (1)",
            "SELECT * FROM r ORDER BY rowid");
    }

    [Fact]
    public void Instead_of_triggers_write_through_views()
    {
        using var o = new WriteOracle();
        Script(o,
            "CREATE TABLE t(a, b)",
            "CREATE TABLE log(x)",
            "CREATE VIEW v AS SELECT a, b, a + b AS s FROM t",
            "INSERT INTO v(a, b) VALUES (1, 2)",
            "UPDATE v SET a = 1",
            "DELETE FROM v",
            "CREATE TRIGGER vi INSTEAD OF INSERT ON v BEGIN INSERT INTO t VALUES (new.a * 10, coalesce(new.b, 'none')); END",
            "INSERT INTO v VALUES (1, 2, 3), (4, 5, 6)",
            "INSERT INTO v(a) SELECT 7",
            "UPDATE v SET a = 1",
            "CREATE TRIGGER vu INSTEAD OF UPDATE OF b ON v BEGIN INSERT INTO log VALUES ('vu ' || old.a || ' ' || new.a || ' ' || new.b || ' ' || new.s); END",
            "UPDATE v SET a = 0",
            "UPDATE v SET b = 100 WHERE a > 10",
            "CREATE TRIGGER vd INSTEAD OF DELETE ON v BEGIN DELETE FROM t WHERE a = old.a; INSERT INTO log VALUES ('vd ' || old.s); END",
            "DELETE FROM v WHERE a = 40",
            "SELECT * FROM log ORDER BY rowid");
    }

    [Fact]
    public void Errors_in_trigger_bodies_undo_the_whole_statement()
    {
        using var o = new WriteOracle();
        Script(o,
            "CREATE TABLE t(a)",
            "CREATE TABLE u(a NOT NULL)",
            "CREATE TRIGGER tu AFTER INSERT ON t BEGIN INSERT INTO u VALUES (new.a); END",
            "INSERT INTO t VALUES (1), (NULL), (3)",
            "INSERT INTO t VALUES (1), (2)",
            "CREATE TRIGGER bad AFTER DELETE ON t BEGIN INSERT INTO missing VALUES (old.a); END",
            "DELETE FROM t",
            "CREATE TRIGGER bad2 AFTER UPDATE ON t BEGIN SELECT new.nope; END",
            "UPDATE t SET a = 5");
    }

    [Fact]
    public void Upsert_fires_before_insert_then_update_triggers()
    {
        using var o = new WriteOracle();
        Script(o,
            "CREATE TABLE t(k INTEGER PRIMARY KEY, n, updated)",
            "CREATE TABLE log(x)",
            "CREATE TRIGGER bi BEFORE INSERT ON t BEGIN INSERT INTO log VALUES ('bi ' || new.k); END",
            "CREATE TRIGGER ai AFTER INSERT ON t BEGIN INSERT INTO log VALUES ('ai ' || new.k); END",
            "CREATE TRIGGER au AFTER UPDATE ON t BEGIN UPDATE t SET updated = 'yes' WHERE k = new.k; INSERT INTO log VALUES ('au ' || old.n || '>' || new.n); END",
            "INSERT INTO t(k, n) VALUES (1, 1) ON CONFLICT(k) DO UPDATE SET n = n + 1",
            "INSERT INTO t(k, n) VALUES (1, 1) ON CONFLICT(k) DO UPDATE SET n = n + 1",
            "INSERT INTO t(k, n) VALUES (1, 1) ON CONFLICT DO NOTHING",
            "SELECT * FROM log ORDER BY rowid");
    }

    [Fact]
    public void Without_rowid_tables_fire_triggers()
    {
        using var o = new WriteOracle();
        Script(o,
            "CREATE TABLE w(k TEXT PRIMARY KEY, v INT) WITHOUT ROWID",
            "CREATE TABLE log(x)",
            "CREATE TRIGGER wi AFTER INSERT ON w BEGIN INSERT INTO log VALUES ('wi ' || new.k || new.v); END",
            "CREATE TRIGGER wu BEFORE UPDATE ON w BEGIN INSERT INTO log VALUES ('wu ' || old.v || '>' || new.v); END",
            "CREATE TRIGGER wd AFTER DELETE ON w BEGIN INSERT INTO log VALUES ('wd ' || old.k); END",
            "INSERT INTO w VALUES ('a', '1'), ('b', 2)",
            "UPDATE w SET v = v * 10",
            "DELETE FROM w WHERE k = 'a'",
            "SELECT * FROM log ORDER BY rowid");
    }

    [Fact]
    public void The_csharp_api_fires_triggers()
    {
        using var o = new WriteOracle();
        Script(o,
            "CREATE TABLE t(id INTEGER PRIMARY KEY, a, updated)",
            "CREATE TABLE log(x)",
            "CREATE TRIGGER ti AFTER INSERT ON t BEGIN INSERT INTO log VALUES ('ins ' || new.id || ' ' || new.a); END",
            "CREATE TRIGGER tu AFTER UPDATE OF a ON t BEGIN UPDATE t SET updated = old.a WHERE id = new.id; END",
            "CREATE TRIGGER td BEFORE DELETE ON t BEGIN INSERT INTO log VALUES ('del ' || old.id); END",
            "CREATE TRIGGER tn BEFORE INSERT ON t WHEN new.a IS NULL BEGIN SELECT RAISE(ABORT, 'a is required'); END");
        o.Db.Insert("t", null, "x", null);
        o.SqliteOnly("INSERT INTO t VALUES (NULL, 'x', NULL)");
        o.Db.Insert("t", ["a"], ["y"]);
        o.SqliteOnly("INSERT INTO t(a) VALUES ('y')");
        Assert.Throws<SharcConstraintException>(() => o.Db.Insert("t", ["a"], [null])).Message.Should().Be("a is required");
        o.Db.Update("t", 1, ["a"], ["z"]);
        o.SqliteOnly("UPDATE t SET a = 'z' WHERE rowid = 1");
        o.Db.UpdateByKey("t", [2L], ["a"], ["w"]);
        o.SqliteOnly("UPDATE t SET a = 'w' WHERE id = 2");
        var insert = o.Db.PrepareInsert("t", "a");
        insert.SetText(0, "p");
        insert.Execute();
        o.SqliteOnly("INSERT INTO t(a) VALUES ('p')");
        o.Db.Delete("t", 1);
        o.SqliteOnly("DELETE FROM t WHERE rowid = 1");
        o.Db.DeleteByKey("t", 2L);
        o.SqliteOnly("DELETE FROM t WHERE id = 2");
        o.AssertSameContents();
    }

    [Fact]
    public void Foreign_key_actions_fire_the_childs_triggers()
    {
        using var o = new WriteOracle(new SharcCreateOptions { Open = new SharcOpenOptions { Writable = true, ForeignKeys = true } });
        o.SqliteOnly("PRAGMA foreign_keys = ON");
        Script(o,
            "CREATE TABLE p(id TEXT PRIMARY KEY)",
            "CREATE TABLE c(id INTEGER PRIMARY KEY, p REFERENCES p ON DELETE CASCADE ON UPDATE SET NULL)",
            "CREATE TABLE log(x)",
            "CREATE TRIGGER cd AFTER DELETE ON c BEGIN INSERT INTO log VALUES ('cd ' || old.id || ' ' || old.p); END",
            "CREATE TRIGGER cu AFTER UPDATE ON c BEGIN INSERT INTO log VALUES ('cu ' || old.id || ' ' || coalesce(new.p, 'null')); END",
            "INSERT INTO p VALUES (1), (2)",
            "INSERT INTO c VALUES (10, 1), (11, 1), (12, 2)",
            "DELETE FROM p WHERE id = 1",
            "UPDATE p SET id = 3 WHERE id = 2",
            "SELECT * FROM log ORDER BY rowid");
    }

    [Fact]
    public void Changes_do_not_count_rows_written_by_triggers()
    {
        using var o = new WriteOracle();
        Script(o,
            "CREATE TABLE t(a)",
            "CREATE TABLE log(x)",
            "CREATE TRIGGER ti AFTER INSERT ON t BEGIN INSERT INTO log VALUES (1), (2), (3); END");
        o.Db.Execute("INSERT INTO t VALUES (1), (2)").Should().Be(2);
        o.Db.LastChanges.Should().Be(2);
        o.SqliteOnly("INSERT INTO t VALUES (1), (2)");
        o.AssertSameContents();
    }

    /// <summary>
    /// A few triggers of random kinds on three tables, and a few hundred random writes; after every transaction the
    /// contents must be SQLite's and the file must pass integrity_check.
    /// </summary>
    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void Random_triggers_and_writes_match_sqlite(int seed)
    {
        var rng = new Random(seed);
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE a(id INTEGER PRIMARY KEY, x INT, y TEXT)");
        o.Ok("CREATE TABLE b(id INTEGER PRIMARY KEY, x INT UNIQUE, y TEXT)");
        o.Ok("CREATE TABLE c(k TEXT PRIMARY KEY, n INT) WITHOUT ROWID");
        string[] tables = ["a", "b"];
        string[] timings = ["BEFORE", "AFTER"];
        string[] events = ["INSERT", "UPDATE", "DELETE", "UPDATE OF x"];
        for (int i = 0; i < 6; i++)
        {
            string on = tables[rng.Next(2)];
            string other = on == "a" ? "b" : "a";
            string ev = events[rng.Next(events.Length)];
            string row = ev == "DELETE" ? "old" : "new";
            string when = rng.Next(3) == 0 ? $" WHEN {row}.x % 3 = {rng.Next(3)}" : "";
            string body = rng.Next(6) switch
            {
                0 => $"INSERT OR IGNORE INTO {other}(x, y) VALUES ({row}.x + {rng.Next(5)}, 'from {on}');",
                1 => $"UPDATE {other} SET y = coalesce(y, '') || '{i}' WHERE x = {row}.x;",
                2 => $"DELETE FROM {other} WHERE x > {row}.x + {rng.Next(20)};",
                3 => $"INSERT INTO c VALUES ('{on}' || {row}.id, 1) ON CONFLICT(k) DO UPDATE SET n = n + 1;",
                4 => $"UPDATE {on} SET y = 'touched {i}' WHERE id = {row}.id + 1;",
                _ => $"SELECT RAISE(IGNORE) WHERE {row}.x = {rng.Next(10)};",
            };
            o.Ok($"CREATE TRIGGER tr{i} {timings[rng.Next(2)]} {ev} ON {on}{when} BEGIN {body} END");
        }
        for (int tx = 0; tx < 30; tx++)
        {
            o.Ok("BEGIN");
            for (int s = 0; s < 10; s++)
            {
                string t = tables[rng.Next(2)];
                string conflict = rng.Next(4) == 0 ? " OR " + new[] { "IGNORE", "REPLACE", "FAIL", "ABORT" }[rng.Next(4)] : "";
                string sql = rng.Next(5) switch
                {
                    0 or 1 => $"INSERT{conflict} INTO {t}(x, y) VALUES ({rng.Next(30)}, 'v{tx}.{s}'), ({rng.Next(30)}, NULL)",
                    2 => $"UPDATE{conflict} {t} SET x = x + {rng.Next(1, 4)} WHERE x % {rng.Next(2, 5)} = 0",
                    3 => $"UPDATE {t} SET y = 'u{tx}' WHERE id % 3 = {rng.Next(3)}",
                    _ => $"DELETE FROM {t} WHERE x % {rng.Next(3, 7)} = {rng.Next(3)}",
                };
                o.Both(sql);
            }
            o.Ok("COMMIT");
            o.AssertSameContents();
        }
    }
}
