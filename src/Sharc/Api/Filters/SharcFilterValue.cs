namespace Sharc;

/// <summary>
/// A value a <see cref="SharcFilter"/> compares with: an integer, a real, text, a blob, NULL, or a named parameter
/// (<see cref="SharcFilter.Parameter"/>) bound on the prepared reader before each run. Converts implicitly from
/// <see cref="long"/>, <see cref="int"/>, <see cref="double"/>, <see cref="bool"/>, <see cref="string"/> and byte arrays
/// (a null string or array is NULL).
/// </summary>
public readonly struct SharcFilterValue
{
    private SharcFilterValue(object? value, string? parameter)
    {
        Value = value;
        ParameterName = parameter;
    }

    /// <summary>The constant (null for NULL or a parameter): a long, double, string or byte array.</summary>
    internal object? Value { get; }

    /// <summary>The parameter's name, or null for a constant.</summary>
    public string? ParameterName { get; }

    /// <summary>True for a named parameter.</summary>
    public bool IsParameter => ParameterName is not null;

    /// <summary>SQL NULL (which no comparison matches).</summary>
    public static SharcFilterValue Null => default;

    internal static SharcFilterValue Parameter(string name) => new(null, name);

    /// <summary>An integer.</summary>
    public static implicit operator SharcFilterValue(long value) => new(value, null);

    /// <summary>An integer.</summary>
    public static implicit operator SharcFilterValue(int value) => new((long)value, null);

    /// <summary>A real (NaN is NULL, as SQLite binds it).</summary>
    public static implicit operator SharcFilterValue(double value) => new(double.IsNaN(value) ? null : value, null);

    /// <summary>1 or 0, as SQLite stores booleans.</summary>
    public static implicit operator SharcFilterValue(bool value) => new(value ? 1L : 0L, null);

    /// <summary>Text (null is NULL).</summary>
    public static implicit operator SharcFilterValue(string? value) => new(value, null);

    /// <summary>A blob (null is NULL).</summary>
    public static implicit operator SharcFilterValue(byte[]? value) => new(value, null);

    /// <summary>The value as SQL shows it, for messages and debugging.</summary>
    public override string ToString() => ParameterName is { } p ? "$" + p : Value switch
    {
        null => "NULL",
        string s => "'" + s.Replace("'", "''", StringComparison.Ordinal) + "'",
        byte[] b => "x'" + Convert.ToHexString(b) + "'",
        IFormattable f => f.ToString(null, System.Globalization.CultureInfo.InvariantCulture),
        var o => o.ToString() ?? "",
    };
}
