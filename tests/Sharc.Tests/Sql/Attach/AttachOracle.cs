using FluentAssertions;
using Sharc.Tests.Sql.Writes;

namespace Sharc.Tests.Sql.Attach;

/// <summary>
/// A <see cref="WriteOracle"/> whose statements may name attached files: "{aux}" and "{aux2}" stand for a file of
/// each engine's own, so that the same ATTACH runs on both and every later statement compares as usual.
/// </summary>
public sealed class AttachOracle : IDisposable
{
    public AttachOracle() => Inner = new WriteOracle();

    public WriteOracle Inner { get; }

    public SharcDatabase Db => Inner.Db;

    public string SharcFile(string name) => Inner.SharcPath + "." + name;

    public string SqliteFile(string name) => Inner.SqlitePath + "." + name;

    /// <summary>Runs on both with the placeholders replaced; asserts the outcomes agree.</summary>
    public WriteOracle.Outcome Both(string sql)
    {
        var expected = Inner.RunSqlite(Fill(sql, SqliteFile), []);
        var actual = Inner.RunSharc(Fill(sql, SharcFile), []);
        actual.ToString().Should().Be(expected.ToString(), $"Sharc and SQLite differ on: {sql}");
        return actual;
    }

    public WriteOracle.Outcome Ok(string sql)
    {
        var outcome = Both(sql);
        outcome.Error.Should().BeNull($"{sql} should succeed");
        return outcome;
    }

    public string Error(string sql)
    {
        var outcome = Both(sql);
        outcome.Error.Should().NotBeNull($"{sql} should fail");
        return outcome.Error!;
    }

    private static string Fill(string sql, Func<string, string> file)
        => sql.Replace("{aux}", file("aux"), StringComparison.Ordinal).Replace("{aux2}", file("aux2"), StringComparison.Ordinal);

    /// <summary>Both files of an attachment pass integrity_check and hold the same rows of <paramref name="table"/>.</summary>
    public void SameFileContents(string name, string table)
    {
        Infrastructure.Oracle.IntegrityCheck(SharcFile(name)).Should().Be("ok");
        string q = $"SELECT * FROM \"{table}\" ORDER BY 1";
        Infrastructure.Oracle.Rows(SharcFile(name), q).Should().BeEquivalentTo(Infrastructure.Oracle.Rows(SqliteFile(name), q), o => o.WithStrictOrdering());
    }

    public void Dispose() => Inner.Dispose();
}
