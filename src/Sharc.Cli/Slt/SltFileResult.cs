namespace Sharc.Cli.Slt;

/// <summary>What running one sqllogictest file produced.</summary>
public sealed class SltFileResult
{
    internal SltFileResult(string file, int passed, int failed, int skipped, int queriesPassed, bool stopped, IReadOnlyList<SltFailure> failures)
    {
        File = file;
        Passed = passed;
        Failed = failed;
        Skipped = skipped;
        QueriesPassed = queriesPassed;
        Stopped = stopped;
        Failures = failures;
    }

    /// <summary>The file's name as the caller gave it.</summary>
    public string File { get; }

    /// <summary>Statements and queries that behaved as the file says.</summary>
    public int Passed { get; }

    /// <summary>Statements and queries that did not, plus records that could not be read.</summary>
    public int Failed { get; }

    /// <summary>Statements and queries not run because of their skipif/onlyif lines.</summary>
    public int Skipped { get; }

    /// <summary>How many of <see cref="Passed"/> are queries (the rest are statements).</summary>
    public int QueriesPassed { get; }

    /// <summary>True when the run stopped early because the failure limit was reached.</summary>
    public bool Stopped { get; }

    /// <summary>Each failure, in file order.</summary>
    public IReadOnlyList<SltFailure> Failures { get; }
}

/// <summary>One statement or query that did not behave as its test file says.</summary>
public sealed class SltFailure
{
    internal SltFailure(string file, int line, string sql, string message, IReadOnlyList<string> expected, IReadOnlyList<string> actual)
    {
        File = file;
        Line = line;
        Sql = sql;
        Message = message;
        Expected = expected;
        Actual = actual;
    }

    /// <summary>The test file.</summary>
    public string File { get; }

    /// <summary>The 1-based line of the record's keyword (<c>statement</c> or <c>query</c>).</summary>
    public int Line { get; }

    /// <summary>The record's SQL (empty for a record that could not be read).</summary>
    public string Sql { get; }

    /// <summary>What went wrong, in one line.</summary>
    public string Message { get; }

    /// <summary>The first lines of the expected result (empty for statements).</summary>
    public IReadOnlyList<string> Expected { get; }

    /// <summary>The first lines of the actual result (empty for statements).</summary>
    public IReadOnlyList<string> Actual { get; }
}
