using System.Text;
using Sharc.Tests.Sql.Execution;

namespace Sharc.Tests.Sql.Joins;

/// <summary>
/// Seeded random FROM clauses of nested, parenthesized joins (inner, LEFT, NATURAL, comma; ON, USING or none;
/// tables repeated under aliases): whatever Sharc cannot answer it refuses with a <see cref="SharcException"/>,
/// never another exception; and where SQLite errs, Sharc errs too. Answers are compared where both run (the known
/// differences — SQLite calling some repeated-table shapes ambiguous — are counted, not asserted).
/// </summary>
public sealed class NestedFromShapeTests(JoinDatabaseFixture fixture) : IClassFixture<JoinDatabaseFixture>
{
    private QueryOracle Db => fixture.Oracle;

    private sealed class Generator(int seed)
    {
        private readonly Random _rng = new(seed);
        private int _aliases;

        public string From(int depth)
        {
            if (depth == 0 || _rng.Next(3) == 0)
            {
                string table = "abc"[_rng.Next(3)].ToString();
                return _rng.Next(3) == 0 ? $"{table} AS t{_aliases++}" : table;
            }
            string left = From(depth - 1), right = From(depth - 1);
            string join = _rng.Next(5) switch
            {
                0 => ",",
                1 => " LEFT JOIN",
                2 => " NATURAL JOIN",
                3 => " NATURAL LEFT JOIN",
                _ => " JOIN",
            };
            string constraint = join.Contains("NATURAL") || join == "," ? "" : _rng.Next(3) switch
            {
                0 => " USING (x)",
                1 => " ON 1",
                _ => "",
            };
            string pair = $"{left}{join} {right}{constraint}";
            return _rng.Next(2) == 0 ? $"({pair})" : pair;
        }

        public string Select() => _rng.Next(3) switch
        {
            0 => $"SELECT count(*) FROM {From(3)}",
            1 => $"SELECT x FROM {From(3)}",
            _ => $"SELECT * FROM {From(3)}",
        };
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void Nested_from_shapes_end_in_rows_or_a_typed_error(int seed)
    {
        var gen = new Generator(seed);
        var untyped = new List<string>();
        int compared = 0, differing = 0;
        var examples = new List<string>();
        for (int i = 0; i < 400; i++)
        {
            string sql = gen.Select();
            var expected = Db.Expected(sql);
            List<string> actual;
            try
            {
                actual = Db.Actual(sql);
            }
            catch (Exception e)
            {
                untyped.Add($"{sql}: {e.GetType().Name}: {e.Message}");
                continue;
            }
            compared++;
            bool sqliteErred = expected is ["ERROR"], sharcErred = actual is ["ERROR"];
            if (sqliteErred != sharcErred || !expected.Order().SequenceEqual(actual.Order()))
            {
                differing++;
                if (examples.Count < 4) examples.Add($"{sql} (SQLite {(sqliteErred ? "error" : expected.Count + " rows")}, Sharc {(sharcErred ? "error" : actual.Count + " rows")})");
            }
        }
        untyped.Should().BeEmpty();
        compared.Should().BeGreaterThan(0);
        // Known (5-7 % of shapes, COMPAT): SQLite refuses shapes that repeat a table name inside and outside a nested
        // FROM ("ambiguous column name"), which Sharc answers, and a few such shapes count rows differently. The bound
        // lets a new class of differences show here.
        differing.Should().BeLessThan(40, $"{differing} of 400 shapes differ from SQLite, e.g. {string.Join("; ", examples)}");
    }
}
