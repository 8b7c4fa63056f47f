using Microsoft.Win32.SafeHandles;

namespace Sharc.Storage.IO;

/// <summary>
/// Files held in memory: the temp schema and ATTACH ':memory:' / '' are databases no other connection can see, so
/// they need neither an OS file nor locks. The write engine runs on them unchanged (journal, statement rollback),
/// which keeps one code path for every database a connection holds.
/// </summary>
internal sealed class MemoryStorage : IStorageSystem
{
    private readonly Dictionary<string, MemoryFile> _files = new(StringComparer.Ordinal);
    private readonly Lock _lock = new();

    public IStorageFile Open(string path, bool create)
    {
        lock (_lock)
        {
            // A database's own file is made on first open, as SQLite makes an empty one; create matters to nothing else here.
            if (_files.TryGetValue(path, out var f)) return f;
            return _files[path] = new MemoryFile();
        }
    }

    public IStorageFile OpenReadOnly(string path)
    {
        lock (_lock) return _files.TryGetValue(path, out var f) ? f : throw new FileNotFoundException("no such in-memory file", path);
    }

    public bool Exists(string path)
    {
        lock (_lock) return _files.ContainsKey(path);
    }

    public long LengthOf(string path)
    {
        lock (_lock) return _files.TryGetValue(path, out var f) ? f.Length : -1;
    }

    public void Delete(string path)
    {
        lock (_lock) _files.Remove(path);
    }

    /// <summary>Nothing to do: memory has no power failure to survive.</summary>
    public void SyncDirectory(string path)
    {
    }

    public void Replace(string source, string destination)
    {
        lock (_lock)
        {
            if (!_files.Remove(source, out var f)) throw new FileNotFoundException("no such in-memory file", source);
            _files[destination] = f;
        }
    }

    private sealed class MemoryFile : IStorageFile
    {
        private byte[] _data = [];
        private long _length;
        private readonly Lock _lock = new();

        public long Length
        {
            get
            {
                lock (_lock) return _length;
            }
        }

        public SafeFileHandle? Handle => null;

        public int Read(Span<byte> buffer, long offset)
        {
            lock (_lock)
            {
                if (offset >= _length) return 0;
                int n = (int)Math.Min(buffer.Length, _length - offset);
                _data.AsSpan((int)offset, n).CopyTo(buffer);
                return n;
            }
        }

        public void Write(ReadOnlySpan<byte> data, long offset)
        {
            lock (_lock)
            {
                long end = offset + data.Length;
                Grow(end);
                data.CopyTo(_data.AsSpan((int)offset));
                if (end > _length) _length = end;
            }
        }

        public void SetLength(long length)
        {
            lock (_lock)
            {
                Grow(length);
                if (length < _length) _data.AsSpan((int)length, (int)(_length - length)).Clear();
                _length = length;
            }
        }

        private void Grow(long size)
        {
            if (size > int.MaxValue) throw new IOException("an in-memory database cannot exceed 2 GiB");
            if (size <= _data.Length) return;
            Array.Resize(ref _data, (int)Math.Max(size, Math.Min(int.MaxValue, (long)_data.Length * 2)));
        }

        public void Sync()
        {
        }

        // The storage owns the bytes: a database closing its handle must not lose the file.
        public void Dispose()
        {
        }
    }
}
