using Sharc.Schema.Parsing;

namespace Sharc.Tests.Schema;

public class SchemaStatementParserTests
{
    private static SharcTable Table(string sql) => SchemaStatementParser.Parse(sql).Table!.ToSharcTable(2, sql);

    [Theory]
    [InlineData("CREATE TABLE t(a)", "t")]
    [InlineData("create temp table if not exists t(a)", "t")]
    [InlineData("CREATE TEMPORARY TABLE \"quoted \"\"t\"\"\"(a)", "quoted \"t\"")]
    [InlineData("CREATE TABLE 'string name'(a)", "string name")]
    [InlineData("CREATE TABLE [br name](a)", "br name")]
    [InlineData("CREATE TABLE `back``tick`(a)", "back`tick")]
    [InlineData("CREATE TABLE left(a)", "left")]
    [InlineData("CREATE TABLE Été(a)", "Été")]
    public void Table_names_are_unquoted(string sql, string name)
    {
        var st = SchemaStatementParser.Parse(sql);
        st.Kind.Should().Be(SchemaObjectKind.Table);
        st.Name.Should().Be(name);
        st.TableName.Should().Be(name);
        st.Qualified.Should().BeFalse();
    }

    [Theory]
    [InlineData("CREATE TABLE main.t(a)")]
    [InlineData("CREATE INDEX main.i ON t(a)")]
    [InlineData("CREATE VIEW \"main\".v AS SELECT 1")]
    [InlineData("CREATE TRIGGER temp.tr AFTER INSERT ON t BEGIN SELECT 1; END")]
    [InlineData("CREATE VIRTUAL TABLE main.v USING m")]
    public void Schema_qualified_names_are_reported(string sql)
        => SchemaStatementParser.Parse(sql).Qualified.Should().BeTrue();

    [Fact]
    public void Table_options_may_repeat_in_any_order_and_case()
    {
        var t = Table("CREATE TABLE t(a INT PRIMARY KEY) strict, Without RowId, STRICT");
        t.IsStrict.Should().BeTrue();
        t.IsWithoutRowId.Should().BeTrue();
        Table("CREATE TABLE t(a)").IsStrict.Should().BeFalse();
    }

    [Fact]
    public void Column_constraints_in_any_order_are_all_taken_into_account()
    {
        var t = Table("CREATE TABLE t(a TEXT COLLATE NOCASE NOT NULL UNIQUE DEFAULT 'x' CHECK(a <> '') REFERENCES p(id) ON DELETE CASCADE, b UNIQUE NOT NULL COLLATE rtrim)");
        var a = t.Columns[0];
        (a.Collation, a.IsNotNull, a.IsUnique, a.DefaultSql, a.DefaultValue).Should().Be(("NOCASE", true, true, "'x'", (object)"x"));
        var b = t.Columns[1];
        (b.Collation, b.IsNotNull, b.IsUnique).Should().Be(("rtrim", true, true));
    }

    [Fact]
    public void Declared_types_keep_their_spelling_except_standard_names()
    {
        var t = Table("CREATE TABLE t(a integer, b Text, c VarChar(255), d DECIMAL(10, 5), e \"double precision\", f UNSIGNED BIG INT, g)");
        t.Columns.Select(c => c.DeclaredType).Should().Equal("INTEGER", "TEXT", "VarChar(255)", "DECIMAL(10, 5)", "double precision", "UNSIGNED BIG INT", "");
        t.Columns.Select(c => c.Affinity).Should().Equal(SharcAffinity.Integer, SharcAffinity.Text, SharcAffinity.Text,
            SharcAffinity.Numeric, SharcAffinity.Real, SharcAffinity.Integer, SharcAffinity.Blob);
    }

    [Fact]
    public void Strict_tables_map_any_to_blob_affinity()
    {
        var t = Table("CREATE TABLE t(a ANY, b INT, c INTEGER, d REAL, e TEXT, f BLOB) STRICT");
        t.Columns.Select(c => c.Affinity).Should().Equal(SharcAffinity.Blob, SharcAffinity.Integer, SharcAffinity.Integer,
            SharcAffinity.Real, SharcAffinity.Text, SharcAffinity.Blob);
        Table("CREATE TABLE t(a ANY)").Columns[0].Affinity.Should().Be(SharcAffinity.Numeric);
    }

    [Fact]
    public void Autoincrement_is_recorded_for_the_rowid_alias()
    {
        var t = Table("CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT, x)");
        (t.IsAutoIncrement, t.RowIdAliasOrdinal).Should().Be((true, 0));
        t.PrimaryKey.Should().Equal(0);
        Table("CREATE TABLE t(id INTEGER PRIMARY KEY, x)").IsAutoIncrement.Should().BeFalse();
    }

    [Fact]
    public void Virtual_tables_keep_name_and_sql_but_have_no_columns()
    {
        const string sql = "CREATE VIRTUAL TABLE IF NOT EXISTS ft USING fts5(a, b, tokenize = 'porter ascii', x(y))";
        var st = SchemaStatementParser.Parse(sql);
        st.Name.Should().Be("ft");
        var t = st.Table!.ToSharcTable(0, sql);
        (t.IsVirtual, t.RootPage, t.Columns.Count, t.Sql).Should().Be((true, 0u, 0, sql));
        SchemaStatementParser.Parse("CREATE VIRTUAL TABLE v USING mod").Table!.IsVirtual.Should().BeTrue();
    }

    [Fact]
    public void Indexes_record_uniqueness_table_keys_and_where_clause()
    {
        var st = SchemaStatementParser.Parse("CREATE UNIQUE INDEX IF NOT EXISTS \"my index\" ON [my table] (b DESC, lower(a) COLLATE nocase, c ASC) WHERE b IS NOT NULL /* c */ ;");
        st.Kind.Should().Be(SchemaObjectKind.Index);
        (st.Name, st.TableName, st.IsUnique, st.WhereSql).Should().Be(("my index", "my table", true, "b IS NOT NULL"));
        st.Keys.Select(k => (k.ColumnName, k.Descending, k.Collation, k.ExpressionSql)).Should().Equal(
            ("b", true, null, "b"), (null, false, "nocase", "lower(a)"), ("c", false, null, "c"));
    }

    [Fact]
    public void Keywords_usable_as_names_are_columns_in_index_keys()
    {
        var st = SchemaStatementParser.Parse("CREATE INDEX i ON t(desc desc, asc asc, key, \"desc\")");
        st.Keys.Select(k => (k.ColumnName, k.Descending)).Should().Equal(("desc", true), ("asc", false), ("key", false), ("desc", false));
    }

    [Fact]
    public void Views_record_their_column_names_and_select()
    {
        var st = SchemaStatementParser.Parse("CREATE VIEW IF NOT EXISTS v1 (x, \"y\" COLLATE nocase, [z] DESC) AS SELECT a, b, c FROM t WHERE a > ';' ;");
        (st.Kind, st.Name).Should().Be((SchemaObjectKind.View, "v1"));
        st.ColumnNames.Should().Equal("x", "y", "z");
        st.SelectSql.Should().Be("SELECT a, b, c FROM t WHERE a > ';'");
        SchemaStatementParser.Parse("CREATE TEMP VIEW v AS WITH c AS (SELECT 1) SELECT * FROM c").ColumnNames.Should().BeEmpty();
    }

    [Theory]
    [InlineData("CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END", "tr", "t")]
    [InlineData("CREATE TEMP TRIGGER IF NOT EXISTS \"t r\" BEFORE UPDATE OF a, b ON main.[t 2] FOR EACH ROW WHEN new.a > 0 BEGIN UPDATE t SET b = CASE WHEN 1 THEN 2 END; INSERT INTO t VALUES (1, 2); END", "t r", "t 2")]
    [InlineData("CREATE TRIGGER tr INSTEAD OF DELETE ON v BEGIN DELETE FROM t WHERE a = old.a; END;", "tr", "v")]
    [InlineData("CREATE TRIGGER tr DELETE ON t WHEN old.begin = 'end' BEGIN SELECT RAISE(ABORT, 'no; END'); END", "tr", "t")]
    [InlineData("CREATE TRIGGER tr UPDATE ON t WHEN (SELECT count(*) FROM t) > 1 BEGIN SELECT 1 FROM t ORDER BY 1; END", "tr", "t")]
    public void Triggers_record_name_and_table(string sql, string name, string table)
    {
        var st = SchemaStatementParser.Parse(sql);
        (st.Kind, st.Name, st.TableName).Should().Be((SchemaObjectKind.Trigger, name, table));
    }

    [Fact]
    public void Hex_and_separated_numbers_in_defaults_have_sqlites_values()
    {
        var t = Table("CREATE TABLE t(a DEFAULT 0xFF, b DEFAULT 1_000, c DEFAULT -0x7FFFFFFFFFFFFFFF, d INT DEFAULT '0x10')");
        t.Columns.Select(c => c.DefaultValue).Should().Equal(255L, 1000L, -0x7FFFFFFFFFFFFFFFL, "0x10");
    }

    [Fact]
    public void Default_true_and_false_are_one_and_zero_but_quoted_they_are_text()
        => Table("CREATE TABLE t(a DEFAULT TRUE, b DEFAULT false, c DEFAULT \"true\", d TEXT DEFAULT true)")
            .Columns.Select(c => c.DefaultValue).Should().Equal(1L, 0L, "true", "1");
}
