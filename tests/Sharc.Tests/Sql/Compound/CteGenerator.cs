using System.Text;

namespace Sharc.Tests.Sql.Compound;

/// <summary>
/// Random WITH queries, deterministic for a seed: recursive counters with random steps and bounds, UNION or UNION
/// ALL, one or two recursive SELECTs, LIMIT/OFFSET and ORDER BY (a priority queue) inside the CTE; walks up a tree
/// held in the table (id → id / k) starting from the table's rows; and plain CTEs named once or several times.
/// </summary>
internal sealed class CteGenerator(int seed)
{
    private readonly Random _rng = new(seed);

    private int Pick(int n) => _rng.Next(n);

    private bool Chance(int percent) => _rng.Next(100) < percent;

    public (string Sql, bool Ordered) Next() => Pick(3) switch
    {
        0 => Counter(),
        1 => Walk(),
        _ => Plain(),
    };

    private (string, bool) Counter()
    {
        string op = Chance(50) ? "UNION" : "UNION ALL";
        int bound = 3 + Pick(40);
        string start = Chance(70) ? (Pick(5) - 1).ToString(System.Globalization.CultureInfo.InvariantCulture) : "'1'";
        var sb = new StringBuilder($"WITH RECURSIVE c(x, y) AS (SELECT {start}, 'a'");
        if (Chance(30)) sb.Append($" {op} SELECT 1.0, 'A'");
        sb.Append($" {op} SELECT x + {1 + Pick(3)}, {(Chance(50) ? "y" : "upper(y)")} FROM c WHERE x < {bound}");
        if (Chance(40)) sb.Append($" {op} SELECT x * 2, y || 'b' FROM c WHERE x > 0 AND x < {bound / 2}");
        bool orderedQueue = Chance(35);
        if (orderedQueue) sb.Append(Chance(50) ? " ORDER BY 1 DESC" : " ORDER BY 2, 1");
        bool limited = Chance(40);
        if (limited) sb.Append($" LIMIT {Pick(30)}").Append(Chance(40) ? $" OFFSET {Pick(6)}" : "");
        sb.Append(')');
        // Without ORDER BY the queue is first in, first out: the order is SQLite's too.
        return Chance(50)
            ? (sb + " SELECT x, y FROM c", true)
            : (sb + $" SELECT count(*), sum(x), max(y) FROM c WHERE x % {2 + Pick(3)} = 0", false);
    }

    private (string, bool) Walk()
    {
        int k = 2 + Pick(3);
        string op = Chance(50) ? "UNION" : "UNION ALL";
        string sql = $"WITH RECURSIVE up(node, depth) AS (SELECT id, 0 FROM t WHERE id % {7 + Pick(20)} = 0 " +
            $"{op} SELECT node / {k}, depth + 1 FROM up WHERE node > 1) ";
        return Pick(3) switch
        {
            0 => (sql + "SELECT node, count(*), max(depth) FROM up GROUP BY node", false),
            1 => (sql + "SELECT t.s FROM t WHERE t.id IN (SELECT node FROM up)", false),
            // The setup rows come in the order of whatever index the scan uses: not fixed by the query.
            _ => (sql + "SELECT * FROM up", false),
        };
    }

    private (string, bool) Plain()
    {
        string hint = Pick(3) switch { 0 => "MATERIALIZED ", 1 => "NOT MATERIALIZED ", _ => "" };
        string body = Pick(3) switch
        {
            0 => $"SELECT i, s FROM t WHERE id % {2 + Pick(6)} = 0",
            1 => "SELECT i, s FROM t UNION SELECT n, c FROM t",
            _ => "VALUES (1, 'a'), (2, 'b'), (1.0, 'A'), (NULL, NULL)",
        };
        string cte = $"WITH a(p, q) AS {hint}({body}), b AS (SELECT p FROM a WHERE q > 'a') ";
        return Pick(4) switch
        {
            0 => (cte + "SELECT * FROM a WHERE p IN (SELECT p FROM b)", false),
            1 => (cte + "SELECT (SELECT count(*) FROM a), count(*) FROM b", false),
            2 => (cte + "SELECT p, count(*) FROM a GROUP BY p", false),
            _ => (cte + "SELECT * FROM b WHERE p NOT IN (SELECT p FROM a WHERE q IS NULL)", false),
        };
    }
}
