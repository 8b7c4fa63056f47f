using Sharc.Sql.Ast;
using Sharc.Sql.Execution;
using Sharc.Sql.Functions;
using Sharc.Sql.Functions.Aggregates;
using Sharc.Sql.Intent;
using Sharc.Sql.Parsing;

namespace Sharc.Write;

/// <summary>
/// The expressions a schema object stores — CHECK constraints, generated columns, index expressions and partial
/// index WHERE clauses — checked when the object is created, as SQLite checks them: no subquery, no aggregate, no
/// non-deterministic function, and every name a column of the table (so the object never reaches the file when
/// SQLite would refuse it).
/// </summary>
internal sealed partial class SchemaWriter
{
    // Date and time functions are deterministic unless given 'now' (SQLite's "slightly deterministic"): refused
    // when evaluated that way, not when created.
    private static readonly HashSet<string> DateTimeFunctions = new(StringComparer.OrdinalIgnoreCase)
    {
        "date", "time", "datetime", "julianday", "unixepoch", "strftime", "timediff",
    };

    private const string CheckConstraints = "CHECK constraints", GeneratedColumns = "generated columns";

    private void CheckTableExpressions(SharcTable table)
    {
        var expressions = new List<(string Sql, string Context)>();
        foreach (var check in table.Checks) expressions.Add((check.ExpressionSql, CheckConstraints));
        foreach (var column in table.Columns)
            if (column.GeneratedSql is { } generated) expressions.Add((generated, GeneratedColumns));
        CheckExpressions(table, expressions);
    }

    private void CheckIndexExpressions(SharcTable table, SharcIndex index)
    {
        var expressions = new List<(string Sql, string Context)>();
        foreach (var column in index.Columns)
            if (column.ExpressionSql is { } e) expressions.Add((e, "index expressions"));
        if (index.WhereSql is { } where) expressions.Add((where, "partial index WHERE clauses"));
        CheckExpressions(table, expressions);
    }

    private void CheckExpressions(SharcTable table, List<(string Sql, string Context)> expressions)
    {
        foreach (var (sql, context) in expressions)
        {
            var parsed = SqlParser.ParseExpression(sql);
            AstWalker.Any(parsed, x =>
            {
                switch (x)
                {
                    case SqlSubqueryExpr or SqlExistsExpr or SqlInSelectExpr or SqlRowElementExpr:
                        throw new SharcException($"subqueries prohibited in {context}");
                    case SqlFunctionExpr f when !f.IsWindowCall && AggregateFunctions.IsAggregate(f.Name, f.Star ? 0 : f.Arguments.Count):
                        throw new SharcException($"misuse of aggregate function {f.Name}()");
                    // A generated column is computed before the row has its rowid: SQLite resolves no rowid there.
                    case SqlColumnRef c when context == GeneratedColumns && table.FindColumn(c.Name) is null && SharcDatabase.IsRowIdName(c.Name):
                        throw new SharcException($"no such column: {(c.Table is null ? "" : c.Table + ".")}{c.Name}");
                    // SQLite allows non-deterministic functions in CHECK constraints (its resolver exempts them).
                    case SqlFunctionExpr f when context != CheckConstraints && !DateTimeFunctions.Contains(f.Name)
                                                && ScalarFunctions.TryGet(f.Name, f.Arguments.Count, out var fn) && !fn.IsDeterministic:
                        throw new SharcException($"non-deterministic functions prohibited in {context}");
                }
                return false;
            });
            // Compiling against the table's row finds unknown columns (and generated columns that name themselves).
            try
            {
                using var compiled = RowExpressions.Compile(_db, [sql], new RowBinding(table.Name, table));
            }
            catch (SharcSqlException e)
            {
                throw new SharcException(e.SqliteMessage);
            }
        }
    }
}
