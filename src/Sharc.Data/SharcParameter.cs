using System.Data;
using System.Data.Common;
using System.Diagnostics.CodeAnalysis;

namespace Sharc.Data;

/// <summary>
/// A command parameter. Its <see cref="Value"/> is stored as Microsoft.Data.Sqlite stores it (numbers, bool and
/// enums as INTEGER or REAL; strings, char, decimal, Guid and dates and times as TEXT; byte arrays as BLOB;
/// <see cref="DBNull"/> as NULL). The name may carry its prefix ("@id", "$id", ":id") or not ("id").
/// </summary>
public sealed class SharcParameter : DbParameter
{
    private string _name = "";
    private string _sourceColumn = "";

    /// <summary>A parameter without a name or value.</summary>
    public SharcParameter() { }

    /// <summary>A parameter with a name and a value.</summary>
    public SharcParameter(string? name, object? value)
    {
        ParameterName = name;
        Value = value;
    }

    /// <summary>
    /// Informational only: the value's own type decides how it is stored, as in Microsoft.Data.Sqlite (inferred from
    /// the value when not set).
    /// </summary>
    public override DbType DbType { get; set; } = DbType.String;

    /// <summary>Only <see cref="ParameterDirection.Input"/> is supported.</summary>
    public override ParameterDirection Direction
    {
        get => ParameterDirection.Input;
        set
        {
            if (value != ParameterDirection.Input) throw new ArgumentException($"Sharc only supports input parameters, not {value}.", nameof(value));
        }
    }

    /// <inheritdoc/>
    public override bool IsNullable { get; set; }

    /// <inheritdoc/>
    [AllowNull]
    public override string ParameterName
    {
        get => _name;
        set => _name = value ?? "";
    }

    /// <summary>When positive, strings and byte arrays are cut to this many characters or bytes, as Microsoft.Data.Sqlite does.</summary>
    public override int Size { get; set; }

    /// <inheritdoc/>
    [AllowNull]
    public override string SourceColumn
    {
        get => _sourceColumn;
        set => _sourceColumn = value ?? "";
    }

    /// <inheritdoc/>
    public override bool SourceColumnNullMapping { get; set; }

    /// <summary>The value: <see cref="DBNull.Value"/> for NULL (a null reference is an error when the command runs, as in Microsoft.Data.Sqlite).</summary>
    public override object? Value { get; set; }

    /// <inheritdoc/>
    public override void ResetDbType() => DbType = DbType.String;

    /// <summary>The value as the engine binds it, with the checks Microsoft.Data.Sqlite makes.</summary>
    internal object? BindValue()
    {
        var v = Value;
        if (v is null) throw new InvalidOperationException($"Value must be set (parameter {ParameterName}): use DBNull.Value for NULL.");
        if (v is double d && double.IsNaN(d) || v is float f && float.IsNaN(f)) throw new InvalidOperationException("Cannot store 'NaN' values.");
        if (Size > 0)
        {
            if (v is string s && s.Length > Size) return s[..Size];
            if (v is byte[] b && b.Length > Size) return b[..Size];
        }
        return v;
    }
}
