using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Parsing;

/// <summary>
/// Queries: WITH clauses, SELECT cores, VALUES, compounds, ORDER BY and LIMIT, FROM clauses with their joins, and
/// window definitions.
/// </summary>
internal sealed partial class SharqParser
{
    /// <summary>A full query, "[WITH …] select-body [ORDER BY …] [LIMIT …]".</summary>
    internal SqlSelect Select()
    {
        Enter();
        int start = Peek().Start;
        var with = Is("WITH") ? With() : null;
        var select = SelectAfterWith(with, start);
        Leave();
        return select;
    }

    /// <summary>
    /// The body of a query after its WITH clause. In SQLite's grammar ORDER BY and LIMIT belong to each SELECT;
    /// only those of the last one are allowed, and they apply to the whole compound.
    /// </summary>
    private SqlSelect SelectAfterWith(SqlWithClause? with, int start)
    {
        var first = OneSelect(out var orderBy, out var limit, out var offset);
        SqlSyntaxException? misplaced = null;
        var terms = new List<SqlCompoundTerm>();
        var last = first;
        while (true)
        {
            int opStart = Peek().Start;
            if (CompoundOperator() is not { } op) break;
            if (orderBy.Count > 0 || limit is not null)
            {
                string clause = orderBy.Count > 0 ? "ORDER BY" : "LIMIT";
                misplaced = Error($"{clause} clause should come after {OperatorName(op)} not before", orderBy.Count > 0 ? orderBy[0].Start : limit!.Start);
            }
            last = OneSelect(out orderBy, out limit, out offset);
            terms.Add(new SqlCompoundTerm(op, last) { Start = opStart, End = last.End });
        }
        if (misplaced is not null) RaiseAtReduce(misplaced);
        // SQLite's limit on compound terms does not apply when the last term is a VALUES list.
        if (terms.Count + 1 > MaxCompoundTerms && last is not SqlValuesBody)
        {
            RaiseAtReduce(Error("too many terms in compound SELECT", start));
        }
        var body = terms.Count == 0 ? first : new SqlCompoundSelect(first, terms) { Start = first.Start, End = last.End };
        return new SqlSelect(with, body, orderBy, limit, offset) { Start = start, End = PrevEnd };
    }

    private static string OperatorName(SqlCompoundOperator op) => op switch
    {
        SqlCompoundOperator.Union => "UNION",
        SqlCompoundOperator.UnionAll => "UNION ALL",
        SqlCompoundOperator.Intersect => "INTERSECT",
        _ => "EXCEPT",
    };

    private SqlCompoundOperator? CompoundOperator()
    {
        if (Accept("UNION")) return Accept("ALL") ? SqlCompoundOperator.UnionAll : SqlCompoundOperator.Union;
        if (Accept("INTERSECT")) return SqlCompoundOperator.Intersect;
        if (Accept("EXCEPT")) return SqlCompoundOperator.Except;
        return null;
    }

    /// <summary>A SELECT core with its own ORDER BY and LIMIT, or a VALUES list (which takes neither).</summary>
    private SqlQueryBody OneSelect(out List<SqlOrderingTerm> orderBy, out SqlExpr? limit, out SqlExpr? offset)
    {
        orderBy = [];
        limit = offset = null;
        if (Is("VALUES")) return Values();
        if (!Is("SELECT")) throw _ts.SyntaxError();
        var core = SelectCore();
        if (Accept("ORDER"))
        {
            Expect("BY");
            orderBy = OrderingTerms();
        }
        if (Accept("LIMIT")) (limit, offset) = LimitClause();
        return core;
    }

    /// <summary>"LIMIT" has been read: "n [OFFSET m]" or "m, n" (where the first number is the offset).</summary>
    private (SqlExpr Limit, SqlExpr? Offset) LimitClause()
    {
        var first = Expr();
        if (Accept("OFFSET")) return (first, Expr());
        if (Accept(SqlTokenKind.Comma)) return (Expr(), first);
        return (first, null);
    }

    private SqlSelectCore SelectCore()
    {
        int start = Next().Start;
        bool distinct = Accept("DISTINCT");
        if (!distinct) Accept("ALL");
        var columns = ResultColumns();
        var from = Accept("FROM") ? JoinClause() : null;
        var where = Accept("WHERE") ? Expr() : null;
        List<SqlExpr> groupBy = [];
        if (Accept("GROUP"))
        {
            Expect("BY");
            groupBy = ExprList();
        }
        var having = Accept("HAVING") ? Expr() : null;
        List<SqlWindowDefinition> windows = [];
        if (IsContextKeyword(_ts.Index, "WINDOW"))
        {
            Next();
            do windows.Add(WindowDefinition()); while (Accept(SqlTokenKind.Comma));
        }
        return new SqlSelectCore(distinct, columns, from, where, groupBy, having, windows) { Start = start, End = PrevEnd };
    }

    /// <summary>The result columns of SELECT and RETURNING: "*", "table.*" or "expr [[AS] alias]".</summary>
    private List<SqlResultColumn> ResultColumns()
    {
        var columns = new List<SqlResultColumn>();
        do
        {
            var t = Peek();
            if (t.Kind == SqlTokenKind.Star)
            {
                Next();
                columns.Add(new SqlStarColumn(null) { Start = t.Start, End = t.End });
                continue;
            }
            // "table.*"; RAISE, CAST and CURRENT_* always start an expression here, as in SQLite.
            if (IsNm() && PeekKind(1) == SqlTokenKind.Dot && PeekKind(2) == SqlTokenKind.Star && !StartsExpressionKeyword())
            {
                string table = Name();
                Next();
                Next();
                columns.Add(new SqlStarColumn(table) { Start = t.Start, End = PrevEnd });
                continue;
            }
            var e = Expr();
            int end = PrevEnd;
            string? alias = AliasOpt();
            columns.Add(new SqlExprColumn(e, alias) { Start = t.Start, End = end });
        } while (Accept(SqlTokenKind.Comma));
        return columns;
    }

    private bool StartsExpressionKeyword()
        => Is("RAISE") || Is("CAST") || Is("CURRENT_TIME") || Is("CURRENT_DATE") || Is("CURRENT_TIMESTAMP");

    /// <summary>VALUES ( … ) [, ( … )]…; every row must have as many values as the first.</summary>
    private SqlValuesBody Values()
    {
        int start = Next().Start;
        var rows = new List<IReadOnlyList<SqlExpr>>();
        do
        {
            var rowStart = Expect(SqlTokenKind.LeftParen);
            var row = ExprList();
            Expect(SqlTokenKind.RightParen);
            if (rows.Count > 0 && row.Count != rows[0].Count)
            {
                RaiseAtReduce(Error("all VALUES must have the same number of terms", rowStart.Start), ",", "UNION", "INTERSECT", "EXCEPT", "ON", "RETURNING");
            }
            rows.Add(row);
        } while (Accept(SqlTokenKind.Comma));
        return new SqlValuesBody(rows) { Start = start, End = PrevEnd };
    }

    /// <summary>WITH [RECURSIVE] name [(columns)] AS [[NOT] MATERIALIZED] (select), ….</summary>
    private SqlWithClause With()
    {
        int start = Next().Start;
        bool recursive = Accept("RECURSIVE");
        var tables = new List<SqlCommonTableExpression>();
        do
        {
            var nameToken = Peek();
            string name = Name();
            List<string> columns = PeekKind() == SqlTokenKind.LeftParen ? ColumnNameList() : [];
            Expect("AS");
            var materialization = SqlMaterialization.Default;
            if (Accept("MATERIALIZED"))
            {
                materialization = SqlMaterialization.Materialized;
            }
            else if (Accept("NOT"))
            {
                Expect("MATERIALIZED");
                materialization = SqlMaterialization.NotMaterialized;
            }
            OpenParenthesis();
            var query = Select();
            CloseParenthesis();
            foreach (var other in tables)
            {
                if (SqlText.EqualsIgnoreCase(other.Name, name)) throw Error($"duplicate WITH table name: {name}", nameToken.Start);
            }
            tables.Add(new SqlCommonTableExpression(name, columns, materialization, query) { Start = nameToken.Start, End = PrevEnd });
        } while (Accept(SqlTokenKind.Comma));
        return new SqlWithClause(recursive, tables) { Start = start, End = PrevEnd };
    }

    // ---- FROM ---------------------------------------------------------------------------------------------------

    /// <summary>A FROM list: sources separated by commas or join operators, each optionally with ON or USING.</summary>
    private SqlJoinClause JoinClause()
    {
        Enter();
        int start = Peek().Start;
        var first = TableSource();
        var firstConstraint = Peek();
        var (on, usingColumns) = JoinConstraint();
        if (on is not null || usingColumns.Count > 0)
        {
            string which = on is not null ? "ON" : "USING";
            RaiseAtReduce(Error($"a JOIN clause is required before {which}", firstConstraint.Start),
                ",", "JOIN", "WHERE", "GROUP", "HAVING", "WINDOW", "ORDER", "LIMIT", "UNION", "INTERSECT", "EXCEPT", "RETURNING");
        }
        var joins = new List<SqlJoin>();
        while (true)
        {
            int joinStart = Peek().Start;
            SqlJoinKind kind;
            bool natural = false;
            if (Accept(SqlTokenKind.Comma)) kind = SqlJoinKind.Comma;
            else if (Accept("JOIN")) kind = SqlJoinKind.Inner;
            else if (_ts.WordClass(Peek()) == SqlWordClass.JoinKeyword) (kind, natural) = JoinOperator();
            else break;
            var source = TableSource();
            (on, usingColumns) = JoinConstraint();
            joins.Add(new SqlJoin(kind, natural, source, on, usingColumns) { Start = joinStart, End = PrevEnd });
        }
        Leave();
        return new SqlJoinClause(first, joins) { Start = start, End = PrevEnd };
    }

    private (SqlExpr? On, List<string> Using) JoinConstraint()
    {
        if (Accept("ON")) return (Expr(), []);
        if (Accept("USING")) return (null, ParenthesizedNames());
        return (null, []);
    }

    /// <summary>
    /// "kw [name [name]] JOIN" where the first word is NATURAL, LEFT, RIGHT, FULL, OUTER, INNER or CROSS. SQLite's
    /// grammar takes any names for the other two words and checks the combination afterwards.
    /// </summary>
    private (SqlJoinKind Kind, bool Natural) JoinOperator()
    {
        var words = new List<SqlToken> { Next() };
        while (!Is("JOIN"))
        {
            if (words.Count == 3 || !IsNm()) throw _ts.SyntaxError();
            words.Add(Next());
        }
        Next();

        bool natural = false, left = false, right = false, outer = false, inner = false, cross = false, unknown = false;
        foreach (var w in words)
        {
            // The raw text is compared, so a quoted "left" is not the keyword.
            var text = _ts.Text(w);
            if (SqlText.EqualsIgnoreCase(text, "NATURAL")) natural = true;
            else if (SqlText.EqualsIgnoreCase(text, "LEFT")) left = outer = true;
            else if (SqlText.EqualsIgnoreCase(text, "RIGHT")) right = outer = true;
            else if (SqlText.EqualsIgnoreCase(text, "FULL")) left = right = outer = true;
            else if (SqlText.EqualsIgnoreCase(text, "OUTER")) outer = true;
            else if (SqlText.EqualsIgnoreCase(text, "INNER")) inner = true;
            else if (SqlText.EqualsIgnoreCase(text, "CROSS")) inner = cross = true;
            else unknown = true;
        }
        if (unknown || (inner && outer) || (outer && !left && !right))
        {
            // SQLite checks the combination only once the source after JOIN starts.
            if (!IsNm() && PeekKind() != SqlTokenKind.LeftParen) throw _ts.SyntaxError();
            throw Error($"unknown join type: {string.Join(' ', words.Select(w => _ts.Text(w).ToString()))}", words[0].Start);
        }
        var kind = left && right ? SqlJoinKind.Full
            : left ? SqlJoinKind.Left
            : right ? SqlJoinKind.Right
            : cross ? SqlJoinKind.Cross
            : SqlJoinKind.Inner;
        return (kind, natural);
    }

    /// <summary>
    /// One FROM source: "[schema.]table [[AS] alias] [INDEXED BY i | NOT INDEXED]", "[schema.]function(args) [[AS] alias]",
    /// "(select) [[AS] alias]" or "(from-list) [[AS] alias]".
    /// </summary>
    private SqlTableSource TableSource()
    {
        int start = Peek().Start;
        if (PeekKind() == SqlTokenKind.LeftParen)
        {
            OpenParenthesis();
            if (StartsSelect())
            {
                var query = Select();
                CloseParenthesis();
                string? queryAlias = AliasOpt();
                return new SqlSubquerySource(query, queryAlias) { Start = start, End = PrevEnd };
            }
            var nested = JoinClause();
            CloseParenthesis();
            string? nestedAlias = AliasOpt();
            return new SqlNestedJoinSource(nested, nestedAlias) { Start = start, End = PrevEnd };
        }

        var (schema, name, _) = QualifiedName();
        if (PeekKind() == SqlTokenKind.LeftParen)
        {
            var args = ParenthesizedExprList();
            string? functionAlias = AliasOpt();
            return new SqlTableFunctionRef(schema, name, args, functionAlias) { Start = start, End = PrevEnd };
        }
        string? alias = AliasOpt();
        var (indexedBy, notIndexed) = IndexHint();
        return new SqlTableRef(schema, name, alias, indexedBy, notIndexed) { Start = start, End = PrevEnd };
    }

    /// <summary>INDEXED BY name or NOT INDEXED, when present.</summary>
    private (string? IndexedBy, bool NotIndexed) IndexHint()
    {
        if (Accept("INDEXED"))
        {
            Expect("BY");
            return (Name(), false);
        }
        if (Accept("NOT"))
        {
            Expect("INDEXED");
            return (null, true);
        }
        return (null, false);
    }

    // ---- windows ------------------------------------------------------------------------------------------------

    /// <summary>"name AS ( window )" in a WINDOW clause.</summary>
    private SqlWindowDefinition WindowDefinition()
    {
        int start = Peek().Start;
        string name = Name();
        Expect("AS");
        Expect(SqlTokenKind.LeftParen);
        var spec = WindowSpec();
        Expect(SqlTokenKind.RightParen);
        return new SqlWindowDefinition(name, spec) { Start = start, End = PrevEnd };
    }

    /// <summary>The inside of a window's parentheses: "[base] [PARTITION BY …] [ORDER BY …] [frame]".</summary>
    private SqlWindowSpec WindowSpec()
    {
        Enter();
        int start = Peek().Start;
        string? baseName = null;
        if (!Is("PARTITION") && !Is("ORDER") && !IsFrameUnit() && IsNm()) baseName = Name();
        List<SqlExpr> partitionBy = [];
        if (Accept("PARTITION"))
        {
            Expect("BY");
            partitionBy = ExprList();
        }
        List<SqlOrderingTerm> orderBy = [];
        if (Accept("ORDER"))
        {
            Expect("BY");
            orderBy = OrderingTerms();
        }
        var frame = IsFrameUnit() ? Frame() : null;
        Leave();
        return new SqlWindowSpec(baseName, partitionBy, orderBy, frame) { Start = start, End = PrevEnd };
    }

    private bool IsFrameUnit() => Is("ROWS") || Is("RANGE") || Is("GROUPS");

    private SqlFrameSpec Frame()
    {
        int start = Peek().Start;
        var unit = Accept("ROWS") ? SqlFrameUnit.Rows : Accept("RANGE") ? SqlFrameUnit.Range : Accept("GROUPS") ? SqlFrameUnit.Groups : throw _ts.SyntaxError();
        SqlFrameBound lower, upper;
        if (Accept("BETWEEN"))
        {
            lower = FrameBound(isStart: true);
            Expect("AND");
            upper = FrameBound(isStart: false);
        }
        else
        {
            lower = FrameBound(isStart: true);
            upper = new SqlFrameBound(SqlFrameBoundKind.CurrentRow, null) { Start = PrevEnd, End = PrevEnd };
        }
        var exclude = SqlFrameExclude.NoOthers;
        if (Accept("EXCLUDE"))
        {
            if (Accept("NO")) Expect("OTHERS");
            else if (Accept("CURRENT"))
            {
                Expect("ROW");
                exclude = SqlFrameExclude.CurrentRow;
            }
            else if (Accept("GROUP")) exclude = SqlFrameExclude.Group;
            else if (Accept("TIES")) exclude = SqlFrameExclude.Ties;
            else throw _ts.SyntaxError();
        }
        // SQLite refuses frames that would end before they start.
        if ((lower.Kind == SqlFrameBoundKind.CurrentRow && upper.Kind == SqlFrameBoundKind.Preceding)
            || (lower.Kind == SqlFrameBoundKind.Following && upper.Kind is SqlFrameBoundKind.Preceding or SqlFrameBoundKind.CurrentRow))
        {
            RaiseAtReduce(Error("unsupported frame specification", start));
        }
        return new SqlFrameSpec(unit, lower, upper, exclude) { Start = start, End = PrevEnd };
    }

    /// <summary>
    /// UNBOUNDED PRECEDING (start only), UNBOUNDED FOLLOWING (end only), CURRENT ROW, or "expr PRECEDING|FOLLOWING".
    /// </summary>
    private SqlFrameBound FrameBound(bool isStart)
    {
        int start = Peek().Start;
        if (Accept("UNBOUNDED"))
        {
            Expect(isStart ? "PRECEDING" : "FOLLOWING");
            var kind = isStart ? SqlFrameBoundKind.UnboundedPreceding : SqlFrameBoundKind.UnboundedFollowing;
            return new SqlFrameBound(kind, null) { Start = start, End = PrevEnd };
        }
        if (Accept("CURRENT"))
        {
            Expect("ROW");
            return new SqlFrameBound(SqlFrameBoundKind.CurrentRow, null) { Start = start, End = PrevEnd };
        }
        var offset = Expr();
        var boundKind = Accept("PRECEDING") ? SqlFrameBoundKind.Preceding
            : Accept("FOLLOWING") ? SqlFrameBoundKind.Following
            : throw _ts.SyntaxError();
        return new SqlFrameBound(boundKind, offset) { Start = start, End = PrevEnd };
    }
}
