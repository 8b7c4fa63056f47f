using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Api;

/// <summary>Compares every table and index Sharc reads in a database with what real SQLite returns.</summary>
public static class OracleComparison
{
    /// <summary>
    /// For every readable table: all declared columns in storage order. For every index: the fields SQLite's
    /// index_xinfo lists (key columns, then the rowid or primary-key suffix), in index order. Returns how many objects were compared.
    /// </summary>
    public static int CompareAll(string path, SharcDatabase db)
    {
        int compared = 0;
        using var c = Oracle.Open(path, readOnly: true);
        foreach (var table in db.Schema.Tables)
        {
            if (table.IsVirtual || table.Columns.Any(col => col.Generated == SharcGeneratedKind.Virtual)) continue;
            if (table.Name.Equals("sqlite_schema", StringComparison.OrdinalIgnoreCase)) continue;
            string cols = string.Join(", ", table.Columns.Select(col => Quote(col.Name)));
            string order = table.IsWithoutRowId
                ? string.Join(", ", table.PrimaryKey.Select((p, i) => $"{Quote(table.Columns[p].Name)} COLLATE {table.PrimaryKeyCollations[i]} {(table.PrimaryKeyDescending[i] ? "DESC" : "ASC")}"))
                : "rowid";
            var expected = Oracle.Rows(c, $"SELECT {cols} FROM {Quote(table.Name)} ORDER BY {order}");
            var actual = SharcRows.All(db, table.Name);
            actual.ShouldEqual(expected, $"table {table.Name}");
            compared++;

            foreach (var index in table.Indexes)
            {
                // SQLite's own description of the index record: key columns, then the rowid or the primary-key
                // columns the key does not already hold with the same collation.
                var fields = Oracle.Rows(c, $"PRAGMA index_xinfo({Quote(index.Name)})");
                // Sharc reads a WITHOUT ROWID table's primary-key index as its key alone (the table is the rest).
                if (index.IsPrimaryKey && table.IsWithoutRowId) fields = fields.Where(f => (long)f[5]! != 0).ToList();
                var terms = fields.Select(f => (long)f[1]! switch
                {
                    -1 => "rowid",
                    -2 => index.Columns[(int)(long)f[0]!].ExpressionSql!,
                    _ => Quote((string)f[2]!),
                }).ToList();
                var orderTerms = fields.Select((f, i) => $"{terms[i]} COLLATE {f[4]} {((long)f[3]! != 0 ? "DESC" : "ASC")}");
                string where = index.WhereSql is null ? "" : $" WHERE {index.WhereSql}";
                var expectedIdx = Oracle.Rows(c, $"SELECT {string.Join(", ", terms)} FROM {Quote(table.Name)}{where} ORDER BY {string.Join(", ", orderTerms)}");
                var actualIdx = SharcRows.All(db, index.Name);
                actualIdx.ShouldEqual(expectedIdx, $"index {index.Name}");
                compared++;
            }
        }
        return compared;
    }

    public static string Quote(string name) => "\"" + name.Replace("\"", "\"\"") + "\"";
}
