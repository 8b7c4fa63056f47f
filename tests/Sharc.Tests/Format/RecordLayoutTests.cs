using Sharc.Format;

namespace Sharc.Tests.Format;

public class RecordLayoutTests
{
    private static byte[] Record(int fields)
    {
        var values = new StoredValue[fields];
        for (int i = 0; i < fields; i++) values[i] = i % 3 == 0 ? StoredValue.Null : StoredValue.FromInteger(i * 1000);
        return RecordWriter.ToArray(values);
    }

    [Fact]
    public void Fields_are_found_in_any_order_and_past_the_last_is_absent()
    {
        var record = Record(300);
        var layout = new RecordLayout(4);
        layout.Reset(record.Length, 2);
        layout.HeaderSize(record);
        layout.TryGetField(299, record, out long last, out _, out int lastSize).Should().BeTrue();
        SerialType.ReadInteger(last, record.AsSpan(0)).Should().NotBe(long.MinValue);
        lastSize.Should().Be((int)SerialType.ContentSize(last));
        layout.TryGetField(4, record, out long type, out int offset, out int size).Should().BeTrue();
        SerialType.ReadInteger(type, record.AsSpan(offset, size)).Should().Be(4000);
        layout.TryGetField(300, record, out _, out _, out _).Should().BeFalse();
        layout.FieldCount(record).Should().Be(300);
    }

    [Fact]
    public void Counting_fields_again_and_again_keeps_memory_bounded()
    {
        var record = Record(9);
        var layout = new RecordLayout(4);
        int wrong = 0;
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 100; i++)
        {
            layout.Reset(record.Length, 2);
            layout.HeaderSize(record);
            if (layout.FieldCount(record) != 9) wrong++;
        }
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        wrong.Should().Be(0);
        // The field table grows once to fit the header, not once per call.
        allocated.Should().BeLessThan(1024);
    }

    [Fact]
    public void A_serial_type_that_runs_past_the_record_is_corruption()
    {
        // Header: size 3, then a 4-byte integer (type 4) and an 8-byte one (type 6), but only 4 body bytes.
        byte[] record = [3, 4, 6, 0, 0, 0, 1];
        var layout = new RecordLayout(4);
        layout.Reset(record.Length, 7);
        layout.HeaderSize(record);
        layout.TryGetField(0, record, out _, out _, out _).Should().BeTrue();
        var act = () => layout.TryGetField(1, record, out _, out _, out _);
        act.Should().Throw<SharcCorruptException>().Where(e => e.Message.Contains("runs past"));
    }
}
