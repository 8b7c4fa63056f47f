using Sharc.Sql.Values;

namespace Sharc.Sql.Execution.RecordFilters;

/// <summary>
/// What a test on a stored record can tell: SQL's three truth values, or <see cref="Unknown"/> when the bytes alone
/// cannot settle it (an overflowing record, a column the record does not store, a conversion the byte path leaves to
/// the general evaluator). Unknown never rejects a row: the full WHERE decides then.
/// </summary>
internal enum RecordTruth : byte
{
    False,
    True,
    Null,
    Unknown,
}

/// <summary>
/// One node of a predicate evaluated on record bytes (serial types and bodies) rather than on decoded values. Its
/// constants are evaluated once per run by <see cref="Bind"/>; <see cref="Test"/> then runs per row without
/// allocating. A test answers exactly as the SQL evaluator would, or <see cref="RecordTruth.Unknown"/>.
/// </summary>
internal abstract class RecordTest
{
    /// <summary>Evaluates the constants of the test for a new run (parameters may have changed).</summary>
    public abstract void Bind(ExecContext ctx, ValueArena arena);

    /// <summary>The truth of the test for one record (<paramref name="rowId"/> is the row's key, for a rowid alias).</summary>
    public abstract RecordTruth Test(ReadOnlySpan<byte> record, long rowId);
}

/// <summary>
/// AND (or OR) of several tests: SQL's three-valued logic extended by Unknown. False settles an AND (True an OR);
/// otherwise Unknown outranks NULL, which outranks the neutral value, so a later settling term still decides the row.
/// </summary>
internal sealed class LogicTest(bool and, RecordTest[] terms) : RecordTest
{
    private readonly RecordTruth _settles = and ? RecordTruth.False : RecordTruth.True;

    public bool IsAnd => and;

    public RecordTest[] Terms => terms;

    public override void Bind(ExecContext ctx, ValueArena arena)
    {
        foreach (var t in terms) t.Bind(ctx, arena);
    }

    public override RecordTruth Test(ReadOnlySpan<byte> record, long rowId)
    {
        var result = and ? RecordTruth.True : RecordTruth.False;
        foreach (var t in terms)
        {
            var r = t.Test(record, rowId);
            if (r == _settles) return r;
            if (r > result) result = r;
        }
        return result;
    }
}

/// <summary>NOT: swaps True and False; NULL and Unknown stay.</summary>
internal sealed class NotTest(RecordTest operand) : RecordTest
{
    public override void Bind(ExecContext ctx, ValueArena arena) => operand.Bind(ctx, arena);

    public override RecordTruth Test(ReadOnlySpan<byte> record, long rowId) => operand.Test(record, rowId) switch
    {
        RecordTruth.True => RecordTruth.False,
        RecordTruth.False => RecordTruth.True,
        var other => other,
    };
}

/// <summary>A part of the predicate the byte path does not evaluate: always Unknown.</summary>
internal sealed class OpaqueTest : RecordTest
{
    public static readonly OpaqueTest Instance = new();

    public override void Bind(ExecContext ctx, ValueArena arena)
    {
    }

    public override RecordTruth Test(ReadOnlySpan<byte> record, long rowId) => RecordTruth.Unknown;
}
