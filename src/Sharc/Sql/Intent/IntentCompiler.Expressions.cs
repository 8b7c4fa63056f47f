using System.Globalization;
using Sharc.Format;
using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;
using Sharc.Sql.Functions;
using Sharc.Sql.Functions.Aggregates;
using Sharc.Sql.Values;

namespace Sharc.Sql.Intent;

internal sealed partial class IntentCompiler
{
    /// <summary>Compiles an expression of <paramref name="clause"/> of the level <paramref name="scope"/>.</summary>
    private IntentExpr Compile(SqlExpr e, Scope scope, Clause clause)
    {
        var saved = scope.Clause;
        scope.Clause = clause;
        try
        {
            return Expr(e, scope, clause);
        }
        finally
        {
            scope.Clause = saved;
        }
    }

    private IntentExpr Expr(SqlExpr e, Scope scope, Clause clause)
    {
        switch (e)
        {
            case SqlNullLiteral:
                return Literal(SqlValue.Null, e);
            case SqlIntegerLiteral i:
                return Literal(SqlValue.Integer(i.Value), e);
            case SqlRealLiteral r:
                return Literal(SqlValue.Real(r.Value), e);
            case SqlStringLiteral s:
                return Literal(SqlValue.Text(s.Value), e);
            case SqlBlobLiteral b:
                return Literal(SqlValue.OwnedBlob(b.Value.ToArray()), e);
            case SqlBoolLiteral b:
                return BoolLiteral(b, scope);
            case SqlCurrentTimeLiteral t:
                return new FunctionExpr(CurrentTime.For(t.Kind), [], Collation.Binary) { Offset = e.Start };
            case SqlParameterExpr p:
                return new ParameterExpr(p.Index - 1) { Offset = e.Start };
            case SqlColumnRef c:
                return ResolveColumn(c, scope, clause);
            case SqlUnaryExpr u:
                return Unary(u, scope, clause);
            case SqlBinaryExpr b:
                return Binary(b, scope, clause);
            case SqlCollateExpr c:
            {
                var operand = Expr(c.Operand, scope, clause);
                if (!CollationCompare.TryParse(c.Collation, out var coll))
                    throw Error($"no such collation sequence: {c.Collation}", c.Start);
                return new CollateExpr(operand, coll) { Affinity = operand.Affinity, HasCollate = true, Offset = e.Start };
            }
            case SqlCastExpr c:
            {
                var operand = Expr(c.Operand, scope, clause);
                var target = SqlAffinities.FromTypeName(c.TypeName);
                return new CastExpr(operand, target) { Affinity = target, HasCollate = operand.HasCollate, Offset = e.Start };
            }
            case SqlLikeExpr l:
                return Like(l, scope, clause);
            case SqlBetweenExpr b when IsRowOperand(b.Operand) || IsRowOperand(b.Low) || IsRowOperand(b.High):
                return RowBetween(b, scope, clause);
            case SqlBetweenExpr b:
            {
                var x = Expr(b.Operand, scope, clause);
                var lo = Expr(b.Low, scope, clause);
                var hi = Expr(b.High, scope, clause);
                return new BetweenExpr(b.Not, x, lo, hi,
                    SqlAffinities.ForComparison(x.Affinity, lo.Affinity), CollationRules.ForComparison(x, lo),
                    SqlAffinities.ForComparison(x.Affinity, hi.Affinity), CollationRules.ForComparison(x, hi))
                { HasCollate = x.HasCollate || lo.HasCollate || hi.HasCollate, Offset = e.Start };
            }
            case SqlNullTestExpr n:
            {
                var x = Expr(n.Operand, scope, clause);
                return new NullTestExpr(n.Not, x) { HasCollate = x.HasCollate, Offset = e.Start };
            }
            case SqlInListExpr i when i.Operand is SqlRowValueExpr || (i.Operand is SqlSubqueryExpr && i.Items.Count > 0 && i.Items[0] is SqlRowValueExpr):
                return RowInList(i, scope, clause);
            case SqlInListExpr i:
            {
                var x = Expr(i.Operand, scope, clause);
                var items = new IntentExpr[i.Items.Count];
                bool collate = x.HasCollate;
                for (int k = 0; k < items.Length; k++)
                {
                    items[k] = Expr(i.Items[k], scope, clause);
                    collate |= items[k].HasCollate;
                }
                return new InListExpr(i.Not, x, items, x.Affinity, CollationRules.Of(x) ?? Collation.Binary) { HasCollate = collate, Offset = e.Start };
            }
            case SqlInSelectExpr i when IsRowOperand(i.Operand):
                return RowIn(i.Not, i.Operand, i.Query, scope, clause, i.Start);
            case SqlInSelectExpr i:
            {
                var x = Expr(i.Operand, scope, clause);
                var q = CompileSubquery(i.Query, scope, i.Start);
                return new InSubqueryExpr(i.Not, x, q, SqlAffinities.ForComparison(x.Affinity, ValueAffinity(q)), InCollation(x, q))
                { HasCollate = x.HasCollate, Offset = e.Start };
            }
            case SqlInTableExpr i:
            {
                // x IN t is x IN (SELECT * FROM t), and t must have one column; so is x IN tvf(args).
                var x = Expr(i.Operand, scope, clause);
                SqlTableSource table = i.Arguments is { } arguments
                    ? new SqlTableFunctionRef(i.Schema, i.Name, arguments, null) { Start = i.Start, End = i.End }
                    : new SqlTableRef(i.Schema, i.Name, null, null, false) { Start = i.Start, End = i.End };
                var core = new SqlSelectCore(false, [new SqlStarColumn(null) { Start = i.Start, End = i.End }],
                    new SqlJoinClause(table, []) { Start = i.Start, End = i.End }, null, [], null, []) { Start = i.Start, End = i.End };
                var q = CompileSubquery(new SqlSelect(null, core, [], null, null) { Start = i.Start, End = i.End }, scope, i.Start);
                return new InSubqueryExpr(i.Not, x, q, SqlAffinities.ForComparison(x.Affinity, q.Projections[0].Expr.Affinity), InCollation(x, q))
                { HasCollate = x.HasCollate, Offset = e.Start };
            }
            case SqlCaseExpr c:
                return Case(c, scope, clause);
            case SqlExistsExpr x:
                return new ExistsExpr(CompileSelect(x.Query, scope)) { Offset = e.Start };
            case SqlSubqueryExpr s:
            {
                var q = CompileSubquery(s.Query, scope, s.Start);
                return new ScalarSubqueryExpr(q) { Affinity = ValueAffinity(q), Offset = e.Start };
            }
            case SqlRowValueExpr r:
                throw Error("row value misused", r.Start);
            case SqlRowElementExpr el:
            {
                // Each assigned column reads the subquery on its own: the same row unless the subquery is not
                // deterministic.
                var q = CompileSelect(el.Query, scope);
                if (q.VisibleCount != el.Width)
                    throw Error(string.Create(CultureInfo.InvariantCulture, $"{el.Width} columns assigned {q.VisibleCount} values"), el.Start);
                return new ScalarSubqueryExpr(q) { Column = el.Column, Affinity = ColumnValueExpr(q, el.Column).Affinity, Offset = e.Start };
            }
            case SqlFunctionExpr f:
                return Function(f, scope, clause);
            case SqlRaiseExpr r:
                return Raise(r, scope, clause);
            default:
                return Unsupported.Throw<IntentExpr>($"the expression {e.GetType().Name}", _sql, e.Start);
        }
    }

    /// <summary>
    /// SQLite's sqlite3CodeRhsOfIN keys the right side's set with sqlite3BinaryCompareCollSeq(left, value), where the
    /// value is the subquery's result expression — of the last arm when it is a compound: an explicit COLLATE on the
    /// left wins, then one on that expression, then the left's own collation (a column always has one), then the
    /// expression's.
    /// </summary>
    private static Collation InCollation(IntentExpr left, QueryIntent q)
    {
        var value = ValueExpr(q);
        if (left.HasCollate) return CollationRules.Of(left) ?? Collation.Binary;
        if (value.HasCollate) return CollationRules.Of(value) ?? Collation.Binary;
        return CollationRules.Of(left) ?? CollationRules.Of(value) ?? Collation.Binary;
    }

    private static LiteralExpr Literal(SqlValue v, SqlExpr at) => new(v) { Offset = at.Start };

    /// <summary>A subquery used as a value: it must return exactly one column.</summary>
    private QueryIntent CompileSubquery(SqlSelect select, Scope scope, int offset)
    {
        var q = CompileSelect(select, scope);
        if (q.VisibleCount != 1)
            throw Error(string.Create(CultureInfo.InvariantCulture, $"sub-select returns {q.VisibleCount} columns - expected 1"), offset);
        return q;
    }

    private IntentExpr BoolLiteral(SqlBoolLiteral b, Scope scope)
    {
        // TRUE and FALSE are names first: a column called "true" or "false" wins.
        string word = b.Value ? "true" : "false";
        for (var s = scope; s is not null; s = s.Parent)
        {
            if (s.Source is null) continue;
            for (int i = 0; i < s.Source.Columns.Count; i++)
                if (SqlNameComparer.Instance.Equals(s.Source.Columns[i].Name, word))
                    return new ColumnExpr(s.Frame, i, s.Source.Columns[i]) { Affinity = s.Source.Columns[i].Affinity, Offset = b.Start };
        }
        return Literal(SqlValue.Boolean(b.Value), b);
    }

    private IntentExpr Unary(SqlUnaryExpr u, Scope scope, Clause clause)
    {
        if (u.Operator == SqlUnaryOperator.Negate && u.Operand is SqlRealLiteral { IsInt64MinMagnitude: true })
            return Literal(SqlValue.Integer(long.MinValue), u);
        var operand = Expr(u.Operand, scope, clause);
        var op = u.Operator switch
        {
            SqlUnaryOperator.Negate => IntentUnaryOp.Negate,
            SqlUnaryOperator.Plus => IntentUnaryOp.Plus,
            SqlUnaryOperator.BitNot => IntentUnaryOp.BitNot,
            _ => IntentUnaryOp.Not,
        };
        return new UnaryExpr(op, operand) { HasCollate = operand.HasCollate, Offset = u.Start };
    }

    private IntentExpr Binary(SqlBinaryExpr b, Scope scope, Clause clause)
    {
        if (b.Operator is SqlBinaryOperator.JsonExtract or SqlBinaryOperator.JsonExtractValue)
            return JsonArrow(b, scope, clause);
        if (b.Operator is SqlBinaryOperator.Less or SqlBinaryOperator.LessOrEqual or SqlBinaryOperator.Greater or SqlBinaryOperator.GreaterOrEqual
                or SqlBinaryOperator.Equal or SqlBinaryOperator.NotEqual or SqlBinaryOperator.Is or SqlBinaryOperator.IsNot
            && (IsRowOperand(b.Left) || IsRowOperand(b.Right)))
            return RowCompare(b, scope, clause);
        var l = Expr(b.Left, scope, clause);
        var r = Expr(b.Right, scope, clause);
        bool collate = l.HasCollate || r.HasCollate;
        if (b.Operator is SqlBinaryOperator.Is or SqlBinaryOperator.IsNot && b.Right is SqlBoolLiteral truth && r is LiteralExpr)
            return new IsTruthExpr(l, truth.Value, b.Operator == SqlBinaryOperator.IsNot) { HasCollate = l.HasCollate, Offset = b.Start };
        switch (b.Operator)
        {
            case SqlBinaryOperator.And:
            case SqlBinaryOperator.Or:
                return new LogicExpr(b.Operator == SqlBinaryOperator.And, l, r) { HasCollate = collate, Offset = b.Start };
            case SqlBinaryOperator.Less:
            case SqlBinaryOperator.LessOrEqual:
            case SqlBinaryOperator.Greater:
            case SqlBinaryOperator.GreaterOrEqual:
            case SqlBinaryOperator.Equal:
            case SqlBinaryOperator.NotEqual:
            case SqlBinaryOperator.Is:
            case SqlBinaryOperator.IsNot:
            {
                var op = b.Operator switch
                {
                    SqlBinaryOperator.Less => IntentCompareOp.Lt,
                    SqlBinaryOperator.LessOrEqual => IntentCompareOp.Le,
                    SqlBinaryOperator.Greater => IntentCompareOp.Gt,
                    SqlBinaryOperator.GreaterOrEqual => IntentCompareOp.Ge,
                    SqlBinaryOperator.Equal => IntentCompareOp.Eq,
                    SqlBinaryOperator.NotEqual => IntentCompareOp.Ne,
                    SqlBinaryOperator.Is => IntentCompareOp.Is,
                    _ => IntentCompareOp.IsNot,
                };
                return new CompareExpr(op, l, r, SqlAffinities.ForComparison(l.Affinity, r.Affinity), CollationRules.ForComparison(l, r))
                { HasCollate = collate, Offset = b.Start };
            }
            default:
            {
                var op = b.Operator switch
                {
                    SqlBinaryOperator.Concat => IntentArithmeticOp.Concat,
                    SqlBinaryOperator.Multiply => IntentArithmeticOp.Multiply,
                    SqlBinaryOperator.Divide => IntentArithmeticOp.Divide,
                    SqlBinaryOperator.Remainder => IntentArithmeticOp.Remainder,
                    SqlBinaryOperator.Add => IntentArithmeticOp.Add,
                    SqlBinaryOperator.Subtract => IntentArithmeticOp.Subtract,
                    SqlBinaryOperator.BitAnd => IntentArithmeticOp.BitAnd,
                    SqlBinaryOperator.BitOr => IntentArithmeticOp.BitOr,
                    SqlBinaryOperator.ShiftLeft => IntentArithmeticOp.ShiftLeft,
                    _ => IntentArithmeticOp.ShiftRight,
                };
                return new ArithmeticExpr(op, l, r) { HasCollate = collate, Offset = b.Start };
            }
        }
    }

    private IntentExpr Like(SqlLikeExpr l, Scope scope, Clause clause)
    {
        if (UserLike(l, scope, clause) is { } user) return user;
        if (l.Operator is SqlLikeOperator.Regexp or SqlLikeOperator.Match)
            throw Error(l.Operator == SqlLikeOperator.Regexp ? "no such function: REGEXP" : "unable to use function MATCH in the requested context", l.Start);
        var x = Expr(l.Operand, scope, clause);
        var p = Expr(l.Pattern, scope, clause);
        var esc = l.Escape is null ? null : Expr(l.Escape, scope, clause);
        if (esc is not null && l.Operator == SqlLikeOperator.Glob)
            throw Error("wrong number of arguments to function glob()", l.Start);
        return new LikeExpr(l.Operator == SqlLikeOperator.Glob, l.Not, x, p, esc)
        { HasCollate = x.HasCollate || p.HasCollate || (esc?.HasCollate ?? false), Offset = l.Start };
    }

    private IntentExpr Case(SqlCaseExpr c, Scope scope, Clause clause)
    {
        if (c.Operand is SqlRowValueExpr row)
        {
            // Compared with a scalar WHEN the row value is misused, as SQLite says; row-valued WHENs are not compiled.
            if (c.Whens.Any(w => w.When is not SqlRowValueExpr r || r.Items.Count != row.Items.Count)) throw Error("row value misused", row.Start);
            Unsupported.Throw("a row value as a CASE operand", _sql, row.Start);
        }
        var operand = c.Operand is null ? null : Expr(c.Operand, scope, clause);
        bool collate = operand?.HasCollate ?? false;
        var arms = new CaseArm[c.Whens.Count];
        for (int i = 0; i < arms.Length; i++)
        {
            var when = Expr(c.Whens[i].When, scope, clause);
            var then = Expr(c.Whens[i].Then, scope, clause);
            collate |= when.HasCollate || then.HasCollate;
            arms[i] = operand is null
                ? new CaseArm(when, then, SqlAffinity.None, Collation.Binary)
                : new CaseArm(when, then, SqlAffinities.ForComparison(operand.Affinity, when.Affinity), CollationRules.ForComparison(operand, when));
        }
        var otherwise = c.Else is null ? null : Expr(c.Else, scope, clause);
        collate |= otherwise?.HasCollate ?? false;
        return new CaseExpr(operand, arms, otherwise) { HasCollate = collate, Offset = c.Start };
    }

    // ---- names -----------------------------------------------------------------------------------------------

    /// <summary>
    /// Resolves a column reference level by level, innermost first: at each level the source's columns (and the
    /// rowid), then — in WHERE, GROUP BY, HAVING and ORDER BY — the result aliases. A double-quoted name that
    /// resolves to nothing is a string, as in SQLite.
    /// </summary>
    private IntentExpr ResolveColumn(SqlColumnRef c, Scope scope, Clause clause)
    {
        if (c.Schema is not null && !SqlText.EqualsIgnoreCase(c.Schema, "main") && _otherSchemas is null)
            throw Error($"no such column: {c.Schema}.{c.Table}.{c.Name}", c.Start);
        for (var s = scope; s is not null; s = s.Parent)
        {
            var source = s.Source;
            if (source is JoinSource join && ResolveJoinColumn(c, s, join) is { } joined) return joined;
            if (source is not null and not JoinSource && (c.Table is null ? !s.QualifiedOnly : SqlNameComparer.Instance.Equals(c.Table, source.Name))
                && (c.Schema is null || InSchema(source, c.Schema)))
            {
                for (int i = 0; i < source.Columns.Count; i++)
                {
                    var col = source.Columns[i];
                    if (!SqlNameComparer.Instance.Equals(col.Name, c.Name)) continue;
                    return ColumnReference(s, i, c.Start);
                }
                if (source is TableSource { RowIdName: not null } && IsRowIdName(c.Name))
                    return new ColumnExpr(s.Frame, SourceColumn.RowId, RowIdColumn) { Affinity = SqlAffinity.Integer, Offset = c.Start };
            }
            var here = ReferenceEquals(s, scope) ? clause : s.Clause;
            if (c.Table is null && s.Results is not null && here is Clause.Where or Clause.GroupBy or Clause.Having or Clause.OrderBy)
            {
                foreach (var r in s.Results)
                {
                    if (r.Alias is null || !SqlNameComparer.Instance.Equals(r.Alias, c.Name)) continue;
                    if (here is Clause.Where or Clause.GroupBy && ContainsAggregateCall(r.Expr))
                        throw Error($"misuse of aliased aggregate {c.Name}", c.Start);
                    return r.Expr;
                }
            }
        }
        if (ResolveTriggerColumn(c) is { } triggerColumn) return triggerColumn;
        if (c.Table is null && c.DoubleQuoted) return new LiteralExpr(SqlValue.Text(c.Name)) { Offset = c.Start };
        string written = c.Table is null ? c.Name : c.Schema is null ? $"{c.Table}.{c.Name}" : $"{c.Schema}.{c.Table}.{c.Name}";
        throw Error($"no such column: {written}", c.Start);
    }

    /// <summary>
    /// A reference to column <paramref name="index"/> of <paramref name="scope"/>'s source: the stored column, or for
    /// a VIRTUAL generated column its expression, compiled over the same row.
    /// </summary>
    private IntentExpr ColumnReference(Scope scope, int index, int offset)
    {
        var col = scope.Source!.Columns[index];
        if (col.UnknownCollation is not null) throw Error($"no such collation sequence: {col.UnknownCollation}", offset);
        if (col.TableColumn is not { Generated: SharcGeneratedKind.Virtual, GeneratedSql: { } text } || scope.Source is not TableSource)
            return new ColumnExpr(scope.Frame, index, col) { Affinity = col.Affinity, Offset = offset };

        foreach (var v in _expanding)
            if (ReferenceEquals(v, text)) throw Error($"generated column loop on \"{col.Name}\"", offset);
        SqlExpr parsed;
        try
        {
            parsed = Parsing.SqlParser.ParseExpression(text);
        }
        catch (SharcSqlException e)
        {
            throw Error($"malformed generated column {col.Name}: {e.SqliteMessage}", offset);
        }
        string outerSql = _sql;
        _sql = text;
        _expanding.Add(text);
        try
        {
            // The expression sees the columns of its own row and nothing else.
            var own = new Scope(null, scope.Frame, scope.Source, isAggregate: false);
            var value = Compile(parsed, own, Clause.Other);
            return new GeneratedColumnExpr(value, col) { Affinity = col.Affinity, Offset = offset };
        }
        finally
        {
            _sql = outerSql;
            _expanding.RemoveAt(_expanding.Count - 1);
        }
    }

    private static bool IsRowIdName(string name)
    {
        foreach (var n in RowIdNames)
            if (SqlNameComparer.Instance.Equals(n, name)) return true;
        return false;
    }

    private static bool ContainsAggregateCall(IntentExpr e)
    {
        bool found = false;
        IntentRewriter.Visit(e, x => found |= x is AggregateCallExpr);
        return found;
    }

    // ---- functions -------------------------------------------------------------------------------------------

    private IntentExpr Function(SqlFunctionExpr f, Scope scope, Clause clause)
    {
        int argc = f.Star ? 0 : f.Arguments.Count;
        if (f.IsWindowCall) return WindowCall(f, scope, clause);
        if (IsWindowOnly(f.Name)) throw Error($"misuse of window function {f.Name}()", f.Start);
        if (AggregateFunctions.IsAggregate(f.Name, argc) && !IsUserScalar(f.Name, argc)) return Aggregate(f, argc, scope, clause);

        if (UserFunctionRegistry.Current is { IsEmpty: false } user && UserFunction(f, argc, user, scope, clause) is { } registered) return registered;
        if (f.Filter is not null) throw Error($"FILTER may not be used with non-aggregate {f.Name}()", f.Start);
        if (f.OrderBy.Count > 0) throw Error($"ORDER BY may not be used with non-aggregate {f.Name}()", f.Start);
        if (f.Star && !ScalarFunctions.Exists(f.Name) && !AggregateFunctions.Exists(f.Name))
            throw Error($"no such function: {f.Name}", f.Start);
        if (!ScalarFunctions.TryGet(f.Name, argc, out var function))
        {
            if (ScalarFunctions.Exists(f.Name) || AggregateFunctions.Exists(f.Name))
                throw Error($"wrong number of arguments to function {f.Name}()", f.Start);
            throw Error($"no such function: {f.Name}", f.Start);
        }

        var args = new IntentExpr[argc];
        bool collate = false;
        for (int i = 0; i < argc; i++)
        {
            args[i] = Expr(f.Arguments[i], scope, clause);
            collate |= args[i].HasCollate;
        }

        switch (function.Name)
        {
            case "coalesce" or "ifnull":
                // SQLite stops at the first argument that is not NULL: later ones are never evaluated.
                return new CoalesceExpr(args) { HasCollate = collate, Offset = f.Start };
            case "iif" or "if":
            {
                var arms = new List<CaseArm>();
                int i = 0;
                for (; i + 1 < args.Length; i += 2) arms.Add(new CaseArm(args[i], args[i + 1], SqlAffinity.None, Collation.Binary));
                return new CaseExpr(null, arms, i < args.Length ? args[i] : null) { HasCollate = collate, Offset = f.Start };
            }
        }

        var coll = Collation.Binary;
        if (function.UsesCollation)
        {
            foreach (var a in args)
            {
                if (CollationRules.Of(a) is { } c)
                {
                    coll = c;
                    break;
                }
            }
        }
        return new FunctionExpr(function, args, coll) { HasCollate = collate, Offset = f.Start };
    }

    private IntentExpr Aggregate(SqlFunctionExpr f, int argc, Scope scope, Clause clause)
    {
        switch (clause)
        {
            case Clause.AggregateArguments or Clause.Other:
                throw Error($"misuse of aggregate function {f.Name}()", f.Start);
            case Clause.GroupBy:
                throw Error("aggregate functions are not allowed in the GROUP BY clause", f.Start);
            case Clause.Where:
                throw Error(scope.IsAggregate ? $"misuse of aggregate: {f.Name}()" : $"misuse of aggregate function {f.Name}()", f.Start);
            case Clause.OrderBy when !scope.IsAggregate:
                throw Error($"misuse of aggregate: {f.Name}()", f.Start);
        }
        if (f.OrderBy.Count > 0) Unsupported.Throw("ORDER BY inside an aggregate call", _sql, f.OrderBy[0].Start);
        var user = UserAggregate(f.Name, argc);
        try
        {
            if (user is null) AggregateFunctions.Create(f.Name, argc, f.Distinct);
            else if (f.Distinct && argc != 1) SqlErrors.Throw("DISTINCT aggregates must have exactly one argument");
        }
        catch (SqlRuntimeException e)
        {
            throw Error(e.Message, f.Start);
        }

        var args = new IntentExpr[argc];
        for (int i = 0; i < argc; i++) args[i] = Expr(f.Arguments[i], scope, Clause.AggregateArguments);
        var filter = f.Filter is null ? null : Expr(f.Filter, scope, Clause.AggregateArguments);

        // An aggregate belongs to the level whose columns it reads; one that reads only enclosing levels' columns
        // belongs to an outer query, which this engine does not do.
        bool own = false, outer = false;
        int outerFrame = -1;
        foreach (var a in args)
        {
            IntentRewriter.Visit(a, x =>
            {
                if (x is ColumnExpr col)
                {
                    if (col.Frame == scope.Frame) own = true;
                    else if (col.Frame < scope.Frame) (outer, outerFrame) = (true, Math.Max(outerFrame, col.Frame));
                }
            });
        }
        if (outer && !own)
        {
            // The enclosing level that owns it cannot hold an aggregate in WHERE, or in ORDER BY unless it aggregates
            // anyway: SQLite's misuse, whichever level the call sits in.
            var owner = scope.Parent;
            while (owner is not null && owner.Frame != outerFrame) owner = owner.Parent;
            if (owner is { Clause: Clause.Where } || owner is { Clause: Clause.OrderBy, IsAggregate: false })
                throw Error($"misuse of aggregate: {f.Name}()", f.Start);
            Unsupported.Throw("aggregates over the columns of an enclosing query", _sql, f.Start);
        }

        var coll = Collation.Binary;
        foreach (var a in args)
        {
            if (CollationRules.Of(a) is { } c)
            {
                coll = c;
                break;
            }
        }
        return new AggregateCallExpr(f.Name, args, f.Distinct, coll, filter) { Offset = f.Start, UserFactory = user };
    }
}
