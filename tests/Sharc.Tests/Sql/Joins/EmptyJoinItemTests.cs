using Sharc.Tests.Sql.Execution;

namespace Sharc.Tests.Sql.Joins;

/// <summary>
/// An inner-joined table with no rows empties the join before the other items are read, as SQLite's OP_IfEmpty does,
/// while a table that may show as NULLs (LEFT, RIGHT, FULL) keeps the other side's rows; answers as SQLite's.
/// </summary>
public sealed class EmptyJoinItemTests : IDisposable
{
    private readonly QueryOracle _db = new(
        "CREATE TABLE t1(a INTEGER, b TEXT)",
        "CREATE TABLE empty(e INTEGER, f TEXT)",
        "CREATE TABLE one(o INTEGER)",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100) INSERT INTO t1 SELECT x, 'v' || x FROM c",
        "INSERT INTO one VALUES (7)");

    public void Dispose() => _db.Dispose();

    [Fact]
    public void A_cross_join_of_six_large_items_with_an_empty_table_counts_nothing_at_once()
    {
        // 100^6 outer rows: without the emptiness check this never finishes. (SQLite checks only a table walked whole as
        // the innermost loop: with a covering index on the empty table it too runs for ever, so the table has none.)
        _db.Check("SELECT count(*) FROM t1, t1, t1, t1, t1, t1, empty", ordered: true);
        _db.Check("SELECT count(*) FROM empty, t1, t1, t1, t1, t1, t1", ordered: true);
        _db.Check("SELECT count(*) FROM t1, t1 AS x, empty, t1 AS y, t1 AS z, t1 AS w, t1 AS v", ordered: true);
    }

    public static TheoryData<string> Joins => new()
    {
        "SELECT * FROM t1 LEFT JOIN empty ON 1 WHERE a < 4",
        "SELECT * FROM t1 AS x LEFT JOIN t1 AS y ON y.a = x.a LEFT JOIN empty ON e = x.a WHERE x.a < 4",
        "SELECT * FROM empty RIGHT JOIN one ON 1",
        "SELECT * FROM empty FULL JOIN one ON 1",
        "SELECT * FROM one FULL JOIN empty ON 1",
        "SELECT * FROM one, empty RIGHT JOIN t1 AS x ON 1 WHERE x.a < 3",
        "SELECT * FROM one, t1, empty WHERE t1.a = empty.e",
        "SELECT count(*) FROM one, t1, empty WHERE t1.b = empty.f",
        "SELECT count(*) FROM one, t1 AS x, t1 AS y, (SELECT * FROM empty)",
        "SELECT * FROM one, t1 AS x, one AS z WHERE x.a < 3",
        "SELECT (SELECT count(*) FROM one, t1, empty WHERE t1.a = o.o), o FROM one AS o",
    };

    [Theory]
    [MemberData(nameof(Joins))]
    public void Joins_with_an_empty_item_answer_as_sqlite_does(string sql) => _db.Check(sql, ordered: false);
}
