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
        foreach (var step in plan.Steps)
        {
            var item = join.Items[step.Item];
            if (rows is null)
            {
                rows = ItemRows(item, step.Access);
            }
            else
            {
                var inner = step.Method == JoinMethod.Loop
                    ? (JoinInner)new LoopInner(ItemRows(item, step.Access))
                    : new KeptRowsInner(
                        ItemRows(item, step.Access), item.Frame, Computed(item.Source), item.RowIdColumn >= 0,
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
        return new JoinLevelOperator(rows!, new JoinFrame(frameOf, localOf), q.Frame);
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
