using System.Text;
using Sharc.Format;
using Sharc.Sql.Functions;
using Sharc.Sql.Values;
using static Sharc.Tests.Sql.Semantics.ValuePool;

namespace Sharc.Tests.Sql.Semantics;

/// <summary>The value type itself: classes, conversions to and from .NET, ownership, and allocation-free hot paths.</summary>
public class SqlValueTests
{
    [Fact]
    public void DefaultIsNull()
    {
        default(SqlValue).IsNull.Should().BeTrue();
        default(SqlValue).TypeName.Should().Be("null");
        SqlValue.Null.ToObject().Should().BeNull();
    }

    [Fact]
    public void TypeNamesAreWhatTypeofReturns()
    {
        I(1).TypeName.Should().Be("integer");
        R(1).TypeName.Should().Be("real");
        T("a").TypeName.Should().Be("text");
        B("00").TypeName.Should().Be("blob");
    }

    [Fact]
    public void NaNBecomesNull() => SqlValue.Real(double.NaN).IsNull.Should().BeTrue();

    [Fact]
    public void DotNetValuesMapToStorageClasses()
    {
        SqlValue.FromObject(5).Type.Should().Be(SharcColumnType.Integer);
        SqlValue.FromObject(true).IntegerValue.Should().Be(1);
        SqlValue.FromObject(2.5f).RealValue.Should().Be(2.5);
        SqlValue.FromObject("É").Bytes.ToArray().Should().Equal(Encoding.UTF8.GetBytes("É"));
        SqlValue.FromObject(new byte[] { 1, 2 }).Type.Should().Be(SharcColumnType.Blob);
        SqlValue.FromObject(DBNull.Value).IsNull.Should().BeTrue();
        // As Microsoft.Data.Sqlite binds them (checked against it in Sharc.Data.Tests' differential suite): a ulong's
        // bits as an INTEGER, a decimal as invariant TEXT.
        SqlValue.FromObject(ulong.MaxValue).IntegerValue.Should().Be(-1);
        SqlValue.FromObject(12.5m).Type.Should().Be(SharcColumnType.Text);
        var act = () => SqlValue.FromObject(new object());
        act.Should().Throw<ArgumentException>();
    }

    [Fact]
    public void ValuesConvertBackToDotNet()
    {
        I(7).ToObject().Should().Be(7L);
        R(0.5).ToObject().Should().Be(0.5);
        T("x").ToObject().Should().Be("x");
        ((byte[])B("0102").ToObject()!).Should().Equal(1, 2);
        R(1.0).AsString().Should().Be("1.0");
        I(-3).AsString().Should().Be("-3");
    }

    [Fact]
    public void ConversionsFollowSqlite3ValueAccessors()
    {
        T(" 12abc").ToInt64().Should().Be(12);
        T("1e3").ToInt64().Should().Be(1);
        T("1e3").ToDouble().Should().Be(1000);
        R(-1e300).ToInt64().Should().Be(long.MinValue);
        B("3132").ToDouble().Should().Be(12);
        SqlValue.Null.ToDouble().Should().Be(0);
    }

    [Fact]
    public void BorrowedValuesCopyOnlyWhenMadeOwned()
    {
        var page = Encoding.UTF8.GetBytes("xxhelloxx");
        var borrowed = SqlValue.BorrowedText(page, 2, 5);
        borrowed.IsBorrowed.Should().BeTrue();
        borrowed.AsString().Should().Be("hello");
        var owned = borrowed.ToOwned();
        owned.IsBorrowed.Should().BeFalse();
        page[2] = (byte)'j';
        borrowed.AsString().Should().Be("jello");
        owned.AsString().Should().Be("hello");
        owned.ToOwned().Bytes.ToArray().Should().Equal(owned.Bytes.ToArray());
    }

    [Fact]
    public void SlicesShareTheArrayAndKeepOwnership()
    {
        var page = Encoding.UTF8.GetBytes("abcdef");
        var v = SqlValue.BorrowedBlob(page, 1, 4).Slice(1, 2);
        v.Type.Should().Be(SharcColumnType.Blob);
        v.IsBorrowed.Should().BeTrue();
        v.Bytes.ToArray().Should().Equal("cd"u8.ToArray());
        var act = () => v.Slice(1, 2);
        act.Should().Throw<ArgumentOutOfRangeException>();
    }

    [Fact]
    public void MemoryBackedByAnArrayIsBorrowedWithoutCopying()
    {
        var array = "hello"u8.ToArray();
        var v = SqlValue.FromMemory(SharcColumnType.Text, array.AsMemory(1, 3));
        v.IsBorrowed.Should().BeTrue();
        v.AsString().Should().Be("ell");
    }

    [Fact]
    public void TextAndBlobConversionsKeepTheBytes()
    {
        B("4142").ToTextValue().AsString().Should().Be("AB");
        T("AB").ToBlobValue().Type.Should().Be(SharcColumnType.Blob);
        I(12).ToBlobValue().Bytes.ToArray().Should().Equal("12"u8.ToArray());
        R(0.1).ToTextValue().AsString().Should().Be("0.1");
    }

    [Fact]
    public void HotPathsDoNotAllocate()
    {
        var page = Encoding.UTF8.GetBytes("hello world, 12345 and more text");
        var text = SqlValue.BorrowedText(page, 0, 11);
        var number = SqlValue.BorrowedText(page, 13, 5);
        var pattern = SqlValue.Text("h%o_w%");
        var i = I(42);
        var r = R(2.5);
        // Warm up (static initialisers, JIT).
        Run();
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int k = 0; k < 1000; k++) Run();
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        allocated.Should().Be(0);

        void Run()
        {
            SqlCompare.Evaluate(SqlCompareOp.Lt, i, SqlAffinity.Integer, r, SqlAffinity.None, Collation.Binary);
            SqlCompare.Evaluate(SqlCompareOp.Eq, text, SqlAffinity.Text, i, SqlAffinity.None, Collation.NoCase);
            SqlCompare.Evaluate(SqlCompareOp.Eq, number, SqlAffinity.Text, i, SqlAffinity.Integer, Collation.Binary);
            SqlCompare.Compare(text, pattern, Collation.RTrim);
            SqlArithmetic.Add(i, r);
            SqlArithmetic.Multiply(i, number);
            SqlArithmetic.Divide(number, i);
            SqlArithmetic.Remainder(i, I(5));
            SqlArithmetic.ShiftLeft(i, I(3));
            SqlLogic.And(text, i);
            SqlCast.To(number, SqlAffinity.Integer);
            LikeGlob.Like(text, pattern);
            LikeGlob.Glob(text, pattern);
            SqlCompare.In(i, [I(1), I(42)], SqlAffinity.None, Collation.Binary);
        }
    }
}
