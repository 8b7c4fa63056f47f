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

    [Fact]
    public void Target_where_names_a_partial_index_only_when_it_is_the_same_expression()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, a, b, c)");
        o.Ok("CREATE UNIQUE INDEX t_ap ON t(a) WHERE a > 0");
        o.Ok("CREATE UNIQUE INDEX t_b ON t(b)");
        o.Ok("INSERT INTO t VALUES (1, 5, 'x', 0), (2, -1, 'y', 0)");
        const string NoMatch = "ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint";
        o.Both("INSERT INTO t VALUES (3, 5, 'q', 0) ON CONFLICT(a) DO NOTHING").Error.Should().Be(NoMatch);
        foreach (var where in new[] { "0 < a", "a > 0.0", "a > 0 AND 1", "a > +0", "a > 1", "a >= 0", "a > 0 COLLATE nocase", "a > '0'" })
            o.Both($"INSERT INTO t VALUES (3, 5, 'q', 0) ON CONFLICT(a) WHERE {where} DO NOTHING").Error.Should().Be(NoMatch, where);
        int n = 0;
        foreach (var where in new[] { "a > 0", "a>0", "(a > 0)", "t.a > 0", "main.t.a > 0", "A > 0", "a > 00", "a > 0x0" })
            o.Ok($"INSERT INTO t VALUES (3, 5, 'q', 0) ON CONFLICT(a) WHERE {where} DO UPDATE SET c = {++n}").Changes.Should().Be(1);
        o.Ok("INSERT INTO t AS x VALUES (3, 5, 'q', 0) ON CONFLICT(a) WHERE x.a > 0 DO UPDATE SET c = c + 100 RETURNING *");
        o.Both("INSERT INTO t VALUES (3, 5, 'q', 0) ON CONFLICT(a) WHERE zz > 0 DO NOTHING").Error.Should().Be("no such column: zz");
        o.Both("INSERT INTO t VALUES (3, 5, 'q', 0) ON CONFLICT(a) WHERE excluded.a > 0 DO NOTHING").Error.Should().Be("no such column: excluded.a");
        // A row the index does not admit meets no conflict in it: inserted.
        o.Ok("INSERT INTO t VALUES (4, -1, 'z', 0) ON CONFLICT(a) WHERE a > 0 DO UPDATE SET c = -1").Changes.Should().Be(1);
        // A WHERE does not keep a full index or the rowid from being named.
        o.Ok("INSERT INTO t VALUES (5, 7, 'x', 0) ON CONFLICT(b) WHERE b > 'zzz' DO UPDATE SET c = 'full'");
        o.Ok("INSERT INTO t VALUES (4, 8, 'w', 0) ON CONFLICT(id) WHERE a > 0 DO UPDATE SET c = 'rowid'");
        o.AssertSameContents();
    }

    [Fact]
    public void Several_partial_indexes_on_the_same_columns_are_told_apart_by_their_where()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, a, b, c)");
        o.Ok("CREATE UNIQUE INDEX t_3 ON t(a) WHERE c = 3");
        o.Ok("CREATE UNIQUE INDEX t_4 ON t(a) WHERE c = 4");
        o.Ok("INSERT INTO t VALUES (1, 1, 1, 3), (2, 1, 2, 4), (3, 1, 3, 5), (4, 1, 4, 5)");
        o.Both("INSERT INTO t VALUES (5, 1, 10, 4) ON CONFLICT(a) WHERE c = 3 DO UPDATE SET b = b + 100").Error.Should().Be("UNIQUE constraint failed: t.a");
        o.Ok("INSERT INTO t VALUES (5, 1, 10, 4) ON CONFLICT(a) WHERE c = 4 DO UPDATE SET b = b + 1000 RETURNING *").Changes.Should().Be(1);
        o.Ok("INSERT INTO t VALUES (5, 1, 11, 3) ON CONFLICT(a) WHERE c = 4 DO NOTHING ON CONFLICT(a) WHERE c = 3 DO UPDATE SET b = -b RETURNING *");
        o.Ok("INSERT INTO t VALUES (6, 1, 12, 5) ON CONFLICT(a) WHERE c = 4 DO UPDATE SET b = 0").Changes.Should().Be(1);
        o.Both("INSERT INTO t VALUES (6, 1, 12, 4) ON CONFLICT(a) WHERE c = 4 DO UPDATE SET b = 0").Changes.Should().Be(1);
        o.Both("INSERT INTO t VALUES (6, 1, 12, 5) ON CONFLICT(a) WHERE c = 5 DO NOTHING").Error.Should().Be("ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint");
        o.AssertSameContents();
    }

    [Fact]
    public void Target_collation_must_be_the_index_column_collation_and_the_latest_index_wins()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, a UNIQUE, b)");
        o.Ok("CREATE UNIQUE INDEX t_nocase ON t(a COLLATE NOCASE)");
        o.Ok("INSERT INTO t VALUES (1, 'A', 0)");
        o.Ok("INSERT INTO t VALUES (2, 'a', 0) ON CONFLICT(a) DO UPDATE SET b = 'nocase index'").Changes.Should().Be(1);
        o.Ok("INSERT INTO t VALUES (3, 'A', 0) ON CONFLICT(a COLLATE binary) DO UPDATE SET b = 'binary index'");
        o.Both("INSERT INTO t VALUES (3, 'a', 0) ON CONFLICT(a COLLATE BINARY) DO UPDATE SET b = 'x'").Error.Should().Be("UNIQUE constraint failed: t.a");
        o.Ok("INSERT INTO t VALUES (3, 'a', 0) ON CONFLICT(a COLLATE nocase) DO UPDATE SET b = 'nocase'");
        o.Ok("CREATE TABLE u(a COLLATE NOCASE, b, UNIQUE(a))");
        o.Ok("INSERT INTO u VALUES ('A', 1)");
        o.Ok("INSERT INTO u VALUES ('a', 1) ON CONFLICT(a COLLATE nocase) DO UPDATE SET b = 2");
        o.Both("INSERT INTO u VALUES ('a', 1) ON CONFLICT(a COLLATE binary) DO UPDATE SET b = 3").Error.Should().Be("ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint");
        o.AssertSameContents();
    }

    [Fact]
    public void Without_rowid_partial_index_target()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE w(k, a, b, PRIMARY KEY(k)) WITHOUT ROWID");
        o.Ok("CREATE UNIQUE INDEX w_ap ON w(a) WHERE b > 0");
        o.Ok("INSERT INTO w VALUES (1, 1, 1), (2, 1, 0)");
        o.Ok("INSERT INTO w VALUES (3, 1, 5) ON CONFLICT(a) WHERE b > 0 DO UPDATE SET b = b + 10 RETURNING *").Changes.Should().Be(1);
        o.Ok("INSERT INTO w VALUES (3, 1, 0) ON CONFLICT(a) WHERE b > 0 DO UPDATE SET b = b + 10 RETURNING *").Changes.Should().Be(1);
        o.Both("INSERT INTO w VALUES (2, 7, 5) ON CONFLICT(k) WHERE b > 0 DO UPDATE SET b = b + 100").Error.Should().Be("UNIQUE constraint failed: w.a");
        o.Both("INSERT INTO w VALUES (4, 1, 5) ON CONFLICT(a) DO NOTHING").Error.Should().Be("ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint");
        o.Ok("INSERT INTO w VALUES (4, 1, 5) ON CONFLICT(a) WHERE b > 0 DO NOTHING").Changes.Should().Be(0);
        o.Ok("INSERT INTO w VALUES (5, 1, -5) ON CONFLICT DO NOTHING").Changes.Should().Be(1);
        o.AssertSameContents();
    }

    [Fact]
    public void Partial_unique_index_conflicts_only_for_admitted_rows()
    {
        foreach (var withoutRowId in new[] { false, true })
        {
            using var o = new WriteOracle();
            o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, a, b)" + (withoutRowId ? " WITHOUT ROWID" : ""));
            o.Ok("CREATE UNIQUE INDEX t_ap ON t(a) WHERE b IS NOT NULL");
            o.Ok("INSERT INTO t VALUES (1, 1, 1), (2, 1, NULL)");
            o.Both("INSERT INTO t VALUES (3, 1, 0)").Error.Should().Be("UNIQUE constraint failed: t.a");
            o.Ok("INSERT INTO t VALUES (3, 1, NULL) ON CONFLICT DO UPDATE SET b = 'conflict?'").Changes.Should().Be(1);
            o.Ok("INSERT INTO t VALUES (4, 1, NULL) ON CONFLICT(a) WHERE b IS NOT NULL DO UPDATE SET b = 'no'").Changes.Should().Be(1);
            o.Ok("INSERT INTO t VALUES (4, 1, NULL) ON CONFLICT DO UPDATE SET b = NULL RETURNING *").Changes.Should().Be(1);
            o.Ok("UPDATE t SET b = NULL WHERE id = 1");
            o.Ok("UPDATE OR IGNORE t SET a = 1, b = 2 WHERE id = 2").Changes.Should().Be(1);
            o.Ok("UPDATE OR IGNORE t SET b = 3 WHERE id = 3").Changes.Should().Be(0);
            o.Both("UPDATE t SET b = 3 WHERE id = 3").Error.Should().Be("UNIQUE constraint failed: t.a");
            o.Ok("UPDATE t SET a = 1 WHERE b IS NULL").Changes.Should().Be(3);
            o.Ok("UPDATE OR REPLACE t SET b = 9 WHERE id = 4").Changes.Should().Be(1);
            o.Ok("INSERT OR IGNORE INTO t VALUES (5, 1, 5), (6, 1, NULL)").Changes.Should().Be(1);
            o.Ok("INSERT OR REPLACE INTO t VALUES (7, 1, NULL), (8, 1, 8)").Changes.Should().Be(2);
            o.AssertSameContents();
        }
    }
}
