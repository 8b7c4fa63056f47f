using Sharc.Storage.IO;

namespace Sharc.Storage.Crypto;

/// <summary>
/// A database file seen through a <see cref="PageCodec"/>: reads return plaintext, writes store ciphertext, so the
/// pager and everything above it work on plaintext pages. Whole pages are transformed as they pass; a read or write of
/// part of a page (the header) goes through the whole page. Pages are read into per-thread scratch, so concurrent
/// cache misses never share a buffer, and nothing is allocated per page once warm. Journals and logs hold pages as
/// the file does (encrypted), so their owners copy them with <see cref="Inner"/>.
/// </summary>
internal sealed class EncryptedFile : IStorageFile
{
    private const int MaxGather = 64;

    [ThreadStatic] private static byte[]? t_raw;
    [ThreadStatic] private static byte[]? t_plain;

    private readonly List<ReadOnlyMemory<byte>> _gather = new();
    private readonly List<byte[]> _writeBuffers = new();
    private readonly object _page1Gate = new();
    private readonly byte[] _page1Raw;
    private readonly byte[] _page1Plain;
    private bool _page1Valid;

    public EncryptedFile(IStorageFile inner, PageCodec codec)
    {
        Inner = inner;
        Codec = codec;
        _page1Raw = new byte[codec.PageSize];
        _page1Plain = new byte[codec.PageSize];
    }

    /// <summary>The file as stored (ciphertext).</summary>
    public IStorageFile Inner { get; }

    /// <summary>The codec pages pass through (replaced by a rekey).</summary>
    public PageCodec Codec { get; private set; }

    private int PageSize => Codec.PageSize;

    /// <summary>Switches to another key (same page layout): later reads and writes use it.</summary>
    public void SetCodec(PageCodec codec)
    {
        Codec = codec;
        lock (_page1Gate) _page1Valid = false;
    }

    /// <summary>Per-thread scratch of one page, for a page as stored.</summary>
    public static byte[] RawScratch(int pageSize)
    {
        var b = t_raw;
        if (b is null || b.Length != pageSize) t_raw = b = new byte[pageSize];
        return b;
    }

    private static byte[] PlainScratch(int pageSize)
    {
        var b = t_plain;
        if (b is null || b.Length != pageSize) t_plain = b = new byte[pageSize];
        return b;
    }

    public long Length => Inner.Length;

    public Microsoft.Win32.SafeHandles.SafeFileHandle? Handle => Inner.Handle;

    /// <summary>
    /// Reads plaintext. Whole pages are decrypted into <paramref name="buffer"/>; a page missing or cut short at the
    /// end of the file ends the read (the caller sees a short count, as from a plain file's end).
    /// </summary>
    public int Read(Span<byte> buffer, long offset)
    {
        int pageSize = PageSize;
        if (offset % pageSize == 0 && buffer.Length % pageSize == 0)
        {
            int done = 0;
            var raw = RawScratch(pageSize);
            while (done < buffer.Length)
            {
                long at = offset + done;
                if (Inner.Read(raw, at) < pageSize) break;
                Codec.Decrypt((uint)(at / pageSize) + 1, raw, buffer.Slice(done, pageSize));
                done += pageSize;
            }
            return done;
        }
        long page = offset / pageSize;
        int within = (int)(offset - page * pageSize);
        if (within + buffer.Length > pageSize) throw new ArgumentException("a read of part of an encrypted page must stay within the page");
        if (page == 0)
        {
            // The header is read at the start of every read session: page 1 is decrypted again only when it changed,
            // which its fresh IV and HMAC show.
            lock (_page1Gate)
            {
                if (!ReadPage1()) return 0;
                _page1Plain.AsSpan(within, buffer.Length).CopyTo(buffer);
                return buffer.Length;
            }
        }
        var plain = PlainScratch(pageSize);
        if (Read(plain, page * pageSize) < pageSize) return 0;
        plain.AsSpan(within, buffer.Length).CopyTo(buffer);
        return buffer.Length;
    }

    private bool ReadPage1()
    {
        int pageSize = PageSize;
        var raw = RawScratch(pageSize);
        int tail = pageSize - Codec.Reserve;
        // Every write of a page draws a fresh random IV and the HMAC binds it to the content, so an unchanged reserved
        // tail (IV and HMAC) means the page we decrypted last: a read session's header check then costs what a
        // plaintext file's does (a short read) instead of a whole page read and compared.
        if (_page1Valid)
        {
            if (Inner.Read(raw.AsSpan(tail), tail) < pageSize - tail) return false;
            if (raw.AsSpan(tail).SequenceEqual(_page1Raw.AsSpan(tail))) return true;
        }
        if (Inner.Read(raw, 0) < pageSize) return false;
        _page1Valid = false;
        Codec.Decrypt(1, raw, _page1Plain);
        raw.CopyTo(_page1Raw, 0);
        _page1Valid = true;
        return true;
    }

    public void Write(ReadOnlySpan<byte> data, long offset)
    {
        int pageSize = PageSize;
        if (offset % pageSize == 0 && data.Length % pageSize == 0)
        {
            var raw = RawScratch(pageSize);
            for (int done = 0; done < data.Length; done += pageSize)
            {
                long at = offset + done;
                Codec.Encrypt((uint)(at / pageSize) + 1, data.Slice(done, pageSize), raw);
                Inner.Write(raw, at);
            }
            return;
        }
        // Part of one page (the header): read, patch, write back whole.
        long page = offset / pageSize;
        int within = (int)(offset - page * pageSize);
        if (within + data.Length > pageSize) throw new ArgumentException("a write of part of an encrypted page must stay within the page");
        var plain = PlainScratch(pageSize);
        if (Read(plain, page * pageSize) < pageSize) plain.AsSpan().Clear();
        data.CopyTo(plain.AsSpan(within));
        Write(plain, page * pageSize);
    }

    /// <summary>Encrypts every page of the run into buffers kept for the next call, then writes them in one gathered write.</summary>
    public void Write(IReadOnlyList<ReadOnlyMemory<byte>> data, long offset)
    {
        int pageSize = PageSize;
        _gather.Clear();
        long at = offset;
        int n = 0;
        bool pages = offset % pageSize == 0;
        for (int i = 0; i < data.Count; i++) pages &= data[i].Length == pageSize;
        if (!pages)
        {
            // Not a run of whole pages: one write a piece.
            foreach (var p in data)
            {
                Write(p.Span, offset);
                offset += p.Length;
            }
            return;
        }
        for (int i = 0; i < data.Count; i++)
        {
            var piece = data[i];
            if (n == MaxGather)
            {
                // Bounded scratch: a long run goes out in pieces of MaxGather pages.
                Inner.Write(_gather, offset);
                _gather.Clear();
                offset = at;
                n = 0;
            }
            if (n == _writeBuffers.Count) _writeBuffers.Add(new byte[pageSize]);
            var raw = _writeBuffers[n++];
            Codec.Encrypt((uint)(at / pageSize) + 1, piece.Span, raw);
            _gather.Add(raw);
            at += pageSize;
        }
        Inner.Write(_gather, offset);
        _gather.Clear();
    }

    public void SetLength(long length) => Inner.SetLength(length);

    public void Sync() => Inner.Sync();

    public void Dispose() => Inner.Dispose();
}
