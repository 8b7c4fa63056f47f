using Sharc.Sql.Values;

namespace Sharc.Sql.Functions.Aggregates;

/// <summary>count(*) (no arguments: every row) and count(X) (rows where X is not NULL).</summary>
internal sealed class CountAggregate : SqlAggregate
{
    private readonly bool _countRows;
    private long _count;

    /// <summary>count(*) when <paramref name="countRows"/>, else count(X).</summary>
    public CountAggregate(bool countRows) => _countRows = countRows;

    /// <inheritdoc/>
    public override void Step(ReadOnlySpan<SqlValue> args)
    {
        if (_countRows || !args[0].IsNull) _count++;
    }

    /// <inheritdoc/>
    public override SqlValue Finish() => SqlValue.Integer(_count);

    /// <inheritdoc/>
    public override void Reset() => _count = 0;
}

/// <summary>
/// sum(X), total(X) and avg(X). Integers (and text that is wholly an integer) add exactly in 64 bits until a
/// REAL, a non-integer text or a blob (read as its numeric prefix) arrives, or the integer sum overflows; from then
/// on the sum is kept in doubles with Kahan–Babuška–Neumaier compensation, as SQLite does. sum() of integers alone
/// whose sum overflowed is the error "integer overflow" (a later non-integer value makes it a REAL instead);
/// total() and avg() carry on in doubles. With no non-NULL input,
/// sum and avg are NULL and total is 0.0.
/// </summary>
internal sealed class SumAggregate : SqlAggregate
{
    /// <summary>Which of the three functions.</summary>
    public enum Kind
    {
        /// <summary>sum().</summary>
        Sum,
        /// <summary>total().</summary>
        Total,
        /// <summary>avg().</summary>
        Avg,
    }

    private readonly Kind _kind;
    private long _count;
    private long _integerSum;
    private bool _approximate;
    private bool _overflow;
    private double _sum;
    private double _error;

    /// <summary>An accumulator for <paramref name="kind"/>.</summary>
    public SumAggregate(Kind kind) => _kind = kind;

    /// <inheritdoc/>
    public override void Step(ReadOnlySpan<SqlValue> args)
    {
        var v = args[0];
        if (v.IsNull) return;
        _count++;
        if (v.Type == SharcColumnType.Text && SqlTextNumber.TryAffinity(v.Bytes, preferInteger: false, out var n)) v = n;
        if (v.Type == SharcColumnType.Integer)
        {
            long i = v.IntegerValue;
            if (!_approximate)
            {
                long s = unchecked(_integerSum + i);
                if (((_integerSum ^ s) & (i ^ s)) >= 0)
                {
                    _integerSum = s;
                    return;
                }
                _overflow = true;
                SwitchToReal();
            }
            AddInteger(i);
            return;
        }
        if (!_approximate) SwitchToReal();
        // The overflow only matters to sum() when every value was an integer.
        _overflow = false;
        Add(v.ToDouble());
    }

    /// <summary>Makes the result REAL whatever is stepped next (a window's sum after a non-integer has been in its frame).</summary>
    public void MakeApproximate()
    {
        if (!_approximate) SwitchToReal();
    }

    private void SwitchToReal()
    {
        _approximate = true;
        _sum = 0;
        _error = 0;
        AddInteger(_integerSum);
    }

    private void AddInteger(long i)
    {
        // A double holds integers exactly only up to 2^53: add larger ones as a multiple of 2^14 plus the rest.
        if (i is > -4503599627370496L and < 4503599627370496L)
        {
            Add(i);
            return;
        }
        long small = i % 16384;
        Add(i - small);
        Add(small);
    }

    private void Add(double x)
    {
        double s = _sum, t = s + x;
        if (Math.Abs(s) > Math.Abs(x)) _error += s - t + x;
        else _error += x - t + s;
        _sum = t;
    }

    private double RealTotal()
    {
        if (!_approximate) return _integerSum;
        // The compensation is meaningless once it has overflowed.
        return double.IsFinite(_error) ? _sum + _error : _sum;
    }

    /// <inheritdoc/>
    public override SqlValue Finish()
    {
        switch (_kind)
        {
            case Kind.Total:
                return SqlValue.Real(RealTotal());
            case Kind.Avg:
                return _count == 0 ? SqlValue.Null : SqlValue.Real(RealTotal() / _count);
            default:
                if (_count == 0) return SqlValue.Null;
                if (_overflow) SqlErrors.IntegerOverflow();
                return _approximate ? SqlValue.Real(RealTotal()) : SqlValue.Integer(_integerSum);
        }
    }

    /// <inheritdoc/>
    public override void Reset()
    {
        _count = 0;
        _integerSum = 0;
        _approximate = false;
        _overflow = false;
        _sum = 0;
        _error = 0;
    }
}
