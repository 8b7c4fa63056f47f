using Sharc.Format;

using System.Buffers.Binary;

namespace Sharc;

/// <summary>
/// The 100-byte header at the start of every SQLite database file, parsed and validated.
/// </summary>
public sealed class DatabaseHeader
{
    /// <summary>The size of the header in bytes.</summary>
    public const int Size = 100;

    private static ReadOnlySpan<byte> Magic => "SQLite format 3\0"u8;

    private DatabaseHeader() { }

    /// <summary>Page size in bytes, 512–65536.</summary>
    public int PageSize { get; private init; }
    /// <summary>File format write version: 1 legacy (rollback journal), 2 WAL.</summary>
    public byte WriteVersion { get; private init; }
    /// <summary>File format read version: 1 legacy, 2 WAL.</summary>
    public byte ReadVersion { get; private init; }
    /// <summary>Bytes reserved at the end of each page (for extensions such as checksums or encryption).</summary>
    public byte ReservedBytes { get; private init; }
    /// <summary>Usable bytes per page: page size minus reserved bytes.</summary>
    public int UsableSize => PageSize - ReservedBytes;
    /// <summary>File change counter (offset 24).</summary>
    public uint ChangeCounter { get; private init; }
    /// <summary>The in-header database size in pages (offset 28); only trusted when <see cref="IsPageCountValid"/>.</summary>
    public uint HeaderPageCount { get; private init; }
    /// <summary>True when the in-header page count is valid (non-zero and the change counter matches version-valid-for).</summary>
    public bool IsPageCountValid => HeaderPageCount != 0 && ChangeCounter == VersionValidFor;
    /// <summary>Page number of the first freelist trunk page, 0 if none.</summary>
    public uint FirstFreelistTrunk { get; private init; }
    /// <summary>Total number of freelist pages.</summary>
    public uint FreelistPageCount { get; private init; }
    /// <summary>Schema cookie, incremented on every schema change.</summary>
    public uint SchemaCookie { get; private init; }
    /// <summary>Schema format number, 1–4 (0 in an empty database).</summary>
    public uint SchemaFormat { get; private init; }
    /// <summary>Suggested page cache size (offset 48).</summary>
    public int DefaultCacheSize { get; private init; }
    /// <summary>Largest root b-tree page when auto-vacuum or incremental vacuum is on, otherwise 0.</summary>
    public uint LargestRootPage { get; private init; }
    /// <summary>Text encoding of the database.</summary>
    public SharcTextEncoding TextEncoding { get; private init; }
    /// <summary>The raw encoding value at offset 56 (0 in a database with no schema yet).</summary>
    public uint RawTextEncoding { get; private init; }
    /// <summary>The user version (PRAGMA user_version).</summary>
    public int UserVersion { get; private init; }
    /// <summary>Non-zero for incremental-vacuum mode (offset 64).</summary>
    public uint IncrementalVacuum { get; private init; }
    /// <summary>The application id (PRAGMA application_id).</summary>
    public int ApplicationId { get; private init; }
    /// <summary>The version-valid-for number (offset 92).</summary>
    public uint VersionValidFor { get; private init; }
    /// <summary>SQLITE_VERSION_NUMBER of the library that last wrote the file.</summary>
    public uint SqliteVersionNumber { get; private init; }

    /// <summary>True when pointer-map pages are present (auto_vacuum full or incremental).</summary>
    public bool IsAutoVacuum => LargestRootPage != 0;

    /// <summary>The auto_vacuum mode as SQLite reports it: 0 none, 1 full, 2 incremental.</summary>
    public int AutoVacuumMode => LargestRootPage == 0 ? 0 : IncrementalVacuum != 0 ? 2 : 1;

    /// <summary>True when the header says the file is in WAL mode.</summary>
    public bool IsWal => WriteVersion == 2 || ReadVersion == 2;

    /// <summary>True when <paramref name="bytes"/> begins with the SQLite format 3 magic string.</summary>
    public static bool HasMagic(ReadOnlySpan<byte> bytes) => bytes.Length >= 16 && bytes[..16].SequenceEqual(Magic);

    /// <summary>
    /// Parses and validates a header. Throws <see cref="SharcFormatException"/> when the bytes are not a
    /// SQLite format 3 header and <see cref="SharcCorruptException"/> when a field is out of range.
    /// </summary>
    public static DatabaseHeader Parse(ReadOnlySpan<byte> h)
    {
        if (h.Length < Size)
            ThrowHelper.Format($"file is not a database: {h.Length} bytes is shorter than the 100-byte header");
        if (!HasMagic(h))
            ThrowHelper.Format("file is not a database: the SQLite format 3 magic string is missing (random bytes, or an encrypted database such as SQLCipher)");

        int raw = BinaryPrimitives.ReadUInt16BigEndian(h[16..]);
        int pageSize = raw == 1 ? 65536 : raw;
        if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) != 0)
            ThrowHelper.Corrupt($"invalid page size {raw} in the database header", 1, 16);

        byte write = h[18], read = h[19];
        if (read > 2)
            ThrowHelper.Format($"file format read version {read} is newer than this reader understands (1 or 2)");

        byte reserved = h[20];
        if (pageSize - reserved < 480)
            ThrowHelper.Corrupt($"{reserved} reserved bytes leave fewer than 480 usable bytes in a {pageSize}-byte page", 1, 20);
        if (h[21] != 64 || h[22] != 32 || h[23] != 32)
            ThrowHelper.Corrupt($"payload fractions must be 64/32/32, found {h[21]}/{h[22]}/{h[23]}", 1, 21);

        // SQLite looks only at the low byte of the schema format, and at the low two bits of the encoding
        // (0 meaning UTF-8); doing the same reads every file SQLite reads.
        uint schemaFormat = BinaryPrimitives.ReadUInt32BigEndian(h[44..]);
        if ((byte)schemaFormat > 4)
            ThrowHelper.Format($"schema format {(byte)schemaFormat} is not supported (1–4)");

        uint enc = BinaryPrimitives.ReadUInt32BigEndian(h[56..]);

        return new DatabaseHeader
        {
            PageSize = pageSize,
            WriteVersion = write,
            ReadVersion = read,
            ReservedBytes = reserved,
            ChangeCounter = BinaryPrimitives.ReadUInt32BigEndian(h[24..]),
            HeaderPageCount = BinaryPrimitives.ReadUInt32BigEndian(h[28..]),
            FirstFreelistTrunk = BinaryPrimitives.ReadUInt32BigEndian(h[32..]),
            FreelistPageCount = BinaryPrimitives.ReadUInt32BigEndian(h[36..]),
            SchemaCookie = BinaryPrimitives.ReadUInt32BigEndian(h[40..]),
            SchemaFormat = (byte)schemaFormat,
            DefaultCacheSize = BinaryPrimitives.ReadInt32BigEndian(h[48..]),
            LargestRootPage = BinaryPrimitives.ReadUInt32BigEndian(h[52..]),
            RawTextEncoding = enc,
            // A database with no schema yet has 0 here; SQLite then uses UTF-8.
            TextEncoding = (enc & 3) == 0 ? SharcTextEncoding.Utf8 : (SharcTextEncoding)(enc & 3),
            UserVersion = BinaryPrimitives.ReadInt32BigEndian(h[60..]),
            IncrementalVacuum = BinaryPrimitives.ReadUInt32BigEndian(h[64..]),
            ApplicationId = BinaryPrimitives.ReadInt32BigEndian(h[68..]),
            VersionValidFor = BinaryPrimitives.ReadUInt32BigEndian(h[92..]),
            SqliteVersionNumber = BinaryPrimitives.ReadUInt32BigEndian(h[96..]),
        };
    }
}
