namespace Sharc.Sql.Values;

/// <summary>
/// Three-valued logic. A value is true when it is a non-zero number; text and blobs are read as their numeric
/// prefix first ("1x" and "0.5" are true, "abc" and "" are false); NULL is unknown.
/// </summary>
internal static class SqlLogic
{
    /// <summary>The truth of a value: true, false, or null for NULL (what WHERE, CASE WHEN and iif() test).</summary>
    public static bool? Truth(in SqlValue v) => v.Type switch
    {
        SharcColumnType.Null => null,
        SharcColumnType.Integer => v.IntegerValue != 0,
        SharcColumnType.Real => v.RealValue != 0.0,
        _ => v.ToDouble() != 0.0,
    };

    /// <summary>True only when the value is true; NULL and false both reject a row in WHERE.</summary>
    public static bool IsTrue(in SqlValue v) => Truth(v) == true;

    /// <summary><c>a AND b</c>: false if either is false, else NULL if either is NULL, else true.</summary>
    public static SqlValue And(in SqlValue a, in SqlValue b)
    {
        bool? x = Truth(a), y = Truth(b);
        if (x == false || y == false) return SqlValue.False;
        if (x is null || y is null) return SqlValue.Null;
        return SqlValue.True;
    }

    /// <summary><c>a OR b</c>: true if either is true, else NULL if either is NULL, else false.</summary>
    public static SqlValue Or(in SqlValue a, in SqlValue b)
    {
        bool? x = Truth(a), y = Truth(b);
        if (x == true || y == true) return SqlValue.True;
        if (x is null || y is null) return SqlValue.Null;
        return SqlValue.False;
    }

    /// <summary><c>NOT a</c>: NULL stays NULL.</summary>
    public static SqlValue Not(in SqlValue a)
    {
        bool? x = Truth(a);
        return x is null ? SqlValue.Null : SqlValue.Boolean(!x.Value);
    }

    /// <summary><c>a IS TRUE</c> (1 or 0, never NULL); <c>a IS NOT TRUE</c> is its negation.</summary>
    public static SqlValue IsTrueValue(in SqlValue a) => SqlValue.Boolean(Truth(a) == true);

    /// <summary><c>a IS FALSE</c> (1 or 0, never NULL); <c>a IS NOT FALSE</c> is its negation.</summary>
    public static SqlValue IsFalseValue(in SqlValue a) => SqlValue.Boolean(Truth(a) == false);

    /// <summary>A truth as a value: 1, 0 or NULL.</summary>
    public static SqlValue FromTruth(bool? truth) => truth is null ? SqlValue.Null : SqlValue.Boolean(truth.Value);
}
