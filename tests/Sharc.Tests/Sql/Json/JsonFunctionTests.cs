namespace Sharc.Tests.Sql.Json;

/// <summary>
/// The JSON functions and operators against real SQLite, case by case: the examples of SQLite's json1
/// documentation and the quirks found by probing (JSON5 spellings, BLOB arguments, -> labels, error texts).
/// </summary>
public sealed class JsonFunctionTests
{
    private static void Check(params string[] expressions)
    {
        using var o = new JsonOracle();
        var diffs = o.Differences(expressions.Select(e => "SELECT " + e));
        diffs.Should().BeEmpty(string.Join("\n", diffs));
    }

    [Fact]
    public void Json_minifies_and_converts_json5_as_sqlite_does() => Check(
        "json(' { \"this\" : \"is\", \"a\": [ \"test\" ] } ')",
        "json('[1,+5,.5,5.,0x1F,Infinity,-Infinity,NaN,''x'',1e5, 1.50, -0x10,+.5, 1E+5, -.5e3, 0., -5.]')",
        "json('{a:1, $b_2:2, ''c\"'':3, \"d''\":4,}')",
        "json('[\"\\x41\\u00e9\\''\\v\\0\"]')",
        "json('[1 /* c */, // x\n2]')",
        "json('\"a\\\nb\"')",
        "json('[\"a' || char(9) || 'b\"]')",
        "json('0xffffffffffffffffff')", "json('-0x0')", "json('123456789012345678901234567890')",
        "json('1.5e400')", "json('infinity')", "json('-NaN')", "json('00')", "json('[1,,2]')", "json('[,]')",
        "json('True')", "json('nulls')", "json('[] x')", "json('\"\\/\"')", "json('\"\\uD83D\\uDE00\"')",
        "json(' ')", "json('')", "json(NULL)", "json(1)", "json(1.5)", "json(cast('[1,2]' as blob))",
        "json('{\"a\":1,\"a\":2}')", "json(x'00')", "json(x'0a')", "json(x'3131')");

    [Fact]
    public void Jsonb_is_byte_for_byte_sqlites() => Check(
        "hex(jsonb('[1,+5,.5,5.,0x1F,Infinity,-Infinity,NaN,\"a\\nb\",''x'',1e5, 1.50, -0x10, +.5, \"\\x41\"]'))",
        "hex(jsonb('{a:1, $b_2:2, \"d\":4}'))", "hex(jsonb('[\"a' || char(9) || 'b\"]'))",
        "hex(jsonb_array('a', 'a\"b', 1, 1.5, null, 'é', char(10), 9e999, -9e999, -0.0, 0.1, 1e300))",
        "hex(jsonb_object('a\"', 2, 'b', json('[1,{}]')))",
        "hex(jsonb('[' || replace(hex(zeroblob(300)), '00', '1,') || '1]'))",
        "hex(jsonb('\"' || hex(zeroblob(40000)) || '\"'))",
        "json(jsonb('{\"a\":[1,2,{\"b\":null}]}'))", "hex(jsonb(jsonb('[1]')))");

    [Fact]
    public void Array_and_object_constructors_embed_json_values() => Check(
        "json_array(1,2,'3',4)", "json_array('[1,2]')", "json_array(json_array(1,2))", "json_array(1,null,'3','[4,5]','{\"six\":7.7}')",
        "json_array(1,null,'3',json('[4,5]'),json('{\"six\":7.7}'))", "json_array()", "json_array(x'3131')", "json_array(x'00')",
        "json_array(0.1, 1e300, 1.0/3, 100.0, 1e15, 1e16, 1e17, -0.0, 9e999, 123456789012345678.0, 2.5e-7)",
        "json_array(char(31,8,12,13,9,10,11,92,34,47))",
        "json_object('a',2,'c',4)", "json_object('a',2,'c','{e:5}')", "json_object('a',2,'c',json_object('e',5))",
        "json_object()", "json_object('a')", "json_object(1,2)", "json_object(null,1)", "json_object('a',x'01')",
        "json_array(json_extract('{\"a\":\"[1]\"}','$.a'), json_extract('{\"a\":[1]}','$.a'))");

    [Fact]
    public void Extract_and_arrows_follow_paths_and_labels() => Check(
        "json_extract('{\"a\":2,\"c\":[4,5,{\"f\":7}]}', '$')", "json_extract('{\"a\":2,\"c\":[4,5,{\"f\":7}]}', '$.c')",
        "json_extract('{\"a\":2,\"c\":[4,5,{\"f\":7}]}', '$.c[2]')", "json_extract('{\"a\":2,\"c\":[4,5,{\"f\":7}]}', '$.c[2].f')",
        "json_extract('{\"a\":2,\"c\":[4,5],\"f\":7}','$.c','$.a')", "json_extract('{\"a\":2,\"c\":[4,5,{\"f\":7}]}', '$.x')",
        "json_extract('{\"a\":2,\"c\":[4,5,{\"f\":7}]}', '$.x', '$.a')", "json_extract('{\"a\":\"xyz\"}', '$.a')",
        "json_extract('{\"a\":null}', '$.a')", "json_extract('[0x10, .5, 9e999, -9e999, 18446744073709551616]', '$[0]')",
        "json_extract('[0x10, .5, 9e999, -9e999, 18446744073709551616]', '$[2]')", "json_extract('[18446744073709551616]', '$[0]')",
        "json_extract('[9223372036854775807, -9223372036854775808, 9223372036854775808]', '$[1]')",
        "json_extract('[9223372036854775808]', '$[0]')", "json_extract('[-0x8000000000000000]', '$[0]')",
        "json_extract('[\"\\x41\\u00e9\\ud83d\\ude00\"]', '$[0]')", "json_extract('[0xffffffffffffffffff]','$[0]')",
        "json_extract('[1,2,3]','$[#-1]')", "json_extract('[1,2,3]','$[#]')", "json_extract('[1,2,3]','$[#-4]')",
        "json_extract('[1]','$[#+1]')", "json_extract('[1]','$[a]')", "json_extract('[1]', '$ ')", "json_extract('{\"\":5}', '$.\"\"')",
        "json_extract('{\"a\":1}','$.')", "json_extract('{\"a\":1}','a')", "json_extract('{}','$.a.[')", "json_extract('{\"a\":1}','$.a.[')",
        "json_extract('{\"a\":1}','$.\"a\"x')", "json_extract('{\"a\\\"b\":1}','$.\"a\\\"b\"')", "json_extract('{\"a\\u0062\":1}', '$.ab')",
        "json_extract('{\"a.b\":1}', '$.\"a.b\"')", "json_extract('[1]', 0)", "json_extract('[1]', null)", "json_extract(null, '$')",
        "json_extract('[1,2]','$[0]','$[1]')", "json_extract('{\"a\":1}', '$.a', '$.b')", "json_extract('x', '$')",
        "'{\"a\":2,\"c\":[4,5,{\"f\":7}]}' -> '$'", "'{\"a\":2,\"c\":[4,5,{\"f\":7}]}' -> '$.c'", "'{\"a\":2,\"c\":[4,5,{\"f\":7}]}' -> 'c'",
        "'{\"a\":2,\"c\":[4,5,{\"f\":7}]}' -> '$.c[2]'", "'{\"a\":2,\"c\":[4,5,{\"f\":7}]}' -> '$.c[2].f'",
        "'{\"a\":2,\"c\":[4,5,{\"f\":7}]}' ->> '$.c[2].f'", "'{\"a\":2,\"c\":[4,5,{\"f\":7}]}' -> 'c' -> 2 ->> 'f'",
        "'{\"a\":2,\"c\":[4,5],\"f\":7}' -> '$.c[#-1]'", "'{\"a\":2,\"c\":[4,5,{\"f\":7}]}' -> '$.x'", "'[11,22,33,44]' -> 3",
        "'[11,22,33,44]' ->> 3", "'{\"a\":\"xyz\"}' -> '$.a'", "'{\"a\":\"xyz\"}' ->> '$.a'", "'{\"a\":null}' -> '$.a'",
        "'{\"a\":null}' ->> '$.a'", "'{\"a\":[1,2]}' -> 'a'", "'[5,6]' -> 1", "'[5,6]' ->> '1'", "'{\"1\":9}' ->> '1'", "'[1,2]' -> -1",
        "'[5,6]' -> '[1]'", "'{\"1.5\":3}' -> 1.5", "'{\"a\":1}' -> null", "null -> '$'", "'{\"a\":{\"b\":2}}' ->> 'a.b'", "'{\"a b\":1}' ->> 'a b'",
        "'{\"a\":1}' -> '.a'", "'{\".a\":1}' -> '.a'", "'[1,2]' -> '[#-1]'", "'{\"[0]\":7}' ->> '[0]'", "'[1]' -> x'24'",
        "jsonb('{\"a\":[1,2]}') -> '$.a'", "hex(jsonb_extract('{\"a\":[1,2]}', '$.a'))", "jsonb_extract('{\"a\":\"x\"}', '$.a')",
        "hex(jsonb_extract('{\"a\":[1,2]}', '$.a', '$.b'))");

    [Fact]
    public void Edits_insert_replace_set_and_remove_as_sqlite_does() => Check(
        "json_insert('[1,2,3,4]','$[#]',99)", "json_insert('[1,[2,3],4]','$[1][#]',99)", "json_insert('{\"a\":2,\"c\":4}', '$.a', 99)",
        "json_insert('{\"a\":2,\"c\":4}', '$.e', 99)", "json_replace('{\"a\":2,\"c\":4}', '$.a', 99)", "json_replace('{\"a\":2,\"c\":4}', '$.e', 99)",
        "json_set('{\"a\":2,\"c\":4}', '$.a', 99)", "json_set('{\"a\":2,\"c\":4}', '$.e', 99)", "json_set('{\"a\":2,\"c\":4}', '$.c', '[97,96]')",
        "json_set('{\"a\":2,\"c\":4}', '$.c', json('[97,96]'))", "json_set('{\"a\":2,\"c\":4}', '$.c', json_array(97,96))",
        "json_insert('{\"a\":1}','$.a',2,'$.b',3)", "json_replace('{\"a\":1}','$.a',2,'$.b',3)", "json_set('{\"a\":1}','$.a',2,'$.b',3)",
        "json_set('[1]','$[#]',9)", "json_set('[1]','$[5]',9)", "json_set('{}','$.a.b[0]',1)", "json_set('{}','$.a.b',1)",
        "json_set('[1]','$',9)", "json_insert('[1]','$[#]', json('{}'))", "json_set('{}','$.a[3]',1)", "json_set('{}','$.a[#-1]',1)",
        "json_set('[]','$[0]',1)", "json_set('[]','$[0].x',1)", "json_set('{\"a\":5}','$.a.b',1)", "json_insert('[1]','$[1]',2)",
        "json_set('[1]','$.a',1)", "json_set('{}','$[0]',1)", "json_set('[1]', null, 2)", "json_set('[1]', '$[0]')", "json_set('[1]', 'x', 2)",
        "json_insert('[1]', '$', 2)", "json_replace('[1]', '$', 2)", "json_set('{\"a\":1}', '$.b', x'3131')", "json_set('{\"a\":1}', '$.b', x'01')",
        "hex(jsonb_set('[1]','$[#]', 'ab'))", "hex(jsonb_set('{}','$.k', json('[1]')))", "hex(jsonb_set('{}','$.a',1))",
        "hex(jsonb_set('{}','$.\"a b\"',1))", "hex(jsonb_set('[' || replace(hex(zeroblob(5)), '00', '1,') || '1]', '$[#]', hex(zeroblob(10))))",
        "hex(jsonb_remove('[' || replace(hex(zeroblob(6)), '00', '11,') || '1]', '$[0]', '$[0]'))",
        "json_remove('[0,1,2,3,4]','$[2]')", "json_remove('[0,1,2,3,4]','$[2]','$[0]')", "json_remove('[0,1,2,3,4]','$[0]','$[2]')",
        "json_remove('[0,1,2,3,4]','$[#-1]','$[0]')", "json_remove('{\"x\":25,\"y\":42}')", "json_remove('{\"x\":25,\"y\":42}','$.z')",
        "json_remove('{\"x\":25,\"y\":42}','$.y')", "json_remove('{\"x\":25,\"y\":42}','$')", "json_remove('[1]', null)", "json_remove('[1]', '$[')",
        "json_patch('{\"a\":1,\"b\":2}','{\"c\":3,\"d\":4}')", "json_patch('{\"a\":[1,2],\"b\":2}','{\"a\":9}')",
        "json_patch('{\"a\":[1,2],\"b\":2}','{\"a\":null}')", "json_patch('{\"a\":1,\"b\":2}','{\"a\":9,\"b\":null,\"c\":8}')",
        "json_patch('{\"a\":{\"x\":1,\"y\":2},\"b\":3}','{\"a\":{\"y\":9},\"c\":8}')", "json_patch('{}','{\"a\":{\"b\":null,\"c\":1}}')",
        "json_patch('{\"a\":1,\"a\":2}','{\"a\":3}')", "json_patch('[1]','{\"a\":1}')", "json_patch('{\"a\":1}','[2]')", "hex(jsonb_patch('{\"a\":1}','{\"b\":2}'))");

    [Fact]
    public void Type_valid_quote_length_position_and_pretty_match_sqlite() => Check(
        "json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}')", "json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}','$')",
        "json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}','$.a')", "json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}','$.a[0]')",
        "json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}','$.a[1]')", "json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}','$.a[2]')",
        "json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}','$.a[3]')", "json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}','$.a[4]')",
        "json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}','$.a[5]')", "json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}','$.a[6]')",
        "json_type('[0x1, .5]', '$[0]')", "json_type('[0x1, .5]', '$[1]')", "json_type(null)", "json_type('x')",
        "json_valid('{\"x\":35}')", "json_valid('{\"x\":35')", "json_valid(NULL)", "json_valid('[1]')", "json_valid('{a:1}')",
        "json_valid('{a:1}',6)", "json_valid(jsonb('[1]'),4)", "json_valid(jsonb('[1]'),8)", "json_valid('[1]',8)", "json_valid(1)",
        "json_valid(x'3131',8)", "json_valid(x'13', 8)", "json_valid(x'1331', 8)", "json_valid(1.5)", "json_valid('1',4)",
        "json_valid('x',0)", "json_valid('x',16)", "json_valid('[1]', null)", "json_valid(x'5b315d')", "json_valid(x'5b315d', 3)",
        "json_valid('[\"a' || char(9) || 'b\"]')", "json_valid('[\"a' || char(9) || 'b\"]', 2)", "json_valid('[1,]',2)", "json_valid('[1,]')",
        "json_valid(x'1331', 4)", "json_valid(x'13', 4)", "json_valid(x'f3', 4)",
        "json_quote(3.14159)", "json_quote('verdant')", "json_quote('[1]')", "json_quote(json('[1]'))", "json_quote(null)",
        "json_quote(char(1,127,128,8232))", "json_quote(x'01')", "json_quote(x'3131')", "json_quote(9e999)",
        "json_array_length('[1,2,3,4]')", "json_array_length('[1,2,3,4]', '$')", "json_array_length('[1,2,3,4]', '$[2]')",
        "json_array_length('{\"one\":[1,2,3]}')", "json_array_length('{\"one\":[1,2,3]}', '$.one')", "json_array_length('{\"one\":[1,2,3]}', '$.two')",
        "json_array_length('5')", "json_array_length('[1]','$[3]')",
        "json_error_position('[1,2,x]')", "json_error_position('  é[1,')", "json_error_position('{\"a\":1')", "json_error_position('')",
        "json_error_position(x'00')", "json_error_position(x'0a')", "json_error_position(null)", "json_error_position('[1]')",
        "json_error_position('{a:1}')", "json_error_position('[1,,2]')", "json_error_position('[00]')", "json_error_position('\"abc')",
        "json_error_position('[1e]')", "json_error_position('{\"a\" 1}')", "json_error_position('[tru]')", "json_error_position(x'3131')",
        "json_pretty('{\"a\":[1,2,{}],\"b\":{},\"c\":[]}')", "json_pretty('[1]','--')", "json_pretty('[1,{\"a\":[]}]', '')",
        "json_pretty('5')", "json_pretty(null)", "json_pretty('[1]', null)");
}
