using System.Globalization;
using System.Text;

namespace Sharc.Tests.Sql.Execution;

/// <summary>
/// Random single-table queries over <see cref="MixedTable"/>, deterministic for a seed. Each query says whether its
/// rows come in a fully determined order (then compared as a sequence) or not (compared as a multiset).
/// </summary>
/// <remarks>
/// Queries avoid what SQL leaves to the engine, where SQLite's answer depends on its plan (which index it walks, and
/// in which direction): which of several equal values a group, a DISTINCT row or min()/max() shows — 7 or 7.0, 'abc'
/// or 'ABC' under NOCASE — so such values are shown through <see cref="Canonical"/> and NOCASE/RTRIM stay out of
/// them; bare columns; group_concat's order; LIMIT without a total order; expressions that fail on some rows only.
/// </remarks>
internal sealed class QueryGenerator(int seed)
{
    private readonly Random _rng = new(seed);

    /// <summary>Whether WHERE clauses may hold row value comparisons, IN and BETWEEN.</summary>
    public bool RowValues { get; init; }

    private static readonly string[] Columns = ["id", "i", "r", "s", "n", "b", "x", "c"];
    private static readonly string[] PlainColumns = ["id", "i", "r", "s", "n", "b", "x"];

    private int Pick(int n) => _rng.Next(n);

    private T Pick<T>(IReadOnlyList<T> items) => items[_rng.Next(items.Count)];

    private bool Chance(int percent) => _rng.Next(100) < percent;

    public (string Sql, bool Ordered) Next() => Pick(10) switch
    {
        < 6 => Plain(),
        < 9 => Grouped(),
        _ => Totals(),
    };

    private (string, bool) Plain()
    {
        bool distinct = Chance(20);
        int n = 1 + Pick(3);
        var items = new List<string>();
        for (int k = 0; k < n; k++) items.Add(Value(2, plain: distinct));
        var sb = new StringBuilder("SELECT ");
        if (distinct) sb.Append("DISTINCT ");
        for (int k = 0; k < n; k++)
        {
            if (k > 0) sb.Append(", ");
            sb.Append(distinct ? Canonical(items[k]) : items[k]).Append(" AS e").Append(k);
        }
        sb.Append(" FROM t");
        if (Chance(85)) sb.Append(" WHERE ").Append(Predicate(2));
        bool ordered = Chance(60);
        if (ordered)
        {
            sb.Append(" ORDER BY ");
            if (distinct)
            {
                // Every output column, so the order is total.
                for (int k = 0; k < n; k++)
                {
                    if (k > 0) sb.Append(", ");
                    sb.Append(k + 1).Append(Direction());
                }
            }
            else
            {
                int keys = 1 + Pick(3);
                for (int k = 0; k < keys; k++)
                {
                    sb.Append(Pick(4) switch
                    {
                        0 => (1 + Pick(n)).ToString(CultureInfo.InvariantCulture),
                        1 => "e" + Pick(n).ToString(CultureInfo.InvariantCulture),
                        2 => Pick(Columns) + (Chance(30) ? " COLLATE " + Pick(["NOCASE", "RTRIM", "BINARY"]) : ""),
                        _ => Value(1, plain: false),
                    }).Append(Direction()).Append(", ");
                }
                // The rowid breaks every tie.
                sb.Append("id").Append(Chance(50) ? " DESC" : "");
            }
            if (Chance(40))
            {
                sb.Append(" LIMIT ").Append(Pick(12));
                if (Chance(50)) sb.Append(" OFFSET ").Append(Pick(20));
            }
        }
        return (sb.ToString(), ordered);
    }

    private (string, bool) Grouped()
    {
        int keys = 1 + Pick(2);
        var keyExprs = new List<string>();
        for (int k = 0; k < keys; k++) keyExprs.Add(Chance(60) ? Pick(PlainColumns) : Value(1, plain: true));
        var sb = new StringBuilder("SELECT ");
        sb.AppendJoin(", ", keyExprs.Select(Canonical));
        int aggs = 1 + Pick(3);
        for (int k = 0; k < aggs; k++) sb.Append(", ").Append(Aggregate());
        sb.Append(" FROM t");
        if (Chance(60)) sb.Append(" WHERE ").Append(Predicate(1));
        sb.Append(" GROUP BY ").AppendJoin(", ", keyExprs);
        if (Chance(40)) sb.Append(" HAVING ").Append(Pick(3) switch
        {
            0 => "count(*) > " + Pick(4),
            1 => Aggregate() + " " + Pick(["<", ">", "=", "IS NOT"]) + " " + Literal(),
            _ => keyExprs[0] + " IS NOT NULL",
        });
        sb.Append(" ORDER BY ");
        for (int k = 0; k < keys; k++)
        {
            if (k > 0) sb.Append(", ");
            sb.Append(keyExprs[k]).Append(Direction());
        }
        return (sb.ToString(), true);
    }

    private (string, bool) Totals()
    {
        var sb = new StringBuilder("SELECT count(*)");
        int aggs = 1 + Pick(4);
        for (int k = 0; k < aggs; k++) sb.Append(", ").Append(Aggregate());
        sb.Append(" FROM t");
        if (Chance(70)) sb.Append(" WHERE ").Append(Predicate(2));
        return (sb.ToString(), true);
    }

    /// <summary>Shows equal numbers alike (7 and 7.0 both as 7.0), so the choice among equal values cannot show.</summary>
    private static string Canonical(string e) => $"iif(typeof({e}) IN ('integer', 'real'), ({e}) * 1.0, {e})";

    private string Direction() => Pick(6) switch
    {
        0 => " DESC",
        1 => " ASC",
        2 => " NULLS LAST",
        3 => " DESC NULLS FIRST",
        _ => "",
    };

    private string Aggregate()
    {
        string arg = Chance(50) ? Pick(PlainColumns) : Value(1, plain: true);
        return Pick(8) switch
        {
            0 => "count(" + arg + ")",
            1 => "sum(" + Pick(["i", "r", "n", "id"]) + ")",
            2 => "total(" + arg + ")",
            3 => "avg(" + arg + ")",
            4 => Canonical("min(" + arg + ")"),
            5 => Canonical("max(" + arg + ")"),
            6 => "count(DISTINCT " + Pick(Columns) + ")",
            _ => "count(*)",
        };
    }

    /// <summary>A value expression; <paramref name="plain"/> keeps collations out (no NOCASE column, no COLLATE).</summary>
    private string Value(int depth, bool plain)
    {
        if (depth <= 0 || Chance(35)) return Chance(70) ? Pick(plain ? PlainColumns : Columns) : Literal();
        int d = depth - 1;
        return Pick(14) switch
        {
            0 => $"({Value(d, plain)} {Pick(["+", "-", "*", "/", "%"])} {Value(d, plain)})",
            1 => $"({Value(d, plain)} || {Value(d, plain)})",
            2 => $"-{Value(d, plain)}",
            3 => $"{Pick(["abs", "length", "lower", "upper", "typeof", "trim", "hex", "quote", "round"])}({Value(d, plain)})",
            4 => $"{Pick(["coalesce", "ifnull", "nullif", "instr", "max", "min"])}({Value(d, plain)}, {Value(d, plain)})",
            5 => $"substr({Value(d, plain)}, {Pick(5) - 1}, {Pick(4)})",
            6 => $"CASE WHEN {Predicate(d)} THEN {Value(d, plain)} ELSE {Value(d, plain)} END",
            7 => $"CASE {Value(d, plain)} WHEN {Literal()} THEN {Value(d, plain)} WHEN {Literal()} THEN {Value(d, plain)} END",
            8 => $"CAST({Value(d, plain)} AS {Pick(["INTEGER", "REAL", "TEXT", "NUMERIC", "BLOB"])})",
            9 => plain ? Pick(PlainColumns) : $"{Value(d, plain)} COLLATE {Pick(["NOCASE", "RTRIM", "BINARY"])}",
            10 => $"iif({Predicate(d)}, {Value(d, plain)}, {Value(d, plain)})",
            11 => Pick(["(SELECT count(*) FROM u WHERE u.a = t.i)", "(SELECT max(a) FROM u WHERE u.b = t.s)",
                "(SELECT b FROM u WHERE u.a > t.i ORDER BY a, b LIMIT 1)", "(SELECT min(i) FROM t AS t2 WHERE t2.id > t.id + 290)",
                "(SELECT count(*) FROM t AS t2 WHERE t2.i = t.i)", "(SELECT sum(a) FROM u)"]),
            12 => Predicate(d),
            _ => $"+{Pick(plain ? PlainColumns : Columns)}",
        };
    }

    private string Predicate(int depth)
    {
        if (depth <= 0 || Chance(30)) return Comparison();
        int d = depth - 1;
        // Row values only in their own runs, so the queries of the other seeds stay what they were.
        if (RowValues && Chance(15)) return RowValuePredicate(d);
        return Pick(11) switch
        {
            0 or 1 => $"({Predicate(d)} AND {Predicate(d)})",
            2 => $"({Predicate(d)} OR {Predicate(d)})",
            3 => $"NOT ({Predicate(d)})",
            4 => $"{Value(d, false)} {(Chance(30) ? "NOT " : "")}LIKE {Pattern()}{(Chance(20) ? " ESCAPE '!'" : "")}",
            5 => $"{Value(d, false)} {(Chance(30) ? "NOT " : "")}GLOB {Pick(["'a*'", "'*b*'", "'[0-9]*'", "'?'", "'*'"])}",
            6 => $"{Value(d, false)} {(Chance(30) ? "NOT " : "")}BETWEEN {Literal()} AND {Literal()}",
            7 => $"{Value(d, false)} {(Chance(30) ? "NOT " : "")}IN ({Literal()}, {Literal()}{(Chance(50) ? ", " + Literal() : "")})",
            8 => $"{Value(d, false)} IS {(Chance(50) ? "NOT " : "")}NULL",
            9 => Pick(["EXISTS (SELECT 1 FROM u WHERE u.a = t.i)", "NOT EXISTS (SELECT 1 FROM u WHERE u.b = t.c)",
                "i IN (SELECT a FROM u)", "s NOT IN (SELECT b FROM u WHERE b IS NOT NULL)", "x IN (SELECT a FROM u WHERE a > 0)",
                "c IN (SELECT b FROM u)"]),
            _ => $"{Value(d, false)} {Pick(["=", "<>", "<", "<=", ">", ">=", "IS", "IS NOT", "IS DISTINCT FROM"])} {Value(d, false)}",
        };
    }

    /// <summary>Row values: comparisons, IN and BETWEEN between vectors of columns, expressions and constants.</summary>
    private string RowValuePredicate(int d)
    {
        string Row(int n)
        {
            var items = new string[n];
            for (int i = 0; i < n; i++) items[i] = Chance(50) ? Pick(Columns) : Chance(50) ? Literal() : Value(d, false);
            return "(" + string.Join(", ", items) + ")";
        }
        int width = Chance(70) ? 2 : 3;
        return Pick(5) switch
        {
            0 => $"{Row(width)} {(Chance(30) ? "NOT " : "")}IN ({Row(width)}, {Row(width)})",
            1 => $"{Row(width)} {(Chance(30) ? "NOT " : "")}BETWEEN {Row(width)} AND {Row(width)}",
            2 => $"{Row(2)} {(Chance(30) ? "NOT " : "")}IN (SELECT a, b FROM u)",
            _ => $"{Row(width)} {Pick(["=", "<>", "<", "<=", ">", ">=", "IS", "IS NOT"])} {Row(width)}",
        };
    }

    /// <summary>A column compared with a constant: the shapes the planner turns into seeks.</summary>
    private string Comparison()
    {
        string column = Pick(Columns);
        return Pick(6) switch
        {
            0 => $"{column} BETWEEN {Literal()} AND {Literal()}",
            1 => $"{column} IN ({Literal()}, {Literal()}, {Literal()})",
            2 => $"{column} IS NULL",
            3 => $"id {Pick(["=", "<", ">=", ">"])} {Pick(300) + 1}",
            _ => $"{column} {Pick(["=", "<>", "<", "<=", ">", ">=", "IS"])} {Literal()}",
        };
    }

    private string Pattern() => Pick(["'a%'", "'%b%'", "'_'", "'%'", "'x!_%'", "'1%'", "'%c'", "'AB%'", "'%.%'"]);

    private string Literal() => Pick(8) switch
    {
        0 => "NULL",
        1 or 2 => (Pick(16) - 4).ToString(CultureInfo.InvariantCulture),
        3 => (Pick(60) / 4.0 - 3).ToString("0.0##", CultureInfo.InvariantCulture),
        4 => "x'616263'",
        _ => MixedTable.Text(_rng),
    };
}
