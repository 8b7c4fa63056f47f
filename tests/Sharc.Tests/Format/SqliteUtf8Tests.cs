using System.Runtime.InteropServices;
using Microsoft.Data.Sqlite;
using Sharc.Format;
using SQLitePCL;

namespace Sharc.Tests.Format;

/// <summary>
/// Text read as a .NET string repairs invalid UTF-8 as SQLite repairs it when it translates to UTF-16 — checked
/// against SQLite itself: the bytes bound as UTF-8 text and cast to a BLOB in a UTF-16 database come back as the
/// UTF-16 SQLite made of them.
/// </summary>
public sealed class SqliteUtf8Tests : IDisposable
{
    private readonly SqliteConnection _sqlite;
    private readonly sqlite3_stmt _stmt;

    public SqliteUtf8Tests()
    {
        _sqlite = new SqliteConnection("Data Source=:memory:");
        _sqlite.Open();
        using (var c = _sqlite.CreateCommand())
        {
            c.CommandText = "PRAGMA encoding='UTF-16le'; CREATE TABLE t(x);";
            c.ExecuteNonQuery();
        }
        raw.sqlite3_prepare_v2(_sqlite.Handle, "SELECT CAST(?1 AS BLOB)", out _stmt).Should().Be(raw.SQLITE_OK);
    }

    private string SqliteUtf16(byte[] utf8)
    {
        raw.sqlite3_reset(_stmt);
        raw.sqlite3_bind_text(_stmt, 1, utf8).Should().Be(raw.SQLITE_OK);
        raw.sqlite3_step(_stmt).Should().Be(raw.SQLITE_ROW);
        var bytes = raw.sqlite3_column_blob(_stmt, 0);
        return new string(MemoryMarshal.Cast<byte, char>(bytes));
    }

    public static TheoryData<string> HandPicked() => new()
    {
        "61ff62", "c0af", "e282", "e282ac", "80", "bf41", "f09f9880", "f09f98", "eda080", "efbfbe", "efbfbf",
        "f4908080", "f7bfbfbf", "fbbfbfbfbf", "fdbfbfbfbfbf", "fe", "ff80808080808080", "c3", "c3a9c3", "00ff00", "",
    };

    [Theory]
    [MemberData(nameof(HandPicked))]
    public void Invalid_sequences_become_what_sqlite_makes_of_them(string hex)
    {
        byte[] utf8 = Convert.FromHexString(hex);
        SqliteUtf8.GetString(utf8).Should().Be(SqliteUtf16(utf8), hex);
    }

    [Fact]
    public void Random_bytes_decode_as_sqlite_decodes_them()
    {
        var rng = new Random(20261127);
        byte[] alphabet = [0x00, 0x41, 0x7F, 0x80, 0x9F, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE2, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xF8, 0xFC, 0xFE, 0xFF];
        for (int n = 0; n < 3000; n++)
        {
            var utf8 = new byte[rng.Next(0, 12)];
            for (int i = 0; i < utf8.Length; i++) utf8[i] = rng.Next(3) == 0 ? (byte)rng.Next(256) : alphabet[rng.Next(alphabet.Length)];
            SqliteUtf8.GetString(utf8).Should().Be(SqliteUtf16(utf8), Convert.ToHexString(utf8));
        }
    }

    [Fact]
    public void A_query_result_and_a_stored_value_read_with_sqlites_repair()
    {
        string path = Path.Combine(Path.GetTempPath(), $"sharc-utf8-{Guid.NewGuid():N}.db");
        try
        {
            using var db = SharcDatabase.Create(path);
            db.Execute("CREATE TABLE t(x TEXT)");
            db.Execute("INSERT INTO t VALUES(CAST(x'61c0af62' AS TEXT))");
            using (var q = db.Query("SELECT x, CAST(x'e2' AS TEXT) || CAST(x'82ac' AS TEXT) FROM t"))
            {
                q.Read().Should().BeTrue();
                q.GetString(0).Should().Be("a\uFFFDb");
                q.GetString(1).Should().Be("€", "concatenation joins the bytes before any repair");
            }
            using var r = db.CreateReader("t");
            r.Read().Should().BeTrue();
            r.GetValue(0).Should().Be(SqliteUtf16([0x61, 0xC0, 0xAF, 0x62]));
        }
        finally
        {
            SqliteConnection.ClearAllPools();
            File.Delete(path);
        }
    }

    public void Dispose()
    {
        raw.sqlite3_finalize(_stmt);
        _sqlite.Dispose();
    }
}
