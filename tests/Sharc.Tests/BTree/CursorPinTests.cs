using Sharc.BTree;
using Sharc.Format;
using Sharc.Storage;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.BTree;

/// <summary>
/// A cursor pins one page per level of its path and gives each back when it leaves it: seeks that go down another
/// path than the last one must not leave the old path's deeper pages pinned (a pinned page can never be evicted, so
/// leaked pins grow the page cache past its bound and make every miss sweep all of it).
/// </summary>
public sealed class CursorPinTests
{
    [Fact]
    public void Seeks_down_other_paths_hold_at_most_one_page_per_level_and_release_all_at_dispose()
    {
        using var dir = new TempDir();
        string path = dir.File("pins.db");
        using (var c = Oracle.Open(path))
        {
            Oracle.Exec(c, "PRAGMA page_size=512");
            Oracle.Exec(c, "CREATE TABLE t(k INTEGER, pad TEXT)");
            Oracle.Exec(c, "CREATE INDEX t_k ON t(k, pad)");
            Oracle.Exec(c, "BEGIN");
            for (int i = 0; i < 4000; i++) Oracle.Exec(c, "INSERT INTO t VALUES ($k, $p)", ("$k", (long)i), ("$p", new string('x', 40)));
            Oracle.Exec(c, "COMMIT");
        }
        using var db = SharcDatabase.Open(path);
        var pins = new CountingSource(db.Source);
        var rng = new Random(3);
        int deepest = 0;
        using (var cursor = new BTreeCursor(pins, db.Schema.GetIndex("t_k").RootPage, db.Header.UsableSize, isIndex: true))
        {
            for (int i = 0; i < 2000; i++)
            {
                var key = new IntegerKey(rng.Next(4000));
                cursor.SeekKey(ref key).Should().BeTrue();
                deepest = Math.Max(deepest, pins.Held);
                pins.Held.Should().BeLessThanOrEqualTo(4, "a 4,000-entry index of 512-byte pages is at most four levels deep");
            }
        }
        deepest.Should().BeGreaterThanOrEqualTo(3, "the seeks must cross interior pages for the test to mean anything");
        pins.Held.Should().Be(0);
    }

    /// <summary>Compares an index record's first field, an integer, with a key.</summary>
    private readonly struct IntegerKey(long key) : IRecordComparer
    {
        private readonly byte[] _record = Record(key);

        public int CompareRecordToKey(ReadOnlySpan<byte> record)
            => RecordCompare.Compare(record, _record, [Collation.Binary], [false], SharcTextEncoding.Utf8, 0, fields: 1);

        // A one-field record: header size 2, serial type 6 (a big-endian 8-byte integer), then the value.
        private static byte[] Record(long v)
        {
            var r = new byte[10];
            r[0] = 2;
            r[1] = 6;
            System.Buffers.Binary.BinaryPrimitives.WriteInt64BigEndian(r.AsSpan(2), v);
            return r;
        }
    }

    /// <summary>A page source that counts the pages borrowed and not yet given back.</summary>
    private sealed class CountingSource(IPageSource inner) : IPageSource
    {
        public int Held { get; private set; }
        public int PageSize => inner.PageSize;
        public uint PageCount => inner.PageCount;
        public long Generation => inner.Generation;

        public PageRef Acquire(uint pageNumber)
        {
            var page = inner.Acquire(pageNumber);
            Held++;
            return page;
        }

        public void Release(in PageRef page)
        {
            inner.Release(page);
            Held--;
        }

        public bool BeginRead() => inner.BeginRead();
        public void EndRead() => inner.EndRead();
        public void Dispose() { }
    }
}
