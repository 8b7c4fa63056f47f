using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Api;

/// <summary>Compares every table and index Sharc reads in a database with what real SQLite returns.</summary>
public static class OracleComparison
{
    /// <summary>
    /// For every readable table: all declared columns in storage order. For every index: key columns then the rowid
    /// (or primary-key suffix), in index order. Returns how many objects were compared.
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
                var keys = index.Columns.Select(k => k.ExpressionSql ?? Quote(k.Name!)).ToList();
                var suffix = table.IsWithoutRowId
                    ? table.PrimaryKey.Where(p => index.Columns.All(k => k.TableOrdinal != p)).Select(p => Quote(table.Columns[p].Name)).ToList()
                    : ["rowid"];
                var orderTerms = index.Columns.Select((k, i) => $"{keys[i]} COLLATE {k.Collation} {(k.IsDescending ? "DESC" : "ASC")}").ToList();
                if (table.IsWithoutRowId)
                    orderTerms.AddRange(table.PrimaryKey.Select((p, i) => (p, i)).Where(x => index.Columns.All(k => k.TableOrdinal != x.p))
                        .Select(x => $"{Quote(table.Columns[x.p].Name)} COLLATE {table.PrimaryKeyCollations[x.i]} {(table.PrimaryKeyDescending[x.i] ? "DESC" : "ASC")}"));
                else orderTerms.Add("rowid");
                string where = index.WhereSql is null ? "" : $" WHERE {index.WhereSql}";
                var expectedIdx = Oracle.Rows(c, $"SELECT {string.Join(", ", keys.Concat(suffix))} FROM {Quote(table.Name)}{where} ORDER BY {string.Join(", ", orderTerms)}");
                var actualIdx = SharcRows.All(db, index.Name);
                actualIdx.ShouldEqual(expectedIdx, $"index {index.Name}");
                compared++;
            }
        }
        return compared;
    }

    public static string Quote(string name) => "\"" + name.Replace("\"", "\"\"") + "\"";
}
