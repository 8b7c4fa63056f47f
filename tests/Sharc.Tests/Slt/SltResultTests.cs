using Sharc.Cli.Slt;

namespace Sharc.Tests.Slt;

/// <summary>Sorting modes and hashing of rendered results.</summary>
public sealed class SltResultTests
{
    private static readonly object?[][] Rows =
    [
        [10L, "b"],
        [9L, "a"],
        [10L, "a"],
        [null, "c"],
    ];

    [Fact]
    public void Nosort_keeps_the_engine_order_row_by_row()
    {
        SltResult.Render(Rows, "IT", SltSortMode.NoSort)
            .Should().Equal("10", "b", "9", "a", "10", "a", "NULL", "c");
    }

    [Fact]
    public void Rowsort_orders_rows_by_their_rendered_values_as_bytes_column_by_column()
    {
        // "10" < "9" < "NULL" as bytes: the sort is on text, not on numbers.
        SltResult.Render(Rows, "IT", SltSortMode.RowSort)
            .Should().Equal("10", "a", "10", "b", "9", "a", "NULL", "c");
    }

    [Fact]
    public void Valuesort_orders_every_value_on_its_own()
    {
        SltResult.Render(Rows, "IT", SltSortMode.ValueSort)
            .Should().Equal("10", "10", "9", "NULL", "a", "a", "b", "c");
    }

    [Fact]
    public void Sorting_compares_bytes_so_upper_case_comes_before_lower_case()
    {
        object?[][] rows = [["b"], ["B"], ["(empty)"], [""], ["a"]];

        SltResult.Render(rows, "T", SltSortMode.ValueSort).Should().Equal("(empty)", "(empty)", "B", "a", "b");
    }

    [Fact]
    public void A_row_with_the_wrong_number_of_values_is_rejected()
    {
        var act = () => SltResult.Render([[1L, 2L]], "I", SltSortMode.NoSort);

        act.Should().Throw<ArgumentException>();
    }

    [Theory]
    [InlineData(new string[0], "d41d8cd98f00b204e9800998ecf8427e")] // MD5 of nothing
    [InlineData(new[] { "1" }, "b026324c6904b2a9cb4b88d6d61c81d1")] // MD5("1\n")
    [InlineData(new[] { "1", "2", "3" }, "c0710d6b4f15dfa88f600b0e6b624077")] // MD5("1\n2\n3\n")
    [InlineData(new[] { "NULL" }, "ca35c56c0c379f292f8fab68b3a19f61")] // MD5("NULL\n")
    public void The_hash_is_the_md5_of_each_value_followed_by_a_newline(string[] values, string md5)
    {
        SltResult.Md5(values).Should().Be(md5);
    }

    [Fact]
    public void Hash_lines_round_trip()
    {
        string line = SltResult.HashLine(30, "3c13dee48d9356ae19af2515e05e6b54");

        line.Should().Be("30 values hashing to 3c13dee48d9356ae19af2515e05e6b54");
        SltResult.TryParseHashLine(line, out int count, out string hash).Should().BeTrue();
        count.Should().Be(30);
        hash.Should().Be("3c13dee48d9356ae19af2515e05e6b54");
    }

    [Theory]
    [InlineData("values hashing to 3c13dee48d9356ae19af2515e05e6b54")]
    [InlineData("x values hashing to 3c13dee48d9356ae19af2515e05e6b54")]
    [InlineData("30 values hashing to 3C13DEE48D9356AE19AF2515E05E6B54")]
    [InlineData("30 values hashing to 3c13dee48d9356ae19af2515e05e6b5")]
    [InlineData("30 values hashing to 3c13dee48d9356ae19af2515e05e6b54 ")]
    [InlineData("30 values hash to 3c13dee48d9356ae19af2515e05e6b54")]
    public void Near_misses_are_not_hash_lines(string line)
    {
        SltResult.TryParseHashLine(line, out _, out _).Should().BeFalse();
    }
}
