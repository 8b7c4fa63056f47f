namespace Sharc.Cli;

/// <summary>
/// Standard output as a stream that reports a closed pipe as <see cref="OutputClosedException"/> once, and then drops
/// whatever is still written (the writer's final flush and dispose must not fail a second time).
/// </summary>
internal sealed class GuardedOutputStream(Stream inner) : Stream
{
    private bool _closed;

    /// <summary>
    /// Standard output, guarded. On Unix a pipe or terminal is written through a <see cref="FileStream"/> on
    /// descriptor 1, because the console stream drops writes to a closed pipe silently (EPIPE is ignored), which would
    /// leave <c>sharc query big.db … | head -1</c> reading the whole table for nobody. A regular file keeps the console
    /// stream: it cannot be closed under us, and a FileStream would write at its own offset rather than the shared one
    /// (<c>{ sharc …; sharc …; } &gt; out</c> must append).
    /// </summary>
    public static GuardedOutputStream OpenStandardOutput()
    {
        if (!OperatingSystem.IsWindows())
        {
            var handle = new Microsoft.Win32.SafeHandles.SafeFileHandle(1, ownsHandle: false);
            try
            {
                var file = new FileStream(handle, FileAccess.Write, bufferSize: 0);
                if (!file.CanSeek) return new GuardedOutputStream(file);
                file.Dispose();
            }
            catch (Exception e) when (e is IOException or ArgumentException or UnauthorizedAccessException)
            {
                // Not a descriptor FileStream accepts: the console stream will do.
            }
        }
        return new GuardedOutputStream(Console.OpenStandardOutput());
    }

    public override bool CanRead => false;
    public override bool CanSeek => false;
    public override bool CanWrite => true;
    public override long Length => throw new NotSupportedException();
    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        if (_closed) return;
        try
        {
            inner.Write(buffer);
        }
        catch (IOException e)
        {
            _closed = true;
            throw new OutputClosedException(e);
        }
    }

    public override void Flush()
    {
        if (_closed) return;
        try
        {
            inner.Flush();
        }
        catch (IOException e)
        {
            _closed = true;
            throw new OutputClosedException(e);
        }
    }

    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
    public override void SetLength(long value) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        if (disposing) inner.Dispose();
        base.Dispose(disposing);
    }
}
