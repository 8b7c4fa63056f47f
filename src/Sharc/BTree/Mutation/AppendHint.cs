using Sharc.Storage;

namespace Sharc.BTree.Mutation;

/// <summary>
/// Where the last insert into a table b-tree went when it landed at the very end of the right-most leaf: rows
/// inserted with ever larger rowids (the usual batch) then skip the walk down from the root, as SQLite's cursor
/// does when it is already at the last entry. The path stays true only while nothing else changed a page, so it is
/// trusted only when the pager's write count and data version are still those seen right after that insert.
/// </summary>
internal sealed class AppendHint
{
    private readonly (uint Page, int Index)[] _path = new (uint, int)[BTreeCursor.MaxDepth];
    private uint _root;
    private int _depth = -1;
    private int _leafCount;
    private long _lastRowId;
    private long _writeCount = -1;
    private long _dataVersion;

    /// <summary>Remembers a right-edge append (the path as walked, the leaf's new cell count, the rowid).</summary>
    public void Remember(uint root, ReadOnlySpan<(uint Page, int Index)> path, int leafCount, long rowId, Pager pager)
    {
        path.CopyTo(_path);
        _root = root;
        _depth = path.Length - 1;
        _leafCount = leafCount;
        _lastRowId = rowId;
        _writeCount = pager.WriteCount;
        _dataVersion = pager.DataVersion;
    }

    /// <summary>
    /// When <paramref name="rowId"/> goes right after the remembered append, copies its path into
    /// <paramref name="path"/> and returns the depth of the leaf (with <paramref name="index"/>, the insert position);
    /// otherwise -1.
    /// </summary>
    public int TryFollow(uint root, long rowId, Pager pager, Span<(uint Page, int Index)> path, out int index)
    {
        index = _leafCount;
        if (_depth < 0 || root != _root || rowId <= _lastRowId || pager.WriteCount != _writeCount || pager.DataVersion != _dataVersion)
            return -1;
        _path.AsSpan(0, _depth + 1).CopyTo(path);
        path[_depth].Index = index;
        return _depth;
    }
}
