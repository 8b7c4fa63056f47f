namespace Sharc.Tests.Cli;

public sealed class DumpCsvTests : IDisposable
{
    private readonly CliFixture _fx = new();

    public void Dispose() => _fx.Dispose();

    [Fact]
    public void Csv_has_a_header_and_quotes_only_fields_that_need_it()
    {
        string db = _fx.CreateDb("csv.db",
            "CREATE TABLE c(id INTEGER PRIMARY KEY, \"a,b\" TEXT, \"say \"\"hi\"\"\" TEXT, n)",
            "INSERT INTO c VALUES (1, 'plain', 'with,comma', 42)",
            "INSERT INTO c VALUES (2, 'with \"quotes\"', 'line\nbreak', 1.5)",
            "INSERT INTO c VALUES (3, '', NULL, x'0a0bff')",
            "INSERT INTO c VALUES (4, ' padded ', 'cr\rlf', -9223372036854775808)");

        var result = CliFixture.Run("dump", db, "c", "--format", "csv");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be(CliFixture.Text("\r\n",
            "id,\"a,b\",\"say \"\"hi\"\"\",n",
            "1,plain,\"with,comma\",42",
            "2,\"with \"\"quotes\"\"\",\"line\nbreak\",1.5",
            "3,\"\",,0a0bff",
            "4, padded ,\"cr\rlf\",-9223372036854775808"));
    }

    [Fact]
    public void Csv_writes_reals_as_jsonl_does()
    {
        string db = _fx.CreateDb("reals.db",
            "CREATE TABLE r(x REAL)",
            "INSERT INTO r VALUES (1.0), (0.1), (1e300), (-2.5e-10), (9e999)");

        var result = CliFixture.Run("dump", db, "r", "-f", "csv");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be("x\r\n1.0\r\n0.1\r\n1e+300\r\n-2.5e-10\r\n1e999\r\n");
    }

    [Fact]
    public void Csv_of_an_empty_table_is_just_the_header()
    {
        string db = _fx.CreateDb("empty.db", "CREATE TABLE e(a, b)");

        var result = CliFixture.Run("dump", db, "e", "--format=csv");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be("a,b\r\n");
    }

    [Fact]
    public void Csv_of_an_index_names_its_rowid_column()
    {
        string db = _fx.CreateDb("idx.db",
            "CREATE TABLE t(name TEXT)",
            "CREATE INDEX t_name ON t(name)",
            "INSERT INTO t VALUES ('b'), ('a')");

        var result = CliFixture.Run("dump", db, "t_name", "--format", "csv");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be("name,rowid\r\na,2\r\nb,1\r\n");
    }
}
