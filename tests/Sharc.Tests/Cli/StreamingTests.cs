using System.Diagnostics;
using System.Globalization;
using FluentAssertions;
using Sharc.Cli;
using Sharc.Cli.Output;

namespace Sharc.Tests.Cli;

/// <summary>Rows stream: a closed pipe ends the command quietly, and the table format stays inside its columns.</summary>
public sealed class StreamingTests : IDisposable
{
    private readonly CliFixture _fx = new();

    [Fact]
    public void A_closed_pipe_stops_an_endless_query_and_the_tool_exits_quietly()
    {
        // The query never ends on its own: only the closed pipe can stop it. A generous wait guards the suite against
        // a regression; it is a liveness check, not a measure of speed.
        string path = _fx.CreateDb("pipe.db", "CREATE TABLE t(a)");
        var psi = new ProcessStartInfo("/bin/sh") { RedirectStandardOutput = true, RedirectStandardError = true };
        psi.ArgumentList.Add("-c");
        psi.ArgumentList.Add("dotnet \"$0\" query \"$1\" 'WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k) SELECT i FROM k' --format csv | head -2; echo \"sharc exited\" >&2");
        psi.ArgumentList.Add(CliFixture.ToolDll);
        psi.ArgumentList.Add(path);

        using var p = Process.Start(psi)!;
        var stderr = p.StandardError.ReadToEndAsync();
        string stdout = p.StandardOutput.ReadToEnd();
        bool ended = p.WaitForExit(TimeSpan.FromMinutes(2));
        if (!ended) p.Kill(entireProcessTree: true);

        ended.Should().BeTrue("closing the pipe must stop the query");
        stdout.Should().Be("i\r\n1\r\n");
        stderr.Result.Should().Be("sharc exited\n", "a closed pipe is not an error worth a message");
    }

    [Fact]
    public void In_process_a_closed_output_ends_the_run_with_success_and_no_message()
    {
        string path = _fx.CreateDb("closed.db", "CREATE TABLE t(a)", "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 5000) INSERT INTO t SELECT i FROM k");
        var stdout = new ClosingWriter(closeAfter: 10);
        var stderr = new StringWriter(CultureInfo.InvariantCulture);

        int code = Program.Run(["dump", path, "t"], stdout, stderr);

        code.Should().Be(0);
        stderr.ToString().Should().BeEmpty();
        stdout.Writes.Should().BeLessThan(100, "the dump stopped at the first failed write instead of reading on");
    }

    [Fact]
    public void Table_cells_after_the_sample_are_cut_to_their_column_but_numbers_are_not()
    {
        var output = new StringWriter(CultureInfo.InvariantCulture);
        var table = new TableWriter(output) { MaxBufferedRows = 2 };
        table.Begin(["n", "name"]);
        table.WriteRow(new TestRow(1L, "ab"));
        table.WriteRow(new TestRow(2L, "abcd"));
        table.WriteRow(new TestRow(12345L, "abcdefgh"));
        table.Complete();

        output.ToString().Should().Be(
            "n | name\n" +
            "--+-----\n" +
            "1 | ab\n" +
            "2 | abcd\n" +
            "12345 | abc…\n" +
            "(3 rows)\n");
    }

    [Fact]
    public void On_a_narrow_terminal_the_widest_text_columns_narrow_until_a_line_fits()
    {
        var output = new StringWriter(CultureInfo.InvariantCulture);
        var table = new TableWriter(output) { MaxLineWidth = 30 };
        table.Begin(["id", "title", "note"]);
        table.WriteRow(new TestRow(1L, "A title that is rather long", "short"));
        table.WriteRow(new TestRow(22L, "Brief", "a note of some length"));
        table.Complete();

        var lines = output.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        lines.Take(lines.Length - 1).Should().OnlyContain(l => TableWriter.DisplayWidth(l) <= 30);
        lines[2].Should().Be(" 1 | A title th… | short");
        lines[3].Should().Be("22 | Brief       | a note of …");
        lines[^1].Should().Be("(2 rows)");
    }

    /// <summary>A row of integers and text for the writers.</summary>
    private sealed class TestRow(params object[] values) : IRowValues
    {
        public int FieldCount => values.Length;
        public SharcColumnType GetColumnType(int ordinal) => values[ordinal] is long ? SharcColumnType.Integer : SharcColumnType.Text;
        public long GetInt64(int ordinal) => (long)values[ordinal];
        public double GetDouble(int ordinal) => throw new NotSupportedException();
        public string GetText(int ordinal) => (string)values[ordinal];
        public ReadOnlySpan<byte> GetBlob(int ordinal) => throw new NotSupportedException();
    }

    /// <summary>Standard output whose reader goes away after a few flushes, as `| head` does.</summary>
    private sealed class ClosingWriter(int closeAfter) : StringWriter(CultureInfo.InvariantCulture)
    {
        public int Writes { get; private set; }

        public override void Write(char value) => Count();
        public override void Write(string? value) => Count();
        public override void Write(ReadOnlySpan<char> buffer) => Count();

        private void Count()
        {
            if (++Writes > closeAfter) throw new OutputClosedException(new IOException("Broken pipe"));
        }
    }

    public void Dispose() => _fx.Dispose();
}
