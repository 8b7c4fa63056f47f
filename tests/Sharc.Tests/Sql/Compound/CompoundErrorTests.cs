using Microsoft.Data.Sqlite;
using Sharc.Tests.Sql.Execution;

namespace Sharc.Tests.Sql.Compound;

/// <summary>
/// Misuse of compounds, VALUES and CTEs fails in Sharc with SQLite's own message: each statement is run by both and
/// the messages compared.
/// </summary>
public sealed class CompoundErrorTests(MixedDatabaseFixture fixture) : IClassFixture<MixedDatabaseFixture>
{
    private QueryOracle Db => fixture.Oracle;

    [Theory]
    [InlineData("SELECT 1 UNION SELECT 1, 2")]
    [InlineData("SELECT i FROM t INTERSECT SELECT i, s FROM t")]
    [InlineData("SELECT 1 EXCEPT SELECT 1, 2")]
    [InlineData("SELECT 1, 2 UNION ALL VALUES (1)")]
    [InlineData("SELECT 1, 2 UNION VALUES (1)")]
    [InlineData("SELECT 1, 2 UNION ALL VALUES (1), (2)")]
    [InlineData("VALUES (1, 2), (3)")]
    [InlineData("SELECT 1 AS a UNION SELECT 2 ORDER BY b")]
    [InlineData("SELECT i FROM t UNION SELECT r FROM t ORDER BY 2")]
    [InlineData("SELECT i FROM t UNION SELECT r FROM t ORDER BY 0")]
    [InlineData("SELECT i FROM t UNION SELECT r FROM t ORDER BY 1, s")]
    [InlineData("SELECT i FROM t UNION SELECT r FROM t ORDER BY i + 1")]
    [InlineData("SELECT 1 ORDER BY 1 UNION SELECT 2")]
    [InlineData("SELECT 1 LIMIT 1 UNION SELECT 2")]
    [InlineData("SELECT nope FROM t UNION SELECT 1")]
    [InlineData("SELECT 1 UNION SELECT nope FROM t")]
    [InlineData("WITH c(x, y) AS (SELECT 1) SELECT * FROM c")]
    [InlineData("WITH c AS (SELECT 1), c AS (SELECT 2) SELECT * FROM c")]
    [InlineData("WITH a AS (SELECT * FROM b), b AS (SELECT * FROM a) SELECT * FROM a")]
    [InlineData("WITH RECURSIVE c(x) AS (SELECT * FROM c) SELECT * FROM c")]
    [InlineData("WITH RECURSIVE c(x) AS (SELECT x FROM c UNION ALL SELECT 1) SELECT * FROM c")]
    [InlineData("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3 UNION ALL SELECT 9) SELECT * FROM c")]
    [InlineData("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT max(x) + 1 FROM c) SELECT * FROM c")]
    [InlineData("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM (SELECT x FROM c) WHERE x < 3) SELECT * FROM c")]
    [InlineData("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x IN (SELECT x FROM c)) SELECT * FROM c")]
    [InlineData("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < (SELECT count(*) FROM c)) SELECT * FROM c")]
    [InlineData("WITH seq(x) AS (VALUES(1) UNION ALL SELECT row_number() OVER () FROM seq) SELECT x FROM seq")]
    [InlineData("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT sum(x) OVER (ORDER BY x) FROM c WHERE x < 3) SELECT x FROM c")]
    [InlineData("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3 UNION ALL SELECT count(*) OVER () FROM c) SELECT x FROM c")]
    [InlineData("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT count(*) FROM c) SELECT x FROM c")]
    [InlineData("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT max(x) FROM c GROUP BY x) SELECT x FROM c")]
    [InlineData("WITH c AS (SELECT 1) SELECT * FROM main.c")]
    [InlineData("WITH c AS (SELECT 1 AS x) SELECT y FROM c")]
    public void Misuse_fails_with_sqlites_message(string sql)
    {
        string expected = SqliteMessage(sql);
        var e = Assert.Throws<SharcSqlException>(() =>
        {
            using var r = Db.Db.Query(sql);
            while (r.Read()) { }
        });
        e.SqliteMessage.Should().Be(expected);
    }

    private string SqliteMessage(string sql)
    {
        using var cmd = Db.Sqlite.CreateCommand();
        cmd.CommandText = sql;
        var e = Assert.Throws<SqliteException>(() =>
        {
            using var r = cmd.ExecuteReader();
            while (r.Read()) { }
        });
        // "SQLite Error 1: 'message'."
        string m = e.Message;
        int open = m.IndexOf('\'', StringComparison.Ordinal);
        return m[(open + 1)..m.LastIndexOf('\'')];
    }
}
