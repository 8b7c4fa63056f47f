namespace Sharc.Storage.IO;

/// <summary>
/// One open file, read and written at explicit offsets. The write engine goes through this seam (and
/// <see cref="IStorageSystem"/>) so tests can inject faults at any write or sync and model a crash.
/// </summary>
internal interface IStorageFile : IDisposable
{
    long Length { get; }
    int Read(Span<byte> buffer, long offset);
    void Write(ReadOnlySpan<byte> data, long offset);

    /// <summary>
    /// Writes <paramref name="data"/> back to back from <paramref name="offset"/>: one gathered write where the OS
    /// has one, one write a piece otherwise (as here, so a fault-injecting file still sees every page).
    /// </summary>
    void Write(IReadOnlyList<ReadOnlyMemory<byte>> data, long offset)
    {
        foreach (var piece in data)
        {
            Write(piece.Span, offset);
            offset += piece.Length;
        }
    }
    void SetLength(long length);
    /// <summary>Forces written data to stable storage (fsync).</summary>
    void Sync();
    /// <summary>The OS handle, for advisory locks; null when the file has none (in tests).</summary>
    Microsoft.Win32.SafeHandles.SafeFileHandle? Handle { get; }
}

/// <summary>The file operations the write engine needs besides reading and writing: open, exists, delete, rename.</summary>
internal interface IStorageSystem
{
    IStorageFile Open(string path, bool create);
    IStorageFile OpenReadOnly(string path);
    bool Exists(string path);
    long LengthOf(string path);
    void Delete(string path);
    /// <summary>Renames <paramref name="source"/> over <paramref name="destination"/> in one step (rename(2)), so the destination is whole before or after.</summary>
    void Replace(string source, string destination);
    /// <summary>Makes renames and new files in the directory holding <paramref name="path"/> durable (fsync of the directory).</summary>
    void SyncDirectory(string path);
}
