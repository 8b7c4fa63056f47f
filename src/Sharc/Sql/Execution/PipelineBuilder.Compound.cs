using Sharc.Format;
using Sharc.Sql.Intent;

namespace Sharc.Sql.Execution;

internal sealed partial class PipelineBuilder
{
    // One execution shares one row buffer per materialized CTE and one current row per recursive table.
    private readonly Dictionary<QueryIntent, MaterializedRows> _materialized = new(ReferenceEqualityComparer.Instance);
    private readonly Dictionary<RecursiveTable, RecursiveRow> _recursiveRows = new(ReferenceEqualityComparer.Instance);

    /// <summary>The operator for a compound, VALUES or CTE source.</summary>
    private RowOperator BuildCompoundSource(QueryIntent q) => SourceRows(q.Source, q.Frame);

    /// <summary>The rows of a compound, VALUES or CTE source, read into <paramref name="frame"/> (a level's or a join item's).</summary>
    private RowOperator SourceRows(IntentSource? source, int frame)
    {
        switch (source)
        {
            case CompoundSource c:
                return new CompoundScanOperator(Compound(c.Arms, c.Operators, c.Collations, c.Ordering), frame,
                    c.ReadAsSubquery ? [.. c.Columns.Select(col => col.Affinity)] : null);
            case ValuesSource v:
                return new ValuesScanOperator(v.Rows.Select(row => row.Select(Compile).ToArray()).ToArray(), frame);
            case MaterializedSource m:
            {
                if (!_materialized.TryGetValue(m.Query, out var rows))
                    _materialized[m.Query] = rows = new MaterializedRows(Build(m.Query), m.Query.VisibleCount);
                return new MaterializedScanOperator(rows, m.Query.VisibleCount, frame);
            }
            case RecursiveCteSource r:
            {
                // The setup SELECTs compare under the CTE's collations, as one compound with the recursive ones.
                var setup = Compound(r.Setup, r.SetupOperators, r.Collations, []);
                var recursive = r.Recursive.Select(Build).ToArray();
                return new RecursiveCteOperator(r, setup, recursive, RecursiveRowOf(r.Table),
                    r.Limit is null ? null : Compile(r.Limit), r.Offset is null ? null : Compile(r.Offset), frame);
            }
            case RecursiveRefSource rr:
                return new RecursiveRefOperator(RecursiveRowOf(rr.Table), frame);
            case TableFunctionSource t:
                return new TableFunctionOperator(t.Function, [.. t.Arguments.Select(Compile)], frame, db);
            default:
                throw new InvalidOperationException($"the source {source?.GetType().Name} cannot be executed here");
        }
    }

    /// <summary>
    /// A compound or VALUES in FROM: SQLite stores its rows with the columns' affinities applied (a REAL column turns
    /// another arm's integers into reals), as a table would.
    /// </summary>
    private RowOperator CompoundSubqueryScan(SubquerySource s, int frame)
    {
        var affinities = new Values.SqlAffinity[s.Columns.Count];
        for (int i = 0; i < affinities.Length; i++) affinities[i] = s.Columns[i].Affinity;
        return new AffinityScanOperator(Build(s.Query), affinities, frame);
    }

    private CompoundRows Compound(IReadOnlyList<QueryIntent> arms, IReadOnlyList<Ast.SqlCompoundOperator> operators, IReadOnlyList<Collation> collations, IReadOnlyList<OrderingIntent> ordering)
        => new(arms.Select(Build).ToArray(), [.. operators], [.. collations], ordering);

    private RecursiveRow RecursiveRowOf(RecursiveTable table)
    {
        if (!_recursiveRows.TryGetValue(table, out var row)) _recursiveRows[table] = row = new RecursiveRow();
        return row;
    }
}
