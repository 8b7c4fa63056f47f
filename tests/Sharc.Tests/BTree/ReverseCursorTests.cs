using Sharc.BTree;
using Sharc.Format;
using Sharc.Tests.Infrastructure;
using Sharc.Tests.Integrity;

namespace Sharc.Tests.BTree;

/// <summary>
/// Walking a b-tree backwards (MoveLast, MovePrevious, and the seeks to the last entry at or before a key) over
/// multi-level table and index b-trees built by SQLite at every page size: the backward walk is the forward walk
/// reversed, index entries in interior cells included; directions can be mixed; page cycles still end in
/// <see cref="SharcCorruptException"/>.
/// </summary>
public sealed class ReverseCursorTests
{
    public static TheoryData<int> PageSizes => new() { 512, 1024, 4096, 65536 };

    private static string Build(TempDir dir, int pageSize)
    {
        string path = dir.File($"rev{pageSize}.db");
        using var c = Oracle.Open(path);
        Oracle.Exec(c, $"PRAGMA page_size={pageSize}");
        Oracle.Exec(c, "CREATE TABLE t(a INTEGER PRIMARY KEY, s TEXT)");
        Oracle.Exec(c, "CREATE INDEX t_s ON t(s)");
        Oracle.Exec(c, "CREATE TABLE e(a INTEGER PRIMARY KEY, s TEXT)");
        Oracle.Exec(c, "CREATE INDEX e_s ON e(s)");
        var rng = new Random(pageSize);
        int longest = Math.Min(pageSize / 6, 1500);
        Oracle.Exec(c, "BEGIN");
        for (int i = 0; i < 3000; i++)
        {
            // Some duplicates (ties decided by the rowid in the index), some values long enough to overflow.
            string s = rng.Next(10) == 0 ? "dup" + rng.Next(5) : FixtureBuilder.RandomText(rng, 1 + rng.Next(rng.Next(40) == 0 ? pageSize : longest));
            Oracle.Exec(c, "INSERT INTO t(a, s) VALUES($a, $s)", ("$a", (long)(i * 3 + rng.Next(3) - 4500)), ("$s", s));
        }
        // Gaps: whole leaves go empty and interior keys no longer exist as rows.
        Oracle.Exec(c, "DELETE FROM t WHERE a BETWEEN 100 AND 1400");
        Oracle.Exec(c, "COMMIT");
        return path;
    }

    private static BTreeCursor Cursor(SharcDatabase db, uint root, bool index) => new(db.Source, root, db.Header.UsableSize, index);

    private static List<long> RowIds(BTreeCursor c, bool backward)
    {
        var list = new List<long>();
        for (bool ok = backward ? c.MoveLast() : c.MoveFirst(); ok; ok = backward ? c.MovePrevious() : c.MoveNext()) list.Add(c.RowId);
        return list;
    }

    private static List<byte[]> Entries(BTreeCursor c, bool backward)
    {
        var list = new List<byte[]>();
        for (bool ok = backward ? c.MoveLast() : c.MoveFirst(); ok; ok = backward ? c.MovePrevious() : c.MoveNext())
            list.Add(c.GetPayload(c.PayloadSize).ToArray());
        return list;
    }

    [Theory]
    [MemberData(nameof(PageSizes))]
    public void Backward_walks_are_the_forward_walks_reversed(int pageSize)
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Open(Build(dir, pageSize));
        using (var table = Cursor(db, db.Schema.GetTable("t").RootPage, false))
        {
            var forward = RowIds(table, false);
            forward.Should().HaveCountGreaterThan(1000);
            var backward = RowIds(table, true);
            backward.Reverse();
            backward.Should().Equal(forward);
        }
        using (var index = Cursor(db, db.Schema.GetIndex("t_s").RootPage, true))
        {
            var forward = Entries(index, false);
            var backward = Entries(index, true);
            backward.Reverse();
            backward.Should().HaveCount(forward.Count);
            for (int i = 0; i < forward.Count; i++) backward[i].Should().Equal(forward[i], $"entry {i}");
        }
        using (var empty = Cursor(db, db.Schema.GetTable("e").RootPage, false)) empty.MoveLast().Should().BeFalse();
        using (var empty = Cursor(db, db.Schema.GetIndex("e_s").RootPage, true)) empty.MoveLast().Should().BeFalse();
    }

    [Theory]
    [MemberData(nameof(PageSizes))]
    public void Directions_can_follow_each_other(int pageSize)
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Open(Build(dir, pageSize));
        using var index = Cursor(db, db.Schema.GetIndex("t_s").RootPage, true);
        var forward = Entries(index, false);
        var rng = new Random(5);
        int at = 0;
        index.MoveFirst().Should().BeTrue();
        for (int step = 0; step < 5000; step++)
        {
            bool back = rng.Next(2) == 0;
            if (back ? at == 0 : at == forward.Count - 1) back = !back;
            (back ? index.MovePrevious() : index.MoveNext()).Should().BeTrue();
            at += back ? -1 : 1;
            index.GetPayload(index.PayloadSize).ToArray().Should().Equal(forward[at], $"step {step}");
        }
        using var table = Cursor(db, db.Schema.GetTable("t").RootPage, false);
        var ids = RowIds(table, false);
        table.MoveLast().Should().BeTrue();
        table.MoveNext().Should().BeFalse("past the last entry");
        table.MoveFirst().Should().BeTrue();
        table.MovePrevious().Should().BeFalse("before the first entry");
        table.SeekRowId(ids[500]).Should().BeTrue();
        table.MovePrevious().Should().BeTrue();
        table.RowId.Should().Be(ids[499]);
        table.MoveNext().Should().BeTrue();
        table.MoveNext().Should().BeTrue();
        table.RowId.Should().Be(ids[501]);
    }

    [Theory]
    [MemberData(nameof(PageSizes))]
    public void Seeks_to_the_last_rowid_at_or_below_a_bound(int pageSize)
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Open(Build(dir, pageSize));
        using var table = Cursor(db, db.Schema.GetTable("t").RootPage, false);
        var ids = RowIds(table, false);
        long[] probes = [long.MinValue, long.MaxValue, ids[0] - 1, ids[0], ids[^1], ids[^1] + 1, 99, 100, 1400, 1401, 0, -1, ids[1234], ids[1234] + 1];
        foreach (long probe in probes)
        {
            foreach (bool inclusive in new[] { true, false })
            {
                int expected = ids.FindLastIndex(id => inclusive ? id <= probe : id < probe);
                bool found = table.SeekRowIdLast(probe, inclusive);
                found.Should().Be(expected >= 0, $"{(inclusive ? "<=" : "<")} {probe}");
                if (!found) continue;
                table.RowId.Should().Be(ids[expected]);
                // and the walk goes on down from there
                if (expected > 0)
                {
                    table.MovePrevious().Should().BeTrue();
                    table.RowId.Should().Be(ids[expected - 1]);
                }
            }
        }
    }

    private struct PrefixComparer(byte[] key) : IRecordComparer
    {
        public readonly int CompareRecordToKey(ReadOnlySpan<byte> record)
            => RecordCompare.Compare(record, key, [Collation.Binary], [false], SharcTextEncoding.Utf8, 0, fields: 1);
    }

    [Theory]
    [MemberData(nameof(PageSizes))]
    public void Seeks_to_the_last_index_entry_at_or_below_a_key(int pageSize)
    {
        using var dir = new TempDir();
        using var db = SharcDatabase.Open(Build(dir, pageSize));
        using var index = Cursor(db, db.Schema.GetIndex("t_s").RootPage, true);
        var entries = Entries(index, false);
        var rng = new Random(11);
        // Keys that exist (the ties of a duplicated value included), keys between entries, and keys beyond both ends.
        var keys = new List<byte[]> { Record(""), Record("dup0"), Record("dup3"), Record("\uffff\uffff"), Record("A") };
        for (int i = 0; i < 60; i++) keys.Add(FirstField(entries[rng.Next(entries.Count)]));
        foreach (var key in keys)
        {
            foreach (bool inclusive in new[] { true, false })
            {
                var cmp = new PrefixComparer(key);
                int expected = entries.FindLastIndex(e => inclusive ? cmp.CompareRecordToKey(e) <= 0 : cmp.CompareRecordToKey(e) < 0);
                bool found = index.SeekKeyLast(ref cmp, inclusive);
                found.Should().Be(expected >= 0);
                if (!found) continue;
                index.GetPayload(index.PayloadSize).ToArray().Should().Equal(entries[expected]);
                if (expected > 0)
                {
                    index.MovePrevious().Should().BeTrue();
                    index.GetPayload(index.PayloadSize).ToArray().Should().Equal(entries[expected - 1]);
                }
            }
        }
    }

    /// <summary>A one-field text record.</summary>
    private static byte[] Record(string s)
    {
        byte[] text = System.Text.Encoding.UTF8.GetBytes(s);
        long type = 13 + 2L * text.Length;
        var header = new byte[10];
        int n = Varint.Write(header, type);
        int headerSize = 1 + n;
        var r = new byte[headerSize + text.Length];
        r[0] = (byte)headerSize;
        header.AsSpan(0, n).CopyTo(r.AsSpan(1));
        text.CopyTo(r, headerSize);
        return r;
    }

    /// <summary>The first field of an index entry, as a record of its own.</summary>
    private static byte[] FirstField(byte[] entry)
    {
        int hn = Varint.Read(entry, out long headerSize);
        Varint.Read(entry.AsSpan(hn), out long type);
        return Record(System.Text.Encoding.UTF8.GetString(entry, (int)headerSize, (int)SerialType.ContentSize(type)));
    }

    [Fact]
    public void A_page_cycle_ends_a_backward_walk_in_a_corruption_error()
    {
        using var dir = new TempDir();
        string path = dir.File("cycle.db");
        Oracle.Exec(path, "PRAGMA page_size=512", "CREATE TABLE t(a)", "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) INSERT INTO t SELECT printf('%040d', i) FROM n");
        uint root = DbImage.RootOf(path, "t");
        var img = DbImage.Load(path);
        // The cycle sits on the first child: the backward walk meets it last.
        img.SetLeftChild(root, 0, root);
        img.Save(path);
        using var db = SharcDatabase.Open(path);
        using var table = Cursor(db, root, false);
        var walk = () =>
        {
            for (bool ok = table.MoveLast(); ok; ok = table.MovePrevious()) { }
        };
        walk.Should().Throw<SharcCorruptException>();
        var seek = () =>
        {
            for (bool ok = table.SeekRowIdLast(150, true); ok; ok = table.MovePrevious()) { }
        };
        seek.Should().Throw<SharcCorruptException>();
    }
}
