using System.Text;
using Sharc.Sql.Values;

namespace Sharc;

/// <summary>
/// A <see cref="SharcFilter"/> over one table as the SELECT it means (values as numbered parameters), and the binding
/// of those parameters: constants once, named parameters whenever the reader's user binds them. Text is encoded into
/// buffers kept per slot, so binding again allocates nothing once a buffer is large enough.
/// </summary>
internal sealed class FilterBindings
{
    private readonly FilterSqlWriter.Slot[] _slots;
    private readonly byte[]?[] _buffers;

    private FilterBindings(string sql, FilterSqlWriter.Slot[] slots)
    {
        Sql = sql;
        _slots = slots;
        _buffers = new byte[]?[slots.Length];
    }

    public string Sql { get; }

    public static FilterBindings Create(SharcDatabase db, string table, SharcFilter filter, string[] columns)
    {
        ArgumentNullException.ThrowIfNull(table);
        ArgumentNullException.ThrowIfNull(filter);
        ArgumentNullException.ThrowIfNull(columns);
        var schema = db.Schema;
        var t = schema.FindTable(table);
        if (t is null && schema.FindView(table) is null)
            throw new SharcException(schema.FindIndex(table) is not null
                ? $"{table} is an index: a filter reads a table (or a view), and the planner picks the index"
                : $"no such table: {table}");
        var w = new FilterSqlWriter(t);
        w.Text("SELECT ");
        if (columns.Length == 0) w.Text("*");
        for (int i = 0; i < columns.Length; i++)
        {
            ArgumentNullException.ThrowIfNull(columns[i], nameof(columns));
            if (i > 0) w.Text(", ");
            w.Quoted(w.Known(columns[i]));
        }
        w.Text(" FROM ");
        w.Quoted(table);
        w.Text(" WHERE ");
        filter.Write(w);
        return new FilterBindings(w.ToString(), [.. w.Slots]);
    }

    /// <summary>Binds every constant, and NULL for every parameter.</summary>
    public void BindConstants(SqlValue[] parameters)
    {
        for (int i = 0; i < _slots.Length; i++)
        {
            var v = _slots[i].Value;
            parameters[i] = v.IsParameter ? SqlValue.Null : v.Value switch
            {
                string s => Text(i, s),
                var o => SqlValue.FromObject(o),
            };
        }
    }

    /// <summary>Binds <paramref name="value"/> to every slot of parameter <paramref name="name"/>.</summary>
    /// <exception cref="ArgumentException">The filter has no parameter of that name.</exception>
    public void Bind(SqlValue[] parameters, string name, SqlValue value)
    {
        for (int i = First(name); i >= 0; i = Next(name, i + 1))
            parameters[i] = value.Type == SharcColumnType.Text ? Text(i, value.Bytes) : Keep(i, value);
    }

    /// <summary>Binds UTF-8 text to every slot of parameter <paramref name="name"/>.</summary>
    public void Bind(SqlValue[] parameters, string name, ReadOnlySpan<byte> utf8)
    {
        for (int i = First(name); i >= 0; i = Next(name, i + 1)) parameters[i] = Text(i, utf8);
    }

    /// <summary>Binds text given as a string to every slot of parameter <paramref name="name"/>.</summary>
    public void Bind(SqlValue[] parameters, string name, string value)
    {
        for (int i = First(name); i >= 0; i = Next(name, i + 1)) parameters[i] = Text(i, value);
    }

    private int First(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        int first = Next(name, 0);
        if (first < 0) NoSuchParameter(name);
        return first;
    }

    private int Next(string name, int from)
    {
        for (int i = from; i < _slots.Length; i++)
            if (string.Equals(_slots[i].Value.ParameterName, name, StringComparison.Ordinal)) return i;
        return -1;
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void NoSuchParameter(string name) => throw new ArgumentException($"the filter has no parameter named {name}", nameof(name));

    private SqlValue Text(int slot, string s)
    {
        int length = Encoding.UTF8.GetByteCount(s);
        var buffer = TextBuffer(slot, length);
        Encoding.UTF8.GetBytes(s, buffer);
        return Finish(slot, buffer, length);
    }

    private SqlValue Text(int slot, ReadOnlySpan<byte> utf8)
    {
        var buffer = TextBuffer(slot, utf8.Length);
        utf8.CopyTo(buffer);
        return Finish(slot, buffer, utf8.Length);
    }

    // The text sits at the start of the slot's buffer; a pattern made from it is written right after it.
    private byte[] TextBuffer(int slot, int length)
        => Buffer(slot, _slots[slot].Pattern == FilterPattern.None ? length : length + FilterSqlWriter.PatternSize(length));

    private SqlValue Finish(int slot, byte[] buffer, int length)
    {
        var pattern = _slots[slot].Pattern;
        if (pattern == FilterPattern.None) return SqlValue.BorrowedText(buffer, 0, length);
        int n = FilterSqlWriter.WritePattern(buffer.AsSpan(0, length), pattern, buffer.AsSpan(length));
        return SqlValue.BorrowedText(buffer, length, n);
    }

    private SqlValue Keep(int slot, SqlValue value)
    {
        if (value.Type != SharcColumnType.Blob) return value;
        var bytes = value.Bytes;
        var buffer = Buffer(slot, bytes.Length);
        bytes.CopyTo(buffer);
        return SqlValue.BorrowedBlob(buffer, 0, bytes.Length);
    }

    private byte[] Buffer(int slot, int size)
    {
        ref var buffer = ref _buffers[slot];
        if (buffer is null || buffer.Length < size) buffer = new byte[Math.Max(size, 32)];
        return buffer;
    }
}
