using System.Globalization;

namespace Sharc.Cli.Slt;

/// <summary>
/// Runs sqllogictest files against an <see cref="ISltEngine"/>, each file on a fresh engine, and says which
/// statements and queries behaved as the file expects.
/// </summary>
public sealed class SltRunner
{
    /// <summary>The hash threshold a file starts with, until a <c>hash-threshold</c> record changes it.</summary>
    public const int DefaultHashThreshold = 8;

    /// <summary>How many lines of a result a failure keeps.</summary>
    private const int DetailLines = 10;

    private readonly Func<ISltEngine> _engineFactory;

    /// <summary>Creates a runner that makes one engine per file with <paramref name="engineFactory"/>.</summary>
    public SltRunner(Func<ISltEngine> engineFactory)
    {
        ArgumentNullException.ThrowIfNull(engineFactory);
        _engineFactory = engineFactory;
    }

    /// <summary>
    /// The engine name skipif/onlyif lines are matched against. "sqlite" whatever the engine, since the corpus'
    /// expected results are SQLite's and Sharc aims to behave as SQLite.
    /// </summary>
    public string ConditionName { get; init; } = "sqlite";

    /// <summary>Runs the test file at <paramref name="path"/>.</summary>
    /// <param name="path">The file to read (UTF-8).</param>
    /// <param name="maxFailures">Stop the file after this many failures.</param>
    public SltFileResult RunFile(string path, int maxFailures = int.MaxValue)
        => Run(path, File.ReadAllText(path), maxFailures);

    /// <summary>Runs test-file text; <paramref name="file"/> names it in the result.</summary>
    /// <param name="file">The name failures are reported under.</param>
    /// <param name="text">The records.</param>
    /// <param name="maxFailures">Stop after this many failures.</param>
    public SltFileResult Run(string file, string text, int maxFailures = int.MaxValue)
    {
        ArgumentNullException.ThrowIfNull(file);
        ArgumentNullException.ThrowIfNull(text);
        var records = SltParser.Parse(text);
        using var engine = _engineFactory();
        var run = new FileRun(file, engine);
        bool stopped = false;
        foreach (var record in records)
        {
            if (run.Failures.Count >= maxFailures)
            {
                stopped = true;
                break;
            }
            if (record is SltMalformed bad)
            {
                run.Fail(bad.Line, "", $"{bad.Message}: {bad.Text}");
                continue;
            }
            if (!record.AppliesTo(ConditionName))
            {
                if (record is SltStatement or SltQuery) run.Skipped++;
                continue;
            }
            if (record is SltHalt) break;
            switch (record)
            {
                case SltHashThreshold h:
                    run.HashThreshold = h.Threshold;
                    break;
                case SltStatement s:
                    run.Statement(s);
                    break;
                case SltQuery q:
                    run.Query(q);
                    break;
            }
        }
        return new SltFileResult(file, run.Passed, run.Failures.Count, run.Skipped, run.QueriesPassed, stopped, run.Failures);
    }

    /// <summary>The state of one file's run: the engine, the counts, the hash threshold and the labels seen.</summary>
    private sealed class FileRun(string file, ISltEngine engine)
    {
        private readonly Dictionary<string, (string Hash, int Line)> _labels = new(StringComparer.Ordinal);

        public List<SltFailure> Failures { get; } = [];

        public int Passed { get; private set; }

        public int QueriesPassed { get; private set; }

        public int Skipped { get; set; }

        public int HashThreshold { get; set; } = DefaultHashThreshold;

        public void Statement(SltStatement s)
        {
            string? error = null;
            try
            {
                engine.Execute(s.Sql);
            }
            catch (Exception e)
            {
                // Any exception is the statement failing: the engine's contract is to throw on a SQL error, and a
                // crash is no success either.
                error = OneLine(e.Message);
            }

            if (s.ExpectError && error is null) Fail(s.Line, s.Sql, "statement succeeded, but the file expects an error");
            else if (!s.ExpectError && error is not null) Fail(s.Line, s.Sql, "statement failed: " + error);
            else Passed++;
        }

        public void Query(SltQuery q)
        {
            IReadOnlyList<object?[]> rows;
            string? error = null;
            try
            {
                rows = engine.Query(q.Sql);
            }
            catch (Exception e)
            {
                // The reference harness reads an error while preparing or stepping as an empty result.
                rows = [];
                error = OneLine(e.Message);
            }

            foreach (var row in rows)
            {
                if (row.Length == q.Types.Length) continue;
                Fail(q.Line, q.Sql, string.Create(CultureInfo.InvariantCulture,
                    $"query returned {row.Length} columns, but its types '{q.Types}' declare {q.Types.Length}"));
                return;
            }

            var values = SltResult.Render(rows, q.Types, q.Sort);
            var expected = q.Expected;
            string? hash = null;
            bool same = expected.Hash is null
                ? values.SequenceEqual(expected.Values, StringComparer.Ordinal)
                : values.Count == expected.Count && (hash = SltResult.Md5(values)) == expected.Hash;
            if (!same)
            {
                string message = error is null
                    ? "query result differs"
                    : "query failed (" + error + "), which counts as an empty result";
                Fail(q.Line, q.Sql, message, Head(expected.Lines), Describe(values, expected));
                return;
            }

            if (q.Label is { } label)
            {
                // Queries sharing a label are the same question asked differently: their results must agree.
                hash ??= SltResult.Md5(values);
                if (_labels.TryGetValue(label, out var first))
                {
                    if (first.Hash != hash)
                    {
                        Fail(q.Line, q.Sql, string.Create(CultureInfo.InvariantCulture,
                            $"result differs from that of the first query labelled {label} (line {first.Line})"));
                        return;
                    }
                }
                else
                {
                    _labels[label] = (hash, q.Line);
                }
            }
            Passed++;
            QueriesPassed++;
        }

        public void Fail(int line, string sql, string message, IReadOnlyList<string>? expected = null, IReadOnlyList<string>? actual = null)
            => Failures.Add(new SltFailure(file, line, sql, message, expected ?? [], actual ?? []));

        /// <summary>The actual values as the file would write them: hashed past the threshold, then the first few.</summary>
        private List<string> Describe(List<string> values, SltExpected expected)
        {
            bool hashed = expected.Hash is not null || (HashThreshold > 0 && values.Count > HashThreshold);
            if (!hashed) return Head(values);
            var lines = new List<string> { SltResult.HashLine(values.Count, SltResult.Md5(values)) };
            lines.AddRange(Head(values));
            return lines;
        }

        private static List<string> Head(IReadOnlyList<string> lines)
        {
            var head = lines.Take(DetailLines).ToList();
            if (lines.Count > DetailLines)
                head.Add(string.Create(CultureInfo.InvariantCulture, $"… ({lines.Count - DetailLines} more)"));
            if (head.Count == 0) head.Add("(no values)");
            return head;
        }

        private static string OneLine(string message) => message.ReplaceLineEndings(" ").Trim();
    }
}
