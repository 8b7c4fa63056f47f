using System.Globalization;
using System.Text;
using Sharc.Cli.Slt;
using Sharc.Sql.Functions;
using Sharc.Sql.Values;
using Sharc.Tests.Slt;
using static Sharc.Tests.Sql.Semantics.ValuePool;

namespace Sharc.Tests.Sql.Semantics;

/// <summary>date(), time(), datetime(), julianday(), unixepoch(), strftime() and timediff() against SQLite.</summary>
public class DateTimeFunctionTests : IClassFixture<OracleFixture>
{
    private readonly SemanticsOracle _oracle;

    public DateTimeFunctionTests(OracleFixture fixture) => _oracle = fixture.Oracle;

    private static readonly string[] Functions = ["date", "time", "datetime", "julianday", "unixepoch"];

    private static string Call(string name, int arity) => name + "(" + string.Join(", ", Enumerable.Range(0, arity).Select(i => "{" + i + "}")) + ")";

    private static void Check(Differential d, string name, params SqlValue[] args)
    {
        var f = ScalarFunctions.Resolve(name, args.Length);
        d.Check(Call(name, args.Length), args, a => f.Invoke(a));
    }

    /// <summary>Every function on the time value, alone and with each modifier.</summary>
    private static void AllFunctions(Differential d, SqlValue value, params SqlValue[] modifiers)
    {
        foreach (var name in Functions) Check(d, name, [value, .. modifiers]);
        Check(d, "strftime", [T("%Y-%m-%d %H:%M:%f %j %J %s %w %W %U %V %G"), value, .. modifiers]);
    }

    private static readonly string[] TimeValues =
    [
        "2024-02-29", "2023-02-29", "2023-02-30", "2023-02-31", "2024-02-30", "1900-02-29", "2000-02-29", "2100-02-29",
        "2024-01-31", "2023-04-31", "2023-04-30", "2023-06-31", "0000-01-01", "0000-02-29", "9999-12-31",
        "9999-12-31 23:59:59.999", "9999-12-31 23:59:59.9999", "-4713-11-24 12:00:00", "-4713-11-24 11:59:59",
        "-4713-11-24", "-4714-01-01", "-0001-03-01", "-0001-12-31 23:59:59", "1970-01-01", "1582-10-10",
        "2024-06-15 12:34", "2024-06-15 12:34:56", "2024-06-15 12:34:56.789", "2024-06-15T12:34:56.7891",
        "2024-06-15 12:34:56.9999", "2024-06-15 12:34:56.0005", "2024-06-15 12:34:56.123456789", "2024-06-15 12:34:56Z",
        "2024-06-15 12:34:56z", "2024-06-15 12:34:56+05:30", "2024-06-15 12:34:56 -14:00", "2024-06-15 12:34:56+14:59",
        "2024-06-15 12:34:56+15:00", "2024-06-15 12:34:56+05", "2024-06-15 12:34:56+0530", "2024-06-15 12:34 Z ",
        "2024-06-15 12:34:56+05:30 ", "2024-06-15 12:34:56+05:30x", "2024-06-15 23:30-02:00", "2024-12-31 23:30-01:00",
        "0000-01-01 00:30+01:00", "9999-12-31 23:30-01:00", "12:34", "12:34:56", "12:34:56.5-01:00", "24:00",
        "24:00:00", "24:59:59", "25:00", "12:60", "12:59:60", "1:30", "12:34Z", "12:34+01:00",
        "2024-6-15", "2024-06-15 ", " 2024-06-15", "2024-06-15x", "2024-06-15T", "2024-06-15t12:00", "2024-06-15TT12:00",
        "2024-06-15 T 12:00", "2024-06-15  12:00", "2024-06-15 12:00:00.", "2024-06-15 12:00:0", "2024-06-15 12:00:00.5.",
        "2024-13-01", "2024-00-10", "2024-01-00", "2024-01-32", "10000-01-01", "+2024-01-01", "20240101",
        "2460000.5", " 2460000.5 ", "2460000", "-1", "0", "0.0", "5373484.4999", "5373484.5", "1e6", "1.5e6", "0x10",
        "1700000000", "abc", "", "NOW ", "2024-06-15\t12:00", "2024-06-15\n",
    ];

    [Fact]
    public void TimeValuesParseAsInSqlite()
    {
        var d = new Differential(_oracle);
        foreach (var v in TimeValues) AllFunctions(d, T(v));
        SqlValue[] others =
        [
            I(0), I(1), I(-1), I(2460000), R(2460000.5), R(2460000.25), R(5373484.4999), R(5373484.5), I(1700000000),
            R(-0.5), R(1e300), SqlValue.Null, B("323032342D30312D3031"), RawText("323032342D30312D303100787878"),
            RawText("00"), B(""), I(long.MaxValue), I(long.MinValue),
        ];
        foreach (var v in others) AllFunctions(d, v);
        d.AssertAgrees(TimeValues.Length * 12);
    }

    private static readonly string[] Modifiers =
    [
        "+1 day", "-1 days", "+1.5 days", "1 day", "+1 DAY", "+1 Days", "+1 dayss", "+1days", "+ 1 day", "+1  day",
        "+1 day ", " +1 day", "+1e2 days", "+.5 day", "+1. day", "-0 days", "+24 hours", "+90 minutes", "+3600 seconds",
        "+0.0001 seconds", "+0.0005 seconds", "-0.0005 seconds", "+0.0015 seconds", "+1 month", "-1 month", "+13 months",
        "-13 months", "-12 months", "-24 months", "+1.5 months", "-1.5 months", "+1 year", "-1 year", "+0.5 years",
        "+10000 years", "-10000 years", "+176545 months", "+176546 months", "+14712 years", "+14713 years",
        "+5373484 days", "+5373485 days", "+128970000000 hours", "+1 week", "+1 fortnight", "+1 mon", "+1 s",
        "start of month", "start of year", "start of day", "start of week", "START OF MONTH", "start of  month",
        "start of month ", "weekday 0", "weekday 1", "weekday 2", "weekday 3", "weekday 4", "weekday 5", "weekday 6",
        "weekday 7", "weekday -1", "weekday 1.5", "weekday 1.0", "weekday  3", "weekday 3 ", "WEEKDAY 3", "weekday3",
        "unixepoch", "julianday", "auto", "UNIXEPOCH", "subsec", "subsecond", "SUBSEC", "ceiling", "floor", "+01:30",
        "-01:30", "+01:30:15.5", "-01:30:15.5", "12:00", "+24:00", "-24:00", "+1:30", "+01:30Z", "+01:30 ",
        "+01:30:00+01:00", "+0001-02-03", "-0001-02-03", "+00001-01-01", "-00001-01-01", "+0000-12-00",
        "+0000-11-30", "+0000-00-31", "+0001-01-01 12:00", "+0001-01-01 12:00:30", "-0001-01-01 12:00:30.5",
        "+0001-01-01x", "+0001-01-01 ", "+0001-01-01 1:00", "0001-01-01", "+0000-01-00", "-0000-01-00", "+9999-00-00",
        "", "x", "now", "+", "-", "1", "+1", "+1 ", "+1 d",
    ];

    [Fact]
    public void EachModifierAsInSqlite()
    {
        var d = new Differential(_oracle);
        SqlValue[] bases =
        [
            T("2024-01-31 10:20:30.456"), T("2023-02-28"), T("2024-02-29 23:59:59"), T("2023-02-30"), T("2000-03-31"),
            T("0000-01-01"), T("9999-12-31 12:00"), T("12:34:56"), T("2024-06-15 12:00+05:00"), T("-4713-11-24 12:00"),
            I(1700000000), R(2460000.5), I(-86400), R(1e10), I(0), T("2460000.25"), T("1700000000.5"),
        ];
        foreach (var b in bases)
        {
            foreach (var m in Modifiers) AllFunctions(d, b, T(m));
        }
        foreach (var m in new SqlValue[] { I(1), R(1.5), SqlValue.Null, B("2B312064617973") }) AllFunctions(d, T("2024-01-01"), m);
        d.AssertAgrees(bases.Length * Modifiers.Length * 6);
    }

    [Fact]
    public void ModifierChainsAndPositionRules()
    {
        var d = new Differential(_oracle);
        string[][] chains =
        [
            ["+1 month", "floor"], ["+1 month", "ceiling"], ["-1 month", "floor"], ["+1 year", "floor"],
            ["start of month", "+1 month", "-1 day"], ["start of year", "weekday 1"], ["unixepoch", "start of day"],
            ["+1 day", "unixepoch"], ["+1 day", "julianday"], ["+1 day", "auto"], ["subsec", "unixepoch"],
            ["unixepoch", "subsec"], ["auto", "subsec"], ["julianday", "+12 hours"], ["floor", "floor"],
            ["start of day", "floor"], ["+0001-01-00", "floor"], ["-0000-01-00", "floor"], ["weekday 0", "weekday 6"],
            ["+10 years", "-10 years"], ["start of day", "+1 day", "subsecond"],
        ];
        SqlValue[] bases =
        [
            T("2024-01-31 10:20:30.456"), T("2024-03-31"), T("2023-02-30"), T("2024-02-29"), I(1700000000),
            R(2460000.5), R(-1.5), I(5373484), T("2023-01-31"), T("2025-05-31 23:59:59.999"),
        ];
        foreach (var b in bases)
        {
            foreach (var chain in chains) AllFunctions(d, b, [.. chain.Select(T)]);
        }
        d.AssertAgrees(bases.Length * chains.Length * 6);
    }

    private static readonly string[] Conversions =
    [
        "%d", "%e", "%f", "%F", "%G", "%g", "%H", "%I", "%j", "%J", "%k", "%l", "%m", "%M", "%p", "%P", "%R", "%s",
        "%S", "%T", "%u", "%U", "%V", "%w", "%W", "%Y", "%%", "%a", "%A", "%b", "%B", "%c", "%C", "%D", "%E", "%h",
        "%n", "%t", "%x", "%X", "%y", "%Z", "%z", "%", "abc", "", "%Y-%m-%d %H:%M:%f", "é%Y😀", "100%%", "%%%",
        "%Y%", "x%qy",
    ];

    [Fact]
    public void StrftimeConversionsAsInSqlite()
    {
        var d = new Differential(_oracle);
        string[] dates =
        [
            "2024-01-01", "2023-01-01", "2021-01-03", "2020-12-31", "2027-01-01", "2024-12-30", "2026-12-31", "2010-01-03",
            "2008-12-29", "2005-01-01", "2004-12-31", "0000-01-01", "-0005-06-07 13:14:15.678", "-4713-11-24 12:00",
            "9999-12-31 23:59:59.999", "2024-06-15 00:00:00", "2024-06-15 12:00:00", "2024-06-15 13:05:09.5", "12:00",
            "23:59:59.999", "23:59:59.9999", "2024-02-29 07:08:09.010", "1970-01-01", "1969-12-31 23:59:59.5",
        ];
        foreach (var date in dates)
        {
            foreach (var c in Conversions)
            {
                Check(d, "strftime", T(c), T(date));
                Check(d, "strftime", T(c), T(date), T("subsec"));
            }
        }
        // Every day of two years crossing week-numbering boundaries.
        for (int day = 0; day < 2 * 366 + 14; day++)
        {
            var v = T(new DateTime(2019, 12, 20).AddDays(day).ToString("yyyy-MM-dd", CultureInfo.InvariantCulture));
            Check(d, "strftime", T("%G %g %V %U %W %u %w %j"), v);
        }
        foreach (var f in new[] { SqlValue.Null, I(5), R(1.5), B("2559"), RawText("25590025") }) Check(d, "strftime", f, T("2024-01-01"));
        d.AssertAgrees(dates.Length * Conversions.Length * 2);
    }

    [Fact]
    public void TimediffAsInSqlite()
    {
        var d = new Differential(_oracle);
        string[] values =
        [
            "2024-03-01", "2024-02-01", "2023-01-31", "2023-03-01", "2000-01-01 00:00:00", "2024-06-15 12:34:56.789",
            "2024-02-29", "2023-02-28", "2023-02-30", "0000-01-01", "9999-12-31 23:59:59.999", "-4713-11-24 12:00",
            "12:00", "2024-01-31 23:00", "2024-02-01 01:00", "2025-01-31", "2024-12-31 23:59:59.999", "abc",
        ];
        foreach (var a in values)
        {
            foreach (var b in values) Check(d, "timediff", T(a), T(b));
        }
        Check(d, "timediff", I(1700000000), R(2460000.5));
        Check(d, "timediff", SqlValue.Null, T("2024-01-01"));
        d.AssertAgrees(values.Length * values.Length);
    }

    /// <summary>A random time value in one of the accepted shapes (or a near miss).</summary>
    private static SqlValue RandomTimeValue(Random r)
    {
        int year = r.Next(12) switch { 0 => r.Next(-4713, 0), 1 => r.Next(0, 100), 2 => r.Next(9990, 10000), _ => r.Next(1900, 2100) };
        int month = r.Next(20) == 0 ? r.Next(0, 14) : r.Next(1, 13);
        int day = r.Next(10) == 0 ? r.Next(0, 33) : r.Next(1, 32);
        string date = (year < 0 ? "-" : "") + Math.Abs(year).ToString("0000", CultureInfo.InvariantCulture) + "-" + month.ToString("00", CultureInfo.InvariantCulture) + "-" + day.ToString("00", CultureInfo.InvariantCulture);
        string time = r.Next(25).ToString("00", CultureInfo.InvariantCulture) + ":" + r.Next(60).ToString("00", CultureInfo.InvariantCulture);
        if (r.Next(3) > 0) time += ":" + r.Next(60).ToString("00", CultureInfo.InvariantCulture);
        if (r.Next(3) == 0) time += "." + string.Concat(Enumerable.Range(0, r.Next(1, 7)).Select(_ => (char)('0' + r.Next(10))));
        string tz = r.Next(6) switch
        {
            0 => "Z",
            1 => (r.Next(2) == 0 ? "+" : "-") + r.Next(15).ToString("00", CultureInfo.InvariantCulture) + ":" + r.Next(60).ToString("00", CultureInfo.InvariantCulture),
            _ => "",
        };
        return r.Next(14) switch
        {
            0 => T(time + tz),
            1 => T(date),
            2 => R(Math.Round(r.NextDouble() * 5373484.5, r.Next(8))),
            3 => I(r.NextInt64(-210866760000, 253402300800)),
            4 => R(Math.Round((r.NextDouble() - 0.3) * 1e10, r.Next(4))),
            5 => T(Math.Round(r.NextDouble() * 3e6, r.Next(6)).ToString(CultureInfo.InvariantCulture)),
            6 => I(r.Next(-1000, 3000000)),
            _ => T(date + (r.Next(4) == 0 ? "T" : " ") + time + tz),
        };
    }

    private static string RandomModifier(Random r)
    {
        string Num() => r.Next(4) switch
        {
            0 => r.Next(-50, 50).ToString(CultureInfo.InvariantCulture),
            1 => (Math.Round((r.NextDouble() - 0.5) * 200, r.Next(1, 5))).ToString(CultureInfo.InvariantCulture),
            2 => (r.Next(2) == 0 ? "+" : "-") + r.Next(0, 1000).ToString(CultureInfo.InvariantCulture),
            _ => r.Next(-100000, 100000).ToString(CultureInfo.InvariantCulture),
        };
        string[] units = ["day", "days", "hour", "hours", "minute", "minutes", "second", "seconds", "month", "months", "year", "years"];
        return r.Next(16) switch
        {
            0 => "start of " + Pick(r, ["month", "year", "day"]),
            1 => "weekday " + r.Next(0, 7).ToString(CultureInfo.InvariantCulture),
            2 => Pick(r, ["unixepoch", "julianday", "auto", "subsec", "ceiling", "floor"]),
            3 => (r.Next(2) == 0 ? "+" : "-") + r.Next(0, 25).ToString("00", CultureInfo.InvariantCulture) + ":" + r.Next(0, 60).ToString("00", CultureInfo.InvariantCulture)
                 + (r.Next(2) == 0 ? ":" + r.Next(0, 60).ToString("00", CultureInfo.InvariantCulture) + (r.Next(2) == 0 ? ".5" : "") : ""),
            4 => (r.Next(2) == 0 ? "+" : "-") + r.Next(0, 30).ToString("0000", CultureInfo.InvariantCulture) + "-" + r.Next(0, 13).ToString("00", CultureInfo.InvariantCulture)
                 + "-" + r.Next(0, 32).ToString("00", CultureInfo.InvariantCulture) + (r.Next(3) == 0 ? " 01:30" : ""),
            _ => Num() + " " + Pick(r, units),
        };

        static string Pick(Random r, string[] a) => a[r.Next(a.Length)];
    }

    private static string RandomFormat(Random r)
    {
        const string conversions = "deffFGgHIjJklmMpPRsSTuUVwWY%";
        var sb = new StringBuilder();
        for (int k = r.Next(1, 5); k > 0; k--)
        {
            if (r.Next(3) == 0) sb.Append(" -:x"[r.Next(4)]);
            sb.Append('%').Append(conversions[r.Next(conversions.Length)]);
        }
        if (r.Next(40) == 0) sb.Append("%q");
        return sb.ToString();
    }

    [Fact]
    public void RandomTimeValuesAndModifierChainsAgreeWithSqlite()
    {
        var d = new Differential(_oracle);
        var r = new Random(20240615);
        const int count = 4000;
        for (int i = 0; i < count; i++)
        {
            var args = new List<SqlValue> { RandomTimeValue(r) };
            for (int k = r.Next(4); k > 0; k--) args.Add(T(RandomModifier(r)));
            int which = r.Next(Functions.Length + 1);
            if (which == Functions.Length) Check(d, "strftime", [T(RandomFormat(r)), .. args]);
            else Check(d, Functions[which], [.. args]);
            if (i % 8 == 0) Check(d, "timediff", RandomTimeValue(r), RandomTimeValue(r));
        }
        d.AssertAgrees(count);
    }

    [Fact]
    public void NowIsTheUtcClockAndStableWithinAStatement()
    {
        var f = ScalarFunctions.Resolve("julianday", 1);
        double mine = f.Invoke([T("now")]).RealValue;
        double sqlite = _oracle.Eval("julianday('now')", []).Value.RealValue;
        Math.Abs(mine - sqlite).Should().BeLessThan(10.0 / 86400);
        double utc = DateTime.UtcNow.ToOADate() + 2415018.5;
        Math.Abs(mine - utc).Should().BeLessThan(10.0 / 86400);
        ScalarFunctions.Resolve("date", 0).Invoke([]).AsString().Should().MatchRegex(@"^\d{4}-\d\d-\d\d$");
        ScalarFunctions.Resolve("unixepoch", 1).Invoke([T("subsec")]).Type.Should().Be(SharcColumnType.Real);

        using var dir = new Sharc.Tests.Infrastructure.TempDir();
        var path = dir.File("now.db");
        using (var c = Sharc.Tests.Infrastructure.Oracle.Open(path))
        {
            Sharc.Tests.Infrastructure.Oracle.Exec(c, "CREATE TABLE t(x)");
            Sharc.Tests.Infrastructure.Oracle.Exec(c, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO t SELECT i FROM n");
        }
        using var db = SharcDatabase.Open(path);
        using var reader = db.Query("SELECT strftime('%Y-%m-%d %H:%M:%f', 'now'), datetime('now', 'subsec'), CURRENT_TIMESTAMP, datetime('now'), unixepoch('subsec') FROM t");
        var seen = new HashSet<string>();
        int rows = 0;
        while (reader.Read())
        {
            rows++;
            seen.Add(string.Join("|", Enumerable.Range(0, 5).Select(i => Convert.ToString(reader.GetValue(i), CultureInfo.InvariantCulture))));
            ((string)reader.GetValue(2)).Should().Be((string)reader.GetValue(3));
            ((string)reader.GetValue(0)).Replace(" ", "").Should().Be(((string)reader.GetValue(1)).Replace(" ", ""));
        }
        rows.Should().Be(20000);
        seen.Should().HaveCount(1);
    }

    [Fact]
    public void LocaltimeAndUtcRoundTrip()
    {
        var d = new Differential(_oracle);
        string[] values = ["2024-01-15 12:00:00", "2024-07-15 12:00:00.250", "1969-07-20 20:17:40", "2100-06-01 03:00", "1600-01-01 00:00", "2038-01-19 03:14:08"];
        foreach (var v in values)
        {
            // SQLite reads the same machine time zone, so its answers are the prediction.
            Check(d, "datetime", T(v), T("localtime"));
            Check(d, "datetime", T(v), T("utc"));
            Check(d, "datetime", T(v), T("localtime"), T("utc"));
            Check(d, "datetime", T(v), T("utc"), T("localtime"));
            Check(d, "strftime", T("%F %T %f"), T(v), T("localtime"), T("localtime"));
            Check(d, "datetime", T(v + "Z"), T("utc"));
            ScalarFunctions.Resolve("datetime", 3).Invoke([T(v), T("localtime"), T("utc")]).AsString()
                .Should().Be(ScalarFunctions.Resolve("datetime", 1).Invoke([T(v)]).AsString());
        }
        d.AssertAgrees(values.Length * 6);
    }

    [Fact]
    public void DateFunctionsOverATableColumnThroughQuery()
    {
        using var q = new Sharc.Tests.Sql.Execution.QueryOracle(
            "CREATE TABLE e(id INTEGER PRIMARY KEY, at TEXT, n REAL, u INTEGER)",
            "INSERT INTO e VALUES (1, '2024-01-31 10:20:30', 2460000.5, 1700000000), (2, '2023-02-30', 0, -1), (3, 'bad', NULL, 0), (4, NULL, 5373484.4, 253402300799), (5, '2024-02-29T23:59:59.999+01:00', 1.5, 86400)");
        string[] queries =
        [
            "SELECT id, date(at), time(at), datetime(at, '+1 month'), julianday(at), unixepoch(at), strftime('%W %j %s', at) FROM e ORDER BY id",
            "SELECT id, datetime(n), datetime(u, 'unixepoch'), datetime(u, 'auto'), timediff(at, '2024-01-01') FROM e ORDER BY id",
            "SELECT id FROM e WHERE date(at) < '2024-01-01' ORDER BY id",
            "SELECT date(at, 'start of month') AS m, count(*) FROM e GROUP BY m ORDER BY m",
            "SELECT id, datetime(at, '+' || id || ' days', 'weekday 0') FROM e ORDER BY id",
        ];
        foreach (var sql in queries) q.Actual(sql).Should().Equal(q.Expected(sql), sql);
    }

    [Fact]
    public void ClockAndTimeZoneAreRefusedWhereSqliteRequiresDeterminism()
    {
        string[] setup =
        [
            "CREATE TABLE c(a, CHECK (a < date('now', '+1 day')))",
            "CREATE TABLE g(a, b AS (datetime(a, 'localtime')))",
            "CREATE TABLE x(a)",
            "CREATE INDEX xi ON x(julianday(a, 'utc'))",
            "CREATE TABLE p(a)",
            "CREATE INDEX pi ON p(a) WHERE a < datetime('now')",
            "CREATE TABLE ok(a, b AS (date(a, '+1 day')), CHECK (a > '2000'))",
            "CREATE INDEX oki ON ok(strftime('%Y', a))",
        ];
        string[] statements =
        [
            "INSERT INTO c VALUES ('2000-01-01')",
            "INSERT INTO g(a) VALUES ('2000-01-01')",
            "INSERT INTO x VALUES ('2000-01-01')",
            "INSERT INTO p VALUES ('2000-01-01')",
            "INSERT INTO ok(a) VALUES ('2024-01-31')",
            "INSERT INTO c VALUES (NULL)",
        ];
        using var q = new Sharc.Tests.Sql.Execution.QueryOracle(setup);
        using var sqlite = Sharc.Tests.Infrastructure.Oracle.Open(q.Path);
        foreach (var sql in statements)
        {
            string expected, actual;
            try
            {
                Sharc.Tests.Infrastructure.Oracle.Exec(sqlite, sql);
                expected = "ok";
            }
            catch (Microsoft.Data.Sqlite.SqliteException e)
            {
                expected = SemanticsOracle.ErrorText(e);
            }
            try
            {
                using var db = SharcDatabase.Open(q.Path, new SharcOpenOptions { Writable = true });
                db.Execute(sql);
                actual = "ok";
            }
            catch (SharcException e)
            {
                actual = e.Message;
            }
            actual.Should().Be(expected, sql);
        }
    }

    [Fact]
    public void DateFunctionsThroughTheSqllogictestRunner()
    {
        const string script = """
            statement ok
            CREATE TABLE t(a TEXT, b INTEGER)

            statement ok
            INSERT INTO t VALUES ('2024-01-31', 1), ('2023-02-29 12:00', 2), ('12:30:15.5', 3), ('2460000.5', 4), ('x', 5)

            query TTTRI rowsort
            SELECT date(a, '+' || b || ' months'), time(a), datetime(a, 'start of year'), julianday(a), unixepoch(a) FROM t

            query TT nosort
            SELECT strftime('%Y|%m|%d|%H|%M|%S|%f|%j|%u|%w|%U|%V|%W|%G|%g|%e|%k|%l|%I|%p|%P|%R|%T|%F|%s|%J', a), timediff(a, '2000-01-01') FROM t ORDER BY b

            """;
        var expected = new SltRunner(() => new SqliteSltEngine()).Run("dates.test", RecordWithSqlite(script), int.MaxValue);
        expected.Failed.Should().Be(0);
        var result = new SltRunner(() => new SharcSltEngine()).Run("dates.test", RecordWithSqlite(script), int.MaxValue);
        result.Failed.Should().Be(0, string.Join("\n", result.Failures.Select(f => f.Message)));
        result.QueriesPassed.Should().Be(2);
    }

    /// <summary>Fills each query's expected rows from SQLite, turning the script into a complete test file.</summary>
    private static string RecordWithSqlite(string script)
    {
        using var engine = new SqliteSltEngine();
        var sb = new StringBuilder();
        foreach (var block in script.Replace("\r", "").Split("\n\n", StringSplitOptions.RemoveEmptyEntries))
        {
            var lines = block.Split('\n').Select(l => l.Trim()).Where(l => l.Length > 0).ToArray();
            if (lines.Length == 0) continue;
            string sql = string.Join("\n", lines.Skip(1));
            sb.Append(string.Join("\n", lines)).Append('\n');
            if (lines[0].StartsWith("statement", StringComparison.Ordinal)) engine.Execute(sql);
            else
            {
                var header = lines[0].Split(' ');
                var sort = header.Length > 2 && header[2] == "rowsort" ? SltSortMode.RowSort : SltSortMode.NoSort;
                sb.Append("----\n");
                foreach (var v in SltResult.Render(engine.Query(sql), header[1], sort)) sb.Append(v).Append('\n');
            }
            sb.Append('\n');
        }
        return sb.ToString();
    }
}
