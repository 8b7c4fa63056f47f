using System.Runtime.CompilerServices;

namespace Sharc.Storage;

/// <summary>
/// A borrowed view of one page: the bytes live in <see cref="Buffer"/> at <see cref="Offset"/>.
/// Valid until handed back with <see cref="IPageSource.Release"/>.
/// </summary>
internal readonly struct PageRef
{
    public readonly byte[] Buffer;
    public readonly int Offset;
    public readonly int Length;
    public readonly uint PageNumber;
    /// <summary>The cache slot that pins this page, or -1 when the source needs no release.</summary>
    public readonly int Slot;

    public PageRef(byte[] buffer, int offset, int length, uint pageNumber, int slot)
    {
        Buffer = buffer;
        Offset = offset;
        Length = length;
        PageNumber = pageNumber;
        Slot = slot;
    }

    public ReadOnlySpan<byte> Span
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => new(Buffer, Offset, Length);
    }

    public bool IsNull => Buffer is null;
}
