using System.Text;
using Sharc.Tests.Infrastructure;
using Sharc.Tests.Sql.Execution;

namespace Sharc.Tests.Api;

/// <summary>
/// The fluent <see cref="SharcFilter"/> on the cursor API: each filter returns the rows SQLite returns for the
/// equivalent WHERE clause, is planned as that SELECT is (an index where one applies), re-runs with new parameter
/// values, escapes GLOB wildcards in StartsWith/EndsWith/Contains values, and re-executes without allocating.
/// </summary>
public sealed class SharcFilterTests : IDisposable
{
    private readonly QueryOracle _db = new(
        "BEGIN",
        "CREATE TABLE p(id INTEGER PRIMARY KEY, name TEXT, age INT, score REAL, tag TEXT COLLATE NOCASE, data BLOB)",
        "CREATE INDEX p_age ON p(age)",
        "INSERT INTO p VALUES(1, 'ann', 30, 1.5, 'x', x'01'), (2, 'bob', NULL, 2.5, 'X', NULL), (3, 'a*b', 41, NULL, 'y', x'0102'),"
            + " (4, '[ab]', '41', 4.0, NULL, x'02'), (5, 'ann?', 18, -0.0, 'Y', NULL), (6, '', 77, 9.5, 'z', x''), (7, NULL, 30, 3.0, 'x', x'01'),"
            + " (8, 'banana', 60, 60, 'ab', NULL), (9, 'Banana', 61, 60.5, 'AB', NULL), (10, 'nab', 10, 10, 'b', x'ff')",
        "COMMIT");

    public void Dispose() => _db.Dispose();

    private static SharcFilterColumn C(string name) => SharcFilter.Column(name);

    public static TheoryData<int> Cases => [.. Enumerable.Range(0, FilterCases.Length)];

    private static readonly (SharcFilter Filter, string Where)[] FilterCases =
    [
        (C("age").Gt(40), "age > 40"),
        (C("age").Eq(30), "age = 30"),
        (C("age").Eq("41"), "age = '41'"),
        (C("age").Ne(30), "age <> 30"),
        (C("age").Le(30.5), "age <= 30.5"),
        (C("score").Ge(60), "score >= 60"),
        (C("score").Lt(0.0), "score < 0.0"),
        (C("name").Eq("ann"), "name = 'ann'"),
        (C("name").Lt("b"), "name < 'b'"),
        (C("tag").Eq("x"), "tag = 'x'"),
        (C("data").Eq(new byte[] { 1 }), "data = x'01'"),
        (C("data").Gt(new byte[] { 1 }), "data > x'01'"),
        (C("age").Between(18, 41), "age BETWEEN 18 AND 41"),
        (C("name").Between("a", "b"), "name BETWEEN 'a' AND 'b'"),
        (C("age").In(30, 41, 99), "age IN (30, 41, 99)"),
        (C("tag").In("X", "ab"), "tag IN ('X', 'ab')"),
        (C("age").In(), "age IN ()"),
        (C("age").In(30, SharcFilterValue.Null), "age IN (30, NULL)"),
        (C("age").IsNull(), "age IS NULL"),
        (C("name").IsNotNull(), "name IS NOT NULL"),
        (C("name").StartsWith("an"), "substr(name, 1, 2) = 'an'"),
        (C("name").StartsWith("a*"), "substr(name, 1, 2) = 'a*'"),
        (C("name").StartsWith("[a"), "substr(name, 1, 2) = '[a'"),
        (C("name").EndsWith("ana"), "substr(name, -3) = 'ana'"),
        (C("name").EndsWith("?"), "substr(name, -1) = '?'"),
        (C("name").Contains("an"), "instr(name, 'an') > 0"),
        (C("name").Contains("*"), "instr(name, '*') > 0"),
        (C("name").StartsWith(""), "name IS NOT NULL"),
        (C("age").Gt(40).And(C("score").Lt(61)), "age > 40 AND score < 61"),
        (C("age").Lt(20) | C("name").Eq("bob"), "age < 20 OR name = 'bob'"),
        (!C("age").Eq(30), "NOT (age = 30)"),
        (C("age").Gt(10).Not(), "NOT (age > 10)"),
        (SharcFilter.All(), "1"),
        (SharcFilter.Any(), "0"),
        (SharcFilter.Any(C("tag").Eq("y"), C("age").IsNull(), C("data").Eq(new byte[] { 0xff })), "tag = 'y' OR age IS NULL OR data = x'ff'"),
        (SharcFilter.Column(2).Ge(60), "age >= 60"),
    ];

    [Theory]
    [MemberData(nameof(Cases))]
    public void A_filtered_reader_returns_the_rows_sqlite_returns_for_the_same_where(int index)
    {
        var (filter, where) = FilterCases[index];
        using var r = _db.Db.CreateReader("p", filter, "id", "name");
        var actual = QueryOracle.Rows(r);
        actual.Sort(StringComparer.Ordinal);
        var expected = _db.Expected($"SELECT id, name FROM p WHERE {where}");
        expected.Sort(StringComparer.Ordinal);
        actual.Should().Equal(expected, "the filter {0} means WHERE {1}", filter, where);
    }

    [Fact]
    public void A_filter_on_an_indexed_column_is_planned_through_the_index_as_sql_is()
    {
        var sql = FilterBindings.Create(_db.Db, "p", C("age").Eq(SharcFilter.Parameter("a")), ["id"]).Sql;
        _db.Db.Explain(sql).Should().Contain("INDEX p_age");
        var scan = FilterBindings.Create(_db.Db, "p", C("score").Gt(1), ["id"]).Sql;
        _db.Db.Explain(scan).Should().Contain("SCAN p");
    }

    [Fact]
    public void A_prepared_filtered_reader_answers_each_new_binding_as_sqlite_does()
    {
        var a = SharcFilter.Parameter("a");
        using var r = _db.Db.PrepareReader("p", C("age").Ge(a).And(C("name").StartsWith(SharcFilter.Parameter("prefix"))), "id");
        foreach (var (age, prefix) in new (object? Age, string? Prefix)[] { (18L, "a"), (40L, "b"), (0L, "[a"), (30L, "a*"), (null, "a"), (10L, null), (10L, "") })
        {
            r.Bind("a", age);
            r.Bind("prefix", prefix);
            r.Reset();
            var actual = QueryOracle.Rows(r);
            actual.Sort(StringComparer.Ordinal);
            var expected = _db.Expected("SELECT id FROM p WHERE age >= $p1 AND substr(name, 1, length($p2)) = $p2", age, prefix);
            expected.Sort(StringComparer.Ordinal);
            actual.Should().Equal(expected, "age >= {0} and the prefix {1}", age ?? "NULL", prefix ?? "NULL");
        }
    }

    [Fact]
    public void A_parameter_used_twice_takes_one_value_in_both_places()
    {
        var v = SharcFilter.Parameter("v");
        using var r = _db.Db.PrepareReader("p", C("age").Eq(v).Or(C("score").Eq(v)), "id");
        r.Bind("v", 60L);
        r.Reset();
        QueryOracle.Rows(r).Should().BeEquivalentTo(_db.Expected("SELECT id FROM p WHERE age = 60 OR score = 60"));
        r.Bind("v", Encoding.UTF8.GetBytes("30"));
        r.Reset();
        QueryOracle.Rows(r).Should().BeEquivalentTo(_db.Expected("SELECT id FROM p WHERE age = '30' OR score = '30'"));
    }

    [Fact]
    public void Misuse_fails_with_a_typed_error_that_names_the_problem()
    {
        using var r = _db.Db.PrepareReader("p", C("age").Eq(SharcFilter.Parameter("a")), "id");
        r.Invoking(x => x.Bind("b", 1L)).Should().Throw<ArgumentException>().WithMessage("*no parameter named b*");
        using var plain = _db.Db.PrepareReader("p", "id");
        plain.Invoking(x => x.Bind("a", 1L)).Should().Throw<InvalidOperationException>().WithMessage("*has no filter*");
        _db.Db.Invoking(d => d.CreateReader("p_age", C("age").Eq(1))).Should().Throw<SharcException>().WithMessage("*is an index*");
        _db.Db.Invoking(d => d.CreateReader("nope", C("age").Eq(1))).Should().Throw<SharcException>().WithMessage("*no such table: nope*");
        // Checked by Sharc: SQLite would take an unknown double-quoted name for a string.
        _db.Db.Invoking(d => d.CreateReader("p", C("nope").Eq(1))).Should().Throw<SharcException>().WithMessage("*no such column: nope*");
        _db.Db.Invoking(d => d.CreateReader("p", C("age").Eq(1), "id", "nope")).Should().Throw<SharcException>().WithMessage("*no such column: nope*");
        _db.Db.Invoking(d => d.CreateReader("p", SharcFilter.Column(9).Eq(1))).Should().Throw<ArgumentOutOfRangeException>();
    }

    [Fact]
    public void A_filter_describes_itself_as_the_sql_condition_it_means()
        => (C("age").Gt(5) & C("name").StartsWith("a*") | C("x").In(1, "t", SharcFilter.Parameter("p"))).ToString()
            .Should().Be("((\"age\" > 5) AND (\"name\" GLOB 'a[*]*')) OR (\"x\" IN (1, 't', $p))");

    [Theory]
    [MemberData(nameof(AllocationFixture.Sources), MemberType = typeof(AllocationFixture))]
    public void Re_executing_a_prepared_filtered_reader_allocates_nothing(string kind, string encoding)
    {
        using var dir = new TempDir();
        using var db = AllocationFixture.OpenAs(kind, AllocationFixture.Build(dir, encoding, 3000));
        var age = SharcFilter.Parameter("age");
        using var scan = db.PrepareReader("users", C("score").Gt(SharcFilter.Parameter("s")).And(C("name").StartsWith(SharcFilter.Parameter("n"))), "id", "score");
        using var seek = db.PrepareReader("users", C("age").Eq(age), "id", "name");
        var rng = new Random(3);
        long sum = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            scan.Bind("s", rng.Next(0, 100) * 1.0);
            scan.Bind("n", "user1");
            scan.Reset();
            while (scan.Read()) sum += scan.GetInt64(0);
            seek.Bind("age", (long)rng.Next(18, 80));
            seek.Reset();
            while (seek.Read()) sum += seek.GetInt64(0) + seek.GetUtf8Span(1).Length;
        }, 300);
        allocated.Should().Be(0);
        sum.Should().BeGreaterThan(0);
    }
}
