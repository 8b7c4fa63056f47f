namespace Sharc.Tests.Sql.Json;

/// <summary>
/// Table-valued functions in FROM (json_each, json_tree, the pragma_ functions), alone, joined to the tables
/// before them and inside correlated subqueries; and the JSON aggregates, also as window functions.
/// </summary>
public sealed class JsonTableFunctionTests
{
    private static readonly string[] Setup =
    [
        "CREATE TABLE docs(id INTEGER PRIMARY KEY, data TEXT, tags BLOB)",
        "INSERT INTO docs VALUES (1, '{\"name\":\"ann\",\"age\":31,\"tags\":[\"a\",\"b\"],\"addr\":{\"city\":\"Oslo\",\"zip\":\"0150\"}}', jsonb('[1,2,3]'))",
        "INSERT INTO docs VALUES (2, '{\"name\":\"bob\",\"age\":25,\"tags\":[],\"addr\":null}', jsonb('[]'))",
        "INSERT INTO docs VALUES (3, '[1,2,[3,4],{\"x\":5}]', NULL)",
        "INSERT INTO docs VALUES (4, '7', jsonb('{\"k\":[true,false,null]}'))",
        "INSERT INTO docs VALUES (5, NULL, NULL)",
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT NOT NULL DEFAULT 'x', c REAL REFERENCES t(a) ON DELETE CASCADE, d)",
        "CREATE INDEX tb ON t(b DESC, c COLLATE NOCASE)",
        "CREATE UNIQUE INDEX td ON t(d) WHERE d > 0",
        "CREATE TABLE kv(k TEXT, v, g INT)",
        "INSERT INTO kv VALUES ('a', 1, 1), ('b', 'two', 1), ('c', NULL, 2), (NULL, 4, 2), ('e', 5.5, 2), ('f', json('[1]'), 3)",
    ];

    private static void Check(params string[] statements)
    {
        using var o = new JsonOracle(Setup);
        var diffs = o.Differences(statements);
        diffs.Should().BeEmpty(string.Join("\n", diffs));
    }

    [Fact]
    public void Json_each_and_json_tree_give_sqlites_rows_and_ids() => Check(
        "SELECT *, json, root FROM json_each('{\"a\":1,\"b c\":[2,{\"x\":null}],\"1\":\"s\",\"\":true, \"é\":1.5}')",
        "SELECT * FROM json_tree('{\"a\":1,\"b c\":[2,{\"x\":null}],\"d.e\":\"s\"}')",
        "SELECT * FROM json_each('[5,[6]]', '$[1]')", "SELECT * FROM json_each('5')", "SELECT * FROM json_tree('5')",
        "SELECT * FROM json_each('[1]', '$.x')", "SELECT * FROM json_each(NULL)", "SELECT * FROM json_tree('{\"a\":[1]}', '$.a')",
        "SELECT * FROM json_each('{\"a\\\"b\":1, \"c\\u0041\":2}')", "SELECT * FROM json_each('x')", "SELECT * FROM json_each('[1]', 'x')",
        "SELECT key, value, type, atom, id, parent, fullkey, path FROM jsonb_each(jsonb('[1,[2],{\"a\":3}]'))",
        "SELECT key, hex(value), type, id, parent, fullkey FROM jsonb_tree('[1,[2],{\"a\":3}]')",
        "SELECT * FROM json_tree('[[[[1]]],{\"a\":{\"b\":[{\"c\":0x10}]}}]')", "SELECT * FROM json_tree('[1,2]', '$[1]')",
        "SELECT value FROM json_each('[3,1,2]') ORDER BY value", "SELECT sum(value) FROM json_each('[3,1,2]')",
        "SELECT * FROM json_each('[1]', '$', 3)", "SELECT j.key FROM json_each('{\"q\":1}') AS j WHERE j.value = 1");

    [Fact]
    public void Json_each_joins_to_earlier_tables_and_runs_in_correlated_subqueries() => Check(
        "SELECT d.id, j.key, j.value, j.type FROM docs d, json_each(d.data) j ORDER BY d.id, j.id",
        "SELECT d.id, j.fullkey, j.atom FROM docs AS d JOIN json_tree(d.data) AS j ORDER BY d.id, j.id",
        "SELECT d.id, j.value FROM docs d LEFT JOIN json_each(d.data, '$.tags') j ORDER BY d.id, j.id",
        "SELECT d.id, t.value FROM docs d, json_each(d.data, '$.tags') t WHERE t.value = 'b'",
        "SELECT id FROM docs WHERE EXISTS (SELECT 1 FROM json_each(docs.data) WHERE value = 2) ORDER BY id",
        "SELECT id, (SELECT count(*) FROM json_each(data)) FROM docs ORDER BY id",
        "SELECT id, (SELECT group_concat(key) FROM json_tree(docs.data) WHERE type = 'text') FROM docs ORDER BY id",
        "SELECT d.id, j.value FROM docs d, jsonb_each(d.tags) j ORDER BY 1, j.id",
        "SELECT a.value, b.value FROM json_each('[1,2]') a, json_each(json_array(a.value, a.value * 10)) b ORDER BY 1, 2",
        "SELECT count(*) FROM docs, json_each(docs.data)");

    [Fact]
    public void Pragma_functions_answer_as_the_pragmas_do() => Check(
        "SELECT * FROM pragma_table_info('t')", "SELECT * FROM pragma_table_xinfo('t')", "SELECT name FROM pragma_table_info('t') WHERE pk",
        "SELECT * FROM pragma_index_list('t') ORDER BY name", "SELECT * FROM pragma_index_info('tb')", "SELECT * FROM pragma_index_xinfo('tb')",
        "SELECT m.name, p.cid, p.name, p.type FROM sqlite_schema m, pragma_table_info(m.name) p WHERE m.type = 'table' ORDER BY 1, 2",
        "SELECT m.name, i.name, i.\"unique\" FROM sqlite_schema m JOIN pragma_index_list(m.name) i WHERE m.type = 'table' ORDER BY 1, 2",
        "SELECT * FROM pragma_table_info('nope')", "SELECT * FROM pragma_table_info(NULL)", "SELECT * FROM pragma_user_version",
        "SELECT * FROM pragma_page_size()", "SELECT page_size FROM pragma_page_size", "SELECT * FROM pragma_encoding",
        "SELECT * FROM pragma_schema_version", "SELECT * FROM pragma_table_info('t', 'main')", "SELECT * FROM pragma_nope",
        "SELECT * FROM pragma_table_info('t', 'aux')", "SELECT * FROM pragma_table_info('t', 'main', 3)",
        "SELECT arg, schema FROM pragma_table_info('t') LIMIT 1");

    [Fact]
    public void Json_aggregates_group_and_run_as_window_functions() => Check(
        "SELECT json_group_array(v) FROM kv", "SELECT json_group_object(k, v) FROM kv", "SELECT g, json_group_array(k) FROM kv GROUP BY g",
        "SELECT hex(jsonb_group_array(v)), hex(jsonb_group_object(k, v)) FROM kv", "SELECT json_group_array(v) FROM kv WHERE 0",
        "SELECT json_group_object(k, v) FROM kv WHERE 0", "SELECT json_group_object(g, k) FROM kv",
        "SELECT k, json_group_array(v) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM kv ORDER BY k",
        "SELECT k, json_group_object(k, g) OVER (PARTITION BY g ORDER BY k) FROM kv ORDER BY g, k",
        "SELECT json_group_array(DISTINCT g) FROM kv", "SELECT json_group_array(json_object('k', k)) FROM kv",
        "SELECT json_group_array(x'3131') FROM kv");

    [Fact]
    public void Arrow_operators_filter_and_project_table_columns() => Check(
        "SELECT id FROM docs WHERE data ->> '$.name' = 'bob'", "SELECT id, data -> 'addr' ->> 'city' FROM docs WHERE id < 3 ORDER BY id",
        "SELECT id FROM docs WHERE data ->> 'age' > 30", "SELECT id, tags -> 0, tags ->> '$[1]' FROM docs ORDER BY id",
        "SELECT id, json_extract(data, '$.tags[#-1]') FROM docs WHERE id < 3 ORDER BY id",
        "SELECT id FROM docs WHERE json_valid(data) ORDER BY id", "SELECT id, json_type(data) FROM docs ORDER BY id");
}
