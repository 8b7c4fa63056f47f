namespace Sharc;

/// <summary>A CHECK constraint of a table (column or table constraint).</summary>
public sealed class SharcCheck
{
    /// <summary>Creates a CHECK constraint description.</summary>
    public SharcCheck(string? name, string expressionSql)
    {
        Name = name;
        ExpressionSql = expressionSql;
    }

    /// <summary>The CONSTRAINT name, or null when unnamed.</summary>
    public string? Name { get; }
    /// <summary>The expression's text between the parentheses, trimmed (what SQLite reports when it fails unnamed).</summary>
    public string ExpressionSql { get; }
    /// <summary>The column whose definition holds the CHECK, or -1 for a table constraint.</summary>
    internal int ColumnOrdinal { get; init; } = -1;
}

/// <summary>What a FOREIGN KEY does to child rows when their parent row is deleted or its key updated.</summary>
public enum SharcForeignKeyAction
{
    /// <summary>NO ACTION (the default): the change fails if children remain (at commit when deferred).</summary>
    NoAction,
    /// <summary>RESTRICT: the change fails at once if children exist, even when the constraint is deferred.</summary>
    Restrict,
    /// <summary>SET NULL: the children's key columns become NULL.</summary>
    SetNull,
    /// <summary>SET DEFAULT: the children's key columns take their DEFAULT.</summary>
    SetDefault,
    /// <summary>CASCADE: children are deleted with the parent, or follow its new key.</summary>
    Cascade,
}

/// <summary>A FOREIGN KEY constraint: child columns of this table referencing a parent table's key.</summary>
public sealed class SharcForeignKey
{
    /// <summary>Creates a foreign key description.</summary>
    public SharcForeignKey(IReadOnlyList<int> columns, string parentTable, IReadOnlyList<string> parentColumns)
    {
        Columns = columns;
        ParentTable = parentTable;
        ParentColumns = parentColumns;
    }

    /// <summary>Ordinals of the child columns in this table.</summary>
    public IReadOnlyList<int> Columns { get; }
    /// <summary>The referenced table's name as written.</summary>
    public string ParentTable { get; }
    /// <summary>The referenced columns as written; empty means the parent's PRIMARY KEY.</summary>
    public IReadOnlyList<string> ParentColumns { get; }
    /// <summary>ON DELETE action.</summary>
    public SharcForeignKeyAction OnDelete { get; init; }
    /// <summary>ON UPDATE action.</summary>
    public SharcForeignKeyAction OnUpdate { get; init; }
    /// <summary>True for DEFERRABLE INITIALLY DEFERRED: checked at commit rather than per statement.</summary>
    public bool IsDeferred { get; init; }
    /// <summary>True when declared as REFERENCES in a column definition (it goes if the column is dropped).</summary>
    internal bool IsColumnConstraint { get; init; }
}
