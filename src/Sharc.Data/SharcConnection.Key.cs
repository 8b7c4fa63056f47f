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

    /// <summary>True while the file waits for the first statement (which may key it).</summary>
    private bool _keyPending;

    /// <summary>A new file (created by the first command), or one whose first bytes are not SQLite's: a salt, so encrypted.</summary>
    private bool KeyMayFollow()
    {
        var mode = _settings.Mode;
        string path = _settings.DataSource;
        if (mode == SharcOpenMode.Memory || path.Length == 0 || path == ":memory:") return false;
        if (!File.Exists(path)) return mode == SharcOpenMode.ReadWriteCreate;
        Span<byte> start = stackalloc byte[16];
        using var file = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        int n = RandomAccess.Read(file, start, 0);
        return n == start.Length && !start.SequenceEqual(SqliteMagic);
    }

    /// <summary>
    /// Before a command's first statement runs on a connection that waits for its key: when the statement is
    /// <c>PRAGMA [main.]key = …</c>, the file is opened with that key (then the statement itself answers "ok").
    /// </summary>
    internal void KeyFrom(string? commandText)
    {
        if (!_keyPending || _db is not null || string.IsNullOrWhiteSpace(commandText)) return;
        var statements = SharcDatabase.SplitStatements(commandText);
        if (statements.Count == 0 || KeyPragma().Match(statements[0]) is not { Success: true } m) return;
        string value = Unquote(m.Groups["v"].Value);
        // An empty key opens nothing: the file opens without one and the statement gives SQLCipher's error.
        if (value.Length == 0) return;
        _key?.Dispose();
        _key = SharcEncryptionKey.Parse(value);
        OpenFile();
    }

    /// <summary>A string, a quoted identifier (SQLCipher takes "x'hex'" this way) or a bare word, as PRAGMA reads its value.</summary>
    private static string Unquote(string v)
    {
        if (v.Length >= 2 && (v[0], v[^1]) is ('\'', '\'') or ('"', '"') or ('`', '`'))
            return v[1..^1].Replace(new string(v[0], 2), v[0].ToString(), StringComparison.Ordinal);
        if (v.Length >= 2 && v[0] == '[' && v[^1] == ']') return v[1..^1];
        return v;
    }

    [GeneratedRegex("""^\s*PRAGMA\s+(?:(?:main|"main"|\[main\]|`main`)\s*\.\s*)?key\s*(?:=\s*(?<v>'(?:[^']|'')*'|"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\]|[^\s;()]+)|\(\s*(?<v>'(?:[^']|'')*'|"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\]|[^\s;()]+)\s*\))\s*;?\s*$""", RegexOptions.IgnoreCase | RegexOptions.Singleline | RegexOptions.CultureInvariant)]
    private static partial Regex KeyPragma();
}
