using Sharc.Format;
using Sharc.Sql.Functions.Aggregates;
using Sharc.Sql.Values;
using static Sharc.Tests.Sql.Semantics.ValuePool;

namespace Sharc.Tests.Sql.Semantics;

/// <summary>Aggregates against SQLite over seeded random groups, including empty groups and DISTINCT.</summary>
public class AggregateTests : IClassFixture<OracleFixture>
{
    private readonly SemanticsOracle _oracle;

    public AggregateTests(OracleFixture fixture)
    {
        _oracle = fixture.Oracle;
        _oracle.Exec("CREATE TABLE IF NOT EXISTS agg(id INTEGER PRIMARY KEY, v, s)");
    }

    private void Load(IReadOnlyList<SqlValue> values, IReadOnlyList<SqlValue>? separators = null)
    {
        _oracle.Exec("DELETE FROM agg");
        for (int i = 0; i < values.Count; i++)
        {
            var v = values[i];
            var s = separators?[i] ?? SqlValue.Null;
            bool rawV = v.Type == SharcColumnType.Text && !SemanticsOracle.IsPlainText(v);
            bool rawS = s.Type == SharcColumnType.Text && !SemanticsOracle.IsPlainText(s);
            _oracle.Exec($"INSERT INTO agg(id, v, s) VALUES ({i}, {(rawV ? "CAST(@p0 AS TEXT)" : "@p0")}, {(rawS ? "CAST(@p1 AS TEXT)" : "@p1")})",
                rawV ? v.ToBlobValue() : v, rawS ? s.ToBlobValue() : s);
        }
    }

    private static Outcome Mine(string name, bool distinct, Collation collation, IReadOnlyList<SqlValue> values, IReadOnlyList<SqlValue>? separators, int argCount)
        => Differential.Run(() =>
        {
            var agg = AggregateFunctions.Create(name, argCount, distinct, collation);
            for (int i = 0; i < values.Count; i++)
            {
                if (argCount == 0) agg.Step([]);
                else if (argCount == 1) agg.Step([values[i]]);
                else agg.Step([values[i], separators![i]]);
            }
            return agg.Finish();
        });

    private static List<SqlValue> RandomGroup(Random rng, Func<Random, SqlValue> value)
    {
        int n = rng.Next(6) == 0 ? 0 : rng.Next(1, 12);
        return Enumerable.Range(0, n).Select(_ => value(rng)).ToList();
    }

    private void RunAggregates(int seed, int groups, Func<Random, SqlValue> value, params (string Sql, string Name, bool Distinct, int Args, Collation Coll)[] aggregates)
    {
        var d = new Differential(_oracle);
        var rng = new Random(seed);
        for (int g = 0; g < groups; g++)
        {
            var values = RandomGroup(rng, value);
            var seps = values.Select(_ => Pick(rng, [T(","), T(" - "), SqlValue.Null, T(""), I(1), B("41")])).ToList();
            Load(values, seps);
            foreach (var (sql, name, distinct, args, coll) in aggregates)
            {
                var expected = _oracle.EvalRow(sql, [], from: "(SELECT v, s FROM agg ORDER BY id)")[0];
                var actual = Mine(name, distinct, coll, values, seps, args);
                d.Compare(sql + " over [" + string.Join(", ", values.Select(SemanticsOracle.Literal)) + "]", [], expected, actual, "");
            }
        }
        d.AssertAgrees(groups);
    }

    private static SqlValue Numberish(Random rng) => rng.Next(6) switch
    {
        0 => SqlValue.Null,
        1 => RandomReal(rng),
        2 => Pick(rng, [I(long.MaxValue), I(long.MinValue), I(long.MaxValue - 1), I(1L << 62), I(-(1L << 62)), I(1L << 53), R(1e308), R(-1e308), R(double.PositiveInfinity), R(0.1)]),
        3 => RandomNumericText(rng),
        _ => RandomInteger(rng),
    };

    [Fact]
    public void CountCountsRowsOrNonNullValues()
        => RunAggregates(301, 300, Any, ("count(*)", "count", false, 0, Collation.Binary), ("count()", "count", false, 0, Collation.Binary), ("count(v)", "count", false, 1, Collation.Binary));

    [Fact]
    public void SumTotalAndAvgFollowSqlitesIntegerAndRealRules()
        => RunAggregates(302, 1500, Numberish, ("sum(v)", "sum", false, 1, Collation.Binary), ("total(v)", "total", false, 1, Collation.Binary), ("avg(v)", "avg", false, 1, Collation.Binary));

    [Fact]
    public void SumOfAnyValuesMatchesSqlite()
        => RunAggregates(303, 800, Any, ("sum(v)", "sum", false, 1, Collation.Binary), ("total(v)", "total", false, 1, Collation.Binary), ("avg(v)", "avg", false, 1, Collation.Binary));

    [Fact]
    public void MinAndMaxKeepTheFirstOfEqualValuesInSortOrder()
        => RunAggregates(304, 800, r => r.Next(3) == 0 ? RandomText(r, "aA b", 3) : Any(r),
            ("min(v)", "min", false, 1, Collation.Binary), ("max(v)", "max", false, 1, Collation.Binary),
            ("min(v COLLATE NOCASE)", "min", false, 1, Collation.NoCase), ("max(v COLLATE NOCASE)", "max", false, 1, Collation.NoCase),
            ("min(v COLLATE RTRIM)", "min", false, 1, Collation.RTrim), ("max(v COLLATE RTRIM)", "max", false, 1, Collation.RTrim));

    [Fact]
    public void GroupConcatJoinsWithEachRowsSeparator()
        => RunAggregates(305, 800, Any,
            ("group_concat(v)", "group_concat", false, 1, Collation.Binary), ("group_concat(v, s)", "group_concat", false, 2, Collation.Binary),
            ("string_agg(v, s)", "string_agg", false, 2, Collation.Binary));

    [Fact]
    public void DistinctAggregatesSeeEachValueOnce()
        => RunAggregates(306, 800, r => r.Next(2) == 0 ? Pick(r, [I(1), R(1.0), T("1"), B("31"), T("a"), T("A"), T("a "), SqlValue.Null, R(-0.0), I(0)]) : Numberish(r),
            ("count(DISTINCT v)", "count", true, 1, Collation.Binary), ("sum(DISTINCT v)", "sum", true, 1, Collation.Binary),
            ("total(DISTINCT v)", "total", true, 1, Collation.Binary), ("avg(DISTINCT v)", "avg", true, 1, Collation.Binary),
            ("group_concat(DISTINCT v)", "group_concat", true, 1, Collation.Binary),
            ("count(DISTINCT v COLLATE NOCASE)", "count", true, 1, Collation.NoCase),
            ("count(DISTINCT v COLLATE RTRIM)", "count", true, 1, Collation.RTrim),
            ("max(DISTINCT v)", "max", true, 1, Collation.Binary));

    [Fact]
    public void EmptyGroupsGiveSqlitesDefaults()
    {
        Load([]);
        foreach (var (sql, name, args) in new[] { ("sum(v)", "sum", 1), ("total(v)", "total", 1), ("avg(v)", "avg", 1), ("count(v)", "count", 1), ("count(*)", "count", 0), ("min(v)", "min", 1), ("max(v)", "max", 1), ("group_concat(v)", "group_concat", 1) })
        {
            var expected = _oracle.EvalRow(sql, [], from: "agg")[0];
            var actual = Mine(name, false, Collation.Binary, [], null, args);
            actual.SameAs(expected).Should().BeTrue("{0}: SQLite {1}, Sharc {2}", sql, expected, actual);
        }
    }

    [Fact]
    public void IntegerOverflowInSumIsAnErrorButNotInTotalOrAvg()
    {
        var values = new[] { I(long.MaxValue), I(1), I(-5) };
        Mine("sum", false, Collation.Binary, values, null, 1).Error.Should().Be("integer overflow");
        Mine("total", false, Collation.Binary, values, null, 1).Value.Type.Should().Be(SharcColumnType.Real);
        Mine("avg", false, Collation.Binary, values, null, 1).Value.Type.Should().Be(SharcColumnType.Real);
        Mine("sum", false, Collation.Binary, [R(1.5), I(long.MaxValue), I(long.MaxValue)], null, 1).Value.Type.Should().Be(SharcColumnType.Real);
    }

    [Fact]
    public void AggregatesCanBeResetForTheNextGroup()
    {
        var sum = AggregateFunctions.Create("sum", 1);
        sum.Step([I(5)]);
        sum.Finish().IntegerValue.Should().Be(5);
        sum.Reset();
        sum.Finish().IsNull.Should().BeTrue();
        sum.Step([I(2)]);
        sum.Finish().IntegerValue.Should().Be(2);
    }

    [Theory]
    [InlineData("string_agg", 1)]
    [InlineData("group_concat", 3)]
    [InlineData("sum", 2)]
    [InlineData("count", 2)]
    public void WrongArgumentCountsAreReportedAsSqliteReportsThem(string name, int argCount)
    {
        var args = string.Join(", ", Enumerable.Repeat("v", argCount));
        var expected = _oracle.EvalRow($"{name}({args})", [], from: "agg")[0];
        expected.Error.Should().NotBeNull();
        var act = () => AggregateFunctions.Create(name, argCount);
        act.Should().Throw<SqlRuntimeException>().WithMessage(expected.Error);
        AggregateFunctions.TryCreate(name, argCount, false, Collation.Binary, out _).Should().BeFalse();
    }

    [Fact]
    public void DistinctNeedsExactlyOneArgument()
    {
        var expected = _oracle.EvalRow("group_concat(DISTINCT v, s)", [], from: "agg")[0];
        var act = () => AggregateFunctions.Create("group_concat", 2, distinct: true);
        act.Should().Throw<SqlRuntimeException>().WithMessage(expected.Error);
    }

    [Fact]
    public void AccumulatorsCopyBorrowedValues()
    {
        var buffer = "abc"u8.ToArray();
        var max = AggregateFunctions.Create("max", 1);
        max.Step([SqlValue.BorrowedText(buffer, 0, 3)]);
        buffer[0] = (byte)'z';
        max.Finish().AsString().Should().Be("abc");
    }
}
