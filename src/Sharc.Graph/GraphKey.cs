using System.Globalization;

namespace Sharc.Graph;

/// <summary>
/// A node key as the graph writer takes it: a 64-bit integer or a string, converted implicitly from either, so one
/// method serves INTEGER- and TEXT-keyed graphs. A key of the other type than the graph's raises
/// <see cref="GraphKeyTypeException"/> when used.
/// </summary>
public readonly struct GraphKey : IEquatable<GraphKey>
{
    private readonly long _integer;
    private readonly string? _text;

    /// <summary>An integer key.</summary>
    public GraphKey(long key) => _integer = key;

    /// <summary>A text key (stored as its UTF-8 bytes).</summary>
    public GraphKey(string key) => _text = key ?? throw new ArgumentNullException(nameof(key));

    /// <summary>The key's type.</summary>
    public GraphKeyType Type => _text is null ? GraphKeyType.Integer : GraphKeyType.Text;

    /// <summary>The integer key (0 for a text key).</summary>
    public long Int64 => _integer;

    /// <summary>The text key, or null for an integer key.</summary>
    public string? Text => _text;

    /// <summary>An integer key.</summary>
    public static implicit operator GraphKey(long key) => new(key);

    /// <summary>A text key.</summary>
    public static implicit operator GraphKey(string key) => new(key);

    /// <inheritdoc/>
    public bool Equals(GraphKey other) => _integer == other._integer && string.Equals(_text, other._text, StringComparison.Ordinal);

    /// <inheritdoc/>
    public override bool Equals(object? obj) => obj is GraphKey k && Equals(k);

    /// <inheritdoc/>
    public override int GetHashCode() => _text is null ? _integer.GetHashCode() : StringComparer.Ordinal.GetHashCode(_text);

    /// <summary>True when both keys have the same type and value.</summary>
    public static bool operator ==(GraphKey a, GraphKey b) => a.Equals(b);

    /// <summary>True unless both keys have the same type and value.</summary>
    public static bool operator !=(GraphKey a, GraphKey b) => !a.Equals(b);

    /// <summary>The key as written in SQL: the integer, or the text in single quotes.</summary>
    public override string ToString() => _text is null ? _integer.ToString(CultureInfo.InvariantCulture) : "'" + _text.Replace("'", "''") + "'";
}

/// <summary>A node for <see cref="GraphWriter.BulkLoad"/>.</summary>
/// <param name="Key">The node's key.</param>
/// <param name="Kind">Its kind (NULL when null); needs a mapped node kind column unless null.</param>
/// <param name="Data">Its data payload (NULL when null); needs a mapped node data column unless null.</param>
public readonly record struct GraphNodeRecord(GraphKey Key, string? Kind = null, string? Data = null);

/// <summary>An edge for <see cref="GraphWriter.BulkLoad"/>.</summary>
/// <param name="Source">The source node's key.</param>
/// <param name="Target">The target node's key.</param>
/// <param name="Kind">Its kind (NULL when null); needs a mapped edge kind column unless null.</param>
/// <param name="Weight">Its weight; needs a mapped edge weight column unless 1.0.</param>
/// <param name="Data">Its data payload (NULL when null); needs a mapped edge data column unless null.</param>
public readonly record struct GraphEdgeRecord(GraphKey Source, GraphKey Target, string? Kind = null, double Weight = 1.0, string? Data = null);

/// <summary>What <see cref="GraphWriter.BulkLoad"/> wrote.</summary>
/// <param name="Nodes">Node rows inserted.</param>
/// <param name="Edges">Edge rows inserted.</param>
public readonly record struct GraphBulkLoadResult(int Nodes, int Edges);

/// <summary>A node was added with a key that another node already has.</summary>
public sealed class GraphDuplicateNodeException : GraphException
{
    /// <summary>Creates the exception.</summary>
    public GraphDuplicateNodeException(string table, GraphKey key)
        : base($"a node with key {key} already exists in {table}: use UpsertNode to replace it")
    {
        Key = key;
    }

    /// <summary>The duplicate key.</summary>
    public GraphKey Key { get; }
}
