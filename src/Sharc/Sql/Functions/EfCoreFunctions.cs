using System.Globalization;
using Sharc.Sql.Functions.Aggregates;
using Sharc.Sql.Values;

namespace Sharc.Sql.Functions;

/// <summary>
/// The decimal functions EF Core's SQLite provider registers on every SqliteConnection it opens (ef_add, ef_compare…,
/// and the ef_sum/ef_avg/ef_min/ef_max aggregates): EF stores decimals as TEXT and does their arithmetic and
/// comparisons through these calls. EF registers them only on a SqliteConnection, so Sharc has them built in for EF
/// Core over Sharc.Data. Arguments convert as Microsoft.Data.Sqlite's GetDecimal converts them; results are stored as
/// it stores a decimal parameter (invariant TEXT); NULL in gives NULL out. Checked against EF on real SQLite.
/// </summary>
internal static class EfCoreFunctions
{
    public static IEnumerable<ScalarFunction> All()
    {
        yield return Binary("ef_add", (a, b) => a + b);
        yield return Binary("ef_divide", (a, b) => a / b);
        yield return Binary("ef_multiply", (a, b) => a * b);
        yield return Binary("ef_mod", (a, b) => a % b);
        yield return new ScalarFunction("ef_negate", 1, 1, (args, _) => args[0].IsNull ? SqlValue.Null : FromDecimal(-ToDecimal(args[0])));
        yield return new ScalarFunction("ef_compare", 2, 2, (args, _) => args[0].IsNull || args[1].IsNull
            ? SqlValue.Null
            : SqlValue.Integer(ToDecimal(args[0]).CompareTo(ToDecimal(args[1]))));
    }

    private static ScalarFunction Binary(string name, Func<decimal, decimal, decimal> op)
        => new(name, 2, 2, (args, _) => args[0].IsNull || args[1].IsNull ? SqlValue.Null : FromDecimal(Run(op, ToDecimal(args[0]), ToDecimal(args[1]))));

    private static decimal Run(Func<decimal, decimal, decimal> op, decimal a, decimal b)
    {
        try
        {
            return op(a, b);
        }
        catch (ArithmeticException e)
        {
            // Microsoft.Data.Sqlite reports a function's exception as the statement's error, with its message.
            return SqlErrors.Throw<decimal>(e.Message);
        }
    }

    /// <summary>A value as a decimal, as Microsoft.Data.Sqlite's GetDecimal reads it (text parsed invariantly, exponents allowed).</summary>
    public static decimal ToDecimal(SqlValue v)
    {
        try
        {
            return v.Type switch
            {
                SharcColumnType.Integer => v.IntegerValue,
                SharcColumnType.Real => (decimal)v.RealValue,
                _ => decimal.Parse(v.AsString() ?? "", NumberStyles.Number | NumberStyles.AllowExponent, CultureInfo.InvariantCulture),
            };
        }
        catch (Exception e) when (e is FormatException or OverflowException)
        {
            return SqlErrors.Throw<decimal>(e.Message);
        }
    }

    public static SqlValue FromDecimal(decimal d) => SqlValue.Text(d.ToString(ClrValues.DecimalFormat, CultureInfo.InvariantCulture));

    /// <summary>The aggregate for an ef_* name, or null.</summary>
    public static SqlAggregate? Aggregate(string lowerName) => lowerName switch
    {
        "ef_sum" => new DecimalAggregate(DecimalAggregate.Kind.Sum),
        "ef_avg" => new DecimalAggregate(DecimalAggregate.Kind.Avg),
        "ef_min" => new DecimalAggregate(DecimalAggregate.Kind.Min),
        "ef_max" => new DecimalAggregate(DecimalAggregate.Kind.Max),
        _ => null,
    };
}

/// <summary>ef_sum, ef_avg, ef_min and ef_max over decimals: NULLs are skipped, and no value at all gives NULL.</summary>
internal sealed class DecimalAggregate(DecimalAggregate.Kind kind) : SqlAggregate
{
    public enum Kind { Sum, Avg, Min, Max }

    private decimal _acc;
    private long _count;

    public override void Step(ReadOnlySpan<SqlValue> args)
    {
        if (args[0].IsNull) return;
        decimal v = EfCoreFunctions.ToDecimal(args[0]);
        _acc = _count == 0 ? v : kind switch
        {
            Kind.Min => Math.Min(_acc, v),
            Kind.Max => Math.Max(_acc, v),
            _ => _acc + v,
        };
        _count++;
    }

    public override SqlValue Finish()
        => _count == 0 ? SqlValue.Null : EfCoreFunctions.FromDecimal(kind == Kind.Avg ? _acc / _count : _acc);

    public override void Reset()
    {
        _acc = 0;
        _count = 0;
    }
}
