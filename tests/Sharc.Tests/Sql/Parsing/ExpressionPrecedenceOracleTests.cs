using System.Text;
using Microsoft.Data.Sqlite;
using Sharc.Sql.Parsing;
using Xunit.Abstractions;

namespace Sharc.Tests.Sql.Parsing;

/// <summary>
/// Precedence checked against SQLite itself: seeded random expressions are written without parentheses, so their
/// meaning rests entirely on precedence and associativity; SQLite evaluates both that text and Sharq's fully
/// parenthesized reading of it, and the two results must be the same. Whether the text is a syntax error must
/// agree too.
/// </summary>
public sealed class ExpressionPrecedenceOracleTests
{
    private readonly ITestOutputHelper _output;

    public ExpressionPrecedenceOracleTests(ITestOutputHelper output) => _output = output;

    private static readonly string[] Atoms = ["0", "1", "2", "3", "NULL", "'a'", "'B'", "'a%'", "1.5", "x'41'", "TRUE", "FALSE"];

    private static readonly string[] BinaryOperators =
    [
        "||", "*", "/", "%", "+", "-", "&", "|", "<<", ">>", "<", "<=", ">", ">=", "=", "==", "!=", "<>",
        "IS", "IS NOT", "IS DISTINCT FROM", "IS NOT DISTINCT FROM", "AND", "OR",
    ];

    private static readonly string[] Postfix = ["ISNULL", "NOTNULL", "NOT NULL", "IS NULL", "IS NOT NULL", "COLLATE nocase", "COLLATE binary"];

    private static string Generate(Random r, int depth)
    {
        if (depth == 0 || r.Next(10) < 2) return Atoms[r.Next(Atoms.Length)];
        string G() => Generate(r, depth - 1);
        string Not() => r.Next(3) == 0 ? "NOT " : "";
        return r.Next(12) switch
        {
            0 or 1 or 2 or 3 => $"{G()} {BinaryOperators[r.Next(BinaryOperators.Length)]} {G()}",
            4 => $"{new[] { "-", "+", "~", "NOT" }[r.Next(4)]} {G()}",
            5 => $"{G()} {Postfix[r.Next(Postfix.Length)]}",
            6 => $"{G()} {Not()}BETWEEN {G()} AND {G()}",
            7 => $"{G()} {Not()}{(r.Next(2) == 0 ? "LIKE" : "GLOB")} {G()}" + (r.Next(3) == 0 ? " ESCAPE '!'" : ""),
            8 => $"{G()} {Not()}IN ({G()}, {G()})",
            9 => $"({G()})",
            10 => $"CASE {G()} WHEN {G()} THEN {G()} ELSE {G()} END",
            _ => $"CAST({G()} AS INTEGER)",
        };
    }

    [Fact]
    public void Sqlite_evaluates_the_parenthesized_reading_to_the_same_value()
    {
        using var connection = new SqliteConnection("Data Source=:memory:");
        connection.Open();
        var random = new Random(424242);
        int compared = 0, syntaxErrors = 0;
        var failures = new List<string>();
        for (int i = 0; i < 3000; i++)
        {
            string text = Generate(random, random.Next(1, 5));
            string? original = Evaluate(connection, text, out bool originalSyntaxError);
            string? printed = null;
            try
            {
                printed = SqlAstPrinter.Print(SqlParser.ParseExpression(text), text);
            }
            catch (SharcSqlException e)
            {
                if (!(e.IsSyntaxError && originalSyntaxError)) failures.Add($"{text}\n    SQLite: {original}\n    Sharq: {e.Message}");
                syntaxErrors++;
                continue;
            }
            if (originalSyntaxError)
            {
                failures.Add($"{text}\n    SQLite: {original}\n    Sharq parsed it as {printed}");
                continue;
            }
            string? reparenthesized = Evaluate(connection, printed, out _);
            if (reparenthesized != original) failures.Add($"{text}\n    as written:    {original}\n    {printed}: {reparenthesized}");
            compared++;
        }
        _output.WriteLine($"{compared} expressions evaluated both ways, {syntaxErrors} syntax errors in both");
        failures.Take(10).Should().BeEmpty();
    }

    private static string? Evaluate(SqliteConnection connection, string expression, out bool syntaxError)
    {
        syntaxError = false;
        try
        {
            using var cmd = connection.CreateCommand();
            cmd.CommandText = $"SELECT quote({expression})";
            return cmd.ExecuteScalar() as string;
        }
        catch (SqliteException e)
        {
            string message = e.Message;
            syntaxError = message.Contains("syntax error", StringComparison.Ordinal) || message.Contains("incomplete input", StringComparison.Ordinal);
            return "error: " + message;
        }
    }
}
