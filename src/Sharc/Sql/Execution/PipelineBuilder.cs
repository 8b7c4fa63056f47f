using Sharc.Format;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>Builds pipelines and compiles expressions for one execution of a planned statement.</summary>
internal sealed partial class PipelineBuilder(SharcDatabase db, IReadOnlyDictionary<QueryIntent, Planning.LevelPlan> plans)
{
    /// <summary>The b-tree readers the pipelines read with (they pin pages until disposed).</summary>
    public List<SharcDataReader> Readers { get; } = [];

    public QueryPipeline Build(QueryIntent q)
    {
        var plan = plans[q];
        RowOperator rows = q.Source switch
        {
            TableSource t => Track(new TableScanOperator(db, t, plan.Access, q.Frame, Compile)),
            SubquerySource { Query.Source: CompoundSource or ValuesSource } s => CompoundSubqueryScan(s, q.Frame),
            SubquerySource s => new SubqueryScanOperator(Build(s.Query), q.Frame),
            JoinSource j => BuildJoin(q, j, plan.Join!),
            null => new SingleRowOperator(q.Frame),
            _ => BuildCompoundSource(q),
        };
        var scan = rows as TableScanOperator;
        // A join applies WHERE inside, each term at the first step where it can decide.
        if (q.Where is not null && q.Source is not JoinSource)
        {
            var where = Compile(q.Where);
            // A plain scan tests what it can of WHERE on the records' bytes; a row proven true is not evaluated again.
            rows = new FilterOperator(rows, where, scan is not null && scan.FilterOnRecords(q.Where, Compile) ? scan : null);
        }
        if (q.Aggregation is { } a)
        {
            var keys = a.Keys.Select(Compile).ToArray();
            var specs = a.Aggregates.Select(c => new AggregateSpec(c, c.Arguments.Select(Compile).ToArray(), c.Filter is null ? null : Compile(c.Filter))).ToArray();
            var bare = a.BareColumns.Select(b => Compile(b)).ToArray();
            rows = new AggregateOperator(rows, q.Frame, a, keys, specs, bare);
            if (q.Having is not null) rows = new FilterOperator(rows, Compile(q.Having));
        }
        if (q.Windows is { } w) rows = new WindowOperator(rows, w, w.Inputs.Select(Compile).ToArray(), w.Calls.Select(c => (
            c.Frame.StartOffset is null ? null : Compile(c.Frame.StartOffset),
            c.Frame.EndOffset is null ? null : Compile(c.Frame.EndOffset))).ToArray());
        TupleOperator top = new ProjectOperator(rows, q.Projections.Select(p => Compile(p.Expr)).ToArray());
        if (q.Distinct)
        {
            var collations = new Collation[q.VisibleCount];
            for (int i = 0; i < collations.Length; i++) collations[i] = q.Projections[i].Collation;
            top = new DistinctOperator(top, collations);
        }
        TopNOperator? topN = null;
        if (q.OrderBy.Count > 0 && !plan.OrderSatisfied)
        {
            if (q.Limit is not null)
            {
                top = topN = new TopNOperator(top, q.OrderBy);
                if (scan is not null) topN.Gate = GateTopN(q, scan);
            }
            else top = new SortOperator(top, q.OrderBy);
        }
        LimitOperator? limit = null;
        if (q.Limit is not null || q.Offset is not null) top = limit = new LimitOperator(top);
        return new QueryPipeline(top, topN, limit,
            q.Limit is null ? null : Compile(q.Limit),
            q.Offset is null ? null : Compile(q.Offset));
    }

    /// <summary>
    /// The record-byte bar for a top-N straight over a scan (no grouping, windows or DISTINCT between them) ordered
    /// first by a stored column; null otherwise. Every output column must be a plain read, which cannot fail: a row the
    /// gate drops is then one whose evaluation could have changed nothing.
    /// </summary>
    private static RecordFilters.OrderGate? GateTopN(QueryIntent q, TableScanOperator scan)
    {
        if (q.Aggregation is not null || q.Windows is not null || q.Distinct) return null;
        foreach (var p in q.Projections)
            if (!IsPlainRead(p.Expr)) return null;
        var key = q.OrderBy[0];
        var expr = q.Projections[key.Projection].Expr;
        while (expr is CollateExpr k) expr = k.Operand;
        if (expr is not ColumnExpr c || c.Frame != q.Frame) return null;
        return scan.GateOnRecords(c.Column, key, q.Where is not null);
    }

    private static bool IsPlainRead(IntentExpr e) => e switch
    {
        ColumnExpr or LiteralExpr or ParameterExpr => true,
        CollateExpr k => IsPlainRead(k.Operand),
        _ => false,
    };

    private TableScanOperator Track(TableScanOperator scan)
    {
        Readers.Add(scan.Reader);
        return scan;
    }

    public Evaluator Compile(IntentExpr e)
    {
        switch (e)
        {
            case LiteralExpr l:
                return new ConstantNode(l.Value);
            case ParameterExpr p:
                return new ParameterNode(p.Slot);
            case ColumnExpr c:
                return new ColumnNode(c.Frame, c.Column);
            case AggregateSlotExpr s:
                return new AggregateSlotNode(s.Frame, s.Slot);
            case UnaryExpr u:
                return u.Op switch
                {
                    IntentUnaryOp.Negate => new NegateNode(Compile(u.Operand)),
                    IntentUnaryOp.BitNot => new BitNotNode(Compile(u.Operand)),
                    IntentUnaryOp.Not => new NotNode(Compile(u.Operand)),
                    // Unary + changes no value; it only drops the operand's affinity, which the intent already did.
                    _ => Compile(u.Operand),
                };
            case ArithmeticExpr a:
                return new ArithmeticNode(a.Op, Compile(a.Left), Compile(a.Right));
            case CompareExpr c:
                return c.Op switch
                {
                    IntentCompareOp.Is => new IsNode(false, Compile(c.Left), Compile(c.Right), c.CompareAffinity, c.Collation),
                    IntentCompareOp.IsNot => new IsNode(true, Compile(c.Left), Compile(c.Right), c.CompareAffinity, c.Collation),
                    _ => new CompareNode(CompareOp(c.Op), Compile(c.Left), Compile(c.Right), c.CompareAffinity, c.Collation),
                };
            case LogicExpr l:
                return l.IsAnd ? new AndNode(Compile(l.Left), Compile(l.Right)) : new OrNode(Compile(l.Left), Compile(l.Right));
            case CollateExpr k:
                return Compile(k.Operand);
            case GeneratedColumnExpr g:
                return new AffinityNode(Compile(g.Value), g.Meta.Affinity);
            case CastExpr c:
                return new CastNode(Compile(c.Operand), c.Target);
            case LikeExpr l:
                return new LikeNode(l.Glob, l.Not, Compile(l.Operand), Compile(l.Pattern), l.Escape is null ? null : Compile(l.Escape));
            case BetweenExpr b:
                return new BetweenNode(b.Not, Compile(b.Operand), Compile(b.Low), Compile(b.High), b.LowAffinity, b.LowCollation, b.HighAffinity, b.HighCollation);
            case NullTestExpr n:
                return new NullTestNode(n.Not, Compile(n.Operand));
            case IsTruthExpr t:
                return new IsTruthNode(Compile(t.Operand), t.Truth, t.Not);
            case InListExpr i:
                return new InListNode(i.Not, Compile(i.Operand), i.Items.Select(Compile).ToArray(), i.Items.All(IsRunConstant), i.CompareAffinity, i.Collation);
            case InSubqueryExpr i:
                return new InSubqueryNode(i.Not, Compile(i.Operand), Build(i.Query), IntentAnalysis.IsCorrelated(i.Query), i.CompareAffinity, i.Collation, i.SeekCollation);
            case RowCompareExpr r:
                return new RowCompareNode(r.Op, RowSide(r.Left), RowSide(r.Right), [.. r.Affinities], [.. r.Collations]);
            case RowInSubqueryExpr i:
                return new RowInSubqueryNode(i.Not, RowSide(i.Left), Build(i.Query), IntentAnalysis.IsCorrelated(i.Query), [.. i.Affinities], [.. i.Collations]);
            case ExistsExpr x:
                return new ExistsNode(Build(x.Query), IntentAnalysis.IsCorrelated(x.Query));
            case ScalarSubqueryExpr s:
                return new ScalarSubqueryNode(Build(s.Query), IntentAnalysis.IsCorrelated(s.Query), s.Column);
            case CaseExpr c:
                return new CaseNode(
                    c.Operand is null ? null : Compile(c.Operand),
                    c.Arms.Select(a => Compile(a.When)).ToArray(),
                    c.Arms.Select(a => Compile(a.Then)).ToArray(),
                    c.Arms.Select(a => a.CompareAffinity).ToArray(),
                    c.Arms.Select(a => a.Collation).ToArray(),
                    c.Else is null ? null : Compile(c.Else));
            case CoalesceExpr c:
                return new CoalesceNode(c.Arguments.Select(Compile).ToArray());
            case FunctionExpr f:
                return new FunctionNode(f.Function, f.Arguments.Select(Compile).ToArray(), f.Collation);
            default:
                throw new InvalidOperationException($"the expression {e.GetType().Name} cannot be executed here");
        }
    }

    /// <summary>
    /// The elements of one side of a row value operator; a subquery side reads all its elements from one run.
    /// </summary>
    private Evaluator[] RowSide(IReadOnlyList<IntentExpr> items)
    {
        if (items[0] is ScalarSubqueryExpr { RowElement: true } first)
        {
            var row = new RowSubqueryNode(Build(first.Query), IntentAnalysis.IsCorrelated(first.Query), items.Count);
            var columns = new Evaluator[items.Count];
            for (int i = 0; i < columns.Length; i++) columns[i] = new RowSubqueryColumnNode(row, i);
            return columns;
        }
        return items.Select(Compile).ToArray();
    }

    internal static SqlCompareOp CompareOp(IntentCompareOp op) => op switch
    {
        IntentCompareOp.Eq => SqlCompareOp.Eq,
        IntentCompareOp.Ne => SqlCompareOp.Ne,
        IntentCompareOp.Lt => SqlCompareOp.Lt,
        IntentCompareOp.Le => SqlCompareOp.Le,
        IntentCompareOp.Gt => SqlCompareOp.Gt,
        _ => SqlCompareOp.Ge,
    };

    /// <summary>True when the value cannot change during one execution: only constants, parameters and pure functions.</summary>
    private static bool IsRunConstant(IntentExpr e)
    {
        bool constant = true;
        IntentRewriter.Visit(e, x =>
        {
            if (x is ColumnExpr or AggregateSlotExpr or InSubqueryExpr or RowInSubqueryExpr or ExistsExpr or ScalarSubqueryExpr or FunctionExpr { Function.IsDeterministic: false })
                constant = false;
        });
        return constant;
    }
}
