using System.Collections;
using System.Data.Common;

namespace Sharc.Data;

/// <summary>The parameters of a <see cref="SharcCommand"/>.</summary>
public sealed class SharcParameterCollection : DbParameterCollection
{
    private readonly List<SharcParameter> _items = [];

    internal SharcParameterCollection() { }

    /// <inheritdoc/>
    public override int Count => _items.Count;

    /// <inheritdoc/>
    public override object SyncRoot => ((ICollection)_items).SyncRoot;

    /// <summary>The parameter at <paramref name="index"/>.</summary>
    public new SharcParameter this[int index]
    {
        get => _items[index];
        set => _items[index] = value;
    }

    /// <summary>Adds a parameter with a name and value and returns it.</summary>
    public SharcParameter AddWithValue(string? parameterName, object? value)
    {
        var p = new SharcParameter(parameterName, value);
        _items.Add(p);
        return p;
    }

    /// <summary>Adds <paramref name="value"/> and returns it.</summary>
    public SharcParameter Add(SharcParameter value)
    {
        _items.Add(value);
        return value;
    }

    /// <inheritdoc/>
    public override int Add(object value)
    {
        _items.Add(Cast(value));
        return _items.Count - 1;
    }

    /// <inheritdoc/>
    public override void AddRange(Array values)
    {
        foreach (var v in values) Add(v);
    }

    /// <inheritdoc/>
    public override void Clear() => _items.Clear();

    /// <inheritdoc/>
    public override bool Contains(object value) => value is SharcParameter p && _items.Contains(p);

    /// <inheritdoc/>
    public override bool Contains(string value) => IndexOf(value) >= 0;

    /// <inheritdoc/>
    public override void CopyTo(Array array, int index) => ((ICollection)_items).CopyTo(array, index);

    /// <inheritdoc/>
    public override IEnumerator GetEnumerator() => _items.GetEnumerator();

    /// <inheritdoc/>
    public override int IndexOf(object value) => value is SharcParameter p ? _items.IndexOf(p) : -1;

    /// <summary>The index of the parameter named <paramref name="parameterName"/> (exactly, or ignoring the prefix of either), or -1.</summary>
    public override int IndexOf(string parameterName)
    {
        for (int i = 0; i < _items.Count; i++)
            if (_items[i].ParameterName == parameterName) return i;
        var bare = Bare(parameterName);
        for (int i = 0; i < _items.Count; i++)
            if (Bare(_items[i].ParameterName).SequenceEqual(bare)) return i;
        return -1;
    }

    /// <inheritdoc/>
    public override void Insert(int index, object value) => _items.Insert(index, Cast(value));

    /// <inheritdoc/>
    public override void Remove(object value) => _items.Remove(Cast(value));

    /// <inheritdoc/>
    public override void RemoveAt(int index) => _items.RemoveAt(index);

    /// <inheritdoc/>
    public override void RemoveAt(string parameterName)
    {
        int i = IndexOf(parameterName);
        if (i < 0) throw new IndexOutOfRangeException($"No parameter named {parameterName}.");
        _items.RemoveAt(i);
    }

    /// <inheritdoc/>
    protected override DbParameter GetParameter(int index) => _items[index];

    /// <inheritdoc/>
    protected override DbParameter GetParameter(string parameterName)
    {
        int i = IndexOf(parameterName);
        return i >= 0 ? _items[i] : throw new IndexOutOfRangeException($"No parameter named {parameterName}.");
    }

    /// <inheritdoc/>
    protected override void SetParameter(int index, DbParameter value) => _items[index] = Cast(value);

    /// <inheritdoc/>
    protected override void SetParameter(string parameterName, DbParameter value)
    {
        int i = IndexOf(parameterName);
        if (i < 0) _items.Add(Cast(value));
        else _items[i] = Cast(value);
    }

    /// <summary>
    /// The values of a statement's slots: each named slot takes the parameter of that name (with or without its
    /// prefix, so Dapper's bare names reach "@a", "$a" and ":a"); bare "?" slots take the unnamed parameters in order.
    /// </summary>
    internal object?[] ValuesFor(PreparedQuery statement)
    {
        var values = new object?[statement.ParameterCount];
        List<string>? missing = null;
        int positional = 0;
        for (int slot = 1; slot <= values.Length; slot++)
        {
            string? name = statement.GetParameterName(slot);
            int index = name is null ? NextUnnamed(ref positional) : IndexOf(name);
            if (index < 0)
            {
                (missing ??= []).Add(name ?? "?" + slot);
                continue;
            }
            values[slot - 1] = _items[index].BindValue();
        }
        if (missing is not null)
            throw new InvalidOperationException("Must add values for the following parameters: " + string.Join(", ", missing));
        return values;
    }

    private int NextUnnamed(ref int from)
    {
        while (from < _items.Count)
        {
            int i = from++;
            if (_items[i].ParameterName.Length == 0) return i;
        }
        return -1;
    }

    private static ReadOnlySpan<char> Bare(string name)
        => name.Length > 0 && name[0] is '@' or '$' or ':' or '?' ? name.AsSpan(1) : name.AsSpan();

    private static SharcParameter Cast(object value)
        => value as SharcParameter ?? throw new InvalidCastException($"SharcParameterCollection holds SharcParameter objects, not {value?.GetType().Name ?? "null"}.");
}
