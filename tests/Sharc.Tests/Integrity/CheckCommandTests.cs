using Sharc.Cli;
using Sharc.Tests.Cli;

namespace Sharc.Tests.Integrity;

/// <summary><c>sharc check &lt;db&gt;</c>: "ok" and exit 0, or one line per problem and exit 1; usage errors exit 2.</summary>
public sealed class CheckCommandTests : IDisposable
{
    private readonly CliFixture _fx = new();

    public void Dispose() => _fx.Dispose();

    private string GoodDb() => _fx.CreateDb("good.db",
        "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b BLOB)",
        "CREATE INDEX t_a ON t(a)",
        "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 500) INSERT INTO t(a, b) SELECT 'row ' || i, randomblob(i * 7) FROM c",
        "DELETE FROM t WHERE id % 5 = 0");

    /// <summary>The good database with two index entries' rowids swapped in the index's first leaf.</summary>
    private string BrokenDb()
    {
        string path = GoodDb();
        uint root = DbImage.RootOf(path, "t_a");
        var img = DbImage.Load(path);
        uint leaf = img.Leaves(root)[0];
        int a = img.CellOffset(leaf, 1), b = img.CellOffset(leaf, 2);
        img.SetCellOffset(leaf, 1, b);
        img.SetCellOffset(leaf, 2, a);
        string broken = _fx.PathOf("broken.db");
        img.Save(broken);
        return broken;
    }

    [Fact]
    public void An_intact_database_prints_ok()
    {
        var result = CliFixture.Run("check", GoodDb());

        result.ExitCode.Should().Be(Program.ExitOk, result.Stderr);
        result.Stdout.Should().Be("ok\n");
        result.Stderr.Should().BeEmpty();
    }

    [Fact]
    public void A_broken_database_prints_one_line_per_problem()
    {
        var result = CliFixture.Run("check", BrokenDb());

        result.ExitCode.Should().Be(Program.ExitDataError);
        result.Stderr.Should().BeEmpty();
        result.Lines.Should().NotBeEmpty().And.NotContain("ok");
        result.Lines.Should().Contain(l => l.Contains("of index t_a is out of order"));
        using var db = SharcDatabase.Open(_fx.PathOf("broken.db"));
        result.Lines.Should().Equal(db.CheckIntegrity());
    }

    [Fact]
    public void Max_errors_limits_the_report()
    {
        string path = BrokenDb();

        var result = CliFixture.Run("check", path, "--max-errors", "1");

        result.ExitCode.Should().Be(Program.ExitDataError);
        result.Lines.Should().HaveCount(1);
        CliFixture.Run("check", "-n", "2", path).Lines.Should().HaveCount(2);
    }

    [Fact]
    public void A_database_too_damaged_to_open_is_a_problem_line()
    {
        string path = GoodDb();
        var img = DbImage.Load(path);
        img.Page(1)[100] = 0x42; // page 1 (sqlite_schema) is no b-tree page any more
        img.Save(path);

        var result = CliFixture.Run("check", path);

        result.ExitCode.Should().Be(Program.ExitDataError);
        result.Lines.Should().ContainSingle().Which.Should().Contain("malformed");
        result.Stderr.Should().BeEmpty();
    }

    [Fact]
    public void A_file_that_is_not_a_database_is_an_error_on_stderr()
    {
        string path = _fx.PathOf("notes.txt");
        File.WriteAllText(path, string.Concat(Enumerable.Repeat("This is not a database, just some text.\n", 20)));

        var result = CliFixture.Run("check", path);

        result.ExitCode.Should().Be(Program.ExitDataError);
        result.Stdout.Should().BeEmpty();
        result.Stderr.Should().StartWith("sharc: error: ").And.Contain(path).And.Contain("not a database");
    }

    [Fact]
    public void A_missing_file_is_an_error_on_stderr()
    {
        string path = _fx.PathOf("nope.db");

        var result = CliFixture.Run("check", path);

        result.ExitCode.Should().Be(Program.ExitDataError);
        result.Stdout.Should().BeEmpty();
        result.Stderr.Should().Be($"sharc: error: {path}: no such file\n");
    }

    [Theory]
    [InlineData("check")]
    [InlineData("check a.db b.db")]
    [InlineData("check a.db --max-errors 0")]
    [InlineData("check a.db --max-errors many")]
    [InlineData("check a.db --bogus")]
    public void Usage_errors_exit_2(string commandLine)
    {
        var result = CliFixture.Run(commandLine.Split(' '));

        result.ExitCode.Should().Be(Program.ExitUsage);
        result.Stdout.Should().BeEmpty();
        result.Stderr.Should().StartWith("sharc: error: check: ");
    }

    [Fact]
    public void Help_and_usage_list_the_command()
    {
        CliFixture.Run("check", "--help").Stdout.Should().StartWith("usage: sharc check <db> [--max-errors N]\n");
        CliFixture.Run("--help").Stdout.Should().Contain("  sharc check <db> [--max-errors N]\n").And.Contain("  check ");
    }
}
