using System.Text;
using Sharc.Format;
using Sharc.Sql.Functions;
using Sharc.Sql.Values;
using static Sharc.Tests.Sql.Semantics.ValuePool;

namespace Sharc.Tests.Sql.Semantics;

/// <summary>printf()/format() against SQLite on seeded random format strings and arguments.</summary>
public class PrintfTests : IClassFixture<OracleFixture>
{
    private readonly SemanticsOracle _oracle;

    public PrintfTests(OracleFixture fixture) => _oracle = fixture.Oracle;

    internal static (string Format, List<SqlValue> Args) RandomFormat(Random rng, string conversions, string flags = "-+ #!0,")
    {
        var fmt = new StringBuilder();
        var args = new List<SqlValue>();
        int n = rng.Next(1, 4);
        for (int k = 0; k < n; k++)
        {
            if (rng.Next(3) == 0) fmt.Append(Pick(rng, [T("a"), T("|"), T("É"), T(" x ")]).AsString());
            fmt.Append('%');
            for (int f = rng.Next(4); f > 0; f--) fmt.Append(flags[rng.Next(flags.Length)]);
            switch (rng.Next(5))
            {
                case 0: break;
                case 1: fmt.Append('*'); args.Add(Pick(rng, [I(5), I(-5), I(0), I(12), T("3"), SqlValue.Null, I(-1)])); break;
                default: fmt.Append(rng.Next(0, 14)); break;
            }
            switch (rng.Next(5))
            {
                case 0: break;
                case 1: fmt.Append(".*"); args.Add(Pick(rng, [I(2), I(-3), I(0), I(20), I(30), SqlValue.Null])); break;
                case 2: fmt.Append('.'); break;
                default: fmt.Append('.').Append(rng.Next(0, 28)); break;
            }
            if (rng.Next(10) == 0) fmt.Append(rng.Next(2) == 0 ? "l" : "ll");
            char c = conversions[rng.Next(conversions.Length)];
            fmt.Append(c);
            if (c is not ('%' or 'n')) args.Add(Argument(rng, c));
        }
        if (rng.Next(3) == 0) fmt.Append("!");
        return (fmt.ToString(), args);
    }

    private static SqlValue Argument(Random rng, char conversion) => conversion switch
    {
        'f' or 'e' or 'E' or 'g' or 'G' => rng.Next(3) switch { 0 => Any(rng), 1 => RandomReal(rng), _ => R(Math.Round(rng.NextDouble() * 2000 - 1000, rng.Next(6))) },
        'd' or 'i' or 'u' or 'x' or 'X' or 'o' or 'p' or 'r' => rng.Next(2) == 0 ? Any(rng) : RandomInteger(rng),
        _ => rng.Next(3) == 0 ? RandomText(rng, "ab'\"É😀 ", 5) : Any(rng),
    };

    private void RunRandom(int seed, int count, string conversions, string flags = "-+ #!0,")
    {
        var d = new Differential(_oracle);
        var rng = new Random(seed);
        var f = ScalarFunctions.Resolve("printf", 1);
        for (int i = 0; i < count; i++)
        {
            var (fmt, args) = RandomFormat(rng, conversions, flags);
            var all = new[] { T(fmt) }.Concat(args).ToArray();
            var template = "printf(" + string.Join(", ", Enumerable.Range(0, all.Length).Select(k => "{" + k + "}")) + ")";
            d.Check(template, all, a => f.Invoke(a), literalsToo: i % 4 == 0);
        }
        d.AssertAgrees(count);
    }

    [Fact]
    public void IntegerConversionsMatchSqlite() => RunRandom(201, 4000, "diuxXopr");

    [Fact]
    public void FloatingPointConversionsMatchSqlite() => RunRandom(202, 6000, "feEgG");

    [Fact]
    public void StringConversionsMatchSqlite() => RunRandom(203, 4000, "sqQwcz%n");

    [Fact]
    public void MixedFormatsMatchSqlite() => RunRandom(204, 4000, "dsfgqQcx%nyhT");

    [Fact]
    public void PrecisionBeyondSixteenDigitsUsesSqlitesDigits()
    {
        var d = new Differential(_oracle);
        var rng = new Random(205);
        var f = ScalarFunctions.Resolve("printf", 1);
        foreach (var fmt in new[] { "%.20f", "%!.30f", "%.17g", "%!.26g", "%!.20e", "%.25e", "%!.15g", "%.0f", "%.1f", "%#.0e", "%!g", "%,.3f", "%010.2f" })
        {
            for (int i = 0; i < 300; i++)
            {
                var v = i % 3 == 0 ? Any(rng) : RandomReal(rng);
                d.Check("printf({0}, {1})", [T(fmt), v], a => f.Invoke(a), literalsToo: false);
            }
        }
        d.AssertAgrees(3900);
    }

    [Fact]
    public void PercentBangSeventeenGIsSqlitesRealToText()
    {
        var rng = new Random(206);
        for (int i = 0; i < 2000; i++)
        {
            var v = RandomReal(rng);
            var mine = Printf.Format("%!.17g"u8, [v]).AsString();
            var text = ValueConvert.RealToText(v.RealValue);
            if (double.IsFinite(v.RealValue)) mine.Should().Be(text, "value {0:R}", v.RealValue);
        }
    }

    [Fact]
    public void FormatIsAnAliasAndEdgeCasesGiveNull()
    {
        var d = new Differential(_oracle);
        foreach (var fmt in new[] { "", "%", "a%", "%y", "ab%5", "%l", "%s", "%n", "%5%", "%-5%|" })
        {
            d.Check("format({0})", [T(fmt)], a => ScalarFunctions.Resolve("format", 1).Invoke(a));
            d.Check("printf({0}, 5)", [T(fmt)], a => ScalarFunctions.Resolve("printf", 2).Invoke([a[0], I(5)]));
        }
        d.Check("printf(NULL)", [], _ => ScalarFunctions.Resolve("printf", 1).Invoke([SqlValue.Null]), literalsToo: false);
        d.Check("printf()", [], _ => ScalarFunctions.Resolve("printf", 0).Invoke([]), literalsToo: false);
        d.Check("printf({0})", [I(5)], a => ScalarFunctions.Resolve("printf", 1).Invoke(a));
        d.Check("printf({0})", [RawText("41250073")], a => ScalarFunctions.Resolve("printf", 1).Invoke(a));
        d.AssertAgrees(30);
    }
}
