using Sharc.Sql.Values;
using static Sharc.Tests.Sql.Semantics.ValuePool;

namespace Sharc.Tests.Sql.Semantics;

/// <summary>Arithmetic, bitwise, concatenation and logical operators against SQLite, on seeded random operands.</summary>
public class OperatorTests : IClassFixture<OracleFixture>
{
    private readonly SemanticsOracle _oracle;

    public OperatorTests(OracleFixture fixture) => _oracle = fixture.Oracle;

    private void Binary(string op, Func<SqlValue, SqlValue, SqlValue> mine, int seed, int count = 1500)
    {
        var d = new Differential(_oracle);
        var rng = new Random(seed);
        for (int i = 0; i < count; i++)
        {
            var args = new[] { Any(rng), Any(rng) };
            d.Check("({0} " + op + " {1})", args, a => mine(a[0], a[1]));
        }
        d.AssertAgrees(count);
    }

    private void Unary(string template, Func<SqlValue, SqlValue> mine, bool literalsToo = true)
    {
        var d = new Differential(_oracle);
        foreach (var v in Interesting) d.Check(template, [v], a => mine(a[0]), literalsToo);
        var rng = new Random(template.Length);
        for (int i = 0; i < 500; i++) d.Check(template, [Any(rng)], a => mine(a[0]), literalsToo);
        d.AssertAgrees(500);
    }

    [Fact]
    public void AdditionMatchesSqliteIncludingOverflowToReal() => Binary("+", (a, b) => SqlArithmetic.Add(a, b), 1);

    [Fact]
    public void SubtractionMatchesSqliteIncludingOverflowToReal() => Binary("-", (a, b) => SqlArithmetic.Subtract(a, b), 2);

    [Fact]
    public void MultiplicationMatchesSqliteIncludingOverflowToReal() => Binary("*", (a, b) => SqlArithmetic.Multiply(a, b), 3);

    [Fact]
    public void DivisionTruncatesIntegersAndGivesNullForZeroDivisor() => Binary("/", (a, b) => SqlArithmetic.Divide(a, b), 4);

    [Fact]
    public void RemainderWorksOnTruncatedIntegersAndGivesNullForZeroDivisor() => Binary("%", (a, b) => SqlArithmetic.Remainder(a, b), 5);

    [Fact]
    public void BitwiseAndMatchesSqlite() => Binary("&", (a, b) => SqlArithmetic.BitAnd(a, b), 6, 800);

    [Fact]
    public void BitwiseOrMatchesSqlite() => Binary("|", (a, b) => SqlArithmetic.BitOr(a, b), 7, 800);

    [Fact]
    public void ShiftLeftHandlesNegativeAndOversizedCounts() => Binary("<<", (a, b) => SqlArithmetic.ShiftLeft(a, b), 8, 800);

    [Fact]
    public void ShiftRightHandlesNegativeAndOversizedCounts() => Binary(">>", (a, b) => SqlArithmetic.ShiftRight(a, b), 9, 800);

    [Fact]
    public void ShiftCountsAroundTheWordSizeMatchSqlite()
    {
        var d = new Differential(_oracle);
        foreach (long v in new[] { 1L, -1L, -8L, long.MinValue, long.MaxValue, 12345L })
        {
            for (long s = -70; s <= 70; s += 3)
            {
                d.Check("({0} << {1})", [I(v), I(s)], a => SqlArithmetic.ShiftLeft(a[0], a[1]), literalsToo: false);
                d.Check("({0} >> {1})", [I(v), I(s)], a => SqlArithmetic.ShiftRight(a[0], a[1]), literalsToo: false);
            }
            d.Check("({0} >> {1})", [I(v), I(long.MinValue)], a => SqlArithmetic.ShiftRight(a[0], a[1]), literalsToo: false);
            d.Check("({0} << {1})", [I(v), I(long.MinValue)], a => SqlArithmetic.ShiftLeft(a[0], a[1]), literalsToo: false);
        }
        d.AssertAgrees(500);
    }

    [Fact]
    public void ConcatenationRendersNumbersAsSqliteDoes() => Binary("||", (a, b) => SqlArithmetic.Concat(a, b), 10, 1000);

    [Fact]
    public void AndIsThreeValued() => Binary("AND", (a, b) => SqlLogic.And(a, b), 11, 800);

    [Fact]
    public void OrIsThreeValued() => Binary("OR", (a, b) => SqlLogic.Or(a, b), 12, 800);

    [Fact]
    public void UnaryMinusIsZeroMinusTheOperand() => Unary("(- {0})", v => SqlArithmetic.Negate(v), literalsToo: false);

    [Fact]
    public void UnaryMinusOfAnExpressionMatchesSqlite() => Unary("(- ({0} + 0))", v => SqlArithmetic.Negate(SqlArithmetic.Add(v, I(0))));

    [Fact]
    public void BitwiseNotMatchesSqlite() => Unary("(~ {0})", v => SqlArithmetic.BitNot(v));

    [Fact]
    public void NotIsThreeValued() => Unary("(NOT {0})", v => SqlLogic.Not(v));

    [Fact]
    public void TruthOfAValueMatchesWhereClauseTruth()
        => Unary("CASE WHEN {0} THEN 1 WHEN NOT {0} THEN 0 ELSE NULL END", v => SqlLogic.FromTruth(SqlLogic.Truth(v)));

    [Fact]
    public void IsTrueAndIsFalseAreNeverNull()
    {
        Unary("({0} IS TRUE)", v => SqlLogic.IsTrueValue(v));
        Unary("({0} IS NOT FALSE)", v => SqlLogic.Not(SqlLogic.IsFalseValue(v)));
    }

    [Fact]
    public void UnaryMinusOfZeroRealIsPositiveZero()
    {
        SqlArithmetic.Negate(R(0.0)).RealValue.Should().Be(0.0);
        double.IsNegative(SqlArithmetic.Negate(R(0.0)).RealValue).Should().BeFalse();
        SqlArithmetic.Negate(I(long.MinValue)).Type.Should().Be(SharcColumnType.Real);
    }

    [Fact]
    public void InfinityMinusInfinityIsNull()
        => SqlArithmetic.Subtract(R(double.PositiveInfinity), R(double.PositiveInfinity)).IsNull.Should().BeTrue();
}
