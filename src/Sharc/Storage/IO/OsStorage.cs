using Microsoft.Win32.SafeHandles;

namespace Sharc.Storage.IO;

/// <summary>The real file system: positional reads and writes on a file handle, fsync through FlushToDisk.</summary>
internal sealed class OsStorage : IStorageSystem
{
    public static readonly OsStorage Instance = new();

    public IStorageFile Open(string path, bool create)
        => new OsFile(File.OpenHandle(path, create ? FileMode.OpenOrCreate : FileMode.Open, FileAccess.ReadWrite, FileShare.ReadWrite | FileShare.Delete));

    public IStorageFile OpenReadOnly(string path)
        => new OsFile(File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete));

    /// <summary>Wraps a handle someone else opened (the caller keeps ownership only if it does not dispose the wrapper).</summary>
    public static IStorageFile Wrap(SafeFileHandle handle) => new OsFile(handle);

    public bool Exists(string path) => File.Exists(path);

    public long LengthOf(string path)
    {
        var info = new FileInfo(path);
        return info.Exists ? info.Length : -1;
    }

    public void Delete(string path) => File.Delete(path);

    public void Replace(string source, string destination) => File.Move(source, destination, overwrite: true);

    public void SyncDirectory(string path) => DirectorySync.SyncParentOf(path);

    private sealed class OsFile : IStorageFile
    {
        private readonly SafeFileHandle _handle;

        public OsFile(SafeFileHandle handle) => _handle = handle;

        public SafeFileHandle? Handle => _handle;

        public long Length => RandomAccess.GetLength(_handle);

        public int Read(Span<byte> buffer, long offset)
        {
            int done = 0;
            while (done < buffer.Length)
            {
                int n = RandomAccess.Read(_handle, buffer[done..], offset + done);
                if (n <= 0) break;
                done += n;
            }
            return done;
        }

        public void Write(ReadOnlySpan<byte> data, long offset) => RandomAccess.Write(_handle, data, offset);

        public void Write(IReadOnlyList<ReadOnlyMemory<byte>> data, long offset) => RandomAccess.Write(_handle, data, offset);

        public void SetLength(long length) => RandomAccess.SetLength(_handle, length);

        public void Sync() => RandomAccess.FlushToDisk(_handle);

        public void Dispose() => _handle.Dispose();
    }
}
