using System.Text;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Sql.Execution;

/// <summary>The public face of the SQL engine: Query, Prepare/Bind/Execute, plan caching, readers in query mode.</summary>
public sealed class QueryApiTests : IDisposable
{
    private readonly TempDir _dir = new();

    public void Dispose() => _dir.Dispose();

    private string Build(params string[] statements)
    {
        string path = _dir.File(Guid.NewGuid().ToString("N") + ".db");
        Oracle.Exec(path, statements);
        return path;
    }

    private static List<string> All(SharcDataReader r) => QueryOracle.Rows(r);

    [Fact]
    public void A_prepared_query_runs_again_and_again_with_new_values()
    {
        using var db = SharcDatabase.Open(Build(
            "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, age INT)",
            "CREATE INDEX t_age ON t(age)",
            "INSERT INTO t VALUES (1, 'ada', 36), (2, 'bob', 17), (3, 'cy', 36), (4, 'dee', 70)"));
        using var q = db.Prepare("SELECT name FROM t WHERE age = :age ORDER BY name");
        q.ParameterCount.Should().Be(1);
        q.FieldCount.Should().Be(1);
        q.GetParameterName(1).Should().Be(":age");
        q.GetParameterIndex(":age").Should().Be(1);
        q.GetParameterIndex("age").Should().Be(1);
        q.GetParameterIndex("nope").Should().Be(0);

        q.Bind("age", 36L);
        All(q.Execute()).Should().Equal("T:'ada'", "T:'cy'");
        q.Bind(":age", 17L);
        All(q.Execute()).Should().Equal("T:'bob'");
        All(q.Execute(70L)).Should().Equal("T:'dee'");
        q.ClearBindings();
        All(q.Execute()).Should().BeEmpty();
        q.Bind(1, "36");
        All(q.Execute()).Should().Equal("T:'ada'", "T:'cy'");
    }

    [Fact]
    public void Execute_returns_the_same_reader_which_survives_being_disposed()
    {
        using var db = SharcDatabase.Open(Build("CREATE TABLE t(a)", "INSERT INTO t VALUES (1), (2), (3)"));
        using var q = db.Prepare("SELECT a FROM t WHERE a >= ?");
        var first = q.Execute(2L);
        first.Read().Should().BeTrue();
        // A new execution ends the previous run.
        var second = q.Execute(1L);
        second.Should().BeSameAs(first);
        All(second).Should().Equal("I:1", "I:2", "I:3");
        second.Dispose();
        using var third = q.Execute(3L);
        All(third).Should().Equal("I:3");
    }

    [Fact]
    public void Every_binding_form_reaches_the_query()
    {
        using var db = SharcDatabase.Open(Build("CREATE TABLE t(a)"));
        using var q = db.Prepare("SELECT typeof(?1), ?1, typeof(?2), ?2, typeof(?3), hex(?3), typeof(?4), typeof(?5), ?5");
        q.Bind(1, 1.5);
        q.Bind(2, "héllo"u8);
        q.BindBlob(3, [1, 2, 255]);
        q.BindNull(4);
        q.Bind(5, (object?)true);
        All(q.Execute()).Should().Equal("T:'real' | R:1.5 | T:'text' | T:'héllo' | T:'blob' | T:'0102FF' | T:'null' | T:'integer' | I:1");
        q.Invoking(x => x.Bind(6, 1L)).Should().Throw<ArgumentOutOfRangeException>();
        q.Invoking(x => x.Bind("nope", 1L)).Should().Throw<ArgumentException>();
    }

    [Fact]
    public void Reader_getters_convert_as_on_any_reader()
    {
        using var db = SharcDatabase.Open(Build("CREATE TABLE t(a INTEGER, b TEXT, c REAL, d BLOB)", "INSERT INTO t VALUES (7, '12abc', 2.5, x'3132')"));
        using var r = db.Query("SELECT a, b, c, d, NULL AS e FROM t");
        r.FieldCount.Should().Be(5);
        r.Read().Should().BeTrue();
        r.GetInt64(0).Should().Be(7);
        r.GetString(0).Should().Be("7");
        r.GetInt64(1).Should().Be(12);
        r.GetString(1).Should().Be("12abc");
        Encoding.UTF8.GetString(r.GetUtf8Span(1)).Should().Be("12abc");
        r.GetDouble(2).Should().Be(2.5);
        r.GetString(2).Should().Be("2.5");
        r.GetBytes(3).Should().Equal((byte)'1', (byte)'2');
        r.GetColumnType(3).Should().Be(SharcColumnType.Blob);
        r.IsNull(4).Should().BeTrue();
        r.GetOrdinal("C").Should().Be(2);
        r.GetDeclaredType(1).Should().Be("TEXT");
        r.HasRow.Should().BeTrue();
        r.Read().Should().BeFalse();
        r.HasRow.Should().BeFalse();
    }

    [Fact]
    public void Plans_are_cached_by_text_and_made_again_after_a_schema_change()
    {
        string path = _dir.File("w.db");
        using var db = SharcDatabase.Create(path);
        db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, a INT)");
        for (int i = 1; i <= 50; i++) db.Insert("t", null, i % 7);
        const string sql = "SELECT count(*) FROM t WHERE a = 3";
        db.GetPlan(sql).Should().BeSameAs(db.GetPlan(sql));
        db.Explain(sql).Should().StartWith("SCAN t");
        using var prepared = db.Prepare(sql);
        All(prepared.Execute()).Should().Equal("I:7");

        db.CreateIndex("CREATE INDEX t_a ON t(a)");
        db.Explain(sql).Should().StartWith("SEARCH t USING COVERING INDEX t_a");
        All(db.Query(sql)).Should().Equal("I:7");
        All(prepared.Execute()).Should().Equal("I:7");

        db.Insert("t", null, 3);
        All(db.Query(sql)).Should().Equal("I:8");
        All(prepared.Execute()).Should().Equal("I:8");

        db.DropTable("t");
        db.Invoking(x => x.Query(sql)).Should().Throw<SharcSqlException>().WithMessage("no such table: t*");
        prepared.Invoking(x => x.Execute()).Should().Throw<SharcSqlException>();
    }

    [Fact]
    public void A_reader_that_stops_early_releases_the_database_for_writers()
    {
        string path = _dir.File("lock.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.CreateTable("CREATE TABLE t(a)");
            for (int i = 0; i < 100; i++) db.Insert("t", i);
        }
        using var reader = SharcDatabase.Open(path);
        using (var r = reader.Query("SELECT a FROM t"))
        {
            r.Read().Should().BeTrue();
        }
        using (var r = reader.Query("SELECT a FROM t LIMIT 3"))
        {
            All(r).Should().HaveCount(3);
        }
        using var c = Oracle.Open(path);
        Oracle.Exec(c, "INSERT INTO t VALUES (1000)");
        using var again = SharcDatabase.Open(path);
        All(again.Query("SELECT count(*) FROM t")).Should().Equal("I:101");
    }

    [Fact]
    public void Utf16_databases_answer_as_sqlite_does()
    {
        using var db = new QueryOracle(
            "PRAGMA encoding='UTF-16le'",
            "CREATE TABLE t(id INTEGER PRIMARY KEY, s TEXT, c TEXT COLLATE NOCASE)",
            "CREATE INDEX t_s ON t(s)",
            "CREATE INDEX t_c ON t(c)",
            "INSERT INTO t VALUES (1, 'ábc', 'Ábc'), (2, 'abc', 'ABC'), (3, 'zeta', 'Zeta'), (4, 'ábd', 'x'), (5, NULL, 'abc')");
        db.Check("SELECT id, s, length(s), upper(c) FROM t WHERE s = 'ábc' OR c = 'abc'", ordered: false);
        db.Check("SELECT id FROM t WHERE s > 'a' AND s < 'b'", ordered: false);
        db.Check("SELECT id FROM t WHERE s LIKE 'á%'", ordered: false);
        db.Check("SELECT id, s || c FROM t WHERE c IN ('abc', 'ZETA') ORDER BY id", ordered: true);
        db.Check("SELECT c, count(*) FROM t GROUP BY c ORDER BY c", ordered: true);
    }

    [Fact]
    public void Long_values_on_overflow_pages_are_read_in_full()
    {
        using var db = new QueryOracle(
            "CREATE TABLE t(id INTEGER PRIMARY KEY, body TEXT, tag TEXT)",
            "CREATE INDEX t_tag ON t(tag)",
            "INSERT INTO t VALUES (1, printf('%.*c', 20000, 'a'), 'x'), (2, printf('%.*c', 9000, 'b') || 'end', 'y'), (3, 'short', 'x')");
        db.Check("SELECT id, length(body), substr(body, -3) FROM t WHERE body LIKE '%end' OR tag = 'x'", ordered: false);
        db.Check("SELECT max(body) = body, id FROM t", ordered: false);
    }

    [Fact]
    public void Virtual_generated_columns_are_computed_as_sqlite_computes_them()
    {
        using var db = new QueryOracle(
            "CREATE TABLE t(a INT, b TEXT GENERATED ALWAYS AS (a * 2) VIRTUAL, c GENERATED ALWAYS AS (upper(b) || 'x'), " +
            "d INT AS (a || '1') STORED, e TEXT COLLATE NOCASE AS (CASE WHEN a > 1 THEN 'Big' ELSE 'small' END))",
            "INSERT INTO t(a) VALUES (1), (2.5), (NULL), (7)");
        db.Check("SELECT a, b, typeof(b), c, d, typeof(d), e FROM t", ordered: false);
        db.Check("SELECT * FROM t WHERE b > '3' ORDER BY c DESC", ordered: true);
        db.Check("SELECT e, count(*) FROM t WHERE e = 'BIG' GROUP BY e", ordered: true);
        db.Check("SELECT a FROM t ORDER BY e, a", ordered: true);
    }

    [Fact]
    public void Many_threads_can_query_one_database()
    {
        using var db = SharcDatabase.Open(Build(
            "CREATE TABLE t(id INTEGER PRIMARY KEY, a INT)",
            "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 2000) INSERT INTO t SELECT x, x % 13 FROM n"));
        var results = new long[8];
        Parallel.For(0, 8, k =>
        {
            for (int round = 0; round < 50; round++)
            {
                using var r = db.Query("SELECT count(*), sum(a) FROM t WHERE a = ?", (long)(k % 13));
                r.Read();
                results[k] = r.GetInt64(0);
            }
        });
        results.Should().OnlyContain(n => n >= 153 && n <= 154);
    }
}
