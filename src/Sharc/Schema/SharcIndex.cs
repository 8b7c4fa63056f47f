namespace Sharc;

/// <summary>One key column of an index.</summary>
public sealed class SharcIndexColumn
{
    /// <summary>Creates an index column description.</summary>
    public SharcIndexColumn(string? name, int tableOrdinal, string? expressionSql, bool descending, string collation)
    {
        Name = name;
        TableOrdinal = tableOrdinal;
        ExpressionSql = expressionSql;
        IsDescending = descending;
        Collation = collation;
    }

    /// <summary>The table column this key is, or null for an expression.</summary>
    public string? Name { get; }
    /// <summary>The ordinal of that table column, -1 for the rowid, -2 for an expression.</summary>
    public int TableOrdinal { get; }
    /// <summary>The expression's SQL for an expression key, else null.</summary>
    public string? ExpressionSql { get; }
    /// <summary>True when the key is sorted DESC.</summary>
    public bool IsDescending { get; }
    /// <summary>The collating sequence used to order this key (BINARY, NOCASE, RTRIM or a custom name).</summary>
    public string Collation { get; }
    /// <summary>True when the key says COLLATE itself; otherwise an expression key sorts by its expression's collation.</summary>
    internal bool HasExplicitCollation { get; init; }
}

/// <summary>An index of the database schema.</summary>
public sealed class SharcIndex
{
    /// <summary>Creates an index description.</summary>
    public SharcIndex(string name, string tableName, uint rootPage, string? sql, IReadOnlyList<SharcIndexColumn> columns)
    {
        Name = name;
        TableName = tableName;
        RootPage = rootPage;
        Sql = sql;
        Columns = columns;
    }

    /// <summary>The index name.</summary>
    public string Name { get; }
    /// <summary>The table the index belongs to.</summary>
    public string TableName { get; }
    /// <summary>The root page of the index b-tree.</summary>
    public uint RootPage { get; }
    /// <summary>The CREATE INDEX statement, or null for sqlite_autoindex_* indexes (SQLite stores none).</summary>
    public string? Sql { get; }
    /// <summary>The declared key columns, in key order (not including the rowid or primary-key suffix).</summary>
    public IReadOnlyList<SharcIndexColumn> Columns { get; }
    /// <summary>True for UNIQUE indexes (including those behind PRIMARY KEY and UNIQUE constraints).</summary>
    public bool IsUnique { get; init; }
    /// <summary>True for indexes SQLite created for a PRIMARY KEY or UNIQUE constraint (sqlite_autoindex_*).</summary>
    public bool IsAutoIndex { get; init; }
    /// <summary>True for the index that stores a WITHOUT ROWID table's primary key (that table's own b-tree).</summary>
    public bool IsPrimaryKey { get; init; }
    /// <summary>
    /// The ON CONFLICT algorithm of the PRIMARY KEY or UNIQUE constraint behind an autoindex (Default: none, which
    /// means ABORT; a CREATE UNIQUE INDEX has none).
    /// </summary>
    internal global::Sharc.Sql.Ast.SqlConflictAction OnConflict { get; init; }
    /// <summary>The WHERE clause of a partial index, or null.</summary>
    public string? WhereSql { get; init; }
    /// <summary>True when the index has a WHERE clause.</summary>
    public bool IsPartial => WhereSql is not null;
    /// <summary>True when any key column is an expression.</summary>
    public bool HasExpressions => Columns.Any(c => c.ExpressionSql is not null);

    /// <inheritdoc />
    public override string ToString() => Name;
}

/// <summary>A view of the database schema.</summary>
public sealed class SharcView
{
    /// <summary>Creates a view description.</summary>
    public SharcView(string name, string sql, string selectSql, IReadOnlyList<string> columnNames)
    {
        Name = name;
        Sql = sql;
        SelectSql = selectSql;
        ColumnNames = columnNames;
    }

    /// <summary>The view name.</summary>
    public string Name { get; }
    /// <summary>The CREATE VIEW statement.</summary>
    public string Sql { get; }
    /// <summary>The SELECT statement that defines the view.</summary>
    public string SelectSql { get; }
    /// <summary>Column names given explicitly after the view name (empty when none).</summary>
    public IReadOnlyList<string> ColumnNames { get; }

    /// <inheritdoc />
    public override string ToString() => Name;
}

/// <summary>A trigger of the database schema (recognized, not executed by the reader).</summary>
public sealed class SharcTrigger
{
    /// <summary>Creates a trigger description.</summary>
    public SharcTrigger(string name, string tableName, string sql)
    {
        Name = name;
        TableName = tableName;
        Sql = sql;
    }

    /// <summary>The trigger name.</summary>
    public string Name { get; }
    /// <summary>The table the trigger is attached to.</summary>
    public string TableName { get; }
    /// <summary>The CREATE TRIGGER statement.</summary>
    public string Sql { get; }
}
