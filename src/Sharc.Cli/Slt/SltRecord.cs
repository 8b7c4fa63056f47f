namespace Sharc.Cli.Slt;

/// <summary>How a query's values are ordered before they are compared.</summary>
internal enum SltSortMode
{
    /// <summary>As the engine returned them: the query has an ORDER BY, or one row.</summary>
    NoSort,

    /// <summary>Rows sorted by their rendered values, column by column.</summary>
    RowSort,

    /// <summary>Every value sorted on its own, ignoring rows.</summary>
    ValueSort,
}

/// <summary>A <c>skipif &lt;engine&gt;</c> or <c>onlyif &lt;engine&gt;</c> line in front of a record.</summary>
internal readonly record struct SltCondition(bool OnlyIf, string Engine);

/// <summary>One record of a test file; <see cref="Line"/> is the 1-based line of its keyword, for reports.</summary>
internal abstract record SltRecord(int Line, IReadOnlyList<SltCondition> Conditions)
{
    /// <summary>True when the record's skipif/onlyif lines let it run on <paramref name="engine"/>.</summary>
    public bool AppliesTo(string engine)
    {
        foreach (var c in Conditions)
        {
            bool same = string.Equals(c.Engine, engine, StringComparison.OrdinalIgnoreCase);
            if (c.OnlyIf != same) return false;
        }
        return true;
    }
}

/// <summary><c>statement ok</c> or <c>statement error</c>, and its SQL.</summary>
internal sealed record SltStatement(int Line, IReadOnlyList<SltCondition> Conditions, bool ExpectError, string Sql)
    : SltRecord(Line, Conditions);

/// <summary><c>query &lt;types&gt; [sort] [label]</c>, its SQL and the expected result.</summary>
internal sealed record SltQuery(
    int Line,
    IReadOnlyList<SltCondition> Conditions,
    string Types,
    SltSortMode Sort,
    string? Label,
    string Sql,
    SltExpected Expected)
    : SltRecord(Line, Conditions);

/// <summary><c>hash-threshold N</c>: results with more than N values are given as a hash (0: never).</summary>
internal sealed record SltHashThreshold(int Line, IReadOnlyList<SltCondition> Conditions, int Threshold)
    : SltRecord(Line, Conditions);

/// <summary><c>halt</c>: the rest of the file is not run.</summary>
internal sealed record SltHalt(int Line, IReadOnlyList<SltCondition> Conditions) : SltRecord(Line, Conditions);

/// <summary>A record the parser could not make sense of; the runner reports it as a failure and goes on.</summary>
internal sealed record SltMalformed(int Line, string Message, string Text) : SltRecord(Line, []);

/// <summary>What a query should produce: either the values, one per line, or their count and MD5.</summary>
internal sealed class SltExpected
{
    private SltExpected(IReadOnlyList<string> values, int count, string? hash)
    {
        Values = values;
        Count = count;
        Hash = hash;
    }

    /// <summary>The values listed in the file; empty when the result is given as a hash.</summary>
    public IReadOnlyList<string> Values { get; }

    /// <summary>How many values the query should produce.</summary>
    public int Count { get; }

    /// <summary>The lowercase hex MD5 of the values, or null when they are listed.</summary>
    public string? Hash { get; }

    /// <summary>The expected result as the file writes it.</summary>
    public IReadOnlyList<string> Lines => Hash is null ? Values : [SltResult.HashLine(Count, Hash)];

    /// <summary>An expected result listed value by value.</summary>
    public static SltExpected Listed(IReadOnlyList<string> values) => new(values, values.Count, null);

    /// <summary>An expected result given as <c>N values hashing to H</c>.</summary>
    public static SltExpected Hashed(int count, string hash) => new([], count, hash);
}
