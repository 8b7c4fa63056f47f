using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using Sharc.Sql.Parsing;
using Xunit.Abstractions;

namespace Sharc.Tests.Sql.Parsing;

/// <summary>
/// Sharq and SQLite (sqlite3_prepare) must agree on which statements have syntax errors: for the hand-written
/// corpus, and for seeded random mutations of it (a token deleted, duplicated, swapped with its neighbour or
/// replaced by another).
/// </summary>
public sealed class SqliteSyntaxDifferentialTests : IDisposable
{
    private readonly SqliteSyntaxOracle _oracle = new();
    private readonly ITestOutputHelper _output;

    public SqliteSyntaxDifferentialTests(ITestOutputHelper output) => _output = output;

    public void Dispose() => _oracle.Dispose();

    [Fact]
    public void Valid_corpus_parses_in_both()
    {
        var failures = new List<string>();
        foreach (var sql in SqlCorpus.Valid)
        {
            string? sqlite = _oracle.SqliteError(sql);
            if (SqliteSyntaxOracle.IsSyntaxMessage(sqlite)) failures.Add($"{sql}\n    SQLite: {sqlite}");
            try
            {
                SqlParser.ParseStatement(sql);
            }
            catch (SharcSqlException e)
            {
                failures.Add($"{sql}\n    Sharq: {e.Message}");
            }
        }
        failures.Should().BeEmpty();
    }

    [Fact]
    public void Syntax_error_corpus_fails_in_both()
    {
        var failures = new List<string>();
        foreach (var sql in SqlCorpus.SyntaxErrors)
        {
            string? sqlite = _oracle.SqliteError(sql);
            if (!SqliteSyntaxOracle.IsSyntaxMessage(sqlite)) failures.Add($"{sql}\n    SQLite: {sqlite ?? "ok"}");
            if (_oracle.Disagreement(sql) is { } d) failures.Add(d);
        }
        failures.Should().BeEmpty();
    }

    [Fact]
    public void Sharq_reports_the_same_syntax_error_message_as_sqlite_for_the_error_corpus()
    {
        // Not only "is it a syntax error" but the same words: mostly the same token, "incomplete input" at the end.
        var failures = new List<string>();
        foreach (var sql in SqlCorpus.SyntaxErrors)
        {
            string? sqlite = _oracle.SqliteError(sql);
            var (error, _) = SqliteSyntaxOracle.Sharq(sql);
            if (error?.SqliteMessage != sqlite) failures.Add($"{sql}\n    SQLite: {sqlite}\n    Sharq:  {error?.SqliteMessage}");
        }
        _output.WriteLine($"{SqlCorpus.SyntaxErrors.Length - failures.Count} of {SqlCorpus.SyntaxErrors.Length} messages identical");
        foreach (var f in failures) _output.WriteLine(f);
        failures.Count.Should().BeLessThan(SqlCorpus.SyntaxErrors.Length / 10, "messages should match SQLite's almost always");
    }

    [Fact]
    public void Seeded_mutations_agree_on_syntax_errors()
    {
        var random = new Random(20250613);
        var cases = new List<string>();
        foreach (var sql in SqlCorpus.Valid.Concat(SqlCorpus.SyntaxErrors))
        {
            var tokens = Tokens(sql);
            if (tokens.Count == 0) continue;
            for (int m = 0; m < 4; m++) cases.Add(Mutate(tokens, random, m));
        }
        var disagreements = cases.Select(_oracle.Disagreement).OfType<string>().ToList();
        _output.WriteLine($"{cases.Count} mutated statements compared, {disagreements.Count} disagreements");
        disagreements.Should().BeEmpty();
    }

    [Sharc.Tests.Infrastructure.ConformanceFact]
    public void Seeded_mutations_of_sqllogictest_statements_agree_on_syntax_errors()
    {
        var random = new Random(20250614);
        var records = SqlLogicTestCorpusTests.Records().Where(r => r.Kind != "statement error").ToList();
        var cases = new List<string>();
        while (cases.Count < 1500)
        {
            var tokens = Tokens(records[random.Next(records.Count)].Sql);
            if (tokens.Count > 0) cases.Add(Mutate(tokens, random, random.Next(4)));
        }
        var disagreements = cases.Select(_oracle.Disagreement).OfType<string>().ToList();
        _output.WriteLine($"{cases.Count} mutated sqllogictest statements compared, {disagreements.Count} disagreements");
        disagreements.Should().BeEmpty();
    }

    [Theory]
    [InlineData("UPDATE t SET a = 1 ORDER BY a LIMIT 1")]
    [InlineData("UPDATE t SET a = 1 LIMIT 1 OFFSET 2")]
    [InlineData("DELETE FROM t WHERE a > 0 LIMIT 1")]
    [InlineData("DELETE FROM t ORDER BY a LIMIT 2, 1")]
    public void Update_and_delete_limit_is_the_one_known_difference(string sql)
    {
        // SQLite only accepts these when built with SQLITE_ENABLE_UPDATE_DELETE_LIMIT; the oracle's build is not.
        SqliteSyntaxOracle.IsSyntaxMessage(_oracle.SqliteError(sql)).Should().BeTrue();
        SqliteSyntaxOracle.UsesUpdateDeleteLimit(SqlParser.ParseStatement(sql)).Should().BeTrue();
    }

    internal static List<string> Tokens(string sql)
    {
        var list = new List<string>();
        foreach (var t in SqlLexer.Tokenize(sql))
        {
            if (t.Kind == SqlTokenKind.EndOfInput) break;
            list.Add(t.Text(sql).ToString());
        }
        return list;
    }

    private static readonly string[] Pool =
    [
        "SELECT", "FROM", "WHERE", "(", ")", ",", ";", ".", "*", "+", "-", "=", "AND", "OR", "NOT", "NULL", "IN",
        "BETWEEN", "LIKE", "IS", "ON", "JOIN", "LEFT", "AS", "ORDER", "BY", "GROUP", "LIMIT", "OFFSET", "UNION",
        "VALUES", "DEFAULT", "INDEXED", "KEY", "WINDOW", "OVER", "FILTER", "ESCAPE", "COLLATE", "CASE", "WHEN",
        "THEN", "END", "1", "'x'", "a", "t", "?", ":p", "DISTINCT", "ALL", "EXISTS", "CAST", "RAISE", "ROWS",
        "PRECEDING", "CURRENT", "ROW", "DO", "NOTHING", "SET", "RETURNING", "TABLE", "BEGIN", "USING", "WITH",
    ];

    /// <summary>Applies one seeded mutation; kind 0 deletes, 1 duplicates, 2 swaps, 3 replaces a token.</summary>
    internal static string Mutate(List<string> tokens, Random random, int kind)
    {
        var copy = new List<string>(tokens);
        int k = random.Next(copy.Count);
        switch (kind)
        {
            case 0:
                copy.RemoveAt(k);
                break;
            case 1:
                copy.Insert(k, copy[k]);
                break;
            case 2:
                if (k + 1 < copy.Count) (copy[k], copy[k + 1]) = (copy[k + 1], copy[k]);
                else copy.RemoveAt(k);
                break;
            default:
                copy[k] = Pool[random.Next(Pool.Length)];
                break;
        }
        return string.Join(' ', copy);
    }
}
