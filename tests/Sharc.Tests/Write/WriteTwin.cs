using Microsoft.Data.Sqlite;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// A Sharc database and a SQLite database given the same schema and the same writes; each write must succeed in both
/// or fail in both with the same message, and <see cref="AssertSame"/> checks SQLite's integrity_check of Sharc's
/// file and equal contents.
/// </summary>
internal sealed class WriteTwin : IDisposable
{
    private readonly TempDir _dir = new();

    /// <param name="foreignKeys">Enforce FOREIGN KEYs in both.</param>
    /// <param name="sqliteSchema">Statements SQLite runs on both files before Sharc opens its own (views, triggers).</param>
    public WriteTwin(bool foreignKeys = false, string[]? sqliteSchema = null)
    {
        SharcPath = _dir.File("sharc.db");
        SqlitePath = _dir.File("sqlite.db");
        if (sqliteSchema is not null)
        {
            Oracle.Exec(SharcPath, sqliteSchema);
            Oracle.Exec(SqlitePath, sqliteSchema);
        }
        Db = sqliteSchema is null ? SharcDatabase.Create(SharcPath) : SharcDatabase.Open(SharcPath, new SharcOpenOptions { Writable = true });
        Db.ForeignKeysEnabled = foreignKeys;
        Sqlite = Oracle.Open(SqlitePath);
        Oracle.Exec(Sqlite, $"PRAGMA foreign_keys={(foreignKeys ? "ON" : "OFF")}");
    }

    public string SharcPath { get; }
    public string SqlitePath { get; }
    public SharcDatabase Db { get; }
    public SqliteConnection Sqlite { get; }

    /// <summary>CREATE TABLE / CREATE INDEX statements, run in both.</summary>
    public void Schema(params string[] statements)
    {
        foreach (var s in statements)
        {
            Oracle.Exec(Sqlite, s);
            if (s.StartsWith("CREATE TABLE", StringComparison.OrdinalIgnoreCase)) Db.CreateTable(s);
            else Db.CreateIndex(s);
        }
    }

    /// <summary>Runs a statement in SQLite and the equivalent call in Sharc; returns the common error message or null.</summary>
    /// <summary>Every statement run through <see cref="Both"/>, with SQLite's outcome (for failure messages).</summary>
    public List<string> Log { get; } = new();

    public string? Both(string sql, Action<SharcDatabase> sharc)
    {
        string? expected = SqliteError(sql), actual = null;
        try
        {
            sharc(Db);
        }
        catch (SharcException e)
        {
            // Through SQL the message carries the line and column; SQLite's own words are what must agree.
            actual = e is SharcSqlException sqlError ? sqlError.SqliteMessage : e.Message;
        }
        Log.Add(sql + " -> " + (expected ?? "ok"));
        actual.Should().Be(expected, "SQLite's outcome of {0}", sql);
        return actual;
    }

    /// <summary>The message SQLite gives for <paramref name="sql"/>, or null when it succeeds.</summary>
    public string? SqliteError(string sql)
    {
        try
        {
            Oracle.Exec(Sqlite, sql);
            return null;
        }
        catch (SqliteException e)
        {
            string m = e.Message;
            int a = m.IndexOf('\''), b = m.LastIndexOf('\'');
            return a >= 0 && b > a ? m[(a + 1)..b] : m;
        }
    }

    /// <summary>SQLite finds Sharc's file sound and the query gives the same rows in both.</summary>
    public void AssertSame(params string[] queries)
    {
        Oracle.IntegrityCheck(SharcPath).Should().Be("ok");
        foreach (var q in queries)
            Oracle.Rows(SharcPath, q).ShouldEqual(Oracle.Rows(Sqlite, q), q);
    }

    public void Dispose()
    {
        Db.Dispose();
        Sqlite.Dispose();
        _dir.Dispose();
    }
}
