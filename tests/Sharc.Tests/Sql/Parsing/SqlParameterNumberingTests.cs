using Microsoft.Data.Sqlite;
using SQLitePCL;
using Sharc.Sql.Ast;
using Sharc.Sql.Parsing;

namespace Sharc.Tests.Sql.Parsing;

/// <summary>
/// Parameters are numbered as SQLite numbers them: "?" takes the next slot, "?NNN" names slot NNN, a named
/// parameter takes the next slot on first use and reuses it after. Checked against sqlite3_bind_parameter_count
/// and sqlite3_bind_parameter_name.
/// </summary>
public sealed class SqlParameterNumberingTests
{
    [Theory]
    [InlineData("SELECT ?, ?, ?")]
    [InlineData("SELECT ?5, ?")]
    [InlineData("SELECT :a, ?, :a, @b, ?")]
    [InlineData("SELECT ?2, :x, ?1")]
    [InlineData("SELECT :x, ?1, ?")]
    [InlineData("SELECT ?3, ?3, ?1")]
    [InlineData("SELECT $a, $a::b(c), @a, :a, #a")]
    [InlineData("SELECT ?007, ?")]
    [InlineData("SELECT * FROM t WHERE a = :v AND b IN (SELECT x FROM t2 WHERE y = :v OR z = ?) LIMIT ?")]
    [InlineData("INSERT INTO t VALUES (?, :b, ?10) ON CONFLICT DO UPDATE SET a = :b RETURNING ?")]
    [InlineData("SELECT 1")]
    public void Slots_and_names_match_sqlite(string sql)
    {
        var statement = SqlParser.ParseStatement(sql);

        using var connection = new SqliteConnection("Data Source=:memory:");
        connection.Open();
        using (var cmd = connection.CreateCommand())
        {
            cmd.CommandText = SqlCorpus.Schema;
            cmd.ExecuteNonQuery();
        }
        raw.sqlite3_prepare_v2(connection.Handle, sql, out sqlite3_stmt stmt, out string _).Should().Be(raw.SQLITE_OK);
        using (stmt)
        {
            int count = raw.sqlite3_bind_parameter_count(stmt);
            statement.ParameterCount.Should().Be(count);
            var names = Enumerable.Range(1, count).Select(i => raw.sqlite3_bind_parameter_name(stmt, i).utf8_to_string()).ToArray();
            statement.ParameterNames.Should().Equal(names);

            foreach (var p in Parameters(statement))
            {
                if (p.Name != "?" && p.Name[0] != '?') raw.sqlite3_bind_parameter_index(stmt, p.Name).Should().Be(p.Index, p.Name);
                if (p.Name.Length > 1 && p.Name[0] == '?') p.Index.Should().Be(int.Parse(p.Name[1..]));
            }
        }
    }

    [Fact]
    public void Anonymous_parameters_count_in_source_order()
    {
        var s = (SqlSelectStatement)SqlParser.ParseStatement("SELECT ?, (SELECT ?), ?");
        Parameters(s).Select(p => p.Index).Should().Equal(1, 2, 3);
    }

    [Fact]
    public void Each_statement_of_a_script_numbers_its_own_parameters()
    {
        var statements = SqlParser.ParseScript("SELECT ?, :a; SELECT :b, ?");
        statements.Select(s => s.ParameterCount).Should().Equal(2, 2);
        statements[1].ParameterNames.Should().Equal(":b", null);
    }

    [Fact]
    public void Too_many_parameters_is_an_error()
    {
        string sql = "SELECT " + string.Join(", ", Enumerable.Repeat("?", 32767));
        var act = () => SqlParser.ParseStatement(sql);
        act.Should().Throw<SharcSqlException>().Which.SqliteMessage.Should().Be("too many SQL variables");
    }

    /// <summary>The parameter nodes of a statement, in source order.</summary>
    private static List<SqlParameterExpr> Parameters(SqlStatement statement)
    {
        var found = new List<SqlParameterExpr>();
        Walk(statement, found);
        return found.OrderBy(p => p.Start).ToList();
    }

    private static void Walk(object? node, List<SqlParameterExpr> found)
    {
        switch (node)
        {
            case null or string:
                return;
            case SqlParameterExpr p:
                found.Add(p);
                return;
            case System.Collections.IEnumerable items:
                foreach (var item in items) Walk(item, found);
                return;
            case SqlNode:
                foreach (var property in node.GetType().GetProperties())
                {
                    if (property.GetIndexParameters().Length == 0 && property.Name != "EqualityContract") Walk(property.GetValue(node), found);
                }
                return;
        }
    }
}
