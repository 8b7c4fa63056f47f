using Sharc.Tests.Sql.Execution;

namespace Sharc.Tests.Sql.Compound;

/// <summary>
/// The affinity of a recursive CTE's columns, which the recursive SELECTs read as well as the outer query: SQLite types
/// the table once from every arm (a numeric column that another arm fills with text, or a TEXT column another arm fills
/// with numbers, has none), column by column, a recursive SELECT's read of a later column counting as untyped. The
/// comparisons in the recursive step then convert (or do not) as SQLite's do, so the recursion stops where SQLite's does.
/// </summary>
public sealed class RecursiveCteTypingTests
{
    private static readonly string[] Declarations = ["a TEXT", "a INT", "a", "a BLOB", "a NUMERIC", "a REAL", "a FLOATING POINT", "a VARCHAR(10)"];
    private static readonly string[] Values = ["'1'", "1", "1.0", "' 1'"];

    public static TheoryData<string> Anchors()
    {
        var data = new TheoryData<string>();
        foreach (var d in Declarations) data.Add(d);
        return data;
    }

    [Theory]
    [MemberData(nameof(Anchors))]
    public void A_text_step_after_a_numeric_anchor_stops_where_sqlite_stops(string declaration)
    {
        foreach (var value in Values)
        {
            using var db = new QueryOracle($"CREATE TABLE aff_anchor({declaration}, b TEXT)", $"INSERT INTO aff_anchor VALUES({value}, '1')");
            // SQLite recurses forever when the column keeps TEXT affinity ('2' < 3 compares as text): bound those.
            string limit = declaration is "a TEXT" or "a VARCHAR(10)" ? " LIMIT 5" : "";
            db.Check($"WITH RECURSIVE c(x) AS (SELECT a FROM aff_anchor UNION ALL SELECT '2' FROM c WHERE x < 3{limit}) SELECT count(*) FROM c", ordered: true);
            foreach (var step in new[] { "x", "x + 1", "x || ''", "'2'", "2", "CAST(x AS TEXT)", "CAST(x AS INT)", "max(x, '2')", "n", "y", "x COLLATE NOCASE", "CASE WHEN n = 0 THEN '2' ELSE x END" })
            {
                foreach (var literal in new[] { "3", "'3'", "'1'" })
                {
                    db.Check($"WITH RECURSIVE c(x, n, y) AS (SELECT a, 0, b FROM aff_anchor UNION ALL SELECT {step}, n + 1, y FROM c WHERE n < 3 AND x < {literal}) " +
                        $"SELECT typeof(x), x, x < {literal}, x = {literal} FROM c", ordered: true);
                }
            }
        }
    }

    [Fact]
    public void A_step_reading_a_later_column_leaves_the_column_untyped_inside_and_outside()
    {
        using var db = new QueryOracle("CREATE TABLE t(a INT, b INT)", "INSERT INTO t VALUES('1', '1')");
        db.Check("WITH RECURSIVE c(x, n, y) AS (SELECT a, 0, b FROM t UNION ALL SELECT y, n + 1, y FROM c WHERE n < 3 AND x = '1') SELECT typeof(x), x, x = '1' FROM c", ordered: true);
        db.Check("WITH RECURSIVE c(y, n, x) AS (SELECT b, 0, a FROM t UNION ALL SELECT y, n + 1, y FROM c WHERE n < 3 AND x = '1') SELECT typeof(x), x, x = '1' FROM c", ordered: true);
        db.Check("WITH RECURSIVE c(x, n, y) AS (SELECT a, 0, b FROM t UNION ALL SELECT y + 0, n + 1, y FROM c WHERE n < 3 AND x = '1') SELECT typeof(x), x, x = '1' FROM c", ordered: true);
    }
}
