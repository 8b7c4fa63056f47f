using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// A join step that reads its item once per execution of the level and keeps the rows (values copied out of the
/// pages): for each outer row it walks all of them, or, with equality keys, only those in the probe key's hash
/// bucket. The hash only narrows the candidates; the step's conditions still decide, so affinity and collation
/// (1 = 1.0, NOCASE) are honoured exactly: equal values under the comparison always hash alike. Memory is bounded by
/// the item's rows; <c>computed</c> marks the columns not kept (VIRTUAL generated ones). Remembers which rows matched, for RIGHT and FULL joins.
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
    private readonly List<SqlValue[]> _rows = [];
    private readonly Dictionary<long, List<int>> _buckets = [];
    private bool[] _matched = [];
    private bool _built;
    private List<int>? _candidates;
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
    }

    private bool Hashed => _buildKeys.Length > 0;

    public override void Reset() => _built = false;

    public override void Open(ExecContext ctx)
    {
        if (!_built) Build(ctx);
        _at = 0;
        _candidates = null;
        if (Hashed && Hash(_probeKeys, ctx, out long h)) _buckets.TryGetValue(h, out _candidates);
    }

    public override bool Next(ExecContext ctx)
    {
        if (Hashed)
        {
            if (_candidates is null || _at >= _candidates.Count) return false;
            Bind(ctx, _candidates[_at++]);
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
        _frame.Row = _rows[i];
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
                var row = new SqlValue[_width + 1];
                if (_hasRowId) row[0] = frame.Get(-1).ToOwned();
                // A VIRTUAL generated column is not stored: references to it compute it from the stored ones.
                for (int c = 0; c < _width; c++)
                    if (!_computed[c]) row[c + 1] = frame.Get(c).ToOwned();
                int index = _rows.Count;
                // A row whose key holds a NULL equals nothing; a RIGHT or FULL join still needs it, unmatched.
                if (Hashed && Hash(_buildKeys, ctx, out long h))
                {
                    if (!_buckets.TryGetValue(h, out var bucket)) _buckets[h] = bucket = [];
                    bucket.Add(index);
                }
                _rows.Add(row);
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
