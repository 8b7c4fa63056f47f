using System.Globalization;
using System.Text;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Sql.Execution;

/// <summary>
/// <c>x [NOT] IN (list)</c> over constant lists long enough to be hashed, answered by Sharc as by SQLite: the left
/// operand's affinity applied to the items (numeric text against numeric columns, numbers against TEXT columns, nothing
/// against BLOB columns and expressions without affinity), its collation (NOCASE, RTRIM, a COLLATE on either side),
/// NULLs in the list and on the left, duplicates, and parameters re-bound between executions.
/// </summary>
public sealed class InListTests(MixedDatabaseFixture fixture) : IClassFixture<MixedDatabaseFixture>
{
    private QueryOracle Db => fixture.Oracle;

    public static TheoryData<string> Operands =>
    [
        "id", "i", "r", "s", "n", "b", "x", "c", "+i", "+s", "CAST(x AS TEXT)", "CAST(s AS NUMERIC)", "s COLLATE NOCASE",
        "s COLLATE RTRIM", "c COLLATE BINARY", "i + 0.5", "upper(s)",
    ];

    private static readonly string[] Lists =
    [
        "1, 2, 3, 4, 5, 6, 7, 8",
        "'1', '2', '3', ' 3', '4.5', '1e2', '-7', '10', '12'",
        "1.0, 2.5, 4.5, -7.0, 100, 9223372036854775807, -3000000000, 12.0",
        "'abc', 'ABC', 'abc  ', 'b', 'B', '', 'x_y', 'Ünïcode', 'zz'",
        "x'00ff', x'616263', 'abc', 3, 2.5, NULL, '12', -1, 'hello world'",
        "NULL, 1, '1', 1.0, x'31', 'abc', 'ABC ', 4.5, '4.5', -5",
        "9, 9, 9, '9', 9.0, 10, '10', 11, 11",
        "NULL, NULL, NULL, NULL, NULL, NULL",
        "'a' COLLATE NOCASE, 'ABC', 'b', 'Zz', 'hello WORLD', 'x%y', '9', '10', 'abd'",
    ];

    [Theory]
    [MemberData(nameof(Operands))]
    public void A_long_constant_list_matches_as_sqlite_does_for_every_affinity_and_collation(string operand)
    {
        foreach (var list in Lists)
        {
            Db.Check($"SELECT id, {operand} IN ({list}), {operand} NOT IN ({list}) FROM t ORDER BY id", ordered: true);
            Db.Check($"SELECT id FROM t WHERE {operand} NOT IN ({list}) ORDER BY id", ordered: true);
        }
    }

    [Fact]
    public void A_null_on_the_left_or_an_empty_list_gives_sqlites_answer()
    {
        Db.Check("SELECT NULL IN (1, 2, 3, 4, 5, 6), NULL NOT IN (1, 2, 3, 4, 5, 6), NULL IN (), NULL NOT IN (), 3 IN (1, 2, 3, 4, 5, NULL), 7 IN (1, 2, 3, 4, 5, NULL)", ordered: true);
    }

    [Fact]
    public void Parameters_in_the_list_are_hashed_again_for_each_execution()
    {
        const string sql = "SELECT id FROM t WHERE s IN ($p1, $p2, $p3, $p4, $p5, $p6) ORDER BY id";
        using var prepared = Db.Db.Prepare(sql);
        object?[][] bindings =
        [
            ["abc", 12L, "b", null, 4.5, "zz"],
            ["ABC", "10", 9L, "abc  ", Encoding.UTF8.GetBytes("abc"), "x_y"],
            [null, null, null, null, null, null],
        ];
        foreach (var args in bindings)
        {
            for (int i = 0; i < args.Length; i++) prepared.Bind(i + 1, args[i]);
            var actual = QueryOracle.Rows(prepared.Execute());
            actual.Should().Equal(Db.Expected(sql, args), "the list is bound as {0}", string.Join(", ", args.Select(a => a ?? "NULL")));
        }
    }

    [Fact]
    public void A_list_of_many_thousand_literals_answers_as_sqlite_does()
    {
        var rng = new Random(12);
        var items = string.Join(", ", Enumerable.Range(0, 20_000).Select(k => (k % 3) switch
        {
            0 => rng.Next(-1000, 1000).ToString(CultureInfo.InvariantCulture),
            1 => "'" + rng.Next(-20, 20).ToString(CultureInfo.InvariantCulture) + "'",
            _ => MixedTable.Text(rng),
        }));
        foreach (var operand in new[] { "i", "s", "x", "c" })
        {
            Db.Check($"SELECT count(*), sum({operand} NOT IN ({items})) FROM t WHERE {operand} IN ({items})", ordered: true);
        }
    }
}
