using Sharc.Format;
using Sharc.Sql.Ast;

namespace Sharc.Sql.Intent;

/// <summary>A table row named for expressions that run on it outside any query (see <see cref="IntentCompiler.CompileRowExpressions"/>).</summary>
/// <param name="Name">The name the expressions use for the row: the table's own name, "excluded", "new", "old".</param>
/// <param name="Table">The table whose columns the row has.</param>
/// <param name="Unqualified">
/// True when its columns may be named without the qualifier. Trigger rows (NEW, OLD) must be qualified; the row
/// being written by an UPSERT may be named either way, while <c>excluded</c> must be qualified.
/// </param>
internal sealed record RowBinding(string Name, SharcTable Table, bool Unqualified = true);

internal sealed partial class IntentCompiler
{
    /// <summary>
    /// Compiles expressions over rows of tables held in memory — CHECK constraints, index expressions and partial
    /// index WHERE clauses, generated columns, RETURNING, UPSERT's SET, trigger conditions. Each binding is a level
    /// of its own (frame <c>i</c> for binding <c>i</c> plus the returned base), the first the innermost, so that an
    /// unqualified name resolves to the first binding that allows it, as SQLite resolves it.
    /// </summary>
    /// <returns>The compiled expressions, the frame of each binding, and the number of frames used.</returns>
    public static (IReadOnlyList<IntentExpr> Expressions, int[] Frames, int FrameCount) CompileRowExpressions(
        SharcSchema schema, IReadOnlyList<(string Sql, SqlExpr Expr)> expressions, IReadOnlyList<RowBinding> rows)
    {
        var compiler = new IntentCompiler(schema, expressions.Count > 0 ? expressions[0].Sql : "");
        var frames = new int[rows.Count];
        Scope? scope = null;
        for (int i = rows.Count - 1; i >= 0; i--)
        {
            var table = rows[i].Table;
            var source = new TableSource(table, rows[i].Name, compiler.TableColumns(table), RowIdName(table), null, false);
            frames[i] = compiler._nextFrame++;
            scope = new Scope(scope, frames[i], source, isAggregate: false) { Clause = Clause.Where, QualifiedOnly = !rows[i].Unqualified };
        }
        var compiled = new IntentExpr[expressions.Count];
        for (int i = 0; i < compiled.Length; i++)
        {
            compiler._sql = expressions[i].Sql;
            compiled[i] = compiler.Compile(expressions[i].Expr, scope ?? new Scope(null, compiler._nextFrame++, null, false), Clause.Where);
        }
        return (compiled, frames, compiler._nextFrame);
    }
}
