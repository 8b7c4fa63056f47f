using Sharc.Sql.Ast;
using Sharc.Sql.Execution;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Writes;

/// <summary>
/// A RETURNING clause: its expressions compiled once over the row being written (named by the table or its alias)
/// and evaluated for each row the statement changes; the rows are kept until the statement ends, as SQLite returns
/// them only after the whole statement has run.
/// </summary>
internal sealed class ReturningRows : IDisposable
{
    private readonly RowExpressions _expressions;

    private ReturningRows(RowExpressions expressions, ColumnSource[] columns)
    {
        _expressions = expressions;
        Columns = columns;
    }

    /// <summary>The result columns (names as SQLite gives them: the alias, the column name, or the expression's text).</summary>
    public ColumnSource[] Columns { get; }

    public List<SqlValue[]> Rows { get; } = new();

    /// <summary>Compiles the clause, or returns null when the statement has none.</summary>
    public static ReturningRows? Create(SharcDatabase db, string sql, IReadOnlyList<SqlResultColumn> returning, SqlTableRef target, SharcTable table, SqlValue[] parameters)
    {
        if (returning.Count == 0) return null;
        var expressions = new List<SqlExpr>();
        var columns = new List<ColumnSource>();
        foreach (var item in returning)
        {
            switch (item)
            {
                case SqlStarColumn { Table: not null } star:
                    throw new SharcSqlException("RETURNING may not use \"TABLE.*\" wildcards", sql, star.Start);
                case SqlStarColumn:
                    foreach (var c in table.Columns)
                    {
                        if (c.IsHidden) continue;
                        expressions.Add(new SqlColumnRef(null, null, c.Name, false) { Start = item.Start, End = item.End });
                        columns.Add(new ColumnSource { Name = c.Name, Field = columns.Count, Column = c });
                    }
                    break;
                case SqlExprColumn e:
                    expressions.Add(e.Expr);
                    var plain = e.Expr is SqlColumnRef r ? table.FindColumn(r.Name) : null;
                    string name = e.Alias ?? (e.Expr is SqlColumnRef cr ? cr.Name : sql[e.Expr.Start..e.Expr.End]);
                    columns.Add(new ColumnSource { Name = name, Field = columns.Count, Column = plain });
                    break;
            }
        }
        var compiled = RowExpressions.Compile(db, sql, expressions, new RowBinding(table.Name, table));
        DmlTarget.Bind(compiled.Parameters, parameters);
        return new ReturningRows(compiled, [.. columns]);
    }

    /// <summary>Evaluates the clause on a row as written (values in table column order) and keeps the result.</summary>
    public void Add(SqlValue[] row, long rowId)
    {
        _expressions.SetRow(0, row, rowId);
        var result = new SqlValue[_expressions.Count];
        for (int i = 0; i < result.Length; i++) result[i] = _expressions.Evaluate(i).ToOwned();
        Rows.Add(result);
    }

    public void Dispose() => _expressions.Dispose();
}
