using Sharc.Tests.Api;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>PreparedInsert.SetText(string): encoded without a per-call array, stored exactly as SQLite reads it back.</summary>
public class PreparedInsertTextTests
{
    [Fact]
    public void Setting_text_from_a_string_allocates_nothing_once_warm()
    {
        using var dir = new TempDir();
        string path = dir.File("text.db");
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { PageSize = 65536 });
        db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, email TEXT)");
        var ins = db.PrepareInsert("t", "name", "email");
        const string name = "user42", email = "user42@example.com";
        using var tx = db.BeginTransaction();
        long allocated = AllocationFixture.Measure(() =>
        {
            ins.SetText(0, name);
            ins.SetText(1, email);
            ins.Execute();
        }, 100); // ~30-byte rows: 400 of them fit the 64 KiB root leaf
        tx.Commit();
        allocated.Should().Be(0);
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Theory]
    [InlineData("")]
    [InlineData("plain ascii")]
    [InlineData("grüße, 東京, 🙂")]
    [InlineData(null)] // replaced below by a 2,000-character string, past the stack buffer
    public void Text_set_from_a_string_reads_back_as_sqlite_sees_it(string? text)
    {
        text ??= string.Concat(Enumerable.Repeat("ünïcode-", 250));
        using var dir = new TempDir();
        string path = dir.File("text.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.CreateTable("CREATE TABLE t(id INTEGER PRIMARY KEY, s TEXT)");
            var ins = db.PrepareInsert("t", "s");
            ins.SetText(0, text);
            ins.Execute();
        }
        Oracle.Rows(path, "SELECT s FROM t")[0][0].Should().Be(text);
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }
}
