namespace Sharc.Sql.Values;

/// <summary>
/// SQLite's arithmetic, bitwise and concatenation operators. NULL in, NULL out. Text and blob operands of
/// arithmetic are read as numbers (<see cref="SqlTextNumber.Arithmetic"/>); bitwise operands as 64-bit integers
/// (<see cref="SqlValue.ToInt64"/>). When both operands read as integers the arithmetic is in 64 bits; otherwise,
/// or when that overflows, it is in doubles, with text read afresh as a real ("-0" is then -0.0, as in SQLite).
/// A NaN result becomes NULL. Numeric paths do not allocate.
/// </summary>
internal static class SqlArithmetic
{
    /// <summary>The operand as arithmetic sees it: INTEGER, REAL or NULL.</summary>
    public static SqlValue ToNumber(in SqlValue v) => v.Type switch
    {
        SharcColumnType.Text or SharcColumnType.Blob => SqlTextNumber.Arithmetic(v.Bytes),
        _ => v,
    };

    /// <summary><c>a + b</c>.</summary>
    public static SqlValue Add(in SqlValue a, in SqlValue b)
    {
        if (a.IsNull || b.IsNull) return SqlValue.Null;
        var x = ToNumber(a);
        var y = ToNumber(b);
        if (x.Type == SharcColumnType.Integer && y.Type == SharcColumnType.Integer)
        {
            long i = x.IntegerValue, j = y.IntegerValue, r = unchecked(i + j);
            // Overflow when both operands have the same sign and the sum's sign differs.
            if (((i ^ r) & (j ^ r)) >= 0) return SqlValue.Integer(r);
        }
        return SqlValue.Real(a.ToDouble() + b.ToDouble());
    }

    /// <summary><c>a - b</c>.</summary>
    public static SqlValue Subtract(in SqlValue a, in SqlValue b)
    {
        if (a.IsNull || b.IsNull) return SqlValue.Null;
        var x = ToNumber(a);
        var y = ToNumber(b);
        if (x.Type == SharcColumnType.Integer && y.Type == SharcColumnType.Integer)
        {
            long i = x.IntegerValue, j = y.IntegerValue, r = unchecked(i - j);
            if (((i ^ j) & (i ^ r)) >= 0) return SqlValue.Integer(r);
        }
        return SqlValue.Real(a.ToDouble() - b.ToDouble());
    }

    /// <summary><c>a * b</c>.</summary>
    public static SqlValue Multiply(in SqlValue a, in SqlValue b)
    {
        if (a.IsNull || b.IsNull) return SqlValue.Null;
        var x = ToNumber(a);
        var y = ToNumber(b);
        if (x.Type == SharcColumnType.Integer && y.Type == SharcColumnType.Integer)
        {
            long i = x.IntegerValue, j = y.IntegerValue;
            long hi = Math.BigMul(i, j, out long lo);
            // The 128-bit product fits in 64 bits when the high half is the sign extension of the low half.
            if (hi == lo >> 63) return SqlValue.Integer(lo);
        }
        return SqlValue.Real(a.ToDouble() * b.ToDouble());
    }

    /// <summary><c>a / b</c>: integers divide truncating toward zero; division by zero is NULL.</summary>
    public static SqlValue Divide(in SqlValue a, in SqlValue b)
    {
        if (a.IsNull || b.IsNull) return SqlValue.Null;
        var x = ToNumber(a);
        var y = ToNumber(b);
        if (x.Type == SharcColumnType.Integer && y.Type == SharcColumnType.Integer)
        {
            long i = x.IntegerValue, j = y.IntegerValue;
            if (j == 0) return SqlValue.Null;
            if (j != -1 || i != long.MinValue) return SqlValue.Integer(i / j);
        }
        double d = b.ToDouble();
        if (d == 0.0) return SqlValue.Null;
        return SqlValue.Real(a.ToDouble() / d);
    }

    /// <summary>
    /// <c>a % b</c>: the remainder of the operands read as integers (<see cref="SqlValue.ToInt64"/>: reals truncate,
    /// text gives its leading integer, so '1e3' is 1), with the sign of <paramref name="a"/>; REAL when either operand
    /// reads as a REAL; NULL when the integer divisor is zero.
    /// </summary>
    public static SqlValue Remainder(in SqlValue a, in SqlValue b)
    {
        if (a.IsNull || b.IsNull) return SqlValue.Null;
        bool real = ToNumber(a).Type == SharcColumnType.Real || ToNumber(b).Type == SharcColumnType.Real;
        long i = a.ToInt64(), j = b.ToInt64();
        if (j == 0) return SqlValue.Null;
        // x % -1 is 0 for every x, and computing it would overflow for long.MinValue.
        long r = j == -1 ? 0 : i % j;
        return real ? SqlValue.Real(r) : SqlValue.Integer(r);
    }

    /// <summary>Unary minus, which SQLite computes as <c>0 - a</c> (so -(0.0) is +0.0 and -(-9223372036854775808) is REAL).</summary>
    public static SqlValue Negate(in SqlValue a) => Subtract(SqlValue.Integer(0), a);

    /// <summary><c>a &amp; b</c>.</summary>
    public static SqlValue BitAnd(in SqlValue a, in SqlValue b)
        => a.IsNull || b.IsNull ? SqlValue.Null : SqlValue.Integer(a.ToInt64() & b.ToInt64());

    /// <summary><c>a | b</c>.</summary>
    public static SqlValue BitOr(in SqlValue a, in SqlValue b)
        => a.IsNull || b.IsNull ? SqlValue.Null : SqlValue.Integer(a.ToInt64() | b.ToInt64());

    /// <summary><c>~a</c>.</summary>
    public static SqlValue BitNot(in SqlValue a) => a.IsNull ? SqlValue.Null : SqlValue.Integer(~a.ToInt64());

    /// <summary><c>a &lt;&lt; b</c>: a negative count shifts right; counts of 64 or more give 0.</summary>
    public static SqlValue ShiftLeft(in SqlValue a, in SqlValue b)
        => a.IsNull || b.IsNull ? SqlValue.Null : SqlValue.Integer(Shift(a.ToInt64(), b.ToInt64(), left: true));

    /// <summary><c>a &gt;&gt; b</c>: arithmetic (sign-filling); a negative count shifts left; 64 or more gives 0 or -1.</summary>
    public static SqlValue ShiftRight(in SqlValue a, in SqlValue b)
        => a.IsNull || b.IsNull ? SqlValue.Null : SqlValue.Integer(Shift(a.ToInt64(), b.ToInt64(), left: false));

    private static long Shift(long value, long count, bool left)
    {
        if (count < 0)
        {
            left = !left;
            count = count > -64 ? -count : 64;
        }
        if (count >= 64) return left || value >= 0 ? 0 : -1;
        return left ? (long)((ulong)value << (int)count) : value >> (int)count;
    }

    /// <summary><c>a || b</c>: the text of both (numbers as SQLite renders them, blobs as their bytes); TEXT.</summary>
    public static SqlValue Concat(in SqlValue a, in SqlValue b)
    {
        if (a.IsNull || b.IsNull) return SqlValue.Null;
        Span<byte> bufA = stackalloc byte[SqlValue.NumberTextMax];
        Span<byte> bufB = stackalloc byte[SqlValue.NumberTextMax];
        var x = a.TextBytes(bufA);
        var y = b.TextBytes(bufB);
        SqlErrors.CheckLength((long)x.Length + y.Length);
        if (x.Length + y.Length == 0) return SqlValue.EmptyText;
        var result = new byte[x.Length + y.Length];
        x.CopyTo(result);
        y.CopyTo(result.AsSpan(x.Length));
        return SqlValue.OwnedText(result);
    }
}
