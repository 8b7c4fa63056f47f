using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Intent;

/// <summary>
/// The check SQLite makes on the stored expressions of a schema it loads: every column a generated column's
/// expression names must be a column of its table (or the rowid), else the schema is malformed. A file written by
/// SQLite never fails it; one edited through writable_schema can.
/// </summary>
internal static class SchemaExpressions
{
    public static void Check(SharcSchema schema)
    {
        foreach (var table in schema.Tables)
        {
            foreach (var column in table.Columns)
            {
                if (column.GeneratedSql is not { } sql || UnknownColumn(table, sql) is not { } unknown) continue;
                schema.ExpressionProblem = $"malformed database schema ({table.Name}) - no such column: {unknown}";
                schema.ExpressionsChecked = true;
                return;
            }
        }
        schema.ExpressionsChecked = true;
    }

    private static string? UnknownColumn(SharcTable table, string sql)
    {
        SqlExpr parsed;
        try
        {
            parsed = Parsing.SqlParser.ParseExpression(sql);
        }
        catch (SharcSqlException)
        {
            return null; // a syntax error is reported where the expression is used
        }
        string? unknown = null;
        AstWalker.Any(parsed, x =>
        {
            if (x is not SqlColumnRef c || Resolves(table, c)) return false;
            unknown = c.Table is null ? c.Name : $"{c.Table}.{c.Name}";
            return true;
        });
        return unknown;
    }

    private static bool Resolves(SharcTable table, SqlColumnRef c)
    {
        if (c.Table is not null && !SqlNameComparer.Instance.Equals(c.Table, table.Name)) return false;
        if (table.FindColumn(c.Name) is not null) return true;
        if (!table.IsWithoutRowId)
            foreach (var n in IntentCompiler.RowIdNames)
                if (SqlNameComparer.Instance.Equals(n, c.Name)) return true;
        // An unmatched "name" is SQLite's double-quoted string literal.
        return c.Table is null && c.DoubleQuoted;
    }
}
