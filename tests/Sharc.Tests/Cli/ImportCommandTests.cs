using System.Diagnostics;
using System.Text;
using FluentAssertions;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Cli;

/// <summary>
/// <c>sharc import</c>: the same CSV imported by Sharc and by the sqlite3 shell's <c>.import --csv</c> gives the same
/// table and rows (sqlite3 3.40 is the oracle here: it is the shell users compare with).
/// </summary>
public sealed class ImportCommandTests : IDisposable
{
    private readonly CliFixture _fx = new();

    [NeedsSqlite3ShellFact]
    public void A_new_table_gets_text_columns_named_by_the_header_and_the_rows_sqlite3_imports()
    {
        for (int seed = 1; seed <= 6; seed++)
        {
            string csv = _fx.PathOf($"new{seed}.csv");
            File.WriteAllText(csv, RandomCsv(new Random(seed), ["id", "name", "note, with comma", "amount"], rows: 150));
            string mine = _fx.PathOf($"mine{seed}.db"), theirs = _fx.PathOf($"theirs{seed}.db");

            var result = CliFixture.Run("import", mine, "t", csv);
            Sqlite3(theirs, $".import --csv {csv} t");

            result.ExitCode.Should().Be(0, result.Stderr);
            CliFixture.ShouldMatch(Oracle.Rows(mine, "SELECT name, type FROM pragma_table_info('t')"), Oracle.Rows(theirs, "SELECT name, type FROM pragma_table_info('t')"));
            CliFixture.ShouldMatch(Oracle.Rows(mine, "SELECT * FROM t ORDER BY rowid"), Oracle.Rows(theirs, "SELECT * FROM t ORDER BY rowid"));
            Oracle.IntegrityCheck(mine).Should().Be("ok");
        }
    }

    [NeedsSqlite3ShellFact]
    public void An_existing_table_applies_its_column_affinities_as_sqlite3_does()
    {
        const string create = "CREATE TABLE u(a INTEGER, b REAL, c TEXT, d NUMERIC, e BLOB, f)";
        for (int seed = 1; seed <= 6; seed++)
        {
            string csv = _fx.PathOf($"old{seed}.csv");
            File.WriteAllText(csv, RandomCsv(new Random(100 + seed), ["a", "b", "c", "d", "e", "f"], rows: 150));
            string mine = _fx.CreateDb($"mine-old{seed}.db", create), theirs = _fx.CreateDb($"theirs-old{seed}.db", create);

            var result = CliFixture.Run("import", mine, "u", csv);
            Sqlite3(theirs, $".import --csv --skip 1 {csv} u");

            result.ExitCode.Should().Be(0, result.Stderr);
            CliFixture.ShouldMatch(Oracle.Rows(mine, "SELECT * FROM u ORDER BY rowid"), Oracle.Rows(theirs, "SELECT * FROM u ORDER BY rowid"));
        }
    }

    [NeedsSqlite3ShellFact]
    public void Short_and_long_records_are_filled_with_null_or_cut_and_reported_as_sqlite3_reports_them()
    {
        string csv = WriteCsv("ragged.csv", "a,b,c\n1,2,3\n4\n5,6,7,8\n\"multi\nline\",x\n");
        string mine = _fx.PathOf("ragged-mine.db"), theirs = _fx.PathOf("ragged-theirs.db");

        var result = CliFixture.Run("import", mine, "t", csv);
        string sqliteErrors = Sqlite3(theirs, $".import --csv {csv} t");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stderr.Should().Be(sqliteErrors);
        CliFixture.ShouldMatch(Oracle.Rows(mine, "SELECT * FROM t ORDER BY rowid"), Oracle.Rows(theirs, "SELECT * FROM t ORDER BY rowid"));
    }

    [Fact]
    public void Header_names_match_an_existing_tables_columns_by_name_in_any_order()
    {
        string path = _fx.CreateDb("byname.db", "CREATE TABLE t(a INTEGER, b TEXT, c)");
        string csv = WriteCsv("byname.csv", "B,a\nx,1\ny,2\n");

        var result = CliFixture.Run("import", path, "t", csv);

        result.ExitCode.Should().Be(0, result.Stderr);
        CliFixture.ShouldMatch(CliFixture.Query(path, "SELECT a, b, c FROM t ORDER BY rowid"), [[1L, "x", null], [2L, "y", null]]);
    }

    [Fact]
    public void A_header_naming_no_column_is_an_error_that_imports_nothing()
    {
        string path = _fx.CreateDb("unknown.db", "CREATE TABLE t(a, b)");
        string csv = WriteCsv("unknown.csv", "a,zz\n1,2\n");

        var result = CliFixture.Run("import", path, "t", csv);

        result.ExitCode.Should().Be(1);
        result.Stderr.Should().Be($"sharc: error: {csv}: the header names 'zz', not a column of t (rename it in the file, or import the values by position with --no-header)\n");
        CliFixture.Query(path, "SELECT count(*) FROM t")[0][0].Should().Be(0L);
    }

    [Fact]
    public void No_header_puts_values_in_column_order_and_imports_the_first_record_too()
    {
        string path = _fx.CreateDb("nohead.db", "CREATE TABLE t(a INTEGER, b)");

        var result = CliFixture.RunWithInput("1,x\n2,y\n", "import", path, "t", "-", "--no-header");

        result.ExitCode.Should().Be(0, result.Stderr);
        CliFixture.ShouldMatch(CliFixture.Query(path, "SELECT a, b FROM t ORDER BY rowid"), [[1L, "x"], [2L, "y"]]);
    }

    [Fact]
    public void The_import_is_one_transaction_a_failing_row_leaves_the_table_as_it_was()
    {
        string path = _fx.CreateDb("atomic.db", "CREATE TABLE t(a INTEGER UNIQUE)", "INSERT INTO t VALUES (5)");
        string csv = WriteCsv("atomic.csv", "a\n1\n2\n5\n6\n");

        var result = CliFixture.Run("import", path, "t", csv);

        result.ExitCode.Should().Be(1);
        result.Stderr.Should().Be($"sharc: error: {csv}:4: UNIQUE constraint failed: t.a (nothing was imported)\n");
        CliFixture.ShouldMatch(CliFixture.Query(path, "SELECT a FROM t"), [[5L]]);
        Oracle.IntegrityCheck(path).Should().Be("ok");
    }

    [Fact]
    public void A_failed_import_into_a_new_table_does_not_leave_the_table_behind()
    {
        string path = _fx.CreateDb("dup.db", "CREATE TABLE other(x)");
        string csv = WriteCsv("dup.csv", "a,a\n1,2\n");

        var result = CliFixture.Run("import", path, "t", csv);

        result.ExitCode.Should().Be(1);
        result.Stderr.Should().Contain("duplicate column name: a");
        CliFixture.Query(path, "SELECT name FROM sqlite_schema").Should().BeEquivalentTo(new[] { new object[] { "other" } });
    }

    [Fact]
    public void An_empty_file_has_no_header_to_name_the_columns()
    {
        string csv = WriteCsv("empty.csv", "");

        var result = CliFixture.Run("import", _fx.PathOf("e.db"), "t", csv);

        result.ExitCode.Should().Be(1);
        result.Stderr.Should().Be($"sharc: error: {csv}: empty file: no header row to name the columns\n");
    }

    private string WriteCsv(string name, string text)
    {
        string path = _fx.PathOf(name);
        File.WriteAllText(path, text);
        return path;
    }

    /// <summary>Runs the sqlite3 shell on <paramref name="db"/> with <paramref name="command"/>; returns what it wrote on stderr.</summary>
    private static string Sqlite3(string db, string command)
    {
        var psi = new ProcessStartInfo(Sqlite3Shell.Path!) { RedirectStandardError = true, RedirectStandardOutput = true };
        psi.ArgumentList.Add(db);
        psi.ArgumentList.Add(command);
        using var p = Process.Start(psi)!;
        string stderr = p.StandardError.ReadToEnd();
        p.StandardOutput.ReadToEnd();
        p.WaitForExit();
        p.ExitCode.Should().Be(0, stderr);
        return stderr;
    }

    /// <summary>
    /// A CSV file with a header and <paramref name="rows"/> records whose fields are numbers of several spellings,
    /// words, empty fields and text needing quotes (commas, quotes, LF and CRLF inside); records end in LF or CRLF.
    /// </summary>
    private static string RandomCsv(Random rng, string[] header, int rows)
    {
        string end = rng.Next(2) == 0 ? "\n" : "\r\n";
        var sb = new StringBuilder();
        sb.Append(string.Join(",", header.Select(Quote))).Append(end);
        for (int r = 0; r < rows; r++)
        {
            for (int c = 0; c < header.Length; c++)
            {
                if (c > 0) sb.Append(',');
                string value = rng.Next(12) switch
                {
                    0 => "",
                    1 => rng.Next(-1000, 1000).ToString(System.Globalization.CultureInfo.InvariantCulture),
                    2 => (rng.NextDouble() * 100).ToString("F2", System.Globalization.CultureInfo.InvariantCulture),
                    3 => "007",
                    4 => " 12 ",
                    5 => "1e3",
                    6 => "line one\nline two",
                    7 => "crlf\r\ninside",
                    8 => "say \"hi\", then go",
                    9 => "naïve 日本",
                    10 => "x" + rng.Next(100),
                    _ => "9223372036854775808",
                };
                sb.Append(rng.Next(4) == 0 || NeedsQuotes(value) ? Quote(value) : value);
            }
            sb.Append(end);
        }
        return sb.ToString();
    }

    private static bool NeedsQuotes(string v) => v.AsSpan().IndexOfAny(",\"\r\n") >= 0;

    private static string Quote(string v) => "\"" + v.Replace("\"", "\"\"") + "\"";

    public void Dispose() => _fx.Dispose();
}
