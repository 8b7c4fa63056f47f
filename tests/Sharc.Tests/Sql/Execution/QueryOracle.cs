using System.Globalization;
using System.Text;
using Microsoft.Data.Sqlite;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Sql.Execution;

/// <summary>
/// A database built by real SQLite, open both in SQLite and in Sharc, so a query can be run on both and the answers
/// compared. Values are rendered exactly (storage class and value; reals to 12 significant digits, since sums over
/// rows visited in another order may differ in the last bits).
/// </summary>
internal sealed class QueryOracle : IDisposable
{
    private readonly TempDir _dir = new();

    public QueryOracle(params string[] setup)
    {
        Path = _dir.File("q.db");
        using (var c = Oracle.Open(Path))
        {
            foreach (var s in setup) Oracle.Exec(c, s);
        }
        Sqlite = Oracle.Open(Path, readOnly: true);
        Db = SharcDatabase.Open(Path);
    }

    public string Path { get; }

    public SqliteConnection Sqlite { get; }

    public SharcDatabase Db { get; }

    /// <summary>SQLite's rows, or "ERROR" as the only row when the statement fails.</summary>
    public List<string> Expected(string sql, params object?[] args)
    {
        try
        {
            using var cmd = Sqlite.CreateCommand();
            cmd.CommandText = sql;
            args ??= [null];
            for (int i = 0; i < args.Length; i++) cmd.Parameters.AddWithValue("$p" + (i + 1).ToString(CultureInfo.InvariantCulture), args[i] ?? DBNull.Value);
            using var r = cmd.ExecuteReader();
            var rows = new List<string>();
            while (r.Read())
            {
                var sb = new StringBuilder();
                for (int i = 0; i < r.FieldCount; i++)
                {
                    if (i > 0) sb.Append(" | ");
                    sb.Append(Render(r.IsDBNull(i) ? null : r.GetValue(i)));
                }
                rows.Add(sb.ToString());
            }
            return rows;
        }
        catch (SqliteException)
        {
            return ["ERROR"];
        }
    }

    /// <summary>Sharc's rows, or "ERROR" as the only row when the statement fails.</summary>
    public List<string> Actual(string sql, params object?[] args)
    {
        args ??= [null];
        try
        {
            if (args.Length == 0)
            {
                using var r = Db.Query(sql);
                return Rows(r);
            }
            // Parameters are named $p1, $p2, … on both sides.
            using var q = Db.Prepare(sql);
            for (int i = 0; i < args.Length; i++)
            {
                int index = q.GetParameterIndex("$p" + (i + 1).ToString(CultureInfo.InvariantCulture));
                if (index > 0) q.Bind(index, args[i]);
            }
            return Rows(q.Execute());
        }
        catch (SharcException)
        {
            return ["ERROR"];
        }
    }

    public static List<string> Rows(SharcDataReader r)
    {
        var rows = new List<string>();
        while (r.Read())
        {
            var sb = new StringBuilder();
            for (int i = 0; i < r.FieldCount; i++)
            {
                if (i > 0) sb.Append(" | ");
                sb.Append(Render(r.GetValue(i)));
            }
            rows.Add(sb.ToString());
        }
        return rows;
    }

    public static string Render(object? v) => v switch
    {
        null => "NULL",
        long l => "I:" + l.ToString(CultureInfo.InvariantCulture),
        double d => "R:" + (d == 0 ? "0" : d.ToString("G12", CultureInfo.InvariantCulture)),
        string s => "T:'" + s + "'",
        byte[] b => "B:" + Convert.ToHexString(b),
        _ => "?" + v,
    };

    /// <summary>Asserts equal answers: as sequences when <paramref name="ordered"/>, else as multisets.</summary>
    public void Check(string sql, bool ordered, params object?[] args)
    {
        var expected = Expected(sql, args);
        var actual = Actual(sql, args);
        if (!ordered)
        {
            expected.Sort(StringComparer.Ordinal);
            actual.Sort(StringComparer.Ordinal);
        }
        if (actual.SequenceEqual(expected)) return;
        var missing = expected.ToList();
        foreach (var row in actual) missing.Remove(row);
        var extra = actual.ToList();
        foreach (var row in expected) extra.Remove(row);
        int at = 0;
        while (at < Math.Min(expected.Count, actual.Count) && expected[at] == actual[at]) at++;
        Assert.Fail($"Sharc should answer as SQLite does:\n{sql}\n{expected.Count} rows expected, {actual.Count} given; first difference at row {at}\n" +
            $"missing: {string.Join("; ", missing.Take(6))}\nextra:   {string.Join("; ", extra.Take(6))}\n" +
            $"expected from there: {string.Join("; ", expected.Skip(at).Take(4))}\nactual from there:   {string.Join("; ", actual.Skip(at).Take(4))}");
    }

    /// <summary>
    /// Runs generated queries on both engines; returns the disagreements (each described) and how many queries SQLite
    /// rejected. Rows are compared as sequences when a query's order is total, else as multisets.
    /// </summary>
    public (List<string> Failures, int Errors) Disagreements(Func<(string Sql, bool Ordered)> next, int count)
    {
        var failures = new List<string>();
        int errors = 0;
        for (int q = 0; q < count; q++)
        {
            var (sql, ordered) = next();
            var expected = Expected(sql);
            var actual = Actual(sql);
            if (expected is ["ERROR"]) errors++;
            if (AnswerComparison.Difference(sql, expected, actual, ordered) is { } difference) failures.Add(difference);
        }
        return (failures, errors);
    }

    public void Dispose()
    {
        Db.Dispose();
        Sqlite.Dispose();
        _dir.Dispose();
    }
}
