using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Api.DotNet;

/// <summary>
/// The edges a .NET user meets are consistent: missing parameters are errors naming them, named parameters come from
/// objects and dictionaries, a disposed database refuses every call at once, a read-only write is one exception type
/// whichever API tried it, and errors are DbExceptions.
/// </summary>
public class ConsistencyTests
{
    private static SharcDatabase Writable(TempDir dir)
    {
        var db = SharcDatabase.Create(dir.File("t.db"));
        db.Execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)");
        db.Execute("INSERT INTO t VALUES(1, 'one'), (2, 'two')");
        return db;
    }

    [Fact]
    public void TooFewParametersIsAnErrorNamingTheFirstMissingOne()
    {
        using var dir = new TempDir();
        using var db = Writable(dir);
        db.Invoking(d => d.Query("SELECT @a, @b", 1)).Should().Throw<ArgumentException>().WithMessage("*@b*");
        db.Invoking(d => d.Query("SELECT ?, ?")).Should().Throw<ArgumentException>().WithMessage("*?1*");
        db.Invoking(d => d.Execute("UPDATE t SET name = $n WHERE id = $id", "x")).Should().Throw<ArgumentException>().WithMessage("*$id*");
        db.Invoking(d => d.Query("INSERT INTO t(name) VALUES(:n) RETURNING id")).Should().Throw<ArgumentException>().WithMessage("*:n*");
        using var prepared = db.Prepare("SELECT name FROM t WHERE id = @id AND name = @name");
        prepared.Invoking(p => p.Execute(1L)).Should().Throw<ArgumentException>().WithMessage("*@name*");
        db.Invoking(d => d.Execute("SELECT @x", new Dictionary<string, object?> { ["y"] = 1 })).Should().Throw<ArgumentException>().WithMessage("*@x*");
        db.Query("SELECT count(*) FROM t WHERE name = ?", (object?)null).Read().Should().BeTrue("an explicit null binds NULL");
    }

    [Fact]
    public void NamedParametersComeFromAnObjectOrADictionary()
    {
        using var dir = new TempDir();
        using var db = Writable(dir);
        db.Execute("INSERT INTO t VALUES(@id, :name)", SharcParameters.From(new { id = 3, name = "three" })).Should().Be(1);
        using (var r = db.Query("SELECT name FROM t WHERE id = $id", SharcParameters.From(new { id = 3L })))
        {
            r.Read().Should().BeTrue();
            r.GetString(0).Should().Be("three");
        }
        using var prepared = db.Prepare("SELECT count(*) FROM t WHERE id >= @low AND name <> @name");
        var reader = prepared.Execute(new Dictionary<string, object?> { ["@low"] = 2, ["name"] = "two" });
        reader.Read().Should().BeTrue();
        reader.GetInt64(0).Should().Be(1);
    }

    [Fact]
    public void EveryCallOnADisposedDatabaseThrowsObjectDisposedAtOnce()
    {
        using var dir = new TempDir();
        var db = Writable(dir);
        var prepared = db.Prepare("SELECT name FROM t WHERE id = ?");
        db.Dispose();
        var calls = new Action[]
        {
            () => db.Query("SELECT 1"),
            () => db.Query("SELECT name FROM t WHERE id = ?", 1),
            () => db.Execute("SELECT 1"),
            () => db.Execute("INSERT INTO t VALUES(9, 'x')"),
            () => db.Prepare("SELECT 1"),
            () => prepared.Execute(1L),
            () => db.CreateReader("t"),
            () => db.PrepareReader("t"),
            () => db.Insert("t", null, "x"),
            () => db.BeginTransaction(),
            () => _ = db.Schema,
            () => _ = db.Header,
        };
        foreach (var call in calls) call.Should().Throw<ObjectDisposedException>();
    }

    [Fact]
    public void AWriteToAReadOnlyDatabaseIsTheSameErrorThroughSqlAndTheRowApi()
    {
        using var dir = new TempDir();
        Writable(dir).Dispose();
        using var db = SharcDatabase.Open(dir.File("t.db"));
        var writes = new Action[]
        {
            () => db.Execute("INSERT INTO t VALUES(9, 'x')"),
            () => db.Query("DELETE FROM t RETURNING id"),
            () => db.Execute("PRAGMA user_version = 3"),
            () => db.Insert("t", null, "x"),
            () => db.Delete("t", 1),
            () => db.BeginTransaction(),
        };
        foreach (var write in writes) write.Should().Throw<SharcReadOnlyException>().WithMessage("attempt to write a readonly database*");
    }

    [Fact]
    public void SharcErrorsAreDbExceptions()
    {
        using var dir = new TempDir();
        using var db = Writable(dir);
        db.Invoking(d => d.Execute("INSERT INTO t VALUES(1, 'again')")).Should().Throw<System.Data.Common.DbException>();
        db.Invoking(d => d.Execute("SELEC 1")).Should().Throw<System.Data.Common.DbException>();
    }

    [Fact]
    public void SchemaTablesListsTheUsersTablesButNotSqliteSchema()
    {
        using var dir = new TempDir();
        using var db = Writable(dir);
        db.Execute("CREATE TABLE a(x INTEGER PRIMARY KEY AUTOINCREMENT)");
        db.Schema.Tables.Select(t => t.Name).Should().Equal("t", "a", "sqlite_sequence");
        db.Schema.FindTable("sqlite_master")!.Name.Should().Be("sqlite_schema");
        db.CheckIntegrity().Should().BeEmpty();
    }
}
