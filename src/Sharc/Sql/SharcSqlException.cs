using Sharc.Schema.Parsing;

namespace Sharc;

/// <summary>
/// SQL text Sharc cannot accept: a syntax error, or a rule SQLite enforces while it parses (for example an unknown
/// join type or a misplaced ORDER BY). <see cref="SqliteMessage"/> is worded as SQLite words it
/// (<c>near "FROM": syntax error</c>, <c>incomplete input</c>, <c>unrecognized token: "…"</c>); the exception's
/// message adds where the problem is.
/// </summary>
public sealed class SharcSqlException : SharcException
{
    /// <summary>Creates an error at <paramref name="offset"/> in <paramref name="sql"/>.</summary>
    public SharcSqlException(string sqliteMessage, string sql, int offset)
        : this(sqliteMessage, Locate(sql, offset), offset)
    {
    }

    private SharcSqlException(string sqliteMessage, (int Line, int Column) at, int offset)
        : base($"{sqliteMessage} (line {at.Line}, column {at.Column})")
    {
        SqliteMessage = sqliteMessage;
        Line = at.Line;
        Column = at.Column;
        Offset = offset;
    }

    private SharcSqlException(string sqliteMessage, Exception inner)
        : base(sqliteMessage, inner)
    {
        SqliteMessage = sqliteMessage;
    }

    /// <summary>
    /// An error thrown by a user-defined function, aggregate or collation while a statement ran: the message names
    /// it, <see cref="Exception.InnerException"/> is what it threw, and there is no position (Line and Column are 0).
    /// </summary>
    internal static SharcSqlException FromUserCode(string message, Exception inner) => new(message, inner);

    /// <summary>The message alone, without the position, as SQLite would report it.</summary>
    public string SqliteMessage { get; }

    /// <summary>The 1-based line of the problem.</summary>
    public int Line { get; }

    /// <summary>The 1-based column of the problem (counted in UTF-16 code units).</summary>
    public int Column { get; }

    /// <summary>The 0-based character offset of the problem in the SQL text.</summary>
    public int Offset { get; }

    /// <summary>
    /// True for the errors SQLite reports from its tokenizer and grammar ("near …: syntax error", "incomplete input",
    /// "unrecognized token: …"), as opposed to rules checked once a construct has been recognized.
    /// </summary>
    public bool IsSyntaxError
        => SqliteMessage.StartsWith("near \"", StringComparison.Ordinal)
           || SqliteMessage == "incomplete input"
           || SqliteMessage.StartsWith("unrecognized token:", StringComparison.Ordinal);

    private static (int, int) Locate(string sql, int offset)
    {
        ArgumentNullException.ThrowIfNull(sql);
        return SqlLexer.LineAndColumn(sql, offset);
    }
}
