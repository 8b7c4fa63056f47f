namespace Sharc.Sql.Intent;

/// <summary>
/// Lays out the aggregated row of one aggregate query while its result, HAVING and ORDER BY expressions are rewritten
/// to read it, as SQLite reads them: an aggregate call reads its result (equal calls share one accumulator); a
/// subexpression that is a GROUP BY term other than a plain column reads the group's key (its value in the group's
/// first row); and every column of the level — a GROUP BY column included — reads the value it had in the group's
/// representative row (see <see cref="Sharc.Sql.Execution.AggregateOperator"/>). So a group holding 0 and 0.0 shows
/// the one SQLite would. Subqueries inside are rewritten too, since their references to this level are evaluated
/// against the group.
/// </summary>
internal sealed class AggregationLayout
{
    private readonly int _frame;
    private readonly IReadOnlyList<IntentExpr> _keys;
    private readonly List<AggregateCall> _aggregates = [];
    private readonly List<ColumnExpr> _bare = [];
    private AggregationIntent? _result;

    public AggregationLayout(IntentCompiler owner, int frame, IReadOnlyList<IntentExpr> keys)
    {
        _ = owner;
        _frame = frame;
        _keys = keys;
    }

    /// <summary>Rewrites a post-aggregation expression. Bare columns get provisional slots until <see cref="Finish"/>.</summary>
    public IntentExpr Map(IntentExpr e) => IntentRewriter.Rewrite(e, x =>
    {
        for (int i = 0; i < _keys.Count; i++)
        {
            if (_keys[i] is not ColumnExpr && IntentEquality.Same(x, _keys[i]))
                return new AggregateSlotExpr(_frame, i, CollationRules.Of(x)) { Affinity = x.Affinity, HasCollate = x.HasCollate, Offset = x.Offset, Key = x };
        }
        switch (x)
        {
            case AggregateCallExpr call:
                return new AggregateSlotExpr(_frame, _keys.Count + AggregateIndex(call), null) { Offset = x.Offset };
            case ColumnExpr c when c.Frame == _frame:
            {
                int slot = -1;
                for (int i = 0; i < _bare.Count; i++)
                    if (_bare[i].Column == c.Column) slot = i;
                if (slot < 0)
                {
                    slot = _bare.Count;
                    _bare.Add(c);
                }
                return new AggregateSlotExpr(_frame, -1 - slot, c.Meta.Collation) { Affinity = c.Affinity, Offset = x.Offset };
            }
            default:
                return null;
        }
    });

    private int AggregateIndex(AggregateCallExpr call)
    {
        for (int i = 0; i < _aggregates.Count; i++)
        {
            var a = _aggregates[i];
            if (a.Distinct == call.Distinct && a.Name.Equals(call.Name, StringComparison.OrdinalIgnoreCase) &&
                IntentEquality.SameList(a.Arguments, call.Arguments) && IntentEquality.Same(a.Filter, call.Filter))
                return i;
        }
        _aggregates.Add(new AggregateCall(call.Name.ToLowerInvariant(), call.Arguments, call.Distinct, call.Collation, call.Filter, call.Offset) { UserFactory = call.UserFactory });
        return _aggregates.Count - 1;
    }

    /// <summary>The layout, once every post-aggregation expression has been mapped.</summary>
    public AggregationIntent Finish()
    {
        var keyCollations = new Format.Collation[_keys.Count];
        for (int i = 0; i < keyCollations.Length; i++) keyCollations[i] = CollationRules.Of(_keys[i]) ?? Format.Collation.Binary;
        _result = new AggregationIntent(_keys, keyCollations, [.. _aggregates], [.. _bare]);
        return _result;
    }

    /// <summary>Turns the provisional slots of bare columns into their final place after the aggregate results.</summary>
    public IntentExpr FixBareSlots(IntentExpr e)
    {
        int bareBase = _result!.BareBase;
        return IntentRewriter.Rewrite(e, x => x is AggregateSlotExpr { Slot: < 0 } s && s.Frame == _frame
            ? s with { Slot = bareBase - 1 - s.Slot }
            : null);
    }
}
