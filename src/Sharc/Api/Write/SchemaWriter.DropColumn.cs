using Sharc.BTree;
using Sharc.Format;
using Sharc.Schema.Parsing;

namespace Sharc.Write;

/// <summary>
/// ALTER TABLE … DROP COLUMN with SQLite 3.35's rules: PRIMARY KEY, UNIQUE and indexed columns, and columns that
/// the table's other CHECKs, generated columns or table FOREIGN KEYs use, are refused with SQLite's messages; otherwise the
/// column's definition is cut out of the CREATE TABLE text as SQLite cuts it and every row is rewritten without it.
/// </summary>
internal sealed partial class SchemaWriter
{
    public void DropColumn(string tableName, string columnName)
    {
        var table = AlterTarget(tableName, $"cannot drop column from view \"{tableName}\"");
        if (table.Name.StartsWith("sqlite_", StringComparison.OrdinalIgnoreCase)) throw new SharcException($"table {Shown(table)} may not be altered");
        if (table.IsVirtual) throw new SharcException("virtual tables may not be altered");
        var column = table.FindColumn(columnName) ?? throw new SharcException($"no such column: \"{columnName}\"");
        if (column.IsPrimaryKey) throw new SharcException($"cannot drop PRIMARY KEY column: \"{column.Name}\"");
        if (column.IsUnique || table.Indexes.Any(ix => ix.IsAutoIndex && ix.Columns.Any(k => k.TableOrdinal == column.Ordinal)))
            throw new SharcException($"cannot drop UNIQUE column: \"{column.Name}\"");
        if (table.Columns.Count <= 1) throw new SharcException($"cannot drop column \"{column.Name}\": no other columns exist");
        CheckNotUsed(table, column);

        string newSql = CutColumn(table.Sql, column.Ordinal);
        var newTable = Parse(newSql, SchemaObjectKind.Table).Table!.ToSharcTable(table.RootPage, newSql);
        RewriteRows(table, newTable, column.Ordinal);
        UpdateSchemaRows(r => r.Type == "table" && SqlNameComparer.Instance.Equals(r.Name, table.Name), r => r with { Sql = newSql },
            _ => [.. table.Columns.Where(c => !ReferenceEquals(c, column)).Select(c => c.Name)]);
        BumpCookie();
    }

    /// <summary>What SQLite's re-parse of the schema without the column would report, for the table and its indexes.</summary>
    private static void CheckNotUsed(SharcTable table, SharcColumn column)
    {
        string prefix = $"error in table {table.Name} after drop column: ";
        foreach (var c in table.Columns)
            if (c.GeneratedSql is { } g && Mentions(g, column.Name)) throw new SharcException(prefix + $"no such column: {column.Name}");
        foreach (var check in table.Checks)
            if (check.ColumnOrdinal != column.Ordinal && Mentions(check.ExpressionSql, column.Name)) throw new SharcException(prefix + $"no such column: {column.Name}");
        foreach (var fk in table.ForeignKeys)
            if (!fk.IsColumnConstraint && fk.Columns.Contains(column.Ordinal)) throw new SharcException(prefix + $"unknown column \"{column.Name}\" in foreign key definition");
        foreach (var ix in table.Indexes)
        {
            if (ix.IsAutoIndex) continue;
            bool uses = ix.Columns.Any(k => k.TableOrdinal == column.Ordinal || (k.ExpressionSql is { } e && Mentions(e, column.Name)))
                || (ix.WhereSql is { } w && Mentions(w, column.Name));
            if (uses) throw new SharcException($"error in index {ix.Name} after drop column: no such column: {column.Name}");
        }
    }

    private static bool Mentions(string sql, string name)
    {
        foreach (var t in SqlLexer.Tokenize(sql))
            if (t.Kind is SqlTokenKind.Identifier or SqlTokenKind.QuotedIdentifier && SqlNameComparer.Instance.Equals(SqlText.Dequote(t.Text(sql)), name))
                return true;
        return false;
    }

    /// <summary>
    /// SQLite's cut: a column that is not the last loses the text from its name to the next column's name; the last
    /// column loses the text from the comma before it to the end of the column definitions.
    /// </summary>
    private static string CutColumn(string sql, int ordinal)
    {
        var tokens = SqlLexer.Tokenize(sql);
        var starts = new List<int>();
        int depth = 0, defsEnd = -1;
        bool expectDef = false;
        foreach (var t in tokens)
        {
            if (t.Kind == SqlTokenKind.LeftParen && ++depth == 1) { expectDef = true; continue; }
            if (t.Kind == SqlTokenKind.RightParen && --depth == 0) { if (defsEnd < 0) defsEnd = t.Start; break; }
            if (depth != 1) continue;
            if (t.Kind == SqlTokenKind.Comma) { expectDef = true; continue; }
            if (!expectDef) continue;
            expectDef = false;
            bool constraint = t.Kind == SqlTokenKind.Identifier && t.Text(sql) is var w
                && (SqlText.EqualsIgnoreCase(w, "CONSTRAINT") || SqlText.EqualsIgnoreCase(w, "PRIMARY") || SqlText.EqualsIgnoreCase(w, "UNIQUE")
                    || SqlText.EqualsIgnoreCase(w, "CHECK") || SqlText.EqualsIgnoreCase(w, "FOREIGN"));
            if (constraint && defsEnd < 0)
            {
                // The table constraints begin: the column definitions end at the comma before them.
                int comma = sql.LastIndexOf(',', t.Start);
                defsEnd = comma;
            }
            if (defsEnd < 0) starts.Add(t.Start);
        }
        if (ordinal < starts.Count - 1) return sql[..starts[ordinal]] + sql[starts[ordinal + 1]..];
        int from = sql.LastIndexOf(',', starts[ordinal]);
        return sql[..from] + sql[defsEnd..];
    }

    /// <summary>Every row again, without the dropped column's field (rows shorter than the table get their defaults, as SQLite's rewrite reads them).</summary>
    private void RewriteRows(SharcTable table, SharcTable newTable, int dropped)
    {
        var writer = _db.WriterFor(table.Name);
        var rows = new List<(long RowId, byte[] Payload)>();
        using (var cursor = new BTreeCursor(_db.Source, table.RootPage, _db.Header.UsableSize, isIndex: table.IsWithoutRowId))
            for (bool ok = cursor.MoveFirst(); ok; ok = cursor.MoveNext())
                rows.Add((table.IsWithoutRowId ? 0 : cursor.RowId, cursor.GetPayload(cursor.PayloadSize).ToArray()));
        int[] fieldOf = ReaderPlan.TableFieldMap(newTable);
        int fieldCount = fieldOf.Max() + 1;
        var pkCollations = new Collation[table.PrimaryKey.Count];
        var pkDescending = new bool[table.PrimaryKey.Count];
        for (int i = 0; i < pkCollations.Length; i++)
        {
            CollationCompare.TryParse(table.PrimaryKeyCollations[i], out pkCollations[i]);
            pkDescending[i] = table.PrimaryKeyDescending[i];
        }
        foreach (var (rowId, payload) in rows)
        {
            var old = writer.ReadRow(payload, rowId);
            var fields = new StoredValue[fieldCount];
            for (int c = 0, n = 0; c < old.Length; c++)
            {
                if (c == dropped) continue;
                int f = fieldOf[n];
                if (f >= 0) fields[f] = newTable.Columns[n].IsRowIdAlias ? StoredValue.Null : old[c];
                n++;
            }
            var record = RecordWriter.ToArray(fields);
            if (!table.IsWithoutRowId)
            {
                Mutator.TableInsert(table.RootPage, rowId, record);
                continue;
            }
            Mutator.IndexDelete(table.RootPage, payload, pkCollations, pkDescending, Encoding);
            Mutator.IndexInsert(table.RootPage, record, pkCollations, pkDescending, Encoding);
        }
    }
}
