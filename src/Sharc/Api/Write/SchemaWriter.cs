using System.Buffers.Binary;
using System.Text;
using Sharc.BTree;
using Sharc.BTree.Mutation;
using Sharc.Format;
using Sharc.Schema;
using Sharc.Schema.Parsing;

namespace Sharc.Write;

/// <summary>
/// DDL on the write engine: CREATE TABLE / INDEX, DROP, ALTER TABLE. Rows of sqlite_schema are written exactly as
/// SQLite writes them (statement text normalized the same way, sqlite_autoindex_* rows for constraints, the
/// schema cookie bumped), and b-tree pages of dropped objects go to the freelist.
/// </summary>
internal sealed partial class SchemaWriter
{
    private readonly SharcDatabase _db;
    private BTreeMutator Mutator => _db.Mutator;

    public SchemaWriter(SharcDatabase db) => _db = db;

    /// <summary>
    /// Lets CreateTable make ANALYZE's sqlite_stat1..4 tables, whose names are otherwise reserved (VACUUM copies them
    /// as SQLite does).
    /// </summary>
    public bool AllowStatTables { get; init; }

    private SharcTextEncoding Encoding => _db.TextEncoding;

    public void CreateTable(string sql)
    {
        var stmt = Parse(sql, SchemaObjectKind.Table);
        var def = stmt.Table!;
        if (def.IsVirtual) throw new SharcException("CREATE VIRTUAL TABLE is not supported: Sharc has no virtual table modules");
        if (_db.Schema.FindTable(def.Name) is not null || _db.Schema.FindView(def.Name) is not null || _db.Schema.FindIndex(def.Name) is not null)
        {
            if (HasIfNotExists(sql)) return;
            throw new SharcException($"table {def.Name} already exists");
        }
        if (!(AllowStatTables && IsStatTable(def.Name))) CheckName(def.Name);
        // SQLite looks a column's collation up when it creates the table, not first when it compares.
        foreach (var c in def.Columns)
            if (!CollationCompare.TryParse(c.Collation, out _)) throw new SharcException($"no such collation sequence: {c.Collation}");
        if (def.Checks.Count > 0 || def.Columns.Exists(c => c.Generated != SharcGeneratedKind.None))
            CheckTableExpressions(def.ToSharcTable(0, sql));
        uint root = NewRoot(def.WithoutRowId ? BTreePageType.LeafIndex : BTreePageType.LeafTable);
        InsertSchemaRow("table", def.Name, def.Name, root, StoredText(sql, stmt), ColumnNames(def));
        foreach (var ci in def.Indexes)
        {
            // A WITHOUT ROWID table's primary key is the table itself: no separate b-tree, no row.
            if (def.WithoutRowId && ci.IsPrimaryKey) continue;
            InsertSchemaRow("index", ci.Name, def.Name, NewRoot(BTreePageType.LeafIndex), null);
        }
        if (def.AutoIncrement && _db.Schema.FindTable("sqlite_sequence") is null)
            InsertSchemaRow("table", "sqlite_sequence", "sqlite_sequence", NewRoot(BTreePageType.LeafTable), "CREATE TABLE sqlite_sequence(name,seq)");
        BumpCookie();
    }

    public void CreateIndex(string sql)
    {
        var stmt = Parse(sql, SchemaObjectKind.Index);
        var table = _db.Schema.FindTable(stmt.TableName) ?? throw new SharcException($"no such table: main.{stmt.TableName}");
        if (_db.Schema.FindIndex(stmt.Name) is not null || _db.Schema.FindTable(stmt.Name) is not null)
        {
            if (HasIfNotExists(sql)) return;
            // SQLite names the kind of object already holding the name.
            if (_db.Schema.FindIndex(stmt.Name) is null) throw new SharcException($"there is already a table named {stmt.Name}");
            throw new SharcException($"index {stmt.Name} already exists");
        }
        CheckName(stmt.Name);
        if (table.Name.StartsWith("sqlite_", StringComparison.OrdinalIgnoreCase))
            throw new SharcException($"table {Shown(table)} may not be indexed");
        uint root = NewRoot(BTreePageType.LeafIndex);
        InsertSchemaRow("index", stmt.Name, table.Name, root, StoredText(sql, stmt));
        BumpCookie();
        // Fill the new index from the existing rows (a UNIQUE violation aborts the statement).
        ReloadWithNew(stmt.Name);
        var index = _db.Schema.GetIndex(stmt.Name);
        if (index.WhereSql is not null || index.Columns.Any(c => c.ExpressionSql is not null))
            CheckIndexExpressions(_db.Schema.GetTable(table.Name), index);
        var writer = _db.WriterFor(table.Name, changesRows: false);
        writer.BuildIndex(index);
    }

    public void DropTable(string name, bool ifExists)
    {
        var table = _db.Schema.FindTable(name);
        if (table is null)
        {
            if (ifExists) return;
            throw new SharcException($"no such table: {name}");
        }
        if (table.Name.StartsWith("sqlite_", StringComparison.OrdinalIgnoreCase))
            throw new SharcException($"table {Shown(table)} may not be dropped");
        var roots = table.Indexes.Where(ix => !ix.IsPrimaryKey).Select(ix => ix.RootPage).ToList();
        if (!table.IsVirtual) roots.Add(table.RootPage);
        DeleteSchemaRows(r => SqlNameComparer.Instance.Equals(r.TableName, table.Name));
        FreeRoots(roots);
        DeleteSequenceRow(table.Name);
        BumpCookie();
    }

    public void DropIndex(string name, bool ifExists)
    {
        var index = _db.Schema.FindIndex(name);
        if (index is null)
        {
            if (ifExists) return;
            throw new SharcException($"no such index: {name}");
        }
        if (index.IsAutoIndex)
            throw new SharcException("index associated with UNIQUE or PRIMARY KEY constraint cannot be dropped");
        DeleteSchemaRows(r => r.Type == "index" && SqlNameComparer.Instance.Equals(r.Name, index.Name));
        FreeRoots([index.RootPage]);
        BumpCookie();
    }

    /// <summary>ALTER TABLE … ADD COLUMN: the definition is spliced into the CREATE TABLE text as SQLite does.</summary>
    public void AddColumn(string tableName, string columnDefinition)
    {
        var table = AlterTarget(tableName, "Cannot add a column to a view");
        if (table.IsVirtual) throw new SharcException("virtual tables may not be altered");
        if (table.Name.StartsWith("sqlite_", StringComparison.OrdinalIgnoreCase)) throw new SharcException($"table {Shown(table)} may not be altered");
        string sql = table.Sql;
        int close = ColumnListEnd(sql);
        string newSql = sql[..close].TrimEnd() + ", " + columnDefinition.Trim().TrimEnd(';') + sql[close..];
        TableDefinition def;
        try
        {
            def = SchemaStatementParser.Parse(newSql).Table!;
        }
        catch (SqlSyntaxException e)
        {
            // SQLite reports a bad column definition (a duplicate name, say) without a position in the spliced text.
            throw new SharcException(e.Message, e);
        }
        var col = def.Columns[^1];
        if (!CollationCompare.TryParse(col.Collation, out _)) throw new SharcException($"no such collation sequence: {col.Collation}");
        if (col.InPrimaryKey) throw new SharcException("Cannot add a PRIMARY KEY column");
        if (col.IsUnique) throw new SharcException("Cannot add a UNIQUE column");
        if (col.Generated == SharcGeneratedKind.Stored) throw new SharcException("cannot add a STORED column");
        var probe = def.ToSharcTable(table.RootPage, newSql).Columns[^1];
        if (col.HasDefault && !probe.HasConstantDefault) throw new SharcException("Cannot add a column with non-constant default");
        if (col.NotNull && probe.DefaultValue is null && col.Generated == SharcGeneratedKind.None)
            throw new SharcException("Cannot add a NOT NULL column with default value NULL");
        // SQLite runs quick_check over the altered table: every existing row would read the default.
        if (probe.DefaultValue is not null && probe.StrictType is not null
            && !TableWriter.StrictTypeAdmits(probe.StrictType, StorageAffinity.FromObject(probe.DefaultValue, probe.Affinity, _db.TextEncoding).Type)
            && HasRows(table))
            throw new SharcConstraintException("type mismatch on DEFAULT");
        UpdateSchemaRows(r => r.Type == "table" && SqlNameComparer.Instance.Equals(r.Name, table.Name), r => r with { Sql = newSql },
            _ => [.. table.Columns.Select(c => c.Name), col.Name]);
        // Rows written before the change lack the field; old readers must know the format that allows it.
        var p1 = _db.WritablePager.Write(1);
        uint format = BinaryPrimitives.ReadUInt32BigEndian(p1.AsSpan(44));
        uint needed = col.HasDefault ? 3u : 2u;
        if (format < needed) BinaryPrimitives.WriteUInt32BigEndian(p1.AsSpan(44), needed);
        BumpCookie();
    }

    /// <summary>The table an ALTER TABLE names; a view of that name is refused with <paramref name="viewMessage"/>, as SQLite refuses it.</summary>
    private SharcTable AlterTarget(string name, string viewMessage)
    {
        if (_db.Schema.FindTable(name) is { } table) return table;
        if (_db.Schema.FindView(name) is not null) throw new SharcException(viewMessage);
        throw new SharcException($"no such table: {name}");
    }

    /// <summary>SQLite's name for a table in its messages: the schema table is "sqlite_master" however it was written.</summary>
    private static string Shown(SharcTable table)
        => table.Name.Equals("sqlite_schema", StringComparison.OrdinalIgnoreCase) ? "sqlite_master" : table.Name;

    private bool HasRows(SharcTable table)
    {
        using var cursor = new BTreeCursor(_db.Source, table.RootPage, _db.Header.UsableSize, isIndex: table.IsWithoutRowId);
        return cursor.MoveFirst();
    }

    /// <summary>
    /// ALTER TABLE … RENAME TO: the table, its indexes and triggers, and every reference to it in other tables'
    /// FOREIGN KEYs, in views and in triggers follow the new name (<see cref="RenameRewriter"/>), as SQLite edits them.
    /// </summary>
    public void RenameTable(string oldName, string newName)
    {
        var table = AlterTarget(oldName, $"view {oldName} may not be altered");
        if (table.Name.StartsWith("sqlite_", StringComparison.OrdinalIgnoreCase)) throw new SharcException($"table {Shown(table)} may not be altered");
        if (_db.Schema.FindTable(newName) is not null || _db.Schema.FindIndex(newName) is not null || _db.Schema.FindView(newName) is not null)
            throw new SharcException($"there is already another table or index with this name: {newName}");
        CheckName(newName);
        UpdateSchemaRows(r => r.Sql is not null && (SqlNameComparer.Instance.Equals(r.TableName, table.Name) || RenameRewriter.MentionsTable(r.Sql, table.Name)), r =>
        {
            string name = r.Name, owner = r.TableName;
            bool own = SqlNameComparer.Instance.Equals(r.TableName, table.Name);
            if (own)
            {
                owner = newName;
                if (r.Type == "table") name = newName;
            }
            return r with { Name = name, TableName = owner, Sql = RenameRewriter.RenameTable(r.Sql!, table.Name, newName) };
        });
        // Constraint indexes have no SQL; their names carry the table's.
        UpdateSchemaRows(r => r.Sql is null && r.Type == "index" && SqlNameComparer.Instance.Equals(r.TableName, table.Name), r =>
        {
            string name = r.Name;
            if (name.StartsWith("sqlite_autoindex_" + table.Name + "_", StringComparison.OrdinalIgnoreCase))
                name = "sqlite_autoindex_" + newName + name[("sqlite_autoindex_" + table.Name).Length..];
            return r with { Name = name, TableName = newName };
        });
        RenameSequenceRow(table.Name, newName);
        BumpCookie();
    }

    /// <summary>
    /// ALTER TABLE … RENAME COLUMN: the column's name changes in its table's definition, its indexes, other tables'
    /// REFERENCES lists, views that read the table and the table's triggers (<see cref="RenameRewriter"/>).
    /// </summary>
    public void RenameColumn(string tableName, string oldColumn, string newColumn)
    {
        var table = AlterTarget(tableName, $"cannot rename columns of view \"{tableName}\"");
        if (table.Name.StartsWith("sqlite_", StringComparison.OrdinalIgnoreCase)) throw new SharcException($"table {Shown(table)} may not be altered");
        var column = table.FindColumn(oldColumn) ?? throw new SharcException($"no such column: \"{oldColumn}\"");
        if (table.FindColumn(newColumn) is not null) throw new SharcException($"error in table {table.Name} after rename: duplicate column name: {newColumn}");
        UpdateSchemaRows(r => r.Sql is not null, r =>
        {
            string sql = RenameRewriter.RenameColumn(r.Sql!, r.Type, r.TableName, table.Name, column.Name, newColumn);
            return ReferenceEquals(sql, r.Sql) ? r : r with { Sql = sql };
        }, r => r.Type == "table" && SqlNameComparer.Instance.Equals(r.Name, table.Name)
            ? [.. table.Columns.Select(c => ReferenceEquals(c, column) ? newColumn : c.Name)]
            : null);
        BumpCookie();
    }

    // ---------------------------------------------------------------- helpers

    /// <summary>
    /// Frees b-trees, largest root first; in auto-vacuum databases the last root moves into each freed root's place
    /// (as SQLite does) and sqlite_schema follows it.
    /// </summary>
    private void FreeRoots(List<uint> roots)
    {
        foreach (uint root in roots.OrderByDescending(r => r))
        {
            Mutator.FreeTree(root, keepRoot: false);
            if (!Mutator.Map.Enabled) continue;
            Mutator.Vacuum.CompactRoots(root, (from, to) =>
                UpdateSchemaRows(r => r.RootPage == from && r.Type is "table" or "index", r => r with { RootPage = to }));
        }
    }

    private SchemaStatement Parse(string sql, SchemaObjectKind kind)
    {
        SchemaStatement stmt;
        try
        {
            stmt = SchemaStatementParser.Parse(sql);
        }
        catch (SqlSyntaxException e)
        {
            throw new SharcException($"{e.Message} (line {e.Line}, column {e.Column})", e);
        }
        if (stmt.Kind != kind) throw new SharcException($"expected a CREATE {kind.ToString().ToUpperInvariant()} statement");
        // SQL routes a TEMP or qualified statement to the database it names; here it must name this one.
        string own = _db.SchemaName;
        bool temp = stmt.Temporary || (stmt.Schema is { } t && SqlNameComparer.Instance.Equals(t, "temp"));
        if (temp && !SqlNameComparer.Instance.Equals(own, "temp"))
            throw new SharcException("TEMP objects are not supported through the C# API: create them with SQL (CREATE TEMP TABLE …)");
        if (stmt.Schema is { } schema && !SqlNameComparer.Instance.Equals(schema, own))
            throw new SharcException($"unknown database {schema}");
        return stmt;
    }

    /// <summary>
    /// Reloads the schema with a new object in it. Whatever it names that does not resolve (a column of an index, say)
    /// fails the statement with SQLite's message for it, instead of reading as a corrupt schema.
    /// </summary>
    private void ReloadWithNew(string name)
    {
        try
        {
            _db.ReloadSchema();
        }
        catch (SharcCorruptException e) when (e.Message.Contains($"malformed database schema ({name}) - ", StringComparison.Ordinal))
        {
            string prefix = $"malformed database schema ({name}) - ";
            throw new SharcException(e.Message[(e.Message.IndexOf(prefix, StringComparison.Ordinal) + prefix.Length)..]);
        }
    }

    /// <summary>sqlite_stat1, sqlite_stat2, sqlite_stat3 or sqlite_stat4: ANALYZE's tables.</summary>
    internal static bool IsStatTable(string name)
        => name.Length == 12 && name.StartsWith("sqlite_stat", StringComparison.OrdinalIgnoreCase) && name[11] is >= '1' and <= '4';

    private static void CheckName(string name)
    {
        if (name.StartsWith("sqlite_", StringComparison.OrdinalIgnoreCase))
            throw new SharcException($"object name reserved for internal use: {name}");
    }

    private static bool HasIfNotExists(string sql)
    {
        var tokens = SqlLexer.Tokenize(sql);
        for (int i = 0; i + 2 < tokens.Count; i++)
        {
            if (Word(sql, tokens[i], "IF") && Word(sql, tokens[i + 1], "NOT") && Word(sql, tokens[i + 2], "EXISTS")) return true;
            if (tokens[i].Kind == SqlTokenKind.LeftParen) break;
        }
        return false;
    }

    private static bool Word(string sql, SqlToken t, string w) => t.Kind == SqlTokenKind.Identifier && SqlText.EqualsIgnoreCase(t.Text(sql), w);

    /// <summary>
    /// The text SQLite stores for a CREATE statement: "CREATE &lt;kind&gt; " and the statement from the unqualified
    /// object name (so TEMP, IF NOT EXISTS and a schema qualifier go) to where SQLite's parser stood when it finished
    /// the statement. That is the ")" of a table without options and the END of a trigger; a table with options and
    /// an index run on to the ';' or the end of the text, keeping the whitespace and comments before it; a view too,
    /// less trailing whitespace.
    /// </summary>
    internal static string StoredText(string sql, SchemaStatement st)
    {
        string kind;
        int end;
        switch (st.Kind)
        {
            case SchemaObjectKind.Table:
                kind = "TABLE";
                end = st.Table!.WithoutRowId || st.Table.Strict ? st.TerminatorStart : st.LastTokenEnd;
                break;
            case SchemaObjectKind.Index:
                kind = st.IsUnique ? "UNIQUE INDEX" : "INDEX";
                end = st.TerminatorStart;
                break;
            case SchemaObjectKind.View:
                kind = "VIEW";
                end = st.TerminatorStart;
                while (end > st.LastTokenEnd && sql[end - 1] is ' ' or (>= '\t' and <= '\r')) end--; // sqlite3Isspace
                break;
            default:
                kind = "TRIGGER";
                end = st.LastTokenEnd;
                break;
        }
        return "CREATE " + kind + " " + sql[st.NameStart..end];
    }

    private uint NewRoot(BTreePageType type)
    {
        // Auto-vacuum databases keep roots together at the start of the file.
        uint page = Mutator.Map.Enabled ? Mutator.Vacuum.PlaceRoot() : Mutator.Allocator.Allocate();
        var buf = _db.WritablePager.Write(page);
        PageWriter.Initialize(buf, page, type, _db.WritablePager.UsableSize);
        return page;
    }

    private void BumpCookie()
    {
        var p1 = _db.WritablePager.Write(1);
        BinaryPrimitives.WriteUInt32BigEndian(p1.AsSpan(40), BinaryPrimitives.ReadUInt32BigEndian(p1.AsSpan(40)) + 1);
        if (BinaryPrimitives.ReadUInt32BigEndian(p1.AsSpan(44)) == 0) BinaryPrimitives.WriteUInt32BigEndian(p1.AsSpan(44), 4);
        if (BinaryPrimitives.ReadUInt32BigEndian(p1.AsSpan(56)) == 0) BinaryPrimitives.WriteUInt32BigEndian(p1.AsSpan(56), (uint)Encoding);
        _db.MarkSchemaChanged();
    }

    internal readonly record struct Row(long RowId, string Type, string Name, string TableName, long RootPage, string? Sql);

    private List<Row> ReadSchemaRows()
    {
        var rows = new List<Row>();
        using var r = _db.CreateReader("sqlite_schema", "rowid", "type", "name", "tbl_name", "rootpage", "sql");
        while (r.Read())
            rows.Add(new Row(r.GetInt64(0), r.GetString(1) ?? "", r.GetString(2) ?? "", r.GetString(3) ?? "", r.GetInt64(4), r.GetString(5)));
        return rows;
    }

    private void InsertSchemaRow(string type, string name, string table, uint root, string? sql, IReadOnlyList<string>? columns = null)
    {
        long rowId = Mutator.MaxRowId(1) + 1;
        var row = new Row(rowId, type, name, table, root, sql);
        CheckReadsBack(row, columns);
        WriteSchemaRow(row);
    }

    /// <summary>
    /// Every sqlite_schema text Sharc writes passes here first: it must parse, with the parser that loads the schema,
    /// to the object the row names (type, name, table, and for a table <paramref name="columns"/> when given).
    /// Otherwise the database could not be opened again, so the statement fails before anything is written.
    /// </summary>
    private static void CheckReadsBack(Row r, IReadOnlyList<string>? columns)
    {
        if (r.Sql is null) return;
        string? problem;
        try
        {
            var st = SchemaBuilder.ParseStoredRow(new SchemaRow(r.Type, r.Name, r.TableName, r.RootPage, r.Sql));
            problem = st.Temporary ? "it reads back as a TEMP object"
                : st.Name != r.Name ? $"it reads back as {r.Type} {st.Name}"
                : columns is not null && st.Table is { } def && !def.Columns.Select(c => c.Name).SequenceEqual(columns, StringComparer.Ordinal)
                    ? $"it reads back with columns ({string.Join(", ", def.Columns.Select(c => c.Name))}), not ({string.Join(", ", columns)})"
                : null;
        }
        catch (SharcCorruptException e)
        {
            problem = e.Message;
        }
        if (problem is not null)
            throw new SharcSchemaTextException($"the schema text for {r.Type} {r.Name} does not read back: {problem}; nothing was changed", r.Sql);
    }

    private void WriteSchemaRow(Row r)
    {
        var codec = TextCodec.For(Encoding);
        var values = new[]
        {
            StoredValue.FromText(codec.GetBytes(r.Type)),
            StoredValue.FromText(codec.GetBytes(r.Name)),
            StoredValue.FromText(codec.GetBytes(r.TableName)),
            StoredValue.FromInteger(r.RootPage),
            r.Sql is null ? StoredValue.Null : StoredValue.FromText(codec.GetBytes(r.Sql)),
        };
        Mutator.TableInsert(1, r.RowId, RecordWriter.ToArray(values));
    }

    private void DeleteSchemaRows(Func<Row, bool> match)
    {
        foreach (var r in ReadSchemaRows())
            if (match(r)) Mutator.TableDelete(1, r.RowId);
    }

    /// <summary>
    /// Rewrites the rows <paramref name="match"/> picks. A changed text is checked (<see cref="CheckReadsBack"/>): a
    /// table keeps the columns it had unless <paramref name="columnsAfter"/> says what they become.
    /// </summary>
    private void UpdateSchemaRows(Func<Row, bool> match, Func<Row, Row> change, Func<Row, IReadOnlyList<string>?>? columnsAfter = null)
    {
        foreach (var r in ReadSchemaRows())
        {
            if (!match(r)) continue;
            var updated = change(r);
            if (updated.Sql != r.Sql || updated.Name != r.Name || updated.TableName != r.TableName || updated.Type != r.Type)
                CheckReadsBack(updated, columnsAfter?.Invoke(r) ?? ColumnsOf(r));
            WriteSchemaRow(updated);
        }
    }

    private static IReadOnlyList<string>? ColumnsOf(Row r)
    {
        if (r.Type != "table" || r.Sql is null) return null;
        try
        {
            return SchemaStatementParser.Parse(r.Sql).Table is { } def ? ColumnNames(def) : null;
        }
        catch (SqlSyntaxException)
        {
            return null;
        }
    }

    private static List<string> ColumnNames(TableDefinition def) => [.. def.Columns.Select(c => c.Name)];

    private void DeleteSequenceRow(string table)
    {
        if (_db.Schema.FindTable("sqlite_sequence") is null) return;
        using var r = _db.CreateReader("sqlite_sequence", "rowid", "name");
        long found = -1;
        while (r.Read()) if (SqlNameComparer.Instance.Equals(r.GetString(1), table)) { found = r.GetInt64(0); break; }
        if (found >= 0) Mutator.TableDelete(_db.Schema.GetTable("sqlite_sequence").RootPage, found);
    }

    private void RenameSequenceRow(string oldName, string newName)
    {
        var seq = _db.Schema.FindTable("sqlite_sequence");
        if (seq is null) return;
        long found = -1, value = 0;
        using (var r = _db.CreateReader("sqlite_sequence", "rowid", "name", "seq"))
            while (r.Read()) if (SqlNameComparer.Instance.Equals(r.GetString(1), oldName)) { found = r.GetInt64(0); value = r.GetInt64(2); break; }
        if (found < 0) return;
        var rec = RecordWriter.ToArray([StoredValue.FromText(TextCodec.For(Encoding).GetBytes(newName)), StoredValue.FromInteger(value)]);
        Mutator.TableInsert(seq.RootPage, found, rec);
    }

    /// <summary>The offset of the ")" that closes a CREATE TABLE column list.</summary>
    private static int ColumnListEnd(string sql)
    {
        var tokens = SqlLexer.Tokenize(sql);
        int depth = 0;
        foreach (var t in tokens)
        {
            if (t.Kind == SqlTokenKind.LeftParen) depth++;
            else if (t.Kind == SqlTokenKind.RightParen && --depth == 0) return t.Start;
        }
        throw new SharcCorruptException("the table's CREATE statement has no column list");
    }



}
