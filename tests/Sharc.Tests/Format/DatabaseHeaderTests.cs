using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Format;

public class DatabaseHeaderTests
{
    private static byte[] RealHeader(string pragmas)
    {
        using var dir = new TempDir();
        string path = dir.File("h.db");
        using (var c = Oracle.Open(path))
        {
            foreach (var p in pragmas.Split(';', StringSplitOptions.RemoveEmptyEntries)) Oracle.Exec(c, p);
            Oracle.Exec(c, "CREATE TABLE t(a)");
        }
        return File.ReadAllBytes(path)[..100];
    }

    [Fact]
    public void EveryFieldMatchesWhatSqliteReports()
    {
        using var dir = new TempDir();
        string path = dir.File("h.db");
        using (var c = Oracle.Open(path))
        {
            Oracle.Exec(c, "PRAGMA page_size=8192");
            Oracle.Exec(c, "PRAGMA auto_vacuum=INCREMENTAL");
            Oracle.Exec(c, "PRAGMA encoding='UTF-16be'");
            Oracle.Exec(c, "CREATE TABLE t(a)");
            Oracle.Exec(c, "PRAGMA user_version=-42");
            Oracle.Exec(c, "PRAGMA application_id=1234567");
        }
        var h = DatabaseHeader.Parse(File.ReadAllBytes(path));
        using var o = Oracle.Open(path, readOnly: true);
        h.PageSize.Should().Be(8192);
        h.TextEncoding.Should().Be(SharcTextEncoding.Utf16BE);
        h.AutoVacuumMode.Should().Be(2);
        h.UserVersion.Should().Be(-42);
        h.ApplicationId.Should().Be(1234567);
        h.SchemaFormat.Should().Be(4);
        h.SchemaCookie.Should().Be((uint)(long)Oracle.Scalar(o, "PRAGMA schema_version")!);
        h.HeaderPageCount.Should().Be((uint)(long)Oracle.Scalar(o, "PRAGMA page_count")!);
        h.IsPageCountValid.Should().BeTrue();
        h.FreelistPageCount.Should().Be((uint)(long)Oracle.Scalar(o, "PRAGMA freelist_count")!);
        h.ReservedBytes.Should().Be(0);
        h.UsableSize.Should().Be(8192);
    }

    [Fact]
    public void PageSizeOneMeans65536()
    {
        var h = DatabaseHeader.Parse(RealHeader("PRAGMA page_size=65536"));
        h.PageSize.Should().Be(65536);
    }

    [Theory]
    [InlineData(16, 0x03, 0x00)]  // 768: not a power of two
    [InlineData(16, 0x01, 0x00)]  // 256: too small
    [InlineData(21, 63, 32)]      // payload fractions must be 64/32
    public void InvalidFieldsAreCorruption(int offset, byte a, byte b)
    {
        var bytes = RealHeader("");
        bytes[offset] = a;
        bytes[offset + 1] = b;
        var act = () => DatabaseHeader.Parse(bytes);
        act.Should().Throw<SharcCorruptException>().Which.Page.Should().Be(1);
    }

    [Fact]
    public void TooManyReservedBytesAreCorruption()
    {
        var bytes = RealHeader("PRAGMA page_size=512");
        bytes[20] = 40; // 512 - 40 < 480 usable bytes
        var act = () => DatabaseHeader.Parse(bytes);
        act.Should().Throw<SharcCorruptException>().WithMessage("*reserved*");
    }

    [Fact]
    public void NewerReadVersionIsRefused()
    {
        var bytes = RealHeader("");
        bytes[19] = 3;
        var act = () => DatabaseHeader.Parse(bytes);
        act.Should().Throw<SharcFormatException>().WithMessage("*read version*");
    }

    [Fact]
    public void EncryptedOrRandomFileIsNotADatabase()
    {
        var bytes = RealHeader("");
        bytes[0] ^= 0x55;
        var act = () => DatabaseHeader.Parse(bytes);
        act.Should().Throw<SharcFormatException>().WithMessage("*not a database*");
        var shortAct = () => DatabaseHeader.Parse(new byte[50]);
        shortAct.Should().Throw<SharcFormatException>();
    }

    [Fact]
    public void OnlyTheLowByteOfSchemaFormatAndLowBitsOfEncodingCountAsInSqlite()
    {
        var bytes = RealHeader("");
        bytes[44] = 0x10; // 0x10000004: SQLite reads (u8) 4
        bytes[56] = 0x55; bytes[59] = 0x02;
        var h = DatabaseHeader.Parse(bytes);
        h.SchemaFormat.Should().Be(4);
        h.TextEncoding.Should().Be(SharcTextEncoding.Utf16LE);
    }

    [Fact]
    public void EmptyFileOpensAsAnEmptyDatabase()
    {
        using var dir = new TempDir();
        string path = dir.File("empty.db");
        File.WriteAllBytes(path, []);
        using var db = SharcDatabase.Open(path);
        db.PageCount.Should().Be(0);
        db.Schema.Tables.Where(t => t.Name != "sqlite_schema").Should().BeEmpty();
    }

    [Fact]
    public void HeaderPageCountBeyondTheFileIsCorruption()
    {
        using var dir = new TempDir();
        string path = dir.File("trunc.db");
        Oracle.Exec(path, "CREATE TABLE t(a)", "INSERT INTO t VALUES(randomblob(20000))");
        var bytes = File.ReadAllBytes(path);
        File.WriteAllBytes(path, bytes[..(bytes.Length - 4096)]);
        var act = () => SharcDatabase.Open(path);
        act.Should().Throw<SharcCorruptException>().WithMessage("*header says*pages*");
    }
}
