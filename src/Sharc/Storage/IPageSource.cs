namespace Sharc.Storage;

/// <summary>
/// Where pages come from: a file (through a cache, with a WAL overlay), or a memory image.
/// Implementations are safe for concurrent use by several readers.
/// </summary>
internal interface IPageSource : IDisposable
{
    /// <summary>Page size in bytes.</summary>
    int PageSize { get; }

    /// <summary>The number of pages in the database snapshot this source serves.</summary>
    uint PageCount { get; }

    /// <summary>Borrows page <paramref name="pageNumber"/> (1-based). Throws <see cref="SharcCorruptException"/> when out of range.</summary>
    PageRef Acquire(uint pageNumber);

    /// <summary>Hands back a page obtained from <see cref="Acquire"/>.</summary>
    void Release(in PageRef page);

    /// <summary>
    /// Starts a read session (sessions nest): takes SQLite's SHARED lock so no writer can commit under the reader,
    /// and returns true when another connection committed since the last session (cached pages were dropped).
    /// </summary>
    bool BeginRead();

    /// <summary>Ends a read session; the last one releases the SHARED lock.</summary>
    void EndRead();
}
