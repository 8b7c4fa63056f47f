using Sharc.Tests.Sql.Execution;

namespace Sharc.Tests.Sql.Semantics;

/// <summary>
/// printf() widths and precisions near SQLite's 1,000,000,000-byte limit: what SQLite refuses from the requested size
/// alone fails with "string or blob too big" before anything is built, and a %f/%e precision past 100,000,000 is cut to
/// it, as SQLite cuts it.
/// </summary>
public sealed class PrintfLimitTests : IDisposable
{
    private readonly QueryOracle _db = new("CREATE TABLE t(x)");

    public void Dispose() => _db.Dispose();

    [Theory]
    [InlineData("SELECT printf('%.*c', 2000000000, 'x')")]
    [InlineData("SELECT printf('%.*c', 1000000000, 'x')")]
    [InlineData("SELECT printf('%.*c', 500000000, 'é')")]
    [InlineData("SELECT printf('%*c', 2147483647, 'x')")]
    [InlineData("SELECT printf('%*d', 1000000001, 1)")]
    [InlineData("SELECT printf('%*d', -2000000000, 1)")]
    [InlineData("SELECT printf('%2000000000d', 1)")]
    [InlineData("SELECT printf('%.*d', 2000000000, 1)")]
    [InlineData("SELECT printf('%.*d', 999999991, 1)")]
    [InlineData("SELECT printf('%,.*d', 750000000, 1)")]
    [InlineData("SELECT printf('%*.*d', 10, 2000000000, 1)")]
    [InlineData("SELECT printf('%*s', 3000000000, 'x')")]
    [InlineData("SELECT printf('%*%', 1000000000)")]
    [InlineData("SELECT printf('%999999990f', 1.5)")]
    public void A_width_or_precision_past_the_limit_fails_as_in_sqlite(string sql)
    {
        _db.Expected(sql).Should().Equal("ERROR");
        var e = Assert.ThrowsAny<SharcException>(() =>
        {
            using var r = _db.Db.Query(sql);
            while (r.Read()) { }
        });
        e.Message.Should().Contain("string or blob too big");
    }

    [Theory]
    [InlineData("SELECT length(printf('%.*s', 2000000000, 'abc')), length(printf('%.*q', 2000000000, 'abc'))")]
    [InlineData("SELECT length(printf('%2000000000n')), printf('%.*z', 2000000000, 'xy')")]
    [InlineData("SELECT length(printf('%.200000000f', 1.5)), length(printf('%.*e', 2000000000, -2.5)), length(printf('%.200000000g', 1.5))")]
    public void Precisions_that_cut_or_are_capped_answer_as_sqlite_does(string sql) => _db.Check(sql, ordered: true);
}
