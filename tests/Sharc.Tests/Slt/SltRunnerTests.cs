using Sharc.Cli.Slt;

namespace Sharc.Tests.Slt;

/// <summary>The runner against a scripted engine: what passes, what fails, what is skipped, and what a failure says.</summary>
public sealed class SltRunnerTests
{
    /// <summary>An engine that answers from a script: SQL → rows, or SQL → error.</summary>
    private sealed class ScriptedEngine : ISltEngine
    {
        public Dictionary<string, object?[][]> Results { get; } = new(StringComparer.Ordinal);

        public HashSet<string> Failing { get; } = new(StringComparer.Ordinal);

        public List<string> Executed { get; } = [];

        public bool Disposed { get; private set; }

        public string Name => "scripted";

        public void Execute(string sql)
        {
            Executed.Add(sql);
            if (Failing.Contains(sql)) throw new InvalidOperationException("no such table: nope\nsecond line");
        }

        public IReadOnlyList<object?[]> Query(string sql)
        {
            Executed.Add(sql);
            if (Failing.Contains(sql)) throw new InvalidOperationException("integer overflow");
            return Results.TryGetValue(sql, out var rows) ? rows : [];
        }

        public void Dispose() => Disposed = true;
    }

    private readonly ScriptedEngine _engine = new();

    private SltFileResult Run(string text, int maxFailures = int.MaxValue)
        => new SltRunner(() => _engine).Run("t.test", text, maxFailures);

    [Fact]
    public void Statements_pass_when_they_succeed_or_fail_as_the_file_says()
    {
        _engine.Failing.Add("BAD");

        var result = Run("statement ok\nGOOD\n\nstatement error\nBAD\n\nstatement ok\nBAD\n\nstatement error\nGOOD\n");

        result.Passed.Should().Be(2);
        result.Failed.Should().Be(2);
        result.QueriesPassed.Should().Be(0);
        result.Failures[0].Line.Should().Be(7);
        result.Failures[0].Message.Should().Be("statement failed: no such table: nope second line");
        result.Failures[0].Sql.Should().Be("BAD");
        result.Failures[1].Line.Should().Be(10);
        result.Failures[1].Message.Should().Be("statement succeeded, but the file expects an error");
        _engine.Disposed.Should().BeTrue();
    }

    [Fact]
    public void A_query_passes_when_its_rendered_values_match()
    {
        _engine.Results["SELECT a, b FROM t"] = [[2L, 1.5], [1L, "x"]];

        var result = Run("query IR rowsort\nSELECT a, b FROM t\n----\n1\n0.000\n2\n1.500\n");

        result.Failed.Should().Be(0);
        result.Passed.Should().Be(1);
        result.QueriesPassed.Should().Be(1);
    }

    [Fact]
    public void A_mismatch_reports_line_sql_expected_and_actual()
    {
        _engine.Results["SELECT a FROM t"] = [[1L], [3L]];

        var result = Run("\n\nquery I nosort\nSELECT a FROM t\n----\n1\n2\n");

        var f = result.Failures.Should().ContainSingle().Subject;
        f.File.Should().Be("t.test");
        f.Line.Should().Be(3);
        f.Sql.Should().Be("SELECT a FROM t");
        f.Message.Should().Be("query result differs");
        f.Expected.Should().Equal("1", "2");
        f.Actual.Should().Equal("1", "3");
    }

    [Fact]
    public void A_failing_query_is_an_empty_result()
    {
        _engine.Failing.Add("SELECT sum(x) FROM t");

        var result = Run("query R nosort\nSELECT sum(x) FROM t\n----\n\nquery I nosort\nSELECT sum(x) FROM t\n----\n1\n");

        result.Passed.Should().Be(1);
        var f = result.Failures.Should().ContainSingle().Subject;
        f.Message.Should().Be("query failed (integer overflow), which counts as an empty result");
        f.Actual.Should().Equal("(no values)");
    }

    [Fact]
    public void More_values_than_the_threshold_compare_by_hash_and_failures_show_both_forms()
    {
        _engine.Results["Q"] = Enumerable.Range(1, 9).Select(i => new object?[] { (long)i }).ToArray();
        string hash = SltResult.Md5(Enumerable.Range(1, 9).Select(i => i.ToString()).ToList());

        var result = Run($"query I nosort\nQ\n----\n9 values hashing to {hash}\n\nquery I nosort\nQ\n----\n9 values hashing to {new string('0', 32)}\n");

        result.Passed.Should().Be(1);
        var f = result.Failures.Should().ContainSingle().Subject;
        f.Expected.Should().Equal($"9 values hashing to {new string('0', 32)}");
        f.Actual[0].Should().Be($"9 values hashing to {hash}");
        f.Actual.Skip(1).Should().Equal("1", "2", "3", "4", "5", "6", "7", "8", "9");
    }

    [Fact]
    public void A_failure_keeps_only_the_first_lines_of_a_long_result()
    {
        _engine.Results["Q"] = Enumerable.Range(1, 25).Select(i => new object?[] { (long)i }).ToArray();

        var result = Run("hash-threshold 0\n\nquery I nosort\nQ\n----\n1\n");

        var f = result.Failures.Should().ContainSingle().Subject;
        f.Actual.Should().HaveCount(11);
        f.Actual[^1].Should().Be("… (15 more)");
    }

    [Fact]
    public void A_listed_result_matches_even_past_the_threshold_and_a_hash_even_below_it()
    {
        // Both forms state the same values; which one a file uses is the generator's choice, not the engine's.
        _engine.Results["Q"] = Enumerable.Range(1, 9).Select(i => new object?[] { (long)i }).ToArray();
        _engine.Results["ONE"] = [[1L]];

        var result = Run(
            "query I nosort\nQ\n----\n1\n2\n3\n4\n5\n6\n7\n8\n9\n\n" +
            "query I nosort\nONE\n----\n1 values hashing to b026324c6904b2a9cb4b88d6d61c81d1\n");

        result.Failed.Should().Be(0);
        result.Passed.Should().Be(2);
    }

    [Fact]
    public void Queries_sharing_a_label_must_produce_the_same_hash()
    {
        _engine.Results["A"] = [[1L], [2L]];
        _engine.Results["B"] = [[2L], [1L]];
        _engine.Results["C"] = [[3L]];

        // C's own expected result is right, yet it disagrees with label-1's first query.
        var result = Run(
            "query I rowsort label-1\nA\n----\n1\n2\n\n" +
            "query I rowsort label-1\nB\n----\n1\n2\n\n" +
            "query I rowsort label-1\nC\n----\n3\n\n" +
            "query I rowsort label-2\nC\n----\n3\n");

        result.Passed.Should().Be(3);
        var f = result.Failures.Should().ContainSingle().Subject;
        f.Line.Should().Be(13);
        f.Message.Should().Be("result differs from that of the first query labelled label-1 (line 1)");
    }

    [Fact]
    public void Skipif_and_onlyif_are_matched_against_sqlite_whatever_the_engine()
    {
        var result = Run(
            "skipif sqlite\nstatement ok\nA\n\n" +
            "onlyif mysql\nstatement ok\nB\n\n" +
            "onlyif sqlite\nstatement ok\nC\n\n" +
            "skipif mysql\nstatement ok\nD\n");

        result.Skipped.Should().Be(2);
        result.Passed.Should().Be(2);
        _engine.Executed.Should().Equal("C", "D");
    }

    [Fact]
    public void Halt_ends_the_file_unless_its_condition_excludes_sqlite()
    {
        var result = Run("statement ok\nA\n\nonlyif mssql\nhalt\n\nstatement ok\nB\n\nhalt\n\nstatement ok\nC\n");

        _engine.Executed.Should().Equal("A", "B");
        result.Passed.Should().Be(2);
        result.Skipped.Should().Be(0);
    }

    [Fact]
    public void Malformed_records_count_as_failures_and_the_run_goes_on()
    {
        var result = Run("frobnicate\n\nstatement ok\nA\n");

        result.Passed.Should().Be(1);
        var f = result.Failures.Should().ContainSingle().Subject;
        f.Line.Should().Be(1);
        f.Message.Should().Be("unrecognised record: frobnicate");
    }

    [Fact]
    public void A_row_with_the_wrong_number_of_columns_fails_the_query()
    {
        _engine.Results["Q"] = [[1L, 2L]];

        var result = Run("query I nosort\nQ\n----\n1\n");

        result.Failures.Should().ContainSingle().Which.Message
            .Should().Be("query returned 2 columns, but its types 'I' declare 1");
    }

    [Fact]
    public void The_run_stops_at_the_failure_limit()
    {
        _engine.Failing.Add("X");

        var result = Run("statement ok\nX\n\nstatement ok\nX\n\nstatement ok\nX\n", maxFailures: 2);

        result.Failed.Should().Be(2);
        result.Stopped.Should().BeTrue();
        _engine.Executed.Should().HaveCount(2);
    }

    [Fact]
    public void Each_file_gets_a_fresh_engine()
    {
        int made = 0;
        var runner = new SltRunner(() =>
        {
            made++;
            return new ScriptedEngine();
        });

        runner.Run("a.test", "statement ok\nA\n");
        runner.Run("b.test", "statement ok\nB\n");

        made.Should().Be(2);
    }
}
