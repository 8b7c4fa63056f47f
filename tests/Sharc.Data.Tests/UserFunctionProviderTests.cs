using Microsoft.Data.Sqlite;
using Sharc.Data;

namespace Sharc.Data.Tests;

/// <summary>
/// CreateFunction, CreateAggregate and CreateCollation on <see cref="SharcConnection"/>, written exactly as for
/// Microsoft.Data.Sqlite's SqliteConnection: the same code gives the same rows on both.
/// </summary>
public sealed class UserFunctionProviderTests : IDisposable
{
    private readonly Providers _providers = new();

    public void Dispose() => _providers.Dispose();

    private static string Script(SharcConnection? sharc, SqliteConnection? sqlite)
    {
        // The same registrations, made through each provider's own methods.
        if (sharc is not null)
        {
            sharc.CreateFunction("plus", (long? a, long? b) => a + b, isDeterministic: true);
            sharc.CreateAggregate("concat_all", "", (string acc, string? s) => acc + s + ";", acc => acc);
            sharc.CreateCollation("bylength", (x, y) => x.Length != y.Length ? x.Length.CompareTo(y.Length) : string.CompareOrdinal(x, y));
        }
        if (sqlite is not null)
        {
            sqlite.CreateFunction("plus", (long? a, long? b) => a + b, isDeterministic: true);
            sqlite.CreateAggregate("concat_all", "", (string acc, string? s) => acc + s + ";", acc => acc);
            sqlite.CreateCollation("bylength", (x, y) => x.Length != y.Length ? x.Length.CompareTo(y.Length) : string.CompareOrdinal(x, y));
        }
        return "";
    }

    [Fact]
    public void Registrations_made_before_and_after_open_give_the_same_rows_as_microsoft_data_sqlite()
    {
        var sharc = new SharcConnection("Data Source=" + _providers.File("udf.db"));
        Script(sharc, null); // before Open: kept and applied on open
        sharc.Open();
        using var sqlite = new SqliteConnection("Data Source=" + _providers.File("udf-sqlite.db") + ";Pooling=False");
        sqlite.Open();
        Script(null, sqlite);
        sharc.CreateFunction("twice", (long x) => x * 2);
        sqlite.CreateFunction("twice", (long x) => x * 2);
        string[] sql =
        [
            "CREATE TABLE t(a INT, s TEXT COLLATE bylength)",
            "CREATE INDEX t_s ON t(s)",
            "INSERT INTO t VALUES (1, 'ccc'), (2, 'a'), (3, 'bb'), (4, 'aaaa'), (NULL, 'b')",
            "SELECT plus(a, 10), twice(3), concat_all(s) FROM t GROUP BY a IS NULL ORDER BY 1",
            "SELECT s FROM t ORDER BY s",
            "SELECT s FROM t WHERE s > 'zz' ORDER BY s",
        ];
        foreach (var q in sql)
        {
            using var a = sharc.CreateCommand();
            a.CommandText = q;
            using var b = sqlite.CreateCommand();
            b.CommandText = q;
            Rows(a.ExecuteReader()).Should().Equal(Rows(b.ExecuteReader()), q);
        }
        sharc.Close();
        sharc.Open(); // registrations survive a reopen
        using var again = sharc.CreateCommand();
        again.CommandText = "SELECT plus(1, 2), s FROM t ORDER BY s LIMIT 1";
        Rows(again.ExecuteReader()).Should().Equal("3|a");
        sharc.Dispose();
    }

    private static List<string> Rows(System.Data.Common.DbDataReader r)
    {
        var rows = new List<string>();
        using (r)
        {
            while (r.Read())
            {
                var parts = new string[r.FieldCount];
                for (int i = 0; i < parts.Length; i++) parts[i] = r.IsDBNull(i) ? "NULL" : Convert.ToString(r.GetValue(i), System.Globalization.CultureInfo.InvariantCulture)!;
                rows.Add(string.Join("|", parts));
            }
        }
        return rows;
    }
}
