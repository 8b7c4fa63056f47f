using Sharc.Sql.Values;

namespace Sharc.Sql.Writes;

/// <summary>The schema-listing pragmas: table_info, table_xinfo, index_list, index_info, index_xinfo.</summary>
internal static partial class Pragmas
{
    private static StatementOutcome TableInfo(SharcDatabase db, string name, bool extended)
    {
        string[] columns = extended ? ["cid", "name", "type", "notnull", "dflt_value", "pk", "hidden"] : ["cid", "name", "type", "notnull", "dflt_value", "pk"];
        var rows = new List<SqlValue[]>();
        if (db.Schema.FindTable(name) is { } table)
        {
            int cid = 0;
            foreach (var c in table.Columns)
            {
                int hidden = c.Generated switch
                {
                    SharcGeneratedKind.Virtual => 2,
                    SharcGeneratedKind.Stored => 3,
                    _ => c.IsHidden ? 1 : 0,
                };
                if (!extended && hidden != 0) continue;
                var row = new List<SqlValue>
                {
                    SqlValue.Integer(cid++),
                    SqlValue.Text(c.Name),
                    SqlValue.Text(c.DeclaredType),
                    SqlValue.Integer(c.IsNotNull ? 1 : 0),
                    c.DefaultSql is null ? SqlValue.Null : SqlValue.Text(c.DefaultSql),
                    SqlValue.Integer(c.IsPrimaryKey ? c.PrimaryKeyPosition + 1 : 0),
                };
                if (extended) row.Add(SqlValue.Integer(hidden));
                rows.Add([.. row]);
            }
        }
        else if (db.Schema.FindView(name) is { } view)
        {
            var plan = Planning.QueryPlan.Create(db.Schema, "SELECT * FROM \"" + view.Name.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"");
            for (int i = 0; i < plan.Columns.Length; i++)
            {
                var c = plan.Columns[i];
                var row = new List<SqlValue>
                {
                    SqlValue.Integer(i), SqlValue.Text(c.Name), SqlValue.Text(c.Column?.DeclaredType ?? ""),
                    SqlValue.Integer(0), SqlValue.Null, SqlValue.Integer(0),
                };
                if (extended) row.Add(SqlValue.Integer(0));
                rows.Add([.. row]);
            }
        }
        return Rows(columns, rows);
    }

    /// <summary>index_list: newest index first, as SQLite keeps a table's indexes.</summary>
    private static StatementOutcome IndexList(SharcDatabase db, string name)
    {
        var rows = new List<SqlValue[]>();
        if (db.Schema.FindTable(name) is { } table)
        {
            int seq = 0;
            for (int i = table.Indexes.Count - 1; i >= 0; i--)
            {
                var ix = table.Indexes[i];
                string origin = !ix.IsAutoIndex && !ix.IsPrimaryKey ? "c" : IsPrimaryKeyIndex(table, ix) ? "pk" : "u";
                rows.Add([SqlValue.Integer(seq++), SqlValue.Text(ix.Name), SqlValue.Integer(ix.IsUnique ? 1 : 0), SqlValue.Text(origin), SqlValue.Integer(ix.IsPartial ? 1 : 0)]);
            }
        }
        return Rows(["seq", "name", "unique", "origin", "partial"], rows);
    }

    private static bool IsPrimaryKeyIndex(SharcTable table, SharcIndex ix)
    {
        if (ix.IsPrimaryKey) return true;
        if (ix.Columns.Count != table.PrimaryKey.Count) return false;
        for (int i = 0; i < ix.Columns.Count; i++)
            if (ix.Columns[i].TableOrdinal != table.PrimaryKey[i]) return false;
        return true;
    }

    private static StatementOutcome IndexInfo(SharcDatabase db, string name, bool extended)
    {
        string[] columns = extended ? ["seqno", "cid", "name", "desc", "coll", "key"] : ["seqno", "cid", "name"];
        var rows = new List<SqlValue[]>();
        if (db.Schema.FindIndex(name) is { } ix && db.Schema.FindTable(ix.TableName) is { } table)
        {
            int seq = 0;
            foreach (var k in ix.Columns)
                rows.Add(Row(seq++, k.TableOrdinal, k.TableOrdinal >= 0 ? table.Columns[k.TableOrdinal].Name : null, k.IsDescending, k.Collation, true));
            if (extended)
            {
                if (!table.IsWithoutRowId)
                {
                    rows.Add(Row(seq, -1, null, false, "BINARY", false));
                }
                else
                {
                    for (int p = 0; p < table.PrimaryKey.Count; p++)
                    {
                        int o = table.PrimaryKey[p];
                        if (ix.Columns.Any(k => k.TableOrdinal == o)) continue;
                        string coll = p < table.PrimaryKeyCollations.Count && table.PrimaryKeyCollations[p] is { } c ? c : "BINARY";
                        bool desc = p < table.PrimaryKeyDescending.Count && table.PrimaryKeyDescending[p];
                        rows.Add(Row(seq++, o, table.Columns[o].Name, desc, coll, false));
                    }
                }
            }
        }
        return Rows(columns, rows);

        SqlValue[] Row(int seqno, int cid, string? column, bool desc, string coll, bool key)
        {
            var name = column is null ? SqlValue.Null : SqlValue.Text(column);
            return extended
                ? [SqlValue.Integer(seqno), SqlValue.Integer(cid), name, SqlValue.Integer(desc ? 1 : 0), SqlValue.Text(coll.ToUpperInvariant() is "BINARY" or "NOCASE" or "RTRIM" ? coll.ToUpperInvariant() : coll), SqlValue.Integer(key ? 1 : 0)]
                : [SqlValue.Integer(seqno), SqlValue.Integer(cid), name];
        }
    }
}
