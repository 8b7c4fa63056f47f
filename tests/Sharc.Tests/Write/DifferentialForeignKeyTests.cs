using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>
/// Seeded random parent/child workloads with every kind of foreign key action, immediate and deferred, applied to
/// Sharc (ForeignKeysEnabled) and to SQLite (PRAGMA foreign_keys=ON) side by side: each statement succeeds or fails
/// in both, each commit succeeds or fails in both, and after every transaction integrity_check is ok and the
/// contents are equal.
/// </summary>
public sealed class DifferentialForeignKeyTests
{
    private static readonly string[] Schema =
    [
        "CREATE TABLE p(id INTEGER PRIMARY KEY, code TEXT UNIQUE COLLATE NOCASE, n INT)",
        "CREATE TABLE c(id INTEGER PRIMARY KEY, pid INT REFERENCES p ON DELETE CASCADE ON UPDATE CASCADE, " +
            "pcode TEXT REFERENCES p(code) ON DELETE SET NULL ON UPDATE NO ACTION, v INT)",
        "CREATE INDEX c_pid ON c(pid)",
        "CREATE TABLE d(id INTEGER PRIMARY KEY, cid INT DEFAULT 1 REFERENCES c ON DELETE SET DEFAULT, " +
            "pid INT REFERENCES p ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED)",
        "CREATE TABLE e(k TEXT PRIMARY KEY, pid INT REFERENCES p DEFERRABLE INITIALLY DEFERRED, up TEXT REFERENCES e ON DELETE CASCADE) WITHOUT ROWID",
    ];

    private static readonly string[] Tables = ["p", "c", "d", "e"];

    [Theory]
    [InlineData(31)]
    [InlineData(32)]
    [InlineData(33)]
    public void Random_parent_child_workload_matches_sqlite(int seed)
    {
        using var twin = new WriteTwin(foreignKeys: true);
        twin.Schema(Schema);
        var rng = new Random(seed);
        int statements = 0, failures = 0;
        for (int txn = 0; txn < 25; txn++)
        {
            bool explicitTx = rng.Next(3) > 0;
            SharcTransaction? tx = null;
            if (explicitTx)
            {
                Oracle.Exec(twin.Sqlite, "BEGIN");
                tx = twin.Db.BeginTransaction();
            }
            for (int i = rng.Next(1, 15); i > 0; i--, statements++)
                if (RandomStatement(rng, twin) is not null) failures++;
            if (tx is not null)
            {
                string? sqlite = twin.SqliteError("COMMIT");
                string? sharc = null;
                try { tx.Commit(); } catch (SharcConstraintException e) { sharc = e.Message; }
                sharc.Should().Be(sqlite, "commit of transaction {0} (seed {1}) after {2}", txn, seed, string.Join("\n", twin.Log));
                if (sqlite is not null)
                {
                    Oracle.Exec(twin.Sqlite, "ROLLBACK");
                    tx.Dispose();
                }
            }
            twin.AssertSame(Tables.Select(t => $"SELECT * FROM {t} ORDER BY 1").ToArray());
        }
        statements.Should().BeGreaterThan(100);
        failures.Should().BeGreaterThan(5, "the workload must exercise refusals too");
    }

    private static string? RandomStatement(Random rng, WriteTwin twin)
    {
        // Half of the statements go through SQL instead of the C# API: both paths must keep SQLite's bookkeeping.
        var viaSql = new SqlTwin(twin, rng.Next(2) == 0);
        return RandomStatement(rng, viaSql);
    }

    /// <summary>Runs each statement on SQLite and on Sharc, through the API call or through <c>db.Execute</c>.</summary>
    private readonly struct SqlTwin(WriteTwin twin, bool useSql)
    {
        public string? Both(string sql, Action<SharcDatabase> api) => twin.Both(sql, useSql ? d => d.Execute(sql) : api);
    }

    private static string? RandomStatement(Random rng, SqlTwin twin)
    {
        long id = rng.Next(1, 12);
        long other = rng.Next(1, 12);
        object? code = rng.Next(6) == 0 ? null : (rng.Next(2) == 0 ? "c" : "C") + rng.Next(8);
        switch (rng.Next(12))
        {
            case 0 or 1:
                return twin.Both($"INSERT INTO p VALUES({id}, {Lit(code)}, {other})", d => d.Insert("p", id, code, other));
            case 2:
                return twin.Both($"DELETE FROM p WHERE id = {id}", d => d.Delete("p", id));
            case 3:
                return twin.Both($"UPDATE p SET id = {other} WHERE id = {id}", d => d.Update("p", id, ["id"], [other]));
            case 4:
                return twin.Both($"UPDATE p SET code = {Lit(code)} WHERE id = {id}", d => d.Update("p", id, ["code"], [code]));
            case 5 or 6:
            {
                object? pid = rng.Next(5) == 0 ? null : other;
                return twin.Both($"INSERT INTO c VALUES({id}, {Lit(pid)}, {Lit(code)}, {other})", d => d.Insert("c", id, pid, code, other));
            }
            case 7:
                return twin.Both($"DELETE FROM c WHERE id = {id}", d => d.Delete("c", id));
            case 8:
            {
                long pid = rng.Next(1, 12);
                return twin.Both($"INSERT INTO d VALUES({id}, {other}, {pid})", d => d.Insert("d", id, other, pid));
            }
            case 9:
                return twin.Both($"UPDATE c SET pid = {other} WHERE id = {id}", d => d.Update("c", id, ["pid"], [other]));
            case 10:
            {
                string k = "k" + id, up = "k" + other;
                return twin.Both($"INSERT INTO e VALUES('{k}', {other}, '{up}')", d => d.Insert("e", k, other, up));
            }
            default:
                return twin.Both($"DELETE FROM e WHERE k = 'k{id}'", d => d.DeleteByKey("e", "k" + id));
        }
    }

    private static string Lit(object? v) => v switch
    {
        null => "NULL",
        string s => "'" + s + "'",
        _ => Convert.ToString(v, System.Globalization.CultureInfo.InvariantCulture)!,
    };
}
