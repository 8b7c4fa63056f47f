using Sharc.Schema.Parsing;
using System.Text;

namespace Sharc;

/// <summary>
/// Writes a <see cref="SharcFilter"/> as the SQL condition it means. For a reader every value becomes a numbered
/// parameter (<see cref="Slots"/>), so values never go through SQL text and a prepared reader binds new ones without
/// planning again; for <see cref="SharcFilter.ToString"/> (no table) values are written inline.
/// </summary>
internal sealed class FilterSqlWriter(SharcTable? table)
{
    private readonly StringBuilder _sql = new();

    /// <summary>One parameter slot: a constant (bound once) or a named parameter, and how text becomes a pattern.</summary>
    internal readonly record struct Slot(SharcFilterValue Value, FilterPattern Pattern);

    public List<Slot> Slots { get; } = [];

    public FilterSqlWriter Text(string s)
    {
        _sql.Append(s);
        return this;
    }

    public void Column(SharcFilterColumn c)
    {
        string name;
        if (c.Name is { } n) name = table is null ? n : Known(n);
        else if (table is null) name = "#" + c.Ordinal.ToString(System.Globalization.CultureInfo.InvariantCulture);
        else if (c.Ordinal < table.Columns.Count) name = table.Columns[c.Ordinal].Name;
        else throw new ArgumentOutOfRangeException(nameof(c), c.Ordinal, $"{table.Name} has {table.Columns.Count} columns: a filter names column {c.Ordinal}");
        Quoted(name);
    }

    /// <summary>
    /// <paramref name="name"/> when it names a column of the table (or its rowid): checked here, as SQL would read an
    /// unknown double-quoted name as a string.
    /// </summary>
    public string Known(string name)
    {
        if (table is null) return name;
        foreach (var c in table.Columns)
            if (SqlNameComparer.Instance.Equals(c.Name, name)) return name;
        if (!table.IsWithoutRowId && (SqlNameComparer.Instance.Equals(name, "rowid") || SqlNameComparer.Instance.Equals(name, "oid") || SqlNameComparer.Instance.Equals(name, "_rowid_")))
            return name;
        throw new SharcException($"no such column: {name} in {table.Name}");
    }

    public void Quoted(string name) => _sql.Append('"').Append(name.Replace("\"", "\"\"", StringComparison.Ordinal)).Append('"');

    public FilterSqlWriter Value(SharcFilterValue v, FilterPattern pattern)
    {
        if (table is null)
        {
            _sql.Append(v.IsParameter || pattern == FilterPattern.None || v.Value is not string s ? v.ToString() : ((SharcFilterValue)Pattern(s, pattern)).ToString());
            return this;
        }
        Slots.Add(new Slot(v, pattern));
        _sql.Append('?').Append(Slots.Count.ToString(System.Globalization.CultureInfo.InvariantCulture));
        return this;
    }

    public override string ToString() => _sql.ToString();

    /// <summary>The GLOB pattern matching text that starts with, ends with or contains <paramref name="s"/>.</summary>
    public static string Pattern(string s, FilterPattern pattern)
    {
        var utf8 = Encoding.UTF8.GetBytes(s);
        var buffer = new byte[PatternSize(utf8.Length)];
        return Encoding.UTF8.GetString(buffer, 0, WritePattern(utf8, pattern, buffer));
    }

    /// <summary>The most bytes <see cref="WritePattern"/> writes for <paramref name="length"/> bytes of text.</summary>
    public static int PatternSize(int length) => 3 * length + 2;

    /// <summary>
    /// Writes the GLOB pattern for UTF-8 <paramref name="text"/> into <paramref name="into"/>: the wildcards *, ? and [
    /// escaped as one-character classes ([*], [?], [[]), then * before and/or after. Returns the length.
    /// </summary>
    public static int WritePattern(ReadOnlySpan<byte> text, FilterPattern pattern, Span<byte> into)
    {
        int n = 0;
        if (pattern is FilterPattern.Suffix or FilterPattern.Infix) into[n++] = (byte)'*';
        foreach (byte b in text)
        {
            // Bytes of multi-byte UTF-8 characters are all >= 0x80: only ASCII bytes can be wildcards.
            if (b is (byte)'*' or (byte)'?' or (byte)'[')
            {
                into[n++] = (byte)'[';
                into[n++] = b;
                into[n++] = (byte)']';
            }
            else
            {
                into[n++] = b;
            }
        }
        if (pattern is FilterPattern.Prefix or FilterPattern.Infix) into[n++] = (byte)'*';
        return n;
    }
}
