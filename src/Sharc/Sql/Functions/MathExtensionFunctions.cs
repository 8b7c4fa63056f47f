using Sharc.Sql.Values;

namespace Sharc.Sql.Functions;

/// <summary>
/// The math functions SQLite adds when built with SQLITE_ENABLE_MATH_FUNCTIONS (the default for the amalgamation and
/// e_sqlite3). Arguments must be numbers or text that is wholly a number; anything else, or a NaN result, is NULL.
/// ceil/floor/trunc keep integers as integers; everything else returns REAL.
/// </summary>
internal static class MathExtensionFunctions
{
    /// <summary>The registrations, for <see cref="ScalarFunctions"/>.</summary>
    public static IEnumerable<ScalarFunction> All()
    {
        static ScalarFunction Unary(string name, Func<double, double> f)
            => new(name, 1, 1, (a, _) => TryNumber(a[0], out double x) ? SqlValue.Real(f(x)) : SqlValue.Null);
        static ScalarFunction Binary(string name, Func<double, double, double> f)
            => new(name, 2, 2, (a, _) => TryNumber(a[0], out double x) && TryNumber(a[1], out double y) ? SqlValue.Real(f(x, y)) : SqlValue.Null);

        yield return Unary("acos", Math.Acos);
        yield return Unary("acosh", Math.Acosh);
        yield return Unary("asin", Math.Asin);
        yield return Unary("asinh", Math.Asinh);
        yield return Unary("atan", Math.Atan);
        yield return Binary("atan2", Math.Atan2);
        yield return Unary("atanh", Math.Atanh);
        yield return new ScalarFunction("ceil", 1, 1, (a, _) => Rounding(a[0], Math.Ceiling));
        yield return new ScalarFunction("ceiling", 1, 1, (a, _) => Rounding(a[0], Math.Ceiling));
        yield return Unary("cos", Math.Cos);
        yield return Unary("cosh", Math.Cosh);
        yield return Unary("degrees", x => x * (180.0 / Math.PI));
        yield return Unary("exp", Math.Exp);
        yield return new ScalarFunction("floor", 1, 1, (a, _) => Rounding(a[0], Math.Floor));
        yield return Unary("ln", x => x > 0 ? Math.Log(x) : double.NaN);
        yield return new ScalarFunction("log", 1, 2, (a, _) => Log(a));
        yield return Unary("log10", x => x > 0 ? Math.Log10(x) : double.NaN);
        yield return Unary("log2", x => x > 0 ? Math.Log2(x) : double.NaN);
        yield return Binary("mod", (x, y) => x % y);
        yield return new ScalarFunction("pi", 0, 0, (_, _) => SqlValue.Real(Math.PI));
        yield return Binary("pow", Math.Pow);
        yield return Binary("power", Math.Pow);
        yield return Unary("radians", x => x * (Math.PI / 180.0));
        yield return Unary("sin", Math.Sin);
        yield return Unary("sinh", Math.Sinh);
        yield return Unary("sqrt", Math.Sqrt);
        yield return Unary("tan", Math.Tan);
        yield return Unary("tanh", Math.Tanh);
        yield return new ScalarFunction("trunc", 1, 1, (a, _) => Rounding(a[0], Math.Truncate));
    }

    /// <summary>An argument as a double: numbers, and text that is wholly a number (numeric affinity); not blobs.</summary>
    private static bool TryNumber(in SqlValue v, out double x)
    {
        var n = v;
        if (v.Type == SharcColumnType.Text && !SqlTextNumber.TryAffinity(v.Bytes, preferInteger: false, out n))
        {
            x = 0;
            return false;
        }
        switch (n.Type)
        {
            case SharcColumnType.Integer:
                x = n.IntegerValue;
                return true;
            case SharcColumnType.Real:
                x = n.RealValue;
                return true;
            default:
                x = 0;
                return false;
        }
    }

    private static SqlValue Rounding(in SqlValue v, Func<double, double> f)
    {
        var n = v;
        if (v.Type == SharcColumnType.Text && !SqlTextNumber.TryAffinity(v.Bytes, preferInteger: false, out n)) return SqlValue.Null;
        return n.Type switch
        {
            SharcColumnType.Integer => n,
            SharcColumnType.Real => SqlValue.Real(f(n.RealValue)),
            _ => SqlValue.Null,
        };
    }

    /// <summary>
    /// log(X) is the base-10 logarithm; log(B, X) the base-B one, for B &gt; 1 only. In the two-argument form SQLite
    /// checks only B's type: X is read as any value is read as a double ('8x' and x'38' are 8).
    /// </summary>
    private static SqlValue Log(ReadOnlySpan<SqlValue> a)
    {
        if (a.Length == 1) return TryNumber(a[0], out double x) && x > 0 ? SqlValue.Real(Math.Log10(x)) : SqlValue.Null;
        if (!TryNumber(a[0], out double b) || a[1].IsNull) return SqlValue.Null;
        double y = a[1].ToDouble();
        if (b <= 0 || y <= 0) return SqlValue.Null;
        double lb = Math.Log(b);
        if (lb <= 0) return SqlValue.Null;
        return SqlValue.Real(Math.Log(y) / lb);
    }
}
