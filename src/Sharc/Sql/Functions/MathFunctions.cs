using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Sql.Functions;

/// <summary>abs, round, sign, and the random and blob-making functions.</summary>
internal static class MathFunctions
{
    /// <summary>
    /// abs(X): INTEGER for an integer (abs(-9223372036854775808) is an "integer overflow" error), NULL for NULL,
    /// otherwise the REAL absolute value of X read as a number (so abs('-5') is 5.0, and -0.0 stays -0.0).
    /// </summary>
    public static SqlValue Abs(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        var x = a[0];
        switch (x.Type)
        {
            case SharcColumnType.Null:
                return x;
            case SharcColumnType.Integer:
                long i = x.IntegerValue;
                if (i == long.MinValue) SqlErrors.IntegerOverflow();
                return i < 0 ? SqlValue.Integer(-i) : x;
            default:
                double r = x.ToDouble();
                return r < 0 ? SqlValue.Real(-r) : SqlValue.Real(r);
        }
    }

    /// <summary>
    /// round(X [, N]): always REAL. N is clamped to 0…30. Values beyond 2^52 have no fraction and are returned as
    /// they are; with N = 0 the value is rounded half away from zero; otherwise it is printed with printf's
    /// <c>%!.Nf</c> (SQLite's digit generation, not exact decimal) and read back.
    /// </summary>
    public static SqlValue Round(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        if (a[0].IsNull || (a.Length > 1 && a[1].IsNull)) return SqlValue.Null;
        long n = a.Length > 1 ? a[1].ToInt64() : 0;
        if (n > 30) n = 30;
        if (n < 0) n = 0;
        double r = a[0].ToDouble();
        if (r is < -4503599627370496.0 or > 4503599627370496.0) return SqlValue.Real(r);
        if (n == 0) return SqlValue.Real((double)(long)(r + (r < 0 ? -0.5 : 0.5)));
        var sb = new Utf8Builder(stackalloc byte[64]);
        try
        {
            Printf.AppendDouble(ref sb, r, (byte)'f', (int)n, alt2: true, zero: false);
            return SqlValue.Real(ValueConvert.TextToDouble(sb.Written));
        }
        finally
        {
            sb.Dispose();
        }
    }

    /// <summary>
    /// sign(X): -1, 0 or +1 for a number, or for text that is wholly a number; NULL for NULL, blobs, and text that
    /// is not a number.
    /// </summary>
    public static SqlValue Sign(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        var x = a[0];
        if (x.Type == SharcColumnType.Text && !SqlTextNumber.TryAffinity(x.Bytes, preferInteger: false, out x)) return SqlValue.Null;
        if (!x.IsNumber) return SqlValue.Null;
        double d = x.Type == SharcColumnType.Integer ? x.IntegerValue : x.RealValue;
        return SqlValue.Integer(d < 0 ? -1 : d > 0 ? 1 : 0);
    }

    /// <summary>random(): any 64-bit integer.</summary>
    public static SqlValue Random(ReadOnlySpan<SqlValue> a, FunctionContext ctx) => SqlValue.Integer(ctx.Random.NextInt64());

    /// <summary>randomblob(N): N random bytes (at least 1).</summary>
    public static SqlValue RandomBlob(ReadOnlySpan<SqlValue> a, FunctionContext ctx)
    {
        long n = a[0].ToInt64();
        if (n < 1) n = 1;
        SqlErrors.CheckLength(n);
        var b = new byte[n];
        ctx.Random.Fill(b);
        return SqlValue.OwnedBlob(b);
    }

    /// <summary>zeroblob(N): N zero bytes (none for N &lt; 0).</summary>
    public static SqlValue ZeroBlob(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        long n = a[0].ToInt64();
        if (n <= 0) return SqlValue.EmptyBlob;
        SqlErrors.CheckLength(n);
        return SqlValue.OwnedBlob(new byte[n]);
    }
}
