using Sharc.Cli.Slt;

namespace Sharc.Tests.Slt;

public sealed class SltParserTests
{
    [Fact]
    public void Statements_keep_their_sql_their_expectation_and_their_keyword_line()
    {
        var records = SltParser.Parse(
            "# a comment\n" +
            "\n" +
            "statement ok\n" +
            "CREATE TABLE t1(a INTEGER,\n" +
            "  b TEXT)\n" +
            "\n" +
            "statement error\n" +
            "SELECT nope\n");

        records.Should().HaveCount(2);
        var ok = records[0].Should().BeOfType<SltStatement>().Subject;
        ok.Line.Should().Be(3);
        ok.ExpectError.Should().BeFalse();
        ok.Sql.Should().Be("CREATE TABLE t1(a INTEGER,\n  b TEXT)");
        var error = records[1].Should().BeOfType<SltStatement>().Subject;
        error.Line.Should().Be(7);
        error.ExpectError.Should().BeTrue();
        error.Sql.Should().Be("SELECT nope");
    }

    [Fact]
    public void A_query_has_types_sort_mode_label_sql_and_listed_values()
    {
        var records = SltParser.Parse(
            "query IIT rowsort label-7\n" +
            "SELECT a, b,\n" +
            "  c FROM t1\n" +
            "----\n" +
            "1\n" +
            "NULL\n" +
            "(empty)\n");

        var q = records.Should().ContainSingle().Which.Should().BeOfType<SltQuery>().Subject;
        q.Line.Should().Be(1);
        q.Types.Should().Be("IIT");
        q.Sort.Should().Be(SltSortMode.RowSort);
        q.Label.Should().Be("label-7");
        q.Sql.Should().Be("SELECT a, b,\n  c FROM t1");
        q.Expected.Hash.Should().BeNull();
        q.Expected.Values.Should().Equal("1", "NULL", "(empty)");
    }

    [Fact]
    public void A_hashed_result_is_read_as_count_and_md5()
    {
        var q = (SltQuery)SltParser.Parse(
            "query I valuesort\nSELECT a FROM t1\n----\n30 values hashing to 3c13dee48d9356ae19af2515e05e6b54\n").Single();

        q.Sort.Should().Be(SltSortMode.ValueSort);
        q.Label.Should().BeNull();
        q.Expected.Count.Should().Be(30);
        q.Expected.Hash.Should().Be("3c13dee48d9356ae19af2515e05e6b54");
        q.Expected.Values.Should().BeEmpty();
        q.Expected.Lines.Should().Equal("30 values hashing to 3c13dee48d9356ae19af2515e05e6b54");
    }

    [Fact]
    public void Sort_mode_defaults_to_nosort_and_an_empty_or_missing_result_means_no_values()
    {
        var records = SltParser.Parse("query I\nSELECT 1 WHERE 0\n----\n\nquery T nosort\nSELECT x FROM t WHERE 0\n");

        records.Should().HaveCount(2);
        foreach (var q in records.Cast<SltQuery>())
        {
            q.Sort.Should().Be(SltSortMode.NoSort);
            q.Expected.Hash.Should().BeNull();
            q.Expected.Values.Should().BeEmpty();
        }
        ((SltQuery)records[1]).Line.Should().Be(5);
    }

    [Fact]
    public void Conditions_attach_to_the_next_record_and_trailing_comments_are_ignored()
    {
        var records = SltParser.Parse(
            "skipif mysql # no empty lists there\n" +
            "onlyif sqlite  # this is allowed\n" +
            "query I nosort\n" +
            "SELECT 1 IN ()\n" +
            "----\n" +
            "0\n" +
            "\n" +
            "onlyif mssql\n" +
            "halt\n" +
            "\n" +
            "hash-threshold 0\n");

        records.Should().HaveCount(3);
        var q = (SltQuery)records[0];
        q.Line.Should().Be(3);
        q.Conditions.Should().Equal(new SltCondition(false, "mysql"), new SltCondition(true, "sqlite"));
        q.AppliesTo("sqlite").Should().BeTrue();
        q.AppliesTo("mysql").Should().BeFalse();
        q.AppliesTo("postgresql").Should().BeFalse("onlyif sqlite excludes every other engine");

        var halt = records[1].Should().BeOfType<SltHalt>().Subject;
        halt.AppliesTo("sqlite").Should().BeFalse();
        halt.AppliesTo("mssql").Should().BeTrue();

        records[2].Should().BeOfType<SltHashThreshold>().Which.Threshold.Should().Be(0);
    }

    [Fact]
    public void Skipif_for_another_engine_lets_the_record_run()
    {
        var s = (SltStatement)SltParser.Parse("skipif mssql\nskipif oracle\nstatement ok\nSELECT 1\n").Single();

        s.AppliesTo("sqlite").Should().BeTrue();
        s.AppliesTo("ORACLE").Should().BeFalse("engine names compare without case");
    }

    [Fact]
    public void Result_values_are_taken_verbatim_even_when_they_look_like_comments()
    {
        var q = (SltQuery)SltParser.Parse("query T nosort\nSELECT '#x'\n----\n#x\n").Single();

        q.Expected.Values.Should().Equal("#x");
    }

    [Fact]
    public void Windows_line_endings_and_whitespace_only_separators_are_accepted()
    {
        var records = SltParser.Parse("statement ok\r\nSELECT 1\r\n   \r\nquery I nosort\r\nSELECT 2\r\n----\r\n2\r\n");

        records.Should().HaveCount(2);
        ((SltStatement)records[0]).Sql.Should().Be("SELECT 1");
        ((SltQuery)records[1]).Expected.Values.Should().Equal("2");
    }

    [Theory]
    [InlineData("statement maybe\nSELECT 1\n", "unrecognised record")]
    [InlineData("query IX nosort\nSELECT 1\n----\n1\n", "are not all T, I or R")]
    [InlineData("query I sometimes\nSELECT 1\n----\n1\n", "unknown sort mode 'sometimes'")]
    [InlineData("statement ok\n", "statement without SQL")]
    [InlineData("skipif mysql\n\nstatement ok\nSELECT 1\n", "skipif/onlyif lines with no record after them")]
    [InlineData("frobnicate\nSELECT 1\n", "unrecognised record")]
    public void A_malformed_record_is_reported_not_thrown(string text, string message)
    {
        var records = SltParser.Parse(text);

        var bad = records[0].Should().BeOfType<SltMalformed>().Subject;
        bad.Line.Should().Be(1);
        bad.Message.Should().Contain(message);
    }

    [Fact]
    public void Parsing_resumes_after_a_malformed_record()
    {
        var records = SltParser.Parse("frobnicate\nSELECT 1\n\nstatement ok\nSELECT 2\n");

        records.Should().HaveCount(2);
        records[0].Should().BeOfType<SltMalformed>();
        records[1].Should().BeOfType<SltStatement>().Which.Line.Should().Be(4);
    }
}
