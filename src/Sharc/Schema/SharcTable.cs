using Sharc.Schema.Parsing;

namespace Sharc;

/// <summary>A table of the database schema.</summary>
public sealed class SharcTable
{
    /// <summary>Creates a table description.</summary>
    public SharcTable(string name, uint rootPage, string sql, IReadOnlyList<SharcColumn> columns)
    {
        Name = name;
        RootPage = rootPage;
        Sql = sql;
        Columns = columns;
    }

    /// <summary>The table name.</summary>
    public string Name { get; }
    /// <summary>The root page of the table's b-tree (0 for virtual tables).</summary>
    public uint RootPage { get; }
    /// <summary>The CREATE statement from sqlite_schema.</summary>
    public string Sql { get; }
    /// <summary>The columns in declaration order.</summary>
    public IReadOnlyList<SharcColumn> Columns { get; }
    /// <summary>True for WITHOUT ROWID tables: stored as an index b-tree keyed by the primary key.</summary>
    public bool IsWithoutRowId { get; init; }
    /// <summary>True for STRICT tables.</summary>
    public bool IsStrict { get; init; }
    /// <summary>True for virtual tables (CREATE VIRTUAL TABLE); their rows are not readable without the module.</summary>
    public bool IsVirtual { get; init; }
    /// <summary>True when the primary key is declared AUTOINCREMENT.</summary>
    public bool IsAutoIncrement { get; init; }
    /// <summary>The ON CONFLICT algorithm of the INTEGER PRIMARY KEY (Default: none, which means ABORT).</summary>
    internal global::Sharc.Sql.Ast.SqlConflictAction RowIdConflict { get; init; }

    /// <summary>
    /// True when a NOT NULL, PRIMARY KEY or UNIQUE constraint names its own conflict algorithm: only then does a
    /// write without an OR clause need to resolve each conflict by its constraint.
    /// </summary>
    internal bool HasConflictClauses => _hasConflictClauses ??= FindConflictClauses();

    private bool? _hasConflictClauses;

    private bool FindConflictClauses()
    {
        {
            if (RowIdConflict != global::Sharc.Sql.Ast.SqlConflictAction.Default) return true;
            foreach (var c in Columns) if (c.NotNullConflict != global::Sharc.Sql.Ast.SqlConflictAction.Default) return true;
            foreach (var ix in Indexes) if (ix.OnConflict != global::Sharc.Sql.Ast.SqlConflictAction.Default) return true;
            return false;
        }
    }
    /// <summary>The ordinal of the INTEGER PRIMARY KEY column, or -1.</summary>
    public int RowIdAliasOrdinal { get; init; } = -1;
    /// <summary>The primary key column ordinals in key order (empty when the table has none).</summary>
    public IReadOnlyList<int> PrimaryKey { get; init; } = [];
    /// <summary>Collation per primary key column (parallel to <see cref="PrimaryKey"/>).</summary>
    public IReadOnlyList<string> PrimaryKeyCollations { get; init; } = [];
    /// <summary>True per primary key column when declared DESC (parallel to <see cref="PrimaryKey"/>).</summary>
    public IReadOnlyList<bool> PrimaryKeyDescending { get; init; } = [];
    /// <summary>CHECK constraints (column and table constraints) in declaration order.</summary>
    public IReadOnlyList<SharcCheck> Checks { get; init; } = [];
    /// <summary>FOREIGN KEY constraints in declaration order.</summary>
    public IReadOnlyList<SharcForeignKey> ForeignKeys { get; init; } = [];
    /// <summary>The indexes on this table, including sqlite_autoindex_* indexes.</summary>
    public IReadOnlyList<SharcIndex> Indexes { get; internal set; } = [];

    /// <summary>The column with this name (ASCII case-insensitive, as SQLite matches identifiers), or null.</summary>
    public SharcColumn? FindColumn(string name)
    {
        foreach (var c in Columns)
            if (SqlNameComparer.Instance.Equals(c.Name, name)) return c;
        return null;
    }

    /// <inheritdoc />
    public override string ToString() => Name;
}
