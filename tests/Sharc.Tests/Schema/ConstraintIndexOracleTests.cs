using Sharc.Schema.Parsing;

namespace Sharc.Tests.Schema;

/// <summary>
/// Randomly generated tables that mix column and table PRIMARY KEY/UNIQUE constraints, COLLATE clauses, sort
/// orders, INTEGER types and WITHOUT ROWID: the sqlite_autoindex_* numbering, key columns and primary key must
/// match SQLite's for every one, and tables SQLite refuses must be refused with its message.
/// </summary>
public class ConstraintIndexOracleTests
{
    private static readonly string[] Types = ["", "", "INTEGER", "INT", "TEXT"];
    private static readonly string[] Collations = ["nocase", "rtrim", "binary", "NOCASE"];

    public static TheoryData<int> Seeds()
    {
        var data = new TheoryData<int>();
        for (int seed = 0; seed < 400; seed++) data.Add(seed);
        return data;
    }

    [Theory]
    [MemberData(nameof(Seeds))]
    public void Random_constraint_mix_matches_sqlite(int seed)
    {
        string sql = RandomTable(new Random(seed));
        using var db = SchemaOracle.Create();
        string? error = db.TryExec(sql);
        if (error is not null)
        {
            var act = () => SchemaStatementParser.Parse(sql);
            act.Should().Throw<SqlSyntaxException>().Which.Message.Should().Be(error[(error.IndexOf('\'') + 1)..error.LastIndexOf('\'')], sql);
            return;
        }
        var table = db.Build().GetTable("t");
        using (new FluentAssertions.Execution.AssertionScope(sql))
        {
            SchemaAssert.ColumnsMatch(db, table);
            SchemaAssert.IndexesMatch(db, table);
            SchemaAssert.PrimaryKeyMatches(db, table);
        }
        // Every constraint index with a b-tree of its own has exactly one sqlite_schema row.
        var autoRows = db.SchemaRows().Where(r => r.Sql is null).Select(r => r.Name);
        table.Indexes.Where(i => !i.IsPrimaryKey).Select(i => i.Name).Should().BeEquivalentTo(autoRows, sql);
    }

    private static string RandomTable(Random rng)
    {
        int columnCount = rng.Next(1, 5);
        var parts = new List<string>();
        for (int c = 0; c < columnCount; c++)
        {
            var def = $"c{c} {Types[rng.Next(Types.Length)]}";
            int constraints = rng.Next(0, 4);
            for (int k = 0; k < constraints; k++)
            {
                def += rng.Next(6) switch
                {
                    0 => " PRIMARY KEY" + Pick(rng, "", " ASC", " DESC"),
                    1 or 2 => " UNIQUE",
                    3 or 4 => " COLLATE " + Collations[rng.Next(Collations.Length)],
                    _ => " NOT NULL",
                };
            }
            parts.Add(def);
        }
        int tableConstraints = rng.Next(0, 4);
        for (int k = 0; k < tableConstraints; k++)
        {
            int keys = rng.Next(1, 4);
            var list = new List<string>();
            for (int i = 0; i < keys; i++)
            {
                var key = $"c{rng.Next(columnCount)}";
                if (rng.Next(3) == 0) key += " COLLATE " + Collations[rng.Next(Collations.Length)];
                key += Pick(rng, "", "", " ASC", " DESC");
                list.Add(key);
            }
            parts.Add((rng.Next(3) == 0 ? "PRIMARY KEY(" : "UNIQUE(") + string.Join(", ", list) + ")");
        }
        return $"CREATE TABLE t({string.Join(", ", parts)})" + (rng.Next(3) == 0 ? " WITHOUT ROWID" : "");
    }

    private static string Pick(Random rng, params string[] options) => options[rng.Next(options.Length)];
}
