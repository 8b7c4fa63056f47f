using Sharc.Cli.Commands;

namespace Sharc.Tests.Cli;

public sealed class DemoCommandTests : IDisposable
{
    private readonly CliFixture _fx = new();

    public void Dispose() => _fx.Dispose();

    [Fact]
    public void Demo_shows_the_schema_and_rows_of_the_sample_and_removes_its_temporary_file()
    {
        var result = CliFixture.Run("demo");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stderr.Should().BeEmpty();
        var lines = result.Lines;
        lines[0].Should().StartWith("Wrote the sample database to ");
        string path = lines[0]["Wrote the sample database to ".Length..];
        lines.Should().Contain($"$ sharc schema {path}");
        lines.Should().Contain("table authors (rowid table, root page 2)");
        lines.Should().Contain("table tags (WITHOUT ROWID, root page 4)");
        lines.Should().Contain("view book_list");
        lines.Should().Contain("trigger authors_cascade on authors");
        lines.Should().ContainInOrder(
            $"$ sharc dump {path} authors",
            "[1,\"Jane Austen\",1775,4.5,{\"blob\":\"89504e470d0a1a0a\"}]",
            "[2,\"Mary Shelley\",1797,null,null]",
            "[3,\"Gabriel García Márquez\",1927,4.25,null]",
            "[4,\"Murasaki Shikibu\",null,3.0,{\"blob\":\"cafe\"}]",
            "",
            $"$ sharc dump {path} tags --format table",
            "book_id | tag",
            "--------+----------------",
            "      1 | classic",
            "      1 | romance",
            "      2 | comedy");
        lines.Should().Contain("(8 rows)");
        File.Exists(path).Should().BeFalse("the temporary sample is deleted afterwards");
    }

    [Fact]
    public void Demo_out_keeps_a_database_that_sqlite_reads_and_refuses_to_overwrite_without_force()
    {
        string path = _fx.PathOf("sample.db");

        var first = CliFixture.Run("demo", "--out", path);
        var second = CliFixture.Run("demo", "--out", path);
        var forced = CliFixture.Run("demo", "--out", path, "--force");

        first.ExitCode.Should().Be(0, first.Stderr);
        first.Lines[0].Should().Be($"Wrote the sample database to {path}");
        first.Lines[^1].Should().Be($"Try next: sharc dump {path} books --format csv");
        CliFixture.Query(path, "SELECT count(*) FROM authors")[0][0].Should().Be(4L);
        CliFixture.Query(path, "PRAGMA integrity_check")[0][0].Should().Be("ok");

        second.ExitCode.Should().Be(1);
        second.Stderr.Should().Be($"sharc: error: {path} already exists (choose another --out path, or add --force to replace it)\n");
        forced.ExitCode.Should().Be(0, forced.Stderr);
    }

    [Fact]
    public void The_sample_dumps_equal_what_sqlite_reads_from_it()
    {
        string path = _fx.PathOf("sample.db");
        DemoCommand.WriteSample(path);

        foreach (var (name, sql) in new[]
        {
            ("authors", "SELECT * FROM authors ORDER BY rowid"),
            ("books", "SELECT * FROM books ORDER BY rowid"),
            ("tags", "SELECT * FROM tags ORDER BY book_id, tag"),
            ("books_by_author", "SELECT author_id, year, rowid FROM books ORDER BY author_id, year DESC, rowid"),
            ("cheap_books", "SELECT price, rowid FROM books WHERE price < 10 ORDER BY price, rowid"),
        })
        {
            var result = CliFixture.Run("dump", path, name);
            result.ExitCode.Should().Be(0, result.Stderr);
            CliFixture.ShouldMatch(CliFixture.ParseJsonl(result.Stdout), CliFixture.Query(path, sql));
        }
    }

    [Fact]
    public void Demo_force_without_out_is_a_usage_error()
    {
        var result = CliFixture.Run("demo", "--force");

        result.ExitCode.Should().Be(2);
        result.Stderr.Should().Be("sharc: error: demo: --force only applies with --out\n");
    }
}
