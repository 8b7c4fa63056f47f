using Sharc.Cli;
using Sharc.Tests.Cli;

namespace Sharc.Tests.Sql.Execution;

/// <summary><c>sharc query &lt;db&gt; "&lt;sql&gt;" [--param name=value]… [--format &lt;fmt&gt;]</c>.</summary>
public sealed class QueryCommandTests : IDisposable
{
    private readonly CliFixture _fx = new();
    private readonly string _db;

    public QueryCommandTests()
    {
        _db = _fx.CreateDb("q.db",
            "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB, note)",
            "INSERT INTO t VALUES (1, 'ada', 1.5, x'00ff', NULL), (2, 'bob', 2.0, NULL, 7), (3, 'cy \"q\"', -0.25, x'', 'x,y')",
            "INSERT INTO t VALUES (4, 'dee', 1e300, NULL, 9223372036854775807)");
    }

    public void Dispose() => _fx.Dispose();

    [Theory]
    [InlineData("INSERT INTO t(name) VALUES ('x')", "INSERT")]
    [InlineData("WITH w AS (SELECT 1) DELETE FROM t", "DELETE")]
    [InlineData("CREATE TABLE u(a)", "CREATE TABLE")]
    [InlineData("PRAGMA user_version = 3", "a PRAGMA that sets a value")]
    [InlineData("begin immediate", "BEGIN")]
    [InlineData("VACUUM", "VACUUM")]
    public void A_statement_that_writes_is_sent_to_exec_in_the_tools_terms(string sql, string what)
    {
        var r = CliFixture.Run("query", _db, sql);

        r.ExitCode.Should().Be(2);
        r.Stderr.Should().Be($"sharc: error: query only reads: run {what} with 'sharc exec {_db} \"<sql>\"'\n");
        r.Stderr.Should().NotContain("SharcOpenOptions");
        CliFixture.Query(_db, "SELECT count(*) FROM t")[0][0].Should().Be(4L);
    }

    [Fact]
    public void A_script_is_sent_to_exec()
    {
        var r = CliFixture.Run("query", _db, "SELECT 1; SELECT 2");

        r.ExitCode.Should().Be(2);
        r.Stderr.Should().Be($"sharc: error: query runs one statement; run a script with 'sharc exec {_db} \"<sql>; <sql>…\"'\n");
    }

    [Fact]
    public void A_pragma_that_reads_runs()
    {
        var r = CliFixture.Run("query", _db, "PRAGMA user_version", "--format", "list");

        r.ExitCode.Should().Be(0, r.Stderr);
        r.Stdout.Should().Be("user_version\n0\n");
    }

    [Theory]
    [InlineData("PRAGMA table_info(t)", "cid|name|type|notnull|dflt_value|pk", 5)]
    [InlineData("PRAGMA index_list(t)", "seq|name|unique|origin|partial", 0)]
    [InlineData("PRAGMA foreign_key_list(t)", "id|seq|table|from|to|on_update|on_delete|match", 0)]
    [InlineData("PRAGMA integrity_check(5)", "integrity_check", 1)]
    public void A_pragma_whose_argument_names_what_to_read_runs(string sql, string header, int rows)
    {
        var r = CliFixture.Run("query", _db, sql, "--format", "list");

        r.ExitCode.Should().Be(0, r.Stderr);
        var lines = r.Stdout.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        if (rows == 0) lines.Length.Should().BeLessThanOrEqualTo(1);
        else lines.Should().HaveCount(rows + 1).And.StartWith(header);
    }

    [Fact]
    public void Jsonl_is_written_exactly_as_dump_writes_it()
    {
        var query = CliFixture.Run("query", _db, "SELECT * FROM t", "--format", "jsonl");
        var dump = CliFixture.Run("dump", _db, "t", "--format", "jsonl");

        query.ExitCode.Should().Be(0);
        query.Stderr.Should().BeEmpty();
        query.Stdout.Should().Be(dump.Stdout);
    }

    [Fact]
    public void Parameters_are_bound_by_name_or_number_with_their_type()
    {
        var r = CliFixture.Run("query", _db, "SELECT id, name FROM t WHERE score > :min AND name <> ?2 ORDER BY id", "--param", "min=1", "-p", "2=bob", "--format", "csv");
        r.ExitCode.Should().Be(0, r.Stderr);
        r.Stdout.Should().Be("id,name\r\n1,ada\r\n4,dee\r\n");

        var quoted = CliFixture.Run("query", _db, "SELECT typeof($a), typeof(@b), typeof(:c), typeof(?4)", "--param=$a='42'", "--param", "b=4.5", "--param", ":c=NULL", "--param", "4=x", "-f", "csv");
        quoted.Stdout.Should().Be("typeof($a),typeof(@b),typeof(:c),typeof(?4)\r\ntext,real,null,text\r\n");
    }

    [Fact]
    public void The_table_format_is_the_default()
    {
        var r = CliFixture.Run("query", _db, "SELECT name, score FROM t WHERE id <= 2 ORDER BY id");
        r.ExitCode.Should().Be(0);
        r.Stdout.Should().Contain("name").And.Contain("ada").And.Contain("(2 rows)");
    }

    [Fact]
    public void Sql_errors_are_one_line_with_their_position()
    {
        var r = CliFixture.Run("query", _db, "SELECT nope FROM t");
        r.ExitCode.Should().Be(Program.ExitDataError);
        r.Stderr.Should().Be("sharc: error: no such column: nope (line 1, column 8)\n");

        var unsupported = CliFixture.Run("query", _db, "SELECT * FROM (t, t AS u) AS j");
        unsupported.ExitCode.Should().Be(Program.ExitDataError);
        unsupported.Stderr.Should().Contain("is not supported");
    }

    [Fact]
    public void Unknown_parameters_and_missing_arguments_are_usage_errors()
    {
        CliFixture.Run("query", _db, "SELECT ?", "--param", "zz=1").ExitCode.Should().Be(Program.ExitUsage);
        CliFixture.Run("query", _db, "SELECT ?", "--param", "novalue").ExitCode.Should().Be(Program.ExitUsage);
        CliFixture.Run("query", _db).ExitCode.Should().Be(Program.ExitUsage);
        CliFixture.Run("query", _db, "SELECT 1", "--format", "xml").ExitCode.Should().Be(Program.ExitUsage);
    }

    [Fact]
    public void The_usage_lists_the_command()
    {
        Program.Usage().Should().Contain("  sharc query <db> <sql> [--param name=value]... [--format <fmt>]\n");
        CliFixture.Run("query", "--help").Stdout.Should().StartWith("usage: sharc query <db> <sql>");
    }
}
