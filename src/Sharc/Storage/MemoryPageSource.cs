using System.Runtime.InteropServices;

namespace Sharc.Storage;

/// <summary>Pages served straight out of a database image in memory: no cache, no copies, no pins.</summary>
internal sealed class MemoryPageSource : IPageSource
{
    private readonly byte[] _image;
    private readonly int _start;

    public MemoryPageSource(ReadOnlyMemory<byte> image, int pageSize, uint pageCount)
    {
        if (image.Length % pageSize != 0)
        {
            // SQLite counts a partial last page and reads its missing tail as zeros; pad once so every page is whole.
            var padded = new byte[(long)pageCount * pageSize];
            image.Span.CopyTo(padded);
            _image = padded;
            _start = 0;
        }
        else if (MemoryMarshal.TryGetArray(image, out ArraySegment<byte> seg) && seg.Array is not null)
        {
            _image = seg.Array;
            _start = seg.Offset;
        }
        else
        {
            _image = image.ToArray();
            _start = 0;
        }
        PageSize = pageSize;
        PageCount = pageCount;
        Length = (long)pageCount * pageSize;
    }

    public int PageSize { get; }
    public uint PageCount { get; }
    private long Length { get; }

    public PageRef Acquire(uint pageNumber)
    {
        if (pageNumber == 0 || pageNumber > PageCount)
            ThrowHelper.PageOutOfRange(pageNumber, PageCount);
        long off = (long)(pageNumber - 1) * PageSize;
        if (off + PageSize > Length)
            ThrowHelper.Corrupt("page lies beyond the end of the database image (truncated file)", pageNumber);
        return new PageRef(_image, _start + (int)off, PageSize, pageNumber, -1);
    }

    public void Release(in PageRef page) { }

    public bool BeginRead() => false;

    public void EndRead() { }

    public void Dispose() { }
}
