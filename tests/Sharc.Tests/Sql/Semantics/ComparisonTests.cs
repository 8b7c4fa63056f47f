using Sharc.Format;
using Sharc.Sql.Values;
using static Sharc.Tests.Sql.Semantics.ValuePool;

namespace Sharc.Tests.Sql.Semantics;

/// <summary>
/// Comparisons against SQLite: columns of every affinity against each other and against expressions without
/// affinity, collations, IS, IN and BETWEEN, and the sort order.
/// </summary>
public class ComparisonTests : IClassFixture<OracleFixture>
{
    private static readonly (string Name, string Type, SqlAffinity Affinity)[] Columns =
    [
        ("i", "INTEGER", SqlAffinity.Integer), ("r", "REAL", SqlAffinity.Real), ("n", "NUMERIC", SqlAffinity.Numeric),
        ("t", "TEXT", SqlAffinity.Text), ("b", "BLOB", SqlAffinity.Blob), ("x", "", SqlAffinity.Blob),
    ];

    private static readonly (string Sql, SqlCompareOp Op)[] Ops =
    [
        ("=", SqlCompareOp.Eq), ("<>", SqlCompareOp.Ne), ("<", SqlCompareOp.Lt), ("<=", SqlCompareOp.Le),
        (">", SqlCompareOp.Gt), (">=", SqlCompareOp.Ge),
    ];

    private readonly SemanticsOracle _oracle;

    public ComparisonTests(OracleFixture fixture)
    {
        _oracle = fixture.Oracle;
        var cols = string.Join(", ", Columns.Select(c => $"{c.Name}1 {c.Type}").Concat(Columns.Select(c => $"{c.Name}2 {c.Type}")));
        _oracle.Exec("CREATE TABLE IF NOT EXISTS cmp(" + cols + ")");
    }

    private void Store(SqlValue a, SqlValue b)
    {
        _oracle.Exec("DELETE FROM cmp");
        var names = Columns.Select(c => c.Name + "1").Concat(Columns.Select(c => c.Name + "2"));
        var values = Enumerable.Repeat("@p0", Columns.Length).Concat(Enumerable.Repeat("@p1", Columns.Length));
        // Text with invalid UTF-8 goes in as a blob cast to text.
        string V(string p, SqlValue v) => v.Type == SharcColumnType.Text && !SemanticsOracle.IsPlainText(v) ? $"CAST({p} AS TEXT)" : p;
        values = Enumerable.Repeat(V("@p0", a), Columns.Length).Concat(Enumerable.Repeat(V("@p1", b), Columns.Length));
        _oracle.Exec($"INSERT INTO cmp({string.Join(",", names)}) VALUES ({string.Join(",", values)})",
            a.Type == SharcColumnType.Text && !SemanticsOracle.IsPlainText(a) ? a.ToBlobValue() : a,
            b.Type == SharcColumnType.Text && !SemanticsOracle.IsPlainText(b) ? b.ToBlobValue() : b);
    }

    /// <summary>Runs one SELECT of many expressions over the stored row and compares each with ours.</summary>
    private static void CheckRow(Differential d, SemanticsOracle oracle, List<(string Sql, Func<SqlValue> Mine)> exprs, SqlValue[] args)
    {
        var results = oracle.EvalRow(string.Join(", ", exprs.Select(e => e.Sql)), args, from: "cmp");
        if (results.Length != exprs.Count)
        {
            d.Fail("SQLite failed: " + results[0]);
            return;
        }
        for (int k = 0; k < exprs.Count; k++)
            d.Compare(exprs[k].Sql, args, results[k], Differential.Run(exprs[k].Mine), "");
    }

    [Fact]
    public void StoringInAColumnAppliesItsAffinity()
    {
        var d = new Differential(_oracle);
        var rng = new Random(21);
        var values = Interesting.Concat(Enumerable.Range(0, 400).Select(_ => Any(rng))).ToArray();
        for (int i = 0; i < values.Length; i += 2)
        {
            var a = values[i];
            var b = values[(i + 1) % values.Length];
            Store(a, b);
            var exprs = new List<(string, Func<SqlValue>)>();
            foreach (var c in Columns)
            {
                exprs.Add((c.Name + "1", () => SqlAffinities.ApplyForStorage(a, c.Affinity)));
                exprs.Add((c.Name + "2", () => SqlAffinities.ApplyForStorage(b, c.Affinity)));
            }
            CheckRow(d, _oracle, exprs, [a, b]);
        }
        d.AssertAgrees(values.Length * 6);
    }

    [Fact]
    public void ColumnsOfEveryAffinityCompareAsSqliteDoes()
    {
        var d = new Differential(_oracle);
        var rng = new Random(22);
        for (int i = 0; i < 500; i++)
        {
            var a = Any(rng);
            var b = rng.Next(4) == 0 ? a : Any(rng);
            Store(a, b);
            var exprs = new List<(string, Func<SqlValue>)>();
            foreach (var c1 in Columns)
            {
                var s1 = SqlAffinities.ApplyForStorage(a, c1.Affinity);
                foreach (var c2 in Columns)
                {
                    var s2 = SqlAffinities.ApplyForStorage(b, c2.Affinity);
                    foreach (var (sql, op) in Ops)
                        exprs.Add(($"({c1.Name}1 {sql} {c2.Name}2)", () => SqlCompare.Evaluate(op, s1, c1.Affinity, s2, c2.Affinity, Collation.Binary)));
                    exprs.Add(($"({c1.Name}1 IS {c2.Name}2)", () => SqlCompare.IsValue(s1, s2, SqlAffinities.ForComparison(c1.Affinity, c2.Affinity), Collation.Binary)));
                }
            }
            CheckRow(d, _oracle, exprs, [a, b]);
        }
        d.AssertAgrees(100_000);
    }

    [Fact]
    public void ColumnsCompareWithExpressionsByTheColumnsAffinity()
    {
        var d = new Differential(_oracle);
        var rng = new Random(23);
        for (int i = 0; i < 500; i++)
        {
            var a = Any(rng);
            var b = rng.Next(3) == 0 ? Any(rng) : a.ToTextValue();
            Store(a, b);
            var exprs = new List<(string, Func<SqlValue>)>();
            foreach (var c in Columns)
            {
                var s = SqlAffinities.ApplyForStorage(a, c.Affinity);
                foreach (var (sql, op) in Ops)
                {
                    exprs.Add(($"({c.Name}1 {sql} {{1}})", () => SqlCompare.Evaluate(op, s, c.Affinity, b, SqlAffinity.None, Collation.Binary)));
                    exprs.Add(($"({{1}} {sql} {c.Name}1)", () => SqlCompare.Evaluate(op, b, SqlAffinity.None, s, c.Affinity, Collation.Binary)));
                    exprs.Add(($"(+{c.Name}1 {sql} {{1}})", () => SqlCompare.Evaluate(op, s, SqlAffinity.None, b, SqlAffinity.None, Collation.Binary)));
                    exprs.Add(($"(CAST({{1}} AS TEXT) {sql} {c.Name}1)", () => SqlCompare.Evaluate(op, SqlCast.To(b, SqlAffinity.Text), SqlAffinity.Text, s, c.Affinity, Collation.Binary)));
                    exprs.Add(($"(CAST({{1}} AS NUMERIC) {sql} {{0}})", () => SqlCompare.Evaluate(op, SqlCast.To(b, SqlAffinity.Numeric), SqlAffinity.Numeric, a, SqlAffinity.None, Collation.Binary)));
                }
                exprs.Add(($"({c.Name}1 IS NOT {{1}})", () => SqlCompare.IsNotValue(s, b, SqlAffinities.ForComparison(c.Affinity, SqlAffinity.None), Collation.Binary)));
            }
            foreach (var (sql, op) in Ops)
                exprs.Add(($"({{0}} {sql} {{1}})", () => SqlCompare.Evaluate(op, a, b, SqlAffinity.None, Collation.Binary)));
            exprs.Add(("({0} IS {1})", () => SqlCompare.IsValue(a, b, SqlAffinity.None, Collation.Binary)));
            exprs.Add(("({0} IS NOT DISTINCT FROM {1})", () => SqlCompare.IsValue(a, b, SqlAffinity.None, Collation.Binary)));
            exprs.Add(("({0} IS DISTINCT FROM {1})", () => SqlCompare.IsNotValue(a, b, SqlAffinity.None, Collation.Binary)));
            CheckRow(d, _oracle, exprs, [a, b]);
        }
        d.AssertAgrees(50_000);
    }

    [Fact]
    public void CollationsNocaseAndRtrimApplyToTextComparisons()
    {
        var d = new Differential(_oracle);
        var rng = new Random(24);
        var collations = new[] { ("BINARY", Collation.Binary), ("NOCASE", Collation.NoCase), ("RTRIM", Collation.RTrim) };
        for (int i = 0; i < 1500; i++)
        {
            var a = rng.Next(5) == 0 ? Any(rng) : RandomText(rng, "aAbBzZ _É é[", 4);
            var b = rng.Next(5) == 0 ? Any(rng) : RandomText(rng, "aAbBzZ _É é[", 4);
            var exprs = new List<(string, Func<SqlValue>)>();
            foreach (var (name, coll) in collations)
            {
                foreach (var (sql, op) in Ops)
                    exprs.Add(($"({{0}} {sql} {{1}} COLLATE {name})", () => SqlCompare.Evaluate(op, a, b, SqlAffinity.None, coll)));
            }
            var results = _oracle.EvalRow(string.Join(", ", exprs.Select(e => e.Item1)), [a, b]);
            for (int k = 0; k < exprs.Count; k++)
                d.Compare(exprs[k].Item1, [a, b], results[k], Differential.Run(exprs[k].Item2), "");
        }
        d.AssertAgrees(20_000);
    }

    [Fact]
    public void InListIsTrueOnAMatchElseNullWhenNullsAreInvolved()
    {
        var d = new Differential(_oracle);
        var rng = new Random(25);
        for (int i = 0; i < 400; i++)
        {
            var a = Any(rng);
            var b = rng.Next(3) == 0 ? a.ToTextValue() : Any(rng);
            Store(a, b);
            var items = new[] { Any(rng), rng.Next(3) == 0 ? SqlValue.Null : Any(rng), rng.Next(2) == 0 ? a : b };
            var args = new[] { a, items[0], items[1], items[2] };
            var exprs = new List<(string, Func<SqlValue>)>
            {
                ("({0} IN ({1}, {2}, {3}))", () => SqlCompare.In(a, items, SqlAffinity.None, Collation.Binary)),
                ("({0} NOT IN ({1}, {2}, {3}))", () => SqlCompare.NotIn(a, items, SqlAffinity.None, Collation.Binary)),
                ("({1} IN ({0}))", () => SqlCompare.In(items[0], [a], SqlAffinity.None, Collation.Binary)),
            };
            foreach (var c in Columns)
            {
                var s = SqlAffinities.ApplyForStorage(a, c.Affinity);
                var s2 = SqlAffinities.ApplyForStorage(b, c.Affinity);
                exprs.Add(($"({c.Name}1 IN ({{1}}, {{2}}, {{3}}))", () => SqlCompare.In(s, items, c.Affinity, Collation.Binary)));
                exprs.Add(($"({c.Name}1 IN ({{1}}, {c.Name}2))", () => SqlCompare.In(s, [items[0], s2], c.Affinity, Collation.Binary)));
                exprs.Add(($"({{3}} IN ({c.Name}1, {{2}}))", () => SqlCompare.In(items[2], [s, items[1]], SqlAffinity.None, Collation.Binary)));
                exprs.Add(($"({c.Name}1 IN (SELECT {{3}}))", () => SqlCompare.InSubquery(s, [items[2]], SqlAffinities.ForComparison(c.Affinity, SqlAffinity.None), Collation.Binary)));
                exprs.Add(($"({{3}} IN (SELECT {c.Name}1))", () => SqlCompare.InSubquery(items[2], [s], SqlAffinities.ForComparison(SqlAffinity.None, c.Affinity), Collation.Binary)));
            }
            CheckRow(d, _oracle, exprs, args);
        }
        d.AssertAgrees(8000);
    }

    [Fact]
    public void EmptyInListIsFalseEvenForNull()
    {
        SqlCompare.In(SqlValue.Null, [], SqlAffinity.None, Collation.Binary).IntegerValue.Should().Be(0);
        SqlCompare.In(SqlValue.Null, [SqlValue.Null], SqlAffinity.None, Collation.Binary).IsNull.Should().BeTrue();
        SqlCompare.In(I(2), [I(1), SqlValue.Null], SqlAffinity.None, Collation.Binary).IsNull.Should().BeTrue();
        SqlCompare.In(I(1), [I(1), SqlValue.Null], SqlAffinity.None, Collation.Binary).IntegerValue.Should().Be(1);
    }

    [Fact]
    public void BetweenIsTwoComparisonsEachWithItsOwnAffinity()
    {
        var d = new Differential(_oracle);
        var rng = new Random(26);
        for (int i = 0; i < 400; i++)
        {
            var a = Any(rng);
            var lo = rng.Next(3) == 0 ? a.ToTextValue() : Any(rng);
            var hi = Any(rng);
            Store(a, lo);
            var args = new[] { a, lo, hi };
            var exprs = new List<(string, Func<SqlValue>)>
            {
                ("({0} BETWEEN {1} AND {2})", () => SqlCompare.Between(a, lo, hi, SqlAffinity.None, SqlAffinity.None, Collation.Binary)),
                ("({0} NOT BETWEEN {1} AND {2})", () => SqlLogic.Not(SqlCompare.Between(a, lo, hi, SqlAffinity.None, SqlAffinity.None, Collation.Binary))),
            };
            foreach (var c in Columns)
            {
                var s = SqlAffinities.ApplyForStorage(a, c.Affinity);
                var s2 = SqlAffinities.ApplyForStorage(lo, c.Affinity);
                var aff = SqlAffinities.ForComparison(c.Affinity, SqlAffinity.None);
                exprs.Add(($"({c.Name}1 BETWEEN {{1}} AND {{2}})", () => SqlCompare.Between(s, lo, hi, aff, aff, Collation.Binary)));
                exprs.Add(($"({{0}} BETWEEN {c.Name}2 AND {{2}})", () => SqlCompare.Between(a, s2, hi, aff, SqlAffinity.None, Collation.Binary)));
            }
            CheckRow(d, _oracle, exprs, args);
        }
        d.AssertAgrees(5000);
    }

    [Fact]
    public void SortOrderMatchesOrderBy()
    {
        var rng = new Random(27);
        foreach (var (name, coll) in new[] { ("BINARY", Collation.Binary), ("NOCASE", Collation.NoCase), ("RTRIM", Collation.RTrim) })
        {
            _oracle.Exec("DROP TABLE IF EXISTS ord");
            _oracle.Exec("CREATE TABLE ord(id INTEGER PRIMARY KEY, v)");
            var values = Interesting.Concat(Enumerable.Range(0, 300).Select(_ => rng.Next(3) == 0 ? RandomText(rng, "aAbB  ", 3) : Any(rng))).ToList();
            for (int i = 0; i < values.Count; i++)
            {
                var v = values[i];
                bool raw = v.Type == SharcColumnType.Text && !SemanticsOracle.IsPlainText(v);
                _oracle.Exec($"INSERT INTO ord(id, v) VALUES ({i}, {(raw ? "CAST(@p0 AS TEXT)" : "@p0")})", raw ? v.ToBlobValue() : v);
            }
            var expected = new List<long>();
            using (var cmd = _oracle.Connection.CreateCommand())
            {
                cmd.CommandText = $"SELECT id FROM ord ORDER BY v COLLATE {name}, id";
                using var r = cmd.ExecuteReader();
                while (r.Read()) expected.Add(r.GetInt64(0));
            }
            var mine = Enumerable.Range(0, values.Count).ToList();
            mine.Sort((x, y) =>
            {
                int c = SqlCompare.Compare(values[x], values[y], coll);
                return c != 0 ? c : x.CompareTo(y);
            });
            mine.Select(i => (long)i).Should().Equal(expected, "ORDER BY v COLLATE {0}", name);
        }
    }
}
