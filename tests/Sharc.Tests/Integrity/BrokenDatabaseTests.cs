using Microsoft.Data.Sqlite;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Integrity;

/// <summary>
/// Databases built by SQLite, then broken on purpose with knowledge of the file format. CheckIntegrity must
/// report a problem naming the right page, and SQLite's own integrity_check (on a copy) must agree that the file is
/// not ok.
/// </summary>
public sealed class BrokenDatabaseTests : IDisposable
{
    private readonly TempDir _dir = new();

    public void Dispose() => _dir.Dispose();

    /// <summary>Checks with Sharc and with SQLite; both must find problems. Returns Sharc's problem lines.</summary>
    private static IReadOnlyList<string> CheckBoth(string path)
    {
        IReadOnlyList<string> problems;
        using (var db = SharcDatabase.Open(path))
        {
            problems = db.CheckIntegrity();
            db.IsIntact().Should().Be(problems.Count == 0);
        }
        problems.Should().NotBeEmpty("Sharc must find the damage");
        SqliteSaysNotOk(path).Should().BeTrue("SQLite's integrity_check must find the damage too (agreement)");
        return problems;
    }

    private static bool SqliteSaysNotOk(string path)
    {
        string copy = path + ".sqlite-copy";
        File.Copy(path, copy, overwrite: true);
        try
        {
            return Oracle.IntegrityCheck(copy) != "ok";
        }
        catch (SqliteException)
        {
            return true;
        }
        finally
        {
            SqliteConnection.ClearAllPools();
        }
    }

    private string Build(string name, int pageSize, params string[] statements)
    {
        string path = _dir.File(name);
        using (var c = Oracle.Open(path))
        {
            Oracle.Exec(c, $"PRAGMA page_size={pageSize}");
            foreach (var s in statements) Oracle.Exec(c, s);
        }
        Oracle.IntegrityCheck(path).Should().Be("ok");
        using (var db = SharcDatabase.Open(path)) db.CheckIntegrity().Should().BeEmpty("the file is intact before it is broken");
        return path;
    }

    private static string Rows(string table, int n, string value) =>
        $"WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < {n}) INSERT INTO {table} SELECT {value} FROM c";

    [Fact]
    public void SwappedRowidsAreOutOfOrder()
    {
        string path = Build("swap.db", 4096, "CREATE TABLE t(a)", Rows("t", 10, "'value ' || i"));
        uint root = DbImage.RootOf(path, "t");
        var img = DbImage.Load(path);
        img.IsLeaf(root).Should().BeTrue();
        var c2 = img.TableLeafCell(root, 2);
        var c5 = img.TableLeafCell(root, 5);
        (c2.RowId, c5.RowId).Should().Be((3L, 6L));
        img.Page(root)[c2.RowIdOffset] = 6;
        img.Page(root)[c5.RowIdOffset] = 3;
        img.Save(path);

        var problems = CheckBoth(path);
        problems.Should().Contain($"Tree {root} page {root} cell 3: Rowid 4 out of order (follows rowid 6)");
        problems.Should().Contain(p => p.StartsWith($"Tree {root} page {root} cell 5: Rowid 3 out of order"));
    }

    [Fact]
    public void TwoParentsPointingAtOneChild()
    {
        string path = Build("parents.db", 512, "CREATE TABLE t(a)", Rows("t", 200, "printf('%040d', i)"));
        uint root = DbImage.RootOf(path, "t");
        var img = DbImage.Load(path);
        img.IsLeaf(root).Should().BeFalse();
        img.CellCount(root).Should().BeGreaterThan(2);
        uint shared = img.LeftChild(root, 0), orphan = img.LeftChild(root, 1);
        img.SetLeftChild(root, 1, shared);
        img.Save(path);

        var problems = CheckBoth(path);
        problems.Should().Contain(p => p.StartsWith($"Tree {root} page {root} cell 1: 2nd reference to page {shared}"));
        problems.Should().Contain($"Page {orphan} is never used");
    }

    [Fact]
    public void FreelistCountOffByOne()
    {
        string path = Build("freecount.db", 1024, "CREATE TABLE t(a)", Rows("t", 300, "randomblob(200)"), "DELETE FROM t WHERE rowid > 20");
        var img = DbImage.Load(path);
        uint count = img.HeaderU32(36);
        count.Should().BeGreaterThan(2);
        img.SetHeaderU32(36, count - 1);
        img.Save(path);

        var problems = CheckBoth(path);
        problems.Should().Contain($"Freelist: size is {count} but should be {count - 1} (the header's freelist count)");
    }

    [Fact]
    public void TruncatedOverflowChain()
    {
        string path = Build("overflow.db", 1024, "CREATE TABLE t(a, b)", "INSERT INTO t VALUES(1, randomblob(5000))", "INSERT INTO t VALUES(2, 'small')");
        uint root = DbImage.RootOf(path, "t");
        var img = DbImage.Load(path);
        var cell = img.TableLeafCell(root, 0);
        int local = (int)CellLocal(cell.Payload, img.Usable);
        uint first = img.U32(root, cell.PayloadOffset + local);
        uint second = img.U32(first, 0);
        second.Should().NotBe(0u);
        long needed = (cell.Payload - local + img.Usable - 5) / (img.Usable - 4);
        img.SetU32(first, 0, 0); // the chain now ends after its first page
        img.Save(path);

        var problems = CheckBoth(path);
        problems.Should().Contain(p => p.StartsWith($"Tree {root} page {root} cell 0: overflow list length is 1 but should be {needed}"));
        problems.Should().Contain($"Page {second} is never used");
    }

    [Fact]
    public void IndexEntryDeletedByRewritingTheLeaf()
    {
        string path = Build("index.db", 4096, "CREATE TABLE t(a TEXT)", Rows("t", 20, "printf('v%02d', i)"), "CREATE INDEX i ON t(a)");
        uint indexRoot = DbImage.RootOf(path, "i");
        var img = DbImage.Load(path);
        img.IsLeaf(indexRoot).Should().BeTrue();
        img.RewriteLeafWithout(indexRoot, 7); // the entry ('v08', rowid 8)
        img.Save(path);

        var problems = CheckBoth(path);
        problems.Should().Contain(p => p.StartsWith("wrong # of entries in index i (19 entries, table t has 20 rows)"));
        problems.Should().Contain("row 8 missing from index i");
        problems.Should().HaveCount(2, "the rewritten page itself is well formed");
    }

    [Fact]
    public void FreelistTrunkPointerIntoABTreePage()
    {
        string path = Build("trunk.db", 1024, "CREATE TABLE t(a)", "CREATE TABLE u(b)", Rows("t", 100, "randomblob(300)"), "DELETE FROM t");
        uint treePage = DbImage.RootOf(path, "u");
        var img = DbImage.Load(path);
        uint trunk = img.HeaderU32(32);
        trunk.Should().NotBe(0u);
        img.SetHeaderU32(32, treePage);
        img.Save(path);

        var problems = CheckBoth(path);
        problems.Should().Contain(p => p.StartsWith($"Tree {treePage}: 2nd reference to page {treePage} (it is already a freelist trunk page"));
        problems.Should().Contain($"Page {trunk} is never used");
    }

    [Fact]
    public void FragmentedByteCountIsWrong()
    {
        string path = Build("frag.db", 4096, "CREATE TABLE t(a)", Rows("t", 10, "i"));
        uint root = DbImage.RootOf(path, "t");
        var img = DbImage.Load(path);
        img.Page(root)[7] = 3;
        img.Save(path);

        CheckBoth(path).Should().Equal($"Tree {root} page {root}: Fragmentation of 0 bytes reported as 3 on page {root}");
    }

    [Fact]
    public void CellsSharingBytes()
    {
        string path = Build("overlap.db", 4096, "CREATE TABLE t(a)", Rows("t", 10, "'value ' || i"));
        uint root = DbImage.RootOf(path, "t");
        var img = DbImage.Load(path);
        int shared = img.CellOffset(root, 3);
        img.SetCellOffset(root, 4, shared); // cells 3 and 4 are now the same bytes
        img.Save(path);

        var problems = CheckBoth(path);
        problems.Should().Contain($"Tree {root} page {root}: Multiple uses for byte {shared} of page {root} (cells and freeblocks overlap)");
        problems.Should().Contain($"Tree {root} page {root} cell 4: Rowid 4 out of order (follows rowid 4)");
    }

    [Fact]
    public void AdjacentFreeblocksAreFreeSpaceCorruption()
    {
        string path = Build("freeblock.db", 512, "CREATE TABLE t(a)", Rows("t", 4, "printf('%010d', i)"), "DELETE FROM t WHERE rowid IN (2, 3)");
        uint root = DbImage.RootOf(path, "t");
        var img = DbImage.Load(path);
        int fb = img.U16(root, 1);
        int size = img.U16(root, fb + 2);
        size.Should().BeGreaterThan(8);
        // Split the one freeblock into two that touch: SQLite always merges those.
        int half = size / 2;
        img.SetU16(root, fb, fb + half);
        img.SetU16(root, fb + 2, half);
        img.SetU16(root, fb + half, 0);
        img.SetU16(root, fb + half + 2, size - half);
        img.Save(path);

        CheckBoth(path).Should().ContainSingle().Which.Should().StartWith($"Tree {root} page {root}: free space corruption: freeblock at {fb + half} follows the freeblock at {fb}..");
    }

    [Fact]
    public void PointerMapEntryNamesTheWrongParent()
    {
        string path = Build("ptrmap.db", 1024, "PRAGMA auto_vacuum=1", "CREATE TABLE t(a)", Rows("t", 100, "randomblob(100)"));
        uint root = DbImage.RootOf(path, "t");
        var img = DbImage.Load(path);
        uint child = img.LeftChild(root, 0);
        int entry = 5 * (int)(child - 3); // page 2 is the first pointer map; it covers pages 3, 4, ...
        img.Page(2)[entry].Should().Be(5);
        img.SetU32(2, entry + 1, root + 1);
        img.Save(path);

        CheckBoth(path).Should().Contain($"Tree {root} page {root} cell 0: Bad ptr map entry key={child} expected=(5,{root}) got=(5,{root + 1}) on pointer-map page 2");
    }

    [Fact]
    public void CycleBackToTheRootEndsQuickly()
    {
        string path = Build("cycle.db", 512, "CREATE TABLE t(a)", Rows("t", 200, "printf('%040d', i)"));
        uint root = DbImage.RootOf(path, "t");
        var img = DbImage.Load(path);
        uint lost = img.RightChild(root);
        img.SetRightChild(root, root);
        img.Save(path);

        var problems = CheckBoth(path);
        problems.Should().Contain(p => p.StartsWith($"Tree {root} page {root}: 2nd reference to page {root}"));
        problems.Should().Contain($"Page {lost} is never used");
    }

    [Fact]
    public void LeavesAtDifferentDepths()
    {
        string path = Build("depth.db", 512, "CREATE TABLE t(a)", Rows("t", 3000, "printf('%040d', i)"));
        uint root = DbImage.RootOf(path, "t");
        var img = DbImage.Load(path);
        uint child = img.LeftChild(root, 0);
        img.IsLeaf(child).Should().BeFalse("the tree needs three levels");
        uint grandchild = img.LeftChild(child, 0);
        img.SetLeftChild(root, 0, grandchild); // a leaf one level too high
        img.Save(path);

        var problems = CheckBoth(path);
        problems.Should().Contain(p => p.StartsWith($"Tree {root} page {root} cell 0: Child page depth differs: the subtree of page {grandchild} is 1 level(s) high"));
        problems.Should().Contain($"Page {child} is never used");
    }

    [Fact]
    public void InvalidPageType()
    {
        string path = Build("type.db", 512, "CREATE TABLE t(a)", Rows("t", 200, "printf('%040d', i)"));
        uint root = DbImage.RootOf(path, "t");
        var img = DbImage.Load(path);
        uint leaf = img.Leaves(root)[1];
        img.Page(leaf)[0] = 0x0a; // an index leaf inside a table b-tree
        img.Save(path);

        CheckBoth(path).Should().Contain($"Tree {root} page {leaf}: an index leaf page (type 10) inside a table b-tree");
    }

    [Fact]
    public void IndexEntriesOutOfOrder()
    {
        string path = Build("indexorder.db", 4096, "CREATE TABLE t(a TEXT)", Rows("t", 20, "printf('v%02d', i)"), "CREATE INDEX i ON t(a)");
        uint indexRoot = DbImage.RootOf(path, "i");
        var img = DbImage.Load(path);
        int a = img.CellOffset(indexRoot, 3), b = img.CellOffset(indexRoot, 12);
        img.SetCellOffset(indexRoot, 3, b);
        img.SetCellOffset(indexRoot, 12, a);
        img.Save(path);

        var problems = CheckBoth(path);
        problems.Should().Contain($"Tree {indexRoot} page {indexRoot}: entry 5 of index i is out of order (sorts before the entry preceding it)");
    }

    [Fact]
    public void WithoutRowidRowsOutOfPrimaryKeyOrder()
    {
        string path = Build("wr.db", 4096, "CREATE TABLE w(k INTEGER PRIMARY KEY, v) WITHOUT ROWID", Rows("w", 20, "i, 'x'"));
        uint root = DbImage.RootOf(path, "w");
        var img = DbImage.Load(path);
        int a = img.CellOffset(root, 3), b = img.CellOffset(root, 4);
        img.SetCellOffset(root, 3, b);
        img.SetCellOffset(root, 4, a);
        img.Save(path);

        CheckBoth(path).Should().Contain("row not in PRIMARY KEY order for w (row 5 on page " + root + ")");
    }

    [Fact]
    public void UniqueIndexWithDuplicates()
    {
        string path = Build("unique.db", 4096, "CREATE TABLE t(a, b)", Rows("t", 10, "i % 3, i"), "CREATE INDEX u ON t(a)");
        // Declare the index UNIQUE behind SQLite's back: its entries are now duplicates.
        Oracle.Exec(path, "PRAGMA writable_schema=ON", "UPDATE sqlite_schema SET sql = 'CREATE UNIQUE INDEX u ON t(a)' WHERE name = 'u'");

        CheckBoth(path).Should().Contain(p => p.StartsWith("non-unique entry in index u"));
    }

    [Fact]
    public void NullInNotNullColumn()
    {
        string path = Build("notnull.db", 4096, "CREATE TABLE t(a, b)", "INSERT INTO t VALUES(1, 2), (NULL, 3)");
        Oracle.Exec(path, "PRAGMA writable_schema=ON", "UPDATE sqlite_schema SET sql = 'CREATE TABLE t(a NOT NULL, b)' WHERE name = 't'");
        uint root = DbImage.RootOf(path, "t");

        CheckBoth(path).Should().Equal($"NULL value in t.a (rowid 2 on page {root})");
    }

    [Fact]
    public void MalformedRecord()
    {
        string path = Build("record.db", 4096, "CREATE TABLE t(a, b)", "INSERT INTO t VALUES('abc', 1)");
        uint root = DbImage.RootOf(path, "t");
        var img = DbImage.Load(path);
        var cell = img.TableLeafCell(root, 0);
        // The record header: size, then the serial type of 'abc' (19 = 3-byte text); make it claim 300 bytes.
        img.Page(root)[cell.PayloadOffset + 1].Should().Be(19);
        img.Page(root)[cell.PayloadOffset + 1] = 0x7f;
        img.Save(path);

        CheckBoth(path).Should().ContainSingle().Which.Should().StartWith($"Tree {root} page {root}: rowid 1 of t:");
    }

    [Fact]
    public void LargestRootPageInTheHeaderIsWrong()
    {
        string path = Build("maxroot.db", 1024, "PRAGMA auto_vacuum=1", "CREATE TABLE t(a)", "CREATE TABLE u(b)");
        uint largest = DbImage.RootOf(path, "u");
        var img = DbImage.Load(path);
        img.HeaderU32(52).Should().Be(largest);
        img.SetHeaderU32(52, largest - 1);
        img.Save(path);

        CheckBoth(path).Should().Contain($"max rootpage ({largest}) disagrees with header ({largest - 1})");
    }

    [Fact]
    public void IncrementalVacuumWithoutPointerMaps()
    {
        string path = Build("incr.db", 1024, "CREATE TABLE t(a)", "INSERT INTO t VALUES(1)");
        var img = DbImage.Load(path);
        img.SetHeaderU32(64, 1);
        img.Save(path);

        CheckBoth(path).Should().Equal("incremental_vacuum enabled with a max rootpage of zero");
    }

    /// <summary>
    /// Without a valid in-header page count (a legacy writer: version-valid-for differs from the change counter), the
    /// file size counts: a page appended to the file is then part of the database, and nothing uses it.
    /// </summary>
    [Fact]
    public void PageAppendedToAFileWithoutAValidPageCount()
    {
        string path = Build("legacy.db", 1024, "CREATE TABLE t(a)", "INSERT INTO t VALUES(1)");
        var img = DbImage.Load(path);
        uint pages = (uint)(img.Bytes.Length / 1024);
        img.SetHeaderU32(92, img.HeaderU32(24) + 1);
        File.WriteAllBytes(path, [.. img.Bytes, .. new byte[1024]]);

        CheckBoth(path).Should().Equal($"Page {pages + 1} is never used");
    }

    /// <summary>With a valid in-header page count, bytes beyond it are not part of the database (SQLite agrees: ok).</summary>
    [Fact]
    public void BytesBeyondAValidPageCountAreIgnored()
    {
        string path = Build("trailing.db", 1024, "CREATE TABLE t(a)", "INSERT INTO t VALUES(1)");
        File.WriteAllBytes(path, [.. File.ReadAllBytes(path), .. new byte[1500]]);

        using (var db = SharcDatabase.Open(path)) db.CheckIntegrity().Should().BeEmpty();
        SqliteSaysNotOk(path).Should().BeFalse();
    }

    [Fact]
    public void StopsAtMaxErrors()
    {
        string path = Build("many.db", 512, "CREATE TABLE t(a)", Rows("t", 300, "printf('%040d', i)"));
        uint root = DbImage.RootOf(path, "t");
        var img = DbImage.Load(path);
        foreach (uint leaf in img.Leaves(root)) img.Page(leaf)[7] = 9; // wrong fragment count on every leaf
        img.Save(path);

        using var db = SharcDatabase.Open(path);
        db.CheckIntegrity().Count.Should().BeGreaterThan(5);
        db.CheckIntegrity(3).Should().HaveCount(3);
        db.IsIntact().Should().BeFalse();
        FluentActions.Invoking(() => db.CheckIntegrity(0)).Should().Throw<ArgumentOutOfRangeException>();
    }

    /// <summary>SQLite's local-payload rule for table leaf cells (file format, section 1.6).</summary>
    private static long CellLocal(long payload, int usable)
    {
        int maxLocal = usable - 35;
        if (payload <= maxLocal) return payload;
        int minLocal = (usable - 12) * 32 / 255 - 23;
        long k = minLocal + (payload - minLocal) % (usable - 4);
        return k <= maxLocal ? k : minLocal;
    }
}
