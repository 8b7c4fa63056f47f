using FluentAssertions;
using Sharc.Tests.Sql.Writes;

namespace Sharc.Tests.Sql.Functions;

/// <summary>unistr(), unistr_quote(), subtype() and json_array_insert() of SQLite 3.53, compared with it.</summary>
public sealed class UnicodeEscapeFunctionTests
{
    [Theory]
    [InlineData(@"a\u0041\U0001F600\+01F600\0042\\x")]
    [InlineData(@"\u00e9\u4e2d")]
    [InlineData(@"\d800")]
    [InlineData(@"\U00110000")]
    [InlineData(@"\UFFFFFFFF")]
    [InlineData(@"\uD83D\uDE00")]
    [InlineData(@"\0041x")]
    [InlineData(@"plain")]
    [InlineData(@"")]
    [InlineData(@"\")]
    [InlineData(@"abc\")]
    [InlineData(@"\00")]
    [InlineData(@"\u004")]
    [InlineData(@"\u004g")]
    [InlineData(@"\U0001F60")]
    [InlineData(@"\+1F60")]
    [InlineData(@"\x41")]
    [InlineData(@"\q")]
    public void Unistr_decodes_escapes_or_fails_as_sqlite(string text)
    {
        using var o = new WriteOracle();
        o.Both("SELECT hex(unistr(?1)), typeof(unistr(?1))", text);
    }

    [Fact]
    public void Unistr_converts_other_types_and_passes_null()
    {
        using var o = new WriteOracle();
        o.Ok("SELECT unistr(5), unistr(NULL), unistr(x'41'), unistr(1.5), hex(unistr('\\u0000a')), hex(unistr(x'5c7530303431ff'))");
        o.Both("SELECT unistr()").Error.Should().Be("wrong number of arguments to function unistr()");
    }

    [Theory]
    [InlineData("SELECT unistr_quote('a'), unistr_quote(''), unistr_quote('it''s'), unistr_quote('a\\b')")]
    [InlineData("SELECT unistr_quote('a' || char(10) || 'b'), unistr_quote('a''' || char(10)), unistr_quote('a\\b' || char(10))")]
    [InlineData("SELECT unistr_quote(char(1, 127, 128, 8232)), unistr_quote(char(13, 9, 133)), unistr_quote(char(31)), unistr_quote(char(1114111))")]
    [InlineData("SELECT unistr_quote(5), unistr_quote(NULL), unistr_quote(x'01'), unistr_quote(x''), unistr_quote(1.5), unistr_quote(-0.0), unistr_quote(1e300), unistr_quote(9223372036854775807)")]
    public void Unistr_quote_writes_literals_as_sqlite(string sql)
    {
        using var o = new WriteOracle();
        o.Ok(sql);
        // Where SQLite's quote() agrees, the text is an ordinary literal.
        o.Ok(sql.Replace("unistr_quote(", "quote(", StringComparison.Ordinal));
    }

    [Fact]
    public void Subtype_is_74_for_json_results_and_0_otherwise()
    {
        using var o = new WriteOracle();
        o.Ok("SELECT subtype(json('1')), subtype(1), subtype(jsonb('1')), subtype(json_extract('[1]','$')), subtype(json_extract('[[1]]','$[0]')), subtype('[1]' -> '$'), subtype('[1]' ->> '$')");
        o.Ok("SELECT subtype(json_array()), subtype(json_quote('a')), subtype(NULL), subtype('x'), subtype(x'01'), subtype(1.5)");
        o.Both("SELECT subtype(1, 2)").Error.Should().Be("wrong number of arguments to function subtype()");
    }

    [Theory]
    [InlineData("SELECT json_array_insert('[1,2,3]','$[0]',999,'$[0]',888)")]
    [InlineData("SELECT json_array_insert('[1,2,3]','$[0]',999,'$[#]',888)")]
    [InlineData("SELECT json_array_insert('[1,2,3]','$[1]',888)")]
    [InlineData("SELECT json_array_insert('[1,2,3]','$[3]',888)")]
    [InlineData("SELECT json_array_insert('[1,2,3]','$[5]',888)")]
    [InlineData("SELECT json_array_insert('[1,2,3]','$[#-1]',888)")]
    [InlineData("SELECT json_array_insert('[1,2,3]','$[#-3]',888)")]
    [InlineData("SELECT json_array_insert('[1,2,3]','$[#-5]',888)")]
    [InlineData("SELECT json_array_insert('[1,2,3]','$[#-0]',888)")]
    [InlineData("SELECT json_array_insert('[1,2,3]','$.a',9)")]
    [InlineData("SELECT json_array_insert('{\"a\":1}','$.a',9)")]
    [InlineData("SELECT json_array_insert('{\"a\":1}','$.a[0]',9)")]
    [InlineData("SELECT json_array_insert('{\"a\":1}','$.b[0]',9)")]
    [InlineData("SELECT json_array_insert('{\"a\":[1,2]}','$.a[0]',9)")]
    [InlineData("SELECT json_array_insert('{\"a\":[1]}','$.a[#]',9)")]
    [InlineData("SELECT json_array_insert('[1,2,3]','$',9)")]
    [InlineData("SELECT json_array_insert('[1,2,3]','$[1]')")]
    [InlineData("SELECT json_array_insert('[1,2,3]',NULL,9)")]
    [InlineData("SELECT json_array_insert('[1,2,3]','$[1]',json('[7]'))")]
    [InlineData("SELECT json_array_insert('[1,2,3]','$[1]','[7]')")]
    [InlineData("SELECT json_array_insert('[[1],2,3]','$[0][0]','x')")]
    [InlineData("SELECT json_array_insert('[1,2,3]','x',9)")]
    [InlineData("SELECT json_array_insert('[1,2,3]','$[1].a',9)")]
    [InlineData("SELECT json_array_insert('[1,2', '$[0]', 9)")]
    [InlineData("SELECT json_array_insert(NULL, '$[0]', 9)")]
    [InlineData("SELECT json_array_insert('[1,2,3]', '$[1]', x'01')")]
    [InlineData("SELECT json_array_insert(x'01')")]
    [InlineData("SELECT hex(jsonb_array_insert('[1,2,3]','$[1]',9))")]
    [InlineData("SELECT json(jsonb_array_insert(jsonb('[\"a\",{\"b\":[1,2,3,4,5,6,7,8,9,10,11,12]}]'),'$[1].b[11]','abcdefghijklmnopqrstuvwxyz'))")]
    public void Json_array_insert_answers_as_sqlite(string sql)
    {
        using var o = new WriteOracle();
        o.Both(sql);
    }
}
