using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// A join step that reads its item once per execution of the level and keeps the rows (values copied out of the
/// pages): for each outer row it walks all of them, or, with equality keys, only those in the probe key's hash
/// bucket. The hash only narrows the candidates; the step's conditions still decide, so affinity and collation
/// (1 = 1.0, NOCASE) are honoured exactly: equal values under the comparison always hash alike. Memory is bounded by
/// the item's rows, kept in a <see cref="RowStore"/> with each bucket a chain of row numbers, all reused by the
/// next execution; <c>computed</c> marks the columns not kept (VIRTUAL generated ones). Remembers which rows matched, for RIGHT and FULL joins.
/// </summary>
internal sealed class KeptRowsInner : JoinInner
{
    private readonly RowOperator _source;
    private readonly int _frameId;
    private readonly int _width;
    private readonly bool[] _computed;
    private readonly bool _hasRowId;
    private readonly Evaluator? _buildFilter;
    private readonly Evaluator[] _buildKeys;
    private readonly Evaluator[] _probeKeys;
    private readonly SqlAffinity[] _affinities;
    private readonly Collation[] _collations;
    private readonly KeptRowFrame _frame = new();
    private readonly RowStore _rows;
    private readonly SqlValue[] _building;
    // Each bucket's first and last row; _chain[row] is the next row of its bucket, -1 at the end.
    private readonly Dictionary<long, (int First, int Last)> _buckets = [];
    private int[] _chain = [];
    private bool[] _matched = [];
    private bool _built;
    private int _candidate;
    private int _at;
    private int _current;

    public KeptRowsInner(RowOperator source, int frame, bool[] computed, bool hasRowId, Evaluator? buildFilter,
        Evaluator[] buildKeys, Evaluator[] probeKeys, SqlAffinity[] affinities, Collation[] collations)
    {
        _source = source;
        _frameId = frame;
        _width = computed.Length;
        _computed = computed;
        _hasRowId = hasRowId;
        _buildFilter = buildFilter;
        _buildKeys = buildKeys;
        _probeKeys = probeKeys;
        _affinities = affinities;
        _collations = collations;
        _rows = new RowStore(_width + 1);
        _building = new SqlValue[_width + 1];
        _frame.Row = new SqlValue[_width + 1];
    }

    private bool Hashed => _buildKeys.Length > 0;

    public override void Reset() => _built = false;

    public override void Open(ExecContext ctx)
    {
        if (!_built) Build(ctx);
        _at = 0;
        _candidate = -1;
        if (Hashed && Hash(_probeKeys, ctx, out long h) && _buckets.TryGetValue(h, out var bucket)) _candidate = bucket.First;
    }

    public override bool Next(ExecContext ctx)
    {
        if (Hashed)
        {
            if (_candidate < 0) return false;
            Bind(ctx, _candidate);
            _candidate = _chain[_candidate];
            return true;
        }
        if (_at >= _rows.Count) return false;
        Bind(ctx, _at++);
        return true;
    }

    public override void MarkMatched() => _matched[_current] = true;

    public override void StartUnmatched(ExecContext ctx)
    {
        if (!_built) Build(ctx);
        _at = 0;
    }

    public override bool NextUnmatched(ExecContext ctx)
    {
        while (_at < _rows.Count)
        {
            int i = _at++;
            if (_matched[i]) continue;
            Bind(ctx, i);
            return true;
        }
        return false;
    }

    private void Bind(ExecContext ctx, int i)
    {
        _current = i;
        _rows.CopyTo(i, _frame.Row);
        ctx.Frames[_frameId] = _frame;
    }

    private void Build(ExecContext ctx)
    {
        _rows.Clear();
        _buckets.Clear();
        _source.Open(ctx);
        var frame = ctx.Frames[_frameId];
        try
        {
            while (_source.Next(ctx))
            {
                if (_buildFilter is not null && !_buildFilter.IsTrue(ctx)) continue;
                var row = _building;
                row[0] = _hasRowId ? frame.Get(-1) : SqlValue.Null;
                // A VIRTUAL generated column is not stored: references to it compute it from the stored ones.
                for (int c = 0; c < _width; c++) row[c + 1] = _computed[c] ? SqlValue.Null : frame.Get(c);
                int index = _rows.Add(row);
                if (_chain.Length <= index) Array.Resize(ref _chain, Math.Max(16, _chain.Length * 2));
                _chain[index] = -1;
                // A row whose key holds a NULL equals nothing; a RIGHT or FULL join still needs it, unmatched.
                if (Hashed && Hash(_buildKeys, ctx, out long h))
                {
                    if (_buckets.TryGetValue(h, out var bucket))
                    {
                        _chain[bucket.Last] = index;
                        _buckets[h] = (bucket.First, index);
                    }
                    else
                    {
                        _buckets[h] = (index, index);
                    }
                }
            }
        }
        finally
        {
            _source.Close();
        }
        if (_matched.Length < _rows.Count) _matched = new bool[_rows.Count];
        else Array.Clear(_matched);
        _built = true;
    }

    /// <summary>The hash of the keys as the comparisons see them; false when one is NULL (it equals nothing).</summary>
    private bool Hash(Evaluator[] keys, ExecContext ctx, out long hash)
    {
        hash = 17;
        for (int i = 0; i < keys.Length; i++)
        {
            var v = SqlAffinities.ApplyForComparison(keys[i].Evaluate(ctx), _affinities[i]);
            if (v.IsNull) return false;
            hash = hash * 31 + Of(v, _collations[i]);
        }
        return true;
    }

    private static long Of(in SqlValue v, Collation collation)
    {
        switch (v.Type)
        {
            case SharcColumnType.Integer:
                return Number(v.IntegerValue);
            case SharcColumnType.Real:
                return Number(v.RealValue);
            case SharcColumnType.Text:
            {
                var bytes = v.Bytes;
                // A user collation may call any two texts equal: only a constant hash is consistent with it.
                if (Functions.UserCollations.IsUser(collation)) return 0x2545f491;
                if (collation == Collation.EfDecimal && CollationCompare.DecimalText(bytes) is { } d) return d.GetHashCode();
                if (collation == Collation.RTrim) bytes = bytes.TrimEnd((byte)' ');
                long h = 1469598103934665603;
                foreach (byte b in bytes)
                {
                    byte x = collation == Collation.NoCase && b is >= (byte)'A' and <= (byte)'Z' ? (byte)(b | 0x20) : b;
                    h = (h ^ x) * 1099511628211;
                }
                return h;
            }
            default:
            {
                long h = 7;
                foreach (byte b in v.Bytes) h = (h ^ b) * 1099511628211;
                return h;
            }
        }
    }

    // An integer and a real compare equal only when the real is exactly that integer: both hash as that double.
    private static long Number(double d) => d == 0 ? 0 : BitConverter.DoubleToInt64Bits(d);

    public override void Close() => _source.Close();
}
