using System.Globalization;
using System.Text;
using FluentAssertions;
using Sharc.Cli.Import;
using Sharc.Cli.Output;

namespace Sharc.Tests.Cli;

/// <summary>The import's CSV reader: reads back what the csv format writes, and reads what the RFC forbids leniently.</summary>
public sealed class CsvReaderTests
{
    [Fact]
    public void Random_records_written_with_rfc_4180_quoting_read_back_field_for_field()
    {
        string[] pieces = ["", "a", ",", "\"", "\n", "\r\n", " ", "é", "日本", "x\"y", "1.5", "\r"];
        for (int seed = 1; seed <= 20; seed++)
        {
            var rng = new Random(seed);
            var records = new List<string[]>();
            var text = new StringWriter(CultureInfo.InvariantCulture);
            string end = seed % 2 == 0 ? "\n" : "\r\n";
            for (int r = 0; r < 50; r++)
            {
                var fields = new string[rng.Next(1, 6)];
                for (int f = 0; f < fields.Length; f++)
                {
                    var sb = new StringBuilder();
                    for (int k = rng.Next(0, 4); k > 0; k--) sb.Append(pieces[rng.Next(pieces.Length)]);
                    fields[f] = sb.ToString();
                    if (f > 0) text.Write(',');
                    CsvWriter.WriteField(text, fields[f]);
                }
                records.Add(fields);
                text.Write(end);
            }

            var reader = new CsvReader(new StringReader(text.ToString()));
            var read = new List<string>();
            foreach (var expected in records)
            {
                reader.ReadRecord(read).Should().BeTrue();
                read.Should().Equal(expected, $"seed {seed}");
            }
            reader.ReadRecord(read).Should().BeFalse();
        }
    }

    [Fact]
    public void Records_report_the_line_they_start_on()
    {
        var reader = new CsvReader(new StringReader("a,b\n\"two\nlines\",c\r\nlast"));
        var fields = new List<string>();

        reader.ReadRecord(fields).Should().BeTrue();
        reader.RecordLine.Should().Be(1);
        reader.ReadRecord(fields).Should().BeTrue();
        reader.RecordLine.Should().Be(2);
        fields.Should().Equal("two\nlines", "c");
        reader.ReadRecord(fields).Should().BeTrue();
        reader.RecordLine.Should().Be(4);
        fields.Should().Equal("last");
        reader.ReadRecord(fields).Should().BeFalse();
    }

    [Fact]
    public void What_the_rfc_forbids_is_read_leniently()
    {
        var reader = new CsvReader(new StringReader("a\"b,\"q\"tail,\"open\n\nend"));
        var fields = new List<string>();

        reader.ReadRecord(fields).Should().BeTrue();
        fields.Should().Equal("a\"b", "qtail", "open\n\nend");
        reader.ReadRecord(fields).Should().BeFalse();
    }
}
