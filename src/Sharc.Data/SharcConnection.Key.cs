using System.Text.RegularExpressions;

namespace Sharc.Data;

/// <summary>
/// SQLCipher's way of keying a connection opened without a Password: <c>PRAGMA key = '…'</c> as its first statement.
/// An encrypted file (or a new one) is therefore not opened by <see cref="Open"/> but by the first command, with
/// the key that command's first statement gives, or without a key when it gives none.
/// </summary>
public sealed partial class SharcConnection
{
    private static ReadOnlySpan<byte> SqliteMagic => "SQLite format 3\0"u8;

    /// <summary>The fewest reserved bytes a SQLCipher page has (IV and HMAC-SHA1, rounded to AES blocks).</summary>
    private const int MinCipherReserve = 48;

    /// <summary>True while the file waits for the first statement (which may key it).</summary>
    private bool _keyPending;

    /// <summary>
    /// A new file (created by the first command), one whose first bytes are not SQLite's (a salt, so encrypted), or one
    /// with a plaintext header (SQLite's first bytes, then a cipher's reserved bytes on every page).
    /// </summary>
    private bool KeyMayFollow()
    {
        var mode = _settings.Mode;
        string path = _settings.DataSource;
        if (mode == SharcOpenMode.Memory || path.Length == 0 || path == ":memory:") return false;
        if (!File.Exists(path)) return mode == SharcOpenMode.ReadWriteCreate;
        Span<byte> start = stackalloc byte[21];
        using var file = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        int n = RandomAccess.Read(file, start, 0);
        if (n < 16) return false;
        // SQLCipher's plaintext header keeps SQLite's first bytes, with room for the IV and HMAC reserved on every page.
        return !start[..16].SequenceEqual(SqliteMagic) || (n == start.Length && start[20] >= MinCipherReserve);
    }

    /// <summary>The cipher settings given by cipher_* pragmas before the file opened, or null for SQLCipher 4's.</summary>
    private SharcCipherSettings? _cipher;

    /// <summary>What a statement answered without the file gives: no column and no row (a cipher setting on no key).</summary>
    private const string NoAnswer = "PRAGMA cipher_page_size = 4096";

    /// <summary>
    /// Before a command runs on a connection whose file waits for its key: the leading <c>PRAGMA [main.]key = …</c>
    /// and cipher settings (<c>cipher_compatibility</c>, <c>cipher_page_size</c>, <c>kdf_iter</c>, the hashes, the
    /// plaintext header and salt, and their <c>cipher_default_*</c> forms) are taken for the open, as SQLCipher takes
    /// them between the key and the first read. When the command holds nothing else, the file stays unopened and the
    /// returned text answers it (one row <c>ok</c> per key, nothing per setting); otherwise null, and the file opens
    /// with them at the command's first statement that needs it.
    /// </summary>
    /// <exception cref="SharcSqlException">A cipher setting with a value SQLCipher would not take, or Sharc cannot use.</exception>
    internal string? KeyFrom(string? commandText)
    {
        if (!_keyPending || _db is not null || string.IsNullOrWhiteSpace(commandText)) return null;
        var statements = SharcDatabase.SplitStatements(commandText);
        var answers = new List<string>(statements.Count);
        foreach (var statement in statements)
        {
            if (CipherPragma().Match(statement) is not { Success: true } m) break;
            string name = m.Groups["n"].Value.ToLowerInvariant();
            string value = Unquote(m.Groups["v"].Value);
            if (name == "key")
            {
                // An empty key opens nothing: the database gives SQLCipher's error for the statement.
                if (value.Length == 0) break;
                _key?.Dispose();
                _key = SharcEncryptionKey.Parse(value);
                answers.Add("SELECT 'ok' AS ok");
                continue;
            }
            string setting = name.StartsWith("cipher_default_", StringComparison.Ordinal)
                ? (name == "cipher_default_kdf_iter" ? "kdf_iter" : "cipher_" + name["cipher_default_".Length..])
                : name;
            if (!SharcCipherSettings.IsSettingPragma(setting)) break;
            try
            {
                _cipher = (_cipher ?? SharcCipherSettings.SqlCipher4).WithPragma(setting, value);
            }
            catch (ArgumentException e)
            {
                throw new SharcSqlException(e.Message.Split(" (Parameter")[0], statement, 0);
            }
            answers.Add(NoAnswer);
        }
        return answers.Count == statements.Count ? string.Join(";\n", answers) : null;
    }

    /// <summary>
    /// Answers the statements of a command run before the file is opened (see <see cref="KeyFrom"/>): an empty
    /// database image, read-only, which no file backs.
    /// </summary>
    internal SharcDatabase Unopened => _unopened ??= SharcDatabase.OpenMemory(EmptyImage());

    private SharcDatabase? _unopened;

    private static byte[] EmptyImage()
    {
        var image = new byte[512];
        SqliteMagic.CopyTo(image);
        image[16] = 2; // page size 512, big-endian
        image[18] = image[19] = 1;
        image[21] = 64;
        image[22] = image[23] = 32;
        image[27] = 1; // change counter
        image[31] = 1; // page count
        image[47] = 4; // schema format
        image[59] = 1; // UTF-8
        image[95] = 1; // version-valid-for
        image[100] = 0x0d; // an empty table leaf: the schema
        image[105] = 2; // cell content from the end of the page (512)
        return image;
    }

    /// <summary>A string, a quoted identifier (SQLCipher takes "x'hex'" this way) or a bare word, as PRAGMA reads its value.</summary>
    private static string Unquote(string v)
    {
        if (v.Length >= 2 && (v[0], v[^1]) is ('\'', '\'') or ('"', '"') or ('`', '`'))
            return v[1..^1].Replace(new string(v[0], 2), v[0].ToString(), StringComparison.Ordinal);
        if (v.Length >= 2 && v[0] == '[' && v[^1] == ']') return v[1..^1];
        return v;
    }

    [GeneratedRegex("""^\s*PRAGMA\s+(?:(?:main|"main"|\[main\]|`main`)\s*\.\s*)?(?<n>key|kdf_iter|cipher_[a-z_]+)\s*(?:=\s*(?<v>'(?:[^']|'')*'|"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\]|[^\s;()]+)|\(\s*(?<v>'(?:[^']|'')*'|"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\]|[^\s;()]+)\s*\))\s*;?\s*$""", RegexOptions.IgnoreCase | RegexOptions.Singleline | RegexOptions.CultureInvariant)]
    private static partial Regex CipherPragma();
}
