namespace Sharc.Schema.Parsing;

/// <summary>One key of an index or of a PRIMARY KEY/UNIQUE constraint: "expr [COLLATE name] [ASC|DESC]".</summary>
internal sealed class IndexKey
{
    /// <summary>First token of the key expression.</summary>
    public int First { get; init; }
    /// <summary>The collation of a COLLATE that applies to the whole key, or null.</summary>
    public string? Collation { get; init; }
    /// <summary>True for DESC.</summary>
    public bool Descending { get; init; }
    /// <summary>
    /// The column this key names, by CREATE INDEX's rules: an identifier, or a string literal standing
    /// for one (SQLite's quirk: <c>ON t('a')</c> indexes column a). Null for an expression.
    /// </summary>
    public string? ColumnName { get; init; }
    /// <summary>True when <see cref="ColumnName"/> was written in double quotes (SQLite may then read it as a string).</summary>
    public bool IsDoubleQuoted { get; init; }
    /// <summary>The column a PRIMARY KEY/UNIQUE term names (strings accepted under any COLLATE), or null.</summary>
    public string? ConstraintColumnName { get; init; }
    /// <summary>The key's source text without the COLLATE that applies to the whole key and without ASC/DESC.</summary>
    public required string ExpressionSql { get; init; }
}

/// <summary>Reads index keys for CREATE INDEX and for PRIMARY KEY/UNIQUE table constraints.</summary>
internal static class IndexKeyParser
{
    /// <summary>Parses one key at the stream's position, stopping before the ',' or ')' that follows it.</summary>
    public static IndexKey Parse(SqlTokenStream ts)
    {
        int first = ts.Index;
        if (!SqlExpressionParser.TryParse(ts, out var expr)) return ParseOpaque(ts, first);

        bool descending = SortOrder(ts);
        RejectNullsOrder(ts);

        var top = expr.Unparenthesized;
        string? collation = null;
        var operand = expr;
        if (top.Kind == SqlExprKind.Collate)
        {
            collation = SqlText.Dequote(ts.Text(ts.At(top.OpToken)));
            operand = top;
            while (operand.Unparenthesized.Kind == SqlExprKind.Collate) operand = operand.Unparenthesized.Operand!;
        }
        var inner = operand.Unparenthesized;

        string? column = null, constraintColumn = null;
        bool doubleQuoted = false;
        var token = ts.At(inner.First);
        if (inner.Kind == SqlExprKind.Name)
        {
            column = constraintColumn = SqlText.Dequote(ts.Text(token));
            doubleQuoted = ts.Text(token)[0] == '"';
        }
        else if (inner.Kind == SqlExprKind.Literal && token.Kind == SqlTokenKind.String)
        {
            constraintColumn = SqlText.Dequote(ts.Text(token));
            // CREATE INDEX turns a string into a name only at the top, or right under the outermost COLLATE.
            bool direct = top == inner || (top.Kind == SqlExprKind.Collate && top.Operand!.Unparenthesized == inner);
            if (direct) column = constraintColumn;
        }

        return new IndexKey
        {
            First = first,
            Collation = collation,
            Descending = descending,
            ColumnName = column,
            IsDoubleQuoted = doubleQuoted,
            ConstraintColumnName = constraintColumn,
            ExpressionSql = ts.Span(operand.First, operand.Last),
        };
    }

    /// <summary>Fallback for syntax the expression parser does not model: keep the text, assume no COLLATE.</summary>
    private static IndexKey ParseOpaque(SqlTokenStream ts, int first)
    {
        int depth = 0;
        while (true)
        {
            var t = ts.Peek();
            if (t.Kind == SqlTokenKind.EndOfInput) throw ts.SyntaxError(t);
            if (depth == 0 && (t.Kind is SqlTokenKind.Comma or SqlTokenKind.RightParen || ts.IsWord(t, "AUTOINCREMENT"))) break;
            if (t.Kind == SqlTokenKind.LeftParen) depth++;
            else if (t.Kind == SqlTokenKind.RightParen) depth--;
            ts.Index++;
        }
        int last = ts.Index - 1;
        if (last < first || ts.IsWord(ts.At(last), "COLLATE")) throw ts.SyntaxError();
        bool descending = false;
        if (last > first && (ts.IsWord(ts.At(last), "DESC") || ts.IsWord(ts.At(last), "ASC")))
        {
            descending = ts.IsWord(ts.At(last), "DESC");
            last--;
        }
        return new IndexKey { First = first, Descending = descending, ExpressionSql = ts.Span(first, last) };
    }

    private static bool SortOrder(SqlTokenStream ts)
    {
        if (ts.TryWord("ASC")) return false;
        return ts.TryWord("DESC");
    }

    private static void RejectNullsOrder(SqlTokenStream ts)
    {
        if (!ts.PeekWord("NULLS")) return;
        var t = ts.Peek();
        ts.Index++;
        if (ts.PeekWord("FIRST")) throw ts.Error("unsupported use of NULLS FIRST", t);
        if (ts.PeekWord("LAST")) throw ts.Error("unsupported use of NULLS LAST", t);
        throw ts.SyntaxError();
    }
}
