using Sharc.Sql.Ast;
using Sharc.Sql.Parsing;

namespace Sharc.Tests.Sql.Parsing;

/// <summary>The trees of SELECT statements: clauses, compounds, FROM sources and joins, CTEs and windows.</summary>
public sealed class SqlQueryParsingTests
{
    private static SqlSelect Query(string sql) => ((SqlSelectStatement)SqlParser.ParseStatement(sql)).Query;

    private static SqlSelectCore Core(string sql) => (SqlSelectCore)Query(sql).Body;

    [Fact]
    public void Select_core_clauses()
    {
        var core = Core("SELECT DISTINCT a AS x, b y, t.*, * FROM t WHERE a > 1 GROUP BY a, b HAVING count(*) > 1 WINDOW w AS (ORDER BY a)");
        core.Distinct.Should().BeTrue();
        core.Columns.Should().HaveCount(4);
        ((SqlExprColumn)core.Columns[0]).Alias.Should().Be("x");
        ((SqlExprColumn)core.Columns[1]).Alias.Should().Be("y");
        ((SqlStarColumn)core.Columns[2]).Table.Should().Be("t");
        ((SqlStarColumn)core.Columns[3]).Table.Should().BeNull();
        core.From!.First.Should().BeOfType<SqlTableRef>().Which.Name.Should().Be("t");
        core.Where.Should().BeOfType<SqlBinaryExpr>();
        core.GroupBy.Should().HaveCount(2);
        core.Having.Should().BeOfType<SqlBinaryExpr>();
        core.Windows.Single().Name.Should().Be("w");
    }

    [Fact]
    public void Result_column_spans_are_the_expression_text_sqlite_names_columns_after()
    {
        const string sql = "SELECT (a + 1) AS q, b*2, count( * ) FROM t";
        var core = Core(sql);
        core.Columns.Select(c => sql[c.Start..c.End]).Should().Equal("(a + 1)", "b*2", "count( * )");
    }

    [Theory]
    [InlineData("SELECT a FROM t LIMIT 10", "10", null)]
    [InlineData("SELECT a FROM t LIMIT 10 OFFSET 5", "10", "5")]
    [InlineData("SELECT a FROM t LIMIT 5, 10", "10", "5")]
    public void Limit_and_offset(string sql, string limit, string? offset)
    {
        var q = Query(sql);
        SqlAstPrinter.Print(q.Limit!).Should().Be(limit);
        (q.Offset is null ? null : SqlAstPrinter.Print(q.Offset)).Should().Be(offset);
    }

    [Fact]
    public void Compounds_keep_their_terms_in_order_and_take_the_last_order_by_and_limit()
    {
        var q = Query("SELECT 1 UNION ALL SELECT 2 INTERSECT VALUES (3) EXCEPT SELECT 4 ORDER BY 1 LIMIT 2");
        var compound = q.Body.Should().BeOfType<SqlCompoundSelect>().Subject;
        compound.First.Should().BeOfType<SqlSelectCore>();
        compound.Terms.Select(t => t.Operator).Should().Equal(SqlCompoundOperator.UnionAll, SqlCompoundOperator.Intersect, SqlCompoundOperator.Except);
        compound.Terms[1].Body.Should().BeOfType<SqlValuesBody>();
        q.OrderBy.Should().ContainSingle();
        q.Limit.Should().NotBeNull();
    }

    [Fact]
    public void Values_rows()
    {
        var values = (SqlValuesBody)Query("VALUES (1, 2), (3, 4), (5, 6)").Body;
        values.Rows.Should().HaveCount(3);
        values.Rows.Should().OnlyContain(r => r.Count == 2);
    }

    [Fact]
    public void Ordering_terms()
    {
        var terms = Query("SELECT a FROM t ORDER BY a, b DESC NULLS FIRST, c COLLATE nocase ASC NULLS LAST").OrderBy;
        terms.Select(t => t.Order).Should().Equal(SqlSortOrder.Unspecified, SqlSortOrder.Descending, SqlSortOrder.Ascending);
        terms.Select(t => t.Nulls).Should().Equal(SqlNullsOrder.Unspecified, SqlNullsOrder.First, SqlNullsOrder.Last);
        terms[2].Expr.Should().BeOfType<SqlCollateExpr>().Which.Collation.Should().Be("nocase");
    }

    [Fact]
    public void Join_operators_and_constraints()
    {
        var from = Core("SELECT * FROM a, b JOIN c ON 1 LEFT OUTER JOIN d USING (x, y) NATURAL CROSS JOIN e RIGHT JOIN f FULL JOIN g INNER JOIN h LEFT RIGHT JOIN i").From!;
        from.Joins.Select(j => j.Kind).Should().Equal(
            SqlJoinKind.Comma, SqlJoinKind.Inner, SqlJoinKind.Left, SqlJoinKind.Cross, SqlJoinKind.Right, SqlJoinKind.Full,
            SqlJoinKind.Inner, SqlJoinKind.Full);
        from.Joins[1].On.Should().NotBeNull();
        from.Joins[2].Using.Should().Equal("x", "y");
        from.Joins[3].Natural.Should().BeTrue();
    }

    [Fact]
    public void From_sources()
    {
        var from = Core("SELECT * FROM main.t AS x INDEXED BY i, t2 NOT INDEXED, json_each('[1]') j, (SELECT 1) AS s, (t3 JOIN t4) n, 'quoted' q").From!;
        var t = (SqlTableRef)from.First;
        (t.Schema, t.Name, t.Alias, t.IndexedBy, t.NotIndexed).Should().Be(("main", "t", "x", "i", false));
        ((SqlTableRef)from.Joins[0].Source).NotIndexed.Should().BeTrue();
        var f = (SqlTableFunctionRef)from.Joins[1].Source;
        (f.Name, f.Alias, f.Arguments.Count).Should().Be(("json_each", "j", 1));
        from.Joins[2].Source.Should().BeOfType<SqlSubquerySource>().Which.Alias.Should().Be("s");
        var nested = (SqlNestedJoinSource)from.Joins[3].Source;
        (nested.Alias, nested.Join.Joins.Count).Should().Be(("n", 1));
        ((SqlTableRef)from.Joins[4].Source).Name.Should().Be("quoted");
    }

    [Fact]
    public void Common_table_expressions()
    {
        var with = Query("WITH RECURSIVE c(n) AS (SELECT 1), d AS MATERIALIZED (SELECT 2), e AS NOT MATERIALIZED (VALUES (3)) SELECT * FROM c").With!;
        with.Recursive.Should().BeTrue();
        with.Tables.Select(t => t.Name).Should().Equal("c", "d", "e");
        with.Tables[0].Columns.Should().Equal("n");
        with.Tables.Select(t => t.Materialization).Should().Equal(SqlMaterialization.Default, SqlMaterialization.Materialized, SqlMaterialization.NotMaterialized);
    }

    [Fact]
    public void Window_functions()
    {
        var core = Core("SELECT sum(a) FILTER (WHERE b) OVER (w PARTITION BY c ORDER BY d GROUPS BETWEEN 2 PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE TIES), max(a) OVER w, rank() OVER (ROWS CURRENT ROW) FROM t");
        var f = (SqlFunctionExpr)((SqlExprColumn)core.Columns[0]).Expr;
        f.Filter.Should().NotBeNull();
        f.IsWindowCall.Should().BeTrue();
        var over = f.Over!;
        (over.BaseWindowName, over.PartitionBy.Count, over.OrderBy.Count).Should().Be(("w", 1, 1));
        var frame = over.Frame!;
        (frame.Unit, frame.StartBound.Kind, frame.EndBound.Kind, frame.Exclude).Should().Be(
            (SqlFrameUnit.Groups, SqlFrameBoundKind.Preceding, SqlFrameBoundKind.UnboundedFollowing, SqlFrameExclude.Ties));
        ((SqlFunctionExpr)((SqlExprColumn)core.Columns[1]).Expr).OverWindowName.Should().Be("w");
        var implicitEnd = ((SqlFunctionExpr)((SqlExprColumn)core.Columns[2]).Expr).Over!.Frame!;
        (implicitEnd.StartBound.Kind, implicitEnd.EndBound.Kind).Should().Be((SqlFrameBoundKind.CurrentRow, SqlFrameBoundKind.CurrentRow));
    }

    [Fact]
    public void Function_call_forms()
    {
        var core = Core("SELECT count(*), count(DISTINCT a), group_concat(a, ',' ORDER BY b DESC), f(), \"quoted\"(1) FROM t");
        var calls = core.Columns.Select(c => (SqlFunctionExpr)((SqlExprColumn)c).Expr).ToList();
        calls[0].Star.Should().BeTrue();
        calls[1].Distinct.Should().BeTrue();
        calls[2].OrderBy.Should().ContainSingle().Which.Order.Should().Be(SqlSortOrder.Descending);
        calls[2].Arguments.Should().HaveCount(2);
        calls[3].Arguments.Should().BeEmpty();
        calls[4].Name.Should().Be("quoted");
    }

    [Theory]
    // Keywords that SQLite lets double as names wherever the keyword would not fit.
    [InlineData("SELECT key, replace, if, offset, desc FROM t", 5)]
    [InlineData("SELECT a desc FROM t", 1)]
    [InlineData("SELECT 1 window", 1)]
    [InlineData("SELECT count(*) over FROM t", 1)]
    [InlineData("SELECT left.a FROM t AS left", 1)]
    public void Keywords_used_as_names(string sql, int columns) => Core(sql).Columns.Should().HaveCount(columns);

    [Fact]
    public void Context_keywords_window_over_and_filter()
    {
        Core("SELECT * FROM t window").From!.First.Alias.Should().Be("window");
        Core("SELECT * FROM t window w AS ()").Windows.Should().ContainSingle();
        ((SqlExprColumn)Core("SELECT count(*) filter FROM t").Columns[0]).Alias.Should().Be("filter");
    }
}
