using System.Globalization;
using System.Text;
using Microsoft.Data.Sqlite;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Sql.Json;

/// <summary>
/// One database open in real SQLite and in Sharc; runs a statement on both and renders the answer exactly (storage
/// class, reals round-trip, blobs in hex) or as "ERROR: message", so JSON results and SQLite's errors can be compared.
/// </summary>
internal sealed class JsonOracle : IDisposable
{
    private readonly TempDir _dir = new();
    private readonly SqliteConnection _sqlite;

    public JsonOracle(params string[] setup)
    {
        var path = _dir.File("j.db");
        using (var c = Oracle.Open(path))
        {
            Oracle.Exec(c, "CREATE TABLE IF NOT EXISTS one(x)");
            foreach (var s in setup) Oracle.Exec(c, s);
        }
        _sqlite = Oracle.Open(path, readOnly: true);
        Db = SharcDatabase.Open(path);
    }

    public SharcDatabase Db { get; }

    public string Expected(string sql)
    {
        try
        {
            using var cmd = _sqlite.CreateCommand();
            cmd.CommandText = sql;
            using var r = cmd.ExecuteReader();
            var sb = new StringBuilder();
            while (r.Read()) Row(sb, r.FieldCount, i => r.IsDBNull(i) ? null : r.GetValue(i));
            return sb.ToString();
        }
        catch (SqliteException e)
        {
            return "ERROR: " + ErrorText(e.Message);
        }
    }

    public string Actual(string sql)
    {
        try
        {
            using var r = Db.Query(sql);
            var sb = new StringBuilder();
            while (r.Read()) Row(sb, r.FieldCount, i => r.GetValue(i));
            return sb.ToString();
        }
        catch (SharcException e)
        {
            return "ERROR: " + e.Message;
        }
    }

    // "SQLite Error 1: 'malformed JSON'." → "malformed JSON"
    private static string ErrorText(string message)
    {
        int a = message.IndexOf('\''), b = message.LastIndexOf('\'');
        return a >= 0 && b > a ? message[(a + 1)..b] : message;
    }

    private static void Row(StringBuilder sb, int n, Func<int, object?> get)
    {
        for (int i = 0; i < n; i++)
        {
            if (i > 0) sb.Append(" | ");
            sb.Append(Render(get(i)));
        }
        sb.Append('\n');
    }

    public static string Render(object? v) => v switch
    {
        null => "NULL",
        long l => "I:" + l.ToString(CultureInfo.InvariantCulture),
        double d => "R:" + d.ToString("R", CultureInfo.InvariantCulture),
        string s => "T:" + s,
        byte[] b => "B:" + Convert.ToHexString(b),
        _ => "?" + v,
    };

    /// <summary>The statements whose answers differ, each described; SQLite's error messages must match Sharc's start.</summary>
    public List<string> Differences(IEnumerable<string> statements)
    {
        var diffs = new List<string>();
        foreach (var sql in statements)
        {
            var e = Expected(sql);
            var a = Actual(sql);
            bool same = e == a || (e.StartsWith("ERROR: ", StringComparison.Ordinal) && a.StartsWith(e, StringComparison.Ordinal));
            if (!same) diffs.Add($"{sql}\n  sqlite: {e.TrimEnd()}\n  sharc:  {a.TrimEnd()}");
        }
        return diffs;
    }

    public void Dispose()
    {
        Db.Dispose();
        _sqlite.Dispose();
        _dir.Dispose();
    }
}
