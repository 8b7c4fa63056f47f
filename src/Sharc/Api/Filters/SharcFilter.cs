using System.Text;

namespace Sharc;

/// <summary>
/// A row filter for the cursor API, built fluently:
/// <c>SharcFilter.Column("age").Gt(60).And(SharcFilter.Column("city").In("Oslo", "Lima"))</c>. Pass it to
/// <see cref="SharcDatabase.CreateReader(string, SharcFilter, string[])"/> or
/// <see cref="SharcDatabase.PrepareReader(string, SharcFilter, string[])"/>. A filter is immutable and names columns, not
/// a table, so one filter serves any number of readers (and tables with those columns).
/// </summary>
/// <remarks>
/// A filter is compiled to the same predicate the SQL engine builds for a WHERE clause, and planned by the same
/// planner: it uses an index (or rowid seek) exactly where the equivalent SELECT would, and on a scan it is tested on
/// the stored record bytes before a row is decoded. Comparisons follow SQLite's rules: the column's affinity applies to
/// the value ('10' matches 10 in an INTEGER column), text compares by the column's collation, NULL matches nothing.
/// <see cref="SharcFilterColumn.StartsWith"/>, <see cref="SharcFilterColumn.EndsWith"/> and
/// <see cref="SharcFilterColumn.Contains"/> compare case-sensitively, as SQL GLOB does with the value's wildcards escaped.
/// </remarks>
public abstract class SharcFilter
{
    private protected SharcFilter()
    {
    }

    /// <summary>The column named <paramref name="name"/> (matched as SQL matches names: ASCII case-insensitively).</summary>
    public static SharcFilterColumn Column(string name)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        return new SharcFilterColumn(name, -1);
    }

    /// <summary>The table's column at declaration position <paramref name="ordinal"/> (0-based).</summary>
    public static SharcFilterColumn Column(int ordinal)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(ordinal);
        return new SharcFilterColumn(null, ordinal);
    }

    /// <summary>
    /// A named parameter, bound on a prepared reader with <see cref="PreparedReader.Bind(string, object?)"/> and its
    /// overloads before <see cref="PreparedReader.Reset"/>; NULL until bound. The same name used twice is one value.
    /// </summary>
    public static SharcFilterValue Parameter(string name)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        return SharcFilterValue.Parameter(name);
    }

    /// <summary>Rows matching every one of <paramref name="filters"/> (all rows when there are none).</summary>
    public static SharcFilter All(params SharcFilter[] filters) => new LogicFilter(true, Check(filters));

    /// <summary>Rows matching at least one of <paramref name="filters"/> (no rows when there are none).</summary>
    public static SharcFilter Any(params SharcFilter[] filters) => new LogicFilter(false, Check(filters));

    /// <summary>Rows matching this filter and <paramref name="other"/>.</summary>
    public SharcFilter And(SharcFilter other) => new LogicFilter(true, Check([this, other]));

    /// <summary>Rows matching this filter or <paramref name="other"/>.</summary>
    public SharcFilter Or(SharcFilter other) => new LogicFilter(false, Check([this, other]));

    /// <summary>Rows for which this filter is false (SQL NOT: a row where it is NULL matches neither).</summary>
    public SharcFilter Not() => new NotFilter(this);

    /// <summary>Same as <see cref="And"/>.</summary>
    public static SharcFilter operator &(SharcFilter left, SharcFilter right) => left.And(right);

    /// <summary>Same as <see cref="Or"/>.</summary>
    public static SharcFilter operator |(SharcFilter left, SharcFilter right) => left.Or(right);

    /// <summary>Same as <see cref="Not()"/>.</summary>
    public static SharcFilter operator !(SharcFilter filter) => filter.Not();

    /// <summary>Same as <see cref="And"/>.</summary>
    public static SharcFilter BitwiseAnd(SharcFilter left, SharcFilter right) => left.And(right);

    /// <summary>Same as <see cref="Or"/>.</summary>
    public static SharcFilter BitwiseOr(SharcFilter left, SharcFilter right) => left.Or(right);

    /// <summary>Same as <see cref="Not()"/>.</summary>
    public static SharcFilter LogicalNot(SharcFilter filter) => filter.Not();

    /// <summary>The filter as a SQL condition, with its values inline (parameters as <c>$name</c>): for messages and debugging.</summary>
    public override string ToString()
    {
        var w = new FilterSqlWriter(null);
        Write(w);
        return w.ToString();
    }

    /// <summary>Writes the condition as SQL.</summary>
    internal abstract void Write(FilterSqlWriter w);

    private static SharcFilter[] Check(SharcFilter[] filters)
    {
        ArgumentNullException.ThrowIfNull(filters);
        foreach (var f in filters) ArgumentNullException.ThrowIfNull(f, nameof(filters));
        return filters;
    }
}

/// <summary>A column a <see cref="SharcFilter"/> tests; its methods make the tests.</summary>
public sealed class SharcFilterColumn
{
    internal SharcFilterColumn(string? name, int ordinal)
    {
        Name = name;
        Ordinal = ordinal;
    }

    /// <summary>The column's name, or null when it is given by <see cref="Ordinal"/>.</summary>
    public string? Name { get; }

    /// <summary>The column's declaration position, or -1 when it is given by <see cref="Name"/>.</summary>
    public int Ordinal { get; }

    /// <summary>column = value.</summary>
    public SharcFilter Eq(SharcFilterValue value) => new CompareFilter(this, "=", value);

    /// <summary>column &lt;&gt; value.</summary>
    public SharcFilter Ne(SharcFilterValue value) => new CompareFilter(this, "<>", value);

    /// <summary>column &lt; value.</summary>
    public SharcFilter Lt(SharcFilterValue value) => new CompareFilter(this, "<", value);

    /// <summary>column &lt;= value.</summary>
    public SharcFilter Le(SharcFilterValue value) => new CompareFilter(this, "<=", value);

    /// <summary>column &gt; value.</summary>
    public SharcFilter Gt(SharcFilterValue value) => new CompareFilter(this, ">", value);

    /// <summary>column &gt;= value.</summary>
    public SharcFilter Ge(SharcFilterValue value) => new CompareFilter(this, ">=", value);

    /// <summary>column BETWEEN low AND high (both ends included).</summary>
    public SharcFilter Between(SharcFilterValue low, SharcFilterValue high) => new BetweenFilter(this, low, high);

    /// <summary>column IN (values): equal to one of them (none: no row).</summary>
    public SharcFilter In(params SharcFilterValue[] values)
    {
        ArgumentNullException.ThrowIfNull(values);
        return new InFilter(this, [.. values]);
    }

    /// <summary>column IS NULL.</summary>
    public SharcFilter IsNull() => new NullFilter(this, false);

    /// <summary>column IS NOT NULL.</summary>
    public SharcFilter IsNotNull() => new NullFilter(this, true);

    /// <summary>The column's text starts with <paramref name="prefix"/> (case-sensitive).</summary>
    public SharcFilter StartsWith(SharcFilterValue prefix) => new PatternFilter(this, FilterPattern.Prefix, prefix);

    /// <summary>The column's text ends with <paramref name="suffix"/> (case-sensitive).</summary>
    public SharcFilter EndsWith(SharcFilterValue suffix) => new PatternFilter(this, FilterPattern.Suffix, suffix);

    /// <summary>The column's text contains <paramref name="part"/> (case-sensitive).</summary>
    public SharcFilter Contains(SharcFilterValue part) => new PatternFilter(this, FilterPattern.Infix, part);

    internal void Write(FilterSqlWriter w) => w.Column(this);
}

/// <summary>How a text value becomes a GLOB pattern.</summary>
internal enum FilterPattern : byte
{
    None,
    Prefix,
    Suffix,
    Infix,
}

internal sealed class CompareFilter(SharcFilterColumn column, string op, SharcFilterValue value) : SharcFilter
{
    internal override void Write(FilterSqlWriter w)
    {
        column.Write(w);
        w.Text(" ").Text(op).Text(" ").Value(value, FilterPattern.None);
    }
}

internal sealed class BetweenFilter(SharcFilterColumn column, SharcFilterValue low, SharcFilterValue high) : SharcFilter
{
    internal override void Write(FilterSqlWriter w)
    {
        column.Write(w);
        w.Text(" BETWEEN ").Value(low, FilterPattern.None).Text(" AND ").Value(high, FilterPattern.None);
    }
}

internal sealed class InFilter(SharcFilterColumn column, SharcFilterValue[] values) : SharcFilter
{
    internal override void Write(FilterSqlWriter w)
    {
        column.Write(w);
        w.Text(" IN (");
        for (int i = 0; i < values.Length; i++)
        {
            if (i > 0) w.Text(", ");
            w.Value(values[i], FilterPattern.None);
        }
        w.Text(")");
    }
}

internal sealed class NullFilter(SharcFilterColumn column, bool not) : SharcFilter
{
    internal override void Write(FilterSqlWriter w)
    {
        column.Write(w);
        w.Text(not ? " IS NOT NULL" : " IS NULL");
    }
}

internal sealed class PatternFilter(SharcFilterColumn column, FilterPattern pattern, SharcFilterValue value) : SharcFilter
{
    internal override void Write(FilterSqlWriter w)
    {
        column.Write(w);
        w.Text(" GLOB ").Value(value, pattern);
    }
}

internal sealed class LogicFilter(bool and, SharcFilter[] terms) : SharcFilter
{
    internal override void Write(FilterSqlWriter w)
    {
        if (terms.Length == 0)
        {
            w.Text(and ? "1" : "0");
            return;
        }
        for (int i = 0; i < terms.Length; i++)
        {
            if (i > 0) w.Text(and ? " AND " : " OR ");
            w.Text("(");
            terms[i].Write(w);
            w.Text(")");
        }
    }
}

internal sealed class NotFilter(SharcFilter operand) : SharcFilter
{
    internal override void Write(FilterSqlWriter w)
    {
        w.Text("NOT (");
        operand.Write(w);
        w.Text(")");
    }
}
