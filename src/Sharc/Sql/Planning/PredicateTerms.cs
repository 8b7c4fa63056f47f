using Sharc.Format;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Planning;

/// <summary>The shapes of WHERE terms a b-tree seek can use.</summary>
internal enum TermKind : byte
{
    Eq,
    In,
    IsNull,
    Lt,
    Le,
    Gt,
    Ge,
}

/// <summary>
/// One conjunct of a WHERE clause that constrains a column of the level to a value fixed for the whole execution
/// (a literal, a parameter, an enclosing query's column, an uncorrelated subquery…), with the affinity and
/// collation of the comparison. <see cref="Column"/> is <see cref="SourceColumn.RowId"/> for the rowid (and for an
/// INTEGER PRIMARY KEY, which is the rowid).
/// </summary>
internal sealed record ColumnTerm(int Column, TermKind Kind, IntentExpr? Value, IReadOnlyList<IntentExpr>? InValues, SqlAffinity Affinity, Collation Collation);

/// <summary>Finds the seekable terms of a WHERE clause.</summary>
internal static class PredicateTerms
{
    public static List<ColumnTerm> Extract(QueryIntent q)
    {
        var terms = new List<ColumnTerm>();
        if (q.Where is null || q.Source is not TableSource) return terms;
        var conjuncts = new List<IntentExpr>();
        Split(q.Where, conjuncts);
        foreach (var c in conjuncts) Add(c, q.Frame, terms);
        return terms;
    }

    private static void Split(IntentExpr e, List<IntentExpr> into)
    {
        if (e is LogicExpr { IsAnd: true } and)
        {
            Split(and.Left, into);
            Split(and.Right, into);
            return;
        }
        into.Add(e);
    }

    private static void Add(IntentExpr e, int frame, List<ColumnTerm> terms)
    {
        switch (e)
        {
            case CompareExpr c when c.Op is not (IntentCompareOp.Ne or IntentCompareOp.IsNot):
            {
                if (c.Op == IntentCompareOp.Is)
                {
                    // Only IS NULL seeks: x IS v with a value that may turn out NULL is not an equality.
                    if (c.Right is LiteralExpr { Value.IsNull: true } && ColumnOf(c.Left, frame) is { } isCol)
                        terms.Add(new ColumnTerm(isCol, TermKind.IsNull, null, null, c.CompareAffinity, c.Collation));
                    else if (c.Left is LiteralExpr { Value.IsNull: true } && ColumnOf(c.Right, frame) is { } isCol2)
                        terms.Add(new ColumnTerm(isCol2, TermKind.IsNull, null, null, c.CompareAffinity, c.Collation));
                    return;
                }
                var kind = Kind(c.Op);
                if (ColumnOf(c.Left, frame) is { } left && IsConstant(c.Right, frame))
                    terms.Add(new ColumnTerm(left, kind, c.Right, null, c.CompareAffinity, c.Collation));
                else if (ColumnOf(c.Right, frame) is { } right && IsConstant(c.Left, frame))
                    terms.Add(new ColumnTerm(right, Commute(kind), c.Left, null, c.CompareAffinity, c.Collation));
                return;
            }
            case BetweenExpr { Not: false } b when ColumnOf(b.Operand, frame) is { } col:
                if (IsConstant(b.Low, frame)) terms.Add(new ColumnTerm(col, TermKind.Ge, b.Low, null, b.LowAffinity, b.LowCollation));
                if (IsConstant(b.High, frame)) terms.Add(new ColumnTerm(col, TermKind.Le, b.High, null, b.HighAffinity, b.HighCollation));
                return;
            case InListExpr { Not: false } i when ColumnOf(i.Operand, frame) is { } col:
                foreach (var item in i.Items)
                    if (!IsConstant(item, frame)) return;
                terms.Add(new ColumnTerm(col, TermKind.In, null, i.Items, i.CompareAffinity, i.Collation));
                return;
            case NullTestExpr { Not: false } n when ColumnOf(n.Operand, frame) is { } col:
                terms.Add(new ColumnTerm(col, TermKind.IsNull, null, null, SqlAffinity.None, CollationRules.Of(n.Operand) ?? Collation.Binary));
                return;
        }
    }

    private static TermKind Kind(IntentCompareOp op) => op switch
    {
        IntentCompareOp.Eq => TermKind.Eq,
        IntentCompareOp.Lt => TermKind.Lt,
        IntentCompareOp.Le => TermKind.Le,
        IntentCompareOp.Gt => TermKind.Gt,
        _ => TermKind.Ge,
    };

    private static TermKind Commute(TermKind k) => k switch
    {
        TermKind.Lt => TermKind.Gt,
        TermKind.Le => TermKind.Ge,
        TermKind.Gt => TermKind.Lt,
        TermKind.Ge => TermKind.Le,
        _ => k,
    };

    /// <summary>The column of this level an operand is (under any COLLATE), the rowid for an INTEGER PRIMARY KEY.</summary>
    public static int? ColumnOf(IntentExpr e, int frame)
    {
        while (e is CollateExpr k) e = k.Operand;
        if (e is not ColumnExpr c || c.Frame != frame) return null;
        return c.Meta.TableColumn is { IsRowIdAlias: true } ? SourceColumn.RowId : c.Column;
    }

    /// <summary>
    /// True when <paramref name="e"/> has the same value for every row of the level: it reads no column of the level
    /// (directly or through a correlated subquery) and calls nothing non-deterministic.
    /// </summary>
    public static bool IsConstant(IntentExpr e, int frame)
    {
        bool constant = true;
        IntentRewriter.Visit(e, x =>
        {
            switch (x)
            {
                case ColumnExpr c when c.Frame == frame:
                case AggregateSlotExpr s when s.Frame == frame:
                case FunctionExpr { Function.IsDeterministic: false }:
                    constant = false;
                    break;
            }
        });
        return constant;
    }
}
