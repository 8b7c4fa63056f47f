namespace Sharc.Sql.Intent;

/// <summary>How an item of a FROM clause is joined to the items before it.</summary>
internal enum JoinKind : byte
{
    /// <summary>JOIN, INNER JOIN, CROSS JOIN or a comma: ON is a filter like WHERE.</summary>
    Inner,
    /// <summary>LEFT JOIN: rows of the left side without a match are kept, this item's columns NULL.</summary>
    Left,
    /// <summary>RIGHT JOIN: rows of this item without a match are kept, the left side's columns NULL.</summary>
    Right,
    /// <summary>FULL JOIN: both.</summary>
    Full,
}

/// <summary>
/// One item of a join: its rows, the frame its current row is bound to while the join runs, where its columns start
/// in the join's column list, how it is joined, and the names it was joined on with USING or NATURAL (an
/// unqualified such name reads the left side's column, not this item's).
/// </summary>
internal sealed record JoinItem(IntentSource Source, int Frame, int Offset, int RowIdColumn, JoinKind Kind, IReadOnlySet<string> UsingNames)
{
    /// <summary>How many of the join's columns belong to this item (its columns, then its rowid when it has one).</summary>
    public int Width => Source.Columns.Count + (RowIdColumn >= 0 ? 1 : 0);

    /// <summary>The parenthesized join the item came from (its columns are named as a subquery's), or -1.</summary>
    public int Group { get; init; } = -1;
}

/// <summary>
/// A FROM clause of several items. Its columns are the items' columns one after the other (each table's rowid as a
/// hidden column after its own), so the level reads a joined row through one frame like any other source, and a
/// column reference names the level's frame and a position in this list. <see cref="On"/> holds each item's join
/// condition (USING and NATURAL included), compiled once the level's scope exists.
/// </summary>
internal sealed record JoinSource(IReadOnlyList<JoinItem> Items, IReadOnlyList<SourceColumn> Columns) : IntentSource("", Columns)
{
    /// <summary>The join condition of each item (null for none); index 0 is always null.</summary>
    public IntentExpr?[] On { get; init; } = new IntentExpr?[Items.Count];

    /// <summary>The item a column of the join belongs to.</summary>
    public int ItemOf(int column)
    {
        for (int i = Items.Count - 1; i > 0; i--)
            if (column >= Items[i].Offset) return i;
        return 0;
    }

    /// <summary>The item's own column number for a join column (<see cref="SourceColumn.RowId"/> for its rowid).</summary>
    public int LocalOf(int column)
    {
        var item = Items[ItemOf(column)];
        return column == item.RowIdColumn ? SourceColumn.RowId : column - item.Offset;
    }

    /// <summary>True when some item is RIGHT or FULL joined: the items then run in the order written.</summary>
    public bool HasRightJoin
    {
        get
        {
            foreach (var item in Items)
                if (item.Kind is JoinKind.Right or JoinKind.Full) return true;
            return false;
        }
    }
}
