using Sharc.Schema;

namespace Sharc.Tests.Schema;

public class AffinityRulesTests
{
    [Theory]
    // The examples of section 3.1.1 of SQLite's datatype documentation.
    [InlineData("INT", SharcAffinity.Integer)]
    [InlineData("INTEGER", SharcAffinity.Integer)]
    [InlineData("TINYINT", SharcAffinity.Integer)]
    [InlineData("SMALLINT", SharcAffinity.Integer)]
    [InlineData("MEDIUMINT", SharcAffinity.Integer)]
    [InlineData("BIGINT", SharcAffinity.Integer)]
    [InlineData("UNSIGNED BIG INT", SharcAffinity.Integer)]
    [InlineData("INT2", SharcAffinity.Integer)]
    [InlineData("INT8", SharcAffinity.Integer)]
    [InlineData("CHARACTER(20)", SharcAffinity.Text)]
    [InlineData("VARCHAR(255)", SharcAffinity.Text)]
    [InlineData("VARYING CHARACTER(255)", SharcAffinity.Text)]
    [InlineData("NCHAR(55)", SharcAffinity.Text)]
    [InlineData("NATIVE CHARACTER(70)", SharcAffinity.Text)]
    [InlineData("NVARCHAR(100)", SharcAffinity.Text)]
    [InlineData("TEXT", SharcAffinity.Text)]
    [InlineData("CLOB", SharcAffinity.Text)]
    [InlineData("BLOB", SharcAffinity.Blob)]
    [InlineData("", SharcAffinity.Blob)]
    [InlineData("REAL", SharcAffinity.Real)]
    [InlineData("DOUBLE", SharcAffinity.Real)]
    [InlineData("DOUBLE PRECISION", SharcAffinity.Real)]
    [InlineData("FLOAT", SharcAffinity.Real)]
    [InlineData("NUMERIC", SharcAffinity.Numeric)]
    [InlineData("DECIMAL(10,5)", SharcAffinity.Numeric)]
    [InlineData("BOOLEAN", SharcAffinity.Numeric)]
    [InlineData("DATE", SharcAffinity.Numeric)]
    [InlineData("DATETIME", SharcAffinity.Numeric)]
    // The documented surprises: rule order decides.
    [InlineData("FLOATING POINT", SharcAffinity.Integer)]
    [InlineData("STRING", SharcAffinity.Numeric)]
    [InlineData("CHARINT", SharcAffinity.Integer)]
    [InlineData("BLOB TEXT", SharcAffinity.Text)]
    [InlineData("DOUBLE BLOB", SharcAffinity.Blob)]
    [InlineData("varchar", SharcAffinity.Text)]
    [InlineData("ANY", SharcAffinity.Numeric)]
    // Case folding is ASCII only: a dotless i is not an I.
    [InlineData("\u0131nt", SharcAffinity.Numeric)]
    public void Declared_type_gives_the_documented_affinity(string declaredType, object affinity)
        => AffinityRules.FromDeclaredType(declaredType).Should().Be((SharcAffinity)affinity);

    [Fact]
    public void Affinity_from_declared_type_matches_how_sqlite_stores_values()
    {
        // INTEGER and NUMERIC behave identically on storage, so the probe tells four classes apart.
        string[] types = ["INT", "BIGINT", "VARCHAR(10)", "NCHAR", "CLOB", "BLOB", "", "DOUBLE", "FLOAT", "REAL",
            "DECIMAL(10,5)", "BOOLEAN", "FLOATING POINT", "STRING", "DOUBLE BLOB", "CHARBLOB", "X", "TEXT INT"];
        var columns = string.Join(", ", types.Select((t, i) => $"c{i} {t}"));
        using var db = SchemaOracle.Create($"CREATE TABLE t({columns})");
        db.Exec($"INSERT INTO t VALUES ({string.Join(", ", types.Select(_ => "'1.0'"))})");
        var stored = db.Rows($"SELECT {string.Join(", ", types.Select((_, i) => $"typeof(c{i})"))} FROM t")[0];
        var table = db.Build().GetTable("t");
        for (int i = 0; i < types.Length; i++)
        {
            string expected = table.Columns[i].Affinity switch
            {
                SharcAffinity.Integer or SharcAffinity.Numeric => "integer",
                SharcAffinity.Real => "real",
                _ => "text",
            };
            stored[i].Should().Be(expected, "type '{0}'", types[i]);
            table.Columns[i].Affinity.Should().Be(AffinityRules.FromDeclaredType(types[i]));
        }
    }

    [Fact]
    public void A_type_written_but_empty_after_unquoting_gives_numeric_affinity_unlike_no_type()
    {
        using var db = SchemaOracle.Create("CREATE TABLE t(a \"\", b '', c [], d, e GENERATED ALWAYS, f \"blob\")");
        db.Exec("INSERT INTO t VALUES ('1', '1', '1', '1', '1', '1')");
        db.Rows("SELECT typeof(a), typeof(b), typeof(c), typeof(d), typeof(e), typeof(f) FROM t")[0]
            .Should().Equal("integer", "integer", "integer", "text", "text", "text");
        db.Build().GetTable("t").Columns.Select(c => c.Affinity).Should().Equal(
            SharcAffinity.Numeric, SharcAffinity.Numeric, SharcAffinity.Numeric, SharcAffinity.Blob, SharcAffinity.Blob, SharcAffinity.Blob);
    }

    public static TheoryData<string, object?> Values => new()
    {
        { "null", null },
        { "int", 42L },
        { "negative int", -7L },
        { "max int", long.MaxValue },
        { "min int", long.MinValue },
        { "2^53+1", 9007199254740993L },
        { "real", 1.5 },
        { "integral real", 3.0 },
        { "negative zero", -0.0 },
        { "huge real", 1e20 },
        { "2^63 real", 9223372036854775808.0 },
        { "tiny real", 5e-324 },
        { "third", 1.0 / 3 },
        { "0.1+0.2", 0.1 + 0.2 },
        { "1e15", 1e15 },
        { "1e14", 1e14 },
        { "0.0001", 0.0001 },
        { "1e-5", 1e-5 },
        { "infinity", double.PositiveInfinity },
        { "-infinity", double.NegativeInfinity },
        { "text", "abc" },
        { "empty text", "" },
        { "int text", "12" },
        { "spaced int text", " \t12\n " },
        { "vertical tab", "\v5\v" },
        { "signed text", "+5" },
        { "negative text", "-0" },
        { "real text", "1.5" },
        { "integral real text", "1.0" },
        { "exponent text", "1.5e+3" },
        { "dot text", ".5" },
        { "trailing dot", "1." },
        { "bare exponent", "1e" },
        { "prefix", "12abc" },
        { "hex text", "0x10" },
        { "separator text", "1_000" },
        { "big int text", "9223372036854775807" },
        { "overflow text", "9223372036854775808" },
        { "min text", "-9223372036854775808" },
        { "2^53+1 text", "9007199254740993" },
        { "2^51+1 real text", "2251799813685249.0" },
        { "huge exponent", "1e400" },
        { "leading zeros", "00001.5000" },
        { "minus only", "-" },
        { "blob", new byte[] { 0x31, 0x32 } },
        { "empty blob", Array.Empty<byte>() },
    };

    [Theory]
    [MemberData(nameof(Values))]
    public void Applying_affinity_gives_what_sqlite_reads_back_from_such_a_column(string label, object? value)
    {
        using var db = SchemaOracle.Create("CREATE TABLE t(t TEXT, i INTEGER, r REAL, n NUMERIC, b BLOB)");
        using (var cmd = db.Connection.CreateCommand())
        {
            cmd.CommandText = "INSERT INTO t VALUES ($v, $v, $v, $v, $v)";
            var p = cmd.CreateParameter();
            p.ParameterName = "$v";
            p.Value = value ?? DBNull.Value;
            cmd.Parameters.Add(p);
            cmd.ExecuteNonQuery();
        }
        var row = db.Rows("SELECT t, i, r, n, b FROM t")[0];
        SharcAffinity[] affinities = [SharcAffinity.Text, SharcAffinity.Integer, SharcAffinity.Real, SharcAffinity.Numeric, SharcAffinity.Blob];
        for (int i = 0; i < affinities.Length; i++)
        {
            var actual = AffinityRules.Apply(value, affinities[i]);
            Describe(actual).Should().Be(Describe(row[i]), "{0} under {1}", label, affinities[i]);
        }
    }

    /// <summary>Storage class and exact value, so 1 and 1.0 differ but -0.0 and 0.0 (equal in SQLite) do not.</summary>
    private static string Describe(object? v) => v switch
    {
        null => "null",
        long l => $"integer {l}",
        double d => $"real {(d == 0 ? 0.0 : d).ToString("R", System.Globalization.CultureInfo.InvariantCulture)}",
        string s => $"text '{s}'",
        byte[] b => $"blob {Convert.ToHexString(b)}",
        _ => $"{v.GetType().Name} {v}",
    };

    [Theory]
    [InlineData(0.1, "0.1")]
    [InlineData(1.0, "1.0")]
    [InlineData(-2.5, "-2.5")]
    [InlineData(100.0, "100.0")]
    [InlineData(1e15, "1000000000000000.0")]
    [InlineData(1e14, "100000000000000.0")]
    [InlineData(123456789012345.6, "123456789012345.59")]
    [InlineData(999999999999999.9, "999999999999999.88")]
    [InlineData(1e-5, "1.0e-05")]
    [InlineData(0.0001, "0.0001")]
    [InlineData(1.5e-7, "1.5e-07")]
    [InlineData(1.7976931348623157e308, "1.7976931348623157e+308")]
    [InlineData(-0.0, "0.0")]
    public void Reals_become_text_as_sqlite_prints_them(double value, string text)
    {
        AffinityRules.Apply(value, SharcAffinity.Text).Should().Be(text);
        using var db = SchemaOracle.Create("CREATE TABLE t(x TEXT)");
        using var cmd = db.Connection.CreateCommand();
        cmd.CommandText = "INSERT INTO t VALUES ($v)";
        cmd.Parameters.AddWithValue("$v", value);
        cmd.ExecuteNonQuery();
        db.Rows("SELECT x FROM t")[0][0].Should().Be(text);
    }

    [Fact]
    public void Other_clr_numbers_are_treated_as_sqlite_integers_and_reals()
    {
        AffinityRules.Apply(5, SharcAffinity.Text).Should().Be("5");
        AffinityRules.Apply(2.5f, SharcAffinity.Integer).Should().Be(2.5);
        AffinityRules.Apply(true, SharcAffinity.Real).Should().Be(1.0);
    }
}
