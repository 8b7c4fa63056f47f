using System.Text;
using Sharc.Tests.Sql.Execution;

namespace Sharc.Tests.Sql.Compound;

/// <summary>
/// Random compound SELECTs over <see cref="MixedTable"/>, deterministic for a seed: two to four arms of mixed
/// storage classes, NULLs, NOCASE columns, explicit COLLATEs, duplicates, VALUES lists and aggregate arms,
/// joined by random operators; with or without ORDER BY, LIMIT and OFFSET; used bare, as a subquery in FROM filtered
/// and aggregated, as a CTE, and on the right of IN.
/// </summary>
/// <remarks>LIMIT comes only with ORDER BY or after a set operator, whose output order SQLite fixes.</remarks>
internal sealed class CompoundGenerator(int seed)
{
    private readonly Random _rng = new(seed);

    private static readonly string[] Columns = ["i", "r", "s", "n", "x", "c", "b", "id"];
    private static readonly string[] Literals = ["1", "1.0", "2", "'abc'", "'ABC'", "'b'", "NULL", "x'00'", "'12'", "-3", "2.5", "'x%y'"];
    private static readonly string[] Operators = ["UNION", "UNION ALL", "INTERSECT", "EXCEPT"];

    private int Pick(int n) => _rng.Next(n);

    private T Pick<T>(IReadOnlyList<T> items) => items[_rng.Next(items.Count)];

    private bool Chance(int percent) => _rng.Next(100) < percent;

    /// <summary>A query and whether its rows come in an order the query fixes.</summary>
    public (string Sql, bool Ordered) Next()
    {
        int width = 1 + Pick(Chance(70) ? 2 : 3);
        string names = string.Join(", ", new[] { "a", "b", "c" }.Take(width));
        switch (Pick(10))
        {
            case < 4:
                return Compound(width, Chance(45), named: false);
            case 4 or 5:
                return ($"SELECT * FROM ({Compound(width, Chance(30), named: true).Sql}) WHERE {Filter()}", false);
            case 6:
                return ($"SELECT count(*), count(DISTINCT a), typeof(min(a)), typeof(max(a)) FROM ({Compound(width, false, named: true).Sql})", false);
            case 7:
                return ($"WITH q({names}) AS ({Compound(width, Chance(30), named: false).Sql}) SELECT * FROM q WHERE {Filter()}", false);
            case 8:
                return ($"SELECT id, {Pick(Columns)} FROM t WHERE {Pick(Columns)} {(Chance(30) ? "NOT IN" : "IN")} ({Compound(1, false, named: false).Sql})", false);
            default:
                return ($"WITH q({names}) AS {(Chance(50) ? "MATERIALIZED " : "")}({Compound(width, false, named: false).Sql}) SELECT count(*) FROM q AS q1 WHERE a IN (SELECT a FROM q)", false);
        }
    }

    private string Filter()
    {
        string op = Pick(new[] { "=", "<", ">", "<=", "IS NOT", "!=" });
        return $"a {op} {Pick(Literals)}";
    }

    /// <summary>A compound; when <paramref name="named"/>, its first arm names the columns a, b, c.</summary>
    private (string Sql, bool Ordered) Compound(int width, bool orderBy, bool named)
    {
        int arms = 2 + Pick(3);
        var sb = new StringBuilder(named ? NamedArm(width) : Arm(width));
        var ops = new List<string>();
        for (int a = 1; a < arms; a++)
        {
            string op = Pick(Operators);
            ops.Add(op);
            sb.Append(' ').Append(op).Append(' ').Append(Arm(width));
        }
        bool ordered = false;
        if (orderBy)
        {
            sb.Append(" ORDER BY ");
            int keys = 1 + Pick(width);
            for (int k = 0; k < keys; k++)
            {
                if (k > 0) sb.Append(", ");
                sb.Append(1 + Pick(width));
                // SQLite loses rows when an ORDER BY term with COLLATE meets a merge of more than two arms.
                if (arms == 2 && Chance(20)) sb.Append(Chance(50) ? " COLLATE NOCASE" : " COLLATE BINARY");
                if (Chance(40)) sb.Append(" DESC");
                if (Chance(15)) sb.Append(Chance(50) ? " NULLS FIRST" : " NULLS LAST");
            }
            // Every column at the end, so that the order is total (ties would come in the order of whatever index
            // each engine walks).
            for (int k = 1; k <= width; k++) sb.Append(", ").Append(k);
            ordered = true;
        }
        if ((orderBy || ops[^1] != "UNION ALL") && Chance(30))
        {
            sb.Append(" LIMIT ").Append(Pick(12));
            if (Chance(40)) sb.Append(" OFFSET ").Append(Pick(5));
        }
        return (sb.ToString(), ordered);
    }

    private string NamedArm(int width)
    {
        var sb = new StringBuilder("SELECT ");
        for (int k = 0; k < width; k++) sb.Append(k > 0 ? ", " : "").Append(Item()).Append(" AS ").Append((char)('a' + k));
        return sb.Append(" FROM t WHERE id % ").Append(3 + Pick(9)).Append(" = ").Append(Pick(3)).ToString();
    }

    private string Arm(int width)
    {
        switch (Pick(10))
        {
            case 0:
            {
                // A VALUES list with duplicates and mixed storage classes.
                int rows = 1 + Pick(4);
                var sb = new StringBuilder("VALUES ");
                for (int r = 0; r < rows; r++)
                {
                    sb.Append(r > 0 ? ", (" : "(");
                    for (int k = 0; k < width; k++) sb.Append(k > 0 ? ", " : "").Append(Pick(Literals));
                    sb.Append(')');
                }
                return sb.ToString();
            }
            case 1:
            {
                var sb = new StringBuilder("SELECT ");
                for (int k = 0; k < width; k++) sb.Append(k > 0 ? ", " : "").Append(Pick(Literals));
                return sb.ToString();
            }
            case 2 when width <= 2:
                return width == 1
                    ? $"SELECT count(*) FROM t WHERE id % {2 + Pick(5)} = {Pick(2)}"
                    : $"SELECT i % 3, count(*) FROM t WHERE id < {Pick(200)} GROUP BY 1";
            default:
            {
                // No DISTINCT: which of several equal values it keeps depends on the index SQLite happens to walk.
                var sb = new StringBuilder("SELECT ");
                for (int k = 0; k < width; k++) sb.Append(k > 0 ? ", " : "").Append(Item());
                string table = Chance(85) ? "t" : "u";
                if (table == "u")
                {
                    sb.Clear().Append("SELECT ");
                    for (int k = 0; k < width; k++) sb.Append(k > 0 ? ", " : "").Append(Pick(new[] { "a", "b", "a + 1", "b COLLATE NOCASE", "NULL" }));
                    return sb.Append(" FROM u").ToString();
                }
                sb.Append(" FROM t WHERE id % ").Append(3 + Pick(9)).Append(" = ").Append(Pick(3));
                return sb.ToString();
            }
        }
    }

    private string Item() => Pick(8) switch
    {
        < 4 => Pick(Columns),
        4 => Pick(Columns) + (Chance(50) ? " COLLATE NOCASE" : " COLLATE RTRIM"),
        5 => Pick(Literals),
        6 => $"{Pick(new[] { "i", "r", "n", "id" })} + {Pick(3)}",
        _ => $"CAST({Pick(Columns)} AS {Pick(new[] { "TEXT", "INTEGER", "REAL", "NUMERIC" })})",
    };
}
