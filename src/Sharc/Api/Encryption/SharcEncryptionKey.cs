using System.Security.Cryptography;
using System.Text;

namespace Sharc;

/// <summary>
/// The key of an encrypted database: a passphrase (stretched with PBKDF2 and the file's salt once per open) or a raw
/// 256-bit key (used as is), optionally with its 16-byte salt. The material is held in a pinned buffer and zeroed by
/// <see cref="Dispose"/>; a passphrase given as a <see cref="string"/> also lives in that string, which .NET cannot
/// wipe — use <see cref="FromPassphrase(ReadOnlySpan{byte})"/> to avoid that.
/// </summary>
public sealed class SharcEncryptionKey : IDisposable
{
    private readonly byte[] _material;
    private readonly byte[]? _salt;
    private bool _disposed;

    private SharcEncryptionKey(ReadOnlySpan<byte> material, bool raw, ReadOnlySpan<byte> salt)
    {
        _material = GC.AllocateArray<byte>(material.Length, pinned: true);
        material.CopyTo(_material);
        IsRaw = raw;
        if (!salt.IsEmpty)
        {
            _salt = GC.AllocateArray<byte>(16, pinned: true);
            salt.CopyTo(_salt);
        }
    }

    /// <summary>True for a raw key (no key derivation).</summary>
    public bool IsRaw { get; }

    /// <summary>A passphrase, as SQLCipher's <c>PRAGMA key = 'passphrase'</c> (its UTF-8 bytes are the PBKDF2 password).</summary>
    public static SharcEncryptionKey FromPassphrase(string passphrase)
    {
        ArgumentException.ThrowIfNullOrEmpty(passphrase);
        byte[] bytes = Encoding.UTF8.GetBytes(passphrase);
        try
        {
            return new SharcEncryptionKey(bytes, false, default);
        }
        finally
        {
            CryptographicOperations.ZeroMemory(bytes);
        }
    }

    /// <summary>A passphrase given as bytes (the PBKDF2 password as is).</summary>
    public static SharcEncryptionKey FromPassphrase(ReadOnlySpan<byte> passphrase)
    {
        if (passphrase.IsEmpty) throw new ArgumentException("The passphrase is empty.", nameof(passphrase));
        return new SharcEncryptionKey(passphrase, false, default);
    }

    /// <summary>
    /// A raw 32-byte key, as SQLCipher's <c>PRAGMA key = "x'…64 hex digits…'"</c>; with a 16-byte
    /// <paramref name="salt"/>, as its 96-digit form (the salt is then used instead of the file's).
    /// </summary>
    public static SharcEncryptionKey FromRawKey(ReadOnlySpan<byte> key, ReadOnlySpan<byte> salt = default)
    {
        if (key.Length != 32) throw new ArgumentException("A raw key is 32 bytes (AES-256).", nameof(key));
        if (!salt.IsEmpty && salt.Length != 16) throw new ArgumentException("A salt is 16 bytes.", nameof(salt));
        return new SharcEncryptionKey(key, true, salt);
    }

    /// <summary>
    /// What SQLCipher makes of a key string: <c>x'</c> followed by 64 hex digits (a raw key) or 96 (a raw key and its
    /// salt) and <c>'</c> is a raw key; anything else is a passphrase.
    /// </summary>
    public static SharcEncryptionKey Parse(string key)
    {
        ArgumentException.ThrowIfNullOrEmpty(key);
        if (key.Length is 67 or 99 && (key[0] is 'x' or 'X') && key[1] == '\'' && key[^1] == '\'' && IsHex(key.AsSpan(2, key.Length - 3)))
        {
            byte[] bytes = Convert.FromHexString(key.AsSpan(2, key.Length - 3));
            try
            {
                return new SharcEncryptionKey(bytes.AsSpan(0, 32), true, bytes.Length == 48 ? bytes.AsSpan(32, 16) : default);
            }
            finally
            {
                CryptographicOperations.ZeroMemory(bytes);
            }
        }
        return FromPassphrase(key);
    }

    private static bool IsHex(ReadOnlySpan<char> s)
    {
        foreach (char c in s)
            if (!char.IsAsciiHexDigit(c)) return false;
        return true;
    }

    internal ReadOnlySpan<byte> Material
    {
        get
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            return _material;
        }
    }

    /// <summary>The salt a 96-digit raw key carries, or empty.</summary>
    internal ReadOnlySpan<byte> Salt => _salt;

    /// <summary>A copy in pinned memory of its own (a database keeps one for ATTACH without KEY), zeroed by its own dispose.</summary>
    internal SharcEncryptionKey Clone() => new(Material, IsRaw, _salt);

    /// <summary>Zeroes the key material.</summary>
    public void Dispose()
    {
        _disposed = true;
        CryptographicOperations.ZeroMemory(_material);
        if (_salt is not null) CryptographicOperations.ZeroMemory(_salt);
    }
}
