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
}
