using Sharc.Sql.Parsing;
using Xunit.Abstractions;

namespace Sharc.Tests.Sql.Parsing;

/// <summary>
/// Every "statement ok" and "query" record of the sqllogictest files in ../shared/conformance must parse (and a sample
/// must print back to text that parses to the same tree). "statement error" records may fail or succeed, but only with
/// <see cref="SharcSqlException"/>.
/// </summary>
public sealed class SqlLogicTestCorpusTests
{
    private readonly ITestOutputHelper _output;

    public SqlLogicTestCorpusTests(ITestOutputHelper output) => _output = output;

    internal sealed record Record(string File, int Line, string Kind, string Sql);

    [Sharc.Tests.Infrastructure.ConformanceFact]
    public void Every_statement_and_query_parses()
    {
        int parsed = 0, errorRecords = 0, errorRecordsRejected = 0;
        var failures = new List<string>();
        foreach (var record in Records())
        {
            if (record.Kind == "statement error")
            {
                errorRecords++;
                try
                {
                    SqlParser.ParseScript(record.Sql);
                }
                catch (SharcSqlException)
                {
                    errorRecordsRejected++;
                }
                continue;
            }
            try
            {
                // A record is run with sqlite3_exec, so it may hold several statements.
                foreach (var statement in SqlParser.ParseScript(record.Sql))
                {
                    // Printing and re-parsing every fourth statement keeps the test quick; the statements are much alike.
                    if (parsed++ % 4 != 0) continue;
                    string printed = SqlAstPrinter.Print(statement, record.Sql);
                    string reprinted = SqlAstPrinter.Print(SqlParser.ParseStatement(printed), printed);
                    if (printed != reprinted) failures.Add($"{record.File}:{record.Line}: round trip differs\n  {printed}\n  {reprinted}");
                }
            }
            catch (SharcSqlException e)
            {
                failures.Add($"{record.File}:{record.Line}: {e.Message}\n  {record.Sql}");
            }
        }
        _output.WriteLine($"{parsed} statements of 'statement ok' and 'query' records parsed; {errorRecords} 'statement error' records, {errorRecordsRejected} of them rejected by the parser");
        failures.Take(20).Should().BeEmpty();
        parsed.Should().BeGreaterThan(0);
    }

    /// <summary>The records of every .test file, skipping those meant for other engines ("onlyif x", "skipif sqlite").</summary>
    internal static IEnumerable<Record> Records()
    {
        string root = Path.Combine(Sharc.Tests.Infrastructure.Conformance.Directory!, "sqllogictest");
        foreach (var path in Directory.EnumerateFiles(root, "*.test", SearchOption.AllDirectories).Order(StringComparer.Ordinal))
        {
            string name = Path.GetRelativePath(root, path);
            var lines = File.ReadAllLines(path);
            bool skip = false;
            for (int i = 0; i < lines.Length; i++)
            {
                string line = lines[i].Trim();
                if (line.Length == 0 || line.StartsWith('#')) continue;
                string[] words = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
                switch (words[0])
                {
                    case "skipif":
                        skip |= words.Length > 1 && words[1] == "sqlite";
                        continue;
                    case "onlyif":
                        skip |= words.Length > 1 && words[1] != "sqlite";
                        continue;
                    case "halt":
                        if (!skip) goto nextFile;
                        skip = false;
                        continue;
                    case "statement" or "query":
                        break;
                    default:
                        continue;
                }
                string kind = words[0] == "query" ? "query" : "statement " + (words.Length > 1 ? words[1] : "ok");
                int start = i + 1;
                var sql = new List<string>();
                for (i++; i < lines.Length && lines[i].Trim().Length > 0 && lines[i].Trim() != "----"; i++) sql.Add(lines[i]);
                // Skip the expected results, which run to the next blank line.
                if (i < lines.Length && lines[i].Trim() == "----")
                {
                    while (i < lines.Length && lines[i].Trim().Length > 0) i++;
                }
                if (!skip && sql.Count > 0) yield return new Record(name, start + 1, kind, string.Join('\n', sql));
                skip = false;
            }
        nextFile:;
        }
    }
}
