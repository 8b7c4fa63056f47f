using Sharc.Tests.Sql.Execution;

namespace Sharc.Tests.Sql.Compound;

/// <summary>
/// Views registered in code: they answer like the same view created in SQLite (a temp view), wherever a table can
/// be named; registration checks the SQL, refuses clashes and circles with SQLite's messages, and changes plans.
/// </summary>
public sealed class RegisteredViewTests : IDisposable
{
    private readonly QueryOracle _db = new(MixedTable.Build(seed: 11, rows: 120));

    public void Dispose() => _db.Dispose();

    /// <summary>Registers the view in Sharc and creates it as a TEMP VIEW in SQLite, so queries compare.</summary>
    private void Register(string name, string sql)
    {
        _db.Db.RegisterView(name, sql);
        using var cmd = _db.Sqlite.CreateCommand();
        cmd.CommandText = $"CREATE TEMP VIEW {name} AS {sql}";
        cmd.ExecuteNonQuery();
    }

    [Fact]
    public void A_registered_view_answers_like_sqlites_view_everywhere()
    {
        Register("big", "SELECT id, i, s FROM t WHERE i > 3");
        Register("twice", "SELECT id, i * 2 AS d FROM big UNION ALL SELECT id, i FROM big");
        _db.Check("SELECT * FROM big", ordered: false);
        _db.Check("SELECT count(*), sum(d) FROM twice", ordered: false);
        _db.Check("SELECT id FROM t WHERE id IN (SELECT id FROM big)", ordered: false);
        _db.Check("SELECT (SELECT max(i) FROM big), s FROM big WHERE s IS NOT NULL ORDER BY id", ordered: true);
        _db.Check("WITH x AS (SELECT * FROM twice) SELECT * FROM x WHERE d > 10", ordered: false);
        _db.Check("SELECT * FROM temp.big ORDER BY id LIMIT 3", ordered: true);
    }

    [Fact]
    public void OpenView_reads_the_views_rows()
    {
        Register("small", "SELECT id, s FROM t WHERE i < 2 ORDER BY id");
        using var r = _db.Db.OpenView("small");
        QueryOracle.Rows(r).Should().Equal(_db.Expected("SELECT * FROM small"));
    }

    [Fact]
    public void Registration_checks_the_sql_with_sqlites_messages()
    {
        var db = _db.Db;
        Assert.Throws<SharcSqlException>(() => db.RegisterView("v1", "SELECT nope FROM t")).SqliteMessage.Should().Be("no such column: nope");
        Assert.Throws<SharcSqlException>(() => db.RegisterView("v1", "SELECT * FROM missing")).SqliteMessage.Should().Be("no such table: missing");
        Assert.Throws<SharcSqlException>(() => db.RegisterView("v1", "SELEC 1")).IsSyntaxError.Should().BeTrue();
        Assert.Throws<SharcSqlException>(() => db.RegisterView("v1", "SELECT ?")).SqliteMessage.Should().Be("parameters are not allowed in views");
        Assert.Throws<SharcSqlException>(() => db.RegisterView("v1", "DELETE FROM t")).SqliteMessage.Should().Be("a view must be defined by a SELECT");
        Assert.Throws<SharcSqlException>(() => db.RegisterView("t", "SELECT 1")).SqliteMessage.Should().Be("there is already a table named t");
        Assert.Throws<SharcSqlException>(() => db.RegisterView("v_pos", "SELECT 1")).SqliteMessage.Should().Be("there is already a view named v_pos");
        db.RegisterView("v1", "SELECT 1 AS one");
        Assert.Throws<SharcSqlException>(() => db.RegisterView("V1", "SELECT 2")).SqliteMessage.Should().Be("view V1 already exists");
    }

    [Fact]
    public void Views_that_lead_back_to_themselves_are_refused_as_circular()
    {
        var db = _db.Db;
        db.RegisterView("a", "SELECT 1 AS x");
        db.RegisterView("b", "SELECT x FROM a");
        db.UnregisterView("a").Should().BeTrue();
        var e = Assert.Throws<SharcSqlException>(() => db.RegisterView("a", "SELECT x FROM b"));
        e.SqliteMessage.Should().Be("view a is circularly defined");
        Assert.Throws<SharcSqlException>(() => db.RegisterView("self", "SELECT * FROM self")).SqliteMessage.Should().Be("view self is circularly defined");
    }

    [Fact]
    public void Registering_and_unregistering_change_cached_and_prepared_plans()
    {
        var db = _db.Db;
        Assert.Throws<SharcSqlException>(() => db.Query("SELECT * FROM later")).SqliteMessage.Should().Be("no such table: later");
        db.RegisterView("later", "SELECT 7 AS seven");
        using (var r = db.Query("SELECT * FROM later")) QueryOracle.Rows(r).Should().Equal("I:7");

        using var prepared = db.Prepare("SELECT count(*) FROM t WHERE id IN (SELECT id FROM t)");
        db.RegisterView("other", "SELECT 1");
        QueryOracle.Rows(prepared.Execute()).Should().Equal(_db.Expected("SELECT count(*) FROM t"));

        db.UnregisterView("later").Should().BeTrue();
        db.UnregisterView("later").Should().BeFalse();
        Assert.Throws<SharcSqlException>(() => db.Query("SELECT * FROM later")).SqliteMessage.Should().Be("no such table: later");
        Assert.Throws<SharcSqlException>(() => db.OpenView("later")).SqliteMessage.Should().Be("no such view: later");
    }

    [Fact]
    public void A_view_shadowing_a_table_name_through_temp_is_found_first_and_main_still_reaches_the_table()
    {
        var db = _db.Db;
        db.RegisterView("w", "SELECT id FROM t WHERE id < 4");
        using (var r = db.Query("SELECT count(*) FROM temp.w")) QueryOracle.Rows(r).Should().Equal("I:3");
        Assert.Throws<SharcSqlException>(() => db.Query("SELECT * FROM main.w")).SqliteMessage.Should().Be("no such table: main.w");
    }

    [Fact]
    public void Temp_view_ddl_hooks_create_and_drop_connection_views()
    {
        var db = _db.Db;
        db.RegisterTempView("tv", ["a", "b"], "SELECT id, s FROM t WHERE id = 1", ifNotExists: false);
        db.RegisterTempView("tv", [], "SELECT 1", ifNotExists: true);
        using (var r = db.Query("SELECT a FROM tv")) QueryOracle.Rows(r).Should().Equal("I:1");
        Assert.Throws<SharcSqlException>(() => db.RegisterTempView("tv2", ["a"], "SELECT 1, 2", ifNotExists: false))
            .SqliteMessage.Should().Be("expected 1 columns for 'tv2' but got 2");
        db.HasTempView("TV").Should().BeTrue();
        db.DropTempView("tv", ifExists: false).Should().BeTrue();
        db.DropTempView("tv", ifExists: true).Should().BeFalse();
        Assert.Throws<SharcSqlException>(() => db.DropTempView("tv", ifExists: false)).SqliteMessage.Should().Be("no such view: tv");
    }
}
