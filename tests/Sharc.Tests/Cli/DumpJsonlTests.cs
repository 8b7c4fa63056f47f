using Microsoft.Data.Sqlite;

namespace Sharc.Tests.Cli;

public sealed class DumpJsonlTests : IDisposable
{
    private readonly CliFixture _fx = new();

    public void Dispose() => _fx.Dispose();

    private string MixedValuesDb()
    {
        string path = _fx.PathOf("mixed.db");
        using var c = CliFixture.Connect(path);
        // No declared type: every value is stored exactly as given.
        CliFixture.Exec(c, "CREATE TABLE v(id INTEGER PRIMARY KEY, x)");
        object?[] values =
        [
            null,
            0L,
            9223372036854775807L,
            -9223372036854775807L,
            long.MinValue,
            1.0,
            0.1,
            1e300,
            -2.5e-10,
            "a\"b\\c/d",
            "line\nbreak\ttab\r\u0001\u001f",
            "héllo wörld €, 日本語, 😀",
            "",
            new byte[] { 0x00, 0xff, 0x10, 0xab },
            Array.Empty<byte>(),
        ];
        for (int i = 0; i < values.Length; i++)
            CliFixture.Exec(c, "INSERT INTO v(id, x) VALUES ($p0, $p1)", i + 1, values[i]);
        return path;
    }

    [Fact]
    public void Every_storage_class_is_written_in_its_documented_json_form()
    {
        string db = MixedValuesDb();

        var result = CliFixture.Run("dump", db, "v");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stderr.Should().BeEmpty();
        result.Stdout.Should().Be(CliFixture.Text("\n",
            "[1,null]",
            "[2,0]",
            "[3,9223372036854775807]",
            "[4,-9223372036854775807]",
            "[5,-9223372036854775808]",
            "[6,1.0]",
            "[7,0.1]",
            "[8,1e+300]",
            "[9,-2.5e-10]",
            "[10,\"a\\\"b\\\\c/d\"]",
            "[11,\"line\\u000abreak\\u0009tab\\u000d\\u0001\\u001f\"]",
            "[12,\"héllo wörld €, 日本語, 😀\"]",
            "[13,\"\"]",
            "[14,{\"blob\":\"00ff10ab\"}]",
            "[15,{\"blob\":\"\"}]"));
    }

    [Fact]
    public void Jsonl_is_the_default_format_and_equals_explicit_jsonl()
    {
        string db = MixedValuesDb();

        var implicitFormat = CliFixture.Run("dump", db, "v");
        var explicitFormat = CliFixture.Run("dump", "--format", "jsonl", db, "v");

        explicitFormat.ExitCode.Should().Be(0);
        explicitFormat.Stdout.Should().Be(implicitFormat.Stdout);
    }

    [Fact]
    public void Jsonl_values_read_back_equal_to_what_sqlite_returns()
    {
        string db = MixedValuesDb();

        var result = CliFixture.Run("dump", db, "v");

        CliFixture.ShouldMatch(CliFixture.ParseJsonl(result.Stdout), CliFixture.Query(db, "SELECT * FROM v ORDER BY rowid"));
    }

    [Fact]
    public void Infinite_reals_are_written_as_out_of_range_json_numbers()
    {
        string db = _fx.CreateDb("inf.db",
            "CREATE TABLE t(x REAL)",
            "INSERT INTO t VALUES (9e999), (-9e999), (1.7976931348623157e308)");

        var result = CliFixture.Run("dump", db, "t");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be("[1e999]\n[-1e999]\n[1.7976931348623157e+308]\n");
    }

    [Fact]
    public void Whole_numbers_in_a_real_column_stay_reals()
    {
        // SQLite stores 3.0 in a REAL column as the integer 3 on disk, and reads it back as the real 3.0.
        string db = _fx.CreateDb("realcol.db",
            "CREATE TABLE t(x REAL)",
            "INSERT INTO t VALUES (3.0), (-0.5), (1e15), (100000000000000.0)");

        var result = CliFixture.Run("dump", db, "t");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be("[3.0]\n[-0.5]\n[1e+15]\n[100000000000000.0]\n");
        CliFixture.ShouldMatch(CliFixture.ParseJsonl(result.Stdout), CliFixture.Query(db, "SELECT * FROM t ORDER BY rowid"));
    }

    [Fact]
    public void A_rowid_table_dumps_in_rowid_order_with_the_integer_primary_key_as_the_rowid()
    {
        string db = _fx.CreateDb("ipk.db",
            "CREATE TABLE p(name TEXT, id INTEGER PRIMARY KEY, score REAL)",
            "INSERT INTO p(id, name, score) VALUES (10, 'ten', 1.5)",
            "INSERT INTO p(id, name, score) VALUES (-5, 'minus five', NULL)",
            "INSERT INTO p(id, name, score) VALUES (9223372036854775807, 'max', 2.0)",
            "INSERT INTO p(id, name, score) VALUES (2, NULL, -0.0)");

        var result = CliFixture.Run("dump", db, "p");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be(CliFixture.Text("\n",
            "[\"minus five\",-5,null]",
            "[null,2,0.0]",
            "[\"ten\",10,1.5]",
            "[\"max\",9223372036854775807,2.0]"));
        CliFixture.ShouldMatch(CliFixture.ParseJsonl(result.Stdout), CliFixture.Query(db, "SELECT * FROM p ORDER BY rowid"));
    }

    [Fact]
    public void A_without_rowid_table_dumps_in_primary_key_order_with_columns_in_declared_order()
    {
        string db = _fx.CreateDb("wr.db",
            "CREATE TABLE w(note TEXT, k2 INTEGER, k1 TEXT, PRIMARY KEY (k1, k2)) WITHOUT ROWID",
            "INSERT INTO w VALUES ('c', 2, 'b')",
            "INSERT INTO w VALUES ('a', 1, 'b')",
            "INSERT INTO w VALUES ('d', 7, 'a')",
            "INSERT INTO w VALUES (NULL, -3, 'c')");

        var result = CliFixture.Run("dump", db, "w");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be(CliFixture.Text("\n",
            "[\"d\",7,\"a\"]",
            "[\"a\",1,\"b\"]",
            "[\"c\",2,\"b\"]",
            "[null,-3,\"c\"]"));
        CliFixture.ShouldMatch(CliFixture.ParseJsonl(result.Stdout), CliFixture.Query(db, "SELECT * FROM w ORDER BY k1, k2"));
    }

    [Fact]
    public void An_index_dumps_its_keys_then_the_rowid_in_index_order()
    {
        string db = _fx.CreateDb("idx.db",
            "CREATE TABLE t(a INTEGER, b TEXT)",
            "CREATE INDEX t_b_desc_a ON t(b DESC, a)",
            "INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'x'), (0, NULL), (-1, 'y')");

        var result = CliFixture.Run("dump", db, "t_b_desc_a");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be(CliFixture.Text("\n",
            "[\"y\",-1,5]",
            "[\"y\",2,2]",
            "[\"x\",1,1]",
            "[\"x\",3,3]",
            "[null,0,4]"));
        CliFixture.ShouldMatch(CliFixture.ParseJsonl(result.Stdout),
            CliFixture.Query(db, "SELECT b, a, rowid FROM t ORDER BY b DESC, a, rowid"));
    }

    [Fact]
    public void An_index_on_a_without_rowid_table_ends_with_the_primary_key_columns()
    {
        string db = _fx.CreateDb("widx.db",
            "CREATE TABLE w(k1 TEXT, k2 INTEGER, v REAL, PRIMARY KEY (k1, k2)) WITHOUT ROWID",
            "CREATE INDEX w_v ON w(v)",
            "INSERT INTO w VALUES ('b', 1, 2.5), ('a', 2, 2.5), ('a', 1, -1.0), ('c', 0, NULL)");

        var result = CliFixture.Run("dump", db, "w_v");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be(CliFixture.Text("\n",
            "[null,\"c\",0]",
            "[-1.0,\"a\",1]",
            "[2.5,\"a\",2]",
            "[2.5,\"b\",1]"));
        CliFixture.ShouldMatch(CliFixture.ParseJsonl(result.Stdout), CliFixture.Query(db, "SELECT v, k1, k2 FROM w ORDER BY v, k1, k2"));
    }

    [Fact]
    public void A_large_random_table_with_overflow_pages_matches_sqlite_value_for_value()
    {
        string path = _fx.PathOf("random.db");
        var rng = new Random(20240611);
        using (var c = CliFixture.Connect(path))
        {
            CliFixture.Exec(c, "CREATE TABLE r(id INTEGER PRIMARY KEY, a, b TEXT, c REAL, d BLOB)");
            CliFixture.Exec(c, "CREATE INDEX r_a ON r(a)");
            using var tx = c.BeginTransaction();
            for (int i = 0; i < 600; i++)
                CliFixture.Exec(c, "INSERT INTO r(a, b, c, d) VALUES ($p0, $p1, $p2, $p3)",
                    RandomValue(rng), RandomText(rng, rng.Next(0, i % 50 == 0 ? 3000 : 40)), RandomReal(rng),
                    rng.Next(8) == 0 ? null : RandomBytes(rng, rng.Next(0, i % 97 == 0 ? 9000 : 30)));
            tx.Commit();
        }

        var table = CliFixture.Run("dump", path, "r");
        var index = CliFixture.Run("dump", path, "r_a");

        table.ExitCode.Should().Be(0, table.Stderr);
        index.ExitCode.Should().Be(0, index.Stderr);
        CliFixture.ShouldMatch(CliFixture.ParseJsonl(table.Stdout), CliFixture.Query(path, "SELECT * FROM r ORDER BY rowid"));
        CliFixture.ShouldMatch(CliFixture.ParseJsonl(index.Stdout), CliFixture.Query(path, "SELECT a, rowid FROM r ORDER BY a, rowid"));
    }

    [Fact]
    public void Text_of_a_utf16_database_is_written_as_utf8_json_strings()
    {
        string db = _fx.CreateDb("utf16.db",
            "PRAGMA encoding = 'UTF-16le'",
            "CREATE TABLE t(s TEXT)",
            "INSERT INTO t VALUES ('ascii'), ('Grüße'), ('日本'), ('😀 \"q\"')");

        var result = CliFixture.Run("dump", db, "t");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be("[\"ascii\"]\n[\"Grüße\"]\n[\"日本\"]\n[\"😀 \\\"q\\\"\"]\n");
    }

    [Fact]
    public void Virtual_generated_columns_are_left_out_with_a_note_and_stored_ones_are_kept()
    {
        string db = _fx.CreateDb("gen.db",
            "CREATE TABLE g(a INTEGER, twice INTEGER GENERATED ALWAYS AS (a * 2) VIRTUAL, plus1 INTEGER GENERATED ALWAYS AS (a + 1) STORED, c TEXT)",
            "INSERT INTO g(a, c) VALUES (5, 'five')");

        var result = CliFixture.Run("dump", db, "g");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be("[5,6,\"five\"]\n");
        result.Stderr.Should().Be("sharc: note: g: leaving out VIRTUAL generated column(s) twice: computing them needs a SQL engine\n");
    }

    [Fact]
    public void Columns_added_later_read_their_integer_default_as_an_integer()
    {
        string db = _fx.CreateDb("defaults.db",
            "CREATE TABLE t(a)",
            "INSERT INTO t VALUES (1)",
            "ALTER TABLE t ADD COLUMN b DEFAULT 3",
            "ALTER TABLE t ADD COLUMN c DEFAULT (-3)",
            "ALTER TABLE t ADD COLUMN d TEXT DEFAULT 3",
            "ALTER TABLE t ADD COLUMN e REAL DEFAULT 3",
            "ALTER TABLE t ADD COLUMN f DEFAULT 'x'");

        var result = CliFixture.Run("dump", db, "t");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be("[1,3,-3,\"3\",3.0,\"x\"]\n");
        CliFixture.ShouldMatch(CliFixture.ParseJsonl(result.Stdout), CliFixture.Query(db, "SELECT * FROM t ORDER BY rowid"));
    }

    [Fact]
    public void Columns_added_later_read_their_text_and_real_defaults()
    {
        string db = _fx.CreateDb("defaults2.db",
            "CREATE TABLE t(a)",
            "INSERT INTO t VALUES (1)",
            "ALTER TABLE t ADD COLUMN b TEXT DEFAULT 'dflt'",
            "ALTER TABLE t ADD COLUMN c REAL DEFAULT 2.5",
            "ALTER TABLE t ADD COLUMN d BLOB DEFAULT x'ab01'",
            "INSERT INTO t VALUES (2, 'own', -1.5, NULL)");

        var result = CliFixture.Run("dump", db, "t");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be("[1,\"dflt\",2.5,{\"blob\":\"ab01\"}]\n[2,\"own\",-1.5,null]\n");
        CliFixture.ShouldMatch(CliFixture.ParseJsonl(result.Stdout), CliFixture.Query(db, "SELECT * FROM t ORDER BY rowid"));
    }

    [Fact]
    public void An_empty_table_writes_nothing()
    {
        string db = _fx.CreateDb("empty.db", "CREATE TABLE e(x)");

        var result = CliFixture.Run("dump", db, "e");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().BeEmpty();
    }

    [Fact]
    public void Table_names_are_matched_case_insensitively()
    {
        string db = _fx.CreateDb("case.db", "CREATE TABLE MixedCase(x)", "INSERT INTO MixedCase VALUES (1)");

        var result = CliFixture.Run("dump", db, "mixedcase");

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stdout.Should().Be("[1]\n");
    }

    private static object? RandomValue(Random rng) => rng.Next(6) switch
    {
        0 => null,
        1 => (long)rng.Next(-1000, 1000),
        2 => rng.NextInt64(long.MinValue, long.MaxValue),
        3 => RandomReal(rng),
        4 => RandomText(rng, rng.Next(0, 20)),
        _ => RandomBytes(rng, rng.Next(0, 20)),
    };

    private static double RandomReal(Random rng)
    {
        while (true)
        {
            double d = rng.Next(3) switch
            {
                0 => BitConverter.Int64BitsToDouble(rng.NextInt64()),
                1 => Math.Round(rng.NextDouble() * 1000, 2),
                _ => rng.Next(-100, 100),
            };
            if (double.IsFinite(d)) return d;
        }
    }

    private static string RandomText(Random rng, int length)
    {
        const string alphabet = "abcXYZ 019,\"\\\n\t\u0001\u007féü€日本😀";
        var sb = new System.Text.StringBuilder();
        var runes = alphabet.EnumerateRunes().ToArray();
        for (int i = 0; i < length; i++) sb.Append(runes[rng.Next(runes.Length)].ToString());
        return sb.ToString();
    }

    private static byte[] RandomBytes(Random rng, int length)
    {
        var b = new byte[length];
        rng.NextBytes(b);
        return b;
    }
}
