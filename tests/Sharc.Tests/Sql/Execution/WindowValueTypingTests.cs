using FluentAssertions;
using Sharc.Tests.Sql.Writes;

namespace Sharc.Tests.Sql.Execution;

/// <summary>
/// Window results whose storage class or argument conversion follows SQLite's sliding-frame machinery: sum() stays
/// REAL once a non-integer has entered a frame, and nth_value() reads a text N as the number it spells.
/// </summary>
public sealed class WindowValueTypingTests
{
    [Fact]
    public void Sum_over_a_sliding_rows_frame_stays_real_once_a_real_has_entered()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, p TEXT, v)");
        o.Ok("INSERT INTO t(p, v) VALUES ('a', 100.0), ('a', 100), ('a', 100), ('a', 100), ('b', 1), ('b', 2), ('b', '2.5'), ('b', 3), ('b', 4), ('c', 5), ('c', NULL), ('c', '7'), ('c', x'31')");
        o.Ok("SELECT id, sum(v) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t ORDER BY id");
        o.Ok("SELECT id, sum(v) OVER (PARTITION BY p ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM t ORDER BY id");
        o.Ok("SELECT id, sum(v) OVER (PARTITION BY p ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING) FROM t ORDER BY id");
        o.Ok("SELECT id, sum(v) FILTER (WHERE id <> 1) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t ORDER BY id");
        o.Ok("SELECT id, sum(v) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), avg(v) OVER (ORDER BY id ROWS 2 PRECEDING), total(v) OVER (ORDER BY id ROWS 1 PRECEDING) FROM t ORDER BY id");
    }

    [Fact]
    public void Nth_value_reads_a_text_position_as_the_number_it_spells()
    {
        using var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, v)");
        o.Ok("INSERT INTO t(v) VALUES ('x'), ('y'), ('z')");
        o.Ok("SELECT id, nth_value(v, '2') OVER (ORDER BY id) FROM t ORDER BY id");
        o.Ok("SELECT id, nth_value(v, ' 3 ') OVER (ORDER BY id), nth_value(v, '2.0') OVER (ORDER BY id), nth_value(v, 2.0) OVER (ORDER BY id) FROM t ORDER BY id");
        o.Both("SELECT nth_value(v, 'two') OVER (ORDER BY id) FROM t").Error.Should().Be("second argument to nth_value must be a positive integer");
        o.Both("SELECT nth_value(v, '2.5') OVER (ORDER BY id) FROM t").Error.Should().Be("second argument to nth_value must be a positive integer");
    }
}
