using Sharc.Integrity;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Integrity;

/// <summary>Page arithmetic the fixtures cannot reach cheaply: the lock-byte page lies 1 GiB into the file.</summary>
public class IntegrityInternalsTests
{
    [Theory]
    [InlineData(512, 2097153u)]
    [InlineData(4096, 262145u)]
    [InlineData(65536, 16385u)]
    public void LockBytePageIsAccountedFor(int pageSize, uint lockPage)
    {
        var log = new ProblemLog(10);
        var pages = new PageAccounting(lockPage + 5, pageSize, log);
        pages.LockBytePage.Should().Be(lockPage);
        pages.UseOf(lockPage).Should().Be(PageUse.LockByte);
        pages.Claim(lockPage, PageUse.BTree, Where.Tree(7)).Should().BeFalse();
        log.Problems.Should().Equal($"Tree 7: 2nd reference to page {lockPage} (it is already the lock-byte page, now referenced as a b-tree page)");
    }

    [Fact]
    public void SmallDatabaseHasNoLockBytePage()
    {
        var log = new ProblemLog(10);
        var pages = new PageAccounting(3, 4096, log);
        pages.UseOf(pages.LockBytePage).Should().Be(PageUse.None);
        pages.Claim(4, PageUse.BTree, Where.Other("Freelist")).Should().BeFalse();
        pages.ReportNeverUsed();
        log.Problems.Should().Equal("Freelist: invalid page number 4", "Page 1 is never used", "Page 2 is never used", "Page 3 is never used");
    }

    [Fact]
    public void PointerMapPagesRecurEveryUsableOverFivePlusOnePages()
    {
        using var dir = new TempDir();
        string path = dir.File("av.db");
        Oracle.Exec(path, "PRAGMA page_size=512", "PRAGMA auto_vacuum=1", "CREATE TABLE t(a)");
        using var db = SharcDatabase.Open(path);
        var map = new PointerMapCheck(new CheckContext(db, new ProblemLog(10)));
        // 512 / 5 = 102 entries per pointer-map page: page 2 covers 3..104, page 105 covers 106..207, and so on.
        map.MapPageFor(3).Should().Be(2u);
        map.MapPageFor(104).Should().Be(2u);
        map.MapPageFor(106).Should().Be(105u);
        map.MapPageFor(207).Should().Be(105u);
        map.MapPageFor(209).Should().Be(208u);
        map.IsMapPage(2).Should().BeTrue();
        map.IsMapPage(105).Should().BeTrue();
        map.IsMapPage(106).Should().BeFalse();
        map.IsMapPage(1).Should().BeFalse();
    }

    [Fact]
    public void LimitStopsTheCheck()
    {
        var log = new ProblemLog(2);
        log.Add("one");
        FluentActions.Invoking(() => log.Add("two")).Should().Throw<CheckLimitReachedException>();
        log.Problems.Should().Equal("one", "two");
    }
}
