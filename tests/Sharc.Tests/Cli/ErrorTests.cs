namespace Sharc.Tests.Cli;

public sealed class ErrorTests : IDisposable
{
    private readonly CliFixture _fx = new();

    public void Dispose() => _fx.Dispose();

    private static void ShouldFailWithOneLine(CliResult result, int exitCode, string expectedStderr)
    {
        result.ExitCode.Should().Be(exitCode);
        result.Stderr.Should().Be(expectedStderr);
    }

    private static void ShouldFailWithOneLineContaining(CliResult result, int exitCode, params string[] fragments)
    {
        result.ExitCode.Should().Be(exitCode);
        result.Stderr.Should().StartWith("sharc: error: ").And.EndWith("\n");
        result.Stderr.TrimEnd('\n').Should().NotContain("\n", "an error is one line, never a stack trace");
        result.Stderr.Should().NotContain("   at ");
        foreach (var f in fragments) result.Stderr.Should().Contain(f);
    }

    [Fact]
    public void A_missing_file_is_a_data_error_naming_the_path()
    {
        string path = _fx.PathOf("nope.db");

        var result = CliFixture.Run("dump", path, "t");

        ShouldFailWithOneLine(result, 1, $"sharc: error: {path}: no such file\n");
        result.Stdout.Should().BeEmpty();
        File.Exists(path).Should().BeFalse("reading must never create the file");
    }

    [Fact]
    public void A_file_in_a_missing_directory_is_a_data_error()
    {
        string path = _fx.PathOf(Path.Combine("no-such-dir", "x.db"));

        ShouldFailWithOneLine(CliFixture.Run("schema", path), 1, $"sharc: error: {path}: no such file\n");
    }

    [Fact]
    public void A_directory_is_a_data_error()
    {
        ShouldFailWithOneLine(CliFixture.Run("schema", _fx.Dir), 1, $"sharc: error: {_fx.Dir}: is a directory, not a database file\n");
    }

    [Fact]
    public void A_text_file_is_not_a_database()
    {
        string path = _fx.PathOf("notes.txt");
        File.WriteAllText(path, string.Concat(Enumerable.Repeat("This is not a database, just some text.\n", 20)));

        var result = CliFixture.Run("schema", path);

        ShouldFailWithOneLineContaining(result, 1, path, "not a database");
    }

    [Fact]
    public void A_file_shorter_than_the_header_is_not_a_database()
    {
        string path = _fx.PathOf("short.db");
        File.WriteAllBytes(path, "SQLite format 3\0"u8.ToArray());

        var result = CliFixture.Run("dump", path, "t");

        ShouldFailWithOneLineContaining(result, 1, path, "not a database");
    }

    [Fact]
    public void A_corrupt_header_is_reported_as_malformed()
    {
        string path = _fx.CreateDb("badheader.db", "CREATE TABLE t(x)", "INSERT INTO t VALUES (1)");
        var bytes = File.ReadAllBytes(path);
        bytes[16] = 0x03; // page size 0x03xx: not a power of two
        bytes[17] = 0x00;
        File.WriteAllBytes(path, bytes);

        var result = CliFixture.Run("dump", path, "t");

        ShouldFailWithOneLineContaining(result, 1, path, "malformed");
    }

    [Fact]
    public void A_corrupt_table_page_is_a_data_error_without_a_stack_trace()
    {
        string path = _fx.CreateDb("corrupt.db", "CREATE TABLE t(x)", "INSERT INTO t VALUES (1), (2), (3)");
        long root = (long)CliFixture.Query(path, "SELECT rootpage FROM sqlite_schema WHERE name = 't'")[0][0]!;
        int pageSize = (int)(long)CliFixture.Query(path, "PRAGMA page_size")[0][0]!;
        var bytes = File.ReadAllBytes(path);
        Array.Fill(bytes, (byte)0xEE, (int)(root - 1) * pageSize, pageSize);
        File.WriteAllBytes(path, bytes);

        var result = CliFixture.Run("dump", path, "t");

        ShouldFailWithOneLineContaining(result, 1, "malformed");
    }

    [Fact]
    public void An_unknown_table_is_a_data_error()
    {
        string path = _fx.CreateDb("t.db", "CREATE TABLE t(x)");

        ShouldFailWithOneLineContaining(CliFixture.Run("dump", path, "nope"), 1, "no such table or index: nope");
    }

    [Fact]
    public void Dumping_a_view_explains_that_views_need_a_sql_engine()
    {
        string path = _fx.CreateDb("v.db", "CREATE TABLE t(x)", "CREATE VIEW v AS SELECT x FROM t");

        ShouldFailWithOneLineContaining(CliFixture.Run("dump", path, "v"), 1, "v is a view");
    }

    [Fact]
    public void An_unknown_command_is_a_usage_error()
    {
        var result = CliFixture.Run("frobnicate");

        ShouldFailWithOneLine(result, 2, "sharc: error: unknown command 'frobnicate' (see 'sharc --help')\n");
        result.Stdout.Should().BeEmpty();
    }

    [Fact]
    public void An_unknown_top_level_option_is_a_usage_error()
    {
        ShouldFailWithOneLine(CliFixture.Run("--frob"), 2, "sharc: error: unknown option '--frob' (see 'sharc --help')\n");
    }

    [Fact]
    public void A_missing_argument_is_a_usage_error_that_names_it()
    {
        string path = _fx.CreateDb("t.db", "CREATE TABLE t(x)");

        ShouldFailWithOneLine(CliFixture.Run("dump", path), 2,
            "sharc: error: dump: missing <table-or-index> (usage: sharc dump <db> <table-or-index>)\n");
        ShouldFailWithOneLine(CliFixture.Run("schema"), 2, "sharc: error: schema: missing <db> (usage: sharc schema <db>)\n");
    }

    [Fact]
    public void An_extra_argument_is_a_usage_error()
    {
        string path = _fx.CreateDb("t.db", "CREATE TABLE t(x)");

        ShouldFailWithOneLine(CliFixture.Run("schema", path, "extra"), 2, "sharc: error: schema: unexpected argument 'extra'\n");
    }

    [Fact]
    public void An_unknown_format_is_a_usage_error()
    {
        string path = _fx.CreateDb("t.db", "CREATE TABLE t(x)");

        ShouldFailWithOneLine(CliFixture.Run("dump", path, "t", "--format", "xml"), 2,
            "sharc: error: dump: unknown format 'xml' (expected table|csv|jsonl|json|list)\n");
    }

    [Fact]
    public void An_option_without_its_value_is_a_usage_error()
    {
        string path = _fx.CreateDb("t.db", "CREATE TABLE t(x)");

        ShouldFailWithOneLine(CliFixture.Run("dump", path, "t", "--format"), 2,
            "sharc: error: dump: option --format needs a value <fmt>\n");
    }

    [Fact]
    public void An_unknown_command_option_is_a_usage_error_even_before_the_file_is_opened()
    {
        ShouldFailWithOneLine(CliFixture.Run("dump", "missing.db", "t", "--colour"), 2,
            "sharc: error: dump: unknown option '--colour' (see 'sharc dump --help')\n");
    }

    [Fact]
    public void An_option_given_twice_is_a_usage_error()
    {
        ShouldFailWithOneLine(CliFixture.Run("dump", "x.db", "t", "-f", "csv", "--format", "jsonl"), 2,
            "sharc: error: dump: option --format given more than once\n");
    }
}
