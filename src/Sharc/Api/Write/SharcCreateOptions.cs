namespace Sharc;

/// <summary>Settings of a new database (<see cref="SharcDatabase.Create"/>).</summary>
public sealed class SharcCreateOptions
{
    /// <summary>Page size in bytes: a power of two from 512 to 65536. Default 4096 (SQLite's default).</summary>
    public int PageSize { get; init; } = 4096;

    /// <summary>Text encoding of the database. Default UTF-8.</summary>
    public SharcTextEncoding TextEncoding { get; init; } = SharcTextEncoding.Utf8;

    /// <summary>When true an existing file is replaced; otherwise creating over a non-empty file fails.</summary>
    public bool Overwrite { get; init; }

    /// <summary>Options used when the new database is opened (cache size, busy timeout).</summary>
    public SharcOpenOptions Open { get; init; } = new() { Writable = true };
}
