using FluentAssertions;
using Sharc.Tests.Sql.Writes;
using Xunit.Abstractions;

namespace Sharc.Tests.Sql.Functions;

/// <summary>
/// Every built-in SQLite 3.53.3 lists in <c>pragma_function_list</c>, called with 0–4 simple arguments of each storage
/// class (hand-picked tuples plus seeded random mixes) on both engines: Sharc gives the same value and storage class,
/// or fails where SQLite fails. Functions whose answer cannot repeat (random(), the clock) compare by storage class
/// only; virtual-table modules Sharc does not have (FTS, R-Tree, Geopoly) are listed gaps.
/// </summary>
public sealed class FunctionListSweepTests
{
    private readonly ITestOutputHelper _out;

    public FunctionListSweepTests(ITestOutputHelper output) => _out = output;

    /// <summary>Answers that differ from call to call: compared by storage class (and for blobs, by length).</summary>
    private static readonly HashSet<string> Volatile = new(StringComparer.OrdinalIgnoreCase)
    {
        "random", "randomblob", "date", "time", "datetime", "julianday", "unixepoch", "strftime", "timediff",
        "current_date", "current_time", "current_timestamp",
        // Sharc lists the compile options that hold for it, not those of SQLite's C build (docs/COMPAT.md).
        "sqlite_compileoption_get",
    };

    /// <summary>Modules of SQLite's build that Sharc does not have (docs/COMPAT.md lists them as ❌).</summary>
    private static bool IsListedGap(string name)
        => name.StartsWith("fts", StringComparison.Ordinal) || name.StartsWith("geopoly", StringComparison.Ordinal)
            || name.StartsWith("rtree", StringComparison.Ordinal)
            || name is "bm25" or "highlight" or "snippet" or "offsets" or "matchinfo" or "match" or "optimize";

    private static readonly string[][] Pools =
    [
        ["0", "2", "-3", "9223372036854775807"],
        ["1.5", "-0.25", "1e300"],
        ["'a'", "'[1,2]'", "'{\"a\":1}'", "'$'", "'$.a'", "'2024-01-02'", "'%d'", "''", "' x '", "'10'"],
        ["x'01'", "x'7b7d'", "x''", "x'0b'"],
        ["NULL"],
    ];

    private static IEnumerable<string[]> ArgumentTuples(int n, Random r)
    {
        if (n == 0)
        {
            yield return [];
            yield break;
        }
        // One tuple of each storage class throughout, with the first value of its pool, then seeded random mixes.
        foreach (var pool in Pools) yield return Enumerable.Repeat(pool[0], n).ToArray();
        for (int k = 0; k < 12; k++)
            yield return Enumerable.Range(0, n).Select(_ => { var p = Pools[r.Next(Pools.Length)]; return p[r.Next(p.Length)]; }).ToArray();
    }

    [Fact]
    public void Every_builtin_answers_as_sqlite_with_simple_arguments()
    {
        using var o = new WriteOracle();
        var list = o.RunSqlite("SELECT DISTINCT name, type, narg FROM pragma_function_list ORDER BY name, type, narg", []).Rows
            .Select(row => row.Split(", ")).Select(p => (Name: p[0][6..^1], Type: p[1][6..^1], Narg: int.Parse(p[2][4..], System.Globalization.CultureInfo.InvariantCulture)))
            .Where(f => !IsListedGap(f.Name)).ToList();
        var r = new Random(16);
        var failures = new List<string>();
        int cases = 0;
        foreach (var (name, type, narg) in list)
        {
            var counts = narg >= 0 ? [narg] : Enumerable.Range(0, 5);
            foreach (int n in counts)
            {
                foreach (var args in ArgumentTuples(n, r))
                {
                    string call = $"{name}({string.Join(", ", args)})";
                    foreach (var sql in type switch
                    {
                        "w" => [$"SELECT {call} OVER ()"],
                        "a" => [$"SELECT {call}", $"SELECT {call} OVER ()"],
                        _ => new[] { $"SELECT {call}" },
                    })
                    {
                        cases++;
                        var expected = o.RunSqlite(sql, []);
                        WriteOracle.Outcome actual;
                        try
                        {
                            actual = o.RunSharc(sql, []);
                        }
                        catch (Exception e) when (e is not OutOfMemoryException)
                        {
                            // An untyped exception is a bug whatever SQLite says.
                            failures.Add($"{sql}\n    threw {e.GetType().Name}: {e.Message}");
                            continue;
                        }
                        if (!Same(name, expected, actual)) failures.Add($"{sql}\n    sqlite: {expected}\n    sharc:  {actual}");
                    }
                }
            }
        }
        _out.WriteLine($"{cases} calls of {list.Count} functions; {failures.Count} differ");
        foreach (var f in failures) _out.WriteLine(f);
        failures.Should().BeEmpty();
    }

    private static bool Same(string name, WriteOracle.Outcome expected, WriteOracle.Outcome actual)
    {
        if ((expected.Error is null) != (actual.Error is null)) return false;
        // load_extension: SQLite refuses it as not authorized, Sharc as not supported (it loads no native code).
        if (expected.Error is not null) return expected.Error == actual.Error || name == "load_extension";
        if (!Volatile.Contains(name)) return expected.ToString() == actual.ToString();
        static string Shape(string row) => row.StartsWith("x'", StringComparison.Ordinal) ? "blob" + row.Length : row.Split(' ')[0];
        return expected.Rows.Select(Shape).SequenceEqual(actual.Rows.Select(Shape));
    }
}
