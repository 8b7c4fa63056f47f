using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Sql.Functions.Aggregates;

/// <summary>
/// min(X) and max(X) over the non-NULL values, in the sort order (<see cref="SqlCompare.Compare"/>) with the
/// argument's collation; the first of equal values is kept. NULL when there are none.
/// </summary>
internal sealed class MinMaxAggregate : SqlAggregate
{
    private readonly bool _max;
    private readonly Collation _collation;
    private SqlValue _best;

    /// <summary>max() when <paramref name="max"/>, else min().</summary>
    public MinMaxAggregate(bool max, Collation collation)
    {
        _max = max;
        _collation = collation;
    }

    /// <inheritdoc/>
    public override void Step(ReadOnlySpan<SqlValue> args)
    {
        var v = args[0];
        if (v.IsNull) return;
        if (!_best.IsNull)
        {
            int c = SqlCompare.Compare(_best, v, _collation);
            if (_max ? c >= 0 : c <= 0) return;
        }
        _best = v.ToOwned();
    }

    /// <inheritdoc/>
    public override SqlValue Finish() => _best;

    /// <inheritdoc/>
    public override void Reset() => _best = default;
}

/// <summary>
/// group_concat(X [, SEP]) and string_agg(X, SEP): the text of the non-NULL values of X, each after the first preceded
/// by that row's separator (default ","; a NULL separator adds nothing). NULL when there are no values.
/// </summary>
internal sealed class GroupConcatAggregate : SqlAggregate
{
    private byte[] _buffer = new byte[64];
    private int _length;
    private bool _any;

    /// <inheritdoc/>
    public override void Step(ReadOnlySpan<SqlValue> args)
    {
        var v = args[0];
        if (v.IsNull) return;
        Span<byte> buf = stackalloc byte[SqlValue.NumberTextMax];
        if (_any)
        {
            if (args.Length > 1) Append(args[1].TextBytes(buf));
            else Append(","u8);
        }
        _any = true;
        Append(v.TextBytes(buf));
    }

    private void Append(ReadOnlySpan<byte> bytes)
    {
        long need = (long)_length + bytes.Length;
        SqlErrors.CheckLength(need);
        if (need > _buffer.Length) Array.Resize(ref _buffer, (int)Math.Min(Math.Max(need, 2L * _buffer.Length), Array.MaxLength));
        bytes.CopyTo(_buffer.AsSpan(_length));
        _length = (int)need;
    }

    /// <inheritdoc/>
    public override SqlValue Finish() => _any ? SqlValue.CopyText(_buffer.AsSpan(0, _length)) : SqlValue.Null;

    /// <inheritdoc/>
    public override void Reset()
    {
        _length = 0;
        _any = false;
    }
}
