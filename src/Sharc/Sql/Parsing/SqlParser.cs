using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Parsing;

/// <summary>
/// The entry points of Sharq, Sharc's SQL parser. Every method either returns a tree or throws
/// <see cref="SharcSqlException"/> (worded as SQLite words its errors, with line and column); no input makes it
/// throw anything else, loop forever or exhaust the stack.
/// </summary>
internal static class SqlParser
{
    /// <summary>
    /// Parses text holding exactly one statement (leading and trailing ';' and comments are allowed). Text with no
    /// statement, or with a second one, is an error: use <see cref="ParseScript(string)"/> for scripts.
    /// </summary>
    public static SqlStatement ParseStatement(string sql)
    {
        ArgumentNullException.ThrowIfNull(sql);
        var parser = new SharqParser(sql);
        return Run(parser, () =>
        {
            var ts = parser.Tokens;
            SkipSemicolons(ts);
            if (ts.Peek().Kind == SqlTokenKind.EndOfInput)
            {
                throw new SqlSyntaxException("the SQL text holds no statement", sql, ts.Peek().Start);
            }
            var statement = parser.Statement();
            SkipSemicolons(ts);
            if (ts.Peek().Kind != SqlTokenKind.EndOfInput)
            {
                throw new SqlSyntaxException("only one SQL statement is allowed here", sql, ts.Peek().Start);
            }
            return statement;
        });
    }

    /// <summary>
    /// Parses a script: statements separated by ';' (empty statements are skipped). Each statement's span covers
    /// its text without the ';', so an engine can run them one by one. Throws at the first error.
    /// </summary>
    public static IReadOnlyList<SqlStatement> ParseScript(string sql)
    {
        var statements = ParseScript(sql, out var error);
        if (error is not null) throw error;
        return statements;
    }

    /// <summary>
    /// Parses a script like <see cref="ParseScript(string)"/>, but instead of throwing returns the statements before
    /// the first error along with that error, so an engine can run those first, as sqlite3_exec does.
    /// </summary>
    public static IReadOnlyList<SqlStatement> ParseScript(string sql, out SharcSqlException? error)
    {
        ArgumentNullException.ThrowIfNull(sql);
        var parser = new SharqParser(sql);
        var statements = new List<SqlStatement>();
        error = null;
        try
        {
            Run(parser, () =>
            {
                var ts = parser.Tokens;
                statements.Clear();
                while (true)
                {
                    SkipSemicolons(ts);
                    if (ts.Peek().Kind == SqlTokenKind.EndOfInput) return 0;
                    statements.Add(parser.Statement());
                }
            });
        }
        catch (SharcSqlException e)
        {
            error = e;
        }
        return statements;
    }

    /// <summary>Parses text holding one expression and nothing else (no ';').</summary>
    public static SqlExpr ParseExpression(string sql)
    {
        ArgumentNullException.ThrowIfNull(sql);
        var parser = new SharqParser(sql);
        return Run(parser, parser.WholeExpression);
    }

    private static void SkipSemicolons(SqlTokenStream ts)
    {
        while (ts.TryKind(SqlTokenKind.Semicolon))
        {
        }
    }

    /// <summary>Stack for re-running a parse that ran out of the caller's stack; far more than the depth limits need.</summary>
    private const int LargeStackBytes = 64 * 1024 * 1024;

    /// <summary>
    /// Runs a parse, turning the parser's internal errors into <see cref="SharcSqlException"/>. Input within the
    /// depth limits can still need more stack than a small thread has; such a parse is run again, once, on a thread
    /// of its own with a large stack, so what parses does not depend on the caller's thread.
    /// </summary>
    private static T Run<T>(SharqParser parser, Func<T> parse)
    {
        string sql = parser.Tokens.Sql;
        try
        {
            return parse();
        }
        catch (SqlSyntaxException e)
        {
            throw new SharcSqlException(e.Message, sql, e.Offset);
        }
        catch (InsufficientExecutionStackException) when (!_onLargeStack)
        {
            return RunOnLargeStack(parser, parse);
        }
        catch (InsufficientExecutionStackException)
        {
            throw new SharcSqlException($"Expression tree is too large (maximum depth {SharqParser.MaxDepth})", sql, parser.Tokens.Peek().Start);
        }
    }

    [ThreadStatic]
    private static bool _onLargeStack;

    private static T RunOnLargeStack<T>(SharqParser parser, Func<T> parse)
    {
        parser.Reset();
        T result = default!;
        System.Runtime.ExceptionServices.ExceptionDispatchInfo? failure = null;
        var thread = new Thread(() =>
        {
            _onLargeStack = true;
            try
            {
                result = Run(parser, parse);
            }
            catch (Exception e)
            {
                failure = System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(e);
            }
        }, LargeStackBytes);
        thread.Start();
        thread.Join();
        failure?.Throw();
        return result;
    }
}
