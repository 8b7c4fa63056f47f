using FluentAssertions;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Sql.Writes;

/// <summary>
/// Statements whose side effects write the table they are writing: self-referencing foreign keys with actions on
/// both DELETE and UPDATE of the key, and triggers whose bodies change other rows of their own table. Each seeded
/// workload runs statement by statement on Sharc and SQLite (changes or error must agree) and ends with the same
/// rows and a file SQLite finds intact.
/// </summary>
public class SelfReferencingWriteTests
{
    [Theory]
    [InlineData(1, "CASCADE", "CASCADE")]
    [InlineData(2, "SET NULL", "CASCADE")]
    [InlineData(3, "CASCADE", "SET NULL")]
    [InlineData(4, "SET DEFAULT", "SET DEFAULT")]
    [InlineData(5, "NO ACTION", "CASCADE")]
    [InlineData(6, "CASCADE", "CASCADE")]
    [InlineData(7, "SET NULL", "SET NULL")]
    [InlineData(8, "SET DEFAULT", "CASCADE")]
    [InlineData(9, "CASCADE", "SET DEFAULT")]
    [InlineData(10, "SET NULL", "NO ACTION")]
    public void Seeded_writes_through_self_referencing_keys_and_triggers_match_sqlite(int seed, string onDelete, string onUpdate)
    {
        using var o = new WriteOracle();
        o.Ok("PRAGMA foreign_keys = ON");
        o.Ok($"CREATE TABLE t(id INTEGER PRIMARY KEY, k TEXT UNIQUE, v INT, up INT DEFAULT 1 REFERENCES t(id) ON DELETE {onDelete} ON UPDATE {onUpdate})");
        o.Ok("CREATE INDEX t_up ON t(up, v)");
        o.Ok("CREATE TABLE log(n INTEGER PRIMARY KEY, what TEXT, id INT)");
        // Triggers that write their own table (recursive_triggers is off, as by default: they do not fire themselves).
        o.Ok("CREATE TRIGGER t_ins AFTER INSERT ON t WHEN new.v % 3 = 0 BEGIN UPDATE t SET v = v + 1 WHERE up = new.id; INSERT INTO log(what, id) VALUES ('ins', new.id); END");
        o.Ok("CREATE TRIGGER t_upd AFTER UPDATE OF v ON t WHEN new.v > 20 BEGIN UPDATE t SET v = v - 20 WHERE id = new.up; END");
        o.Ok("CREATE TRIGGER t_del BEFORE DELETE ON t BEGIN INSERT INTO log(what, id) VALUES ('del', old.id); UPDATE t SET k = k || '+' WHERE up = old.id AND k NOT LIKE '%+'; END");
        var rng = new Random(seed);
        o.Both("INSERT INTO t VALUES (1, 'root', 0, NULL)");
        for (int i = 2; i <= 50; i++)
            o.Both("INSERT INTO t VALUES (?1, ?2, ?3, ?4)", i, "k" + i, (long)rng.Next(12), (long)rng.Next(1, i));
        o.Ok("BEGIN");
        for (int n = 0; n < 250; n++)
        {
            var ids = o.RunSqlite("SELECT id FROM t ORDER BY id", []).Rows;
            long Existing() => ids.Count == 0 ? 1 : long.Parse(ids[rng.Next(ids.Count)].Split(' ')[1]);
            long id = rng.Next(4) == 0 ? rng.Next(1, 90) : Existing();
            switch (rng.Next(7))
            {
                case 0: o.Both("INSERT OR REPLACE INTO t VALUES (?1, ?2, ?3, ?4)", id, "k" + rng.Next(70), (long)rng.Next(12), Existing()); break;
                case 1: o.Both("UPDATE OR REPLACE t SET k = ?1, v = v + ?2 WHERE id = ?3", "k" + rng.Next(70), (long)rng.Next(5), id); break;
                case 2: o.Both("UPDATE t SET id = ?1 WHERE id = ?2", (long)rng.Next(1, 120), id); break;
                case 3: o.Both("DELETE FROM t WHERE id = ?1", id); break;
                case 4: o.Both("UPDATE t SET v = v + 7 WHERE up = ?1", id); break;
                case 5: o.Both("INSERT INTO t(k, v, up) VALUES (?1, ?2, ?3) ON CONFLICT(k) DO UPDATE SET v = excluded.v, up = excluded.up", "k" + rng.Next(70), (long)rng.Next(30), Existing()); break;
                default: o.Both("DELETE FROM t WHERE v > ?1 AND up = ?2", (long)rng.Next(6, 12), id); break;
            }
        }
        o.Ok("COMMIT");
        o.AssertSameContents();
    }
}
