using System.Globalization;
using System.Text;
using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Tests.Sql.Parsing;

/// <summary>
/// Prints a Sharq AST back as SQL, with every operator application in parentheses, so tests can see the tree's
/// shape and re-parse the output (parse → print → parse → print must be stable). CREATE TABLE column lists are
/// printed from the source text, as the AST keeps them in the schema reader's model.
/// </summary>
internal sealed partial class SqlAstPrinter
{
    private readonly string _sql;
    private readonly StringBuilder _sb = new();

    private SqlAstPrinter(string sql) => _sql = sql;

    public static string Print(SqlExpr e, string sql = "")
    {
        var p = new SqlAstPrinter(sql);
        p.Expr(e);
        return p._sb.ToString();
    }

    public static string Print(SqlStatement s, string sql)
    {
        var p = new SqlAstPrinter(sql);
        p.Statement(s);
        return p._sb.ToString();
    }

    private SqlAstPrinter W(string s)
    {
        _sb.Append(s);
        return this;
    }

    private void Name(string name)
    {
        bool bare = name.Length > 0 && (char.IsAsciiLetter(name[0]) || name[0] == '_')
                    && name.All(c => char.IsAsciiLetterOrDigit(c) || c == '_')
                    && !SqlKeywords.IsKeyword(name)
                    && !name.Equals("TRUE", StringComparison.OrdinalIgnoreCase) && !name.Equals("FALSE", StringComparison.OrdinalIgnoreCase);
        if (bare) W(name);
        else W("\"").W(name.Replace("\"", "\"\"")).W("\"");
    }

    private void Str(string s) => W("'").W(s.Replace("'", "''")).W("'");

    private void List<T>(IReadOnlyList<T> items, Action<T> print, string separator = ", ")
    {
        for (int i = 0; i < items.Count; i++)
        {
            if (i > 0) W(separator);
            print(items[i]);
        }
    }

    // ---- expressions ---------------------------------------------------------------------------------------------

    private void Expr(SqlExpr e)
    {
        switch (e)
        {
            case SqlNullLiteral: W("NULL"); break;
            case SqlIntegerLiteral i:
                W(i.Value >= 0 ? i.Value.ToString(CultureInfo.InvariantCulture) : "0x" + ((ulong)i.Value).ToString("X", CultureInfo.InvariantCulture));
                break;
            case SqlRealLiteral r: W(r.Text); break;
            case SqlStringLiteral s: Str(s.Value); break;
            case SqlBlobLiteral b: W("x'").W(Convert.ToHexString(b.Value.AsSpan())).W("'"); break;
            case SqlBoolLiteral b: W(b.Value ? "TRUE" : "FALSE"); break;
            case SqlCurrentTimeLiteral c: W("CURRENT_" + c.Kind.ToString().ToUpperInvariant()); break;
            case SqlParameterExpr p: W(p.Name); break;
            case SqlColumnRef c:
                if (c.Schema is not null) { Name(c.Schema); W("."); }
                if (c.Table is not null) { Name(c.Table); W("."); }
                Name(c.Name);
                break;
            case SqlUnaryExpr u:
                W(u.Operator switch { SqlUnaryOperator.Negate => "(-", SqlUnaryOperator.Plus => "(+", SqlUnaryOperator.BitNot => "(~", _ => "(NOT " });
                Expr(u.Operand);
                W(")");
                break;
            case SqlBinaryExpr b:
                W("(");
                Expr(b.Left);
                W(" ").W(BinaryText(b.Operator)).W(" ");
                Expr(b.Right);
                W(")");
                break;
            case SqlCollateExpr c:
                W("(");
                Expr(c.Operand);
                W(" COLLATE ");
                Name(c.Collation);
                W(")");
                break;
            case SqlCastExpr c:
                W("CAST(");
                Expr(c.Operand);
                W(" AS ").W(c.TypeName).W(")");
                break;
            case SqlLikeExpr l:
                W("(");
                Expr(l.Operand);
                W(l.Not ? " NOT " : " ").W(l.Operator.ToString().ToUpperInvariant()).W(" ");
                Expr(l.Pattern);
                if (l.Escape is not null) { W(" ESCAPE "); Expr(l.Escape); }
                W(")");
                break;
            case SqlBetweenExpr b:
                W("(");
                Expr(b.Operand);
                W(b.Not ? " NOT BETWEEN " : " BETWEEN ");
                Expr(b.Low);
                W(" AND ");
                Expr(b.High);
                W(")");
                break;
            case SqlNullTestExpr n:
                W("(");
                Expr(n.Operand);
                W(n.Not ? " IS NOT NULL)" : " IS NULL)");
                break;
            case SqlInListExpr i:
                W("(");
                Expr(i.Operand);
                W(i.Not ? " NOT IN (" : " IN (");
                List(i.Items, Expr);
                W("))");
                break;
            case SqlInSelectExpr i:
                W("(");
                Expr(i.Operand);
                W(i.Not ? " NOT IN (" : " IN (");
                Select(i.Query);
                W("))");
                break;
            case SqlInTableExpr i:
                W("(");
                Expr(i.Operand);
                W(i.Not ? " NOT IN " : " IN ");
                if (i.Schema is not null) { Name(i.Schema); W("."); }
                Name(i.Name);
                if (i.Arguments is not null) { W("("); List(i.Arguments, Expr); W(")"); }
                W(")");
                break;
            case SqlCaseExpr c:
                W("CASE");
                if (c.Operand is not null) { W(" "); Expr(c.Operand); }
                foreach (var w in c.Whens)
                {
                    W(" WHEN ");
                    Expr(w.When);
                    W(" THEN ");
                    Expr(w.Then);
                }
                if (c.Else is not null) { W(" ELSE "); Expr(c.Else); }
                W(" END");
                break;
            case SqlExistsExpr x: W("EXISTS ("); Select(x.Query); W(")"); break;
            case SqlSubqueryExpr s: W("("); Select(s.Query); W(")"); break;
            case SqlRowValueExpr r: W("("); List(r.Items, Expr); W(")"); break;
            case SqlFunctionExpr f: Function(f); break;
            case SqlRaiseExpr r:
                W("RAISE(").W(r.Action.ToString().ToUpperInvariant());
                if (r.Message is not null) { W(", "); Expr(r.Message); }
                W(")");
                break;
            default: throw new InvalidOperationException($"unknown node {e.GetType().Name}");
        }
    }

    private static string BinaryText(SqlBinaryOperator op) => op switch
    {
        SqlBinaryOperator.Concat => "||",
        SqlBinaryOperator.JsonExtract => "->",
        SqlBinaryOperator.JsonExtractValue => "->>",
        SqlBinaryOperator.Multiply => "*",
        SqlBinaryOperator.Divide => "/",
        SqlBinaryOperator.Remainder => "%",
        SqlBinaryOperator.Add => "+",
        SqlBinaryOperator.Subtract => "-",
        SqlBinaryOperator.BitAnd => "&",
        SqlBinaryOperator.BitOr => "|",
        SqlBinaryOperator.ShiftLeft => "<<",
        SqlBinaryOperator.ShiftRight => ">>",
        SqlBinaryOperator.Less => "<",
        SqlBinaryOperator.LessOrEqual => "<=",
        SqlBinaryOperator.Greater => ">",
        SqlBinaryOperator.GreaterOrEqual => ">=",
        SqlBinaryOperator.Equal => "=",
        SqlBinaryOperator.NotEqual => "<>",
        SqlBinaryOperator.Is => "IS",
        SqlBinaryOperator.IsNot => "IS NOT",
        SqlBinaryOperator.And => "AND",
        _ => "OR",
    };

    private void Function(SqlFunctionExpr f)
    {
        Name(f.Name);
        W("(");
        if (f.Star) W("*");
        if (f.Distinct) W("DISTINCT ");
        List(f.Arguments, Expr);
        if (f.OrderBy.Count > 0)
        {
            if (f.Arguments.Count > 0) W(" ");
            W("ORDER BY ");
            OrderBy(f.OrderBy);
        }
        W(")");
        if (f.Filter is not null) { W(" FILTER (WHERE "); Expr(f.Filter); W(")"); }
        if (f.OverWindowName is not null) { W(" OVER "); Name(f.OverWindowName); }
        if (f.Over is not null) { W(" OVER ("); Window(f.Over); W(")"); }
    }

    private void Window(SqlWindowSpec w)
    {
        var parts = new List<Action>();
        if (w.BaseWindowName is not null) parts.Add(() => Name(w.BaseWindowName));
        if (w.PartitionBy.Count > 0) parts.Add(() => { W("PARTITION BY "); List(w.PartitionBy, Expr); });
        if (w.OrderBy.Count > 0) parts.Add(() => { W("ORDER BY "); OrderBy(w.OrderBy); });
        if (w.Frame is { } f)
        {
            parts.Add(() =>
            {
                W(f.Unit.ToString().ToUpperInvariant()).W(" BETWEEN ");
                Bound(f.StartBound);
                W(" AND ");
                Bound(f.EndBound);
                W(f.Exclude switch
                {
                    SqlFrameExclude.CurrentRow => " EXCLUDE CURRENT ROW",
                    SqlFrameExclude.Group => " EXCLUDE GROUP",
                    SqlFrameExclude.Ties => " EXCLUDE TIES",
                    _ => "",
                });
            });
        }
        List(parts, a => a(), " ");
    }

    private void Bound(SqlFrameBound b)
    {
        switch (b.Kind)
        {
            case SqlFrameBoundKind.UnboundedPreceding: W("UNBOUNDED PRECEDING"); break;
            case SqlFrameBoundKind.UnboundedFollowing: W("UNBOUNDED FOLLOWING"); break;
            case SqlFrameBoundKind.CurrentRow: W("CURRENT ROW"); break;
            default:
                Expr(b.Offset!);
                W(b.Kind == SqlFrameBoundKind.Preceding ? " PRECEDING" : " FOLLOWING");
                break;
        }
    }

    private void OrderBy(IReadOnlyList<SqlOrderingTerm> terms) => List(terms, t =>
    {
        Expr(t.Expr);
        if (t.Order == SqlSortOrder.Ascending) W(" ASC");
        if (t.Order == SqlSortOrder.Descending) W(" DESC");
        if (t.Nulls == SqlNullsOrder.First) W(" NULLS FIRST");
        if (t.Nulls == SqlNullsOrder.Last) W(" NULLS LAST");
    });

    // ---- queries -------------------------------------------------------------------------------------------------

    private void Select(SqlSelect s)
    {
        if (s.With is not null) With(s.With);
        Body(s.Body);
        if (s.OrderBy.Count > 0) { W(" ORDER BY "); OrderBy(s.OrderBy); }
        Limit(s.Limit, s.Offset);
    }

    private void Limit(SqlExpr? limit, SqlExpr? offset)
    {
        if (limit is null) return;
        W(" LIMIT ");
        Expr(limit);
        if (offset is not null) { W(" OFFSET "); Expr(offset); }
    }

    private void With(SqlWithClause w)
    {
        W(w.Recursive ? "WITH RECURSIVE " : "WITH ");
        List(w.Tables, t =>
        {
            Name(t.Name);
            if (t.Columns.Count > 0) { W("("); List(t.Columns, Name); W(")"); }
            W(t.Materialization switch
            {
                SqlMaterialization.Materialized => " AS MATERIALIZED (",
                SqlMaterialization.NotMaterialized => " AS NOT MATERIALIZED (",
                _ => " AS (",
            });
            Select(t.Query);
            W(")");
        });
        W(" ");
    }

    private void Body(SqlQueryBody body)
    {
        switch (body)
        {
            case SqlCompoundSelect c:
                Body(c.First);
                foreach (var term in c.Terms)
                {
                    W(term.Operator switch
                    {
                        SqlCompoundOperator.Union => " UNION ",
                        SqlCompoundOperator.UnionAll => " UNION ALL ",
                        SqlCompoundOperator.Intersect => " INTERSECT ",
                        _ => " EXCEPT ",
                    });
                    Body(term.Body);
                }
                break;
            case SqlValuesBody v:
                W("VALUES ");
                List(v.Rows, row => { W("("); List(row, Expr); W(")"); });
                break;
            case SqlSelectCore s:
                W(s.Distinct ? "SELECT DISTINCT " : "SELECT ");
                ResultColumns(s.Columns);
                if (s.From is not null) { W(" FROM "); Join(s.From); }
                if (s.Where is not null) { W(" WHERE "); Expr(s.Where); }
                if (s.GroupBy.Count > 0) { W(" GROUP BY "); List(s.GroupBy, Expr); }
                if (s.Having is not null) { W(" HAVING "); Expr(s.Having); }
                if (s.Windows.Count > 0)
                {
                    W(" WINDOW ");
                    List(s.Windows, d => { Name(d.Name); W(" AS ("); Window(d.Spec); W(")"); });
                }
                break;
        }
    }

    private void ResultColumns(IReadOnlyList<SqlResultColumn> columns) => List(columns, c =>
    {
        if (c is SqlStarColumn s)
        {
            if (s.Table is not null) { Name(s.Table); W("."); }
            W("*");
            return;
        }
        var e = (SqlExprColumn)c;
        Expr(e.Expr);
        if (e.Alias is not null) { W(" AS "); Name(e.Alias); }
    });

    private void Join(SqlJoinClause j)
    {
        Source(j.First);
        foreach (var join in j.Joins)
        {
            if (join.Kind == SqlJoinKind.Comma) W(", ");
            else
            {
                W(" ");
                if (join.Natural) W("NATURAL ");
                W(join.Kind switch
                {
                    SqlJoinKind.Cross => "CROSS JOIN ",
                    SqlJoinKind.Left => "LEFT JOIN ",
                    SqlJoinKind.Right => "RIGHT JOIN ",
                    SqlJoinKind.Full => "FULL JOIN ",
                    _ => "JOIN ",
                });
            }
            Source(join.Source);
            if (join.On is not null) { W(" ON "); Expr(join.On); }
            if (join.Using.Count > 0) { W(" USING ("); List(join.Using, Name); W(")"); }
        }
    }

    private void Source(SqlTableSource source)
    {
        switch (source)
        {
            case SqlTableRef t:
                TableName(t);
                if (t.Alias is not null) { W(" AS "); Name(t.Alias); }
                if (t.IndexedBy is not null) { W(" INDEXED BY "); Name(t.IndexedBy); }
                if (t.NotIndexed) W(" NOT INDEXED");
                return;
            case SqlTableFunctionRef f:
                if (f.Schema is not null) { Name(f.Schema); W("."); }
                Name(f.Name);
                W("(");
                List(f.Arguments, Expr);
                W(")");
                break;
            case SqlSubquerySource q:
                W("(");
                Select(q.Query);
                W(")");
                break;
            case SqlNestedJoinSource n:
                W("(");
                Join(n.Join);
                W(")");
                break;
        }
        if (source.Alias is not null) { W(" AS "); Name(source.Alias); }
    }

    private void TableName(SqlTableRef t)
    {
        if (t.Schema is not null) { Name(t.Schema); W("."); }
        Name(t.Name);
    }
}
