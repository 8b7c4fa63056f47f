using Sharc.Schema;
using Sharc.Schema.Parsing;

namespace Sharc.Tests.Schema;

/// <summary>
/// Seeded random and mutated schema SQL: parsing may succeed or fail, but failures must be Sharc's own
/// exceptions (never an IndexOutOfRange, a stack overflow or a hang).
/// </summary>
public class SchemaFuzzTests
{
    private static readonly string[] Seeds =
    [
        "CREATE TABLE t(a INTEGER PRIMARY KEY AUTOINCREMENT, b TEXT NOT NULL DEFAULT 'x' COLLATE nocase, c REAL DEFAULT (-1.5), UNIQUE(b, c DESC))",
        "CREATE TABLE t(a INT, b TEXT, c ANY, PRIMARY KEY(c, a COLLATE rtrim)) WITHOUT ROWID, STRICT",
        "CREATE TABLE t(x AS (y * 2) STORED, y INT GENERATED ALWAYS AS (1) VIRTUAL, z DEFAULT CURRENT_TIMESTAMP CHECK(z > 0))",
        "CREATE TABLE t(a REFERENCES p(id) ON DELETE CASCADE MATCH FULL DEFERRABLE INITIALLY DEFERRED, FOREIGN KEY(a) REFERENCES q(x))",
        "CREATE TABLE t(a DEFAULT (cast(-'1.5e2x' as numeric)), b DEFAULT 0x7F, c DEFAULT x'00FF', d DEFAULT -9223372036854775808)",
        "CREATE VIRTUAL TABLE v USING fts5(a, b, tokenize = 'porter')",
        "CREATE UNIQUE INDEX IF NOT EXISTS i ON t(a COLLATE nocase DESC, lower(b), (a + b) COLLATE rtrim) WHERE a > 0 AND b IS NOT NULL",
        "CREATE VIEW w(a, b) AS SELECT a, b FROM t WHERE a IN (1, 2) ORDER BY 1",
        "CREATE TRIGGER tr BEFORE UPDATE OF a ON t FOR EACH ROW WHEN new.a > 0 BEGIN UPDATE t SET b = CASE WHEN 1 THEN 2 END; END",
        "CREATE INDEX i ON t(CASE WHEN a THEN 1 ELSE 2 END, a BETWEEN 1 AND 2, a LIKE 'x%' ESCAPE '\\', coalesce(a, b) COLLATE rtrim)",
    ];

    private static readonly string[] Vocabulary =
    [
        "CREATE", "TABLE", "INDEX", "UNIQUE", "VIEW", "TRIGGER", "VIRTUAL", "USING", "TEMP", "IF", "NOT", "EXISTS", "ON",
        "PRIMARY", "KEY", "ASC", "DESC", "AUTOINCREMENT", "NULL", "DEFAULT", "CHECK", "COLLATE", "REFERENCES", "CONSTRAINT",
        "GENERATED", "ALWAYS", "AS", "STORED", "VIRTUAL", "WITHOUT", "ROWID", "STRICT", "FOREIGN", "DEFERRABLE", "CAST",
        "CASE", "WHEN", "THEN", "ELSE", "END", "BEGIN", "SELECT", "WHERE", "AND", "OR", "IN", "IS", "BETWEEN", "LIKE",
        "ESCAPE", "INTEGER", "TEXT", "INT", "REAL", "BLOB", "ANY", "nocase", "a", "b", "t", "rowid", "true", "\"q\"",
        "[b r]", "`x`", "'s'", "''", "x'00'", "1", "-1", "0x10", "1.5", "1e9", "1_0", "?", ":p", "(", "(", ")", ")", ",",
        ",", ";", ".", "+", "-", "*", "/", "||", "->", "=", "<>", "<", ">=", "~", "&", "|", "<<", "--c\n", "/*c*/",
    ];

    [Fact]
    public void Random_token_sequences_parse_or_fail_with_a_syntax_error()
    {
        var rng = new Random(20240601);
        for (int n = 0; n < 6000; n++)
        {
            var parts = new List<string> { "CREATE" };
            int count = rng.Next(1, 30);
            for (int i = 0; i < count; i++) parts.Add(Vocabulary[rng.Next(Vocabulary.Length)]);
            AssertParsesOrFailsCleanly(string.Join(rng.Next(4) == 0 ? "" : " ", parts));
        }
    }

    [Fact]
    public void Mutated_schema_statements_parse_or_fail_with_a_syntax_error()
    {
        var rng = new Random(7);
        for (int n = 0; n < 8000; n++)
        {
            var sql = Seeds[rng.Next(Seeds.Length)].ToCharArray().ToList();
            int edits = rng.Next(1, 6);
            for (int e = 0; e < edits && sql.Count > 0; e++)
            {
                int at = rng.Next(sql.Count);
                switch (rng.Next(4))
                {
                    case 0: sql.RemoveAt(at); break;
                    case 1: sql.Insert(at, "()',;\"[]`x0-+.e_ \0\v"[rng.Next(19)]); break;
                    case 2: sql.InsertRange(at, sql.GetRange(at, Math.Min(rng.Next(1, 12), sql.Count - at))); break;
                    default: sql.RemoveRange(at, Math.Min(rng.Next(1, 12), sql.Count - at)); break;
                }
            }
            AssertParsesOrFailsCleanly(new string(sql.ToArray()));
        }
    }

    [Fact]
    public void Random_schema_rows_build_or_fail_as_corruption()
    {
        var rng = new Random(99);
        string[] types = ["table", "index", "view", "trigger", "TABLE", "x"];
        string[] names = ["t", "i", "v", "tr", "sqlite_autoindex_t_1", "sqlite_autoindex_t_2", "T", "sqlite_master"];
        for (int n = 0; n < 3000; n++)
        {
            var rows = new List<SchemaRow>();
            int count = rng.Next(0, 6);
            for (int i = 0; i < count; i++)
            {
                string? sql = rng.Next(5) switch
                {
                    0 => null,
                    1 => Mutate(rng, Seeds[rng.Next(Seeds.Length)]),
                    _ => Seeds[rng.Next(Seeds.Length)],
                };
                rows.Add(new SchemaRow(types[rng.Next(types.Length)], names[rng.Next(names.Length)], names[rng.Next(names.Length)],
                    rng.Next(-2, 12), sql));
            }
            try
            {
                SchemaBuilder.Build(rows, (uint)rng.Next(0, 12));
            }
            catch (SharcCorruptException)
            {
            }
        }
    }

    [Fact]
    public void Seed_statements_are_valid_sqlite()
    {
        using var db = SchemaOracle.Create("CREATE TABLE t(a, b, y, z)", "CREATE TABLE p(id)", "CREATE TABLE q(x)");
        for (int i = 0; i < Seeds.Length; i++)
        {
            string sql = Seeds[i];
            string adjusted = sql.Replace("CREATE TABLE t(", $"CREATE TABLE t{i}(").Replace(" INDEX IF NOT EXISTS i ", $" INDEX i{i} ").Replace("INDEX i ON", $"INDEX i{i} ON");
            db.TryExec(adjusted).Should().BeNull(adjusted);
            AssertParsesOrFailsCleanly(sql).Should().BeTrue(sql);
        }
    }

    private static string Mutate(Random rng, string sql)
    {
        int at = rng.Next(sql.Length);
        return sql.Remove(at, Math.Min(rng.Next(1, 8), sql.Length - at));
    }

    private static bool AssertParsesOrFailsCleanly(string sql)
    {
        try
        {
            var st = SchemaStatementParser.Parse(sql);
            // Building the public model evaluates DEFAULT expressions: that must not fail either.
            st.Table?.ToSharcTable(2, sql);
            return true;
        }
        catch (SqlSyntaxException e)
        {
            e.Message.Should().NotBeNullOrEmpty();
            e.Offset.Should().BeInRange(0, sql.Length);
            return false;
        }
    }
}
