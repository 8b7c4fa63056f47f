using FluentAssertions;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Sql.Writes;

/// <summary>
/// Prepared UPDATE and DELETE by rowid (which go straight to the writer) and the row API's Update, against SQLite on a
/// table with a UNIQUE text key, a NOCASE text index, a multi-column index and a partial UNIQUE index: seeded random
/// keys and values (NULLs, case-only changes, values that leave every index as it was, UNIQUE conflicts under each OR
/// action, keys that are not integers), in transactions that commit or roll back, and inside nested savepoints. Every execution must agree on
/// changes or error; after each batch both files read the same and Sharc's passes integrity_check.
/// </summary>
public class PreparedRowIdWriteTests
{
    private const string Schema = """
        CREATE TABLE item(id INTEGER PRIMARY KEY, sku TEXT NOT NULL UNIQUE, qty INT, price REAL, note TEXT COLLATE NOCASE, flag INT);
        CREATE INDEX item_qty ON item(qty);
        CREATE INDEX item_note ON item(note, price);
        CREATE UNIQUE INDEX item_flag ON item(flag) WHERE flag > 5;
        CREATE TABLE plain(a, b UNIQUE ON CONFLICT REPLACE, c);
        CREATE INDEX plain_ca ON plain(c, a)
        """;

    private static readonly string[] Statements =
    [
        "UPDATE item SET qty = ?1, note = ?2 WHERE id = ?3",
        "UPDATE item SET qty = ?1, note = ?2 WHERE id = ?3",
        "UPDATE OR REPLACE item SET sku = ?1 WHERE id = ?2",
        "UPDATE OR IGNORE item SET sku = ?1, flag = ?2 WHERE rowid = ?3",
        "UPDATE item SET flag = ?1, price = ?2 WHERE ?3 = item.id",
        "UPDATE OR FAIL item SET note = ?1, sku = ?2 WHERE _rowid_ = ?3",
        "DELETE FROM item WHERE id = ?1",
        "UPDATE plain SET b = ?1, c = ?2 WHERE rowid = ?3",
        "UPDATE plain SET a = ?1 WHERE rowid = ?2",
        "DELETE FROM plain WHERE oid = ?1",
    ];

    [Theory]
    [InlineData(1, 4096)]
    [InlineData(2, 512)]
    [InlineData(3, 1024)]
    public void Prepared_updates_and_deletes_by_rowid_match_sqlite(int seed, int pageSize)
    {
        using var o = new WriteOracle(new SharcCreateOptions { PageSize = pageSize });
        var rng = new Random(seed);
        Fill(o, rng);
        var prepared = Statements.Select(o.Db.Prepare).ToArray();
        try
        {
            for (int batch = 0; batch < 10; batch++)
            {
                bool tx = rng.Next(3) > 0;
                if (tx) o.Ok("BEGIN");
                for (int n = 0; n < 120; n++)
                {
                    RandomStatementAgrees(o, prepared, rng);
                }
                if (tx) o.Ok(rng.Next(4) == 0 ? "ROLLBACK" : "COMMIT");
                o.AssertSameContents();
            }
        }
        finally
        {
            foreach (var p in prepared) p.Dispose();
        }
    }

    [Theory]
    [InlineData(11, 4096)]
    [InlineData(12, 512)]
    public void Prepared_updates_and_deletes_by_rowid_inside_savepoints_match_sqlite(int seed, int pageSize)
    {
        using var o = new WriteOracle(new SharcCreateOptions { PageSize = pageSize });
        var rng = new Random(seed);
        Fill(o, rng);
        var prepared = Statements.Select(o.Db.Prepare).ToArray();
        try
        {
            for (int batch = 0; batch < 8; batch++)
            {
                // An outer savepoint or BEGIN, then nested savepoints each rolled back to or released after a run of
                // statements: the writer's in-place row and index rewrites must undo to the savepoint's image exactly.
                o.Ok(rng.Next(2) == 0 ? "BEGIN" : "SAVEPOINT outer0");
                int open = 0;
                for (int n = 0; n < 160; n++)
                {
                    if (n % 20 == 0)
                    {
                        if (open > 0 && rng.Next(2) == 0)
                        {
                            if (rng.Next(2) == 0) o.Ok($"ROLLBACK TO sp{open}");
                            o.Ok($"RELEASE sp{open--}");
                        }
                        else if (open < 3) o.Ok($"SAVEPOINT sp{++open}");
                    }
                    RandomStatementAgrees(o, prepared, rng);
                }
                if (open > 0 && rng.Next(2) == 0) o.Ok("ROLLBACK TO sp1");
                o.Ok(rng.Next(4) == 0 ? "ROLLBACK" : "COMMIT");
                o.AssertSameContents();
            }
        }
        finally
        {
            foreach (var p in prepared) p.Dispose();
        }
    }

    [Fact]
    public void Row_api_updates_match_sqlite_on_an_indexed_table()
    {
        using var o = new WriteOracle();
        foreach (var s in Schema.Split(';', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries)) o.Ok(s);
        var rng = new Random(5);
        for (int i = 1; i <= 200; i++)
            o.Both("INSERT OR IGNORE INTO item VALUES (?1, ?2, ?3, ?4, ?5, ?6)", i, "SKU-" + rng.Next(300), (long)rng.Next(30), rng.Next(1000) / 8.0, Note(rng), (long)rng.Next(12));
        string[][] columnSets = [["qty", "note"], ["sku"], ["price"], ["flag", "qty"], ["note", "sku", "price"]];
        for (int n = 0; n < 400; n++)
        {
            var columns = columnSets[rng.Next(columnSets.Length)];
            long id = rng.Next(1, 230);
            var values = columns.Select(c => Value(c, rng)).ToArray();
            string sql = $"UPDATE item SET {string.Join(", ", columns.Select((c, i) => $"{c} = ?{i + 1}"))} WHERE id = ?{columns.Length + 1}";
            var expected = o.RunSqlite(sql, [.. values, id]);
            bool? changed;
            try
            {
                changed = o.Db.Update("item", id, columns, values);
            }
            catch (SharcConstraintException)
            {
                changed = null;
            }
            (changed is null).Should().Be(expected.Error is not null, $"{sql} with id {id}: SQLite said {expected}");
            if (changed is not null) (changed.Value ? 1 : 0).Should().Be((int)expected.Changes, sql);
            if (n % 100 == 99) o.AssertSameContents();
        }
    }

    /// <summary>300 rows in each table, from <paramref name="rng"/>.</summary>
    private static void Fill(WriteOracle o, Random rng)
    {
        foreach (var s in Schema.Split(';', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries)) o.Ok(s);
        for (int i = 1; i <= 300; i++)
        {
            o.Both("INSERT OR IGNORE INTO item VALUES (?1, ?2, ?3, ?4, ?5, ?6)", i, "SKU-" + rng.Next(400), (long)rng.Next(30), rng.Next(1000) / 8.0, Note(rng), (long)rng.Next(12));
            o.Ok("INSERT INTO plain VALUES (?1, ?2, ?3)", (long)rng.Next(20), "b" + rng.Next(200), (long)rng.Next(10));
        }
    }

    /// <summary>Runs one of <see cref="Statements"/> with random arguments on both engines: same changes or same error.</summary>
    private static void RandomStatementAgrees(WriteOracle o, PreparedQuery[] prepared, Random rng)
    {
        int k = rng.Next(Statements.Length);
        var args = Arguments(Statements[k], rng);
        var expected = o.RunSqlite(Statements[k], args);
        var actual = Run(o.Db, prepared[k], args);
        actual.Should().Be(expected.Error is not null ? "error: " + expected.Error : "changes " + expected.Changes,
            $"{Statements[k]} with ({string.Join(", ", args.Select(a => a?.ToString() ?? "NULL"))})");
    }

    private static string Run(SharcDatabase db, PreparedQuery statement, object?[] args)
    {
        try
        {
            for (int i = 0; i < args.Length; i++) statement.Bind(i + 1, args[i]);
            statement.Execute().Dispose();
            return "changes " + db.LastChanges;
        }
        catch (SharcSqlException e)
        {
            return "error: " + e.SqliteMessage;
        }
        catch (SharcException e) when (e is not SharcCorruptException)
        {
            return "error: " + e.Message;
        }
    }

    private static object?[] Arguments(string sql, Random rng)
    {
        object? key = rng.Next(20) switch
        {
            0 => null,
            1 => rng.Next(1, 320).ToString(System.Globalization.CultureInfo.InvariantCulture), // text: SQLite converts it
            2 => (double)rng.Next(1, 320),
            3 => rng.Next(1, 320) + 0.5,
            _ => (long)rng.Next(1, 320),
        };
        if (sql.StartsWith("DELETE", StringComparison.Ordinal)) return [key];
        if (sql.Contains("plain SET b", StringComparison.Ordinal)) return ["b" + rng.Next(200), Maybe((long)rng.Next(10), rng), key];
        if (sql.Contains("plain SET a", StringComparison.Ordinal)) return [Maybe((long)rng.Next(20), rng), key];
        if (sql.Contains("SET qty", StringComparison.Ordinal)) return [Maybe((long)rng.Next(30), rng), Maybe(Note(rng), rng), key];
        if (sql.Contains("SET sku = ?1 WHERE", StringComparison.Ordinal)) return [Value("sku", rng), key];
        if (sql.Contains("SET sku = ?1, flag", StringComparison.Ordinal)) return [Value("sku", rng), Value("flag", rng), key];
        if (sql.Contains("SET flag", StringComparison.Ordinal)) return [Value("flag", rng), Value("price", rng), key];
        return [Value("note", rng), Value("sku", rng), key];
    }

    private static object? Value(string column, Random rng) => column switch
    {
        "sku" => rng.Next(15) == 0 ? null : "SKU-" + rng.Next(400),
        "qty" => Maybe((long)rng.Next(30), rng),
        "price" => Maybe(rng.Next(1000) / 8.0, rng),
        "flag" => Maybe((long)rng.Next(12), rng),
        _ => Maybe(Note(rng), rng),
    };

    /// <summary>Notes that often differ only in case (equal under the index's NOCASE collation).</summary>
    private static string Note(Random rng) => (rng.Next(2) == 0 ? "note " : "NOTE ") + rng.Next(15);

    private static object? Maybe(object value, Random rng) => rng.Next(10) == 0 ? null : value;
}
