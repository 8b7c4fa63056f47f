using System.Globalization;
using System.Text;
using System.Text.Json;
using Microsoft.Data.Sqlite;
using Sharc.Cli;

namespace Sharc.Tests.Cli;

/// <summary>What one in-process run of the sharc tool produced.</summary>
internal sealed record CliResult(int ExitCode, string Stdout, string Stderr)
{
    /// <summary>The stdout lines, without the final empty one.</summary>
    public string[] Lines => Stdout.Length == 0 ? [] : Stdout.TrimEnd('\n').Split('\n');
}

/// <summary>Runs the tool in-process, and builds the SQLite databases it reads (real SQLite is the oracle).</summary>
internal sealed class CliFixture : IDisposable
{
    public CliFixture()
    {
        Dir = Path.Combine(Path.GetTempPath(), "sharc-cli-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(Dir);
    }

    public string Dir { get; }

    public string PathOf(string name) => Path.Combine(Dir, name);

    public static CliResult Run(params string[] args)
    {
        var stdout = new StringWriter(CultureInfo.InvariantCulture);
        var stderr = new StringWriter(CultureInfo.InvariantCulture);
        int code = Program.Run(args, stdout, stderr);
        return new CliResult(code, stdout.ToString(), stderr.ToString());
    }

    /// <summary>Runs the tool in-process with <paramref name="stdin"/> as redirected standard input.</summary>
    public static CliResult RunWithInput(string stdin, params string[] args)
    {
        var stdout = new StringWriter(CultureInfo.InvariantCulture);
        var stderr = new StringWriter(CultureInfo.InvariantCulture);
        int code = Program.Run(args, new StringReader(stdin), stdout, stderr);
        return new CliResult(code, stdout.ToString(), stderr.ToString());
    }

    /// <summary>The built tool beside the tests (the test project references it), for runs in a real process.</summary>
    public static string ToolDll => Path.Combine(AppContext.BaseDirectory, "Sharc.Cli.dll");

    public static SqliteConnection Connect(string path)
    {
        var cs = new SqliteConnectionStringBuilder { DataSource = path, Pooling = false, Mode = SqliteOpenMode.ReadWriteCreate };
        var c = new SqliteConnection(cs.ToString());
        c.Open();
        return c;
    }

    /// <summary>Creates a database file by running <paramref name="statements"/> with real SQLite.</summary>
    public string CreateDb(string name, params string[] statements)
    {
        string path = PathOf(name);
        using var c = Connect(path);
        foreach (var sql in statements) Exec(c, sql);
        return path;
    }

    public static void Exec(SqliteConnection c, string sql, params object?[] args)
    {
        using var cmd = c.CreateCommand();
        cmd.CommandText = sql;
        for (int i = 0; i < args.Length; i++) cmd.Parameters.AddWithValue("$p" + i, args[i] ?? DBNull.Value);
        cmd.ExecuteNonQuery();
    }

    /// <summary>The rows of a query as real SQLite returns them: long, double, string, byte[] or null.</summary>
    public static List<object?[]> Query(string path, string sql)
    {
        using var c = Connect(path);
        return Sharc.Tests.Infrastructure.Oracle.Rows(c, sql);
    }

    /// <summary>
    /// Parses a jsonl dump back into values (long, double, string, byte[] or null), checking that each line is a
    /// JSON array and that numbers keep their storage class: a real always has '.' or an exponent.
    /// </summary>
    public static List<object?[]> ParseJsonl(string stdout)
    {
        var rows = new List<object?[]>();
        foreach (var line in stdout.Split('\n'))
        {
            if (line.Length == 0) continue;
            using var doc = JsonDocument.Parse(line);
            doc.RootElement.ValueKind.Should().Be(JsonValueKind.Array, line);
            var row = new List<object?>();
            foreach (var e in doc.RootElement.EnumerateArray())
            {
                row.Add(e.ValueKind switch
                {
                    JsonValueKind.Null => null,
                    JsonValueKind.String => e.GetString(),
                    JsonValueKind.Number => e.GetRawText().AsSpan().IndexOfAny(".eE") >= 0
                        ? (object)double.Parse(e.GetRawText(), CultureInfo.InvariantCulture)
                        : e.GetInt64(),
                    JsonValueKind.Object => Convert.FromHexString(e.GetProperty("blob").GetString()!),
                    _ => throw new InvalidOperationException($"unexpected JSON value {e.GetRawText()} in {line}"),
                });
            }
            rows.Add([.. row]);
        }
        return rows;
    }

    /// <summary>Asserts that two row lists hold the same values of the same storage classes, row by row.</summary>
    public static void ShouldMatch(List<object?[]> actual, List<object?[]> expected)
    {
        actual.Should().HaveCount(expected.Count);
        for (int r = 0; r < expected.Count; r++)
        {
            actual[r].Should().HaveCount(expected[r].Length, $"row {r}");
            for (int c = 0; c < expected[r].Length; c++)
            {
                object? a = actual[r][c], e = expected[r][c];
                string where = $"row {r}, column {c}: expected {Describe(e)}, got {Describe(a)}";
                if (e is double d)
                {
                    a.Should().BeOfType<double>(where);
                    BitConverter.DoubleToInt64Bits((double)a!).Should().Be(BitConverter.DoubleToInt64Bits(d), where);
                }
                else if (e is byte[] b)
                {
                    a.Should().BeOfType<byte[]>(where);
                    ((byte[])a!).Should().Equal(b, where);
                }
                else
                {
                    a.Should().Be(e, where);
                }
            }
        }
    }

    private static string Describe(object? v) => v switch
    {
        null => "NULL",
        byte[] b => "x'" + Convert.ToHexStringLower(b) + "'",
        double d => "real " + d.ToString("R", CultureInfo.InvariantCulture),
        long l => "integer " + l.ToString(CultureInfo.InvariantCulture),
        string s => "text \"" + s + "\"",
        _ => v.GetType().Name + " " + v,
    };

    /// <summary>Joins lines with the given line end, ending the last one too.</summary>
    public static string Text(string lineEnd, params string[] lines)
    {
        var sb = new StringBuilder();
        foreach (var l in lines) sb.Append(l).Append(lineEnd);
        return sb.ToString();
    }

    public void Dispose()
    {
        try
        {
            Directory.Delete(Dir, recursive: true);
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }
    }
}
