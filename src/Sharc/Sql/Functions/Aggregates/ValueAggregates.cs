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
/// <remarks>
/// As a window function over a frame that slides (<see cref="AsWindow"/>) it is kept as SQLite keeps it, so its
/// answers match: a step appends the separator only when the text buffer is live (a step after the buffer was
/// emptied counts as the first term); the inverse cuts the removed value and one separator's length from the front
/// of the text (clamped at empty, which makes the buffer dead again), with separator lengths tracked per value once
/// they vary; and a frame of values whose text is empty answers a one-byte text holding NUL.
/// </remarks>
internal sealed class GroupConcatAggregate : SqlAggregate, IInverseStep
{
    private byte[] _text = new byte[64];
    private int _length;
    private bool _live;
    private int _count;
    private int _firstSeparatorLength;
    private List<int>? _separatorLengths;

    /// <summary>True when it answers for window frames (SQLite's value step) rather than a group (its final step).</summary>
    public bool AsWindow { get; set; }

    /// <inheritdoc/>
    public override void Step(ReadOnlySpan<SqlValue> args)
    {
        var v = args[0];
        if (v.IsNull) return;
        Span<byte> buf = stackalloc byte[SqlValue.NumberTextMax];
        bool firstTerm = !_live;
        _live = true;
        if (args.Length == 1)
        {
            if (!firstTerm) Append(","u8);
            else _firstSeparatorLength = 1;
        }
        else if (!firstTerm)
        {
            int separatorLength = 0;
            if (!args[1].IsNull)
            {
                var separator = args[1].TextBytes(buf);
                separatorLength = separator.Length;
                Append(separator);
            }
            if (AsWindow && (separatorLength != _firstSeparatorLength || _separatorLengths is not null))
            {
                _separatorLengths ??= [.. Enumerable.Repeat(_firstSeparatorLength, Math.Max(0, _count - 1))];
                while (_separatorLengths.Count < _count) _separatorLengths.Add(0);
                if (_count > 0) _separatorLengths[_count - 1] = separatorLength;
            }
        }
        else
        {
            _firstSeparatorLength = args[1].IsNull ? 0 : args[1].TextBytes(buf).Length;
        }
        _count++;
        Append(v.TextBytes(buf));
    }

    /// <inheritdoc/>
    public void Inverse(ReadOnlySpan<SqlValue> args)
    {
        var v = args[0];
        if (v.IsNull) return;
        Span<byte> buf = stackalloc byte[SqlValue.NumberTextMax];
        int cut = v.TextBytes(buf).Length;
        _count--;
        if (_separatorLengths is not null)
        {
            if (_count > 0 && _separatorLengths.Count > 0)
            {
                cut += _separatorLengths[0];
                _separatorLengths.RemoveAt(0);
            }
        }
        else
        {
            cut += _firstSeparatorLength;
        }
        if (cut >= _length)
        {
            _length = 0;
        }
        else
        {
            _text.AsSpan(cut, _length - cut).CopyTo(_text);
            _length -= cut;
        }
        if (_length == 0)
        {
            _live = false;
            _separatorLengths = null;
        }
    }

    /// <inheritdoc/>
    public override SqlValue Finish()
        => _length > 0 ? SqlValue.CopyText(_text.AsSpan(0, _length))
            : _count == 0 ? SqlValue.Null
            : AsWindow ? SqlValue.CopyText([0]) : SqlValue.EmptyText;

    /// <inheritdoc/>
    public override void Reset()
    {
        _length = 0;
        _live = false;
        _count = 0;
        _firstSeparatorLength = 0;
        _separatorLengths = null;
    }

    private void Append(ReadOnlySpan<byte> bytes)
    {
        long need = (long)_length + bytes.Length;
        SqlErrors.CheckLength(need);
        if (need > _text.Length) Array.Resize(ref _text, (int)Math.Min(Math.Max(need, 2L * _text.Length), Array.MaxLength));
        bytes.CopyTo(_text.AsSpan(_length));
        _length = (int)need;
    }
}
