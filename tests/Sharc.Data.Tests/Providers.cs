using System.Data.Common;
using Microsoft.Data.Sqlite;
using Sharc.Data;

namespace Sharc.Data.Tests;

/// <summary>The two providers the differential tests run the same ADO.NET code against: real SQLite and Sharc.Data.</summary>
public sealed class Providers : IDisposable
{
    private readonly string _dir = Path.Combine(Path.GetTempPath(), "sharc-data-tests", Guid.NewGuid().ToString("N"));

    public Providers() => Directory.CreateDirectory(_dir);

    /// <summary>A path of a new file for provider <paramref name="name"/>.</summary>
    public string File(string name) => Path.Combine(_dir, name);

    public static DbConnection OpenSqlite(string path, string extra = "")
    {
        var c = new SqliteConnection($"Data Source={path};Pooling=False{extra}");
        c.Open();
        return c;
    }

    public static DbConnection OpenSharc(string path, string extra = "")
    {
        var c = new SharcConnection($"Data Source={path};Pooling=False{extra}");
        c.Open();
        return c;
    }

    /// <summary>Runs <paramref name="script"/> on a fresh database of each provider and returns both transcripts.</summary>
    public (string Sqlite, string Sharc) Run(Func<DbConnection, string> script)
    {
        string a, b;
        using (var c = OpenSqlite(File("sqlite-" + Guid.NewGuid().ToString("N") + ".db"))) a = script(c);
        using (var c = OpenSharc(File("sharc-" + Guid.NewGuid().ToString("N") + ".db"))) b = script(c);
        return (a, b);
    }

    public void Dispose()
    {
        SqliteConnection.ClearAllPools();
        try { Directory.Delete(_dir, recursive: true); } catch (IOException) { } catch (UnauthorizedAccessException) { }
    }

    /// <summary>Every result set of <paramref name="sql"/> with each value's field type, data type name and value.</summary>
    public static string Transcript(DbConnection c, string sql, params (string Name, object? Value)[] parameters)
    {
        using var cmd = c.CreateCommand();
        cmd.CommandText = sql;
        foreach (var (name, value) in parameters)
        {
            var p = cmd.CreateParameter();
            p.ParameterName = name;
            p.Value = value ?? DBNull.Value;
            cmd.Parameters.Add(p);
        }
        var sb = new System.Text.StringBuilder();
        try
        {
            using var r = cmd.ExecuteReader();
            do
            {
                sb.Append("set ").Append(r.FieldCount).Append(" hasRows=").Append(r.HasRows).Append('\n');
                for (int i = 0; i < r.FieldCount; i++) sb.Append(r.GetName(i)).Append(' ');
                sb.Append('\n');
                while (r.Read())
                {
                    for (int i = 0; i < r.FieldCount; i++)
                        sb.Append(r.GetFieldType(i).Name).Append(':').Append(r.GetDataTypeName(i)).Append(':').Append(Show(r.GetValue(i))).Append(" | ");
                    sb.Append('\n');
                }
            } while (r.NextResult());
            r.Close();
            sb.Append("affected ").Append(r.RecordsAffected);
        }
        catch (DbException)
        {
            sb.Append("DbException");
        }
        catch (Exception e)
        {
            sb.Append(e.GetType().Name).Append(": ").Append(e.Message);
        }
        return sb.ToString();
    }

    public static string Show(object? v) => v switch
    {
        null => "null",
        DBNull => "DBNull",
        byte[] b => "x'" + Convert.ToHexString(b) + "'",
        double d => d.ToString("R", System.Globalization.CultureInfo.InvariantCulture),
        _ => Convert.ToString(v, System.Globalization.CultureInfo.InvariantCulture) ?? "",
    };
}
