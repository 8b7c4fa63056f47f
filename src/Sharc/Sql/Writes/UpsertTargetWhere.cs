using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Writes;

/// <summary>
/// SQLite pairs an UPSERT target's WHERE with a partial index only when the two expressions are the same tree:
/// no algebra ("0 &lt; a" is not "a &gt; 0", "a &gt; 0 AND 1" is not "a &gt; 0"), but column references compare by the
/// column they resolve to (so "t.a", "A" and "a" agree), function names and collations ignore case, and small
/// integers compare by value ("00" and "0x0" are "0"). Parameters match only themselves: SQLite judges the target
/// when the statement is prepared, before anything is bound.
/// </summary>
internal static class UpsertTargetWhere
{
    public static bool Same(SqlExpr a, SqlExpr b, SharcTable table) => (a, b) switch
    {
        (SqlNullLiteral, SqlNullLiteral) => true,
        // SQLite compares integers beyond 32 bits by their spelling; Sharc keeps only the value, which differs only
        // for spellings like "03000000000".
        (SqlIntegerLiteral x, SqlIntegerLiteral y) => x.Value == y.Value,
        (SqlRealLiteral x, SqlRealLiteral y) => x.Text == y.Text,
        (SqlStringLiteral x, SqlStringLiteral y) => string.Equals(x.Value, y.Value, StringComparison.Ordinal),
        (SqlBlobLiteral x, SqlBlobLiteral y) => x.Value.AsSpan().SequenceEqual(y.Value.AsSpan()),
        (SqlBoolLiteral x, SqlBoolLiteral y) => x.Value == y.Value,
        (SqlCurrentTimeLiteral x, SqlCurrentTimeLiteral y) => x.Kind == y.Kind,
        (SqlParameterExpr x, SqlParameterExpr y) => x.Index == y.Index,
        (SqlColumnRef x, SqlColumnRef y) => Column(x, table) == Column(y, table),
        (SqlUnaryExpr x, SqlUnaryExpr y) => x.Operator == y.Operator && Same(x.Operand, y.Operand, table),
        (SqlBinaryExpr x, SqlBinaryExpr y) => x.Operator == y.Operator && Same(x.Left, y.Left, table) && Same(x.Right, y.Right, table),
        (SqlCollateExpr x, SqlCollateExpr y) => string.Equals(x.Collation, y.Collation, StringComparison.OrdinalIgnoreCase) && Same(x.Operand, y.Operand, table),
        (SqlCastExpr x, SqlCastExpr y) => string.Equals(x.TypeName, y.TypeName, StringComparison.Ordinal) && Same(x.Operand, y.Operand, table),
        (SqlLikeExpr x, SqlLikeExpr y) => x.Operator == y.Operator && x.Not == y.Not && Same(x.Operand, y.Operand, table)
            && Same(x.Pattern, y.Pattern, table) && SameOptional(x.Escape, y.Escape, table),
        (SqlBetweenExpr x, SqlBetweenExpr y) => x.Not == y.Not && Same(x.Operand, y.Operand, table) && Same(x.Low, y.Low, table) && Same(x.High, y.High, table),
        (SqlNullTestExpr x, SqlNullTestExpr y) => x.Not == y.Not && Same(x.Operand, y.Operand, table),
        (SqlInListExpr x, SqlInListExpr y) => x.Not == y.Not && Same(x.Operand, y.Operand, table) && SameList(x.Items, y.Items, table),
        (SqlRowValueExpr x, SqlRowValueExpr y) => SameList(x.Items, y.Items, table),
        (SqlCaseExpr x, SqlCaseExpr y) => SameOptional(x.Operand, y.Operand, table) && SameOptional(x.Else, y.Else, table)
            && x.Whens.Count == y.Whens.Count && x.Whens.Select((w, i) => Same(w.When, y.Whens[i].When, table) && Same(w.Then, y.Whens[i].Then, table)).All(s => s),
        (SqlFunctionExpr x, SqlFunctionExpr y) => string.Equals(x.Name, y.Name, StringComparison.OrdinalIgnoreCase) && x.Distinct == y.Distinct
            && x.Star == y.Star && !x.IsWindowCall && !y.IsWindowCall && x.Filter is null && y.Filter is null
            && x.OrderBy.Count == 0 && y.OrderBy.Count == 0 && SameList(x.Arguments, y.Arguments, table),
        // Subqueries and RAISE cannot appear in an index's WHERE.
        _ => false,
    };

    /// <summary>Resolves every column the target's WHERE names, with SQLite's error for one the table lacks.</summary>
    public static void Resolve(SqlExpr where, SharcTable table, string? alias, string sql)
    {
        switch (where)
        {
            case SqlColumnRef c:
                bool named = c.Table is null || SqlNameComparer.Instance.Equals(c.Table, alias ?? table.Name);
                if (!named || Column(c, table) == int.MinValue)
                    throw new SharcSqlException($"no such column: {(c.Table is null ? "" : c.Table + ".")}{c.Name}", sql, c.Start);
                break;
            case SqlUnaryExpr u: Resolve(u.Operand, table, alias, sql); break;
            case SqlBinaryExpr b: Resolve(b.Left, table, alias, sql); Resolve(b.Right, table, alias, sql); break;
            case SqlCollateExpr c: Resolve(c.Operand, table, alias, sql); break;
            case SqlCastExpr c: Resolve(c.Operand, table, alias, sql); break;
            case SqlLikeExpr l: Resolve(l.Operand, table, alias, sql); Resolve(l.Pattern, table, alias, sql); if (l.Escape is not null) Resolve(l.Escape, table, alias, sql); break;
            case SqlBetweenExpr b: Resolve(b.Operand, table, alias, sql); Resolve(b.Low, table, alias, sql); Resolve(b.High, table, alias, sql); break;
            case SqlNullTestExpr n: Resolve(n.Operand, table, alias, sql); break;
            case SqlInListExpr i: Resolve(i.Operand, table, alias, sql); foreach (var x in i.Items) Resolve(x, table, alias, sql); break;
            case SqlRowValueExpr r: foreach (var x in r.Items) Resolve(x, table, alias, sql); break;
            case SqlFunctionExpr f: foreach (var x in f.Arguments) Resolve(x, table, alias, sql); break;
            case SqlCaseExpr k:
                if (k.Operand is not null) Resolve(k.Operand, table, alias, sql);
                foreach (var w in k.Whens) { Resolve(w.When, table, alias, sql); Resolve(w.Then, table, alias, sql); }
                if (k.Else is not null) Resolve(k.Else, table, alias, sql);
                break;
        }
    }

    /// <summary>
    /// The column a reference names: its ordinal, -1 for the rowid (which the INTEGER PRIMARY KEY also is, as in
    /// SQLite), int.MinValue when the table has no such column. Qualifiers were checked by <see cref="Resolve"/>.
    /// </summary>
    private static int Column(SqlColumnRef c, SharcTable table)
    {
        if (table.FindColumn(c.Name) is { } column) return column.Ordinal == table.RowIdAliasOrdinal && !table.IsWithoutRowId ? -1 : column.Ordinal;
        return !table.IsWithoutRowId && DmlTarget.IsRowIdName(c.Name) ? -1 : int.MinValue;
    }

    private static bool SameOptional(SqlExpr? a, SqlExpr? b, SharcTable table) => a is null ? b is null : b is not null && Same(a, b, table);

    private static bool SameList(IReadOnlyList<SqlExpr> a, IReadOnlyList<SqlExpr> b, SharcTable table)
    {
        if (a.Count != b.Count) return false;
        for (int i = 0; i < a.Count; i++) if (!Same(a[i], b[i], table)) return false;
        return true;
    }
}
