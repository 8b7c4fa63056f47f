using Sharc.Format;

namespace Sharc.BTree.Mutation;

/// <summary>The number of bytes a cell occupies on its page, for each of the four page types.</summary>
internal static class CellSize
{
    public static int Of(ReadOnlySpan<byte> page, int cell, BTreePageType type, int usable, uint pageNumber)
    {
        switch (type)
        {
            case BTreePageType.InteriorTable:
            {
                int n = Varint.Read(page[(cell + 4)..usable], out _);
                if (n == 0) ThrowHelper.Corrupt("interior cell runs off the page", pageNumber, cell);
                return 4 + n;
            }
            case BTreePageType.LeafTable:
            {
                CellParser.TableLeaf(page, cell, usable, pageNumber, out var p);
                return p.LocalOffset - cell + p.LocalSize + (p.Overflow != 0 ? 4 : 0);
            }
            default:
            {
                CellParser.IndexCell(page, cell, usable, pageNumber, type == BTreePageType.InteriorIndex, out var p);
                return p.LocalOffset - cell + p.LocalSize + (p.Overflow != 0 ? 4 : 0);
            }
        }
    }
}
