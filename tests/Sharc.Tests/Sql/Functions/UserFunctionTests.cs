using System.Text.RegularExpressions;
using FluentAssertions;
using Microsoft.Data.Sqlite;
using Sharc.Tests.Infrastructure;
using Sharc.Tests.Sql.Writes;

namespace Sharc.Tests.Sql.Functions;

/// <summary>
/// User-defined functions, aggregates, window functions and collations: the same .NET code is registered on Sharc
/// and, through Microsoft.Data.Sqlite, on SQLite 3.53.3, and every query must give the same rows on both.
/// </summary>
public sealed class UserFunctionTests
{
    private static WriteOracle WithTable()
    {
        var o = new WriteOracle();
        o.Ok("CREATE TABLE t(id INTEGER PRIMARY KEY, a INT, b REAL, c TEXT, g TEXT)");
        var rng = new Random(16);
        for (int i = 1; i <= 60; i++)
        {
            object? a = rng.Next(6) == 0 ? null : rng.Next(-50, 50);
            object? b = rng.Next(6) == 0 ? null : Math.Round(rng.NextDouble() * 100 - 50, 3);
            object? c = rng.Next(6) == 0 ? null : new string((char)('a' + rng.Next(5)), rng.Next(1, 4)) + (rng.Next(2) == 0 ? "X" : "y");
            o.Ok("INSERT INTO t(a, b, c, g) VALUES (?1, ?2, ?3, ?4)", a, b, c, "g" + rng.Next(4));
        }
        return o;
    }

    [Fact]
    public void Scalar_functions_of_zero_to_four_arguments_and_variadic_ones_answer_as_in_sqlite()
    {
        using var o = WithTable();
        void Both<TResult>(string name, Func<TResult> f) { o.Db.CreateFunction(name, f, true); o.Sqlite.CreateFunction(name, f, true); }
        void Both1<T1, TResult>(string name, Func<T1, TResult> f) { o.Db.CreateFunction(name, f, true); o.Sqlite.CreateFunction(name, f, true); }
        void Both2<T1, T2, TResult>(string name, Func<T1, T2, TResult> f) { o.Db.CreateFunction(name, f, true); o.Sqlite.CreateFunction(name, f, true); }
        Both("answer", () => 42L);
        Both1<long?, long?>("twice", x => x * 2);
        Both1<long?, string>("describe", x => x is null ? "none" : "n" + x);
        Both1<double?, double?>("half", x => x / 2);
        Both1<string?, string?>("shout", s => s?.ToUpperInvariant() + "!");
        Both2<long?, double?, double?>("mix", (x, y) => x + y);
        o.Db.CreateFunction("three", (long? x, long y, long z) => x * 100 + y * 10 + z);
        o.Sqlite.CreateFunction("three", (long? x, long y, long z) => x * 100 + y * 10 + z);
        o.Db.CreateFunction("strict", (long x) => x);
        o.Sqlite.CreateFunction("strict", (long x) => x);
        o.Db.CreateFunction("four", (string? a, string? b, string? c, string? d) => string.Concat(a, b, c, d));
        o.Sqlite.CreateFunction("four", (string? a, string? b, string? c, string? d) => string.Concat(a, b, c, d));
        o.Db.CreateFunction("count_args", (object?[] args) => (long)args.Length);
        o.Sqlite.CreateFunction("count_args", (object?[] args) => (long)args.Length);

        o.Ok("SELECT answer(), ANSWER()");
        o.Ok("SELECT id, twice(a), describe(a), half(b), shout(c), mix(a, b), three(a, 1, 2), four(c, g, c, 'z') FROM t ORDER BY id");
        o.Ok("SELECT count_args(), count_args(1), count_args(1, 'x', NULL, 2.5)");
        o.Ok("SELECT id FROM t WHERE twice(a) > 20 ORDER BY twice(a) DESC, id");
        o.Ok("SELECT g, sum(twice(a)) FROM t GROUP BY g ORDER BY g");
        o.Ok("SELECT twice(twice(a)) FROM t WHERE a IS NOT NULL ORDER BY id LIMIT 5");
        o.Ok("UPDATE t SET c = shout(c) WHERE id % 3 = 0");
        o.Ok("SELECT * FROM t ORDER BY id");
        o.Both("SELECT twice(1, 2)").Error.Should().Be("wrong number of arguments to function twice()");
        // NULL for a non-nullable parameter is an error on both (Microsoft.Data.Sqlite's rule).
        o.RunSharc("SELECT strict(NULL)", []).Error.Should().Contain("strict()");
        o.RunSqlite("SELECT strict(NULL)", []).Error.Should().NotBeNull();
        o.AssertSameContents();
    }

    [Fact]
    public void The_span_form_receives_values_without_conversion_and_returns_any_storage_class()
    {
        using var o = WithTable();
        o.Db.CreateFunction("kind", args => args[0].Type switch
        {
            SharcColumnType.Integer => args[0].AsInt64() + 1000,
            SharcColumnType.Real => args[0].AsDouble() * 2,
            SharcColumnType.Text => SharcValue.FromUtf8(args[0].AsBytes()[..1]),
            _ => SharcValue.Null,
        }, argumentCount: 1, isDeterministic: true);
        o.Sqlite.CreateFunction("kind", (object? v) => v switch { long l => (object?)(l + 1000), double d => d * 2, string s => s[..1], _ => null });
        o.Ok("SELECT id, kind(a), kind(b), kind(c), kind(NULL), kind(x'01') FROM t ORDER BY id");
    }

    [Fact]
    public void A_registration_overrides_a_built_in_of_the_same_name_and_argument_count()
    {
        using var o = WithTable();
        o.Ok("SELECT upper('abc'), length('abc')");
        o.Db.CreateFunction("upper", (string? s) => "<" + s + ">");
        o.Sqlite.CreateFunction("upper", (string? s) => "<" + s + ">");
        o.Ok("SELECT upper('abc'), upper(c), length('abc') FROM t ORDER BY id");
    }

    [Fact]
    public void Regexp_works_once_registered_and_like_and_glob_can_be_overridden()
    {
        using var o = WithTable();
        o.Both("SELECT 'abc' REGEXP 'b'").Error.Should().NotBeNull();
        Func<string?, string?, bool> regexp = (pattern, input) => pattern is not null && input is not null && Regex.IsMatch(input, pattern);
        o.Db.CreateFunction("regexp", regexp, true);
        o.Sqlite.CreateFunction("regexp", regexp, true);
        o.Ok("SELECT id, c REGEXP '^[ab]+X$', c NOT REGEXP 'y$', regexp('a.c', c) FROM t ORDER BY id");
        o.Ok("SELECT count(*) FROM t WHERE c REGEXP '^a'");

        // like(pattern, value): here, case-sensitive prefix matching.
        Func<string?, string?, bool> like = (pattern, input) => pattern is not null && input is not null && input.StartsWith(pattern, StringComparison.Ordinal);
        o.Db.CreateFunction("like", like, true);
        o.Sqlite.CreateFunction("like", like, true);
        o.Ok("SELECT id, c LIKE 'a', c NOT LIKE 'b' FROM t ORDER BY id");
        Func<string?, string?, long> glob = (pattern, input) => (pattern?.Length ?? 0) == (input?.Length ?? 0) ? 1 : 0;
        o.Db.CreateFunction("glob", glob, true);
        o.Sqlite.CreateFunction("glob", glob, true);
        o.Ok("SELECT id, c GLOB 'zzz' FROM t ORDER BY id");
    }

    [Fact]
    public void Aggregates_fold_each_group_as_in_sqlite()
    {
        using var o = WithTable();
        o.Db.CreateAggregate("product", 1L, (long acc, long? x) => x is null ? acc : acc * (x.Value % 7 + 1), acc => acc);
        o.Sqlite.CreateAggregate("product", 1L, (long acc, long? x) => x is null ? acc : acc * (x.Value % 7 + 1), acc => acc);
        o.Db.CreateAggregate("joined", "", (string acc, string? s) => acc + (s ?? "-"), acc => acc.Length == 0 ? null : acc);
        o.Sqlite.CreateAggregate("joined", "", (string acc, string? s) => acc + (s ?? "-"), acc => acc.Length == 0 ? null : acc);
        o.Db.CreateAggregate("rows", 0L, acc => acc + 1);
        o.Sqlite.CreateAggregate("rows", 0L, acc => acc + 1);
        o.Db.CreateAggregate("weighted", 0.0, (double acc, long? a, double? b) => acc + (a ?? 0) * (b ?? 0), acc => Math.Round(acc, 6));
        o.Sqlite.CreateAggregate("weighted", 0.0, (double acc, long? a, double? b) => acc + (a ?? 0) * (b ?? 0), acc => Math.Round(acc, 6));
        o.Ok("SELECT g, product(a), joined(c), rows(), weighted(a, b), count(*) FROM t GROUP BY g ORDER BY g");
        o.Ok("SELECT product(a), rows() FROM t WHERE id > 1000");
        o.Ok("SELECT g FROM t GROUP BY g HAVING rows() > 14 ORDER BY product(a), g");
        o.Ok("SELECT product(DISTINCT a % 3) FROM t");
        o.Ok("SELECT g, product(a) FILTER (WHERE a > 0) FROM t GROUP BY g ORDER BY g");
    }

    [Fact]
    public void Window_functions_with_an_inverse_step_slide_over_frames_and_match_the_built_in_sum()
    {
        using var o = WithTable();
        long steps = 0, inverses = 0;
        o.Db.CreateWindowFunction("wsum", 0L, (long acc, long? x) => { steps++; return acc + (x ?? 0); }, (acc, x) => { inverses++; return acc - (x ?? 0); }, acc => acc);
        var sharc = o.RunSharc("SELECT id, wsum(a) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) FROM t ORDER BY id", []).Rows;
        var sqlite = o.RunSqlite("SELECT id, coalesce(sum(a) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING), 0) FROM t ORDER BY id", []).Rows;
        sharc.Should().Equal(sqlite);
        // Each row enters the frame once and leaves it once: no frame is summed afresh.
        steps.Should().Be(60);
        inverses.Should().Be(57);

        o.Db.CreateWindowFunction("wcount", 0L, (long acc, string? s) => acc + (s is null ? 0 : 1), (acc, s) => acc - (s is null ? 0 : 1), acc => acc);
        o.Ok("SELECT g, count(c) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) FROM t ORDER BY id");
        var mine = o.RunSharc("SELECT g, wcount(c) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) FROM t ORDER BY id", []).Rows;
        mine.Should().Equal(o.RunSqlite("SELECT g, count(c) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) FROM t ORDER BY id", []).Rows);
        // Without OVER it is a plain aggregate.
        o.RunSharc("SELECT wcount(c) FROM t", []).Rows.Should().Equal(o.RunSqlite("SELECT count(c) FROM t", []).Rows);
    }

    [Fact]
    public void Aggregates_without_an_inverse_work_over_any_window_frame()
    {
        // SQLite refuses an aggregate registered without an inverse as a window function; Sharc folds each frame
        // afresh, checked here against the same fold done in C#.
        using var o = WithTable();
        o.Db.CreateAggregate("product", 1L, (long acc, long? x) => x is null ? acc : acc * (x.Value % 5 + 1), acc => acc);
        var rows = o.RunSqlite("SELECT id, g, a FROM t ORDER BY id", []).Rows.Select(r => r.Split(", ")).ToList();
        long Factor(string a) => a == "NULL" ? 1 : long.Parse(a[4..]) % 5 + 1;
        var expected = new List<string>();
        foreach (var row in rows)
        {
            var part = rows.Where(r => r[1] == row[1]).ToList();
            int i = part.FindIndex(r => r[0] == row[0]);
            long p = 1;
            for (int j = Math.Max(0, i - 1); j <= Math.Min(part.Count - 1, i + 1); j++) p *= Factor(part[j][2]);
            expected.Add($"{row[0]}, int {p}");
        }
        o.RunSharc("SELECT id, product(a) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM t ORDER BY id", []).Rows
            .Should().Equal(expected);
    }

    [Fact]
    public void Exceptions_from_user_code_become_sql_errors_naming_the_function()
    {
        using var o = WithTable();
        o.Db.CreateFunction("boom", (long? x) => x > 10 ? throw new InvalidOperationException("too big") : x);
        var e = FluentActions.Invoking(() => o.Db.Execute("SELECT boom(a) FROM t")).Should().Throw<SharcSqlException>().Which;
        e.Message.Should().Contain("boom()").And.Contain("too big");
        e.InnerException.Should().BeOfType<InvalidOperationException>();
        o.Db.CreateAggregate("bad", 0L, (long acc, long? x) => throw new FormatException("nope"), acc => acc);
        FluentActions.Invoking(() => o.Db.Execute("SELECT bad(a) FROM t")).Should().Throw<SharcSqlException>().WithMessage("*bad()*nope*");
        // The database stays usable, and a failing UPDATE changes nothing.
        FluentActions.Invoking(() => o.Db.Execute("UPDATE t SET a = boom(a)")).Should().Throw<SharcSqlException>();
        o.Ok("SELECT * FROM t ORDER BY id");
        FluentActions.Invoking(() => o.Db.CreateFunction("bad_type", (decimal d) => d)).Should().Throw<ArgumentException>();
    }

    [Fact]
    public void Integer_and_real_arguments_reach_the_function_without_allocating()
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Create(dir.File("alloc.db"));
        db.Execute("CREATE TABLE n(x INT, y REAL)");
        for (int i = 0; i < 200; i++) db.Execute("INSERT INTO n VALUES (?1, ?2)", i, i / 3.0);
        db.CreateFunction("scale", (long x, double y) => x * y, isDeterministic: true);
        db.CreateFunction("bump", args => args[0].AsInt64() + 1, argumentCount: 1);
        using var query = db.Prepare("SELECT scale(x, y), bump(x) FROM n");
        double sum = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            var r = query.Execute();
            while (r.Read()) sum += r.GetDouble(0) + r.GetInt64(1);
        }, 50);
        allocated.Should().Be(0);
    }

    [Fact]
    public void A_registration_is_seen_by_every_thread_using_the_database()
    {
        using var o = WithTable();
        o.Db.CreateFunction("tid", (long x) => x + 1);
        var results = new long[4];
        Parallel.For(0, 4, i =>
        {
            using var r = o.Db.Query("SELECT sum(tid(id)) FROM t");
            r.Read();
            results[i] = r.GetInt64(0);
        });
        results.Should().AllBeEquivalentTo(60 * 61 / 2 + 60);
    }
}
