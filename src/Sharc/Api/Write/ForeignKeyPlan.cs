using Sharc.BTree;
using Sharc.Format;
using Sharc.Schema.Parsing;
using Sharc.Sql.Execution;
using Sharc.Sql.Intent;

namespace Sharc.Write;

/// <summary>
/// One FOREIGN KEY resolved against the current schema, as SQLite's sqlite3FkLocateIndex resolves it: the parent key
/// is the parent's INTEGER PRIMARY KEY (a rowid lookup), its PRIMARY KEY, or a UNIQUE index over exactly the parent
/// columns with their declared collations; anything else is a "foreign key mismatch". Parent lookups seek that
/// b-tree; child rows are found by comparing <c>parent.col = child.col</c> with SQLite's comparison rules (the parent
/// column's collation wins, as it is the left operand SQLite builds).
/// </summary>
internal sealed class ForeignKeyPlan : IDisposable
{
    private ForeignKeyPlan(SharcTable child, SharcForeignKey fk, SharcTable parent)
    {
        Child = child;
        Key = fk;
        Parent = parent;
    }

    public SharcTable Child { get; }
    public SharcForeignKey Key { get; }
    public SharcTable Parent { get; }
    /// <summary>Parent column ordinal for each child column.</summary>
    public int[] ParentColumns { get; private set; } = [];
    /// <summary>True when the parent key is the rowid (INTEGER PRIMARY KEY).</summary>
    public bool ParentIsRowId { get; private set; }
    /// <summary>The b-tree holding the parent key (index root, or the WITHOUT ROWID table), when not the rowid.</summary>
    public uint ParentRoot { get; private set; }
    /// <summary>For each key field of that b-tree, which child column supplies it.</summary>
    public int[] KeyOrder { get; private set; } = [];
    public Collation[] Collations { get; private set; } = [];
    public bool[] Descending { get; private set; } = [];
    /// <summary>"p.k1 = c.f1 AND …" over bindings 0 (parent) and 1 (child): the rows that reference a parent row.</summary>
    public RowExpressions? Match { get; private set; }

    public void Dispose() => Match?.Dispose();

    public static ForeignKeyPlan Resolve(SharcDatabase db, SharcTable child, SharcForeignKey fk)
    {
        var parent = db.Schema.FindTable(fk.ParentTable) ?? throw new SharcException($"no such table: main.{fk.ParentTable}");
        var plan = new ForeignKeyPlan(child, fk, parent);
        if (!plan.Locate(parent)) throw new SharcException($"foreign key mismatch - \"{child.Name}\" referencing \"{parent.Name}\"");
        var terms = new List<string>();
        for (int i = 0; i < fk.Columns.Count; i++)
            terms.Add($"p.{Quote(parent.Columns[plan.ParentColumns[i]].Name)} = c.{Quote(child.Columns[fk.Columns[i]].Name)}");
        plan.Match = RowExpressions.Compile(db, [string.Join(" AND ", terms)],
            new RowBinding("p", parent, Unqualified: false), new RowBinding("c", child, Unqualified: false));
        return plan;
    }

    private static string Quote(string name) => "\"" + name.Replace("\"", "\"\"") + "\"";

    private bool Locate(SharcTable parent)
    {
        int n = Key.Columns.Count;
        var named = new int[Key.ParentColumns.Count];
        for (int i = 0; i < named.Length; i++)
        {
            var c = parent.FindColumn(Key.ParentColumns[i]);
            if (c is null) return false;
            named[i] = c.Ordinal;
        }
        if (named.Length == 0 && parent.RowIdAliasOrdinal >= 0 && n == 1 || named.Length == 1 && named[0] == parent.RowIdAliasOrdinal && named[0] >= 0)
        {
            ParentIsRowId = true;
            ParentColumns = [parent.RowIdAliasOrdinal];
            return true;
        }
        if (named.Length == 0)
        {
            // The parent's PRIMARY KEY, in key order.
            if (parent.PrimaryKey.Count != n) return false;
            named = [.. parent.PrimaryKey];
        }
        foreach (var index in parent.Indexes)
        {
            if (!(index.IsUnique || index.IsPrimaryKey) || index.IsPartial || index.Columns.Count != n) continue;
            var order = new int[n];
            bool fits = true;
            for (int k = 0; k < n && fits; k++)
            {
                var col = index.Columns[k];
                int at = Array.IndexOf(named, col.TableOrdinal);
                // Each index column must be a parent key column, sorted by that column's own collation.
                fits = col.ExpressionSql is null && at >= 0
                    && SqlText.EqualsIgnoreCase(col.Collation, parent.Columns[col.TableOrdinal].Collation);
                order[k] = at;
            }
            if (!fits || order.Distinct().Count() != n) continue;
            ParentColumns = named;
            ParentRoot = index.RootPage;
            KeyOrder = order;
            Collations = new Collation[n];
            Descending = new bool[n];
            for (int k = 0; k < n; k++)
            {
                CollationCompare.TryParse(index.Columns[k].Collation, out Collations[k]);
                Descending[k] = index.Columns[k].IsDescending;
            }
            return true;
        }
        return false;
    }

    /// <summary>True when any child key column of <paramref name="row"/> is NULL: such a row references nothing.</summary>
    public bool HasNullKey(StoredValue[] row)
    {
        foreach (int c in Key.Columns) if (row[c].Type == SharcColumnType.Null) return true;
        return false;
    }

    /// <summary>True when the parent row that <paramref name="childRow"/> references exists.</summary>
    public bool ParentExists(SharcDatabase db, StoredValue[] childRow)
    {
        var enc = db.TextEncoding;
        if (ParentIsRowId)
        {
            // SQLite's OP_MustBeInt: a value that is not (convertible to) an integer references no row.
            var v = StorageAffinity.FromObject(RowValues.ToObject(childRow[Key.Columns[0]], enc), SharcAffinity.Integer, enc);
            return v.Type == SharcColumnType.Integer && db.Mutator.TableContains(Parent.RootPage, v.Integer);
        }
        int n = KeyOrder.Length;
        var key = new StoredValue[n];
        for (int k = 0; k < n; k++)
        {
            int i = KeyOrder[k];
            // The child value takes the parent column's affinity before the seek (SQLite's OP_Affinity).
            key[k] = StorageAffinity.FromObject(RowValues.ToObject(childRow[Key.Columns[i]], enc), Parent.Columns[ParentColumns[i]].Affinity, enc);
        }
        return db.Mutator.IndexFindPrefix(ParentRoot, RecordWriter.ToArray(key), n, Collations, Descending, enc) is not null;
    }

    /// <summary>True when some parent key column of <paramref name="parentRow"/> is NULL (no child can reference it).</summary>
    public bool ParentKeyHasNull(StoredValue[] parentRow)
    {
        foreach (int c in ParentColumns) if (parentRow[c].Type == SharcColumnType.Null) return true;
        return false;
    }


    /// <summary>
    /// The child rows referencing a parent row (given as stored values in column order, the rowid alias filled in):
    /// a scan of the child table evaluating <see cref="Match"/>. Callers run it after the change, so a row of a
    /// self-referencing table that was deleted or re-keyed no longer counts as its own child.
    /// </summary>
    public List<(long RowId, StoredValue[] Row)> FindChildren(SharcDatabase db, StoredValue[] parentRow, long parentRowId)
    {
        var found = new List<(long, StoredValue[])>();
        if (ParentKeyHasNull(parentRow)) return found;
        var enc = db.TextEncoding;
        var p = new Sql.Values.SqlValue[parentRow.Length];
        RowValues.ToSqlRow(parentRow, Parent, enc, p);
        Match!.SetRow(0, p, parentRowId);
        var reader = db.WriterFor(Child.Name);
        using var cursor = new BTreeCursor(db.Source, Child.RootPage, db.Header.UsableSize, isIndex: Child.IsWithoutRowId);
        var rows = new List<(long, byte[])>();
        for (bool ok = cursor.MoveFirst(); ok; ok = cursor.MoveNext())
            rows.Add((Child.IsWithoutRowId ? 0 : cursor.RowId, cursor.GetPayload(cursor.PayloadSize).ToArray()));
        var c = new Sql.Values.SqlValue[Child.Columns.Count];
        foreach (var (rowId, payload) in rows)
        {
            var row = reader.ReadRow(payload, rowId);
            RowValues.ToSqlRow(row, Child, enc, c);
            Match.SetRow(1, c, rowId);
            if (Match.IsTrue(0)) found.Add((rowId, row));
        }
        return found;
    }
}
