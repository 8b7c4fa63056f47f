using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution.RecordFilters;

/// <summary>
/// A constant side of a test, evaluated once per run with the comparison affinity applied as the SQL evaluator
/// applies it. A number under TEXT affinity would have to be rendered as text: such a constant disables the test
/// (Unknown) rather than allocate per run.
/// </summary>
internal struct BoundConstant(Evaluator source)
{
    public SqlValue Value;
    public bool Usable;

    public void Bind(ExecContext ctx, ValueArena arena, SqlAffinity affinity)
    {
        var v = source.Evaluate(ctx);
        Usable = !(affinity == SqlAffinity.Text && v.IsNumber);
        Value = Usable ? arena.Keep(SqlAffinities.ApplyForComparison(v, affinity)) : default;
    }
}

/// <summary><c>column op constant</c> for the six comparison operators.</summary>
internal sealed class CompareTest(RecordColumn column, SqlCompareOp op, Evaluator constant, SqlAffinity affinity, Collation collation) : RecordTest
{
    private BoundConstant _k = new(constant);

    public override void Bind(ExecContext ctx, ValueArena arena) => _k.Bind(ctx, arena, affinity);

    /// <summary>
    /// The column, operator and bound constant when the constant is an integer and the stored integers of the column
    /// compare with it as plain integers (any affinity but TEXT); for <see cref="IntegerRange"/>.
    /// </summary>
    public bool TryIntegerConstant(out RecordColumn stored, out SqlCompareOp comparison, out long k)
    {
        stored = column;
        comparison = op;
        k = _k.Value.IntegerValue;
        return _k.Usable && _k.Value.Type == SharcColumnType.Integer && affinity != SqlAffinity.Text;
    }

    public override RecordTruth Test(ReadOnlySpan<byte> record, long rowId)
    {
        if (!StoredValue.TryRead(record, rowId, column, out var x) || !_k.Usable) return RecordTruth.Unknown;
        if (x.Type == SharcColumnType.Null || _k.Value.IsNull) return RecordTruth.Null;
        if (!StoredCompare.TryCompare(x, _k.Value, affinity, collation, out int c)) return RecordTruth.Unknown;
        return SqlCompare.Holds(op, c) ? RecordTruth.True : RecordTruth.False;
    }
}

/// <summary><c>column IS NULL</c> (or IS NOT NULL when <paramref name="not"/>).</summary>
internal sealed class NullTest(RecordColumn column, bool not) : RecordTest
{
    public override void Bind(ExecContext ctx, ValueArena arena)
    {
    }

    public override RecordTruth Test(ReadOnlySpan<byte> record, long rowId)
    {
        if (!StoredValue.TryRead(record, rowId, column, out var x)) return RecordTruth.Unknown;
        return (x.Type == SharcColumnType.Null) != not ? RecordTruth.True : RecordTruth.False;
    }
}

/// <summary>
/// <c>column IN (constants)</c>: True when an element equals the column; otherwise NULL when the column or an element
/// is NULL, else False; an empty list is False even for NULL (as <see cref="SqlCompare.In"/>).
/// </summary>
internal sealed class InTest : RecordTest
{
    private readonly RecordColumn _column;
    private readonly Evaluator[] _items;
    private readonly SqlValue[] _values;
    private readonly SqlAffinity _affinity;
    private readonly Collation _collation;
    private int _count;
    private bool _sawNull;
    private bool _usable;

    public InTest(RecordColumn column, Evaluator[] items, SqlAffinity affinity, Collation collation)
    {
        _column = column;
        _items = items;
        _values = new SqlValue[items.Length];
        _affinity = affinity;
        _collation = collation;
    }

    public override void Bind(ExecContext ctx, ValueArena arena)
    {
        _count = 0;
        _sawNull = false;
        _usable = true;
        foreach (var item in _items)
        {
            var k = new BoundConstant(item);
            k.Bind(ctx, arena, _affinity);
            _usable &= k.Usable;
            if (!k.Usable) continue;
            if (k.Value.IsNull) _sawNull = true;
            else _values[_count++] = k.Value;
        }
    }

    public override RecordTruth Test(ReadOnlySpan<byte> record, long rowId)
    {
        if (_items.Length == 0) return RecordTruth.False;
        if (!_usable || !StoredValue.TryRead(record, rowId, _column, out var x)) return RecordTruth.Unknown;
        if (x.Type == SharcColumnType.Null) return RecordTruth.Null;
        for (int i = 0; i < _count; i++)
        {
            if (!StoredCompare.TryCompare(x, _values[i], _affinity, _collation, out int c)) return RecordTruth.Unknown;
            if (c == 0) return RecordTruth.True;
        }
        return _sawNull ? RecordTruth.Null : RecordTruth.False;
    }
}

/// <summary>
/// <c>column LIKE pattern</c> / <c>column GLOB pattern</c> (no ESCAPE) for the patterns that are a plain prefix: an
/// ASCII literal followed by nothing (equality) or by only <c>%</c> (<c>*</c> for GLOB). LIKE folds ASCII case, as
/// SQLite's built-in LIKE does; GLOB compares bytes. Any other pattern, and any stored value that is not text, is
/// Unknown.
/// </summary>
internal sealed class PrefixTest(RecordColumn column, bool glob, Evaluator pattern) : RecordTest
{
    private enum Mode : byte
    {
        Off,
        NullPattern,
        Exact,
        Prefix,
    }

    private Mode _mode;
    private SqlValue _prefix;

    public override void Bind(ExecContext ctx, ValueArena arena)
    {
        _mode = Mode.Off;
        var p = pattern.Evaluate(ctx);
        if (p.IsNull)
        {
            _mode = Mode.NullPattern;
            return;
        }
        if (p.Type != SharcColumnType.Text || p.Bytes.Length > 1000) return;
        var bytes = p.Bytes;
        int n = 0;
        while (n < bytes.Length && IsLiteral(bytes[n])) n++;
        int rest = n;
        byte any = glob ? (byte)'*' : (byte)'%';
        while (rest < bytes.Length && bytes[rest] == any) rest++;
        if (rest < bytes.Length) return;
        _prefix = arena.Text(bytes[..n]);
        _mode = rest == n ? Mode.Exact : Mode.Prefix;
    }

    // ASCII other than NUL (which ends a C string in SQLite's matcher) and the pattern's wildcards.
    private bool IsLiteral(byte b) => b is > 0 and < 0x80 && (glob ? b is not ((byte)'*' or (byte)'?' or (byte)'[') : b is not ((byte)'%' or (byte)'_'));

    public override RecordTruth Test(ReadOnlySpan<byte> record, long rowId)
    {
        if (_mode == Mode.Off || !StoredValue.TryRead(record, rowId, column, out var x)) return RecordTruth.Unknown;
        if (x.Type == SharcColumnType.Null || _mode == Mode.NullPattern) return RecordTruth.Null;
        if (x.Type != SharcColumnType.Text) return RecordTruth.Unknown;
        var prefix = _prefix.Bytes;
        var value = x.Bytes;
        if (_mode == Mode.Exact)
        {
            // SQLite's matcher stops at a NUL in the value: leave such values to it.
            if (value.IndexOf((byte)0) >= 0) return RecordTruth.Unknown;
            if (value.Length != prefix.Length) return RecordTruth.False;
        }
        else if (value.Length < prefix.Length)
        {
            return RecordTruth.False;
        }
        value = value[..prefix.Length];
        bool match = glob ? value.SequenceEqual(prefix) : System.Text.Ascii.EqualsIgnoreCase(value, prefix);
        return match ? RecordTruth.True : RecordTruth.False;
    }
}
