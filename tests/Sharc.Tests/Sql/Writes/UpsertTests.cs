using FluentAssertions;

namespace Sharc.Tests.Sql.Writes;

/// <summary>INSERT … ON CONFLICT DO NOTHING / DO UPDATE, statement by statement against SQLite.</summary>
public class UpsertTests
{
    private static WriteOracle Seeded()
    {
        var o = new WriteOracle();
        o.Ok("CREATE TABLE kv(id INTEGER PRIMARY KEY, k TEXT UNIQUE, v INT, n INT DEFAULT 0)");
        o.Ok("INSERT INTO kv(k, v) VALUES ('a', 1), ('b', 2)");
        return o;
    }

    [Fact]
    public void Do_nothing_skips_conflicting_rows_only()
    {
        using var o = Seeded();
        o.Ok("INSERT INTO kv(k, v) VALUES ('a', 10), ('c', 3) ON CONFLICT DO NOTHING").Changes.Should().Be(1);
        o.Ok("INSERT INTO kv(id, k, v) VALUES (1, 'z', 5) ON CONFLICT(id) DO NOTHING").Changes.Should().Be(0);
        o.Both("INSERT INTO kv(id, k, v) VALUES (9, 'a', 5) ON CONFLICT(id) DO NOTHING").Error.Should().Be("UNIQUE constraint failed: kv.k");
        o.AssertSameContents();
    }

    [Fact]
    public void Do_update_sees_the_existing_row_and_excluded()
    {
        using var o = Seeded();
        o.Ok("INSERT INTO kv(k, v) VALUES ('a', 10), ('d', 4) ON CONFLICT(k) DO UPDATE SET v = v + excluded.v, n = n + 1 RETURNING *").Changes.Should().Be(2);
        o.Ok("INSERT INTO kv AS x (k, v) VALUES ('b', 7) ON CONFLICT(k) DO UPDATE SET v = x.v * 100 WHERE excluded.v > x.v");
        o.Ok("INSERT INTO kv(k, v) VALUES ('b', 1) ON CONFLICT(k) DO UPDATE SET v = 0 WHERE excluded.v > kv.v").Changes.Should().Be(0);
        o.Ok("INSERT INTO kv(id, k, v) VALUES (1, 'q', 9) ON CONFLICT(k) DO NOTHING ON CONFLICT(id) DO UPDATE SET k = excluded.k || '!'");
        o.Both("INSERT INTO kv(k, v) VALUES ('a', 1) ON CONFLICT(v) DO NOTHING").Error.Should().Be("ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint");
        o.Both("INSERT INTO kv(k, v) VALUES ('d', 1) ON CONFLICT(k) DO UPDATE SET k = 'b'").Error.Should().Be("UNIQUE constraint failed: kv.k");
        o.AssertSameContents();
    }

    private static WriteOracle SeededWithoutRowId()
    {
        var o = new WriteOracle();
        o.Ok("CREATE TABLE w(k TEXT, n INT, u TEXT UNIQUE, v INT DEFAULT 0, PRIMARY KEY(k, n)) WITHOUT ROWID");
        o.Ok("CREATE UNIQUE INDEX w_v ON w(v)");
        o.Ok("INSERT INTO w VALUES ('a', 1, 'x', 10), ('a', 2, 'y', 20), ('b', 1, 'z', 30)");
        return o;
    }

    [Fact]
    public void Without_rowid_do_nothing_skips_primary_key_and_unique_conflicts()
    {
        using var o = SeededWithoutRowId();
        o.Ok("INSERT INTO w VALUES ('a', 1, 'q', 11), ('c', 1, 'x', 12), ('c', 2, 'r', 20), ('c', 3, 's', 13) ON CONFLICT DO NOTHING").Changes.Should().Be(1);
        o.Ok("INSERT INTO w VALUES ('a', 2, 'n', 14) ON CONFLICT(k, n) DO NOTHING").Changes.Should().Be(0);
        o.Ok("INSERT INTO w VALUES ('b', 1, 'n', 15) ON CONFLICT(n, k) DO NOTHING RETURNING *").Rows.Should().BeEmpty();
        o.Ok("INSERT INTO w VALUES ('d', 1, 'y', 16) ON CONFLICT(u) DO NOTHING").Changes.Should().Be(0);
        o.Both("INSERT INTO w VALUES ('d', 1, 'y', 17) ON CONFLICT(k, n) DO NOTHING").Error.Should().Be("UNIQUE constraint failed: w.u");
        o.Both("INSERT INTO w VALUES ('a', 1, 'new', 18) ON CONFLICT(u) DO NOTHING").Error.Should().Be("UNIQUE constraint failed: w.k, w.n");
        o.Both("INSERT INTO w VALUES ('e', 1, 'e', 1) ON CONFLICT(k) DO NOTHING").Error.Should().Be("ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint");
        o.AssertSameContents();
    }

    [Fact]
    public void Without_rowid_do_update_sees_the_existing_row_and_excluded()
    {
        using var o = SeededWithoutRowId();
        o.Ok("INSERT INTO w VALUES ('a', 1, 'q', 5), ('d', 4, 'd', 40) ON CONFLICT(k, n) DO UPDATE SET v = v + excluded.v, u = u || excluded.u RETURNING *").Changes.Should().Be(2);
        o.Ok("INSERT INTO w AS x VALUES ('c', 9, 'y', 99) ON CONFLICT(u) DO UPDATE SET v = x.v * 100 WHERE excluded.v > x.v RETURNING k, n, v");
        o.Ok("INSERT INTO w VALUES ('c', 9, 'y', 1) ON CONFLICT(u) DO UPDATE SET v = 0 WHERE excluded.v > w.v").Changes.Should().Be(0);
        o.Ok("INSERT INTO w VALUES ('m', 1, 'm', 30) ON CONFLICT(v) DO UPDATE SET v = excluded.v + 1, u = 'via v'");
        o.Ok("INSERT INTO w VALUES ('a', 2, 'zz', 0) ON CONFLICT DO UPDATE SET n = 7, k = excluded.u RETURNING *");
        o.Both("INSERT INTO w VALUES ('d', 4, 'q', 0) ON CONFLICT(k, n) DO UPDATE SET u = 'x' || 'q'").Error.Should().Be("UNIQUE constraint failed: w.u");
        o.Both("INSERT INTO w VALUES ('d', 4, 'q', 0) ON CONFLICT(k, n) DO UPDATE SET k = 'zz', n = 7").Error.Should().Be("UNIQUE constraint failed: w.k, w.n");
        o.AssertSameContents();
    }

    [Fact]
    public void Without_rowid_several_on_conflict_clauses_pick_the_first_that_matches()
    {
        using var o = SeededWithoutRowId();
        o.Ok("INSERT INTO w VALUES ('a', 1, 'x', 10) ON CONFLICT(u) DO UPDATE SET v = 1000 ON CONFLICT(k, n) DO UPDATE SET v = -1 RETURNING *");
        o.Ok("INSERT INTO w VALUES ('a', 2, 'p', 50) ON CONFLICT(u) DO NOTHING ON CONFLICT(k, n) DO UPDATE SET u = excluded.u || '!' RETURNING *");
        o.Ok("INSERT INTO w VALUES ('q', 1, 'z', 51) ON CONFLICT(k, n) DO NOTHING ON CONFLICT(v) DO NOTHING ON CONFLICT DO UPDATE SET v = 52");
        o.Ok("INSERT INTO w VALUES ('q', 2, 'r', 62), ('q', 3, 'r', 63) ON CONFLICT(k, n) DO NOTHING ON CONFLICT(u) DO UPDATE SET n = n + 10 RETURNING *");
        o.AssertSameContents();
    }

    [Fact]
    public void Without_rowid_upsert_with_a_single_column_key_and_parameters()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE kv(k TEXT PRIMARY KEY COLLATE NOCASE, v INT NOT NULL, hits INT DEFAULT 1) WITHOUT ROWID");
        for (int i = 0; i < 6; i++)
            o.Ok("INSERT INTO kv(k, v) VALUES (?1, ?2) ON CONFLICT(k) DO UPDATE SET v = excluded.v, hits = hits + 1", i % 2 == 0 ? "Key" : "KEY", i);
        o.Ok("INSERT INTO kv(k, v) SELECT 'key', 100 UNION ALL SELECT 'other', 1 ON CONFLICT DO UPDATE SET hits = -hits RETURNING *");
        o.Both("INSERT INTO kv(k, v) VALUES ('key', 1) ON CONFLICT(k) DO UPDATE SET v = NULL").Error.Should().Be("NOT NULL constraint failed: kv.v");
        o.AssertSameContents();
    }
}
