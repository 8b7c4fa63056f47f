using Sharc.Sql;
using Sharc.Sql.Execution;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Sql.Execution;

/// <summary>
/// Expressions over in-memory table rows (CHECK, index expressions, RETURNING, UPSERT, triggers) give what SQLite
/// gives for the same expression over the same stored row.
/// </summary>
public sealed class RowExpressionsTests : IDisposable
{
    private readonly TempDir _dir = new();

    public void Dispose() => _dir.Dispose();

    private const string Schema =
        "CREATE TABLE t(id INTEGER PRIMARY KEY, n INT, r REAL, s TEXT COLLATE NOCASE, b BLOB, u, " +
        "g TEXT GENERATED ALWAYS AS (s || '/' || n) VIRTUAL)";

    private static readonly string[] Stored = ["id", "n", "r", "s", "b", "u"];

    private string Build()
    {
        string path = _dir.File(Guid.NewGuid().ToString("N") + ".db");
        Oracle.Exec(path, Schema,
            "INSERT INTO t(id, n, r, s, b, u) VALUES (1, 5, 2.5, 'Abc', x'00ff', '12'), (2, NULL, -0.0, 'abc', NULL, 7.0), " +
            "(3, -9223372036854775808, 1e300, '', x'', 'x'), (7, 40, NULL, 'Zed', x'41', NULL)");
        return path;
    }

    /// <summary>The stored row as SQLite reads it, in the table's column order (the virtual column's slot NULL).</summary>
    private static SqlValue[] Row(string path, long id)
    {
        var values = Oracle.Rows(path, $"SELECT {string.Join(",", Stored)} FROM t WHERE id = {id}").Single();
        var row = new SqlValue[Stored.Length + 1];
        for (int i = 0; i < Stored.Length; i++) row[i] = SqlValue.FromObject(values[i]);
        row[^1] = SqlValue.Null;
        return row;
    }

    [Fact]
    public void Expressions_over_a_row_equal_sqlites_over_the_same_row()
    {
        string path = Build();
        string[] expressions =
        [
            "n + 1", "n * r", "s = 'ABC'", "s || n", "u = 12", "u > 5", "typeof(u)", "lower(s)", "id", "rowid", "t.id",
            "g", "length(b)", "hex(b)", "n IS NULL", "CASE WHEN n > 10 THEN 'big' ELSE 'small' END", "coalesce(r, 0.5)",
            "s IN ('abc', 'zed')", "n BETWEEN 0 AND 10", "CAST(u AS INTEGER)", "abs(n)", "s < 'b'", "(SELECT count(*) FROM t)",
            "n IN (SELECT n FROM t WHERE n > 0)", "substr(s, 2)", "u + 0", "r / 0",
        ];
        using var db = SharcDatabase.Open(path);
        using var row = RowExpressions.Compile(db, expressions, new RowBinding("t", db.Schema.GetTable("t")));
        row.Count.Should().Be(expressions.Length);
        foreach (long id in new long[] { 1, 2, 3, 7 })
        {
            row.SetRow(0, Row(path, id), id);
            for (int i = 0; i < expressions.Length; i++)
            {
                object? expected;
                try
                {
                    expected = Oracle.Rows(path, $"SELECT {expressions[i]} FROM t WHERE id = {id}").Single()[0];
                }
                catch (Microsoft.Data.Sqlite.SqliteException)
                {
                    expected = "ERROR";
                }
                object? actual;
                try
                {
                    actual = row.Evaluate(i).ToObject();
                }
                catch (SqlRuntimeException)
                {
                    actual = "ERROR";
                }
                QueryOracle.Render(actual).Should().Be(QueryOracle.Render(expected), $"{expressions[i]} on row {id}");
            }
        }
    }

    [Fact]
    public void Collation_and_affinity_come_from_the_expression()
    {
        string path = Build();
        using var db = SharcDatabase.Open(path);
        using var row = RowExpressions.Compile(db, ["s", "s COLLATE BINARY", "n", "n + 0", "CAST(u AS TEXT)"], new RowBinding("t", db.Schema.GetTable("t")));
        row.CollationOf(0).Should().Be(Sharc.Format.Collation.NoCase);
        row.CollationOf(1).Should().Be(Sharc.Format.Collation.Binary);
        row.AffinityOf(2).Should().Be(SqlAffinity.Integer);
        row.AffinityOf(3).Should().Be(SqlAffinity.None);
        row.AffinityOf(4).Should().Be(SqlAffinity.Text);
    }

    [Fact]
    public void Check_semantics_fail_only_on_false()
    {
        string path = Build();
        using var db = SharcDatabase.Open(path);
        using var row = RowExpressions.Compile(db, ["n > 0"], new RowBinding("t", db.Schema.GetTable("t")));
        row.SetRow(0, Row(path, 1), 1);
        (row.IsTrue(0), row.IsFalse(0)).Should().Be((true, false));
        row.SetRow(0, Row(path, 2), 2); // n is NULL: neither true nor false
        (row.IsTrue(0), row.IsFalse(0)).Should().Be((false, false));
        row.SetRow(0, Row(path, 3), 3);
        (row.IsTrue(0), row.IsFalse(0)).Should().Be((false, true));
    }

    [Fact]
    public void Two_rows_of_one_table_are_told_apart_by_their_names()
    {
        string path = Build();
        using var db = SharcDatabase.Open(path);
        var t = db.Schema.GetTable("t");
        // As an UPSERT sees them: the existing row unqualified or as t, the proposed one only as excluded.
        using var upsert = RowExpressions.Compile(db, ["n", "t.n", "excluded.n", "n + excluded.n"],
            new RowBinding("t", t), new RowBinding("excluded", t, Unqualified: false));
        upsert.SetRow(0, Row(path, 1), 1);
        upsert.SetRow(1, Row(path, 7), 7);
        upsert.Evaluate(0).IntegerValue.Should().Be(5);
        upsert.Evaluate(1).IntegerValue.Should().Be(5);
        upsert.Evaluate(2).IntegerValue.Should().Be(40);
        upsert.Evaluate(3).IntegerValue.Should().Be(45);
    }

    [Fact]
    public void Trigger_rows_must_be_named()
    {
        string path = Build();
        using var db = SharcDatabase.Open(path);
        var t = db.Schema.GetTable("t");
        var rows = new[] { new RowBinding("new", t, Unqualified: false), new RowBinding("old", t, Unqualified: false) };
        using (var ok = RowExpressions.Compile(db, ["new.n - old.n"], rows))
        {
            ok.SetRow(0, Row(path, 7), 7);
            ok.SetRow(1, Row(path, 1), 1);
            ok.Evaluate(0).IntegerValue.Should().Be(35);
        }
        var act = () => RowExpressions.Compile(db, ["n"], rows);
        act.Should().Throw<SharcSqlException>().Which.SqliteMessage.Should().Be("no such column: n");
    }

    [Fact]
    public void Parameters_are_read_from_their_slots()
    {
        string path = Build();
        using var db = SharcDatabase.Open(path);
        using var row = RowExpressions.Compile(db, ["n + ?2"], new RowBinding("t", db.Schema.GetTable("t")));
        row.Parameters.Should().HaveCount(2);
        row.Parameters[1] = SqlValue.Integer(100);
        row.SetRow(0, Row(path, 1), 1);
        row.Evaluate(0).IntegerValue.Should().Be(105);
    }

    [Theory]
    [InlineData("nope + 1", "no such column: nope")]
    [InlineData("count(n)", "misuse of aggregate function count()")]
    [InlineData("x.n", "no such column: x.n")]
    public void Bad_expressions_fail_with_sqlites_message(string expression, string message)
    {
        string path = Build();
        using var db = SharcDatabase.Open(path);
        var act = () => RowExpressions.Compile(db, [expression], new RowBinding("t", db.Schema.GetTable("t")));
        act.Should().Throw<SharcSqlException>().Which.SqliteMessage.Should().Be(message);
    }
}
