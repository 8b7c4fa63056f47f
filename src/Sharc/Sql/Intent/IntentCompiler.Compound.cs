using System.Globalization;
using Sharc.Format;
using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using Sharc.Sql.Values;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Intent;

internal sealed partial class IntentCompiler
{
    /// <summary>
    /// A query whose body is a compound or a VALUES list (its WITH clause already in scope). A compound becomes a
    /// level over a <see cref="CompoundSource"/> that projects the compound's columns and carries its ORDER BY and
    /// LIMIT; a one-row VALUES is the SELECT of its values; a longer one a level over a <see cref="ValuesSource"/>.
    /// </summary>
    private QueryIntent CompileCompound(SqlSelect select, Scope? parent)
    {
        if (select.Body is SqlValuesBody { Rows.Count: 1 } single)
            return CompileSelect(select with { Body = ValuesAsSelect(single) }, parent);

        int frame = _nextFrame++;
        IntentSource source;
        List<SqlQueryBody> bodies = [];
        if (select.Body is SqlValuesBody values)
        {
            source = CompileValues(values, parent);
        }
        else
        {
            var compound = (SqlCompoundSelect)select.Body;
            var (arms, operators) = CompileArms(compound, parent, bodies);
            source = new CompoundSource(arms, operators, CompoundCollations(arms), "", CompoundColumns(arms));
        }

        var ordering = CompileCompoundOrderBy(select.OrderBy, source is CompoundSource cs ? cs.Collations : [], source is CompoundSource ca ? ca.Arms : [], bodies, parent);
        // SQLite's convertCompoundSelectToSubquery: when a set operator meets an ORDER BY term with an explicit
        // COLLATE, the compound becomes a subquery, run unordered and read (with its columns' affinities) by a SELECT
        // that sorts; otherwise its arms are merged in order.
        if (source is CompoundSource c)
        {
            source = HasExplicitCollate(select.OrderBy) && c.Operators.Any(o => o != SqlCompoundOperator.UnionAll)
                ? c with { ReadAsSubquery = true }
                : c with { Ordering = ordering };
        }

        var projections = new List<ProjectionIntent>(source.Columns.Count);
        for (int i = 0; i < source.Columns.Count; i++)
        {
            var col = source.Columns[i];
            projections.Add(new ProjectionIntent(new ColumnExpr(frame, i, col) { Affinity = col.Affinity }, col.Name, col.Collation, col.TableColumn));
        }
        var limitScope = new Scope(null, frame, null, false);
        var limit = select.Limit is null ? null : Compile(select.Limit, limitScope, Clause.Other);
        var offset = select.Offset is null ? null : Compile(select.Offset, limitScope, Clause.Other);
        return new QueryIntent(frame, source, projections, projections.Count, null, null, null, ordering, limit, offset, false);
    }

    /// <summary>Compiles every arm of a compound, checking that they agree on the number of columns.</summary>
    private (List<QueryIntent> Arms, List<SqlCompoundOperator> Operators) CompileArms(SqlCompoundSelect compound, Scope? parent, List<SqlQueryBody> bodies)
    {
        var arms = new List<QueryIntent> { CompileArm(compound.First, parent) };
        bodies.Add(compound.First);
        var operators = new List<SqlCompoundOperator>(compound.Terms.Count);
        foreach (var term in compound.Terms)
        {
            var arm = CompileArm(term.Body, parent);
            // SQLite's parser checks a one-row VALUES after a compound operator against the rows before it, so a width
            // mismatch there is a VALUES error.
            if (arm.VisibleCount != arms[0].VisibleCount && term.Body is SqlValuesBody { Rows.Count: 1 })
                throw Error("all VALUES must have the same number of terms", term.Body.Start);
            CheckWidth(arm, arms[0], term);
            arms.Add(arm);
            bodies.Add(term.Body);
            operators.Add(term.Operator);
        }
        return (arms, operators);
    }

    private QueryIntent CompileArm(SqlQueryBody body, Scope? parent)
        => CompileSelect(new SqlSelect(null, body, [], null, null) { Start = body.Start, End = body.End }, parent);

    internal static string OperatorName(SqlCompoundOperator op) => op switch
    {
        SqlCompoundOperator.Union => "UNION",
        SqlCompoundOperator.UnionAll => "UNION ALL",
        SqlCompoundOperator.Intersect => "INTERSECT",
        _ => "EXCEPT",
    };

    /// <summary>SQLite runs a one-row VALUES as SELECT of its values, its columns named column1, column2, ….</summary>
    private static SqlSelectCore ValuesAsSelect(SqlValuesBody values)
    {
        var row = values.Rows[0];
        var columns = new List<SqlResultColumn>(row.Count);
        for (int i = 0; i < row.Count; i++)
            columns.Add(new SqlExprColumn(row[i], ValuesColumnName(i)) { Start = row[i].Start, End = row[i].End });
        return new SqlSelectCore(false, columns, null, null, [], null, []) { Start = values.Start, End = values.End };
    }

    private static string ValuesColumnName(int i) => "column" + (i + 1).ToString(CultureInfo.InvariantCulture);

    private ValuesSource CompileValues(SqlValuesBody values, Scope? parent)
    {
        // The values see the enclosing levels (a VALUES in a subquery may be correlated) but no source of their own.
        var scope = new Scope(parent, _nextFrame++, null, isAggregate: false);
        var rows = new List<IReadOnlyList<IntentExpr>>(values.Rows.Count);
        foreach (var row in values.Rows)
        {
            var compiled = new IntentExpr[row.Count];
            for (int i = 0; i < compiled.Length; i++) compiled[i] = Compile(row[i], scope, Clause.Other);
            rows.Add(compiled);
        }
        int width = rows[0].Count;
        var columns = new List<SourceColumn>(width);
        var exprs = new IntentExpr[rows.Count];
        for (int i = 0; i < width; i++)
        {
            Collation? collation = null;
            for (int r = 0; r < rows.Count; r++)
            {
                exprs[r] = rows[r][i];
                collation ??= CollationRules.Of(exprs[r]);
            }
            columns.Add(new SourceColumn(ValuesColumnName(i), CompoundAffinity(exprs), collation ?? Collation.Binary, "", false, null));
        }
        return new ValuesSource(rows, "", columns);
    }

    // ---- the compound's columns ------------------------------------------------------------------------------

    /// <summary>
    /// SQLite's multiSelectCollSeq: a compound column's collation is that of the leftmost arm whose column has one
    /// (a column, or an explicit COLLATE; a multi-row VALUES arm runs as a subquery, whose columns are BINARY at
    /// least), else BINARY.
    /// </summary>
    private static Collation[] CompoundCollations(List<QueryIntent> arms)
    {
        var collations = new Collation[arms[0].VisibleCount];
        for (int i = 0; i < collations.Length; i++)
        {
            Collation? found = null;
            for (int a = 0; a < arms.Count && found is null; a++) found = CollationRules.Of(arms[a].Projections[i].Expr);
            collations[i] = found ?? Collation.Binary;
        }
        return collations;
    }

    private static List<SourceColumn> CompoundColumns(List<QueryIntent> arms)
    {
        var first = arms[0];
        var columns = new List<SourceColumn>(first.VisibleCount);
        var exprs = new IntentExpr[arms.Count];
        for (int i = 0; i < first.VisibleCount; i++)
        {
            for (int a = 0; a < arms.Count; a++) exprs[a] = arms[a].Projections[i].Expr;
            var p = first.Projections[i];
            // Read from outside (a subquery, view or CTE in FROM) the column compares with the first arm's collation,
            // as SQLite's sqlite3SubqueryColumnTypes gives it; the compound's own collation only decides duplicates and
            // its ORDER BY.
            var outside = CollationRules.Of(p.Expr) ?? Collation.Binary;
            columns.Add(new SourceColumn(p.Name, CompoundAffinity(exprs), outside, p.TableColumn?.DeclaredType ?? "", false, p.TableColumn));
        }
        return columns;
    }

    /// <summary>
    /// The affinity SQLite gives a column of a compound used as a table (a subquery, view or CTE in FROM): the first
    /// arm's expression, left to right, that has an affinity; but a TEXT column that another arm may fill with a
    /// number, or a numeric one that another arm may fill with text, has none (BLOB) — so comparisons do not convert
    /// values the other arms produced.
    /// </summary>
    private static SqlAffinity CompoundAffinity(IReadOnlyList<IntentExpr> arms, RecursiveColumnTypes? table = null)
    {
        int mask = 0, chosen = -1;
        for (int a = 0; a < arms.Count; a++)
        {
            if (AffinityOf(arms[a], table) != SqlAffinity.None)
            {
                chosen = a;
                break;
            }
            mask |= DataTypes(arms[a], table);
        }
        if (chosen < 0) return SqlAffinity.None;
        var affinity = AffinityOf(arms[chosen], table);
        table?.Choose(affinity);
        if (affinity < SqlAffinity.Text || arms.Count == 1) return affinity;
        for (int a = chosen + 1; a < arms.Count; a++) mask |= DataTypes(arms[a], table);
        if (affinity == SqlAffinity.Text && (mask & NumericData) != 0) return SqlAffinity.Blob;
        if (SqlAffinities.IsNumeric(affinity) && (mask & TextData) != 0) return SqlAffinity.Blob;
        // SQLite's FLEXNUM: a numeric column whose first arm is a CAST converts text to numbers but leaves the
        // numbers the other arms produce as they are (no REAL conversion of integers).
        if (SqlAffinities.IsNumeric(affinity) && Uncollated(arms[0]) is CastExpr) return SqlAffinity.Numeric;
        return affinity;
    }

    private static SqlAffinity AffinityOf(IntentExpr e, RecursiveColumnTypes? table)
        => table?.AffinityOf(Uncollated(e)) ?? e.Affinity;

    /// <summary>
    /// The columns of a recursive CTE while SQLite's sqlite3SubqueryColumnTypes types them, left to right: the
    /// recursive SELECTs read the table being typed, so a read of a column already typed sees its affinity, the column
    /// being typed sees the affinity chosen for it so far, and a later column has none yet.
    /// </summary>
    private sealed class RecursiveColumnTypes(IReadOnlyList<SourceColumn> columns)
    {
        private readonly SqlAffinity[] _typed = new SqlAffinity[columns.Count];
        private int _current;

        public SqlAffinity Type(int column, IReadOnlyList<IntentExpr> arms)
        {
            _current = column;
            _typed[column] = SqlAffinity.None;
            _typed[column] = CompoundAffinity(arms, this);
            return _typed[column];
        }

        public void Choose(SqlAffinity affinity) => _typed[_current] = affinity;

        public SqlAffinity? AffinityOf(IntentExpr e)
        {
            if (e is not ColumnExpr c || c.Column < 0 || c.Column >= columns.Count || !ReferenceEquals(columns[c.Column], c.Meta)) return null;
            return c.Column <= _current ? _typed[c.Column] : SqlAffinity.None;
        }
    }

    private static IntentExpr Uncollated(IntentExpr e)
    {
        while (e is CollateExpr k) e = k.Operand;
        return e;
    }

    private const int NumericData = 1, TextData = 2, BlobData = 4, AnyData = 7;

    /// <summary>The storage classes an expression may produce, as far as SQLite's sqlite3ExprDataType can tell.</summary>
    private static int DataTypes(IntentExpr e, RecursiveColumnTypes? table = null)
    {
        while (true)
        {
            switch (e)
            {
                case CollateExpr k:
                    e = k.Operand;
                    continue;
                case UnaryExpr { Op: IntentUnaryOp.Plus } u:
                    e = u.Operand;
                    continue;
                case LiteralExpr l:
                    return l.Value.Type switch
                    {
                        SharcColumnType.Null => 0,
                        SharcColumnType.Text => TextData,
                        SharcColumnType.Blob => BlobData,
                        _ => NumericData,
                    };
                case ArithmeticExpr { Op: IntentArithmeticOp.Concat }:
                    return TextData | BlobData;
                case AggregateSlotExpr { Key: { } key }:
                    e = key;
                    continue;
                case ParameterExpr or FunctionExpr or CoalesceExpr or AggregateSlotExpr { Affinity: SqlAffinity.None }:
                    return AnyData;
                case ColumnExpr or GeneratedColumnExpr or CastExpr or ScalarSubqueryExpr or AggregateSlotExpr:
                {
                    var affinity = AffinityOf(e, table);
                    return SqlAffinities.IsNumeric(affinity) ? NumericData | BlobData
                        : affinity == SqlAffinity.Text ? TextData | BlobData : AnyData;
                }
                case CaseExpr c:
                {
                    int m = 0;
                    foreach (var arm in c.Arms) m |= DataTypes(arm.Then, table);
                    if (c.Else is not null) m |= DataTypes(c.Else, table);
                    return m;
                }
                default:
                    return NumericData;
            }
        }
    }

    /// <summary>
    /// The affinity a subquery used as a value (scalar, or the right of IN) lends its comparisons: SQLite reads it from
    /// the compound's last arm.
    /// </summary>
    private static SqlAffinity ValueAffinity(QueryIntent q) => q.Source switch
    {
        CompoundSource c when q.Projections[0].Expr is ColumnExpr col && col.Frame == q.Frame => ValueAffinity(c.Arms[^1]),
        _ => q.Projections[0].Expr.Affinity,
    };

    /// <summary>The result expression SQLite reads a subquery's first column from: a compound's last arm's.</summary>
    private static IntentExpr ValueExpr(QueryIntent q) => q.Source switch
    {
        CompoundSource c when q.Projections[0].Expr is ColumnExpr col && col.Frame == q.Frame => ValueExpr(c.Arms[^1]),
        _ => q.Projections[0].Expr,
    };

    // ---- ORDER BY of a compound ---------------------------------------------------------------------------------

    /// <summary>
    /// SQLite's resolveCompoundOrderBy: a term is an ordinal, an AS name of some arm, or an expression equal to one
    /// of an arm's result columns, arms tried left to right; anything else is an error. The term's own outermost
    /// COLLATE wins, else the compound column's collation.
    /// </summary>
    private List<OrderingIntent> CompileCompoundOrderBy(IReadOnlyList<SqlOrderingTerm> terms, IReadOnlyList<Collation> collations, IReadOnlyList<QueryIntent> arms, List<SqlQueryBody> bodies, Scope? parent)
    {
        var ordering = new List<OrderingIntent>(terms.Count);
        int width = collations.Count;
        for (int t = 0; t < terms.Count; t++)
        {
            var term = terms[t];
            var (desc, nullsFirst) = Direction(term);
            var inner = SkipCollate(term.Expr);
            int column = -1;
            if (IsInteger(inner, out long ordinal))
            {
                if (ordinal < 1 || ordinal > width) throw OutOfRange("ORDER", t, width, inner.Start);
                column = (int)ordinal - 1;
            }
            else
            {
                for (int a = 0; a < arms.Count && column < 0; a++) column = MatchArmColumn(inner, arms[a], bodies[a], parent);
                if (column < 0)
                    throw Error($"{Ordinal(t + 1)} ORDER BY term does not match any column in the result set", term.Expr.Start);
            }
            var collation = collations[column];
            if (term.Expr is SqlCollateExpr k)
            {
                if (!CollationCompare.TryParse(k.Collation, out collation)) throw Error($"no such collation sequence: {k.Collation}", k.Start);
            }
            ordering.Add(new OrderingIntent(column, desc, nullsFirst, collation));
        }
        return ordering;
    }

    private static bool HasExplicitCollate(IReadOnlyList<SqlOrderingTerm> terms)
    {
        foreach (var t in terms)
            if (t.Expr is SqlCollateExpr) return true;
        return false;
    }

    /// <summary>The result column of one arm an ORDER BY term names (by AS name, or as the same expression), or -1.</summary>
    private int MatchArmColumn(SqlExpr term, QueryIntent arm, SqlQueryBody body, Scope? parent)
    {
        if (body is SqlValuesBody && term is SqlColumnRef { Table: null, Schema: null } v)
        {
            for (int j = 0; j < arm.VisibleCount; j++)
                if (SqlNameComparer.Instance.Equals(arm.Projections[j].Name, v.Name)) return j;
        }
        if (body is not SqlSelectCore core) return -1;
        if (term is SqlColumnRef { Table: null, Schema: null } name)
        {
            int j = 0;
            foreach (var column in core.Columns)
            {
                if (column is SqlExprColumn { Alias: { } alias } && SqlNameComparer.Instance.Equals(alias, name.Name)) return j;
                if (column is SqlExprColumn) j++;
                else break;
            }
        }
        if (arm.Aggregation is not null) return -1;
        IntentExpr e;
        int savedFrame = _nextFrame;
        try
        {
            e = Compile(term, new Scope(parent, arm.Frame, arm.Source, isAggregate: false), Clause.Result);
        }
        catch (SharcSqlException)
        {
            // A term that does not resolve in this arm may still name a column of another.
            _nextFrame = savedFrame;
            return -1;
        }
        for (int j = 0; j < arm.VisibleCount; j++)
            if (IntentEquality.Same(e, arm.Projections[j].Expr)) return j;
        return -1;
    }
}
