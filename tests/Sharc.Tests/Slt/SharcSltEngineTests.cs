using Sharc.Cli.Slt;

namespace Sharc.Tests.Slt;

/// <summary>
/// Sharc as the sqllogictest engine runs a file as the reference harness does — every record in autocommit unless the
/// file begins a transaction — even though it keeps a transaction open between plain statements for speed.
/// </summary>
public sealed class SharcSltEngineTests
{
    private static SltFileResult Run(string text) => new SltRunner(() => new SharcSltEngine()).Run("t.test", text);

    private static string Describe(SltFileResult result)
        => string.Join('\n', result.Failures.Select(f => $"{f.Line}: {f.Message} ({f.Sql})"));

    [Fact]
    public void Foreign_keys_turned_on_by_the_file_are_enforced_from_the_next_statement()
    {
        var result = Run("""
            statement ok
            CREATE TABLE p(id INTEGER PRIMARY KEY)

            statement ok
            CREATE TABLE c(pid INTEGER REFERENCES p(id))

            statement ok
            INSERT INTO c VALUES(1)

            statement ok
            PRAGMA foreign_keys=ON

            statement error
            INSERT INTO c VALUES(2)

            query I
            PRAGMA foreign_keys
            ----
            1

            """);

        result.Failed.Should().Be(0, Describe(result));
        result.Passed.Should().Be(6);
    }

    [Fact]
    public void A_deferred_foreign_key_fails_at_the_end_of_its_own_statement_as_in_autocommit()
    {
        var result = Run("""
            statement ok
            PRAGMA foreign_keys=ON

            statement ok
            CREATE TABLE p(id INTEGER PRIMARY KEY)

            statement ok
            CREATE TABLE c(pid INTEGER REFERENCES p(id) DEFERRABLE INITIALLY DEFERRED)

            statement error
            INSERT INTO c VALUES(7)

            query I
            SELECT count(*) FROM c
            ----
            0

            """);

        result.Failed.Should().Be(0, Describe(result));
    }

    [Fact]
    public void A_comment_before_begin_does_not_hide_the_files_transaction()
    {
        var result = Run("""
            statement ok
            CREATE TABLE t(x)

            statement ok
            -- the file's own transaction
            BEGIN

            statement ok
            INSERT INTO t VALUES(1)

            statement ok
            /* undo it */ ROLLBACK

            query I
            SELECT count(*) FROM t
            ----
            0

            """);

        result.Failed.Should().Be(0, Describe(result));
        result.Passed.Should().Be(5);
    }

    [Theory]
    [InlineData("  begin", "BEGIN")]
    [InlineData("-- a\n-- b\nPragma x", "PRAGMA")]
    [InlineData("/* c */\tvacuum", "VACUUM")]
    [InlineData("/* unterminated", "")]
    [InlineData("-- only a comment", "")]
    public void The_first_keyword_skips_whitespace_and_comments(string sql, string expected)
        => SharcSltEngine.FirstKeyword(sql).Should().Be(expected);
}
