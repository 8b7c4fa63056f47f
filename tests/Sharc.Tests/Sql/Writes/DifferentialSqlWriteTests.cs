using FluentAssertions;

namespace Sharc.Tests.Sql.Writes;

/// <summary>
/// Seeded random SQL writes — INSERT with every conflict action, UPDATE and DELETE with WHERE, RETURNING,
/// transactions and savepoints — run on Sharc and SQLite side by side. Every statement must agree (changes, rows,
/// errors); after each batch the files read the same and Sharc's passes SQLite's integrity_check.
/// </summary>
public class DifferentialSqlWriteTests
{
    private const string Schema = """
        CREATE TABLE t(id INTEGER PRIMARY KEY, a INT UNIQUE, b TEXT, c REAL NOT NULL DEFAULT 0.5, d BLOB);
        CREATE INDEX t_b ON t(b COLLATE NOCASE, c);
        CREATE TABLE w(k TEXT, n INT, v, PRIMARY KEY(k, n)) WITHOUT ROWID;
        CREATE UNIQUE INDEX w_v ON w(v);
        CREATE TABLE p(x, y TEXT UNIQUE NOT NULL)
        """;

    [Theory]
    [InlineData(1, 4096, SharcTextEncoding.Utf8, SharcAutoVacuum.None)]
    [InlineData(2, 512, SharcTextEncoding.Utf16LE, SharcAutoVacuum.None)]
    [InlineData(3, 1024, SharcTextEncoding.Utf8, SharcAutoVacuum.Full)]
    [InlineData(4, 4096, SharcTextEncoding.Utf16BE, SharcAutoVacuum.Incremental)]
    public void Random_sql_writes_match_sqlite(int seed, int pageSize, SharcTextEncoding encoding, SharcAutoVacuum autoVacuum)
    {
        using var o = new WriteOracle(new SharcCreateOptions { PageSize = pageSize, TextEncoding = encoding, AutoVacuum = autoVacuum });
        foreach (var s in Schema.Split(';', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries)) o.Ok(s);
        var rng = new Random(seed);
        for (int batch = 0; batch < 12; batch++)
        {
            bool explicitTx = rng.Next(3) == 0;
            bool savepoint = false;
            if (explicitTx) o.Ok(rng.Next(2) == 0 ? "BEGIN" : "SAVEPOINT sp0");
            for (int i = 0; i < 25; i++)
            {
                if (explicitTx && !savepoint && rng.Next(12) == 0)
                {
                    o.Ok("SAVEPOINT inner1");
                    savepoint = true;
                }
                string sql = Statement(rng);
                if (o.Both(sql).Error is not null && sql.Contains("OR ROLLBACK", StringComparison.Ordinal) && explicitTx)
                {
                    explicitTx = savepoint = false; // the transaction is over, in both
                }
                if (savepoint && rng.Next(8) == 0)
                {
                    o.Ok(rng.Next(2) == 0 ? "ROLLBACK TO inner1" : "RELEASE inner1");
                    savepoint = false;
                }
            }
            if (explicitTx) o.Ok(rng.Next(4) == 0 ? "ROLLBACK" : "COMMIT");
            o.AssertSameContents();
        }
    }

    private static string Statement(Random rng)
    {
        string[] actions = ["", "OR IGNORE ", "OR REPLACE ", "OR FAIL ", "OR ABORT ", "OR ROLLBACK "];
        string action = actions[rng.Next(rng.Next(4) == 0 ? actions.Length : 3)];
        string returning = rng.Next(4) == 0 ? " RETURNING *" : rng.Next(6) == 0 ? " RETURNING id, a * 2, typeof(c)" : "";
        switch (rng.Next(10))
        {
            case 0:
            case 1:
            case 2:
            {
                int rows = 1 + rng.Next(3);
                var values = Enumerable.Range(0, rows).Select(_ => $"({Id(rng)}, {Value(rng, 40)}, {Text(rng)}, {Real(rng)}, {Blob(rng)})");
                return $"INSERT {action}INTO t VALUES {string.Join(", ", values)}{returning}";
            }
            case 3:
                return $"INSERT {action}INTO t(a, b) SELECT a + {rng.Next(1, 50)}, b || 'z' FROM t WHERE id % {rng.Next(2, 5)} = 0{(returning.Contains("id") ? "" : returning)}";
            case 4:
                return $"UPDATE {action}t SET a = {Value(rng, 40)}, c = c + 1 WHERE id = {Id(rng)}{returning}";
            case 5:
                return $"UPDATE {action}t SET b = {Text(rng)}, c = {Real(rng)} WHERE a > {rng.Next(40)}{returning}";
            case 6:
                return $"DELETE FROM t WHERE {(rng.Next(2) == 0 ? $"id = {Id(rng)}" : $"a BETWEEN {rng.Next(40)} AND {rng.Next(40)}")}{returning}";
            case 7:
            {
                string keyed = rng.Next(3) switch
                {
                    0 => "",
                    1 => rng.Next(2) == 0 ? " ON CONFLICT DO NOTHING" : " ON CONFLICT(n, k) DO NOTHING",
                    _ => " ON CONFLICT(k, n) DO UPDATE SET v = coalesce(v, 0) + excluded.v" + (rng.Next(2) == 0 ? $", n = n + {rng.Next(3)}" : "")
                        + (rng.Next(3) == 0 ? " WHERE excluded.v IS NOT NULL" : ""),
                };
                return $"INSERT {(keyed.Length > 0 ? "" : action)}INTO w VALUES ({Text(rng)}, {rng.Next(4)}, {Value(rng, 100)}){keyed}{(rng.Next(3) == 0 ? " RETURNING k, n, v" : "")}";
            }
            case 8:
                return rng.Next(3) switch
                {
                    0 => $"UPDATE {action}w SET v = {Value(rng, 100)} WHERE n = {rng.Next(4)}",
                    1 => $"UPDATE {action}w SET n = {(rng.Next(2) == 0 ? "n + 1" : rng.Next(4).ToString(System.Globalization.CultureInfo.InvariantCulture))} WHERE k = {Text(rng)}{(rng.Next(3) == 0 ? " RETURNING *" : "")}",
                    _ => $"DELETE FROM w WHERE k = {Text(rng)}",
                };
            default:
                string upsert = rng.Next(3) switch
                {
                    0 => "",
                    1 => " ON CONFLICT DO NOTHING",
                    _ => " ON CONFLICT(y) DO UPDATE SET x = coalesce(x, 0) + excluded.x WHERE excluded.x IS NOT NULL",
                };
                return $"INSERT {(upsert.Length > 0 ? "" : action)}INTO p VALUES ({Value(rng, 10)}, {(rng.Next(5) == 0 ? "NULL" : Text(rng))}){upsert}{(rng.Next(4) == 0 ? " RETURNING *" : "")}";
        }
    }

    private static string Id(Random rng) => rng.Next(5) == 0 ? "NULL" : rng.Next(1, 30).ToString(System.Globalization.CultureInfo.InvariantCulture);

    private static string Value(Random rng, int range) => rng.Next(8) switch
    {
        0 => "NULL",
        1 => $"'{rng.Next(range)}'",
        2 => $"{rng.Next(range)}.0",
        _ => rng.Next(range).ToString(System.Globalization.CultureInfo.InvariantCulture),
    };

    private static string Text(Random rng) => rng.Next(6) switch
    {
        0 => "NULL",
        1 => rng.Next(100).ToString(System.Globalization.CultureInfo.InvariantCulture),
        _ => $"'{(char)('a' + rng.Next(6))}{(rng.Next(2) == 0 ? "" : new string('x', rng.Next(300)))}'",
    };

    private static string Real(Random rng) => rng.Next(4) == 0 ? "NULL" : (rng.Next(-100, 100) / 4.0).ToString("R", System.Globalization.CultureInfo.InvariantCulture);

    private static string Blob(Random rng) => rng.Next(3) == 0 ? "NULL" : $"x'{Convert.ToHexString(BitConverter.GetBytes(rng.Next()))}'";
}
