using FluentAssertions;
using Microsoft.Data.Sqlite;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Sql.Writes;

/// <summary>
/// One database written by Sharc through SQL and one written by SQLite, side by side: every statement runs on both
/// and must agree — rows changed, RETURNING rows (values and storage classes), or the error message. Contents are
/// compared by reading both files with SQLite, and Sharc's file must pass SQLite's integrity_check.
/// </summary>
public sealed class WriteOracle : IDisposable
{
    private readonly TempDir _dir = new();
    private readonly SqliteConnection _sqlite;

    public WriteOracle(SharcCreateOptions? options = null)
    {
        SharcPath = _dir.File("sharc.db");
        SqlitePath = _dir.File("sqlite.db");
        Db = SharcDatabase.Create(SharcPath, options);
        _sqlite = Oracle.Open(SqlitePath);
        if (options is not null)
        {
            Oracle.Exec(_sqlite, $"PRAGMA page_size={options.PageSize}");
            Oracle.Exec(_sqlite, $"PRAGMA auto_vacuum={(int)options.AutoVacuum}");
            Oracle.Exec(_sqlite, $"PRAGMA encoding='{options.TextEncoding switch { SharcTextEncoding.Utf16LE => "UTF-16le", SharcTextEncoding.Utf16BE => "UTF-16be", _ => "UTF-8" }}'");
        }
    }

    public SharcDatabase Db { get; }

    public SqliteConnection Sqlite => _sqlite;

    public string SharcPath { get; }

    public string SqlitePath { get; }

    /// <summary>What a statement did: its rows (RETURNING, PRAGMA, SELECT) with storage classes, its changes, or its error.</summary>
    public sealed record Outcome(List<string> Rows, long Changes, string? Error)
    {
        /// <summary>RETURNING rows come in no promised order (SQLite's depends on its plan): they compare as a multiset.</summary>
        public bool Unordered { get; init; }

        public override string ToString()
            => Error is not null ? "error: " + Error : $"changes {Changes}; rows [{string.Join(" | ", Unordered ? Rows.Order(StringComparer.Ordinal) : Rows)}]";
    }

    /// <summary>Runs <paramref name="sql"/> on both and asserts the outcomes agree; returns Sharc's.</summary>
    public Outcome Both(string sql, params object?[] parameters)
    {
        bool unordered = ChangesOf(sql, 1) == 1;
        var expected = RunSqlite(sql, parameters) with { Unordered = unordered };
        var actual = RunSharc(sql, parameters) with { Unordered = unordered };
        actual.ToString().Should().Be(expected.ToString(), $"Sharc and SQLite differ on: {sql}");
        return actual;
    }

    /// <summary>Runs a statement on SQLite only (the twin of a write made on Sharc through the C# API).</summary>
    public void SqliteOnly(string sql) => Oracle.Exec(_sqlite, sql);

    /// <summary>Runs a statement on both and asserts both succeed identically.</summary>
    public Outcome Ok(string sql, params object?[] parameters)
    {
        var outcome = Both(sql, parameters);
        outcome.Error.Should().BeNull($"{sql} should succeed");
        return outcome;
    }

    public Outcome RunSqlite(string sql, object?[] parameters)
    {
        try
        {
            using var cmd = _sqlite.CreateCommand();
            cmd.CommandText = sql;
            for (int i = 0; i < parameters.Length; i++) cmd.Parameters.AddWithValue("?" + (i + 1), parameters[i] ?? DBNull.Value);
            var rows = new List<string>();
            using (var r = cmd.ExecuteReader())
            {
                do
                {
                    while (r.Read()) rows.Add(Describe(r));
                } while (r.NextResult());
            }
            return new Outcome(rows, ChangesOf(sql, (long)Oracle.Scalar(_sqlite, "SELECT changes()")!), null);
        }
        catch (SqliteException e)
        {
            return new Outcome([], 0, e.SqliteErrorCode == 1 || e.SqliteErrorCode == 19 || e.SqliteErrorCode == 20 ? Message(e) : Message(e));
        }
    }

    public Outcome RunSharc(string sql, object?[] parameters)
    {
        try
        {
            var rows = new List<string>();
            int changes;
            using (var r = Db.Query(sql, parameters))
            {
                while (r.Read()) rows.Add(Describe(r));
            }
            changes = Db.LastChanges;
            return new Outcome(rows, ChangesOf(sql, changes), null);
        }
        catch (SharcSqlException e)
        {
            return new Outcome([], 0, e.SqliteMessage);
        }
        catch (SharcException e) when (e is not SharcCorruptException)
        {
            return new Outcome([], 0, e.Message);
        }
    }

    /// <summary>Changes only mean something after INSERT, UPDATE and DELETE.</summary>
    private static long ChangesOf(string sql, long changes)
    {
        string head = sql.TrimStart().Split(' ', 2)[0].ToUpperInvariant();
        return head is "INSERT" or "UPDATE" or "DELETE" or "REPLACE" ? changes : 0;
    }

    private static string Message(SqliteException e)
    {
        // "SQLite Error 19: 'UNIQUE constraint failed: t.a'."
        string m = e.Message;
        int a = m.IndexOf('\'');
        int b = m.LastIndexOf('\'');
        return a >= 0 && b > a ? m[(a + 1)..b] : m;
    }

    private static string Describe(SqliteDataReader r)
    {
        var parts = new string[r.FieldCount];
        for (int i = 0; i < parts.Length; i++)
            parts[i] = r.IsDBNull(i) ? "NULL" : r.GetFieldType(i) == typeof(byte[]) ? "x'" + Convert.ToHexString((byte[])r.GetValue(i)) + "'"
                : r.GetValue(i) switch { long l => "int " + l, double d => "real " + d.ToString("R", System.Globalization.CultureInfo.InvariantCulture), string s => "text '" + s + "'", var o => o.ToString()! };
        return string.Join(", ", parts);
    }

    private static string Describe(SharcDataReader r)
    {
        var parts = new string[r.FieldCount];
        for (int i = 0; i < parts.Length; i++)
            parts[i] = r.GetColumnType(i) switch
            {
                SharcColumnType.Null => "NULL",
                SharcColumnType.Integer => "int " + r.GetInt64(i),
                SharcColumnType.Real => "real " + r.GetDouble(i).ToString("R", System.Globalization.CultureInfo.InvariantCulture),
                SharcColumnType.Text => "text '" + r.GetString(i) + "'",
                _ => "x'" + Convert.ToHexString(r.GetBlobSpan(i).ToArray()) + "'",
            };
        return string.Join(", ", parts);
    }

    /// <summary>Every table and index reads the same from both files (through SQLite), and Sharc's file is intact.</summary>
    public void AssertSameContents()
    {
        Oracle.IntegrityCheck(SharcPath).Should().Be("ok");
        using var sharcFile = Oracle.Open(SharcPath, readOnly: true);
        var expectedSchema = Oracle.Rows(_sqlite, "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name");
        var actualSchema = Oracle.Rows(sharcFile, "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name");
        actualSchema.Should().BeEquivalentTo(expectedSchema, o => o.WithStrictOrdering(), "sqlite_schema rows");
        foreach (var t in Oracle.Rows(_sqlite, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_stat%'"))
        {
            string name = (string)t[0]!;
            var columns = Oracle.Rows(_sqlite, $"SELECT name FROM pragma_table_info('{name}')").Select(r => (string)r[0]!).ToList();
            string order = string.Join(", ", Enumerable.Range(1, columns.Count * 2 + 1));
            string q = $"SELECT {RowIdOrNull(name)}, {string.Join(", ", columns.Select(c => $"\"{c}\", typeof(\"{c}\")"))} FROM \"{name}\" ORDER BY {order}";
            Oracle.Rows(sharcFile, q).Should().BeEquivalentTo(Oracle.Rows(_sqlite, q), o => o.WithStrictOrdering(), $"rows of {name}");
        }
    }

    private string RowIdOrNull(string table)
        => Oracle.Rows(_sqlite, $"SELECT 1 FROM sqlite_schema WHERE name = '{table}' AND sql LIKE '%WITHOUT ROWID%'").Count > 0 ? "NULL" : "rowid";

    public void Dispose()
    {
        Db.Dispose();
        _sqlite.Dispose();
        SqliteConnection.ClearAllPools();
        _dir.Dispose();
    }
}
