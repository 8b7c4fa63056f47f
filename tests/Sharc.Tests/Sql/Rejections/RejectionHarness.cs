using System.Text.RegularExpressions;
using Sharc.Tests.Infrastructure;
using Sharc.Tests.Sql.Writes;

namespace Sharc.Tests.Sql.Rejections;

/// <summary>
/// Statements SQLite rejects, made by mutating the queries of sqllogictest files (unknown columns, wrong arity,
/// misplaced aggregates, bad ORDER BY / GROUP BY terms, ambiguous names, compound width, subquery width, DDL
/// conflicts, …), run on SQLite and Sharc over the same tables: where SQLite fails, Sharc must fail too, and where
/// SQLite succeeds, so must Sharc.
/// </summary>
public static class RejectionHarness
{
    public sealed record Mismatch(string Kind, string Sql, string? SqliteError, string? SharcError);

    /// <summary>Queries of an slt file (the SQL of each "query" record) and its setup statements.</summary>
    public static (List<string> Setup, List<string> Queries) Read(string path, int maxQueries)
    {
        var setup = new List<string>();
        var queries = new List<string>();
        var records = File.ReadAllText(path).Replace("\r\n", "\n", StringComparison.Ordinal).Split("\n\n");
        foreach (var raw in records)
        {
            var lines = raw.Trim('\n').Split('\n').Where(l => !l.StartsWith('#')).ToList();
            while (lines.Count > 0 && (lines[0].StartsWith("skipif", StringComparison.Ordinal) || lines[0].StartsWith("onlyif", StringComparison.Ordinal)))
                return (setup, queries); // engine-specific records: stop at the first, the rest is plain
            if (lines.Count < 2) continue;
            if (lines[0] == "statement ok") setup.Add(string.Join("\n", lines.Skip(1)));
            else if (lines[0].StartsWith("query", StringComparison.Ordinal) && queries.Count < maxQueries)
            {
                int end = lines.IndexOf("----");
                queries.Add(string.Join("\n", lines.Skip(1).Take((end < 0 ? lines.Count : end) - 1)));
            }
        }
        return (setup, queries);
    }

    private static readonly (string Kind, Func<string, Random, string?> Mutate)[] Mutations =
    [
        ("unknown column", (q, r) => ReplaceOne(q, @"\b([a-e])\b(?![\(.])", r, "zz")),
        ("unknown table", (q, r) => ReplaceOne(q, @"\bFROM (t\d)\b", r, "FROM nosuch")),
        ("extra function argument", (q, r) => ReplaceOne(q, @"\b(abs|coalesce|length|upper|lower|typeof)\(([^()]*)\)", r, m => $"{m.Groups[1].Value}({m.Groups[2].Value}, 1, 2, 3)")),
        ("no function argument", (q, r) => ReplaceOne(q, @"\b(abs|length|upper|lower|typeof|round)\(([^()]*)\)", r, m => $"{m.Groups[1].Value}()")),
        ("aggregate in WHERE", (q, r) => q.Contains(" WHERE ", StringComparison.Ordinal) ? q.Replace(" WHERE ", " WHERE count(*) > 0 AND ", StringComparison.Ordinal) : null),
        ("nested aggregate", (q, r) => ReplaceOne(q, @"\b(count|sum|avg|min|max)\(([^()]*)\)", r, m => $"{m.Groups[1].Value}(sum({m.Groups[2].Value}))")),
        ("ORDER BY ordinal out of range", (q, r) => Regex.IsMatch(q, @"\bORDER BY\b") ? Regex.Replace(q, @"\bORDER BY\b", "ORDER BY 99,") : q + "\nORDER BY 99"),
        ("GROUP BY ordinal out of range", (q, r) => q.Contains("GROUP BY", StringComparison.Ordinal) || q.Contains("ORDER BY", StringComparison.Ordinal) ? null : q + "\nGROUP BY 0"),
        ("compound width", (q, r) => q.Contains("ORDER BY", StringComparison.Ordinal) ? null : q + "\nUNION SELECT 1, 2, 3, 4, 5, 6, 7, 8, 9"),
        ("subquery width", (q, r) => ReplaceOne(q, @"\(SELECT ([^()]*?) FROM", r, m => $"(SELECT {m.Groups[1].Value}, 1 FROM")),
        ("ambiguous column", (q, r) => ReplaceOne(q, @"\bFROM (t\d)\b", r, m => $"FROM {m.Groups[1].Value}, {m.Groups[1].Value} AS x2")),
        ("HAVING without aggregate", (q, r) => q.Contains("GROUP BY", StringComparison.Ordinal) || q.Contains("ORDER BY", StringComparison.Ordinal) ? null : q + "\nHAVING 1"),
        ("LIMIT text", (q, r) => q.Contains("LIMIT", StringComparison.Ordinal) ? null : q + "\nLIMIT 'x'"),
        ("window misuse", (q, r) => ReplaceOne(q, @"\bWHERE\b", r, "WHERE row_number() OVER () > 0 AND")),
        ("aggregate in GROUP BY", (q, r) => q.Contains("GROUP BY", StringComparison.Ordinal) || q.Contains("ORDER BY", StringComparison.Ordinal) ? null : q + "\nGROUP BY count(*)"),
        ("qualified unknown", (q, r) => ReplaceOne(q, @"\b(t\d)\.([a-e])\b", r, m => $"{m.Groups[1].Value}.zz")),
        ("star in function", (q, r) => ReplaceOne(q, @"\b(abs|length|upper)\(([^()]*)\)", r, m => $"{m.Groups[1].Value}(*)")),
        ("DISTINCT in scalar function", (q, r) => ReplaceOne(q, @"\b(abs|length|upper)\(([^()]*)\)", r, m => $"{m.Groups[1].Value}(DISTINCT {m.Groups[2].Value})")),
        ("row value", (q, r) => ReplaceOne(q, @"\b([a-e])([<>]=?)", r, m => $"({m.Groups[1].Value}, 1){m.Groups[2].Value}")),
    ];

    private static string? ReplaceOne(string q, string pattern, Random r, string replacement)
        => ReplaceOne(q, pattern, r, m => m.Result(replacement));

    private static string? ReplaceOne(string q, string pattern, Random r, Func<Match, string> replacement)
    {
        var matches = Regex.Matches(q, pattern);
        if (matches.Count == 0) return null;
        var m = matches[r.Next(matches.Count)];
        return q[..m.Index] + replacement(m) + q[(m.Index + m.Length)..];
    }

    /// <summary>Statements run by the last <see cref="Run"/>, and how many of them SQLite rejected.</summary>
    public static int Ran { get; private set; }

    public static int Rejected { get; private set; }

    /// <summary>Runs every mutation of every query on both engines; returns where they disagree on failing.</summary>
    public static List<Mismatch> Run(WriteOracle o, IEnumerable<string> queries, int seed)
    {
        var r = new Random(seed);
        Ran = Rejected = 0;
        var found = new List<Mismatch>();
        foreach (var q in queries)
        {
            foreach (var (kind, mutate) in Mutations)
            {
                string? sql = mutate(q, r);
                if (sql is null) continue;
                var sqlite = o.RunSqlite(sql, []);
                var sharc = o.RunSharc(sql, []);
                Ran++;
                if (sqlite.Error is not null) Rejected++;
                bool sqliteFails = sqlite.Error is not null, sharcFails = sharc.Error is not null;
                if (sqliteFails != sharcFails && !(sharc.Error?.Contains("is not supported", StringComparison.Ordinal) ?? false))
                    found.Add(new Mismatch(kind, sql, sqlite.Error, sharc.Error));
            }
        }
        return found;
    }
}
