using Microsoft.Win32.SafeHandles;
using Sharc.Storage.IO;

namespace Sharc.Tests.Infrastructure;

/// <summary>
/// A file system that "crashes" at a chosen write or sync: from that operation on, every write, sync, truncate or
/// delete fails as if the process had died. With <see cref="Tear"/>, the fatal write lands half-done.
/// Counting every write and sync lets a test crash a commit at each of its steps in turn. With <see cref="CountShm"/>,
/// every store into the mapped wal-index (-shm) counts as an operation too: a crash there leaves the shared map as the
/// stores before it left it, and nothing is stored after it.
/// </summary>
public sealed class FaultyStorage : IStorageSystem, Sharc.Storage.Wal.IShmStoreHook
{
    private readonly IStorageSystem _inner = OsStorage.Instance;

    /// <summary>The 1-based operation that fails; 0 never fails.</summary>
    public int CrashAt { get; set; }
    public bool Tear { get; set; }
    public int Operations { get; private set; }
    public bool Crashed { get; private set; }
    public bool CountShm { get; set; }

    /// <summary>One letter per counted operation: w(rite), s(ync), t(runcate), d(elete), r(ename), D (a directory sync), m (a -shm store).</summary>
    public System.Text.StringBuilder Trace { get; } = new();

    void Sharc.Storage.Wal.IShmStoreHook.BeforeStore()
    {
        if (CountShm) Step('m');
    }

    private void Step(char kind, Action? partial = null)
    {
        if (Crashed) throw new IOException("simulated crash: the process is gone");
        Operations++;
        Trace.Append(kind);
        if (CrashAt != 0 && Operations >= CrashAt)
        {
            Crashed = true;
            partial?.Invoke();
            throw new IOException($"simulated crash at operation {Operations}");
        }
    }

    IStorageFile IStorageSystem.Open(string path, bool create) => new File(this, _inner.Open(path, create));
    IStorageFile IStorageSystem.OpenReadOnly(string path) => _inner.OpenReadOnly(path);
    bool IStorageSystem.Exists(string path) => _inner.Exists(path);
    long IStorageSystem.LengthOf(string path) => _inner.LengthOf(path);

    void IStorageSystem.Delete(string path)
    {
        Step('d');
        _inner.Delete(path);
    }

    /// <summary>A rename is one operation: crashed there, it never happened.</summary>
    void IStorageSystem.Replace(string source, string destination)
    {
        Step('r');
        _inner.Replace(source, destination);
    }

    void IStorageSystem.SyncDirectory(string path)
    {
        Step('D');
        _inner.SyncDirectory(path);
    }

    private sealed class File : IStorageFile
    {
        private readonly FaultyStorage _fs;
        private readonly IStorageFile _f;

        public File(FaultyStorage fs, IStorageFile f)
        {
            _fs = fs;
            _f = f;
        }

        public long Length => _f.Length;
        public SafeFileHandle? Handle => _f.Handle;
        public int Read(Span<byte> buffer, long offset) => _f.Read(buffer, offset);

        public void Write(ReadOnlySpan<byte> data, long offset)
        {
            byte[] copy = data.ToArray();
            _fs.Step('w', _fs.Tear ? () => _f.Write(copy.AsSpan(0, copy.Length / 2), offset) : null);
            _f.Write(data, offset);
        }

        public void SetLength(long length)
        {
            _fs.Step('t');
            _f.SetLength(length);
        }

        public void Sync()
        {
            _fs.Step('s');
            _f.Sync();
        }

        public void Dispose() => _f.Dispose();
    }
}
