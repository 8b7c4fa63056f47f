namespace Sharc.Storage.Wal;

/// <summary>
/// What the pager needs of a write-ahead log whichever way it is shared: the sole-user <see cref="WalLog"/> (its own
/// index, rebuilt from the file) or the <see cref="SharedWal"/> (SQLite's -shm wal-index, shared with every connection).
/// </summary>
internal interface IWalLog : IDisposable
{
    /// <summary>The database size in pages of the snapshot read (or of this connection's last commit); 0 when the log holds none.</summary>
    uint DbPageCount { get; }

    /// <summary>Committed frames in the log.</summary>
    int CommittedFrames { get; }

    /// <summary>True while the open transaction has frames in the log that are not committed yet.</summary>
    bool HasPending { get; }

    /// <summary>The offset of the newest visible page data for <paramref name="page"/>: this transaction's, then the snapshot's.</summary>
    bool TryGetFrame(uint page, out long dataOffset);

    void ReadPage(long dataOffset, Span<byte> buffer);

    /// <summary>Appends one frame of the open transaction; <paramref name="commitSize"/> is nonzero on its last frame.</summary>
    void Append(uint page, ReadOnlySpan<byte> data, uint commitSize);

    /// <summary>The commit point: the log (ending in the commit frame) reaches stable storage.</summary>
    void Sync();

    /// <summary>After <see cref="Sync"/>: the transaction's frames become the committed content.</summary>
    void MarkCommitted();

    /// <summary>Forgets the open transaction's frames: the next transaction writes over them.</summary>
    void DiscardPending();
}
