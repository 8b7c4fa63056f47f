using System.Text;
using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using Sharc.Sql.Parsing;
using Xunit.Abstractions;

namespace Sharc.Tests.Sql.Parsing;

/// <summary>
/// The parser must end every input with a tree or a <see cref="SharcSqlException"/>: never another exception, never
/// a hang, never a stack overflow. Inputs are seeded random token soups, character-level mutations of the corpus and
/// pathologically deep nestings (run on a 1 MB thread, the smallest common default stack). Whatever parses must
/// also print back to text that parses to the same tree.
/// </summary>
public sealed class SqlParserFuzzTests
{
    private readonly ITestOutputHelper _output;

    public SqlParserFuzzTests(ITestOutputHelper output) => _output = output;

    private static readonly string[] Punctuation =
    [
        "(", ")", ",", ";", ".", "*", "+", "-", "/", "%", "||", "->", "->>", "=", "==", "!=", "<>", "<", "<=", ">", ">=",
        "<<", ">>", "&", "|", "~", "1", "0", "2.5", "1e3", "0x1F", "9223372036854775808", "0x1FFFFFFFFFFFFFFFF", "'s'",
        "''", "x'AB'", "x'A'", "?", "?1", "?0", "?99999999999", ":p", "@p", "$p", "$a::b(c)", "#p", "\"q\"", "[b]", "`c`",
        "a", "b", "t", "t2", "main", "excluded", "new", "old", "rowid", "count", "max", "json_each", "'unterminated",
        "!", "^", "{", "}", "[open", "/* c */", "-- c\n", "\n", "x'zz'", "1abc", "1_", "\0",
    ];

    private static readonly string[] Pool = SqlKeywords.All.Concat(Punctuation).ToArray();

    [Fact]
    public void Random_token_soups_end_in_a_tree_or_a_SharcSqlException()
    {
        var random = new Random(7);
        var inputs = new List<string>();
        for (int i = 0; i < 6000; i++)
        {
            int n = random.Next(1, 40);
            var sb = new StringBuilder();
            // Most soups start like a statement, so they get past the first token.
            if (random.Next(3) > 0) sb.Append(Pick(random, ["SELECT", "INSERT INTO t", "UPDATE t SET", "DELETE FROM t", "CREATE TABLE t (", "CREATE TRIGGER tr AFTER INSERT ON t BEGIN", "WITH c AS (", "EXPLAIN", "PRAGMA", "ALTER TABLE t ADD"])).Append(' ');
            for (int k = 0; k < n; k++) sb.Append(Pool[random.Next(Pool.Length)]).Append(random.Next(8) == 0 ? "" : " ");
            inputs.Add(sb.ToString());
        }
        Check(inputs);
    }

    [Fact]
    public void Character_mutations_of_the_corpus_end_in_a_tree_or_a_SharcSqlException()
    {
        var random = new Random(11);
        const string chars = "()'\"[]`,;.*+-=<>!|&~?:@$#_ aZ09\n\t/\\x";
        var inputs = new List<string>();
        foreach (var sql in SqlCorpus.Valid)
        {
            for (int m = 0; m < 12; m++)
            {
                var sb = new StringBuilder(sql);
                int edits = random.Next(1, 4);
                for (int e = 0; e < edits && sb.Length > 0; e++)
                {
                    int at = random.Next(sb.Length);
                    switch (random.Next(3))
                    {
                        case 0: sb.Remove(at, 1); break;
                        case 1: sb.Insert(at, chars[random.Next(chars.Length)]); break;
                        default:
                            int len = Math.Min(random.Next(1, 12), sb.Length - at);
                            sb.Insert(at, sb.ToString(at, len));
                            break;
                    }
                }
                inputs.Add(sb.ToString());
            }
        }
        Check(inputs);
    }

    [Fact]
    public void Token_mutations_of_the_corpus_end_in_a_tree_or_a_SharcSqlException()
    {
        var random = new Random(13);
        var inputs = new List<string>();
        foreach (var sql in SqlCorpus.Valid.Concat(SqlCorpus.SyntaxErrors))
        {
            var tokens = SqliteSyntaxDifferentialTests.Tokens(sql);
            for (int m = 0; m < 8 && tokens.Count > 0; m++)
            {
                inputs.Add(SqliteSyntaxDifferentialTests.Mutate(tokens, random, random.Next(4)));
            }
        }
        Check(inputs);
    }

    public static TheoryData<string, string> DeepInputs()
    {
        const int n = 100_000;
        string Repeat(string s, int count) => string.Concat(Enumerable.Repeat(s, count));
        return new TheoryData<string, string>
        {
            { "parentheses", "SELECT " + new string('(', n) + "1" + new string(')', n) },
            { "unclosed parentheses", "SELECT " + new string('(', n) },
            { "unary minus", "SELECT " + Repeat("- ", n) + "1" },
            { "NOT", "SELECT " + Repeat("NOT ", n) + "1" },
            { "binary chain", "SELECT " + Repeat("1 + ", n) + "1" },
            { "right-nested binary", "SELECT " + Repeat("1 + (", n) + "1" + new string(')', n) },
            { "CASE", "SELECT " + Repeat("CASE WHEN 1 THEN ", n) + "1" + Repeat(" END", n) },
            { "BETWEEN", "SELECT " + Repeat("a BETWEEN ", n) + "1 AND 2" },
            { "function calls", "SELECT " + Repeat("f(", n) + "1" + new string(')', n) },
            { "subqueries", "SELECT " + Repeat("(SELECT ", n) + "1" + new string(')', n) },
            { "FROM subqueries", "SELECT * FROM " + Repeat("(SELECT * FROM ", n) + "t" + new string(')', n) },
            { "nested joins", "SELECT * FROM " + new string('(', n) + "t" + new string(')', n) },
            { "CTEs", Repeat("WITH a AS (", n) + "SELECT 1" + new string(')', n) },
            { "IN", "SELECT " + Repeat("1 IN (", n) + "1" + new string(')', n) },
            { "EXISTS", "SELECT " + Repeat("EXISTS (SELECT ", n) + "1" + new string(')', n) },
            { "compound", "SELECT 1" + Repeat(" UNION SELECT 1", n) },
            { "COLLATE", "SELECT 1" + Repeat(" COLLATE x", n) },
            { "postfix", "SELECT 1" + Repeat(" ISNULL", n) },
            { "window", "SELECT f() OVER (" + Repeat("ORDER BY (", n / 10) },
            { "trigger", "CREATE TRIGGER tr AFTER INSERT ON t BEGIN " + Repeat("SELECT 1; ", n) + "END" },
            { "virtual table", "CREATE VIRTUAL TABLE v USING m" + new string('(', n) },
            { "long list", "SELECT " + Repeat("1, ", n) + "1" },
            { "long IN list", "SELECT 1 IN (" + Repeat("1, ", n) + "1)" },
            { "long AND", "SELECT * FROM t WHERE " + Repeat("a AND ", n) + "1" },
            { "long column list", "CREATE TABLE x (" + string.Join(", ", Enumerable.Range(0, 5000).Select(i => "c" + i)) + ")" },
            { "check nesting", "CREATE TABLE x (a CHECK (" + new string('(', n) + "a" + new string(')', n) + "))" },
        };
    }

    [Theory]
    [MemberData(nameof(DeepInputs))]
    public void Deep_and_long_inputs_end_in_a_tree_or_a_SharcSqlException_on_a_small_stack(string name, string sql)
    {
        string? failure = null;
        var thread = new Thread(() => failure = Outcome(sql), 1024 * 1024);
        thread.Start();
        thread.Join(TimeSpan.FromMinutes(2)).Should().BeTrue($"parsing {name} must finish");
        failure.Should().BeNull(name);
    }

    [Fact]
    public void Nesting_limits_match_sqlite_s_expression_depth()
    {
        // SQLite accepts a tree exactly 1000 high; parentheses are capped at the same depth.
        Parses("SELECT " + new string('(', 999) + "1" + new string(')', 999)).Should().BeTrue();
        Parses("SELECT " + new string('(', 1001) + "1" + new string(')', 1001)).Should().BeFalse();
        Parses("SELECT " + string.Concat(Enumerable.Repeat("1 + (", 499)) + "1" + new string(')', 499)).Should().BeTrue();
        Parses("SELECT " + string.Concat(Enumerable.Repeat("f(", 999)) + "1" + new string(')', 999)).Should().BeTrue();
        Parses("SELECT " + string.Concat(Enumerable.Repeat("f(", 1000)) + "1" + new string(')', 1000)).Should().BeFalse();
    }

    private static bool Parses(string sql)
    {
        try
        {
            SqlParser.ParseStatement(sql);
            return true;
        }
        catch (SharcSqlException e)
        {
            e.SqliteMessage.Should().Be("Expression tree is too large (maximum depth 1000)");
            return false;
        }
    }

    private static string Pick(Random random, string[] items) => items[random.Next(items.Length)];

    private void Check(List<string> inputs)
    {
        int trees = 0;
        var failures = new List<string>();
        foreach (var sql in inputs)
        {
            if (Outcome(sql, () => trees++) is { } failure) failures.Add(failure);
        }
        _output.WriteLine($"{inputs.Count} inputs, {trees} parsed as scripts, {failures.Count} failures");
        failures.Take(10).Should().BeEmpty();
    }

    /// <summary>Null when every entry point ends properly on <paramref name="sql"/>, otherwise what went wrong.</summary>
    private static string? Outcome(string sql, Action? parsed = null)
    {
        try
        {
            try
            {
                var statements = SqlParser.ParseScript(sql);
                parsed?.Invoke();
                foreach (var statement in statements)
                {
                    string printed = SqlAstPrinter.Print(statement, sql);
                    string again = SqlAstPrinter.Print(SqlParser.ParseStatement(printed), printed);
                    if (again != printed) return $"round trip differs for {sql}\n  {printed}\n  {again}";
                }
            }
            catch (SharcSqlException e) when (e.Offset >= 0 && e.Offset <= sql.Length && e.Line >= 1 && e.Column >= 1)
            {
            }
            try
            {
                SqlParser.ParseStatement(sql);
            }
            catch (SharcSqlException)
            {
            }
            try
            {
                SqlParser.ParseExpression(sql);
            }
            catch (SharcSqlException)
            {
            }
            return null;
        }
        catch (Exception e)
        {
            return $"{sql.Length} chars: {(sql.Length > 300 ? sql[..300] + "…" : sql)}\n  {e}";
        }
    }
}
