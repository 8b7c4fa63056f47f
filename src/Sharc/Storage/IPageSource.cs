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
    /// Hands back <paramref name="old"/> and borrows <paramref name="pageNumber"/>, as <see cref="Release"/> then
    /// <see cref="Acquire"/> do (the old page is released even when the new one cannot be had). A cursor moving
    /// between siblings does this on every page change, so a cache may do both under one lock.
    /// </summary>
    PageRef Exchange(in PageRef old, uint pageNumber)
    {
        Release(old);
        return Acquire(pageNumber);
    }

    /// <summary>
    /// Starts a read session (sessions nest): takes SQLite's SHARED lock so no writer can commit under the reader,
    /// and returns true when another connection committed since the last session (cached pages were dropped).
    /// </summary>
    bool BeginRead();

    /// <summary>Ends a read session; the last one releases the SHARED lock.</summary>
    void EndRead();

    /// <summary>
    /// Changes whenever a page this source served may read differently now (a write, a commit, another snapshot): a
    /// cursor keeps the pages it holds for its next walk only while this stays the same.
    /// </summary>
    long Generation => 0;
}
