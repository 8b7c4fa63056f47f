using Sharc.Schema.Parsing;

namespace Sharc.Tests.Schema;

/// <summary>Which keywords may be used as names and type words, checked against SQLite itself.</summary>
public class KeywordOracleTests
{
    public static TheoryData<string> Keywords()
    {
        var data = new TheoryData<string>();
        foreach (var k in SqlKeywords.All.Order()) data.Add(k);
        return data;
    }

    [Theory]
    [MemberData(nameof(Keywords))]
    public void A_keyword_is_a_valid_column_name_exactly_when_sqlite_accepts_it(string keyword)
    {
        using var db = SchemaOracle.Create();
        string sql = $"CREATE TABLE t({keyword} INT)";
        bool sqliteAccepts = db.TryExec(sql) is null;
        bool sharcAccepts = Parses(sql);
        sharcAccepts.Should().Be(sqliteAccepts);
        if (sqliteAccepts) Parsed(sql).Columns[0].Name.Should().Be(keyword);
    }

    [Theory]
    [MemberData(nameof(Keywords))]
    public void A_keyword_continues_a_type_name_exactly_when_sqlite_takes_it_as_one(string keyword)
    {
        using var db = SchemaOracle.Create();
        string sql = $"CREATE TABLE t(a int {keyword})";
        if (db.TryExec(sql) is not null)
        {
            Parses(sql).Should().BeFalse();
            return;
        }
        Parsed(sql).Columns[0].DeclaredType.Should().Be(db.TableXInfo("t")[0].Type);
    }

    [Theory]
    [MemberData(nameof(Keywords))]
    public void A_keyword_after_default_is_accepted_exactly_when_sqlite_accepts_it(string keyword)
    {
        using var db = SchemaOracle.Create();
        string sql = $"CREATE TABLE t(a DEFAULT {keyword})";
        bool sqliteAccepts = db.TryExec(sql) is null;
        Parses(sql).Should().Be(sqliteAccepts);
        if (sqliteAccepts) Parsed(sql).Columns[0].DefaultSql.Should().Be(db.TableXInfo("t")[0].Default);
    }

    [Theory]
    [MemberData(nameof(Keywords))]
    public void A_keyword_is_a_valid_table_name_exactly_when_sqlite_accepts_it(string keyword)
    {
        using var db = SchemaOracle.Create();
        string sql = $"CREATE TABLE {keyword}(a)";
        Parses(sql).Should().Be(db.TryExec(sql) is null);
    }

    private static bool Parses(string sql)
    {
        try
        {
            SchemaStatementParser.Parse(sql);
            return true;
        }
        catch (SqlSyntaxException)
        {
            return false;
        }
    }

    private static SharcTable Parsed(string sql)
        => SchemaStatementParser.Parse(sql).Table!.ToSharcTable(2, sql);
}
