namespace Sharc.Tests.Schema;

/// <summary>
/// DEFAULT values as SQLite produces them for rows that predate the column (ALTER TABLE ADD COLUMN):
/// each case adds a column to a table that already has a row and compares that row's value with Sharc's.
/// </summary>
public class DefaultValueOracleTests
{
    private static readonly string[] Types = ["", "TEXT", "INTEGER", "REAL", "NUMERIC", "VARCHAR(5)", "DOUBLE", "BLOB"];

    private static readonly string[] Defaults =
    [
        "1", "-1", "+1", "- 1", "1.50", "-1.50", "2.0", "1e2", "-0.0", "1e400", "00012", "1_000", "1_0.5",
        "0x10", "-0x10", "0x100000000", "-0x100000000", "0xFFFFFFFFFFFFFFFF", "-0x8000000000000000", "0x10000000000000000",
        "99999999999999999999", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "000000000002147483648",
        "'12'", "' 12 '", "'1.0'", "'1e2'", "'abc'", "''", "'0x10'", "+'x'", "-'5'", "-'abc'", "'it''s'",
        "x'3132'", "x''", "NULL", "+NULL", "-NULL", "true", "FALSE", "\"true\"", "abc", "\"abc\"", "[key]", "`x y`",
        "(5)", "((5))", "(-(-5))", "(-'5')", "(-'abc')", "(- -1.5)", "(- - '1.50')", "(-x'31')", "(-(x'01'))", "(-null)",
        "(true)", "(+(-5))", "(((-'1')))", "(-9223372036854775808)", "(- -9223372036854775808)", "(-(-9223372036854775808))",
        "(cast(1 as text))", "(cast('12abc' as integer))", "(cast(1.9 as integer))", "(cast('abc' as real))",
        "(cast(x'3132' as integer))", "(cast(12 as blob))", "(cast('ab' as blob))", "(cast(x'6162' as text))",
        "(cast('5.0' as numeric))", "(cast(null as text))", "(cast(1e20 as integer))", "(cast(-1.5 as text))",
        "(cast(1.0 as text))", "(cast(' 7 ' as foo))", "(cast(cast(3 as real) as text))", "(cast(1e100 as text))",
        "(cast(1 as))", "(cast('1' as int(5)))", "(cast(-(1) as text))", "(cast(- '1.9e2x' as numeric))",
        "(cast('1.9e2x' as real))", "(cast(2.5 as blob))", "(cast(x'e282ac' as text))",
        // Not constant for SQLite: ALTER TABLE refuses them.
        "CURRENT_TIMESTAMP", "current_date", "(CURRENT_TIME)", "(1+2)", "('x' COLLATE nocase)", "(~1)", "(NOT 1)",
        "(+'1' || '')", "(abs(-1))", "(coalesce(NULL, 1))",
    ];

    public static TheoryData<string, string> Cases()
    {
        var data = new TheoryData<string, string>();
        foreach (var d in Defaults)
        {
            foreach (var t in Types) data.Add(t, d);
        }
        return data;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void Default_value_is_what_sqlite_reads_for_a_row_without_the_column(string type, string dflt)
    {
        using var db = SchemaOracle.Create("CREATE TABLE t(x)", "INSERT INTO t VALUES (1)");
        string? error = db.TryExec($"ALTER TABLE t ADD COLUMN c {type} DEFAULT {dflt}");
        if (error is not null)
        {
            error.Should().Contain("non-constant default");
            db.Exec($"CREATE TABLE u(c {type} DEFAULT {dflt})");
            var column = db.Build().GetTable("u").Columns[0];
            column.HasConstantDefault.Should().BeFalse();
            column.DefaultValue.Should().BeNull();
            column.DefaultSql.Should().Be(db.TableXInfo("u")[0].Default);
            return;
        }

        var expected = db.Rows("SELECT c FROM t")[0][0];
        var c = db.Build().GetTable("t").Columns[1];
        c.HasConstantDefault.Should().BeTrue();
        Describe(c.DefaultValue).Should().Be(Describe(expected));
        c.DefaultSql.Should().Be(db.TableXInfo("t")[1].Default);
    }

    [Fact]
    public void A_column_without_default_reads_as_a_constant_null()
    {
        using var db = SchemaOracle.Create("CREATE TABLE t(a INT NOT NULL, b)");
        var t = db.Build().GetTable("t");
        t.Columns.Should().OnlyContain(c => c.HasConstantDefault && c.DefaultValue == null && c.DefaultSql == null);
    }

    [Fact]
    public void Generated_columns_have_no_default()
    {
        using var db = SchemaOracle.Create("CREATE TABLE t(a, b AS (a * 2), c INT GENERATED ALWAYS AS (a + 1) STORED)");
        var t = db.Build().GetTable("t");
        t.Columns[1].Generated.Should().Be(SharcGeneratedKind.Virtual);
        t.Columns[1].GeneratedSql.Should().Be("a * 2");
        t.Columns[2].Generated.Should().Be(SharcGeneratedKind.Stored);
        t.Columns[2].GeneratedSql.Should().Be("a + 1");
        t.Columns.Skip(1).Should().OnlyContain(c => !c.HasConstantDefault && c.DefaultSql == null);
    }

    private static string Describe(object? v) => v switch
    {
        null => "null",
        long l => $"integer {l}",
        double d => $"real {(d == 0 ? 0.0 : d).ToString("R", System.Globalization.CultureInfo.InvariantCulture)}",
        string s => $"text '{s}'",
        byte[] b => $"blob {Convert.ToHexString(b)}",
        _ => $"{v.GetType().Name} {v}",
    };
}
