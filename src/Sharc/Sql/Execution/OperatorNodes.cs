using Sharc.Format;
using Sharc.Sql.Functions;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>-x.</summary>
internal sealed class NegateNode(Evaluator operand) : Evaluator
{
    public override SqlValue Evaluate(ExecContext ctx) => SqlArithmetic.Negate(operand.Evaluate(ctx));
}

/// <summary>~x.</summary>
internal sealed class BitNotNode(Evaluator operand) : Evaluator
{
    public override SqlValue Evaluate(ExecContext ctx) => SqlArithmetic.BitNot(operand.Evaluate(ctx));
}

/// <summary>NOT x.</summary>
internal sealed class NotNode(Evaluator operand) : Evaluator
{
    public override SqlValue Evaluate(ExecContext ctx) => SqlLogic.FromTruth(Truth(ctx));

    public override bool? Truth(ExecContext ctx) => !operand.Truth(ctx);
}

/// <summary>The arithmetic, bitwise and concatenation operators.</summary>
internal sealed class ArithmeticNode(IntentArithmeticOp op, Evaluator left, Evaluator right) : Evaluator
{
    public override SqlValue Evaluate(ExecContext ctx)
    {
        var a = left.Evaluate(ctx);
        var b = right.Evaluate(ctx);
        return op switch
        {
            IntentArithmeticOp.Add => SqlArithmetic.Add(a, b),
            IntentArithmeticOp.Subtract => SqlArithmetic.Subtract(a, b),
            IntentArithmeticOp.Multiply => SqlArithmetic.Multiply(a, b),
            IntentArithmeticOp.Divide => SqlArithmetic.Divide(a, b),
            IntentArithmeticOp.Remainder => SqlArithmetic.Remainder(a, b),
            IntentArithmeticOp.BitAnd => SqlArithmetic.BitAnd(a, b),
            IntentArithmeticOp.BitOr => SqlArithmetic.BitOr(a, b),
            IntentArithmeticOp.ShiftLeft => SqlArithmetic.ShiftLeft(a, b),
            IntentArithmeticOp.ShiftRight => SqlArithmetic.ShiftRight(a, b),
            _ => SqlArithmetic.Concat(a, b),
        };
    }
}

/// <summary>=, !=, &lt;, &lt;=, &gt;, &gt;= with the comparison's affinity and collation.</summary>
internal sealed class CompareNode(SqlCompareOp op, Evaluator left, Evaluator right, SqlAffinity affinity, Collation collation) : Evaluator
{
    // A table column against a constant or parameter (the usual WHERE term of a scan): when both are integers, the
    // stored integer is compared where it lies, without building the column's value.
    private readonly ColumnNode? _column = right is ConstantNode or ParameterNode && affinity != SqlAffinity.Text ? left as ColumnNode : null;

    public override SqlValue Evaluate(ExecContext ctx) => SqlLogic.FromTruth(Truth(ctx));

    public override bool? Truth(ExecContext ctx)
    {
        if (_column is { } column)
        {
            // Evaluating the constant side first is safe: it has no effects.
            var fixedSide = right.Evaluate(ctx);
            if (fixedSide.Type == SharcColumnType.Integer && ctx.Frames[column.Frame] is StorageFrame frame
                && frame.TryGetInteger(column.Column, out long stored))
                return SqlCompare.Holds(op, stored.CompareTo(fixedSide.IntegerValue));
        }
        var a = left.Evaluate(ctx);
        var b = right.Evaluate(ctx);
        // Two integers compare as numbers under every affinity but TEXT (which would compare their text).
        if (a.Type == SharcColumnType.Integer && b.Type == SharcColumnType.Integer && affinity != SqlAffinity.Text)
            return SqlCompare.Holds(op, a.IntegerValue.CompareTo(b.IntegerValue));
        if (a.IsNull || b.IsNull) return null;
        return SqlCompare.Holds(op, SqlCompare.CompareWithAffinity(a, b, affinity, collation));
    }
}

/// <summary>IS and IS NOT: never NULL.</summary>
internal sealed class IsNode(bool not, Evaluator left, Evaluator right, SqlAffinity affinity, Collation collation) : Evaluator
{
    public override SqlValue Evaluate(ExecContext ctx) => SqlValue.Boolean(Truth(ctx) == true);

    public override bool? Truth(ExecContext ctx) => SqlCompare.Is(left.Evaluate(ctx), right.Evaluate(ctx), affinity, collation) != not;
}

/// <summary>AND, evaluating the right side only when the left does not settle it.</summary>
internal sealed class AndNode(Evaluator left, Evaluator right) : Evaluator
{
    public override SqlValue Evaluate(ExecContext ctx) => SqlLogic.FromTruth(Truth(ctx));

    public override bool? Truth(ExecContext ctx)
    {
        var a = left.Truth(ctx);
        if (a == false) return false;
        var b = right.Truth(ctx);
        if (b == false) return false;
        return a is null || b is null ? null : true;
    }
}

/// <summary>OR, evaluating the right side only when the left does not settle it.</summary>
internal sealed class OrNode(Evaluator left, Evaluator right) : Evaluator
{
    public override SqlValue Evaluate(ExecContext ctx) => SqlLogic.FromTruth(Truth(ctx));

    public override bool? Truth(ExecContext ctx)
    {
        var a = left.Truth(ctx);
        if (a == true) return true;
        var b = right.Truth(ctx);
        if (b == true) return true;
        return a is null || b is null ? null : false;
    }
}

/// <summary>CAST(x AS type).</summary>
internal sealed class CastNode(Evaluator operand, SqlAffinity target) : Evaluator
{
    public override SqlValue Evaluate(ExecContext ctx) => SqlCast.To(operand.Evaluate(ctx), target);
}

/// <summary>A value with a column's affinity applied, as storing it in the column would (generated columns).</summary>
internal sealed class AffinityNode(Evaluator operand, SqlAffinity affinity) : Evaluator
{
    public override SqlValue Evaluate(ExecContext ctx) => SqlAffinities.ApplyForStorage(operand.Evaluate(ctx), affinity);
}

/// <summary>x [NOT] LIKE p [ESCAPE e] and x [NOT] GLOB p.</summary>
internal sealed class LikeNode(bool glob, bool not, Evaluator operand, Evaluator pattern, Evaluator? escape) : Evaluator
{
    public override SqlValue Evaluate(ExecContext ctx)
    {
        // SQLite evaluates the pattern first: it is the function's first argument.
        var p = pattern.Evaluate(ctx);
        var x = operand.Evaluate(ctx);
        SqlValue r;
        if (glob) r = LikeGlob.Glob(x, p);
        else if (escape is null) r = LikeGlob.Like(x, p);
        else r = LikeGlob.Like(x, p, escape.Evaluate(ctx), hasEscape: true);
        return not ? SqlLogic.Not(r) : r;
    }
}

/// <summary>x [NOT] BETWEEN low AND high: x &gt;= low AND x &lt;= high, x evaluated once.</summary>
internal sealed class BetweenNode(bool not, Evaluator operand, Evaluator low, Evaluator high,
    SqlAffinity lowAffinity, Collation lowCollation, SqlAffinity highAffinity, Collation highCollation) : Evaluator
{
    public override SqlValue Evaluate(ExecContext ctx) => SqlLogic.FromTruth(Truth(ctx));

    public override bool? Truth(ExecContext ctx)
    {
        var x = operand.Evaluate(ctx);
        var lo = low.Evaluate(ctx);
        bool? ge = x.IsNull || lo.IsNull ? null : SqlCompare.CompareWithAffinity(x, lo, lowAffinity, lowCollation) >= 0;
        bool? result;
        if (ge == false)
        {
            result = false;
        }
        else
        {
            var hi = high.Evaluate(ctx);
            bool? le = x.IsNull || hi.IsNull ? null : SqlCompare.CompareWithAffinity(x, hi, highAffinity, highCollation) <= 0;
            result = le == false ? false : ge is null || le is null ? null : true;
        }
        return not ? !result : result;
    }
}

/// <summary>x IS NULL / x IS NOT NULL.</summary>
internal sealed class NullTestNode(bool not, Evaluator operand) : Evaluator
{
    public override SqlValue Evaluate(ExecContext ctx) => SqlValue.Boolean(Truth(ctx) == true);

    public override bool? Truth(ExecContext ctx) => operand.Evaluate(ctx).IsNull != not;
}

/// <summary>x IS [NOT] TRUE / FALSE: a truth test that is never NULL.</summary>
internal sealed class IsTruthNode(Evaluator operand, bool truth, bool not) : Evaluator
{
    public override SqlValue Evaluate(ExecContext ctx) => SqlValue.Boolean(Truth(ctx) == true);

    public override bool? Truth(ExecContext ctx) => (operand.Truth(ctx) == truth) != not;
}

/// <summary>
/// x [NOT] IN (list). A list of constants longer than <see cref="HashFrom"/> items is hashed once per execution
/// (<see cref="InListSet"/>), as SQLite builds an ephemeral index for it, so a long list costs one lookup per row; a
/// shorter constant list is evaluated once per execution and scanned; otherwise the items are evaluated into a reused
/// buffer for each row.
/// </summary>
internal sealed class InListNode : Evaluator
{
    /// <summary>Up to this many constant items a scan is as quick as a hash lookup.</summary>
    private const int HashFrom = 4;

    private readonly bool _not;
    private readonly Evaluator _operand;
    private readonly Evaluator[] _items;
    private readonly SqlValue[] _values;
    private readonly bool _constant;
    private readonly SqlAffinity _affinity;
    private readonly Collation _collation;
    private readonly InListSet? _set;
    private int _generation;

    public InListNode(bool not, Evaluator operand, Evaluator[] items, bool constant, SqlAffinity affinity, Collation collation)
    {
        _not = not;
        _operand = operand;
        _items = items;
        _constant = constant;
        _affinity = affinity;
        _collation = collation;
        if (constant && items.Length > HashFrom)
        {
            _set = new InListSet(items.Length, affinity, collation);
            _values = [];
        }
        else
        {
            _values = new SqlValue[items.Length];
        }
    }

    public override SqlValue Evaluate(ExecContext ctx) => SqlLogic.FromTruth(Truth(ctx));

    public override bool? Truth(ExecContext ctx)
    {
        if (_items.Length == 0) return _not;
        var x = _operand.Evaluate(ctx);
        if (_set is not null)
        {
            if (_generation != ctx.Generation)
            {
                _set.Clear();
                foreach (var item in _items) _set.Add(item.Evaluate(ctx));
                _generation = ctx.Generation;
            }
            var found = SqlLogic.Truth(_set.Contains(x));
            return _not ? !found : found;
        }
        if (!_constant || _generation != ctx.Generation)
        {
            for (int i = 0; i < _items.Length; i++) _values[i] = _constant ? _items[i].Evaluate(ctx).ToOwned() : _items[i].Evaluate(ctx);
            _generation = _constant ? ctx.Generation : 0;
        }
        var r = SqlLogic.Truth(SqlCompare.In(x, _values, _affinity, _collation));
        return _not ? !r : r;
    }
}

/// <summary>CASE [x] WHEN … THEN … [ELSE …] END: only the chosen branch is evaluated.</summary>
internal sealed class CaseNode(Evaluator? operand, Evaluator[] whens, Evaluator[] thens, SqlAffinity[] affinities, Collation[] collations, Evaluator? otherwise) : Evaluator
{
    public override SqlValue Evaluate(ExecContext ctx)
    {
        if (operand is null)
        {
            for (int i = 0; i < whens.Length; i++)
                if (whens[i].IsTrue(ctx)) return thens[i].Evaluate(ctx);
        }
        else
        {
            var x = operand.Evaluate(ctx);
            for (int i = 0; i < whens.Length; i++)
            {
                var w = whens[i].Evaluate(ctx);
                if (!x.IsNull && !w.IsNull && SqlCompare.CompareWithAffinity(x, w, affinities[i], collations[i]) == 0)
                    return thens[i].Evaluate(ctx);
            }
        }
        return otherwise?.Evaluate(ctx) ?? SqlValue.Null;
    }
}

/// <summary>coalesce() / ifnull(): the first argument that is not NULL; later ones are not evaluated.</summary>
internal sealed class CoalesceNode(Evaluator[] arguments) : Evaluator
{
    public override SqlValue Evaluate(ExecContext ctx)
    {
        foreach (var a in arguments)
        {
            var v = a.Evaluate(ctx);
            if (!v.IsNull) return v;
        }
        return SqlValue.Null;
    }
}

/// <summary>A scalar function call; arguments go through a buffer the node reuses.</summary>
internal sealed class FunctionNode(ScalarFunction function, Evaluator[] arguments, Collation collation) : Evaluator
{
    private readonly SqlValue[] _args = new SqlValue[arguments.Length];

    public override SqlValue Evaluate(ExecContext ctx)
    {
        for (int i = 0; i < arguments.Length; i++) _args[i] = arguments[i].Evaluate(ctx);
        return function.Invoke(_args, new FunctionContext(collation, ctx.Random, ctx.Clock, ctx.Database));
    }
}

/// <summary>
/// A row value comparison, element pairs from the left, each evaluated only when reached (SQLite's
/// codeVectorBinary): = and IS need every pair equal (a NULL pair leaves = NULL unless a later pair differs);
/// an ordering is settled by the first pair that is not equal, NULL if that pair holds a NULL.
/// </summary>
internal sealed class RowCompareNode(IntentCompareOp op, Evaluator[] left, Evaluator[] right, SqlAffinity[] affinities, Collation[] collations) : Evaluator
{
    public override SqlValue Evaluate(ExecContext ctx) => op is IntentCompareOp.Is or IntentCompareOp.IsNot
        ? SqlValue.Boolean(Truth(ctx) == true)
        : SqlLogic.FromTruth(Truth(ctx));

    public override bool? Truth(ExecContext ctx)
    {
        switch (op)
        {
            case IntentCompareOp.Eq: return Equal(ctx);
            case IntentCompareOp.Ne: return !Equal(ctx);
            case IntentCompareOp.Is: return Same(ctx);
            case IntentCompareOp.IsNot: return !Same(ctx);
        }
        int last = left.Length - 1;
        for (int i = 0; ; i++)
        {
            var c = Pair(ctx, i);
            if (c is null) return null;
            if (c != 0 || i == last)
                return op switch
                {
                    IntentCompareOp.Lt => c < 0,
                    IntentCompareOp.Le => c <= 0,
                    IntentCompareOp.Gt => c > 0,
                    _ => c >= 0,
                };
        }
    }

    private bool? Equal(ExecContext ctx)
    {
        bool sawNull = false;
        for (int i = 0; i < left.Length; i++)
        {
            var c = Pair(ctx, i);
            if (c is null) sawNull = true;
            else if (c != 0) return false;
        }
        return sawNull ? null : true;
    }

    private bool Same(ExecContext ctx)
    {
        for (int i = 0; i < left.Length; i++)
            if (!SqlCompare.Is(left[i].Evaluate(ctx), right[i].Evaluate(ctx), affinities[i], collations[i])) return false;
        return true;
    }

    private int? Pair(ExecContext ctx, int i)
    {
        var a = left[i].Evaluate(ctx);
        var b = right[i].Evaluate(ctx);
        if (a.Type == SharcColumnType.Integer && b.Type == SharcColumnType.Integer && affinities[i] != SqlAffinity.Text)
            return a.IntegerValue.CompareTo(b.IntegerValue);
        if (a.IsNull || b.IsNull) return null;
        return SqlCompare.CompareWithAffinity(a, b, affinities[i], collations[i]);
    }
}
