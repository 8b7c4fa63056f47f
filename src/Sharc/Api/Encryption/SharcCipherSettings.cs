namespace Sharc;

/// <summary>The hash behind a cipher's page HMAC and its key derivation (SQLCipher's cipher_hmac_algorithm / cipher_kdf_algorithm).</summary>
public enum SharcCipherHash
{
    /// <summary>HMAC-SHA1 / PBKDF2-HMAC-SHA1 (SQLCipher 1 to 3).</summary>
    Sha1 = 1,
    /// <summary>HMAC-SHA256 / PBKDF2-HMAC-SHA256.</summary>
    Sha256 = 2,
    /// <summary>HMAC-SHA512 / PBKDF2-HMAC-SHA512 (SQLCipher 4's default).</summary>
    Sha512 = 3,
}

/// <summary>
/// How pages of an encrypted database are laid out and keyed, in SQLCipher's terms. <see cref="SqlCipher4"/> (the
/// default) and <see cref="SqlCipher3"/> match SQLCipher's <c>cipher_compatibility</c> 4 and 3; other values match the
/// corresponding <c>PRAGMA cipher_*</c> settings. The settings are not stored in the file: whoever opens it must use
/// the same ones.
/// </summary>
public sealed partial class SharcCipherSettings
{
    /// <summary>SQLCipher 4's defaults: 4096-byte pages, PBKDF2-HMAC-SHA512 with 256,000 iterations, HMAC-SHA512.</summary>
    public static SharcCipherSettings SqlCipher4 { get; } = new();

    /// <summary>SQLCipher 3's defaults: 1024-byte pages, PBKDF2-HMAC-SHA1 with 64,000 iterations, HMAC-SHA1.</summary>
    public static SharcCipherSettings SqlCipher3 { get; } = new()
    {
        PageSize = 1024, KdfIterations = 64000, HmacHash = SharcCipherHash.Sha1, KdfHash = SharcCipherHash.Sha1,
    };

    /// <summary>Page size in bytes (cipher_page_size): a power of two from 512 to 65536. Default 4096.</summary>
    public int PageSize { get; init; } = 4096;

    /// <summary>PBKDF2 iterations that turn a passphrase into the key (kdf_iter). Default 256,000. Raw keys skip it.</summary>
    public int KdfIterations { get; init; } = 256000;

    /// <summary>The page HMAC (cipher_hmac_algorithm). Default SHA-512.</summary>
    public SharcCipherHash HmacHash { get; init; } = SharcCipherHash.Sha512;

    /// <summary>The PBKDF2 hash (cipher_kdf_algorithm). Default SHA-512.</summary>
    public SharcCipherHash KdfHash { get; init; } = SharcCipherHash.Sha512;

    /// <summary>
    /// Bytes at the start of the file left unencrypted (cipher_plaintext_header_size): 0 (default) stores the salt in
    /// the first 16 bytes; 32 keeps SQLite's header readable (for platforms that inspect it, such as iOS shared
    /// containers), in which case the salt is not in the file and must be given by <see cref="Salt"/> or a 96-digit raw
    /// key. A multiple of 16 from 0 to 100.
    /// </summary>
    public int PlaintextHeaderSize { get; init; }

    /// <summary>The 16-byte key-derivation salt (cipher_salt) when it is not read from the file (plaintext header). Default null.</summary>
    public ReadOnlyMemory<byte>? Salt { get; init; }

    internal void Validate()
    {
        if (PageSize < 512 || PageSize > 65536 || (PageSize & (PageSize - 1)) != 0)
            throw new ArgumentOutOfRangeException(nameof(PageSize), PageSize, "The cipher page size must be a power of two from 512 to 65536.");
        if (KdfIterations < 1)
            throw new ArgumentOutOfRangeException(nameof(KdfIterations), KdfIterations, "At least one PBKDF2 iteration is needed.");
        if (PlaintextHeaderSize < 0 || PlaintextHeaderSize > 100 || PlaintextHeaderSize % 16 != 0)
            throw new ArgumentOutOfRangeException(nameof(PlaintextHeaderSize), PlaintextHeaderSize, "The plaintext header size must be a multiple of 16 from 0 to 100.");
        if (Salt is { Length: not 16 })
            throw new ArgumentException("The salt must be 16 bytes.", nameof(Salt));
        if (!Enum.IsDefined(HmacHash) || !Enum.IsDefined(KdfHash))
            throw new ArgumentOutOfRangeException(nameof(HmacHash), "Unknown hash algorithm.");
    }
}
