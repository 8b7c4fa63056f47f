using Sharc.Format;
using Sharc.Sql.Ast;

namespace Sharc.Sql.Intent;

/// <summary>
/// The rows of a compound SELECT: <see cref="Arms"/>[0] combined with each later arm in turn by
/// <see cref="Operators"/>[i - 1], associating to the left as SQLite does. The level over it projects the compound's
/// columns one for one and carries the compound's ORDER BY and LIMIT; <see cref="Ordering"/> repeats that ORDER BY
/// because SQLite's merge algorithm, not a later sort, decides which of several equal rows a set operator keeps.
/// </summary>
/// <remarks>
/// <see cref="Collations"/> are the compound's column collations (the leftmost arm's column that has one, else
/// BINARY): they decide duplicates and order. Its <see cref="IntentSource.Columns"/> carry what a reader of the
/// compound in FROM sees: the first arm's collation and SQLite's compound affinity.
/// </remarks>
internal sealed record CompoundSource(
    IReadOnlyList<QueryIntent> Arms,
    IReadOnlyList<SqlCompoundOperator> Operators,
    IReadOnlyList<Collation> Collations,
    string Name,
    IReadOnlyList<SourceColumn> Columns) : IntentSource(Name, Columns)
{
    /// <summary>The compound's ORDER BY (by compound column), empty when rows come in SQLite's unordered order.</summary>
    public IReadOnlyList<OrderingIntent> Ordering { get; init; } = [];

    /// <summary>
    /// True when SQLite runs the compound as a subquery of its own statement (convertCompoundSelectToSubquery): its
    /// rows are then read with the <see cref="IntentSource.Columns"/>' affinities applied, as from any subquery.
    /// </summary>
    public bool ReadAsSubquery { get; init; }
}

/// <summary>
/// VALUES (…), (…): each row's expressions, evaluated in order; column i is "column{i+1}". SQLite treats a multi-row
/// VALUES as a UNION ALL of one-row SELECTs, which decides its columns' affinity and collation.
/// </summary>
internal sealed record ValuesSource(
    IReadOnlyList<IReadOnlyList<IntentExpr>> Rows,
    string Name,
    IReadOnlyList<SourceColumn> Columns) : IntentSource(Name, Columns);

/// <summary>
/// The identity of one WITH RECURSIVE table within a statement: the recursive SELECTs read the row being
/// expanded through it.
/// </summary>
internal sealed class RecursiveTable(string name)
{
    /// <summary>The table's name (for plans).</summary>
    public string Name { get; } = name;
}

/// <summary>
/// A recursive common table expression: the <see cref="Setup"/> arms fill a queue; each row taken from it is
/// output, then becomes the one row of <see cref="Table"/> while the <see cref="Recursive"/> arms run, their rows
/// going to the queue. <see cref="Distinct"/> (UNION) drops rows seen before; <see cref="Ordering"/> makes the queue
/// a priority queue (ties in arrival order); LIMIT and OFFSET count output rows, OFFSET rows still recurse.
/// </summary>
internal sealed record RecursiveCteSource(
    RecursiveTable Table,
    IReadOnlyList<QueryIntent> Setup,
    IReadOnlyList<SqlCompoundOperator> SetupOperators,
    IReadOnlyList<QueryIntent> Recursive,
    bool Distinct,
    IReadOnlyList<Collation> Collations,
    IReadOnlyList<OrderingIntent> Ordering,
    IntentExpr? Limit,
    IntentExpr? Offset,
    string Name,
    IReadOnlyList<SourceColumn> Columns) : IntentSource(Name, Columns);

/// <summary>The reference to a recursive table from inside its own recursive SELECT: the one row being expanded.</summary>
internal sealed record RecursiveRefSource(RecursiveTable Table, string Name, IReadOnlyList<SourceColumn> Columns) : IntentSource(Name, Columns);

/// <summary>
/// A common table expression computed once per execution and read by every reference (AS MATERIALIZED, or a CTE
/// named more than once). <see cref="Query"/> is shared by all references, so the executor keeps one copy of its rows.
/// </summary>
internal sealed record MaterializedSource(QueryIntent Query, string Name, IReadOnlyList<SourceColumn> Columns) : IntentSource(Name, Columns);

/// <summary>The query levels a source of this file holds (arms, setup and recursive SELECTs, a materialized query).</summary>
internal static class CompoundSources
{
    public static IEnumerable<QueryIntent> Levels(IntentSource? source)
    {
        switch (source)
        {
            case CompoundSource c:
                return c.Arms;
            case RecursiveCteSource r:
                return r.Setup.Concat(r.Recursive);
            case MaterializedSource m:
                return [m.Query];
            default:
                return [];
        }
    }

    /// <summary>The expressions a source of this file evaluates itself (VALUES rows, a recursive CTE's limits).</summary>
    public static IEnumerable<IntentExpr> Expressions(IntentSource? source)
    {
        switch (source)
        {
            case ValuesSource v:
                foreach (var row in v.Rows)
                    foreach (var e in row) yield return e;
                break;
            case RecursiveCteSource r:
                if (r.Limit is not null) yield return r.Limit;
                if (r.Offset is not null) yield return r.Offset;
                break;
            case TableFunctionSource t:
                foreach (var e in t.Arguments) yield return e;
                break;
        }
    }

    /// <summary>Rewrites the levels and expressions inside a source of this file (null when it is another kind).</summary>
    public static IntentSource? Rewrite(IntentSource? source, Func<IntentExpr, IntentExpr?> f)
    {
        switch (source)
        {
            case CompoundSource c:
            {
                var arms = RewriteAll(c.Arms, f);
                return ReferenceEquals(arms, c.Arms) ? c : c with { Arms = arms };
            }
            case TableFunctionSource t:
            {
                var args = IntentRewriter.RewriteList(t.Arguments, f);
                return ReferenceEquals(args, t.Arguments) ? t : t with { Arguments = [.. args] };
            }
            case ValuesSource v:
            {
                List<IReadOnlyList<IntentExpr>>? rows = null;
                for (int i = 0; i < v.Rows.Count; i++)
                {
                    var row = IntentRewriter.RewriteList(v.Rows[i], f);
                    if (!ReferenceEquals(row, v.Rows[i])) rows ??= [.. v.Rows];
                    if (rows is not null) rows[i] = row;
                }
                return rows is null ? v : v with { Rows = rows };
            }
            case RecursiveCteSource r:
            {
                var setup = RewriteAll(r.Setup, f);
                var recursive = RewriteAll(r.Recursive, f);
                return ReferenceEquals(setup, r.Setup) && ReferenceEquals(recursive, r.Recursive) ? r : r with { Setup = setup, Recursive = recursive };
            }
            case MaterializedSource m:
            {
                var q = IntentRewriter.RewriteQuery(m.Query, f);
                return ReferenceEquals(q, m.Query) ? m : m with { Query = q };
            }
            default:
                return null;
        }
    }

    private static IReadOnlyList<QueryIntent> RewriteAll(IReadOnlyList<QueryIntent> levels, Func<IntentExpr, IntentExpr?> f)
    {
        QueryIntent[]? copy = null;
        for (int i = 0; i < levels.Count; i++)
        {
            var q = IntentRewriter.RewriteQuery(levels[i], f);
            if (!ReferenceEquals(q, levels[i])) copy ??= [.. levels];
            if (copy is not null) copy[i] = q;
        }
        return copy ?? levels;
    }
}
