using System.Text;
using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using Sharc.Sql.Parsing;
using Sharc.Sql.Writes;

namespace Sharc.Cli.Commands;

/// <summary>Where a script came from, for error messages: its name ("stdin", a path, "sql") and the line it starts on there.</summary>
internal readonly record struct ScriptSource(string Name, int FirstLine = 1);

/// <summary>
/// Runs SQL scripts for <c>exec</c> and <c>shell</c>: statement by statement, as sqlite3_exec does (statements before
/// a failing one keep their effect), with every failure reported as "source:line:column: message (in statement)".
/// </summary>
internal static class ScriptRunner
{
    private const int QuotedStatementLength = 60;

    /// <summary>
    /// Runs every statement of <paramref name="script"/> against <paramref name="db"/>; <paramref name="rows"/> reads
    /// the rows of each statement that has some (SELECT, RETURNING, PRAGMA). The first failure ends the script with a
    /// <see cref="CliException"/> that names where it happened.
    /// </summary>
    public static void Run(SharcDatabase db, string script, ScriptSource source, Action<SharcDataReader> rows)
    {
        var statements = SqlParser.ParseScript(script, out var syntaxError);
        foreach (var statement in statements)
        {
            try
            {
                var outcome = SqlScript.RunStatement(db, script, statement, []);
                if (outcome.Rows is null) continue;
                using var reader = new SharcDataReader(db, outcome.Rows);
                rows(reader);
            }
            catch (SharcException e)
            {
                throw Located(e, script, statement, source);
            }
        }
        if (syntaxError is not null) throw Located(syntaxError, script, null, source);
    }

    private static CliException Located(SharcException e, string script, SqlStatement? statement, ScriptSource source)
    {
        // A SQL error points into the script when its offset lies in the statement (not in a view's or trigger's own
        // text); anything else is placed at the start of the statement that raised it.
        bool pointsHere = e is SharcSqlException sql && (statement is null || (sql.Offset >= statement.Start && sql.Offset <= statement.End));
        var (line, column) = pointsHere
            ? (((SharcSqlException)e).Line, ((SharcSqlException)e).Column)
            : SqlLexer.LineAndColumn(script, statement?.Start ?? 0);
        string message = e is SharcSqlException s ? s.SqliteMessage : e.Message;
        var text = new StringBuilder()
            .Append(source.Name).Append(':').Append(line + source.FirstLine - 1).Append(':').Append(column).Append(": ")
            .Append(message);
        if (statement is not null) text.Append(" (in ").Append(Quote(script.AsSpan(statement.Start, statement.End - statement.Start))).Append(')');
        return CliException.DataError(text.ToString(), e);
    }

    /// <summary>The statement on one line, whitespace runs folded, cut to a readable length.</summary>
    private static string Quote(ReadOnlySpan<char> statement)
    {
        var sb = new StringBuilder();
        bool space = false;
        foreach (char c in statement.Trim())
        {
            if (char.IsWhiteSpace(c))
            {
                space = true;
                continue;
            }
            if (space && sb.Length > 0) sb.Append(' ');
            space = false;
            sb.Append(c);
            if (sb.Length > QuotedStatementLength) return sb.ToString(0, QuotedStatementLength) + "…";
        }
        return sb.ToString();
    }
}
