using Sharc.Sql.Functions.Aggregates;
using Sharc.Sql.Values;

namespace Sharc.Sql.Functions.Json;

/// <summary>
/// json_group_array(X) / jsonb_group_array(X): the values of a group as one array, JSON values embedded. As a
/// window function the frame is re-stepped for each row, so no inverse is needed.
/// </summary>
internal sealed class JsonGroupArrayAggregate(bool jsonb) : SqlAggregate
{
    private readonly JsonBuffer _items = new();

    /// <inheritdoc/>
    public override void Step(ReadOnlySpan<SqlValue> args) => JsonValues.AppendValue(args[0], _items);

    /// <inheritdoc/>
    public override SqlValue Finish() => JsonAggregates.Wrap(Jsonb.Array, _items, jsonb);

    /// <inheritdoc/>
    public override void Reset() => _items.Truncate(0);
}

/// <summary>
/// json_group_object(K, V) / jsonb_group_object(K, V): one member per row; rows whose label is NULL are skipped,
/// as in SQLite, and other labels are read as text.
/// </summary>
internal sealed class JsonGroupObjectAggregate(bool jsonb) : SqlAggregate
{
    private readonly JsonBuffer _members = new();

    /// <inheritdoc/>
    public override void Step(ReadOnlySpan<SqlValue> args)
    {
        if (args[0].IsNull) return;
        JsonValues.AppendString(args[0].ToTextValue().Bytes, _members);
        JsonValues.AppendValue(args[1], _members);
    }

    /// <inheritdoc/>
    public override SqlValue Finish() => JsonAggregates.Wrap(Jsonb.Object, _members, jsonb);

    /// <inheritdoc/>
    public override void Reset() => _members.Truncate(0);
}

/// <summary>The JSON aggregates, by name.</summary>
internal static class JsonAggregates
{
    /// <summary>The JSON aggregate named <paramref name="name"/>, or null.</summary>
    public static SqlAggregate? Create(string name) => name.ToLowerInvariant() switch
    {
        "json_group_array" => new JsonGroupArrayAggregate(jsonb: false),
        "jsonb_group_array" => new JsonGroupArrayAggregate(jsonb: true),
        "json_group_object" => new JsonGroupObjectAggregate(jsonb: false),
        "jsonb_group_object" => new JsonGroupObjectAggregate(jsonb: true),
        _ => null,
    };

    internal static SqlValue Wrap(int type, JsonBuffer content, bool jsonb)
    {
        var b = new JsonBuffer(content.Length + 5);
        int c = b.BeginContainer(type);
        b.Append(content.Written);
        b.EndContainer(c, type);
        return JsonValues.Result(b.Written, jsonb);
    }
}
