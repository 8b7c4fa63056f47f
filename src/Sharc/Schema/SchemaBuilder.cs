using Sharc.Schema.Parsing;

namespace Sharc.Schema;

/// <summary>
/// Turns the rows of sqlite_schema into a <see cref="SharcSchema"/>, checking them as SQLite does when it opens
/// a database: each row's SQL must parse and match the row's type, name and tbl_name; root pages must be in the
/// file; names must be unique; indexes and triggers need their table; rows without SQL must be the
/// sqlite_autoindex_* index of a PRIMARY KEY or UNIQUE constraint. Problems are reported as
/// <see cref="SharcCorruptException"/> with SQLite's wording ("malformed database schema (name) - reason").
/// </summary>
internal static class SchemaBuilder
{
    /// <summary>The definition SQLite uses for sqlite_schema itself.</summary>
    public const string SchemaTableSql = "CREATE TABLE sqlite_schema(type text,name text,tbl_name text,rootpage int,sql text)";

    private sealed class TableEntry
    {
        public required TableDefinition Definition { get; init; }
        public required SharcTable Table { get; init; }
        public List<IndexEntry> ConstraintIndexes { get; } = new();
        public List<IndexEntry> Indexes { get; } = new();
        /// <summary>The table's row number in sqlite_schema.</summary>
        public required int Position { get; init; }
        public required SchemaRow Row { get; init; }
    }

    private sealed class IndexEntry
    {
        public required string Name { get; init; }
        public SchemaRow? Row { get; set; }
        public uint RootPage { get; set; }
        public ConstraintIndex? Constraint { get; init; }
        public SchemaStatement? Statement { get; init; }
        public SharcIndex? Index { get; set; }
        /// <summary>The row number of the index's own sqlite_schema row.</summary>
        public int Position { get; set; }
    }

    /// <summary>
    /// Builds the schema; <paramref name="pageCount"/> bounds root pages (0 skips that check). With
    /// <paramref name="foreignTriggers"/> (a temp database) a trigger's table may be in another database.
    /// </summary>
    public static SharcSchema Build(IReadOnlyList<SchemaRow> rows, uint pageCount, bool foreignTriggers = false)
    {
        var schemaTable = CreateTableParser.ParseTable(SkipToTableName(SchemaTableSql)).Table.ToSharcTable(1, SchemaTableSql);
        var tables = new List<TableEntry>();
        var tablesByName = new Dictionary<string, object>(SqlNameComparer.Instance)
        {
            ["sqlite_schema"] = schemaTable,
            ["sqlite_master"] = schemaTable,
        };
        var indexesByName = new Dictionary<string, IndexEntry>(SqlNameComparer.Instance);
        var triggerNames = new HashSet<string>(SqlNameComparer.Instance);
        var order = new List<object>(rows.Count); // per row with SQL: TableEntry, IndexEntry, SharcView or SharcTrigger
        var deferred = new List<object>(); // indexes and triggers whose table comes later

        // Rows are checked in order, as SQLite does, so the first bad row is the one reported.
        for (int position = 0; position < rows.Count; position++)
        {
            var row = rows[position];
            if (string.IsNullOrEmpty(row.Sql))
            {
                // A row without SQL gives the root page of a constraint index its (earlier) table declared.
                if (!indexesByName.TryGetValue(row.Name, out var auto)) throw Malformed(row, "orphan index");
                auto.RootPage = RootPage(row, pageCount);
                auto.Row = row;
                auto.Position = position;
                continue;
            }
            var st = ParseRow(row);
            switch (st.Kind)
            {
                case SchemaObjectKind.Table:
                {
                    var def = st.Table!;
                    // SQLite ignores the rootpage of a virtual table (it has no b-tree), whatever it holds.
                    uint root = def.IsVirtual ? 0 : RootPage(row, pageCount);
                    CheckNewTableName(row, st.Name, tablesByName, indexesByName);
                    var entry = new TableEntry { Definition = def, Table = def.ToSharcTable(root, row.Sql!), Position = position, Row = row };
                    foreach (var ci in def.Indexes)
                    {
                        var ie = new IndexEntry { Name = ci.Name, Constraint = ci };
                        if (def.WithoutRowId && ci.IsPrimaryKey) ie.RootPage = root; // the table's own b-tree
                        entry.ConstraintIndexes.Add(ie);
                        indexesByName[ci.Name] = ie;
                    }
                    tables.Add(entry);
                    tablesByName.Add(st.Name, entry);
                    order.Add(entry);
                    break;
                }
                case SchemaObjectKind.View:
                {
                    NoRootPage(row);
                    CheckNewTableName(row, st.Name, tablesByName, indexesByName);
                    var view = new SharcView(st.Name, row.Sql!, st.SelectSql!, st.ColumnNames);
                    tablesByName.Add(st.Name, view);
                    order.Add(view);
                    break;
                }
                case SchemaObjectKind.Index:
                {
                    uint root = RootPage(row, pageCount);
                    if (indexesByName.ContainsKey(st.Name)) throw Malformed(row, $"index {st.Name} already exists");
                    var ie = new IndexEntry { Name = st.Name, Row = row, RootPage = root, Statement = st, Position = position };
                    indexesByName.Add(st.Name, ie);
                    order.Add(ie);
                    if (tablesByName.ContainsKey(st.TableName)) ResolveIndex(ie, tablesByName);
                    else deferred.Add(ie);
                    break;
                }
                default:
                {
                    if (!triggerNames.Add(st.Name)) throw Malformed(row, $"trigger {st.Name} already exists");
                    var trigger = new SharcTrigger(st.Name, st.TableName, row.Sql!);
                    order.Add(trigger);
                    if (!tablesByName.ContainsKey(st.TableName)) deferred.Add((row, st));
                    break;
                }
            }
        }

        // SQLite needs a table before its indexes and triggers; Sharc also accepts them in the other order.
        foreach (var item in deferred)
        {
            if (item is IndexEntry ie)
            {
                ResolveIndex(ie, tablesByName);
            }
            else if (item is ValueTuple<SchemaRow, SchemaStatement> (var row, var st) && !foreignTriggers && !tablesByName.ContainsKey(st.TableName))
            {
                throw Malformed(row, $"no such table: main.{st.TableName}");
            }
        }
        return Assemble(schemaTable, tables, order);
    }

    private static SqlTokenStream SkipToTableName(string createTableSql)
    {
        var ts = new SqlTokenStream(createTableSql);
        ts.ExpectWord("CREATE");
        ts.ExpectWord("TABLE");
        return ts;
    }

    /// <summary>
    /// A row's CREATE statement parsed and checked against the row as the loader checks it; the writer runs every
    /// text it stores through here, so what it writes is what the next open reads.
    /// </summary>
    internal static SchemaStatement ParseStoredRow(SchemaRow row) => ParseRow(row);

    private static SchemaStatement ParseRow(SchemaRow row)
    {
        string sql = row.Sql!;
        // SQLite only runs the SQL when it starts with "CREATE" (checked as its first two letters).
        if (sql.Length < 2 || SqlText.FoldAscii(sql[0]) != 'C' || SqlText.FoldAscii(sql[1]) != 'R')
        {
            throw Malformed(row, "sql is not a CREATE statement");
        }
        SchemaStatement st;
        try
        {
            st = SchemaStatementParser.Parse(sql);
        }
        catch (SqlSyntaxException e)
        {
            throw Malformed(row, e.Message);
        }
        catch (Exception e) when (e is not SharcException)
        {
            // A safety net: a reader must report bad input as corruption, never crash on it.
            throw Malformed(row, $"unreadable sql ({e.GetType().Name})");
        }
        if (st.Qualified) throw Malformed(row, "corrupt database");

        string kind = st.Kind switch
        {
            SchemaObjectKind.Table => "table",
            SchemaObjectKind.Index => "index",
            SchemaObjectKind.View => "view",
            _ => "trigger",
        };
        if (!SqlText.EqualsIgnoreCase(row.Type, kind)
            || !SqlText.EqualsIgnoreCase(row.Name, st.Name)
            || !SqlText.EqualsIgnoreCase(row.TableName, st.TableName))
        {
            throw Malformed(row, "type, name or tbl_name does not match the sql");
        }
        return st;
    }

    private static void CheckNewTableName(SchemaRow row, string name, Dictionary<string, object> tables, Dictionary<string, IndexEntry> indexes)
    {
        if (tables.TryGetValue(name, out var existing))
        {
            throw Malformed(row, $"{(existing is SharcView ? "view" : "table")} {name} already exists");
        }
        if (indexes.ContainsKey(name)) throw Malformed(row, $"there is already an index named {name}");
    }

    private static uint RootPage(SchemaRow row, uint pageCount)
    {
        // Page 1 always holds sqlite_schema, so no other b-tree can start there.
        if (row.RootPage < 2 || row.RootPage > uint.MaxValue || (pageCount > 0 && row.RootPage > pageCount))
        {
            throw Malformed(row, "invalid rootpage");
        }
        return (uint)row.RootPage;
    }

    private static uint NoRootPage(SchemaRow row)
    {
        if (row.RootPage != 0) throw Malformed(row, "invalid rootpage");
        return 0;
    }

    private static void ResolveIndex(IndexEntry ie, Dictionary<string, object> tablesByName)
    {
        var st = ie.Statement!;
        var row = ie.Row!.Value;
        if (!tablesByName.TryGetValue(st.TableName, out var target)) throw Malformed(row, $"no such table: main.{st.TableName}");
        if (target is not TableEntry table)
        {
            throw Malformed(row, target is SharcView ? "views may not be indexed" : $"table {st.TableName} may not be indexed");
        }
        if (table.Definition.IsVirtual) throw Malformed(row, "virtual tables may not be indexed");

        var def = table.Definition;
        var columns = new SharcIndexColumn[st.Keys.Count];
        for (int i = 0; i < columns.Length; i++)
        {
            var key = st.Keys[i];
            columns[i] = ResolveKey(row, def, key);
        }
        ie.Index = new SharcIndex(st.Name, table.Table.Name, ie.RootPage, row.Sql, columns)
        {
            IsUnique = st.IsUnique,
            WhereSql = st.WhereSql,
        };
        table.Indexes.Add(ie);
    }

    private static SharcIndexColumn ResolveKey(SchemaRow row, TableDefinition def, IndexKey key)
    {
        if (key.ColumnName is { } name)
        {
            if (def.FindColumn(name) is { } column)
            {
                return new SharcIndexColumn(column.Name, column.Ordinal, null, key.Descending, key.Collation ?? column.Collation ?? "BINARY");
            }
            if (IsRowIdName(name) && !key.IsDoubleQuoted && !def.WithoutRowId)
            {
                // SQLite 3.50 refuses to create such an index; older files are read leniently: the key is the rowid
                // (which is the INTEGER PRIMARY KEY column when there is one, as SQLite numbers it).
                int alias = def.RowIdAlias;
                return new SharcIndexColumn(alias >= 0 ? def.Columns[alias].Name : name, alias, null, key.Descending, key.Collation ?? "BINARY");
            }
            if (!key.IsDoubleQuoted) throw Malformed(row, $"no such column: {name}");
            // An unknown "name" in double quotes is a string literal in SQLite's legacy mode: a constant expression.
        }
        return new SharcIndexColumn(null, -2, key.ExpressionSql, key.Descending, key.Collation ?? "BINARY")
        {
            HasExplicitCollation = key.Collation is not null,
        };
    }

    private static bool IsRowIdName(string name)
        => SqlText.EqualsIgnoreCase(name, "ROWID") || SqlText.EqualsIgnoreCase(name, "OID") || SqlText.EqualsIgnoreCase(name, "_ROWID_");

    private static SharcSchema Assemble(SharcTable schemaTable, List<TableEntry> tables, List<object> order)
    {
        foreach (var table in tables)
        {
            var def = table.Definition;
            foreach (var ie in table.ConstraintIndexes)
            {
                // A constraint index without its sqlite_schema row has no b-tree to read; leave it out.
                if (ie.RootPage == 0) continue;
                var columns = ie.Constraint!.Columns.ConvertAll(k =>
                    new SharcIndexColumn(def.Columns[k.Ordinal].Name, k.Ordinal, null, k.Descending, k.Collation));
                ie.Index = new SharcIndex(ie.Name, table.Table.Name, ie.RootPage, null, columns)
                {
                    IsUnique = true,
                    IsAutoIndex = true,
                    IsPrimaryKey = def.WithoutRowId && ie.Constraint.IsPrimaryKey,
                    OnConflict = ie.Constraint.Conflict,
                };
            }
            var own = new List<SharcIndex>();
            foreach (var ie in table.ConstraintIndexes) if (ie.Index is not null) own.Add(ie.Index);
            foreach (var ie in table.Indexes) own.Add(ie.Index!);
            table.Table.Indexes = own;
        }
        CheckDuplicateRootPages(tables);

        var allTables = new List<SharcTable>(tables.Count + 1) { schemaTable };
        var views = new List<SharcView>();
        var triggers = new List<SharcTrigger>();
        foreach (var item in order)
        {
            if (item is TableEntry table) allTables.Add(table.Table);
            else if (item is SharcView view) views.Add(view);
            else if (item is SharcTrigger trigger) triggers.Add(trigger);
        }

        // Indexes follow sqlite_schema order; a WITHOUT ROWID key index, which has no row, sits at its table's row.
        var placed = new List<(int Position, int Sequence, SharcIndex Index)>();
        foreach (var table in tables)
        {
            foreach (var ie in table.ConstraintIndexes.Concat(table.Indexes))
            {
                if (ie.Index is null) continue;
                placed.Add((ie.Row is null ? table.Position : ie.Position, placed.Count, ie.Index));
            }
        }
        placed.Sort((a, b) => a.Position != b.Position ? a.Position.CompareTo(b.Position) : a.Sequence.CompareTo(b.Sequence));
        return new SharcSchema(allTables, placed.ConvertAll(p => p.Index), views, triggers);
    }

    /// <summary>Two indexes of one table on the same root page would overwrite each other: SQLite reports it.</summary>
    private static void CheckDuplicateRootPages(List<TableEntry> tables)
    {
        foreach (var table in tables)
        {
            var seen = new HashSet<uint>();
            foreach (var ie in table.ConstraintIndexes)
            {
                // The WITHOUT ROWID key index has no row of its own: its table's row is the one to blame.
                if (ie.RootPage != 0 && !seen.Add(ie.RootPage)) throw Malformed(ie.Row ?? table.Row, "invalid rootpage");
            }
            foreach (var ie in table.Indexes)
            {
                if (!seen.Add(ie.RootPage)) throw Malformed(ie.Row!.Value, "invalid rootpage");
            }
        }
    }

    private static SharcCorruptException Malformed(SchemaRow row, string reason)
        => new($"malformed database schema ({row.Name}) - {reason}");
}
