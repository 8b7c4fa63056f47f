using System.Text;

namespace Sharc.Schema.Parsing;

/// <summary>
/// Computes the value SQLite gives a column that a row does not store (a row written before ALTER TABLE ADD
/// COLUMN): the DEFAULT expression evaluated the way SQLite's sqlite3ValueFromExpr does it, with the column's
/// affinity applied at the same steps. Only the forms SQLite evaluates there count as constant: literals,
/// TRUE/FALSE, unary + and -, parentheses and CAST. Anything else (CURRENT_TIMESTAMP, functions, operators,
/// COLLATE) is not constant; SQLite itself would read NULL for such a column.
/// </summary>
internal sealed class DefaultValueEvaluator
{
    private readonly SqlTokenStream _ts;

    private DefaultValueEvaluator(SqlTokenStream ts) => _ts = ts;

    /// <summary>
    /// Evaluates <paramref name="expr"/> for a column of <paramref name="affinity"/>. When
    /// <paramref name="bareIdentifierIsText"/> is set, a top-level identifier is the text of its name
    /// (SQLite's "DEFAULT abc" means 'abc'). Returns false when the expression is not a constant.
    /// </summary>
    public static bool TryEvaluate(SqlTokenStream ts, SqlExpr expr, bool bareIdentifierIsText, SharcAffinity affinity, out object? value)
    {
        var evaluator = new DefaultValueEvaluator(ts);
        try
        {
            if (!evaluator.Evaluate(expr, affinity, bareIdentifierIsText, out value)) return false;
        }
        catch (Exception e) when (e is FormatException or OverflowException or InsufficientExecutionStackException)
        {
            value = null;
            return false;
        }
        if (affinity == SharcAffinity.Real && value is long l) value = (double)l;
        return true;
    }

    private ReadOnlySpan<char> Text(int token) => _ts.Text(_ts.At(token));

    private bool Evaluate(SqlExpr e, SharcAffinity aff, bool bareIdentifierIsText, out object? value)
    {
        System.Runtime.CompilerServices.RuntimeHelpers.EnsureSufficientExecutionStack();
        value = null;
        switch (e.Kind)
        {
            case SqlExprKind.Paren:
                return Evaluate(e.Operand!, aff, false, out value);
            case SqlExprKind.Literal:
                return Literal(e.First, negate: false, aff, out value);
            case SqlExprKind.Name:
                return Name(e.First, aff, bareIdentifierIsText, out value);
            case SqlExprKind.Unary:
                return Unary(e, aff, out value);
            case SqlExprKind.Cast:
                return Cast(e, aff, out value);
            default:
                return false;
        }
    }

    private bool Name(int token, SharcAffinity aff, bool bareIdentifierIsText, out object? value)
    {
        var t = _ts.At(token);
        bool quoted = t.Kind != SqlTokenKind.Identifier;
        if (!quoted && (_ts.IsWord(t, "TRUE") || _ts.IsWord(t, "FALSE")))
        {
            value = AffinityRules.ApplyForStorage(_ts.IsWord(t, "TRUE") ? 1L : 0L, aff);
            return true;
        }
        if (bareIdentifierIsText)
        {
            value = AffinityRules.ApplyForStorage(SqlText.Dequote(_ts.Text(t)), aff);
            return true;
        }
        value = null;
        return false;
    }

    private bool Literal(int token, bool negate, SharcAffinity aff, out object? value)
    {
        var t = _ts.At(token);
        value = null;
        switch (t.Kind)
        {
            case SqlTokenKind.Integer:
            case SqlTokenKind.Float:
                value = Number(t, negate, aff);
                return true;
            case SqlTokenKind.String:
                value = AffinityRules.ApplyForStorage(SqlLiteral.StringValue(_ts.Text(t)), aff);
                return !negate;
            case SqlTokenKind.Blob:
                value = SqlLiteral.BlobValue(_ts.Text(t));
                return !negate;
            case SqlTokenKind.Identifier when _ts.IsWord(t, "NULL"):
                return !negate;
            default:
                return false; // CURRENT_TIME, CURRENT_DATE, CURRENT_TIMESTAMP
        }
    }

    private object? Number(SqlToken t, bool negate, SharcAffinity aff)
    {
        object number;
        if (t.Kind == SqlTokenKind.Integer && SqlLiteral.TryIntegerValue(_ts.Text(t), out long l))
        {
            number = !negate ? l : l == long.MinValue ? (object)-(double)long.MinValue : -l;
        }
        else
        {
            // SQLite keeps reals and oversized integers as the literal's text and lets affinity convert it,
            // so a TEXT column gets "1.50", not "1.5".
            string text = SqlLiteral.NumberText(_ts.Text(t));
            number = negate ? "-" + text : text;
            if (aff == SharcAffinity.Blob) return SqlNumeric.TextToNumber((string)number, preferInteger: false);
        }
        return aff == SharcAffinity.Blob ? number : AffinityRules.ApplyForStorage(number, aff);
    }

    private bool Unary(SqlExpr e, SharcAffinity aff, out object? value)
    {
        value = null;
        var op = _ts.At(e.OpToken).Kind;
        if (op == SqlTokenKind.Plus) return Evaluate(e.Operand!, aff, false, out value);
        if (op != SqlTokenKind.Minus) return false;

        var operand = e.Operand!.Unparenthesized;
        var operandToken = _ts.At(operand.First);
        if (operand.Kind == SqlExprKind.Literal && operandToken.Kind is SqlTokenKind.Integer or SqlTokenKind.Float)
        {
            return Literal(operand.First, negate: true, aff, out value);
        }
        if (!Evaluate(operand, aff, false, out var inner)) return false;
        value = Negate(Numerify(inner));
        value = AffinityRules.ApplyForStorage(value, aff);
        return true;
    }

    private static object? Numerify(object? v) => v switch
    {
        string s => SqlNumeric.NumberPrefix(s),
        byte[] b => SqlNumeric.NumberPrefix(Encoding.UTF8.GetString(b)),
        _ => v,
    };

    private static object? Negate(object? v) => v switch
    {
        long l => l == long.MinValue ? (object)-(double)long.MinValue : -l,
        double d => -d,
        _ => v,
    };

    private bool Cast(SqlExpr e, SharcAffinity aff, out object? value)
    {
        value = null;
        var (typeFirst, typeLast) = e.TypeTokens;
        var typeName = typeLast >= typeFirst ? _ts.Span(typeFirst, typeLast) : string.Empty;
        var castAffinity = AffinityRules.FromTypeText(typeName);
        if (!Evaluate(e.Operand!, castAffinity, false, out var inner)) return false;
        if (inner is null) return true;
        value = AffinityRules.ApplyForStorage(CastTo(inner, castAffinity), aff);
        return true;
    }

    /// <summary>CAST semantics, which read prefixes ("12abc" AS INTEGER is 12) where affinity would leave text alone.</summary>
    private static object CastTo(object v, SharcAffinity target)
    {
        // Text and blob bytes are converted as UTF-8, the encoding of nearly all databases.
        switch (target)
        {
            case SharcAffinity.Blob:
                return v as byte[] ?? Encoding.UTF8.GetBytes(SqlNumeric.ToText(v));
            case SharcAffinity.Text:
                return SqlNumeric.ToText(v);
            case SharcAffinity.Numeric:
                return Numerify(v)!;
            case SharcAffinity.Integer:
                return v switch
                {
                    long l => l,
                    double d => SqlNumeric.RealToInteger(d),
                    _ => SqlNumeric.IntegerPrefix(SqlNumeric.ToText(v)),
                };
            default:
                return v switch
                {
                    long l => (double)l,
                    double d => d,
                    _ => SqlNumeric.RealPrefix(SqlNumeric.ToText(v)),
                };
        }
    }
}
