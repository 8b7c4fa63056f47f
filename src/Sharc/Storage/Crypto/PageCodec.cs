using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.InteropServices;
using System.Security.Cryptography;

namespace Sharc.Storage.Crypto;

/// <summary>
/// SQLCipher's page transform. Each page is AES-256-CBC encrypted up to its reserved tail, which holds a fresh IV
/// and an HMAC over the ciphertext, the IV and the page number (4 bytes, little-endian); the HMAC is checked before
/// anything is decrypted. Page 1 is encrypted from byte 16, whose first 16 bytes are the key-derivation salt in the
/// file and "SQLite format 3\0" in memory (or from <see cref="SharcCipherSettings.PlaintextHeaderSize"/>, kept in
/// clear). Keys are derived once, held in pinned arrays and zeroed on dispose. Safe for concurrent use: each call
/// borrows a worker (its own AES transforms and scratch), so steady-state pages allocate nothing.
/// </summary>
internal sealed class PageCodec : IDisposable
{
    public const int SaltSize = 16;
    private const int IvSize = 16;
    private const int KeySize = 32;
    private const byte HmacSaltMask = 0x3a;

    private readonly byte[] _key = GC.AllocateArray<byte>(KeySize, pinned: true);
    private readonly byte[] _hmacKey = GC.AllocateArray<byte>(KeySize, pinned: true);
    private readonly byte[] _salt = GC.AllocateArray<byte>(SaltSize, pinned: true);
    private readonly SharcCipherHash _hmacHash;
    private readonly int _hmacSize;
    private readonly int _plaintextHeader;
    private readonly Stack<Worker> _workers = new();
    private HmacSha512x8? _batchMac;
    private bool _disposed;

    private PageCodec(SharcCipherSettings settings, ReadOnlySpan<byte> salt)
    {
        Settings = settings;
        PageSize = settings.PageSize;
        _hmacHash = settings.HmacHash;
        _hmacSize = HashSize(settings.HmacHash);
        // IV and HMAC, rounded up to whole AES blocks (80 for SHA-512, 48 for SHA-1), as SQLCipher reserves.
        Reserve = (IvSize + _hmacSize + 15) / 16 * 16;
        _plaintextHeader = settings.PlaintextHeaderSize;
        salt.CopyTo(_salt);
    }

    /// <summary>
    /// A copy of the key the codec was made from: SQLCipher's ATTACH without KEY opens the attached file with the
    /// main database's key (its own salt, so the passphrase itself is needed). Zeroed with the codec.
    /// </summary>
    public SharcEncryptionKey? Key { get; private init; }

    /// <summary>The settings the codec was made with (a rekey keeps them).</summary>
    public SharcCipherSettings Settings { get; }

    /// <summary>Page size in bytes.</summary>
    public int PageSize { get; }

    /// <summary>Reserved bytes at the end of every page (header byte 20).</summary>
    public int Reserve { get; }

    /// <summary>The key-derivation salt (the file's first 16 bytes unless the header is kept in clear).</summary>
    public ReadOnlySpan<byte> Salt => _salt;

    /// <summary>
    /// Derives the keys for <paramref name="key"/> (PBKDF2 for a passphrase, once) and the salt: the key's own, the
    /// settings', the one in <paramref name="fileStart"/> (a file's first bytes, when it has any), or a new random one.
    /// </summary>
    public static PageCodec Create(SharcEncryptionKey key, SharcCipherSettings? settings, ReadOnlySpan<byte> fileStart)
    {
        settings ??= SharcCipherSettings.SqlCipher4;
        settings.Validate();
        Span<byte> salt = stackalloc byte[SaltSize];
        if (!key.Salt.IsEmpty) key.Salt.CopyTo(salt);
        else if (settings.Salt is { } s) s.Span.CopyTo(salt);
        else if (settings.PlaintextHeaderSize > 0)
        {
            // The file's first bytes are SQLite's header then, not a salt: SQLCipher needs cipher_salt too.
            if (fileStart.Length >= SaltSize)
                throw new ArgumentException("A database with a plaintext header keeps no salt in the file: give it with SharcCipherSettings.Salt or a 96-digit raw key.", nameof(settings));
            RandomNumberGenerator.Fill(salt);
        }
        else if (fileStart.Length >= SaltSize) fileStart[..SaltSize].CopyTo(salt);
        else RandomNumberGenerator.Fill(salt);

        var codec = new PageCodec(settings, salt) { Key = key.Clone() };
        var kdf = HashName(settings.KdfHash);
        if (key.IsRaw) key.Material.CopyTo(codec._key);
        else Rfc2898DeriveBytes.Pbkdf2(key.Material, salt, codec._key, settings.KdfIterations, kdf);
        // The HMAC key: a fast PBKDF2 of the encryption key with the salt masked, so the two keys differ.
        Span<byte> hmacSalt = stackalloc byte[SaltSize];
        for (int i = 0; i < SaltSize; i++) hmacSalt[i] = (byte)(salt[i] ^ HmacSaltMask);
        Rfc2898DeriveBytes.Pbkdf2(codec._key, hmacSalt, codec._hmacKey, 2, kdf);
        if (settings.HmacHash == SharcCipherHash.Sha512 && HmacSha512x8.IsSupported) codec._batchMac = new HmacSha512x8(codec._hmacKey);
        return codec;
    }

    /// <summary>Where encryption starts: page 1 keeps its first bytes for the salt (or the plaintext header).</summary>
    private int HeaderOffset(uint page) => page != 1 ? 0 : _plaintextHeader > 0 ? _plaintextHeader : SaltSize;

    /// <summary>
    /// Authenticates page <paramref name="page"/> as stored (<paramref name="raw"/>) and decrypts it into
    /// <paramref name="plain"/> (which may be the same memory). Throws <see cref="SharcCryptoException"/> when the HMAC
    /// does not match: nothing of a failed page is decrypted.
    /// </summary>
    public void Decrypt(uint page, ReadOnlySpan<byte> raw, Span<byte> plain)
    {
        int offset = HeaderOffset(page);
        int ivAt = PageSize - Reserve;
        int size = ivAt - offset;
        var w = Rent();
        try
        {
            // The HMAC's input is the ciphertext and IV as stored, then the page number.
            Span<byte> mac = stackalloc byte[64];
            Mac(w, raw.Slice(offset, size + IvSize), page, mac);
            if (!CryptographicOperations.FixedTimeEquals(mac[.._hmacSize], raw.Slice(ivAt + IvSize, _hmacSize)))
                ThrowAuthenticationFailed(page);
            DecryptAuthenticated(w, page, raw, plain);
        }
        finally
        {
            Return(w);
        }
    }

    /// <summary>True when <see cref="DecryptInPlace"/> authenticates several pages for about the cost of one.</summary>
    public bool DecryptsInBatches => _batchMac is not null;

    /// <summary>
    /// Authenticates and decrypts pages as stored in <paramref name="buffers"/> (the first <paramref name="pages"/>.Length),
    /// in place; <paramref name="ok"/> says which passed. Up to <see cref="HmacSha512x8.Lanes"/> pages other than page 1
    /// have their HMACs computed side by side; otherwise (or when some page is page 1) one by one.
    /// </summary>
    public void DecryptInPlace(ReadOnlySpan<uint> pages, byte[][] buffers, Span<bool> ok)
    {
        int count = pages.Length;
        if (_batchMac is null || count < 2 || count > HmacSha512x8.Lanes || pages.Contains(1u))
        {
            for (int i = 0; i < count; i++)
            {
                try
                {
                    Decrypt(pages[i], buffers[i], buffers[i]);
                    ok[i] = true;
                }
                catch (SharcCryptoException)
                {
                    ok[i] = false;
                }
            }
            return;
        }
        int macAt = PageSize - Reserve + IvSize;
        Span<byte> macs = stackalloc byte[HmacSha512x8.Lanes * 64];
        _batchMac.Compute(buffers, count, 0, macAt, pages, macs);
        var w = Rent();
        try
        {
            for (int i = 0; i < count; i++)
            {
                ok[i] = CryptographicOperations.FixedTimeEquals(macs.Slice(i * 64, 64), buffers[i].AsSpan(macAt, 64));
                if (ok[i]) DecryptAuthenticated(w, pages[i], buffers[i], buffers[i]);
            }
        }
        finally
        {
            Return(w);
        }
    }

    private void DecryptAuthenticated(Worker w, uint page, ReadOnlySpan<byte> raw, Span<byte> plain)
    {
        int offset = HeaderOffset(page);
        int ivAt = PageSize - Reserve;
        int size = ivAt - offset;
        var a = w.A;
        raw.Slice(offset, size + IvSize).CopyTo(a);
        // CBC decryption as ECB then XOR with the previous ciphertext block (the IV for the first): one reusable
        // transform serves every page whatever its IV.
        w.Decryptor.TransformBlock(a, 0, size, w.B, 0);
        Xor(w.B.AsSpan(0, IvSize), a.AsSpan(size, IvSize), plain.Slice(offset, IvSize));
        Xor(w.B.AsSpan(IvSize, size - IvSize), a.AsSpan(0, size - IvSize), plain.Slice(offset + IvSize, size - IvSize));
        raw[ivAt..PageSize].CopyTo(plain[ivAt..PageSize]);
        if (offset > 0)
        {
            if (_plaintextHeader > 0) raw[..offset].CopyTo(plain);
            else "SQLite format 3\0"u8.CopyTo(plain);
        }
    }

    /// <summary>
    /// Encrypts page <paramref name="page"/> into <paramref name="raw"/> (distinct from <paramref name="plain"/>) with a
    /// fresh IV, random reserved bytes and the HMAC.
    /// </summary>
    public void Encrypt(uint page, ReadOnlySpan<byte> plain, Span<byte> raw)
    {
        int offset = HeaderOffset(page);
        int ivAt = PageSize - Reserve;
        int size = ivAt - offset;
        var w = Rent();
        try
        {
            RandomNumberGenerator.Fill(raw[ivAt..PageSize]);
            // The IV: the encryption of a fresh random block under the transform's running chain (NIST SP 800-38A,
            // appendix C: an IV made by the forward cipher under the same key from a nonce), which makes it the next
            // CBC chaining value, so the page's blocks are encrypted under it by the same reusable transform.
            RandomNumberGenerator.Fill(w.Random);
            w.Encryptor.TransformBlock(w.Random, 0, IvSize, w.Iv, 0);
            plain.Slice(offset, size).CopyTo(w.A);
            var b = w.B;
            w.Encryptor.TransformBlock(w.A, 0, size, b, 0);
            w.Iv.CopyTo(b, size);
            Span<byte> mac = stackalloc byte[64];
            Mac(w, b.AsSpan(0, size + IvSize), page, mac);
            b.AsSpan(0, size + IvSize).CopyTo(raw[offset..]);
            mac[.._hmacSize].CopyTo(raw[(ivAt + IvSize)..]);
            if (offset > 0)
            {
                if (_plaintextHeader > 0) plain[..offset].CopyTo(raw);
                else _salt.CopyTo(raw);
            }
        }
        finally
        {
            Return(w);
        }
    }

    /// <summary>
    /// The page's HMAC through the worker's keyed hash: its inner and outer key states are computed once, where a
    /// one-shot HMAC would hash the key pads again for every page (a quarter of the cost of a 4 KiB page).
    /// </summary>
    private static void Mac(Worker w, ReadOnlySpan<byte> cipherAndIv, uint page, Span<byte> mac)
    {
        Span<byte> number = stackalloc byte[4];
        BinaryPrimitives.WriteUInt32LittleEndian(number, page);
        w.Hmac.AppendData(cipherAndIv);
        w.Hmac.AppendData(number);
        w.Hmac.GetHashAndReset(mac);
    }

    private static void Xor(ReadOnlySpan<byte> x, ReadOnlySpan<byte> y, Span<byte> destination)
    {
        int i = 0;
        if (Vector.IsHardwareAccelerated)
        {
            var vx = MemoryMarshal.Cast<byte, Vector<byte>>(x);
            var vy = MemoryMarshal.Cast<byte, Vector<byte>>(y);
            var vd = MemoryMarshal.Cast<byte, Vector<byte>>(destination);
            for (int v = 0; v < vx.Length; v++) vd[v] = vx[v] ^ vy[v];
            i = vx.Length * Vector<byte>.Count;
        }
        for (; i < x.Length; i++) destination[i] = (byte)(x[i] ^ y[i]);
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void ThrowAuthenticationFailed(uint page)
        => throw new SharcCryptoException(page == 1
            ? "page 1 failed authentication: wrong key or not an encrypted database (or cipher settings that do not match the file)"
            : $"page {page} failed authentication (HMAC mismatch): the page was altered or is damaged", page);

    private static int HashSize(SharcCipherHash hash) => hash switch
    {
        SharcCipherHash.Sha1 => 20,
        SharcCipherHash.Sha256 => 32,
        _ => 64,
    };

    private static HashAlgorithmName HashName(SharcCipherHash hash) => hash switch
    {
        SharcCipherHash.Sha1 => HashAlgorithmName.SHA1,
        SharcCipherHash.Sha256 => HashAlgorithmName.SHA256,
        _ => HashAlgorithmName.SHA512,
    };

    private Worker Rent()
    {
        lock (_workers)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (_workers.Count > 0) return _workers.Pop();
        }
        return new Worker(_key, _hmacKey, HashName(_hmacHash), PageSize);
    }

    private void Return(Worker w)
    {
        lock (_workers)
        {
            if (!_disposed)
            {
                _workers.Push(w);
                return;
            }
        }
        w.Dispose();
    }

    public void Dispose()
    {
        lock (_workers)
        {
            if (_disposed) return;
            _disposed = true;
            while (_workers.Count > 0) _workers.Pop().Dispose();
        }
        CryptographicOperations.ZeroMemory(_key);
        CryptographicOperations.ZeroMemory(_hmacKey);
        _batchMac?.Clear();
        Key?.Dispose();
    }

    /// <summary>One thread's transforms and scratch; the AES objects hold their own copy of the key, freed on dispose.</summary>
    private sealed class Worker : IDisposable
    {
        private readonly Aes _ecb;
        private readonly Aes _cbc;
        public readonly ICryptoTransform Decryptor;
        public readonly ICryptoTransform Encryptor;
        public readonly IncrementalHash Hmac;
        public readonly byte[] A;
        public readonly byte[] B;
        public readonly byte[] Random = new byte[IvSize];
        public readonly byte[] Iv = new byte[IvSize];

        public Worker(byte[] key, byte[] hmacKey, HashAlgorithmName hmacHash, int pageSize)
        {
            Hmac = IncrementalHash.CreateHMAC(hmacHash, hmacKey);
            _ecb = Aes.Create();
            _ecb.Mode = CipherMode.ECB;
            _ecb.Padding = PaddingMode.None;
            _ecb.Key = key;
            Decryptor = _ecb.CreateDecryptor();
            _cbc = Aes.Create();
            _cbc.Mode = CipherMode.CBC;
            _cbc.Padding = PaddingMode.None;
            _cbc.Key = key;
            _cbc.IV = new byte[IvSize];
            Encryptor = _cbc.CreateEncryptor();
            A = GC.AllocateArray<byte>(pageSize + 32, pinned: true);
            B = GC.AllocateArray<byte>(pageSize + 32, pinned: true);
        }

        public void Dispose()
        {
            CryptographicOperations.ZeroMemory(A);
            CryptographicOperations.ZeroMemory(B);
            Decryptor.Dispose();
            Encryptor.Dispose();
            Hmac.Dispose();
            _ecb.Dispose();
            _cbc.Dispose();
        }
    }
}
