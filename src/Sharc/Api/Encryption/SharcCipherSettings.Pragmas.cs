using System.Globalization;

namespace Sharc;

/// <summary>SQLCipher's per-database <c>PRAGMA cipher_*</c> settings read into and out of <see cref="SharcCipherSettings"/>.</summary>
public sealed partial class SharcCipherSettings
{
    /// <summary>SQLCipher 2's defaults: 1024-byte pages, PBKDF2-HMAC-SHA1 with 4,000 iterations, HMAC-SHA1.</summary>
    public static SharcCipherSettings SqlCipher2 { get; } = new()
    {
        PageSize = 1024, KdfIterations = 4000, HmacHash = SharcCipherHash.Sha1, KdfHash = SharcCipherHash.Sha1,
    };

    /// <summary>
    /// True when <paramref name="name"/> (lower case, no schema) is one of SQLCipher's settings of a database's cipher
    /// that <see cref="WithPragma"/> takes: <c>cipher_page_size</c>, <c>kdf_iter</c>, <c>cipher_hmac_algorithm</c>,
    /// <c>cipher_kdf_algorithm</c>, <c>cipher_compatibility</c>, <c>cipher_plaintext_header_size</c>,
    /// <c>cipher_salt</c>, <c>cipher_use_hmac</c>.
    /// </summary>
    public static bool IsSettingPragma(string name) => name is "cipher_page_size" or "kdf_iter" or "cipher_hmac_algorithm"
        or "cipher_kdf_algorithm" or "cipher_compatibility" or "cipher_plaintext_header_size" or "cipher_salt" or "cipher_use_hmac";

    /// <summary>
    /// A copy with one setting changed as SQLCipher's <c>PRAGMA name = value</c> changes it (see
    /// <see cref="IsSettingPragma"/>): <c>cipher_compatibility</c> 4, 3 or 2 sets page size, iterations and both
    /// hashes to that release's defaults; hashes are named as SQLCipher names them (<c>HMAC_SHA512</c>,
    /// <c>PBKDF2_HMAC_SHA1</c>…, any case); <c>cipher_salt</c> takes <c>x'</c> + 32 hex digits + <c>'</c>.
    /// </summary>
    /// <exception cref="ArgumentException">An unknown setting, a value SQLCipher would not take, or one Sharc does not
    /// support (SQLCipher 1, <c>cipher_use_hmac = OFF</c>); the message names it. SQLCipher ignores most such values
    /// silently and then fails to read the file.</exception>
    public SharcCipherSettings WithPragma(string name, string value)
    {
        ArgumentNullException.ThrowIfNull(name);
        ArgumentNullException.ThrowIfNull(value);
        string v = value.Trim();
        SharcCipherSettings next;
        switch (name.ToLowerInvariant())
        {
            case "cipher_page_size":
                next = Copy(pageSize: Integer(name, v));
                break;
            case "kdf_iter":
                next = Copy(kdfIterations: Integer(name, v));
                break;
            case "cipher_hmac_algorithm":
                next = Copy(hmacHash: Hash(name, v, "HMAC_"));
                break;
            case "cipher_kdf_algorithm":
                next = Copy(kdfHash: Hash(name, v, "PBKDF2_HMAC_"));
                break;
            case "cipher_plaintext_header_size":
                next = Copy(plaintextHeaderSize: Integer(name, v));
                break;
            case "cipher_salt":
                next = Copy(salt: ParseSalt(v));
                break;
            case "cipher_use_hmac":
                if (v is "1" || v.Equals("on", StringComparison.OrdinalIgnoreCase) || v.Equals("true", StringComparison.OrdinalIgnoreCase)
                    || v.Equals("yes", StringComparison.OrdinalIgnoreCase)) return this;
                throw new ArgumentException("cipher_use_hmac = OFF is not supported: Sharc authenticates every page (SQLCipher 1 files and unauthenticated pages cannot be opened)", nameof(value));
            case "cipher_compatibility":
                var release = Integer(name, v) switch
                {
                    4 => SqlCipher4,
                    3 => SqlCipher3,
                    2 => SqlCipher2,
                    1 => throw new ArgumentException("cipher_compatibility = 1 is not supported: SQLCipher 1 pages carry no HMAC", nameof(value)),
                    var n => throw new ArgumentException($"cipher_compatibility = {n}: SQLCipher releases 2 to 4 are known", nameof(value)),
                };
                // As in SQLCipher: the release's page size, iterations and hashes; the header and salt stay.
                next = Copy(release.PageSize, release.KdfIterations, release.HmacHash, release.KdfHash);
                break;
            default:
                throw new ArgumentException($"{name} is not a cipher setting of a database", nameof(name));
        }
        try
        {
            next.Validate();
        }
        catch (ArgumentException e)
        {
            throw new ArgumentException($"{name} = {value}: {e.Message}", nameof(value), e);
        }
        return next;
    }

    /// <summary>
    /// The settings as SQLCipher's <c>PRAGMA cipher_settings</c> lists them, one statement a line in its order
    /// (<c>PRAGMA kdf_iter = 256000;</c>, <c>cipher_page_size</c>, <c>cipher_use_hmac</c>,
    /// <c>cipher_plaintext_header_size</c>, <c>cipher_hmac_algorithm</c>, <c>cipher_kdf_algorithm</c>).
    /// </summary>
    public IReadOnlyList<string> ToPragmas() =>
    [
        $"PRAGMA kdf_iter = {KdfIterations.ToString(CultureInfo.InvariantCulture)};",
        $"PRAGMA cipher_page_size = {PageSize.ToString(CultureInfo.InvariantCulture)};",
        "PRAGMA cipher_use_hmac = 1;",
        $"PRAGMA cipher_plaintext_header_size = {PlaintextHeaderSize.ToString(CultureInfo.InvariantCulture)};",
        $"PRAGMA cipher_hmac_algorithm = {HashName(HmacHash, "HMAC_")};",
        $"PRAGMA cipher_kdf_algorithm = {HashName(KdfHash, "PBKDF2_HMAC_")};",
    ];

    /// <summary>How SQLCipher names a hash in its pragmas, with <paramref name="prefix"/> (HMAC_ or PBKDF2_HMAC_).</summary>
    internal static string HashName(SharcCipherHash hash, string prefix) => prefix + hash switch
    {
        SharcCipherHash.Sha1 => "SHA1",
        SharcCipherHash.Sha256 => "SHA256",
        _ => "SHA512",
    };

    private SharcCipherSettings Copy(int? pageSize = null, int? kdfIterations = null, SharcCipherHash? hmacHash = null,
        SharcCipherHash? kdfHash = null, int? plaintextHeaderSize = null, ReadOnlyMemory<byte>? salt = null) => new()
    {
        PageSize = pageSize ?? PageSize,
        KdfIterations = kdfIterations ?? KdfIterations,
        HmacHash = hmacHash ?? HmacHash,
        KdfHash = kdfHash ?? KdfHash,
        PlaintextHeaderSize = plaintextHeaderSize ?? PlaintextHeaderSize,
        Salt = salt ?? Salt,
    };

    private static int Integer(string name, string v)
        => int.TryParse(v, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out int n)
            ? n
            : throw new ArgumentException($"{name} takes an integer, not '{v}'", nameof(v));

    private static SharcCipherHash Hash(string name, string v, string prefix)
    {
        foreach (var h in (ReadOnlySpan<SharcCipherHash>)[SharcCipherHash.Sha1, SharcCipherHash.Sha256, SharcCipherHash.Sha512])
            if (v.Equals(HashName(h, prefix), StringComparison.OrdinalIgnoreCase)) return h;
        throw new ArgumentException($"{name} takes {HashName(SharcCipherHash.Sha1, prefix)}, {HashName(SharcCipherHash.Sha256, prefix)} or {HashName(SharcCipherHash.Sha512, prefix)}, not '{v}'", nameof(v));
    }

    private static ReadOnlyMemory<byte> ParseSalt(string v)
    {
        if (v.Length == 35 && (v[0] is 'x' or 'X') && v[1] == '\'' && v[^1] == '\'')
        {
            try
            {
                return Convert.FromHexString(v.AsSpan(2, 32));
            }
            catch (FormatException)
            {
            }
        }
        throw new ArgumentException($"cipher_salt takes x'' and 32 hex digits (16 bytes), not '{v}'", nameof(v));
    }
}
