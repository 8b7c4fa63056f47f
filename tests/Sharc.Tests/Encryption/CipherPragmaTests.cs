using Sharc.Tests.Infrastructure;
using static Sharc.Tests.Encryption.EncryptionFixtures;

namespace Sharc.Tests.Encryption;

/// <summary>
/// SQLCipher's pragmas through SQL (key, rekey, cipher_version, cipher_integrity_check) and ATTACH … KEY, answered
/// as SQLCipher 4.5.5 answers them: the same columns, rows and messages, on the same files.
/// </summary>
public sealed class CipherPragmaTests : IDisposable
{
    private const string KeyA = "x'2DD29CA851E7B56E4697B0E1F08507293D761A05CE4D1B628663F411A8086D99'";
    private const string KeyB = "x'0F1E2D3C4B5A69788796A5B4C3D2E1F00112233445566778899AABBCCDDEEFF0'";
    private readonly TempDir _dir = new();

    public void Dispose() => _dir.Dispose();

    private static (string[] Columns, List<object?[]> Rows) Sharc(SharcDatabase db, string sql) => Answer(db, sql);

    private static (string[] Columns, List<object?[]> Rows) Cipher(SqlCipher c, string sql)
    {
        var rows = c.Rows(sql);
        return (c.LastColumns, rows);
    }

    private static void ShouldAnswerAlike((string[] Columns, List<object?[]> Rows) sharc, (string[] Columns, List<object?[]> Rows) sqlcipher, string sql)
    {
        sharc.Columns.Should().Equal(sqlcipher.Columns, "the columns of {0}", sql);
        sharc.Rows.ShouldEqual(sqlcipher.Rows, $"the rows of {sql}");
    }

    private string EncryptedBySharc(string name, string key, int rows = 60)
    {
        string path = _dir.File(name);
        using var k = SharcEncryptionKey.Parse(key);
        using var db = SharcDatabase.Create(path, new SharcCreateOptions { Key = k, Cipher = Fast });
        Apply(db, Workload(7, rows));
        return path;
    }

    [NeedsSqlCipherFact]
    public void CipherVersion_IsOneRowInSqlCipherShape()
    {
        string path = EncryptedBySharc("version.db", KeyA);
        using var k = SharcEncryptionKey.Parse(KeyA);
        using var db = SharcDatabase.Open(path, new SharcOpenOptions { Key = k, Cipher = Fast });
        using var c = SqlCipher.Open(path, KeyA, FastPragmas);
        var sharc = Sharc(db, "PRAGMA cipher_version");
        var theirs = Cipher(c, "PRAGMA cipher_version");
        sharc.Columns.Should().Equal(theirs.Columns);
        sharc.Rows.Should().ContainSingle().Which.Should().Equal("4.5.5 sharc");
        ((string)theirs.Rows.Single()[0]!).Should().StartWith("4.5.5 ", "the format version both answer");

        // A plaintext database answers it too, as SQLCipher does on a connection without a key.
        using var plain = SharcDatabase.Create(_dir.File("plain-version.db"));
        Sharc(plain, "PRAGMA cipher_version").Rows.Should().ContainSingle();
    }

    [NeedsSqlCipherFact]
    public void Key_OnAKeyedDatabase_AnswersAsSqlCipher()
    {
        string path = EncryptedBySharc("key.db", KeyA);
        using var k = SharcEncryptionKey.Parse(KeyA);
        using var db = SharcDatabase.Open(path, new SharcOpenOptions { Key = k, Cipher = Fast, Writable = true });
        using var c = SqlCipher.Open(path, KeyA, FastPragmas);
        foreach (var sql in new[] { $"PRAGMA key = \"{KeyA}\"", "PRAGMA key", "PRAGMA rekey", "PRAGMA main.key = 'again'" })
            ShouldAnswerAlike(Sharc(db, sql), Cipher(c, sql), sql);
    }

    [NeedsSqlCipherFact]
    public void KeyOrRekey_Errors_CarrySqlCipherMessage()
    {
        string plainPath = _dir.File("plain.db");
        using (var plain = SharcDatabase.Create(plainPath)) plain.Execute("CREATE TABLE t(x)");
        using var c = SqlCipher.OpenWithoutKey(plainPath);
        string expected = c.Error("PRAGMA rekey = 'z'")!;
        expected.Should().StartWith("An error occurred with PRAGMA key or rekey");
        using (var plain = SharcDatabase.Open(plainPath, new SharcOpenOptions { Writable = true }))
        {
            var rekey = () => plain.Execute("PRAGMA rekey = 'z'");
            rekey.Should().Throw<SharcSqlException>().Which.SqliteMessage.Should().Be(expected);
            c.Error("PRAGMA key = ''").Should().Be(expected);
            var empty = () => plain.Execute("PRAGMA key = ''");
            empty.Should().Throw<SharcSqlException>().Which.SqliteMessage.Should().Be(expected);
            var late = () => plain.Execute("PRAGMA key = 'too late'");
            late.Should().Throw<SharcSqlException>().WithMessage("*opened without a key*");
        }
    }

    [NeedsSqlCipherTheory]
    [InlineData(KeyB)]
    [InlineData("new passphrase")]
    public void Rekey_ThroughSql_IsReadBySqlCipherWithTheNewKey(string newKey)
    {
        string path = EncryptedBySharc("rekey.db", KeyA, rows: 120);
        List<List<object?[]>> expected;
        using (var k = SharcEncryptionKey.Parse(KeyA))
        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Key = k, Cipher = Fast, Writable = true }))
        {
            expected = ReadSharc(db);
            // A raw key goes in double quotes, as SQLCipher's docs write it.
            var answer = Sharc(db, newKey.StartsWith("x'", StringComparison.Ordinal) ? $"PRAGMA rekey = \"{newKey}\"" : $"PRAGMA rekey = '{newKey}'");
            answer.Columns.Should().Equal("ok");
            answer.Rows.Should().ContainSingle().Which.Should().Equal("ok");
            ShouldMatch(ReadSharc(db), expected, "after the rekey, same connection");
        }
        using var c = SqlCipher.Open(path, newKey, FastPragmas);
        c.Scalar("PRAGMA integrity_check").Should().Be("ok");
        c.Rows("PRAGMA cipher_integrity_check").Should().BeEmpty();
        ShouldMatch(ReadSqlCipher(c), expected, "SQLCipher with the new key");
    }

    [NeedsSqlCipherFact]
    public void Rekey_ThroughSql_OfASqlCipherFile_IsReadBySqlCipher()
    {
        string path = _dir.File("theirs.db");
        List<List<object?[]>> expected;
        using (var c = SqlCipher.Open(path, KeyA, FastPragmas))
        {
            foreach (var s in Workload(3, 80)) c.Exec(s);
            expected = ReadSqlCipher(c);
        }
        using (var k = SharcEncryptionKey.Parse(KeyA))
        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Key = k, Cipher = Fast, Writable = true }))
            db.Execute($"PRAGMA rekey = \"{KeyB}\"");
        using var after = SqlCipher.Open(path, KeyB, FastPragmas);
        after.Rows("PRAGMA cipher_integrity_check").Should().BeEmpty();
        ShouldMatch(ReadSqlCipher(after), expected, "SQLCipher after Sharc's rekey");
    }

    [NeedsSqlCipherFact]
    public void CipherIntegrityCheck_ReportsWhatSqlCipherReports()
    {
        string path = EncryptedBySharc("check.db", KeyA, rows: 80);
        using (var k = SharcEncryptionKey.Parse(KeyA))
        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Key = k, Cipher = Fast }))
        using (var c = SqlCipher.Open(path, KeyA, FastPragmas))
        {
            var clean = Sharc(db, "PRAGMA cipher_integrity_check");
            ShouldAnswerAlike(clean, Cipher(c, "PRAGMA cipher_integrity_check"), "a clean file");
            clean.Rows.Should().BeEmpty();
        }
        // Flip a bit in the ciphertext of page 2, in the IV of page 4 and in the HMAC of page 5; add half a page.
        var bytes = File.ReadAllBytes(path).ToList();
        bytes[4096 + 100] ^= 1;
        bytes[3 * 4096 + 4096 - 80 + 3] ^= 0x40;
        bytes[4 * 4096 + 4096 - 10] ^= 0x80;
        bytes.AddRange(new byte[2048]);
        File.WriteAllBytes(path, [.. bytes]);
        using (var k = SharcEncryptionKey.Parse(KeyA))
        using (var db = SharcDatabase.Open(path, new SharcOpenOptions { Key = k, Cipher = Fast }))
        using (var c = SqlCipher.Open(path, KeyA, FastPragmas))
        {
            var ours = Sharc(db, "PRAGMA cipher_integrity_check");
            ShouldAnswerAlike(ours, Cipher(c, "PRAGMA cipher_integrity_check"), "a tampered file");
            ours.Rows.Select(r => r[0]).Should().Contain("HMAC verification failed for page 2").And.Contain("HMAC verification failed for page 4")
                .And.Contain("HMAC verification failed for page 5");
            ((string)ours.Rows[^1][0]!).Should().EndWith("has an invalid size of 2048 bytes");
        }
    }

    [NeedsSqlCipherFact]
    public void CipherIntegrityCheck_OfAPlaintextDatabase_AnswersNothing_AsSqlCipher()
    {
        string path = _dir.File("plain-check.db");
        using (var db = SharcDatabase.Create(path)) db.Execute("CREATE TABLE t(x)");
        using var c = SqlCipher.OpenWithoutKey(path);
        using var plain = SharcDatabase.Open(path);
        ShouldAnswerAlike(Sharc(plain, "PRAGMA cipher_integrity_check"), Cipher(c, "PRAGMA cipher_integrity_check"), "a plaintext file");
    }

    [NeedsSqlCipherFact]
    public void AttachWithKey_ReadsSqlCipherFiles_AndWritesFilesSqlCipherReads()
    {
        string theirs = _dir.File("theirs-attached.db");
        List<List<object?[]>> expected;
        using (var c = SqlCipher.Open(theirs, KeyB, FastPragmas))
        {
            foreach (var s in Workload(4, 50)) c.Exec(s);
            expected = ReadSqlCipher(c);
        }
        string ours = _dir.File("ours-attached.db");
        string plainAttached = _dir.File("plain-attached.db");
        using (var main = SharcDatabase.Create(_dir.File("main.db")))
        {
            main.Execute($"ATTACH '{theirs}' AS theirs KEY \"{KeyB}\"");
            var read = new List<List<object?[]>>();
            foreach (var q in Queries)
            {
                using var r = main.Query(q.Replace("FROM ", "FROM theirs.", StringComparison.Ordinal));
                read.Add(SharcRows.All(r));
            }
            ShouldMatch(read, expected, "an attached SQLCipher file");
            main.Execute($"ATTACH '{ours}' AS ours KEY \"{KeyA}\"");
            main.Execute("CREATE TABLE ours.u(id INTEGER PRIMARY KEY, v TEXT)");
            main.Execute("INSERT INTO ours.u(v) SELECT name FROM theirs.t");
            main.Execute($"ATTACH '{plainAttached}' AS p KEY ''");
            main.Execute("CREATE TABLE p.w(x)");
            main.Execute("INSERT INTO p.w VALUES (42)");
            var wrong = () => main.Execute($"ATTACH '{theirs}' AS again KEY 'wrong key'");
            wrong.Should().Throw<SharcSqlException>().WithMessage("*wrong key*");
        }
        using (var c = SqlCipher.Open(ours, KeyA, FastPragmas))
        {
            c.Scalar("PRAGMA integrity_check").Should().Be("ok");
            c.Rows("PRAGMA cipher_integrity_check").Should().BeEmpty();
            c.Scalar("SELECT count(*) FROM u").Should().Be((long)expected[0].Count);
        }
        File.ReadAllBytes(plainAttached).AsSpan(0, 16).SequenceEqual("SQLite format 3\0"u8).Should().BeTrue("KEY '' attaches a plaintext database");
        Oracle.IntegrityCheck(plainAttached).Should().Be("ok");
    }

    [NeedsSqlCipherFact]
    public void AttachWithoutKey_OnAnEncryptedMain_UsesMainsKey_AsSqlCipher()
    {
        const string passphrase = "main's passphrase";
        string attached = _dir.File("lent-key.db");
        using (var k = SharcEncryptionKey.FromPassphrase(passphrase))
        using (var main = SharcDatabase.Create(_dir.File("keyed-main.db"), new SharcCreateOptions { Key = k, Cipher = Fast }))
        {
            main.Execute($"ATTACH '{attached}' AS lent");
            main.Execute("CREATE TABLE lent.t(x TEXT)");
            main.Execute("INSERT INTO lent.t VALUES ('under the main key')");
        }
        File.ReadAllBytes(attached).AsSpan(0, 16).SequenceEqual("SQLite format 3\0"u8).Should().BeFalse();
        using var c = SqlCipher.Open(attached, passphrase, FastPragmas);
        c.Rows("PRAGMA cipher_integrity_check").Should().BeEmpty();
        c.Scalar("SELECT x FROM t").Should().Be("under the main key");
    }
}
