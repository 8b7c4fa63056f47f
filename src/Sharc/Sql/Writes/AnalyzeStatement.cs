using System.Globalization;
using System.Text;
using Sharc.Schema;
using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using Sharc.Sql.Execution;
using Sharc.Write;

namespace Sharc.Sql.Writes;

/// <summary>
/// ANALYZE, ANALYZE schema, ANALYZE table or index (qualified or not): sqlite_stat1 rows as SQLite's analyze.c writes
/// them. Per index with rows: "nRow a1 … ak", where ai is the average number of rows sharing the index's first i key
/// columns, (nRow + d − 1) / d for d distinct prefixes (NULLs equal, each column under its collation), rounded down
/// to 1 when it is 2 and the duplicates are under 10 %; the WITHOUT ROWID primary key is the index named after its
/// table. A table with rows and no index gets (table, NULL, nRow). Empty tables and indexes get no row; sqlite_*
/// tables are skipped. The old rows of what is analyzed are replaced; sqlite_stat1 is created when missing.
/// </summary>
internal static class AnalyzeStatement
{
    private const string StatTableSql = "CREATE TABLE sqlite_stat1(tbl,idx,stat)";

    public static StatementOutcome Run(SharcDatabase db, string sql, SqlAnalyzeStatement analyze)
    {
        var target = db.FindDatabase("main")!;
        string? table = null, index = null;
        if (analyze.Qualifier is { } q)
        {
            target = db.FindDatabase(q) ?? throw new SharcSqlException($"unknown database {q}", sql, analyze.Start);
            Resolve(target, analyze.Name!, sql, analyze, ref table, ref index);
        }
        else if (analyze.Name is { } name)
        {
            if (db.FindDatabase(name) is { } named) target = named;
            else Resolve(target, name, sql, analyze, ref table, ref index);
        }
        if (!target.IsWritable) throw new SharcReadOnlyException();
        var transaction = target.InExplicitTransaction || db.InExplicitTransaction ? null : target.BeginTransaction();
        try
        {
            Analyze(target, table, index);
            transaction?.Commit();
        }
        finally
        {
            transaction?.Dispose();
        }
        return StatementOutcome.None;
    }

    private static void Resolve(SharcDatabase db, string name, string sql, SqlAnalyzeStatement analyze, ref string? table, ref string? index)
    {
        if (db.Schema.FindIndex(name) is { } ix) index = ix.Name;
        else if (db.Schema.FindTable(name) is { } t) table = t.Name;
        else throw new SharcSqlException($"no such table: {name}", sql, analyze.Start);
    }

    private static void Analyze(SharcDatabase db, string? onlyTable, string? onlyIndex)
    {
        if (db.Schema.FindTable("sqlite_stat1") is null)
            db.RunWrite(StatTableSql, static (d, s) =>
            {
                new SchemaWriter(d) { AllowStatTables = true }.CreateTable(s);
                return 0;
            });
        if (onlyIndex is not null) db.Execute("DELETE FROM sqlite_stat1 WHERE idx = ?", onlyIndex);
        else if (onlyTable is not null) db.Execute("DELETE FROM sqlite_stat1 WHERE tbl = ?", onlyTable);
        else db.Execute("DELETE FROM sqlite_stat1");
        var schema = db.Schema;
        foreach (var table in schema.Tables)
        {
            if (table.IsVirtual || table.Name.StartsWith("sqlite_", StringComparison.OrdinalIgnoreCase)) continue;
            if (onlyTable is not null && !SqlNameComparer.Instance.Equals(onlyTable, table.Name)) continue;
            var keys = new List<(string Name, string? Where, List<string> Terms)>();
            if (table.IsWithoutRowId)
            {
                var terms = new List<string>();
                for (int i = 0; i < table.PrimaryKey.Count; i++)
                    terms.Add(Quote(table.Columns[table.PrimaryKey[i]].Name) + " COLLATE " + table.PrimaryKeyCollations[i]);
                keys.Add((table.Name, null, terms));
            }
            foreach (var ix in schema.Indexes)
            {
                // A WITHOUT ROWID table's primary key is the table's own b-tree: it was added above, under the table's name.
                if (!SqlNameComparer.Instance.Equals(ix.TableName, table.Name) || ix.IsPrimaryKey) continue;
                keys.Add((ix.Name, ix.WhereSql, ix.Columns.Select(c => "(" + (c.ExpressionSql ?? Quote(c.Name!)) + ") COLLATE " + c.Collation).ToList()));
            }
            if (onlyIndex is not null)
            {
                keys.RemoveAll(k => !SqlNameComparer.Instance.Equals(k.Name, onlyIndex));
                if (keys.Count == 0) continue;
            }
            string from = " FROM " + Quote(table.Name);
            if (keys.Count == 0)
            {
                long rows = Count(db, "SELECT count(*)" + from);
                if (rows > 0) db.Execute("INSERT INTO sqlite_stat1 VALUES (?, NULL, ?)", table.Name, rows.ToString(CultureInfo.InvariantCulture));
                continue;
            }
            foreach (var (name, where, terms) in keys)
            {
                string rowsOf = from + (where is null ? "" : " WHERE " + where);
                long rows = Count(db, "SELECT count(*)" + rowsOf);
                if (rows == 0) continue;
                var stat = new StringBuilder(rows.ToString(CultureInfo.InvariantCulture));
                for (int k = 1; k <= terms.Count; k++)
                {
                    long distinct = Count(db, $"SELECT count(*) FROM (SELECT DISTINCT {string.Join(", ", terms.Take(k))}{rowsOf})");
                    long average = (rows + distinct - 1) / distinct;
                    // SQLite's rounding: nearly unique prefixes read as unique.
                    if (average == 2 && rows * 10 <= distinct * 11) average = 1;
                    stat.Append(' ').Append(average.ToString(CultureInfo.InvariantCulture));
                }
                db.Execute("INSERT INTO sqlite_stat1 VALUES (?, ?, ?)", table.Name, name, stat.ToString());
            }
        }
    }

    private static long Count(SharcDatabase db, string sql)
    {
        using var r = db.Query(sql);
        r.Read();
        return r.GetInt64(0);
    }

    private static string Quote(string name) => "\"" + name.Replace("\"", "\"\"") + "\"";
}
