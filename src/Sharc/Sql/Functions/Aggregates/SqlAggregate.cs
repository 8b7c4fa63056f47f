using System.Diagnostics.CodeAnalysis;
using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Sql.Functions.Aggregates;

/// <summary>
/// The running state of one aggregate over one group: <see cref="Step"/> once per row, <see cref="Finish"/> once at
/// the end (it may throw, e.g. sum's "integer overflow"), <see cref="Reset"/> to reuse the object for the next
/// group. Arguments may be borrowed values: an accumulator copies whatever it keeps past the call.
/// </summary>
internal abstract class SqlAggregate
{
    /// <summary>Adds one row's arguments.</summary>
    public abstract void Step(ReadOnlySpan<SqlValue> args);

    /// <summary>The aggregate's value for the rows stepped so far (what SQLite returns for an empty group too).</summary>
    public abstract SqlValue Finish();

    /// <summary>Forgets every row, as for a new group.</summary>
    public abstract void Reset();
}

/// <summary>An aggregate that can remove a row it stepped, so a window frame can slide without summing afresh.</summary>
internal interface IInverseStep
{
    /// <summary>Removes one row's arguments: the earliest row still stepped.</summary>
    void Inverse(ReadOnlySpan<SqlValue> args);
}

/// <summary>
/// An aggregate over the distinct non-NULL values of its one argument (<c>count(DISTINCT x)</c>, <c>sum(DISTINCT x)</c>
/// …). Distinctness is SQLite's: values equal under comparison with the argument's collation (1 and 1.0 are one
/// value); the hash set only narrows the search.
/// </summary>
internal sealed class DistinctAggregate : SqlAggregate
{
    private readonly SqlAggregate _inner;
    private readonly HashSet<SqlValue> _seen;

    /// <summary>Feeds <paramref name="inner"/> each distinct value once.</summary>
    public DistinctAggregate(SqlAggregate inner, Collation collation)
    {
        _inner = inner;
        _seen = new HashSet<SqlValue>(SqlValueComparer.For(collation));
    }

    /// <inheritdoc/>
    public override void Step(ReadOnlySpan<SqlValue> args)
    {
        if (args[0].IsNull || _seen.Contains(args[0])) return;
        var owned = args[0].ToOwned();
        _seen.Add(owned);
        _inner.Step([owned]);
    }

    /// <inheritdoc/>
    public override SqlValue Finish() => _inner.Finish();

    /// <inheritdoc/>
    public override void Reset()
    {
        _seen.Clear();
        _inner.Reset();
    }
}

/// <summary>The built-in aggregate functions, by name (case-insensitive).</summary>
internal static class AggregateFunctions
{
    private static readonly Dictionary<string, (int Min, int Max)> Arity = new(StringComparer.OrdinalIgnoreCase)
    {
        ["avg"] = (1, 1),
        ["count"] = (0, 1),
        ["group_concat"] = (1, 2),
        ["max"] = (1, 1),
        ["min"] = (1, 1),
        ["string_agg"] = (2, 2),
        ["sum"] = (1, 1),
        ["total"] = (1, 1),
        ["ef_avg"] = (1, 1),
        ["ef_max"] = (1, 1),
        ["ef_min"] = (1, 1),
        ["ef_sum"] = (1, 1),
        ["json_group_array"] = (1, 1),
        ["jsonb_group_array"] = (1, 1),
        ["json_group_object"] = (2, 2),
        ["jsonb_group_object"] = (2, 2),
    };

    /// <summary>True when <paramref name="name"/> with <paramref name="argCount"/> arguments is an aggregate call (min and max only with one).</summary>
    public static bool IsAggregate(string name, int argCount)
        => Arity.TryGetValue(name, out var a) && argCount >= a.Min && argCount <= a.Max;

    /// <summary>True when an aggregate of that name exists (with any argument count).</summary>
    public static bool Exists(string name) => Arity.ContainsKey(name);

    /// <summary>Each aggregate's name and accepted argument counts, for PRAGMA function_list.</summary>
    public static IEnumerable<(string Name, int Min, int Max)> Signatures() => Arity.Select(a => (a.Key, a.Value.Min, a.Value.Max));

    /// <summary>
    /// A new accumulator, or false when no aggregate takes that name and argument count. <c>count(*)</c> is
    /// count with no arguments. <paramref name="collation"/> is the argument's (for min, max and DISTINCT).
    /// </summary>
    public static bool TryCreate(string name, int argCount, bool distinct, Collation collation, [NotNullWhen(true)] out SqlAggregate? aggregate)
    {
        aggregate = null;
        if (!IsAggregate(name, argCount) || (distinct && argCount != 1)) return false;
        aggregate = Create(name, argCount, distinct, collation);
        return true;
    }

    /// <summary>
    /// A new accumulator, or SQLite's error: "wrong number of arguments to function X()", or "DISTINCT aggregates
    /// must have exactly one argument".
    /// </summary>
    public static SqlAggregate Create(string name, int argCount, bool distinct = false, Collation collation = Collation.Binary)
    {
        if (!Arity.TryGetValue(name, out var arity)) SqlErrors.NoSuchFunction(name);
        if (argCount < arity.Min || argCount > arity.Max) SqlErrors.WrongArgumentCount(name);
        if (distinct && argCount != 1) SqlErrors.Throw("DISTINCT aggregates must have exactly one argument");
        SqlAggregate a = name.ToLowerInvariant() switch
        {
            "avg" => new SumAggregate(SumAggregate.Kind.Avg),
            "count" => new CountAggregate(countRows: argCount == 0),
            "group_concat" or "string_agg" => new GroupConcatAggregate(),
            "max" => new MinMaxAggregate(max: true, collation),
            "min" => new MinMaxAggregate(max: false, collation),
            "sum" => new SumAggregate(SumAggregate.Kind.Sum),
            "total" => new SumAggregate(SumAggregate.Kind.Total),
            var other => Json.JsonAggregates.Create(other) ?? EfCoreFunctions.Aggregate(other)!,
        };
        return distinct ? new DistinctAggregate(a, collation) : a;
    }
}
