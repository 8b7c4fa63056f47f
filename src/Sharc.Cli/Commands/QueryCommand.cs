using System.Globalization;
using Sharc.Cli.Output;
using Sharc.Sql.Ast;
using Sharc.Sql.Functions.TableValued;
using Sharc.Sql.Intent;
using Sharc.Sql.Parsing;

namespace Sharc.Cli.Commands;

/// <summary>
/// <c>sharc query &lt;db&gt; "&lt;sql&gt;" [--param name=value]… [--format &lt;fmt&gt;]</c>: runs one SELECT and
/// streams its rows in the same formats as <c>sharc dump</c>.
/// </summary>
internal sealed class QueryCommand : ICommand
{
    private static readonly OptionSpec[] Options =
    [
        new("format", 'f', "fmt", $"output format: {RowWriters.Names} (default table)"),
        new("param", 'p', "name=value", "bind a parameter (repeatable); see below"),
    ];

    public string Name => "query";

    public string Synopsis => "query <db> <sql> [--param name=value]... [--format <fmt>]";

    public string Summary => "run a SELECT and print its rows";

    public string Help =>
        "usage: sharc " + Synopsis + "\n" +
        "\n" +
        "Runs one SELECT (or a PRAGMA that reads) against the database, read-only, and prints its rows as they\n" +
        "are produced. To write, or to run several statements, use 'sharc exec'.\n" +
        "SQLite's semantics: type affinity, collations, NULL logic, SQLite's functions and aggregates.\n" +
        "\n" +
        "options:\n" +
        CommandLine.DescribeOptions(Options) +
        "\n" +
        "parameters:\n" +
        "  --param names a parameter of the statement with or without its prefix (:a, @a, $a, or a), or by\n" +
        "  number (1, ?1). The value is an integer or a real when it reads as one, NULL for the word NULL,\n" +
        "  text in single quotes ('007', doubled '' for a quote), and otherwise the text as given.\n" +
        "  Parameters not given are NULL.\n" +
        "\n" +
        "formats: as for 'sharc dump' (jsonl writes exactly what dump writes for the same values).\n";

    public int Execute(string[] args, TextWriter stdout, TextWriter stderr)
    {
        // --param may be repeated, which the shared parser refuses: take those out first.
        var rest = new List<string>();
        var bindings = new List<string>();
        for (int i = 0; i < args.Length; i++)
        {
            string a = args[i];
            if (a == "--")
            {
                rest.AddRange(args.AsSpan(i).ToArray());
                break;
            }
            if (a is "--param" or "-p")
            {
                if (i + 1 >= args.Length) throw CliException.UsageError($"{Name}: option --param needs a value <name=value>");
                bindings.Add(args[++i]);
            }
            else if (a.StartsWith("--param=", StringComparison.Ordinal))
            {
                bindings.Add(a["--param=".Length..]);
            }
            else
            {
                rest.Add(a);
            }
        }
        var line = CommandLine.Parse(Name, [.. rest], Options);
        var p = line.Expect("db", "sql");
        var format = RowWriters.ParseFormat(line.Get("format") ?? "table", Name);

        RefuseWrites(p[0], p[1]);
        using var db = DatabaseFile.Open(p[0]);
        using var query = db.Prepare(p[1]);
        foreach (var binding in bindings) Bind(query, binding);

        using var reader = query.Execute();
        RowWriters.WriteAll(format, stdout, reader);
        return Program.ExitOk;
    }

    /// <summary>
    /// query opens the database read-only: a script, or a statement that writes, is sent to exec with a message in the
    /// tool's terms rather than failing inside the engine with advice meant for C# callers.
    /// </summary>
    private void RefuseWrites(string path, string sql)
    {
        var statements = SqlParser.ParseScript(sql, out _);
        if (statements.Count > 1)
            throw CliException.UsageError($"{Name} runs one statement; run a script with 'sharc exec {path} \"<sql>; <sql>…\"'");
        if (statements.Count == 0 || statements[0] is SqlSelectStatement or SqlPragmaStatement { Value: null }) return;
        if (statements[0] is SqlPragmaStatement { Parenthesized: true } pragma
            && (PragmaTableFunction.ArgumentIsRead(pragma.Name) || pragma.Name.Equals("cipher_integrity_check", StringComparison.OrdinalIgnoreCase))) return;
        string what = statements[0] switch
        {
            SqlPragmaStatement => "a PRAGMA that sets a value",
            SqlBeginStatement or SqlCommitStatement or SqlRollbackStatement or SqlSavepointStatement or SqlReleaseStatement
                => sql.AsSpan(statements[0].Start).TrimStart().ToString().Split((char[]?)null, 2)[0].ToUpperInvariant(),
            var other => IntentCompiler.StatementName(other),
        };
        throw CliException.UsageError($"{Name} only reads: run {what} with 'sharc exec {path} \"<sql>\"'");
    }

    private void Bind(PreparedQuery query, string binding)
    {
        int eq = binding.IndexOf('=', StringComparison.Ordinal);
        if (eq <= 0) throw CliException.UsageError($"{Name}: --param needs name=value, not '{binding}'");
        string name = binding[..eq];
        string text = binding[(eq + 1)..];
        string number = name.StartsWith('?') ? name[1..] : name;
        int index = int.TryParse(number, NumberStyles.None, CultureInfo.InvariantCulture, out int n) ? n : query.GetParameterIndex(name);
        if (index < 1 || index > query.ParameterCount)
            throw CliException.UsageError($"{Name}: the statement has no parameter '{name}'");
        query.Bind(index, ParseValue(text));
    }

    /// <summary>A parameter value from the command line: a number when it reads as one, NULL, quoted text, or text.</summary>
    internal static object? ParseValue(string text)
    {
        if (long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out long l)) return l;
        if (text.Length > 0 && (char.IsDigit(text[^1]) || text[^1] == '.') &&
            double.TryParse(text, NumberStyles.AllowLeadingSign | NumberStyles.AllowDecimalPoint | NumberStyles.AllowExponent, CultureInfo.InvariantCulture, out double d))
            return d;
        if (text.Equals("NULL", StringComparison.OrdinalIgnoreCase)) return null;
        if (text.Length >= 2 && text[0] == '\'' && text[^1] == '\'') return text[1..^1].Replace("''", "'", StringComparison.Ordinal);
        return text;
    }
}
