using System.Text;

namespace Sharc.Tests.Sql.Joins;

/// <summary>
/// A random schema (2–5 tables whose column names overlap, with mixed affinities, NOCASE columns, indexes, NULLs and
/// duplicates) and random join queries over it, deterministic for a seed: every join kind, ON / USING / NATURAL,
/// WHERE, aggregates. Each query says whether its order is total (compared as a sequence) or not (as a multiset).
/// </summary>
/// <remarks>
/// Values avoid what SQL leaves to the engine: reals are never integral (2 and 2.0 would be one group shown either
/// way), group keys are never NOCASE columns, and ORDER BY sorts by type then BINARY value, which is total.
/// </remarks>
internal sealed class JoinQueryGenerator
{
    private sealed record Column(string Name, string Type, bool NoCase);

    private sealed record Table(string Name, List<Column> Columns);

    private static readonly string[] Names = ["a", "b", "c", "d", "e"];
    private static readonly string[] Types = ["INTEGER", "TEXT", "REAL", "", "NUMERIC", "TEXT COLLATE NOCASE", "BLOB", "INT"];
    private static readonly string[] Literals = ["NULL", "0", "1", "2", "3", "'1'", "'2'", "'a'", "'A'", "'b'", "1.5", "2.5", "x'01'"];
    private static readonly string[] Kinds = [",", "JOIN", "CROSS JOIN", "LEFT JOIN", "LEFT OUTER JOIN", "RIGHT JOIN", "FULL JOIN", "NATURAL JOIN", "NATURAL LEFT JOIN", "INNER JOIN"];
    private static readonly string[] Ops = ["=", "=", "=", "=", "<", ">=", "<>", "IS"];

    private readonly Random _rng;
    private readonly List<Table> _tables = [];

    public JoinQueryGenerator(int seed)
    {
        _rng = new Random(seed);
        int n = 2 + Pick(4);
        for (int t = 0; t < n; t++)
        {
            var columns = new List<Column>();
            foreach (var name in Names)
            {
                if (!Chance(55) && columns.Count > 0) continue;
                string type = Pick(Types);
                columns.Add(new Column(name, type, type.Contains("NOCASE", StringComparison.Ordinal)));
            }
            _tables.Add(new Table("t" + t, columns));
        }
    }

    private int Pick(int n) => _rng.Next(n);

    private T Pick<T>(IReadOnlyList<T> items) => items[_rng.Next(items.Count)];

    private bool Chance(int percent) => _rng.Next(100) < percent;

    /// <summary>The statements that create and fill the schema.</summary>
    public List<string> Schema()
    {
        var sql = new List<string>();
        foreach (var t in _tables)
        {
            bool pk = Chance(30);
            var defs = new List<string>();
            if (pk) defs.Add("id INTEGER PRIMARY KEY");
            foreach (var c in t.Columns) defs.Add($"{c.Name} {c.Type}".TrimEnd());
            sql.Add($"CREATE TABLE {t.Name}({string.Join(", ", defs)})");
            if (pk) t.Columns.Insert(0, new Column("id", "INTEGER", false));
            int indexes = Pick(3);
            for (int i = 0; i < indexes; i++)
            {
                var c = Pick(t.Columns);
                string second = Chance(30) ? ", " + Pick(t.Columns).Name : "";
                string collate = Chance(20) ? " COLLATE NOCASE" : "";
                sql.Add($"CREATE {(Chance(15) ? "UNIQUE " : "")}INDEX IF NOT EXISTS {t.Name}_i{i} ON {t.Name}({c.Name}{collate}{second})");
            }
            int rows = Pick(12);
            for (int r = 0; r < rows; r++)
            {
                var values = new List<string>();
                foreach (var c in t.Columns) values.Add(c.Name == "id" ? (r + 1 + Pick(2) * 10).ToString(System.Globalization.CultureInfo.InvariantCulture) : Pick(Literals));
                sql.Add($"INSERT OR IGNORE INTO {t.Name} VALUES ({string.Join(", ", values)})");
            }
        }
        return sql;
    }

    public (string Sql, bool Ordered) Next()
    {
        int n = 2 + Pick(3);
        var items = new List<Table>();
        var subqueries = new HashSet<int>();
        var from = new StringBuilder();
        for (int i = 0; i < n; i++)
        {
            var t = Pick(_tables);
            items.Add(t);
            // Some items are subqueries: read once into memory (hash or kept rows) instead of seeks.
            string source = t.Name;
            if (Chance(20))
            {
                subqueries.Add(i);
                var c = Pick(t.Columns);
                source = $"(SELECT * FROM {t.Name} WHERE {c.Name} IS NOT {Pick(Literals)})";
            }
            if (i == 0)
            {
                from.Append($"{source} AS x0");
                continue;
            }
            string kind = Pick(Kinds);
            from.Append(kind == "," ? ", " : $" {kind} ").Append($"{source} AS x{i}");
            if (kind.StartsWith("NATURAL", StringComparison.Ordinal)) continue;
            int choice = Pick(10);
            var common = t.Columns.Where(c => items.Take(i).Any(l => l.Columns.Any(lc => lc.Name == c.Name))).ToList();
            if (choice < 2 && common.Count > 0 && kind != ",")
                from.Append($" USING ({Pick(common).Name})");
            else if (choice < 9 || kind is not ("," or "JOIN" or "CROSS JOIN" or "INNER JOIN"))
                from.Append(" ON ").Append(OnClause(items, i));
        }

        var sb = new StringBuilder("SELECT ");
        bool aggregate = Chance(25);
        bool ordered = false;
        if (aggregate)
        {
            var key = PlainColumn(items);
            bool grouped = key is not null && Chance(60);
            if (grouped) sb.Append(key).Append(", ");
            var x = Qualified(items);
            sb.Append($"count(*), count({x}), max({Qualified(items)} COLLATE BINARY), sum(CASE WHEN typeof({x}) IN ('integer', 'real') THEN {x} END)");
            sb.Append(" FROM ").Append(from);
            if (Chance(50)) sb.Append(" WHERE ").Append(Where(items));
            if (grouped)
            {
                sb.Append(" GROUP BY ").Append(key);
                if (Chance(30)) sb.Append(" HAVING count(*) > 1");
                sb.Append($" ORDER BY typeof({key}), {key}");
                ordered = true;
            }
            return (sb.ToString(), ordered);
        }

        var outputs = new List<string>();
        for (int i = 0; i < n; i++)
            foreach (var c in items[i].Columns)
                if (Chance(70)) outputs.Add($"x{i}.{c.Name}");
        if (outputs.Count == 0) outputs.Add("x0." + items[0].Columns[0].Name);
        if (Chance(15)) outputs.Add(Pick(items[Pick(n)].Columns).Name);
        int withRowId = Pick(n);
        if (Chance(10) && !subqueries.Contains(withRowId)) outputs.Add($"x{withRowId}.rowid");
        bool star = Chance(15);
        if (star) sb.Append('*');
        else
            for (int i = 0; i < outputs.Count; i++) sb.Append(i > 0 ? ", " : "").Append(outputs[i]);
        sb.Append(" FROM ").Append(from);
        if (Chance(60)) sb.Append(" WHERE ").Append(Where(items));
        if (!star && Chance(50))
        {
            sb.Append(" ORDER BY ");
            for (int i = 0; i < outputs.Count; i++)
                sb.Append(i > 0 ? ", " : "").Append($"typeof({i + 1}), {i + 1} COLLATE BINARY".Replace($"typeof({i + 1})", $"typeof({outputs[i]})", StringComparison.Ordinal));
            ordered = true;
            if (Chance(30)) sb.Append($" LIMIT {1 + Pick(5)} OFFSET {Pick(3)}");
        }
        return (sb.ToString(), ordered);
    }

    private string OnClause(List<Table> items, int i)
    {
        int j = Pick(i);
        var right = Pick(items[i].Columns);
        var left = Pick(items[j].Columns);
        string op = Pick(Ops);
        string on = $"x{i}.{right.Name} {op} x{j}.{left.Name}";
        if (Chance(15)) on = $"x{j}.{left.Name} {op} x{i}.{right.Name} COLLATE NOCASE";
        if (Chance(25)) on += $" AND x{i}.{Pick(items[i].Columns).Name} IS NOT {Pick(Literals)}";
        if (Chance(10)) on += $" OR x{j}.{Pick(items[j].Columns).Name} = {Pick(Literals)}";
        return on;
    }

    private string Where(List<Table> items)
    {
        string Term()
        {
            int k = Pick(items.Count);
            var c = Pick(items[k].Columns);
            return Pick(4) switch
            {
                0 => $"x{k}.{c.Name} IS NULL",
                1 => $"x{k}.{c.Name} IS NOT NULL",
                _ => $"x{k}.{c.Name} {Pick(Ops)} {Pick(Literals)}",
            };
        }
        string w = Term();
        if (Chance(40)) w += (Chance(50) ? " AND " : " OR ") + Term();
        return w;
    }

    private string Qualified(List<Table> items)
    {
        int k = Pick(items.Count);
        return $"x{k}.{Pick(items[k].Columns).Name}";
    }

    private string? PlainColumn(List<Table> items)
    {
        int k = Pick(items.Count);
        var columns = items[k].Columns.Where(c => !c.NoCase).ToList();
        return columns.Count == 0 ? null : $"x{k}.{Pick(columns).Name}";
    }
}
