namespace Sharc.Schema.Parsing;

/// <summary>
/// SQL text SQLite would refuse. The message uses SQLite's wording (e.g. <c>near "x": syntax error</c>,
/// <c>incomplete input</c>, <c>unrecognized token: "x"</c>) so it can be shown as SQLite would show it.
/// </summary>
internal sealed class SqlSyntaxException : SharcException
{
    /// <summary>Creates a syntax error at <paramref name="offset"/> in <paramref name="sql"/>.</summary>
    public SqlSyntaxException(string message, string sql, int offset)
        : base(message)
    {
        Offset = offset;
        (Line, Column) = SqlLexer.LineAndColumn(sql, offset);
    }

    /// <summary>The character offset of the problem in the SQL text.</summary>
    public int Offset { get; }

    /// <summary>The 1-based line of the problem.</summary>
    public int Line { get; }

    /// <summary>The 1-based column of the problem.</summary>
    public int Column { get; }
}
