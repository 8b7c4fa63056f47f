using Sharc.Format;
using Sharc.Schema.Parsing;

namespace Sharc;

internal enum ReaderMode
{
    /// <summary>A rowid table's b-tree.</summary>
    RowIdTable,
    /// <summary>A WITHOUT ROWID table: an index b-tree keyed by the primary key.</summary>
    WithoutRowId,
    /// <summary>An index's entries, as stored.</summary>
    Index,
}

internal enum ColumnKind : byte
{
    Field,
    RowId,
    Virtual,
}

/// <summary>Where one output column of a reader comes from.</summary>
internal sealed class ColumnSource
{
    public required string Name { get; init; }
    public ColumnKind Kind { get; init; }
    /// <summary>The record field that holds the column.</summary>
    public int Field { get; init; }
    /// <summary>The value used when the record has fewer fields (a column added by ALTER TABLE ADD COLUMN).</summary>
    public object? Default { get; init; }
    public SharcColumn? Column
    {
        get => _column;
        init
        {
            _column = value;
            RealAffinity = value?.Affinity == SharcAffinity.Real;
        }
    }
    private readonly SharcColumn? _column;
    /// <summary>SQLite stores integral values of REAL columns as integers to save space and reads them back as REAL.
    /// Kept as a flag: every integer read asks.</summary>
    public bool RealAffinity { get; private init; }
}

/// <summary>
/// What a reader reads, worked out once from the schema: which b-tree, which record field each requested
/// column lives in, and how keys compare for seeks.
/// </summary>
internal sealed record ReaderPlan
{
    public required ReaderMode Mode { get; init; }
    public required uint Root { get; init; }
    public required string Name { get; init; }
    public SharcTable? Table { get; init; }
    public SharcIndex? Index { get; init; }
    public required ColumnSource[] Columns { get; init; }
    /// <summary>Collation of each key field, for seeks (index entries and WITHOUT ROWID primary keys).</summary>
    public Collation[] KeyCollations { get; init; } = [];
    public bool[] KeyDescending { get; init; } = [];
    /// <summary>A key collation Sharc does not implement, which makes key seeks impossible; null when all are known.</summary>
    public string? UnsupportedCollation { get; init; }
    public int FieldCountHint { get; init; }
    /// <summary>The schema cookie the plan was made under.</summary>
    public uint SchemaCookie { get; init; }
    /// <summary>
    /// The schema the plan was made from. Versions with other cookies can share it (a change undone; the process's
    /// schema cache finds the same sqlite_schema bytes): the plan then still fits their pages.
    /// </summary>
    public SharcSchema? Schema { get; init; }
    /// <summary>The column names the reader asked for (empty: all), to plan the same read over another schema.</summary>
    public string[] Requested { get; init; } = [];

    public static ReaderPlan Create(SharcDatabase db, string name, string[] columns)
    {
        ArgumentNullException.ThrowIfNull(name);
        var schema = db.SchemaAndCookie(out uint cookie);
        var table = schema.FindTable(name);
        if (table is not null) return ForTable(table, columns) with { SchemaCookie = cookie, Schema = schema, Requested = columns };
        var index = schema.FindIndex(name);
        if (index is not null) return ForIndex(schema.GetTable(index.TableName), index, columns) with { SchemaCookie = cookie, Schema = schema, Requested = columns };
        if (schema.FindView(name) is not null)
            throw new SharcException($"{name} is a view: reading views needs the SQL engine (Query), not a b-tree reader");
        throw new SharcException($"no such table or index: {name}");
    }

    /// <summary>
    /// The same read planned over <paramref name="schema"/> (another thread's DDL, VACUUM or ANALYZE committed since):
    /// the same columns, found in the same record fields and keyed the same way, perhaps at another root page. Null
    /// when the object is gone or would read differently there (a column dropped or moved, another key) — the reader
    /// cannot carry on as the same reader then.
    /// </summary>
    public ReaderPlan? Replan(SharcSchema schema, uint cookie)
    {
        // Keep the reader's shape: "all columns" means the columns it has, not the ones the table has now.
        string[] names = Requested.Length > 0 ? Requested : Array.ConvertAll(Columns, c => c.Name);
        ReaderPlan next;
        try
        {
            if (Mode == ReaderMode.Index)
            {
                if (schema.FindIndex(Name) is not { } index || schema.FindTable(index.TableName) is not { } owner) return null;
                next = ForIndex(owner, index, names);
            }
            else
            {
                if (schema.FindTable(Name) is not { } table) return null;
                next = ForTable(table, names);
            }
        }
        catch (SharcException)
        {
            return null;
        }
        return ReadsAs(next) ? next with { SchemaCookie = cookie, Schema = schema, Requested = Requested } : null;
    }

    /// <summary>Whether <paramref name="other"/> reads the same values from the same fields with the same keys.</summary>
    public bool ReadsAs(ReaderPlan other)
    {
        if (other.Mode != Mode || other.Columns.Length != Columns.Length || other.UnsupportedCollation != UnsupportedCollation) return false;
        if (!other.KeyCollations.AsSpan().SequenceEqual(KeyCollations) || !other.KeyDescending.AsSpan().SequenceEqual(KeyDescending)) return false;
        for (int i = 0; i < Columns.Length; i++)
        {
            ColumnSource a = Columns[i], b = other.Columns[i];
            if (a.Kind != b.Kind || a.Field != b.Field || !Equals(a.Default, b.Default) || a.RealAffinity != b.RealAffinity) return false;
        }
        return true;
    }

    public static ReaderPlan ForTable(SharcTable table, string[] columns)
    {
        if (table.IsVirtual)
            throw new SharcException($"{table.Name} is a virtual table: its rows belong to a module Sharc does not implement");
        int[] fieldOf = TableFieldMap(table);
        var all = new List<ColumnSource>(table.Columns.Count);
        foreach (var c in table.Columns)
        {
            all.Add(new ColumnSource
            {
                Name = c.Name,
                Kind = c.IsRowIdAlias ? ColumnKind.RowId : c.Generated == SharcGeneratedKind.Virtual ? ColumnKind.Virtual : ColumnKind.Field,
                Field = fieldOf[c.Ordinal],
                Default = c.DefaultValue,
                Column = c,
            });
        }
        var selected = Select(all, columns, table.IsWithoutRowId ? null : "rowid", table.Name);

        Collation[] colls = [];
        bool[] desc = [];
        string? unsupported = null;
        if (table.IsWithoutRowId)
        {
            colls = new Collation[table.PrimaryKey.Count];
            desc = new bool[table.PrimaryKey.Count];
            for (int i = 0; i < colls.Length; i++)
            {
                string coll = i < table.PrimaryKeyCollations.Count ? table.PrimaryKeyCollations[i] : "BINARY";
                if (!CollationCompare.TryParse(coll, out colls[i])) unsupported ??= coll;
                desc[i] = i < table.PrimaryKeyDescending.Count && table.PrimaryKeyDescending[i];
            }
        }
        return new ReaderPlan
        {
            Mode = table.IsWithoutRowId ? ReaderMode.WithoutRowId : ReaderMode.RowIdTable,
            Root = table.RootPage,
            Name = table.Name,
            Table = table,
            Columns = selected,
            KeyCollations = colls,
            KeyDescending = desc,
            UnsupportedCollation = unsupported,
            FieldCountHint = table.Columns.Count,
        };
    }

    public static ReaderPlan ForIndex(SharcTable table, SharcIndex index, string[] columns)
    {
        var all = new List<ColumnSource>();
        var colls = new List<Collation>();
        var desc = new List<bool>();
        string? unsupported = null;
        foreach (var k in index.Columns)
        {
            string colName = k.Name ?? k.ExpressionSql ?? $"expr{all.Count}";
            all.Add(new ColumnSource { Name = colName, Kind = ColumnKind.Field, Field = all.Count, Column = k.TableOrdinal >= 0 ? table.Columns[k.TableOrdinal] : null });
            if (!CollationCompare.TryParse(k.Collation, out var c)) unsupported ??= k.Collation;
            colls.Add(c);
            desc.Add(k.IsDescending);
        }
        foreach (int pkPos in IndexSuffixKeyPositions(table, index))
        {
            int ordinal = pkPos < 0 ? -1 : table.PrimaryKey[pkPos];
            string colName = ordinal < 0 ? "rowid" : table.Columns[ordinal].Name;
            all.Add(new ColumnSource { Name = colName, Kind = ColumnKind.Field, Field = all.Count, Column = ordinal >= 0 ? table.Columns[ordinal] : null });
            if (ordinal < 0)
            {
                colls.Add(Collation.Binary);
                desc.Add(false);
            }
            else
            {
                string coll = pkPos >= 0 && pkPos < table.PrimaryKeyCollations.Count ? table.PrimaryKeyCollations[pkPos] : "BINARY";
                if (!CollationCompare.TryParse(coll, out var c)) unsupported ??= coll;
                colls.Add(c);
                desc.Add(pkPos >= 0 && pkPos < table.PrimaryKeyDescending.Count && table.PrimaryKeyDescending[pkPos]);
            }
        }
        return new ReaderPlan
        {
            Mode = ReaderMode.Index,
            Root = index.RootPage,
            Name = index.Name,
            Table = table,
            Index = index,
            Columns = Select(all, columns, null, index.Name),
            KeyCollations = [.. colls],
            KeyDescending = [.. desc],
            UnsupportedCollation = unsupported,
            FieldCountHint = all.Count,
        };
    }

    /// <summary>
    /// The table columns an index entry carries after its declared keys: the rowid (-1) for a rowid table, or the
    /// primary-key columns not already among the keys for a WITHOUT ROWID table.
    /// </summary>
    public static List<int> IndexSuffix(SharcTable table, SharcIndex index)
    {
        var suffix = new List<int>();
        foreach (int position in IndexSuffixKeyPositions(table, index))
            suffix.Add(position < 0 ? -1 : table.PrimaryKey[position]);
        return suffix;
    }

    /// <summary>
    /// As <see cref="IndexSuffix"/>, as positions in the primary key (-1: the rowid). A key column the index already
    /// holds is left out only when it has the same collation there (SQLite's isDupColumn), so a primary key naming a
    /// column twice with two collations may leave one copy in the suffix.
    /// </summary>
    public static List<int> IndexSuffixKeyPositions(SharcTable table, SharcIndex index)
    {
        var suffix = new List<int>();
        if (!table.IsWithoutRowId)
        {
            suffix.Add(-1);
            return suffix;
        }
        for (int i = 0; i < table.PrimaryKey.Count; i++)
        {
            int pk = table.PrimaryKey[i];
            string coll = i < table.PrimaryKeyCollations.Count ? table.PrimaryKeyCollations[i] : "BINARY";
            bool present = false;
            foreach (var k in index.Columns)
                if (k.TableOrdinal == pk && SqlText.EqualsIgnoreCase(k.Collation, coll)) { present = true; break; }
            if (!present) suffix.Add(i);
        }
        return suffix;
    }

    /// <summary>
    /// Record field of each table column. Rowid tables store every non-virtual column in declaration order
    /// (the INTEGER PRIMARY KEY as NULL); WITHOUT ROWID tables store the primary key first, then the rest.
    /// </summary>
    public static int[] TableFieldMap(SharcTable table)
    {
        var map = new int[table.Columns.Count];
        int next = 0;
        if (table.IsWithoutRowId)
        {
            Array.Fill(map, -1);
            // A column the key names twice (with two collations) is stored twice; it reads from its first field.
            foreach (int pk in table.PrimaryKey)
            {
                if (map[pk] < 0) map[pk] = next;
                next++;
            }
            foreach (var c in table.Columns)
                if (map[c.Ordinal] < 0 && c.Generated != SharcGeneratedKind.Virtual) map[c.Ordinal] = next++;
            return map;
        }
        foreach (var c in table.Columns)
            map[c.Ordinal] = c.Generated == SharcGeneratedKind.Virtual ? -1 : next++;
        return map;
    }

    private static ColumnSource[] Select(List<ColumnSource> all, string[] names, string? rowIdName, string owner)
    {
        if (names is null || names.Length == 0) return [.. all];
        var result = new ColumnSource[names.Length];
        for (int i = 0; i < names.Length; i++)
        {
            string n = names[i] ?? throw new ArgumentNullException(nameof(names));
            ColumnSource? found = null;
            foreach (var c in all)
                if (SqlNameComparer.Instance.Equals(c.Name, n)) { found = c; break; }
            if (found is null && rowIdName is not null &&
                (SqlNameComparer.Instance.Equals(n, "rowid") || SqlNameComparer.Instance.Equals(n, "oid") || SqlNameComparer.Instance.Equals(n, "_rowid_")))
                found = new ColumnSource { Name = n, Kind = ColumnKind.RowId };
            result[i] = found ?? throw new SharcException($"no such column: {n} (in {owner})");
        }
        return result;
    }

}
