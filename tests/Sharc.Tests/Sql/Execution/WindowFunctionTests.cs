using System.Globalization;
using System.Text;
using Microsoft.Data.Sqlite;

namespace Sharc.Tests.Sql.Execution;

/// <summary>A table with several partitions, duplicate order keys and NULLs in every column (built once by SQLite).</summary>
public sealed class WindowDatabaseFixture : IDisposable
{
    internal QueryOracle Oracle { get; } = new(Setup());

    private static string[] Setup()
    {
        var rnd = new Random(11);
        var sb = new StringBuilder("INSERT INTO w(p, o, v, r, s) VALUES ");
        string[] texts = ["a", "b", "B", "c", "a "];
        for (int i = 0; i < 60; i++)
        {
            if (i > 0) sb.Append(", ");
            string p = rnd.Next(7) == 0 ? "NULL" : rnd.Next(4).ToString(CultureInfo.InvariantCulture);
            string o = rnd.Next(6) == 0 ? "NULL" : rnd.Next(8).ToString(CultureInfo.InvariantCulture);
            string v = rnd.Next(8) == 0 ? "NULL" : (rnd.Next(41) - 10).ToString(CultureInfo.InvariantCulture);
            string r = rnd.Next(8) == 0 ? "NULL" : (rnd.Next(20) / 4.0).ToString("R", CultureInfo.InvariantCulture);
            string s = rnd.Next(6) == 0 ? "NULL" : "'" + texts[rnd.Next(texts.Length)] + "'";
            sb.Append(CultureInfo.InvariantCulture, $"({p}, {o}, {v}, {r}, {s})");
        }
        return
        [
            "CREATE TABLE w(id INTEGER PRIMARY KEY, p INTEGER, o INTEGER, v INTEGER, r REAL, s TEXT)",
            sb.ToString(),
            "CREATE TABLE e(id INTEGER PRIMARY KEY, p, o, v)",
        ];
    }

    public void Dispose() => Oracle.Dispose();
}

/// <summary>
/// Window functions answered exactly as SQLite answers them: every built-in window function, every aggregate as a
/// window function, named windows, frames of each unit with offsets and EXCLUDE, FILTER, windows over grouped rows,
/// windows in ORDER BY, the order rows come out in (and so ties in row_number()), and SQLite's errors.
/// </summary>
public sealed class WindowFunctionTests(WindowDatabaseFixture fixture) : IClassFixture<WindowDatabaseFixture>
{
    private QueryOracle Db => fixture.Oracle;

    public static TheoryData<string> Queries => new()
    {
        // Ranking over partitions, with and without ORDER BY; ties follow the input order, as SQLite's sorter keeps it.
        "SELECT id, row_number() OVER (PARTITION BY p ORDER BY o) FROM w ORDER BY id",
        // An aggregate inside the window's PARTITION BY / ORDER BY makes the query an aggregate (one group here).
        "SELECT count(*) OVER (PARTITION BY sum(v)) FROM w",
        "SELECT count(*) OVER (ORDER BY max(o)), sum(v) FROM w",
        "SELECT rank() OVER (PARTITION BY min(p) ORDER BY count(*)) FROM w WHERE v > 0",
        "SELECT p, count(*) OVER (PARTITION BY sum(v) > 10) FROM w GROUP BY p ORDER BY p",
        "SELECT count(*) OVER win FROM w WINDOW win AS (PARTITION BY sum(v))",
        "SELECT count(*) OVER (win ORDER BY max(o)) FROM w WINDOW win AS (PARTITION BY sum(v))",
        "SELECT id FROM w WHERE id < 3 WINDOW win AS (PARTITION BY sum(v)) ORDER BY id",
        "SELECT id, row_number() OVER (PARTITION BY p) FROM w ORDER BY id",
        "SELECT id, row_number() OVER () FROM w ORDER BY id",
        "SELECT id, p, o, row_number() OVER (PARTITION BY p ORDER BY o DESC) FROM w",
        "SELECT id, rank() OVER (PARTITION BY p ORDER BY o), dense_rank() OVER (PARTITION BY p ORDER BY o) FROM w ORDER BY id",
        "SELECT id, rank() OVER (ORDER BY o NULLS LAST), dense_rank() OVER (ORDER BY o DESC NULLS FIRST) FROM w ORDER BY id",
        "SELECT id, rank() OVER (), dense_rank() OVER (), percent_rank() OVER (), cume_dist() OVER () FROM w ORDER BY id",
        "SELECT id, percent_rank() OVER (PARTITION BY p ORDER BY o), cume_dist() OVER (PARTITION BY p ORDER BY o) FROM w ORDER BY id",
        "SELECT id, percent_rank() OVER (PARTITION BY id), cume_dist() OVER (PARTITION BY id) FROM w ORDER BY id",
        "SELECT id, ntile(3) OVER (PARTITION BY p ORDER BY o), ntile(100) OVER (ORDER BY id), ntile(1) OVER () FROM w ORDER BY id",
        "SELECT id, ntile(4) OVER (ORDER BY o, id), ntile(2.5) OVER (ORDER BY id), ntile('7') OVER (ORDER BY id) FROM w ORDER BY id",
        "SELECT id, lag(v) OVER (ORDER BY id), lead(v) OVER (ORDER BY id) FROM w ORDER BY id",
        "SELECT id, lag(v, 2) OVER (PARTITION BY p ORDER BY o), lead(v, 3, 'none') OVER (PARTITION BY p ORDER BY o) FROM w ORDER BY id",
        "SELECT id, lag(v, 0) OVER (ORDER BY id), lag(v, -1) OVER (ORDER BY id), lead(v, -2, id) OVER (ORDER BY id) FROM w ORDER BY id",
        "SELECT id, lag(s, 1, s) OVER (PARTITION BY p ORDER BY id), lead(r, 1, 0.5) OVER (PARTITION BY p ORDER BY r) FROM w ORDER BY id",
        "SELECT id, first_value(v) OVER (PARTITION BY p ORDER BY o), last_value(v) OVER (PARTITION BY p ORDER BY o) FROM w ORDER BY id",
        "SELECT id, first_value(s) OVER (ORDER BY o DESC), last_value(s) OVER (), nth_value(s, 3) OVER (ORDER BY id) FROM w ORDER BY id",
        "SELECT id, nth_value(v, 2) OVER (PARTITION BY p ORDER BY o), nth_value(v, 1) OVER (PARTITION BY p) FROM w ORDER BY id",
        "SELECT id, nth_value(v, 2.0) OVER (PARTITION BY p ORDER BY o ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM w ORDER BY id",

        // Aggregates as window functions: default frame (peers included), whole partition, empty frames.
        "SELECT id, count(*) OVER (PARTITION BY p ORDER BY o), count(v) OVER (PARTITION BY p ORDER BY o) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (PARTITION BY p ORDER BY o), total(v) OVER (PARTITION BY p ORDER BY o), avg(v) OVER (PARTITION BY p ORDER BY o) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (PARTITION BY p), min(v) OVER (PARTITION BY p), max(v) OVER (PARTITION BY p) FROM w ORDER BY id",
        "SELECT id, sum(r) OVER (ORDER BY r), avg(r) OVER (ORDER BY r DESC), total(r) OVER () FROM w ORDER BY id",
        "SELECT id, min(s) OVER (PARTITION BY p ORDER BY id), max(s) OVER (ORDER BY id), group_concat(s) OVER (PARTITION BY p ORDER BY id) FROM w ORDER BY id",
        "SELECT id, group_concat(s, '-') OVER (ORDER BY id ROWS 2 PRECEDING), string_agg(v, ';') OVER (PARTITION BY p ORDER BY o, id) FROM w ORDER BY id",
        "SELECT id, max(s COLLATE NOCASE) OVER (PARTITION BY p), min(s COLLATE NOCASE) OVER (PARTITION BY p) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 1 FOLLOWING), count(v) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 1 FOLLOWING), total(v) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 1 FOLLOWING) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (ORDER BY id ROWS BETWEEN 3 FOLLOWING AND 2 FOLLOWING), count(*) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 3 PRECEDING) FROM w ORDER BY id",
        "SELECT id, count(*) OVER (PARTITION BY s COLLATE NOCASE ORDER BY s COLLATE RTRIM) FROM w ORDER BY id",

        // Frames.
        "SELECT id, sum(v) OVER (PARTITION BY p ORDER BY o ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (ORDER BY o ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (ORDER BY o ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (ORDER BY o ROWS UNBOUNDED PRECEDING), sum(v) OVER (ORDER BY o ROWS CURRENT ROW) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (ORDER BY o RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (PARTITION BY p ORDER BY o RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (ORDER BY o DESC RANGE BETWEEN 2 PRECEDING AND 1 PRECEDING) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (ORDER BY o NULLS LAST RANGE BETWEEN 1 FOLLOWING AND 3 FOLLOWING) FROM w ORDER BY id",
        "SELECT id, count(*) OVER (ORDER BY o RANGE BETWEEN UNBOUNDED PRECEDING AND 2 FOLLOWING), count(*) OVER (ORDER BY o DESC NULLS LAST RANGE BETWEEN 1 PRECEDING AND UNBOUNDED FOLLOWING) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (ORDER BY r RANGE BETWEEN 0.75 PRECEDING AND 0.5 FOLLOWING) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (ORDER BY s RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (ORDER BY o GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING), sum(v) OVER (ORDER BY o GROUPS 2 PRECEDING) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (PARTITION BY p ORDER BY o GROUPS BETWEEN CURRENT ROW AND 2 FOLLOWING) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING), sum(v) OVER (RANGE CURRENT ROW) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (ORDER BY o ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (ORDER BY o ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE GROUP) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (ORDER BY o ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE TIES) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (ORDER BY o RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE NO OTHERS) FROM w ORDER BY id",
        "SELECT id, count(*) OVER (PARTITION BY p ORDER BY o GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE GROUP) FROM w ORDER BY id",
        "SELECT id, first_value(v) OVER (ORDER BY o ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW), last_value(v) OVER (ORDER BY o RANGE BETWEEN CURRENT ROW AND 1 FOLLOWING EXCLUDE TIES) FROM w ORDER BY id",
        "SELECT id, rank() OVER (ORDER BY o ROWS 1 PRECEDING), row_number() OVER (ORDER BY o ROWS CURRENT ROW) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (ORDER BY id ROWS BETWEEN $p1 PRECEDING AND $p1 FOLLOWING) FROM w ORDER BY id",

        // FILTER.
        "SELECT id, count(*) FILTER (WHERE v > 0) OVER (PARTITION BY p ORDER BY o), sum(v) FILTER (WHERE s IS NOT NULL) OVER (ORDER BY id ROWS 3 PRECEDING) FROM w ORDER BY id",
        "SELECT id, max(v) FILTER (WHERE o < 4) OVER (PARTITION BY p), group_concat(id) FILTER (WHERE v % 2 = 0) OVER (ORDER BY id) FROM w ORDER BY id",

        // Named windows.
        "SELECT id, sum(v) OVER x, row_number() OVER x FROM w WINDOW x AS (PARTITION BY p ORDER BY o) ORDER BY id",
        "SELECT id, sum(v) OVER (x ORDER BY o) FROM w WINDOW x AS (PARTITION BY p) ORDER BY id",
        "SELECT id, sum(v) OVER (x ROWS 1 PRECEDING) FROM w WINDOW x AS (PARTITION BY p ORDER BY o) ORDER BY id",
        "SELECT id, sum(v) OVER b FROM w WINDOW a AS (PARTITION BY p), b AS (a ORDER BY id) ORDER BY id",
        "SELECT id, sum(v) OVER a FROM w WINDOW b AS (a ORDER BY id), a AS (PARTITION BY p) ORDER BY id",
        "SELECT id, sum(v) OVER a FROM w WINDOW a AS (ORDER BY o), a AS (ORDER BY id) ORDER BY id",

        // The order rows come out in, and windows in ORDER BY or in expressions.
        "SELECT id, p, o, row_number() OVER (PARTITION BY p ORDER BY o), row_number() OVER (ORDER BY o DESC) FROM w",
        "SELECT id, row_number() OVER (ORDER BY o DESC), row_number() OVER (PARTITION BY p ORDER BY o), rank() OVER (ORDER BY s) FROM w",
        "SELECT id, row_number() OVER (ORDER BY s), row_number() OVER (ORDER BY p), row_number() OVER (ORDER BY s) FROM w",
        "SELECT id FROM w ORDER BY row_number() OVER (ORDER BY v DESC), id",
        "SELECT id, v FROM w ORDER BY sum(v) OVER (PARTITION BY p), id",
        "SELECT id, row_number() OVER (ORDER BY o) AS rn FROM w ORDER BY rn DESC",
        "SELECT id, p FROM w ORDER BY p, rank() OVER (PARTITION BY p ORDER BY v)",
        "SELECT id, v - lag(v) OVER (ORDER BY id) AS d, (row_number() OVER (ORDER BY id) + 1) * 2 FROM w ORDER BY id",
        "SELECT id, row_number() OVER (ORDER BY id) FROM w ORDER BY id LIMIT 5 OFFSET 3",
        "SELECT DISTINCT p, count(*) OVER (PARTITION BY p) FROM w ORDER BY p",
        "SELECT id, (SELECT count(*) FROM w AS x WHERE x.p = w.p), row_number() OVER (PARTITION BY p ORDER BY id) FROM w ORDER BY id",
        "SELECT id, sum(v) OVER (ORDER BY (SELECT 1)), sum(v) OVER (PARTITION BY (SELECT count(*) FROM w AS x WHERE x.o = w.o)) FROM w ORDER BY id",
        "SELECT * FROM (SELECT id, row_number() OVER (PARTITION BY p ORDER BY v) AS rn FROM w) WHERE rn <= 2 ORDER BY id",
        "SELECT id, rn FROM (SELECT id, p, row_number() OVER (ORDER BY id) AS rn FROM w) WHERE p = 1 ORDER BY id",
        "SELECT x, row_number() OVER (ORDER BY x DESC) FROM (SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 2)",
        "SELECT row_number() OVER (), count(*) OVER (), sum(1) OVER ()",
        "SELECT id, row_number() OVER (ORDER BY id) FROM e",
        "SELECT count(*) OVER (), sum(v) OVER () FROM e",
        "SELECT id, row_number() OVER (PARTITION BY p ORDER BY o) FROM w WHERE v > 3 ORDER BY id",

        // Over grouped rows.
        "SELECT p, sum(v), rank() OVER (ORDER BY sum(v)) FROM w GROUP BY p ORDER BY p",
        "SELECT p, count(*), sum(count(*)) OVER (), sum(sum(v)) OVER (ORDER BY p) FROM w GROUP BY p",
        "SELECT p, o, count(*), row_number() OVER (PARTITION BY p ORDER BY count(*) DESC, o) FROM w GROUP BY p, o ORDER BY p, o",
        "SELECT p, max(v), lag(max(v)) OVER (ORDER BY p) FROM w GROUP BY p HAVING count(*) > 3 ORDER BY p",
        "SELECT p, count(*) OVER () FROM w GROUP BY p ORDER BY p",
        "SELECT count(*), row_number() OVER () FROM w",
    };

    [Theory]
    [MemberData(nameof(Queries))]
    public void Answers_as_sqlite_does(string sql) => Db.Check(sql, ordered: true, 2L);

    [Theory]
    [InlineData("SELECT abs(v) OVER () FROM w", "abs() may not be used as a window function")]
    [InlineData("SELECT row_number() FROM w", "misuse of window function row_number()")]
    [InlineData("SELECT count(DISTINCT v) OVER () FROM w", "DISTINCT is not supported for window functions")]
    [InlineData("SELECT rank() FILTER (WHERE v > 1) OVER () FROM w", "FILTER clause may only be used with aggregate window functions")]
    [InlineData("SELECT id FROM w WHERE row_number() OVER () > 1", "misuse of window function row_number()")]
    [InlineData("SELECT p FROM w GROUP BY row_number() OVER ()", "misuse of window function row_number()")]
    [InlineData("SELECT p FROM w GROUP BY p HAVING row_number() OVER () > 1", "misuse of window function row_number()")]
    [InlineData("SELECT sum(row_number() OVER ()) OVER () FROM w", "misuse of window function row_number()")]
    [InlineData("SELECT sum(v) OVER x FROM w", "no such window: x")]
    [InlineData("SELECT sum(v) OVER (x PARTITION BY o) FROM w WINDOW x AS (PARTITION BY p)", "cannot override PARTITION clause of window: x")]
    [InlineData("SELECT sum(v) OVER (x ORDER BY o) FROM w WINDOW x AS (ORDER BY p)", "cannot override ORDER BY clause of window: x")]
    [InlineData("SELECT sum(v) OVER (x) FROM w WINDOW x AS (ORDER BY p ROWS CURRENT ROW)", "cannot override frame specification of window: x")]
    [InlineData("SELECT sum(v) OVER (ROWS -1 PRECEDING) FROM w", "frame starting offset must be a non-negative integer")]
    [InlineData("SELECT sum(v) OVER (ROWS BETWEEN 1 PRECEDING AND -1 FOLLOWING) FROM w", "frame ending offset must be a non-negative integer")]
    [InlineData("SELECT sum(v) OVER (ROWS 1.5 PRECEDING) FROM w", "frame starting offset must be a non-negative integer")]
    [InlineData("SELECT sum(v) OVER (GROUPS 'a' PRECEDING) FROM w", "frame starting offset must be a non-negative integer")]
    [InlineData("SELECT sum(v) OVER (ROWS id PRECEDING) FROM w", "frame starting offset must be a non-negative integer")]
    [InlineData("SELECT sum(v) OVER (ORDER BY o RANGE -1 PRECEDING) FROM w", "frame starting offset must be a non-negative number")]
    [InlineData("SELECT sum(v) OVER (ORDER BY o RANGE BETWEEN NULL PRECEDING AND 1 FOLLOWING) FROM w", "frame starting offset must be a non-negative number")]
    [InlineData("SELECT sum(v) OVER (RANGE 1 PRECEDING) FROM w", "RANGE with offset PRECEDING/FOLLOWING requires one ORDER BY expression")]
    [InlineData("SELECT sum(v) OVER (ORDER BY o, p RANGE BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM w", "RANGE with offset PRECEDING/FOLLOWING requires one ORDER BY expression")]
    [InlineData("SELECT ntile(0) OVER () FROM w", "argument of ntile must be a positive integer")]
    [InlineData("SELECT ntile('x') OVER () FROM w", "argument of ntile must be a positive integer")]
    [InlineData("SELECT nth_value(v, 0) OVER () FROM w", "second argument to nth_value must be a positive integer")]
    [InlineData("SELECT nth_value(v, 1.5) OVER () FROM w", "second argument to nth_value must be a positive integer")]
    [InlineData("SELECT row_number(1) OVER () FROM w", "wrong number of arguments to function row_number()")]
    [InlineData("SELECT lag() OVER () FROM w", "wrong number of arguments to function lag()")]
    [InlineData("SELECT nosuch(v) OVER () FROM w", "no such function: nosuch")]
    [InlineData("SELECT min(v) OVER (ORDER BY nosuch) FROM w", "no such column: nosuch")]
    public void Refuses_what_sqlite_refuses_with_its_message(string sql, string message)
    {
        var e = Assert.ThrowsAny<SharcException>(() =>
        {
            using var r = Db.Db.Query(sql);
            while (r.Read()) { }
        });
        (e is SharcSqlException s ? s.SqliteMessage : e.Message).Should().Be(message);
        SqliteMessage(sql).Should().Be(message, "SQLite refuses it the same way");
    }

    private string? SqliteMessage(string sql)
    {
        try
        {
            using var cmd = Db.Sqlite.CreateCommand();
            cmd.CommandText = sql;
            using var r = cmd.ExecuteReader();
            while (r.Read()) { }
            return null;
        }
        catch (SqliteException e)
        {
            return e.Message.Replace("SQLite Error 1: '", "", StringComparison.Ordinal).TrimEnd('.').TrimEnd('\'');
        }
    }

    [Fact]
    public void A_window_in_the_values_of_an_UPDATE_is_misused()
    {
        using var db = SharcDatabase.Open(Db.Path, new SharcOpenOptions { Writable = true });
        var e = Assert.ThrowsAny<SharcException>(() => db.Execute("UPDATE e SET v = row_number() OVER ()"));
        e.Message.Should().Contain("misuse of window function row_number()");
    }

    [Fact]
    public void INSERT_SELECT_with_windows_inserts_their_values()
    {
        using var db = new QueryOracle("CREATE TABLE a(x, y)", "CREATE TABLE b(n, x)", "INSERT INTO a VALUES (1, 'p'), (2, 'q'), (3, 'p')");
        using (var writable = SharcDatabase.Open(db.Path, new SharcOpenOptions { Writable = true }))
            writable.Execute("INSERT INTO b SELECT row_number() OVER (PARTITION BY y ORDER BY x DESC), x FROM a");
        using var check = SharcDatabase.Open(db.Path);
        QueryOracle.Rows(check.Query("SELECT n, x FROM b ORDER BY x")).Should().Equal("I:2 | I:1", "I:1 | I:2", "I:1 | I:3");
    }

    [Fact]
    public void An_unused_window_definition_is_not_checked()
        => Db.Check("SELECT id FROM w WINDOW x AS (ORDER BY nosuch) ORDER BY id", ordered: true);

    [Fact]
    public void Result_types_are_sqlites()
    {
        using var r = Db.Db.Query("SELECT percent_rank() OVER (), cume_dist() OVER (), ntile(2) OVER (), row_number() OVER () FROM w LIMIT 1");
        r.Read().Should().BeTrue();
        (r.GetValue(0), r.GetValue(1), r.GetValue(2), r.GetValue(3)).Should().Be((0.0, 1.0, 1L, 1L));
    }

    /// <summary>Random windows — functions, partitions, orders, frames, EXCLUDE and FILTER — compared with SQLite.</summary>
    [Fact]
    public void Random_windows_answer_as_sqlite_does()
    {
        var rnd = new Random(20240611);
        string[] partitions = ["", "PARTITION BY p", "PARTITION BY s", "PARTITION BY p, s", "PARTITION BY o % 3", "PARTITION BY v > 0"];
        string[] orders = ["", "ORDER BY o", "ORDER BY o DESC", "ORDER BY o NULLS LAST", "ORDER BY o DESC NULLS FIRST", "ORDER BY r", "ORDER BY s", "ORDER BY o, id", "ORDER BY v DESC, s", "ORDER BY s COLLATE NOCASE"];
        string[] functions =
        [
            "row_number()", "rank()", "dense_rank()", "percent_rank()", "cume_dist()", "ntile(3)", "ntile(7)",
            "lag(v)", "lead(s, 2)", "lag(v, 3, -1)", "first_value(s)", "last_value(v)", "nth_value(v, 2)", "nth_value(s, 4)",
            "count(*)", "count(v)", "sum(v)", "total(v)", "avg(v)", "min(s)", "max(v)", "group_concat(v)", "group_concat(s, '|')", "sum(r)",
        ];
        string[] filters = ["", "", "", " FILTER (WHERE v > 2)", " FILTER (WHERE s IS NOT NULL)"];
        string Bound(bool start)
        {
            int n = rnd.Next(4);
            return rnd.Next(6) switch
            {
                0 => start ? "UNBOUNDED PRECEDING" : "UNBOUNDED FOLLOWING",
                1 => "CURRENT ROW",
                2 or 3 => $"{n} PRECEDING",
                _ => $"{n} FOLLOWING",
            };
        }
        string Frame(string order)
        {
            if (rnd.Next(3) == 0) return "";
            string[] units = ["ROWS", "GROUPS", "RANGE"];
            string unit = units[rnd.Next(3)];
            string start = Bound(true), end = Bound(false);
            string exclude = rnd.Next(3) == 0 ? new[] { " EXCLUDE CURRENT ROW", " EXCLUDE GROUP", " EXCLUDE TIES", " EXCLUDE NO OTHERS" }[rnd.Next(4)] : "";
            return $" {unit} BETWEEN {start} AND {end}{exclude}";
        }
        (string, bool) Next()
        {
            var calls = new List<string>();
            int count = 1 + rnd.Next(3);
            for (int i = 0; i < count; i++)
            {
                string f = functions[rnd.Next(functions.Length)];
                bool aggregate = f.StartsWith("count", StringComparison.Ordinal) || f.StartsWith("sum", StringComparison.Ordinal) || f.StartsWith("total", StringComparison.Ordinal)
                    || f.StartsWith("avg", StringComparison.Ordinal) || f.StartsWith("min", StringComparison.Ordinal) || f.StartsWith("max", StringComparison.Ordinal) || f.StartsWith("group", StringComparison.Ordinal);
                string filter = aggregate ? filters[rnd.Next(filters.Length)] : "";
                string order = orders[rnd.Next(orders.Length)];
                string spec = string.Join(" ", new[] { partitions[rnd.Next(partitions.Length)], order }.Where(x => x.Length > 0)) + Frame(order);
                calls.Add($"{f}{filter} OVER ({spec.Trim()})");
            }
            // Without ORDER BY the rows come out in the first window's order; half the queries check that too.
            string tail = rnd.Next(2) == 0 ? " ORDER BY id" : "";
            switch (rnd.Next(5))
            {
                case 0:
                    // Over grouped rows: the window's columns become the group's.
                    string grouped = string.Join(", ", calls).Replace("(v)", "(sum(v))", StringComparison.Ordinal).Replace("(s", "(min(s)", StringComparison.Ordinal)
                        .Replace("BY v", "BY max(v)", StringComparison.Ordinal).Replace("BY s", "BY min(s)", StringComparison.Ordinal)
                        .Replace("BY p, s", "BY p, min(s)", StringComparison.Ordinal).Replace("DESC, s", "DESC, min(s)", StringComparison.Ordinal).Replace("BY r", "BY avg(r)", StringComparison.Ordinal)
                        .Replace("v > ", "max(v) > ", StringComparison.Ordinal).Replace("o, id", "o, count(*)", StringComparison.Ordinal)
                        .Replace("(r)", "(avg(r))", StringComparison.Ordinal).Replace("s IS NOT", "min(s) IS NOT", StringComparison.Ordinal);
                    return ($"SELECT p, o, {grouped} FROM w GROUP BY p, o{(tail.Length > 0 ? " ORDER BY p, o" : "")}", true);
                case 1:
                    // The same windows through a WINDOW clause.
                    var defs = new List<string>();
                    for (int i = 0; i < calls.Count; i++)
                    {
                        int over = calls[i].IndexOf(" OVER (", StringComparison.Ordinal);
                        defs.Add($"w{i} AS {calls[i][(over + 6)..]}");
                        calls[i] = calls[i][..over] + $" OVER w{i}";
                    }
                    return ($"SELECT id, {string.Join(", ", calls)} FROM w WINDOW {string.Join(", ", defs)}{tail}", true);
                default:
                    return ($"SELECT id, {string.Join(", ", calls)} FROM w{tail}", true);
            }
        }
        var (failures, errors) = Db.Disagreements(Next, 600);
        failures.Should().BeEmpty();
        errors.Should().BeLessThan(300);
    }
}
