using Sharc.Sql.Intent;
using Sharc.Sql.Planning;

namespace Sharc.Sql.Execution;

/// <summary>Builds the operators of a join level from its <see cref="JoinPlan"/>.</summary>
internal sealed partial class PipelineBuilder
{
    private RowOperator BuildJoin(QueryIntent q, JoinSource join, JoinPlan plan)
    {
        var frameOf = new int[join.Columns.Count];
        var localOf = new int[join.Columns.Count];
        for (int c = 0; c < frameOf.Length; c++)
        {
            frameOf[c] = join.Items[join.ItemOf(c)].Frame;
            localOf[c] = join.LocalOf(c);
        }

        RowOperator? rows = null;
        var outerFrames = new List<int>();
        var guards = new List<TableScanOperator>();
        foreach (var step in plan.Steps)
        {
            var item = join.Items[step.Item];
            if (rows is null)
            {
                rows = ItemRows(item, step.Access);
            }
            else
            {
                var itemRows = ItemRows(item, step.Access);
                // SQLite's OP_IfEmpty: an inner item that is walked whole and holds no row empties the join before
                // the outer items are read (else a cross join of large tables with an empty one runs for ever).
                if (itemRows is TableScanOperator scan && !step.Access.Seeks && !NullExtended(join, step.Item)) guards.Add(scan);
                // A nested loop seeks its item once per outer row, mostly near the last seek (ascending keys of the
                // outer walk): each seek first looks on the pages the last one left held, not from the root.
                if (step.Method == JoinMethod.Loop && step.Access.Seeks && itemRows is TableScanOperator seeker) seeker.Reader.SeekNearby = true;
                var inner = step.Method == JoinMethod.Loop
                    ? (JoinInner)new LoopInner(itemRows)
                    : new KeptRowsInner(
                        itemRows, item.Frame, Computed(item.Source), item.RowIdColumn >= 0,
                        step.BuildFilter is null ? null : Compile(step.BuildFilter),
                        [.. step.Keys.Select(k => Compile(k.Build))],
                        [.. step.Keys.Select(k => Compile(k.Probe))],
                        [.. step.Keys.Select(k => k.Affinity)],
                        [.. step.Keys.Select(k => k.Collation)]);
                rows = new JoinStepOperator(rows, inner, step.Kind, step.Match is null ? null : Compile(step.Match), item.Frame, [.. outerFrames]);
            }
            if (step.Filter is not null) rows = new FilterOperator(rows, Compile(step.Filter));
            outerFrames.Add(item.Frame);
        }
        return new JoinLevelOperator(rows!, new JoinFrame(frameOf, localOf), q.Frame, [.. guards]);
    }

    /// <summary>Whether item <paramref name="k"/> may show as NULLs: a LEFT or FULL join's, or before a RIGHT or FULL join.</summary>
    private static bool NullExtended(JoinSource join, int k)
    {
        if (join.Items[k].Kind is JoinKind.Left or JoinKind.Full) return true;
        for (int j = k + 1; j < join.Items.Count; j++)
            if (join.Items[j].Kind is JoinKind.Right or JoinKind.Full) return true;
        return false;
    }

    private static bool[] Computed(IntentSource source)
    {
        var computed = new bool[source.Columns.Count];
        if (source is TableSource)
            for (int c = 0; c < computed.Length; c++)
                computed[c] = source.Columns[c].TableColumn is { Generated: SharcGeneratedKind.Virtual };
        return computed;
    }

    private RowOperator ItemRows(JoinItem item, AccessPlan access) => item.Source switch
    {
        TableSource t => Track(new TableScanOperator(db, t, access, item.Frame, Compile)),
        SubquerySource { Query.Source: CompoundSource or ValuesSource } s => CompoundSubqueryScan(s, item.Frame),
        SubquerySource s => new SubqueryScanOperator(Build(s.Query), item.Frame),
        _ => SourceRows(item.Source, item.Frame),
    };
}
