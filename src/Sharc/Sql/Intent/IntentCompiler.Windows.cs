using Sharc.Format;
using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using Sharc.Sql.Functions;
using Sharc.Sql.Functions.Aggregates;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Intent;

internal sealed partial class IntentCompiler
{
    /// <summary>The built-in window functions that are not aggregates, with their argument counts.</summary>
    internal static readonly Dictionary<string, (int Min, int Max)> WindowOnly = new(StringComparer.OrdinalIgnoreCase)
    {
        ["row_number"] = (0, 0),
        ["rank"] = (0, 0),
        ["dense_rank"] = (0, 0),
        ["percent_rank"] = (0, 0),
        ["cume_dist"] = (0, 0),
        ["ntile"] = (1, 1),
        ["lag"] = (1, 3),
        ["lead"] = (1, 3),
        ["first_value"] = (1, 1),
        ["last_value"] = (1, 1),
        ["nth_value"] = (2, 2),
    };

    /// <summary>True for a function that only exists as a window function (row_number, lag, …).</summary>
    private static bool IsWindowOnly(string name) => WindowOnly.ContainsKey(name);

    /// <summary>
    /// Compiles name(args) [FILTER (WHERE …)] OVER …: records the call on its level and returns a placeholder for its
    /// result (a slot of the window stage with a negative number, fixed by <see cref="LayOutWindows"/>).
    /// </summary>
    private IntentExpr WindowCall(SqlFunctionExpr f, Scope scope, Clause clause)
    {
        if (clause is not (Clause.Result or Clause.OrderBy) || scope.InWindowCall)
            throw Error($"misuse of window function {f.Name}()", f.Start);
        if (scope.WindowDefinitions is null) Unsupported.Throw("window functions here", _sql, f.Start);
        int argc = f.Star ? 0 : f.Arguments.Count;
        var user = UserAggregate(f.Name, argc);
        bool aggregate = user is not null || AggregateFunctions.IsAggregate(f.Name, argc);
        if (!aggregate)
        {
            if (!WindowOnly.TryGetValue(f.Name, out var arity))
            {
                // min(a, b) is the scalar min: SQLite names it as a scalar function.
                if (!f.Star && ScalarFunctions.TryGet(f.Name, argc, out _)) throw Error($"{f.Name}() may not be used as a window function", f.Start);
                if (AggregateFunctions.Exists(f.Name)) throw Error($"wrong number of arguments to function {f.Name}()", f.Start);
                if (ScalarFunctions.Exists(f.Name)) throw Error($"{f.Name}() may not be used as a window function", f.Start);
                throw Error($"no such function: {f.Name}", f.Start);
            }
            if (f.Star || argc < arity.Min || argc > arity.Max) throw Error($"wrong number of arguments to function {f.Name}()", f.Start);
            if (f.Filter is not null) throw Error("FILTER clause may only be used with aggregate window functions", f.Start);
        }
        if (f.Distinct) throw Error("DISTINCT is not supported for window functions", f.Start);
        if (f.OrderBy.Count > 0) Unsupported.Throw("ORDER BY inside an aggregate call", _sql, f.OrderBy[0].Start);

        var spec = f.Over is not null ? ResolveWindow(f.Over, scope, f.Start) : NamedWindow(f.OverWindowName!, scope, f.Start);
        var call = new PendingWindowCall(f.Name.ToLowerInvariant(), aggregate, f.Start) { UserFactory = user };
        scope.InWindowCall = true;
        try
        {
            for (int i = 0; i < argc; i++) call.Arguments.Add(Expr(f.Arguments[i], scope, clause));
            if (f.Filter is not null) call.Filter = Expr(f.Filter, scope, clause);
            foreach (var p in spec.PartitionBy) call.Partition.Add(Expr(p, scope, clause));
            foreach (var o in spec.OrderBy)
            {
                var (desc, nullsFirst) = Direction(o);
                call.Order.Add((Expr(o.Expr, scope, clause), desc, nullsFirst));
            }
        }
        finally
        {
            scope.InWindowCall = false;
        }
        foreach (var a in call.Arguments)
        {
            if (CollationRules.Of(a) is { } c)
            {
                call.Collation = c;
                break;
            }
        }
        if (spec.Frame is { } frame) call.Frame = CompileFrame(frame, spec.OrderBy.Count);

        if (scope.WindowFrame < 0) scope.WindowFrame = _nextFrame++;
        scope.WindowCalls ??= [];
        scope.WindowCalls.Add(call);
        return new AggregateSlotExpr(scope.WindowFrame, -scope.WindowCalls.Count, null) { Offset = f.Start };
    }

    private SqlWindowSpec NamedWindow(string name, Scope scope, int offset)
    {
        var defs = scope.WindowDefinitions!;
        // A name defined twice means its last definition.
        for (int i = defs.Count - 1; i >= 0; i--)
            if (SqlNameComparer.Instance.Equals(defs[i].Name, name)) return ResolveWindow(defs[i].Spec, scope, offset);
        throw Error($"no such window: {name}", offset);
    }

    /// <summary>Applies SQLite's rules for OVER (base …): the base gives PARTITION BY, its ORDER BY unless the
    /// new window has one, and may not have a frame.</summary>
    private SqlWindowSpec ResolveWindow(SqlWindowSpec spec, Scope scope, int offset, int depth = 0)
    {
        if (spec.BaseWindowName is not { } name) return spec;
        if (depth > 64) throw Error($"no such window: {name}", offset);
        var defs = scope.WindowDefinitions!;
        SqlWindowSpec? found = null;
        for (int i = defs.Count - 1; i >= 0 && found is null; i--)
            if (SqlNameComparer.Instance.Equals(defs[i].Name, name)) found = defs[i].Spec;
        if (found is null) throw Error($"no such window: {name}", offset);
        var b = ResolveWindow(found, scope, offset, depth + 1);
        if (spec.PartitionBy.Count > 0) throw Error($"cannot override PARTITION clause of window: {name}", offset);
        if (spec.OrderBy.Count > 0 && b.OrderBy.Count > 0) throw Error($"cannot override ORDER BY clause of window: {name}", offset);
        if (b.Frame is not null) throw Error($"cannot override frame specification of window: {name}", offset);
        return new SqlWindowSpec(null, b.PartitionBy, spec.OrderBy.Count > 0 ? spec.OrderBy : b.OrderBy, spec.Frame) { Start = spec.Start, End = spec.End };
    }

    private WindowFrameIntent CompileFrame(SqlFrameSpec frame, int orderTerms)
    {
        bool offsets = frame.StartBound.Offset is not null || frame.EndBound.Offset is not null;
        if (frame.Unit == SqlFrameUnit.Range && offsets && orderTerms != 1)
            throw Error("RANGE with offset PRECEDING/FOLLOWING requires one ORDER BY expression", frame.Start);
        return new WindowFrameIntent(frame.Unit,
            frame.StartBound.Kind, FrameOffset(frame.StartBound, frame.Unit, "starting"),
            frame.EndBound.Kind, FrameOffset(frame.EndBound, frame.Unit, "ending"),
            frame.Exclude);
    }

    private IntentExpr? FrameOffset(SqlFrameBound bound, SqlFrameUnit unit, string which)
    {
        if (bound.Offset is not { } offset) return null;
        // SQLite wants a constant here and says so in the words of the run-time check.
        if (AstWalker.Any(offset, static x => x is SqlColumnRef or SqlSubqueryExpr or SqlExistsExpr or SqlFunctionExpr { IsWindowCall: true }))
            throw Error(FrameOffsetMessage(unit, which), bound.Start);
        var scope = new Scope(null, -1, null, false);
        return Compile(offset, scope, Clause.Other);
    }

    /// <summary>SQLite's message for a frame offset that is not a non-negative integer (a number for RANGE).</summary>
    internal static string FrameOffsetMessage(SqlFrameUnit unit, string which)
        => $"frame {which} offset must be a non-negative {(unit == SqlFrameUnit.Range ? "number" : "integer")}";

    /// <summary>
    /// Builds the level's window stage once its expressions are final (aggregated when the level aggregates): the
    /// calls' expressions and every read of the level's row in <paramref name="post"/> become input slots, and the
    /// placeholders of the calls become their result slots.
    /// </summary>
    private static WindowIntent LayOutWindows(Scope scope, int frame, List<IntentExpr> post)
    {
        int wf = scope.WindowFrame;
        var inputs = new List<IntentExpr>();
        int Intern(IntentExpr e)
        {
            for (int i = 0; i < inputs.Count; i++)
                if (IntentEquality.Same(inputs[i], e)) return i;
            inputs.Add(e);
            return inputs.Count - 1;
        }

        var calls = new List<WindowCallIntent>();
        foreach (var c in scope.WindowCalls!)
        {
            var args = c.Arguments.Select(Intern).ToArray();
            int filter = c.Filter is null ? -1 : Intern(c.Filter);
            var partition = c.Partition.Select(Intern).ToArray();
            var collations = c.Partition.Select(p => CollationRules.Of(p) ?? Collation.Binary).ToArray();
            var order = c.Order.Select(o => new OrderingIntent(Intern(o.Expr), o.Descending, o.NullsFirst, CollationRules.Of(o.Expr) ?? Collation.Binary)).ToArray();
            calls.Add(new WindowCallIntent(c.Name, c.IsAggregate, args, filter, partition, collations, order, c.Frame, c.Collation, c.Offset) { UserFactory = c.UserFactory });
        }

        for (int i = 0; i < post.Count; i++)
        {
            post[i] = IntentRewriter.Rewrite(post[i], x =>
            {
                switch (x)
                {
                    case AggregateSlotExpr s when s.Frame == wf:
                        return x;
                    case ColumnExpr c when c.Frame == frame:
                    case AggregateSlotExpr a when a.Frame == frame:
                        return new AggregateSlotExpr(wf, Intern(x), CollationRules.Of(x)) { Affinity = x.Affinity, HasCollate = x.HasCollate, Offset = x.Offset };
                    default:
                        return null;
                }
            });
        }
        int resultBase = inputs.Count;
        for (int i = 0; i < post.Count; i++)
            post[i] = IntentRewriter.Rewrite(post[i], x => x is AggregateSlotExpr { Slot: < 0 } s && s.Frame == wf ? s with { Slot = resultBase - 1 - s.Slot } : null);
        return new WindowIntent(wf, inputs, calls);
    }
}
