using Sharc.Sql.Ast;
namespace Sharc.Schema.Parsing;

/// <summary>A column as CREATE TABLE builds it up, before it becomes a <see cref="SharcColumn"/>.</summary>
internal sealed class ColumnDefinition
{
    public required string Name { get; init; }
    public required int Ordinal { get; init; }
    /// <summary>The type as PRAGMA table_info reports it (standard names upper-cased, quotes removed).</summary>
    public required string DeclaredType { get; init; }
    /// <summary>True when a type was written, even one that is empty once unquoted (then the affinity is NUMERIC).</summary>
    public bool HasType { get; init; }
    /// <summary>Upper-case standard type (ANY, BLOB, INT, INTEGER, REAL, TEXT) or null; STRICT tables require one.</summary>
    public string? StandardType { get; init; }
    public SharcAffinity Affinity { get; set; }
    public string? Collation { get; set; }
    public bool NotNull { get; set; }
    /// <summary>The ON CONFLICT clause of the NOT NULL constraint (Default when it has none).</summary>
    public SqlConflictAction NotNullConflict { get; set; }
    public bool IsUnique { get; set; }
    public bool InPrimaryKey { get; set; }
    public bool HasDefault { get; set; }
    public string? DefaultSql { get; set; }
    /// <summary>The DEFAULT expression, or null when it could not be analysed (then it is not constant).</summary>
    public SqlExpr? DefaultExpression { get; set; }
    /// <summary>True for "DEFAULT name", where SQLite reads the name as text.</summary>
    public bool DefaultIsIdentifier { get; set; }
    public SharcGeneratedKind Generated { get; set; }
    public string? GeneratedSql { get; set; }
}

/// <summary>One key column of a PRIMARY KEY or UNIQUE constraint.</summary>
internal readonly record struct KeyColumn(int Ordinal, string Collation, bool Descending);

/// <summary>An index SQLite creates for a PRIMARY KEY or UNIQUE constraint (a sqlite_autoindex_* index).</summary>
internal sealed class ConstraintIndex
{
    public required string Name { get; init; }
    public required List<KeyColumn> Columns { get; init; }
    public bool IsPrimaryKey { get; set; }
    /// <summary>The constraint's ON CONFLICT clause (Default when it has none).</summary>
    public SqlConflictAction Conflict { get; set; }
}

/// <summary>
/// The state SQLite keeps while it processes a CREATE TABLE statement, with the same side effects in the
/// same order: constraint indexes are numbered as they are met, identical UNIQUE constraints collapse into one,
/// a later COLLATE clause updates the column's earlier constraint indexes, and the INTEGER PRIMARY KEY rules
/// (including the "INTEGER PRIMARY KEY DESC" quirk) decide whether the table gets a rowid alias.
/// </summary>
internal sealed class TableDefinition
{
    private const int MaxColumns = 2000; // SQLite's default SQLITE_MAX_COLUMN
    private readonly SqlTokenStream _ts;
    private readonly Dictionary<string, int> _columnIndex = new(SqlNameComparer.Instance);
    private bool _hasPrimaryKey;
    private bool _rowIdAliasDescending;

    public TableDefinition(SqlTokenStream ts, string name)
    {
        _ts = ts;
        Name = name;
    }

    public string Name { get; }
    public bool IsVirtual { get; init; }
    public List<ColumnDefinition> Columns { get; } = new();
    /// <summary>Constraint indexes in the order SQLite created them; their names carry that order.</summary>
    public List<ConstraintIndex> Indexes { get; } = new();
    /// <summary>Ordinal of the INTEGER PRIMARY KEY (rowid alias) column, or -1.</summary>
    public int RowIdAlias { get; private set; } = -1;
    /// <summary>The ON CONFLICT clause of the INTEGER PRIMARY KEY (Default when it has none).</summary>
    public SqlConflictAction RowIdConflict { get; private set; }
    public bool AutoIncrement { get; private set; }
    public bool WithoutRowId { get; set; }
    public bool Strict { get; set; }
    /// <summary>The primary key columns in key order (empty when there is none).</summary>
    public List<KeyColumn> PrimaryKey { get; } = new();

    /// <summary>CHECK constraints in declaration order.</summary>
    public List<SharcCheck> Checks { get; } = new();
    /// <summary>FOREIGN KEY constraints in declaration order.</summary>
    public List<SharcForeignKey> ForeignKeys { get; } = new();

    /// <summary>REFERENCES: on the last column (<paramref name="childColumns"/> null) or as a table constraint.</summary>
    public void AddForeignKey(List<string>? childColumns, string parent, List<string> parentColumns,
        SharcForeignKeyAction onDelete, SharcForeignKeyAction onUpdate, SqlToken at)
    {
        var ordinals = new List<int>();
        if (childColumns is null)
        {
            if (parentColumns.Count > 1)
                throw _ts.Error($"foreign key on {Last.Name} should reference only one column of table {parent}", at);
            ordinals.Add(Last.Ordinal);
        }
        else
        {
            if (parentColumns.Count > 0 && parentColumns.Count != childColumns.Count)
                throw _ts.Error("number of columns in foreign key does not match the number of columns in the referenced table", at);
            foreach (var name in childColumns)
                ordinals.Add((FindColumn(name) ?? throw _ts.Error($"unknown column \"{name}\" in foreign key definition", at)).Ordinal);
        }
        ForeignKeys.Add(new SharcForeignKey(ordinals, parent, parentColumns)
        {
            OnDelete = onDelete,
            OnUpdate = onUpdate,
            IsColumnConstraint = childColumns is null,
        });
    }

    /// <summary>A DEFERRABLE clause applies to the foreign key just declared (SQLite's sqlite3DeferForeignKey).</summary>
    public void DeferLastForeignKey(bool deferred)
    {
        if (ForeignKeys.Count == 0) return;
        var fk = ForeignKeys[^1];
        ForeignKeys[^1] = new SharcForeignKey(fk.Columns, fk.ParentTable, fk.ParentColumns)
        {
            OnDelete = fk.OnDelete,
            OnUpdate = fk.OnUpdate,
            IsDeferred = deferred,
            IsColumnConstraint = fk.IsColumnConstraint,
        };
    }

    public ColumnDefinition? FindColumn(string name) => _columnIndex.TryGetValue(name, out int i) ? Columns[i] : null;

    public void AddColumn(string name, string declaredType, bool hasType, string? standardType, SqlToken at)
    {
        if (_columnIndex.ContainsKey(name)) throw _ts.Error($"duplicate column name: {name}", at);
        if (Columns.Count >= MaxColumns) throw _ts.Error($"too many columns on {Name}", at);
        var affinity = standardType switch
        {
            "INT" or "INTEGER" => SharcAffinity.Integer,
            "REAL" => SharcAffinity.Real,
            "TEXT" => SharcAffinity.Text,
            "BLOB" => SharcAffinity.Blob,
            "ANY" => SharcAffinity.Numeric,
            _ => hasType ? AffinityRules.FromTypeText(declaredType) : SharcAffinity.Blob,
        };
        _columnIndex.Add(name, Columns.Count);
        Columns.Add(new ColumnDefinition
        {
            Name = name,
            Ordinal = Columns.Count,
            DeclaredType = declaredType,
            HasType = hasType,
            StandardType = standardType,
            Affinity = affinity,
        });
    }

    private ColumnDefinition Last => Columns[^1];

    /// <summary>COLLATE on a column also retargets the constraint indexes already made for that column.</summary>
    public void SetCollation(string collation)
    {
        var column = Last;
        column.Collation = collation;
        foreach (var index in Indexes)
        {
            if (index.Columns[0].Ordinal == column.Ordinal)
            {
                index.Columns[0] = index.Columns[0] with { Collation = collation };
            }
        }
    }

    public void SetDefault(string sql, SqlExpr? expression, bool isIdentifier, SqlToken at)
    {
        var column = Last;
        if (column.Generated != SharcGeneratedKind.None) throw _ts.Error("cannot use DEFAULT on a generated column", at);
        column.HasDefault = true;
        column.DefaultSql = sql;
        column.DefaultExpression = expression;
        column.DefaultIsIdentifier = isIdentifier;
    }

    public void SetGenerated(string sql, SharcGeneratedKind kind, SqlToken at)
    {
        var column = Last;
        if (column.HasDefault || column.Generated != SharcGeneratedKind.None)
        {
            throw _ts.Error($"error in generated column \"{column.Name}\"", at);
        }
        if (column.InPrimaryKey) throw _ts.Error("generated columns cannot be part of the PRIMARY KEY", at);
        column.Generated = kind;
        column.GeneratedSql = sql;
    }

    /// <summary>A key term of a PRIMARY KEY or UNIQUE constraint; the column name is null for an expression.</summary>
    public readonly record struct Term(string? ColumnName, string? Collation, bool Descending, SqlToken At);

    /// <summary>PRIMARY KEY, either on the last column (<paramref name="terms"/> null) or as a table constraint.</summary>
    public void AddPrimaryKey(List<Term>? terms, bool columnDescending, bool autoIncrement, SqlToken at, SqlConflictAction conflict = SqlConflictAction.Default)
    {
        if (_hasPrimaryKey) throw _ts.Error($"table \"{Name}\" has more than one primary key", at);
        _hasPrimaryKey = true;

        ColumnDefinition? single = null;
        if (terms is null)
        {
            single = Last;
            MarkPrimaryKey(single, at);
        }
        else
        {
            foreach (var term in terms)
            {
                var column = term.ColumnName is null ? null : FindColumn(term.ColumnName);
                if (column is null) continue;
                MarkPrimaryKey(column, at);
                if (terms.Count == 1) single = column;
            }
        }

        // The type must be spelled exactly INTEGER; only a column-level DESC prevents the alias
        // (PRIMARY KEY(x DESC) as a table constraint still makes x the rowid).
        if (single is not null && single.StandardType == "INTEGER" && !columnDescending)
        {
            RowIdAlias = single.Ordinal;
            RowIdConflict = conflict;
            AutoIncrement = autoIncrement;
            _rowIdAliasDescending = terms is not null && terms[0].Descending;
            return;
        }
        if (autoIncrement) throw _ts.Error("AUTOINCREMENT is only allowed on an INTEGER PRIMARY KEY", at);
        AddConstraintIndex(terms ?? [new Term(Last.Name, null, columnDescending, at)], primaryKey: true, conflict, at);
    }

    private void MarkPrimaryKey(ColumnDefinition column, SqlToken at)
    {
        if (column.Generated != SharcGeneratedKind.None) throw _ts.Error("generated columns cannot be part of the PRIMARY KEY", at);
        column.InPrimaryKey = true;
    }

    /// <summary>UNIQUE, either on the last column (<paramref name="terms"/> null) or as a table constraint.</summary>
    public void AddUnique(List<Term>? terms, SqlToken at, SqlConflictAction conflict = SqlConflictAction.Default)
    {
        if (terms is null) Last.IsUnique = true;
        AddConstraintIndex(terms ?? [new Term(Last.Name, null, false, at)], primaryKey: false, conflict, at);
    }

    private void AddConstraintIndex(List<Term> terms, bool primaryKey, SqlConflictAction conflict, SqlToken at)
    {
        var columns = new List<KeyColumn>(terms.Count);
        foreach (var term in terms)
        {
            if (term.ColumnName is null) throw _ts.Error("expressions prohibited in PRIMARY KEY and UNIQUE constraints", term.At);
            var column = FindColumn(term.ColumnName) ?? throw _ts.Error($"no such column: {term.ColumnName}", term.At);
            columns.Add(new KeyColumn(column.Ordinal, term.Collation ?? column.Collation ?? "BINARY", term.Descending));
        }

        // The number is taken before the duplicate check, so a dropped duplicate leaves no gap.
        string name = $"sqlite_autoindex_{Name}_{Indexes.Count + 1}";
        foreach (var existing in Indexes)
        {
            if (SameKey(existing.Columns, columns))
            {
                // One index serves both constraints, so it can have only one algorithm; an unstated one gives way.
                if (existing.Conflict != conflict)
                {
                    if (existing.Conflict != SqlConflictAction.Default && conflict != SqlConflictAction.Default)
                        throw _ts.Error("conflicting ON CONFLICT clauses specified", at);
                    if (existing.Conflict == SqlConflictAction.Default) existing.Conflict = conflict;
                }
                if (primaryKey) existing.IsPrimaryKey = true;
                return;
            }
        }
        Indexes.Add(new ConstraintIndex { Name = name, Columns = columns, IsPrimaryKey = primaryKey, Conflict = conflict });
    }

    /// <summary>SQLite's duplicate test: same columns with the same collations; sort order is not compared.</summary>
    private static bool SameKey(List<KeyColumn> a, List<KeyColumn> b)
    {
        if (a.Count != b.Count) return false;
        for (int i = 0; i < a.Count; i++)
        {
            if (a[i].Ordinal != b[i].Ordinal || !SqlText.EqualsIgnoreCase(a[i].Collation, b[i].Collation)) return false;
        }
        return true;
    }

    /// <summary>The checks and conversions SQLite makes when the statement ends (sqlite3EndTable).</summary>
    public void Finish(SqlToken at)
    {
        if (IsVirtual) return;
        if (Columns.TrueForAll(c => c.Generated != SharcGeneratedKind.None))
        {
            throw _ts.Error("must have at least one non-generated column", at);
        }
        if (Strict)
        {
            foreach (var c in Columns)
            {
                if (c.StandardType is null)
                {
                    throw c.HasType
                        ? _ts.Error($"unknown datatype for {Name}.{c.Name}: \"{c.DeclaredType}\"", at)
                        : _ts.Error($"missing datatype for {Name}.{c.Name}", at);
                }
                if (c.StandardType == "ANY") c.Affinity = SharcAffinity.Blob;
                if (c.InPrimaryKey && c.Ordinal != RowIdAlias) c.NotNull = true;
            }
        }

        if (WithoutRowId)
        {
            if (AutoIncrement) throw _ts.Error("AUTOINCREMENT not allowed on WITHOUT ROWID tables", at);
            if (!_hasPrimaryKey) throw _ts.Error($"PRIMARY KEY missing on table {Name}", at);
            if (RowIdAlias >= 0)
            {
                // The INTEGER PRIMARY KEY becomes an ordinary key index now, numbered after the UNIQUE ones.
                // Its collation is the column's, even when the constraint named another.
                var column = Columns[RowIdAlias];
                RowIdAlias = -1;
                AddConstraintIndex([new Term(column.Name, column.Collation, _rowIdAliasDescending, at)], primaryKey: true, RowIdConflict, at);
                RowIdConflict = SqlConflictAction.Default;
            }
            var pk = Indexes.Find(i => i.IsPrimaryKey)!;
            RemoveRepeatedKeyColumns(pk.Columns);
            PrimaryKey.AddRange(pk.Columns);
            foreach (var c in Columns)
            {
                if (c.InPrimaryKey) c.NotNull = true;
            }
        }
        else if (RowIdAlias >= 0)
        {
            var column = Columns[RowIdAlias];
            PrimaryKey.Add(new KeyColumn(column.Ordinal, column.Collation ?? "BINARY", _rowIdAliasDescending));
        }
        else if (Indexes.Find(i => i.IsPrimaryKey) is { } pk)
        {
            PrimaryKey.AddRange(pk.Columns);
        }
    }

    /// <summary>A WITHOUT ROWID key keeps one copy of a column repeated with the same collation.</summary>
    private static void RemoveRepeatedKeyColumns(List<KeyColumn> key)
    {
        for (int i = key.Count - 1; i > 0; i--)
        {
            for (int j = 0; j < i; j++)
            {
                if (key[j].Ordinal == key[i].Ordinal && SqlText.EqualsIgnoreCase(key[j].Collation, key[i].Collation))
                {
                    key.RemoveAt(i);
                    break;
                }
            }
        }
    }

    /// <summary>The public description of this table.</summary>
    public SharcTable ToSharcTable(uint rootPage, string sql)
    {
        var columns = new SharcColumn[Columns.Count];
        for (int i = 0; i < columns.Length; i++) columns[i] = ToSharcColumn(Columns[i]);
        var pkCollations = new string[PrimaryKey.Count];
        var pkDescending = new bool[PrimaryKey.Count];
        var pkOrdinals = new int[PrimaryKey.Count];
        for (int i = 0; i < PrimaryKey.Count; i++)
        {
            pkOrdinals[i] = PrimaryKey[i].Ordinal;
            pkCollations[i] = PrimaryKey[i].Collation;
            pkDescending[i] = PrimaryKey[i].Descending;
        }
        return new SharcTable(Name, rootPage, sql, columns)
        {
            IsWithoutRowId = WithoutRowId,
            IsStrict = Strict,
            IsVirtual = IsVirtual,
            IsAutoIncrement = AutoIncrement,
            RowIdAliasOrdinal = RowIdAlias,
            RowIdConflict = RowIdConflict,
            PrimaryKey = pkOrdinals,
            PrimaryKeyCollations = pkCollations,
            PrimaryKeyDescending = pkDescending,
            Checks = [.. Checks],
            ForeignKeys = [.. ForeignKeys],
        };
    }

    private SharcColumn ToSharcColumn(ColumnDefinition c)
    {
        object? value = null;
        bool constant = true;
        if (c.Generated != SharcGeneratedKind.None)
        {
            constant = false;
        }
        else if (c.HasDefault)
        {
            constant = c.DefaultExpression is not null
                && DefaultValueEvaluator.TryEvaluate(_ts, c.DefaultExpression, c.DefaultIsIdentifier, c.Affinity, out value);
            if (!constant) value = null;
        }
        int pkPosition = PrimaryKey.FindIndex(k => k.Ordinal == c.Ordinal);
        return new SharcColumn(c.Name, c.Ordinal, c.DeclaredType)
        {
            Affinity = c.Affinity,
            Collation = c.Collation ?? "BINARY",
            DefaultSql = c.Generated == SharcGeneratedKind.None ? c.DefaultSql : null,
            DefaultValue = value,
            HasConstantDefault = constant,
            IsPrimaryKey = c.InPrimaryKey,
            PrimaryKeyPosition = pkPosition,
            IsRowIdAlias = c.Ordinal == RowIdAlias,
            IsNotNull = c.NotNull,
            NotNullConflict = c.NotNull ? c.NotNullConflict : SqlConflictAction.Default,
            IsUnique = c.IsUnique,
            Generated = c.Generated,
            GeneratedSql = c.GeneratedSql,
            StrictType = Strict ? c.StandardType : null,
        };
    }
}
