namespace Sharc.Tests.Cli;

public sealed class DumpTableTests : IDisposable
{
    private readonly CliFixture _fx = new();

    public void Dispose() => _fx.Dispose();

    [Fact]
    public void Table_format_aligns_columns_right_aligns_numbers_and_counts_rows()
    {
        string db = _fx.CreateDb("t.db",
            "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, pic BLOB)",
            "INSERT INTO t VALUES (1, 'Ann', 2.5, x'cafe')",
            "INSERT INTO t VALUES (20, NULL, -10.25, NULL)",
            "INSERT INTO t VALUES (300, 'multi\nline', NULL, x'')");

        var result = CliFixture.Run("dump", db, "t", "--format", "table");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be(CliFixture.Text("\n",
            " id | name        |  score | pic",
            "----+-------------+--------+--------",
            "  1 | Ann         |    2.5 | x'cafe'",
            " 20 | NULL        | -10.25 | NULL",
            "300 | multi\\nline |   NULL | x''",
            "(3 rows)"));
    }

    [Fact]
    public void Table_format_counts_wide_characters_as_two_columns()
    {
        string db = _fx.CreateDb("wide.db",
            "CREATE TABLE t(a TEXT, b INTEGER)",
            "INSERT INTO t VALUES ('日本', 1), ('abcde', 2)");

        var result = CliFixture.Run("dump", db, "t", "--format", "table");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be(CliFixture.Text("\n",
            "a     | b",
            "------+--",
            "日本  | 1",
            "abcde | 2",
            "(2 rows)"));
    }

    [Fact]
    public void Table_format_cuts_very_long_cells()
    {
        string db = _fx.CreateDb("long.db",
            "CREATE TABLE t(s TEXT)",
            "INSERT INTO t VALUES (printf('%.100c', 'x'))");

        var result = CliFixture.Run("dump", db, "t", "--format", "table");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Lines[2].Should().Be(new string('x', 59) + "…");
        result.Lines[^1].Should().Be("(1 row)");
    }

    [Fact]
    public void Table_format_of_an_empty_table_shows_the_header_and_zero_rows()
    {
        string db = _fx.CreateDb("empty.db", "CREATE TABLE e(alpha, b)");

        var result = CliFixture.Run("dump", db, "e", "--format", "table");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be("alpha | b\n------+--\n(0 rows)\n");
    }

    [Fact]
    public void Table_format_streams_rows_past_the_sizing_window_without_losing_any_or_cutting_numbers()
    {
        string path = _fx.PathOf("many.db");
        using (var c = CliFixture.Connect(path))
        {
            CliFixture.Exec(c, "CREATE TABLE t(n INTEGER)");
            CliFixture.Exec(c, "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 2500) INSERT INTO t SELECT i FROM k");
        }

        var result = CliFixture.Run("dump", path, "t", "--format", "table");

        result.ExitCode.Should().Be(0, result.Stderr);
        var lines = result.Lines;
        lines.Should().HaveCount(2 + 2500 + 1);
        // Sized from the first 100 rows (three digits); wider numbers later push out rather than being cut.
        lines[2].Should().Be("  1");
        lines[1001].Should().Be("1000");
        lines[2501].Should().Be("2500");
        lines[^1].Should().Be("(2500 rows)");
    }
}
