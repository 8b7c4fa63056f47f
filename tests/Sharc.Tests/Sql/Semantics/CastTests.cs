using Sharc.Sql.Values;
using static Sharc.Tests.Sql.Semantics.ValuePool;

namespace Sharc.Tests.Sql.Semantics;

/// <summary>CAST to every kind of type name, against SQLite.</summary>
public class CastTests : IClassFixture<OracleFixture>
{
    private static readonly string[] TypeNames =
    [
        "INTEGER", "INT", "BIGINT", "REAL", "DOUBLE", "FLOAT", "TEXT", "VARCHAR(10)", "CLOB", "BLOB", "NUMERIC",
        "DECIMAL(10,2)", "BOOLEAN", "DATE", "\"\"", "ABC", "CHARINT", "FLOATING POINT",
    ];

    private readonly SemanticsOracle _oracle;

    public CastTests(OracleFixture fixture) => _oracle = fixture.Oracle;

    [Fact]
    public void CastFollowsTheAffinityOfTheTypeName()
    {
        var d = new Differential(_oracle);
        var rng = new Random(31);
        var values = Interesting.Concat(Enumerable.Range(0, 600).Select(_ => Any(rng))).ToArray();
        foreach (var v in values)
        {
            foreach (var type in TypeNames)
            {
                string name = type == "\"\"" ? "" : type;
                d.Check($"CAST({{0}} AS {type})", [v], a => SqlCast.To(a[0], name));
            }
        }
        d.AssertAgrees(values.Length * TypeNames.Length);
    }

    [Fact]
    public void CastOfTextToIntegerTakesOnlyTheLeadingInteger()
    {
        SqlCast.To(T("12abc"), "INTEGER").IntegerValue.Should().Be(12);
        SqlCast.To(T("1e3"), "INTEGER").IntegerValue.Should().Be(1);
        SqlCast.To(T("1e3"), "NUMERIC").IntegerValue.Should().Be(1000);
        SqlCast.To(T("4.0"), "NUMERIC").Type.Should().Be(SharcColumnType.Integer);
        SqlCast.To(R(4.0), "NUMERIC").Type.Should().Be(SharcColumnType.Real);
        SqlCast.To(R(1e20), "INTEGER").IntegerValue.Should().Be(long.MaxValue);
    }

    [Fact]
    public void TextToRealIsReadAsSqliteReadsIt()
    {
        // SQLite keeps ~19 significant digits and scales in double-double arithmetic: not always the nearest double.
        var d = new Differential(_oracle);
        var rng = new Random(32);
        for (int i = 0; i < 3000; i++)
        {
            var t = RandomNumericText(rng);
            d.Check("CAST({0} AS REAL)", [t], a => SqlCast.To(a[0], SqlAffinity.Real), literalsToo: false);
            d.Check("({0} + 0)", [t], a => SqlArithmetic.Add(a[0], I(0)), literalsToo: false);
        }
        for (int i = 0; i < 2000; i++)
        {
            double r;
            do r = BitConverter.Int64BitsToDouble(rng.NextInt64()); while (!double.IsFinite(r));
            var t = T(r.ToString(i % 2 == 0 ? "R" : "E" + rng.Next(1, 25), System.Globalization.CultureInfo.InvariantCulture));
            d.Check("CAST({0} AS REAL)", [t], a => SqlCast.To(a[0], SqlAffinity.Real), literalsToo: false);
        }
        d.AssertAgrees(8000);
    }
}
