using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Api;

public class ReaderTests : IDisposable
{
    private readonly TempDir _dir = new();
    private readonly string _path;

    public ReaderTests()
    {
        _path = _dir.File("r.db");
        using var c = Oracle.Open(_path);
        Oracle.Exec(c, "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT COLLATE NOCASE, price REAL, qty INT, data BLOB, misc)");
        Oracle.Exec(c, "CREATE INDEX items_name ON items(name)");
        Oracle.Exec(c, "CREATE INDEX items_qty_desc ON items(qty DESC, price)");
        Oracle.Exec(c, "CREATE TABLE kv(k TEXT, n INT, v, PRIMARY KEY(k, n)) WITHOUT ROWID");
        using var tx = c.BeginTransaction();
        for (int i = 1; i <= 400; i++)
        {
            Oracle.Exec(c, "INSERT INTO items VALUES($id, $n, $p, $q, $d, $m)",
                ("$id", (long)(i * 10)), ("$n", (i % 3 == 0 ? "Name" : "name") + (i % 50)), ("$p", i * 0.25), ("$q", (long)(i % 7)),
                ("$d", new byte[] { (byte)i, 0, 255 }), ("$m", i % 4 == 0 ? null : i % 4 == 1 ? (object)"12abc" : i % 4 == 2 ? 2.5 : (long)i));
            Oracle.Exec(c, "INSERT INTO kv VALUES($k, $n, $v)", ("$k", "k" + (i % 40)), ("$n", (long)(i / 40)), ("$v", (long)i));
        }
        tx.Commit();
    }

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void SeekFindsExistingRowid()
    {
        using var db = SharcDatabase.Open(_path);
        using var r = db.CreateReader("items", "id", "name", "price");
        r.Seek(1230).Should().BeTrue();
        r.RowId.Should().Be(1230);
        r.GetInt64(0).Should().Be(1230);
        r.GetString(1).Should().Be("Name23");
        r.GetDouble(2).Should().Be(123 * 0.25);
    }

    [Fact]
    public void SeekMissReturnsFalseAndReadContinuesAtTheNextLargerRowid()
    {
        using var db = SharcDatabase.Open(_path);
        using var r = db.CreateReader("items", "id");
        r.Seek(1235).Should().BeFalse();
        r.HasRow.Should().BeFalse();
        r.Read().Should().BeTrue();
        r.GetInt64(0).Should().Be(1240);
        r.Read().Should().BeTrue();
        r.GetInt64(0).Should().Be(1250);
    }

    [Fact]
    public void SeekPastTheEndLeavesNothingToRead()
    {
        using var db = SharcDatabase.Open(_path);
        using var r = db.CreateReader("items", "id");
        r.Seek(999_999).Should().BeFalse();
        r.Read().Should().BeFalse();
        r.Seek(-5).Should().BeFalse();
        r.Read().Should().BeTrue();
        r.GetInt64(0).Should().Be(10);
    }

    [Fact]
    public void GettersConvertLikeSqlite()
    {
        using var db = SharcDatabase.Open(_path);
        using var r = db.CreateReader("items", "misc");
        var expected = Oracle.Rows(_path, "SELECT typeof(misc), CAST(misc AS TEXT) FROM items ORDER BY id");
        using var c = Oracle.Open(_path, readOnly: true);
        using var cmd = c.CreateCommand();
        cmd.CommandText = "SELECT misc FROM items ORDER BY id";
        using var s = cmd.ExecuteReader();
        int row = 0;
        while (r.Read())
        {
            s.Read().Should().BeTrue();
            r.GetInt64(0).Should().Be(s.IsDBNull(0) ? 0 : s.GetInt64(0), "row {0}", row);
            r.GetDouble(0).Should().Be(s.IsDBNull(0) ? 0 : s.GetDouble(0), "row {0}", row);
            r.GetString(0).Should().Be(s.IsDBNull(0) ? null : s.GetString(0), "row {0}", row);
            r.GetColumnType(0).ToString().ToLowerInvariant().Should().Be(expected[row][0] as string == "real" ? "real" : (string)expected[row][0]!);
            row++;
        }
        row.Should().Be(400);
    }

    [Fact]
    public void TryGetInt64GivesOnlyValuesStoredAsIntegers()
    {
        using var db = SharcDatabase.Open(_path);
        using var r = db.CreateReader("items", "misc", "price", "qty");
        var expected = Oracle.Rows(_path, "SELECT typeof(misc), misc FROM items ORDER BY id");
        int row = 0;
        while (r.Read())
        {
            bool isInteger = (string)expected[row][0]! == "integer";
            r.TryGetInt64(0, out long v).Should().Be(isInteger, "row {0} holds a {1}", row, expected[row][0]);
            if (isInteger) v.Should().Be((long)expected[row][1]!);
            // A REAL column reads its integers as reals, so they are not integers here either.
            r.TryGetInt64(1, out _).Should().BeFalse();
            r.TryGetInt64(2, out long qty).Should().BeTrue();
            qty.Should().Be(r.GetInt64(2));
            row++;
        }
        row.Should().Be(400);
    }

    [Fact]
    public void Utf8SpanAndBlobSpanReturnStoredBytes()
    {
        using var db = SharcDatabase.Open(_path);
        using var r = db.CreateReader("items", "name", "data", "price");
        r.Seek(70).Should().BeTrue();
        System.Text.Encoding.UTF8.GetString(r.GetUtf8Span(0)).Should().Be("name7");
        r.GetBlobSpan(1).ToArray().Should().Equal(7, 0, 255);
        System.Text.Encoding.UTF8.GetString(r.GetUtf8Span(2)).Should().Be("1.75");
        r.GetColumnType(1).Should().Be(SharcColumnType.Blob);
    }

    [Fact]
    public void IntegerPrimaryKeyColumnReadsAsTheRowid()
    {
        using var db = SharcDatabase.Open(_path);
        using var r = db.CreateReader("items");
        r.Read().Should().BeTrue();
        r.GetName(0).Should().Be("id");
        r.GetColumnType(0).Should().Be(SharcColumnType.Integer);
        r.GetInt64(0).Should().Be(10);
        r.FieldCount.Should().Be(6);
    }

    [Fact]
    public void RowidPseudoColumnCanBeRequested()
    {
        using var db = SharcDatabase.Open(_path);
        using var r = db.CreateReader("items", "rowid", "qty");
        r.Read().Should().BeTrue();
        r.GetInt64(0).Should().Be(10);
    }

    [Fact]
    public void SeekIndexReadsRowsInIndexOrderWithItsCollation()
    {
        using var db = SharcDatabase.Open(_path);
        using var r = db.CreateReader("items", "id", "name");
        r.SeekIndex("items_name", "NAME7").Should().BeTrue("the column is NOCASE, so the index is too");
        var got = new List<long>();
        do
        {
            if (!string.Equals(r.GetString(1), "name7", StringComparison.OrdinalIgnoreCase)) break;
            got.Add(r.GetInt64(0));
        } while (r.Read());
        var expected = Oracle.Rows(_path, "SELECT id FROM items WHERE name = 'NAME7' ORDER BY name, rowid").Select(x => (long)x[0]!).ToList();
        got.Should().Equal(expected);
        got.Should().NotBeEmpty();
    }

    [Fact]
    public void SeekIndexOnDescendingKeyFindsTheFirstEntryNotLess()
    {
        using var db = SharcDatabase.Open(_path);
        using var r = db.CreateReader("items", "qty", "price");
        r.SeekIndex("items_qty_desc", 5L, 10.1).Should().BeFalse();
        r.Read().Should().BeTrue();
        var expected = Oracle.Rows(_path, "SELECT qty, price FROM items WHERE qty = 5 AND price > 10.1 ORDER BY price LIMIT 1")[0];
        r.GetInt64(0).Should().Be((long)expected[0]!);
        r.GetDouble(1).Should().Be((double)expected[1]!);
    }

    [Fact]
    public void WithoutRowIdTableReadsInPrimaryKeyOrderAndSeeksByKey()
    {
        using var db = SharcDatabase.Open(_path);
        using var r = db.CreateReader("kv");
        var all = SharcRows.All(r);
        all.ShouldEqual(Oracle.Rows(_path, "SELECT k, n, v FROM kv ORDER BY k, n"));

        using var s = db.CreateReader("kv", "k", "n", "v");
        s.SeekKey("k17", 3L).Should().BeTrue();
        s.GetInt64(2).Should().Be(137);
        s.SeekKey("k17").Should().BeTrue("a key prefix finds the first entry with it");
        s.GetInt64(1).Should().Be(0);
        s.SeekKey("k17", 99L).Should().BeFalse();
        s.Read().Should().BeTrue();
        s.GetString(0).Should().Be("k18");
        var rowid = () => s.RowId;
        rowid.Should().Throw<InvalidOperationException>();
    }

    [Fact]
    public void IndexReaderSeeksItsOwnKey()
    {
        using var db = SharcDatabase.Open(_path);
        using var r = db.CreateReader("items_qty_desc");
        r.FieldCount.Should().Be(3);
        r.GetName(2).Should().Be("rowid");
        r.SeekKey(3L).Should().BeTrue();
        r.GetInt64(0).Should().Be(3);
        long rowid = r.RowId;
        Oracle.Rows(_path, $"SELECT qty FROM items WHERE rowid = {rowid}")[0][0].Should().Be(3L);
    }

    [Fact]
    public void ReadingWithoutARowIsAnError()
    {
        using var db = SharcDatabase.Open(_path);
        using var r = db.CreateReader("items");
        var act = () => r.GetInt64(0);
        act.Should().Throw<InvalidOperationException>();
        while (r.Read()) { }
        act.Should().Throw<InvalidOperationException>();
        var range = () => { r.Seek(10); return r.GetInt64(99); };
        range.Should().Throw<ArgumentOutOfRangeException>();
    }

    [Fact]
    public void UnknownTableAndColumnAreClearErrors()
    {
        using var db = SharcDatabase.Open(_path);
        var t = () => db.CreateReader("nope");
        t.Should().Throw<SharcException>().WithMessage("*no such table*nope*");
        var c = () => db.CreateReader("items", "nope");
        c.Should().Throw<SharcException>().WithMessage("*no such column: nope*");
    }

    [Fact]
    public void PreparedReaderResetsForAnotherScan()
    {
        using var db = SharcDatabase.Open(_path);
        using var r = db.PrepareReader("items", "id");
        int first = 0, second = 0;
        while (r.Read()) first++;
        r.Reset();
        while (r.Read()) second++;
        first.Should().Be(400);
        second.Should().Be(400);
    }

    [Fact]
    public void ReadersOnSeveralThreadsShareOneDatabase()
    {
        using var db = SharcDatabase.Open(_path, new SharcOpenOptions { CachePages = 8 });
        long expected = Oracle.Rows(_path, "SELECT sum(qty) FROM items")[0][0] is long l ? l : 0;
        var sums = new long[4];
        Parallel.For(0, 4, t =>
        {
            for (int round = 0; round < 20; round++)
            {
                using var r = db.CreateReader("items", "qty");
                long s = 0;
                while (r.Read()) s += r.GetInt64(0);
                sums[t] = s;
            }
        });
        sums.Should().AllBeEquivalentTo(expected);
    }
}
