using Sharc.Sql.Functions;
using Sharc.Sql.Values;
using static Sharc.Tests.Sql.Semantics.ValuePool;

namespace Sharc.Tests.Sql.Semantics;

/// <summary>The SQLITE_ENABLE_MATH_FUNCTIONS functions against SQLite.</summary>
public class MathExtensionTests : IClassFixture<OracleFixture>
{
    private readonly SemanticsOracle _oracle;

    public MathExtensionTests(OracleFixture fixture) => _oracle = fixture.Oracle;

    private static SqlValue Argument(Random rng) => rng.Next(4) switch
    {
        0 => Any(rng),
        1 => R(rng.NextDouble() * 4 - 2),
        2 => R((rng.NextDouble() - 0.3) * Math.Pow(10, rng.Next(-5, 6))),
        _ => Pick(rng, [I(0), I(1), I(-1), I(2), I(10), R(0.5), T("4"), T("2.5"), T("x"), B("34"), R(double.PositiveInfinity), R(-0.0)]),
    };

    [Theory]
    [InlineData("acos", 1)] [InlineData("acosh", 1)] [InlineData("asin", 1)] [InlineData("asinh", 1)] [InlineData("atan", 1)]
    [InlineData("atan2", 2)] [InlineData("atanh", 1)] [InlineData("ceil", 1)] [InlineData("ceiling", 1)] [InlineData("cos", 1)]
    [InlineData("cosh", 1)] [InlineData("degrees", 1)] [InlineData("exp", 1)] [InlineData("floor", 1)] [InlineData("ln", 1)]
    [InlineData("log", 1)] [InlineData("log", 2)] [InlineData("log10", 1)] [InlineData("log2", 1)] [InlineData("mod", 2)]
    [InlineData("pi", 0)] [InlineData("pow", 2)] [InlineData("power", 2)] [InlineData("radians", 1)] [InlineData("sin", 1)]
    [InlineData("sinh", 1)] [InlineData("sqrt", 1)] [InlineData("tan", 1)] [InlineData("tanh", 1)] [InlineData("trunc", 1)]
    public void MathFunctionMatchesSqlite(string name, int arity)
    {
        var d = new Differential(_oracle);
        var rng = new Random(name.GetHashCode(StringComparison.Ordinal) ^ arity);
        var f = ScalarFunctions.Resolve(name, arity);
        string template = name + "(" + string.Join(", ", Enumerable.Range(0, arity).Select(i => "{" + i + "}")) + ")";
        for (int i = 0; i < 400; i++)
        {
            var args = Enumerable.Range(0, arity).Select(_ => Argument(rng)).ToArray();
            d.Check(template, args, a => f.Invoke(a), literalsToo: i % 4 == 0);
        }
        d.AssertAgrees(400);
    }
}
