namespace Sharc;

/// <summary>How a generated column is computed.</summary>
public enum SharcGeneratedKind
{
    /// <summary>An ordinary column.</summary>
    None = 0,
    /// <summary>GENERATED ALWAYS AS (…) VIRTUAL: computed when read, not stored in the record.</summary>
    Virtual = 1,
    /// <summary>GENERATED ALWAYS AS (…) STORED: computed on write, stored in the record.</summary>
    Stored = 2,
}

/// <summary>One column of a table, as declared in its CREATE TABLE statement.</summary>
public sealed class SharcColumn
{
    /// <summary>Creates a column description.</summary>
    public SharcColumn(string name, int ordinal, string declaredType)
    {
        Name = name;
        Ordinal = ordinal;
        DeclaredType = declaredType;
    }

    /// <summary>The column name, unquoted.</summary>
    public string Name { get; }
    /// <summary>The position of the column in the table, from 0.</summary>
    public int Ordinal { get; }
    /// <summary>The declared type as written (may be empty).</summary>
    public string DeclaredType { get; }
    /// <summary>The affinity derived from the declared type.</summary>
    public SharcAffinity Affinity { get; init; }
    /// <summary>The collation named by a COLLATE clause, or "BINARY".</summary>
    public string Collation { get; init; } = "BINARY";
    /// <summary>The DEFAULT expression as written, or null when there is none.</summary>
    public string? DefaultSql { get; init; }
    /// <summary>
    /// The DEFAULT value when it is a constant (null, long, double, string or byte[]), with the column's affinity
    /// applied; null when there is no default, it is NULL, or it is not constant (see <see cref="HasConstantDefault"/>).
    /// </summary>
    public object? DefaultValue { get; init; }
    /// <summary>True when <see cref="DefaultValue"/> holds the column's constant default (which may be NULL).</summary>
    public bool HasConstantDefault { get; init; } = true;
    /// <summary>True when the column is part of the table's primary key.</summary>
    public bool IsPrimaryKey { get; init; }
    /// <summary>The position of this column within the primary key (0-based), or -1.</summary>
    public int PrimaryKeyPosition { get; init; } = -1;
    /// <summary>True for the INTEGER PRIMARY KEY column of a rowid table: it reads as the rowid.</summary>
    public bool IsRowIdAlias { get; init; }
    /// <summary>True when declared NOT NULL.</summary>
    public bool IsNotNull { get; init; }
    /// <summary>True when the column has a column-level UNIQUE constraint.</summary>
    public bool IsUnique { get; init; }
    /// <summary>The algorithm of the NOT NULL constraint's ON CONFLICT clause (Default: none, which means ABORT).</summary>
    internal global::Sharc.Sql.Ast.SqlConflictAction NotNullConflict { get; init; }
    /// <summary>Whether and how the column is generated.</summary>
    public SharcGeneratedKind Generated { get; init; }
    /// <summary>The generating expression's SQL for generated columns.</summary>
    public string? GeneratedSql { get; init; }
    /// <summary>
    /// In a STRICT table, the column's type as SQLite names it in messages (ANY, BLOB, INT, INTEGER, REAL or TEXT);
    /// null in other tables.
    /// </summary>
    internal string? StrictType { get; init; }
    /// <summary>True for a hidden column (virtual table columns); never true for ordinary tables.</summary>
    public bool IsHidden { get; init; }

    /// <inheritdoc />
    public override string ToString() => DeclaredType.Length == 0 ? Name : $"{Name} {DeclaredType}";
}
