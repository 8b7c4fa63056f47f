namespace Sharc.Tests.Write;

/// <summary>
/// UPSERT's DO UPDATE writes a row like any UPDATE: its CHECK constraints, NOT NULL columns and STRICT types are
/// enforced with SQLite's messages, for rowid and WITHOUT ROWID tables, with or without triggers and generated columns.
/// </summary>
public sealed class UpsertConstraintTests
{
    public static IEnumerable<object[]> Tables() =>
    [
        ["CREATE TABLE u(a INT PRIMARY KEY, b TEXT CONSTRAINT short CHECK(length(b) < 3), c NOT NULL, d REAL, CHECK(d IS NOT 7))"],
        ["CREATE TABLE u(a INT PRIMARY KEY, b TEXT CONSTRAINT short CHECK(length(b) < 3), c NOT NULL, d REAL, CHECK(d IS NOT 7)) WITHOUT ROWID"],
        ["CREATE TABLE u(a INTEGER PRIMARY KEY, b TEXT CONSTRAINT short CHECK(length(b) < 3), c INT NOT NULL, d REAL, CHECK(d IS NOT 7)) STRICT"],
        ["CREATE TABLE u(a INT PRIMARY KEY, b TEXT CONSTRAINT short CHECK(length(b) < 3), c INT NOT NULL, d REAL, CHECK(d IS NOT 7)) STRICT, WITHOUT ROWID"],
        ["CREATE TABLE u(a INT PRIMARY KEY, b TEXT CONSTRAINT short CHECK(length(b) < 3), c NOT NULL, d REAL, g AS (d * 2), CHECK(d IS NOT 7))"],
        ["CREATE TABLE u(a INT UNIQUE, b TEXT CONSTRAINT short CHECK(length(b) < 3), c NOT NULL, d REAL, CHECK(d IS NOT 7))"],
    ];

    [Theory]
    [MemberData(nameof(Tables))]
    public void DoUpdateEnforcesCheckNotNullAndStrictTypes(string create)
    {
        using var twin = new WriteTwin();
        twin.Schema(create);
        string[] script =
        [
            "INSERT INTO u(a, b, c, d) VALUES(1, 'ab', 1, 1.5)",
            "INSERT INTO u(a, b, c, d) VALUES(2, 'cd', 2, 2.5)",
            "INSERT INTO u(a, b, c, d) VALUES(1, 'x', 1, 0) ON CONFLICT(a) DO UPDATE SET b = 'abcd'",
            "INSERT INTO u(a, b, c, d) VALUES(1, 'x', 1, 0) ON CONFLICT(a) DO UPDATE SET b = excluded.b || 'yz'",
            "INSERT INTO u(a, b, c, d) VALUES(1, 'x', 1, 0) ON CONFLICT DO UPDATE SET c = NULL",
            "INSERT INTO u(a, b, c, d) VALUES(1, 'x', 1, 0) ON CONFLICT DO UPDATE SET d = 7",
            "INSERT INTO u(a, b, c, d) VALUES(1, 'x', 1, 0) ON CONFLICT DO UPDATE SET d = 'seven'",
            "INSERT INTO u(a, b, c, d) VALUES(1, 'x', 1, 0) ON CONFLICT DO UPDATE SET c = 'c', d = '8'",
            "INSERT INTO u(a, b, c, d) VALUES(2, 'x', 1, 0), (1, 'y', 1, 0) ON CONFLICT DO UPDATE SET b = b || '+'",
            "INSERT INTO u(a, b, c, d) VALUES(2, 'x', 1, 0) ON CONFLICT DO UPDATE SET b = 'ok', d = 3 WHERE c = 2",
            "INSERT INTO u(a, b, c, d) VALUES(2, 'x', 1, 0) ON CONFLICT DO UPDATE SET b = 'long' WHERE c = 99",
            "INSERT INTO u(a, b, c, d) VALUES(3, 'x', 1, 0) ON CONFLICT DO UPDATE SET b = 'long'",
        ];
        foreach (var sql in script) twin.Both(sql, d => d.Execute(sql));
        twin.AssertSame("SELECT a, b, c, typeof(c), d, typeof(d) FROM u ORDER BY a");
    }

    [Fact]
    public void DoUpdateChecksAreEnforcedWhenTriggersFire()
    {
        using var twin = new WriteTwin(sqliteSchema:
        [
            "CREATE TABLE u(a INT PRIMARY KEY, b TEXT CHECK(length(b) < 3), n INT)",
            "CREATE TABLE log(x)",
            "CREATE TRIGGER u_up AFTER UPDATE ON u BEGIN INSERT INTO log VALUES(new.b); END",
        ]);
        foreach (var sql in new[]
        {
            "INSERT INTO u VALUES(1, 'ab', 0)",
            "INSERT INTO u VALUES(1, 'x', 0) ON CONFLICT DO UPDATE SET b = 'abcd'",
            "INSERT INTO u VALUES(1, 'x', 0) ON CONFLICT DO UPDATE SET b = 'cd'",
        })
            twin.Both(sql, d => d.Execute(sql));
        twin.AssertSame("SELECT * FROM u", "SELECT * FROM log");
    }
}
