using Sharc.Sql.Ast;
namespace Sharc.Schema.Parsing;

/// <summary>
/// Parses the body of CREATE TABLE and CREATE VIRTUAL TABLE (everything after the TABLE keyword) with
/// SQLite's grammar, feeding each clause to a <see cref="TableDefinition"/>.
/// </summary>
internal sealed class CreateTableParser
{
    private readonly SqlTokenStream _ts;
    private TableDefinition _table = null!;
    // SQLite's pParse->constraintName: a CONSTRAINT name applies to the constraints that follow it, until the next
    // column definition or the comma before the next table constraint.
    private string? _constraintName;

    private CreateTableParser(SqlTokenStream ts) => _ts = ts;

    /// <summary>Parses "[IF NOT EXISTS] [schema.]name ( … ) [options]" and returns the table and its name as written.</summary>
    public static (TableDefinition Table, QualifiedName Name) ParseTable(SqlTokenStream ts)
    {
        var parser = new CreateTableParser(ts);
        return parser.Table();
    }

    /// <summary>Parses "[IF NOT EXISTS] [schema.]name USING module [( args )]".</summary>
    public static (TableDefinition Table, QualifiedName Name) ParseVirtualTable(SqlTokenStream ts)
    {
        SkipIfNotExists(ts);
        var name = ts.ExpectQualifiedName();
        ts.ExpectWord("USING");
        ts.ExpectName();
        if (ts.Peek().Kind == SqlTokenKind.LeftParen) ts.SkipParenthesized();
        ts.ExpectStatementEnd();
        return (new TableDefinition(ts, name.Name) { IsVirtual = true }, name);
    }

    /// <summary>Consumes IF NOT EXISTS when present.</summary>
    public static void SkipIfNotExists(SqlTokenStream ts)
    {
        if (!ts.TryWord("IF")) return;
        ts.ExpectWord("NOT");
        ts.ExpectWord("EXISTS");
    }

    private (TableDefinition, QualifiedName) Table()
    {
        SkipIfNotExists(_ts);
        var name = _ts.ExpectQualifiedName();
        _table = new TableDefinition(_ts, name.Name);
        if (_ts.PeekWord("AS"))
        {
            // SQLite stores CREATE TABLE … AS SELECT as an expanded column list; this form cannot be in a schema.
            throw _ts.Error("CREATE TABLE AS SELECT cannot be read from a schema", _ts.Peek());
        }
        _ts.Expect(SqlTokenKind.LeftParen);

        bool constraints = false;
        while (true)
        {
            _constraintName = null;
            ColumnDef();
            if (_ts.TryKind(SqlTokenKind.RightParen)) break;
            _ts.Expect(SqlTokenKind.Comma);
            if (IsTableConstraintStart())
            {
                constraints = true;
                break;
            }
        }
        if (constraints)
        {
            while (true)
            {
                TableConstraint();
                if (_ts.TryKind(SqlTokenKind.RightParen)) break;
                // Table constraints may be separated by a comma or just by whitespace.
                if (_ts.TryKind(SqlTokenKind.Comma))
                {
                    _constraintName = null;
                    if (!IsTableConstraintStart()) throw _ts.SyntaxError();
                }
                if (!IsTableConstraintStart()) throw _ts.SyntaxError();
            }
        }

        var end = _ts.Peek();
        TableOptions();
        _ts.ExpectStatementEnd();
        _table.Finish(end);
        return (_table, name);
    }

    private bool IsTableConstraintStart()
        => _ts.PeekWord("CONSTRAINT") || _ts.PeekWord("PRIMARY") || _ts.PeekWord("UNIQUE")
           || _ts.PeekWord("CHECK") || _ts.PeekWord("FOREIGN");

    private void TableOptions()
    {
        if (_ts.AtStatementEnd) return;
        do
        {
            var t = _ts.Peek();
            if (_ts.TryWord("WITHOUT"))
            {
                var option = _ts.Peek();
                _ts.ExpectName();
                if (!SqlText.EqualsIgnoreCase(_ts.Text(option), "ROWID"))
                {
                    throw _ts.Error($"unknown table option: {_ts.Text(option)}", option);
                }
                _table.WithoutRowId = true;
                continue;
            }
            _ts.ExpectName();
            if (!SqlText.EqualsIgnoreCase(_ts.Text(t), "STRICT")) throw _ts.Error($"unknown table option: {_ts.Text(t)}", t);
            _table.Strict = true;
        } while (_ts.TryKind(SqlTokenKind.Comma));
    }

    private void ColumnDef()
    {
        var nameToken = _ts.Peek();
        string name = _ts.ExpectName();
        var (declaredType, hasType, standardType) = TypeName();
        _table.AddColumn(name, declaredType, hasType, standardType, nameToken);
        ColumnConstraints();
        if (_ts.Peek().Kind is not (SqlTokenKind.Comma or SqlTokenKind.RightParen)) throw _ts.SyntaxError();
    }

    /// <summary>
    /// Reads the type name and returns it as PRAGMA table_info shows it: the source text of the type words
    /// (and any "(n, m)"), a trailing "GENERATED ALWAYS" removed (the parser takes those keywords as type
    /// words), unquoted, and upper-cased when it is one of the standard names.
    /// </summary>
    private (string Declared, bool HasType, string? Standard) TypeName()
    {
        int first = _ts.Index;
        while (_ts.IsIds(_ts.Peek())) _ts.Index++;
        if (_ts.Index == first) return (string.Empty, false, null);
        if (_ts.Peek().Kind == SqlTokenKind.LeftParen)
        {
            _ts.Index++;
            SignedNumber();
            if (_ts.TryKind(SqlTokenKind.Comma)) SignedNumber();
            _ts.Expect(SqlTokenKind.RightParen);
        }
        var text = _ts.Span(first, _ts.Index - 1).AsSpan();

        if (text.Length >= 16 && SqlText.EndsWithIgnoreCase(text, "ALWAYS"))
        {
            text = text[..^6].TrimEnd(" \t\n\v\f\r");
            if (text.Length >= 9 && SqlText.EndsWithIgnoreCase(text, "GENERATED")) text = text[..^9].TrimEnd(" \t\n\v\f\r");
        }
        if (text.Length == 0) return (string.Empty, false, null);
        string declared = SqlText.Dequote(text);
        foreach (var standard in (ReadOnlySpan<string>)["ANY", "BLOB", "INT", "INTEGER", "REAL", "TEXT"])
        {
            if (SqlText.EqualsIgnoreCase(declared, standard)) return (standard, true, standard);
        }
        return (declared, true, null);
    }

    private void SignedNumber()
    {
        if (_ts.Peek().Kind is SqlTokenKind.Plus or SqlTokenKind.Minus) _ts.Index++;
        if (_ts.Peek().Kind is not (SqlTokenKind.Integer or SqlTokenKind.Float)) throw _ts.SyntaxError();
        _ts.Index++;
    }

    private void ColumnConstraints()
    {
        while (true)
        {
            var t = _ts.Peek();
            if (_ts.TryWord("CONSTRAINT"))
            {
                _constraintName = _ts.ExpectName();
            }
            else if (_ts.TryWord("DEFAULT"))
            {
                Default(t);
            }
            else if (_ts.TryWord("NULL"))
            {
                OnConflict(); // SQLite accepts the clause on NULL and ignores it
            }
            else if (_ts.PeekWord("NOT") && _ts.PeekWord("NULL", 1))
            {
                _ts.Index += 2;
                _table.Columns[^1].NotNull = true;
                _table.Columns[^1].NotNullConflict = OnConflict();
            }
            else if (_ts.PeekWord("NOT") || _ts.PeekWord("DEFERRABLE"))
            {
                bool deferred = DeferClause();
                _table.DeferLastForeignKey(deferred);
            }
            else if (_ts.TryWord("PRIMARY"))
            {
                _ts.ExpectWord("KEY");
                bool desc = SortOrder();
                var conflict = OnConflict();
                bool autoIncrement = _ts.TryWord("AUTOINCREMENT");
                _table.AddPrimaryKey(null, desc, autoIncrement, t, conflict);
            }
            else if (_ts.TryWord("UNIQUE"))
            {
                _table.AddUnique(null, t, OnConflict());
            }
            else if (_ts.TryWord("CHECK"))
            {
                Check(_table.Columns[^1].Ordinal);
            }
            else if (_ts.TryWord("REFERENCES"))
            {
                References(null, t);
            }
            else if (_ts.TryWord("COLLATE"))
            {
                _table.SetCollation(CollationName());
            }
            else if (_ts.PeekWord("GENERATED") || _ts.PeekWord("AS"))
            {
                if (_ts.TryWord("GENERATED")) _ts.ExpectWord("ALWAYS");
                _ts.ExpectWord("AS");
                Generated(t);
            }
            else
            {
                return;
            }
        }
    }

    private string CollationName()
    {
        var t = _ts.Peek();
        if (!_ts.IsIds(t)) throw _ts.SyntaxError();
        _ts.Index++;
        return SqlText.Dequote(_ts.Text(t));
    }

    private bool SortOrder()
    {
        if (_ts.TryWord("ASC")) return false;
        return _ts.TryWord("DESC");
    }

    private SqlConflictAction OnConflict()
    {
        if (!_ts.PeekWord("ON") || !_ts.PeekWord("CONFLICT", 1)) return SqlConflictAction.Default;
        _ts.Index += 2;
        if (_ts.TryWord("ROLLBACK")) return SqlConflictAction.Rollback;
        if (_ts.TryWord("ABORT")) return SqlConflictAction.Abort;
        if (_ts.TryWord("FAIL")) return SqlConflictAction.Fail;
        if (_ts.TryWord("IGNORE")) return SqlConflictAction.Ignore;
        if (_ts.TryWord("REPLACE")) return SqlConflictAction.Replace;
        throw _ts.SyntaxError();
    }

    private void Check(int column)
    {
        var (open, close) = _ts.SkipParenthesized();
        if (close == open + 1) throw _ts.SyntaxError(_ts.At(close));
        // Unnamed, SQLite names the constraint by its text between the parentheses (trimmed of white space).
        _table.Checks.Add(new SharcCheck(_constraintName, Inside(open, close)) { ColumnOrdinal = column });
    }

    /// <summary>Returns true for DEFERRABLE INITIALLY DEFERRED, the only form that defers a foreign key.</summary>
    private bool DeferClause()
    {
        bool not = _ts.TryWord("NOT");
        _ts.ExpectWord("DEFERRABLE");
        bool deferred = false;
        if (_ts.TryWord("INITIALLY"))
        {
            if (_ts.TryWord("DEFERRED")) deferred = true;
            else if (!_ts.TryWord("IMMEDIATE")) throw _ts.SyntaxError();
        }
        return deferred && !not;
    }

    /// <summary>"REFERENCES parent [(cols)] [refargs]"; <paramref name="childColumns"/> null for a column constraint.</summary>
    private void References(List<string>? childColumns, SqlToken at)
    {
        string parent = _ts.ExpectName();
        var parentColumns = _ts.Peek().Kind == SqlTokenKind.LeftParen ? NameList() : [];
        var onDelete = SharcForeignKeyAction.NoAction;
        var onUpdate = SharcForeignKeyAction.NoAction;
        while (true)
        {
            if (_ts.TryWord("MATCH"))
            {
                _ts.ExpectName();
            }
            else if (_ts.PeekWord("ON") && !_ts.PeekWord("CONFLICT", 1))
            {
                _ts.Index++;
                int which = _ts.TryWord("DELETE") ? 0 : _ts.TryWord("UPDATE") ? 1 : _ts.TryWord("INSERT") ? 2 : throw _ts.SyntaxError();
                SharcForeignKeyAction action;
                if (_ts.TryWord("SET"))
                {
                    action = _ts.TryWord("NULL") ? SharcForeignKeyAction.SetNull
                        : _ts.TryWord("DEFAULT") ? SharcForeignKeyAction.SetDefault : throw _ts.SyntaxError();
                }
                else if (_ts.TryWord("NO"))
                {
                    _ts.ExpectWord("ACTION");
                    action = SharcForeignKeyAction.NoAction;
                }
                else if (_ts.TryWord("CASCADE")) action = SharcForeignKeyAction.Cascade;
                else if (_ts.TryWord("RESTRICT")) action = SharcForeignKeyAction.Restrict;
                else throw _ts.SyntaxError();
                if (which == 0) onDelete = action;
                else if (which == 1) onUpdate = action; // ON INSERT is accepted and ignored, as SQLite does
            }
            else
            {
                break;
            }
        }
        _table.AddForeignKey(childColumns, parent, parentColumns, onDelete, onUpdate, at);
    }

    /// <summary>A parenthesized list of column names, each optionally with COLLATE and ASC/DESC (accepted, ignored).</summary>
    private List<string> NameList()
    {
        var names = new List<string>();
        _ts.Expect(SqlTokenKind.LeftParen);
        do
        {
            names.Add(_ts.ExpectName());
            if (_ts.TryWord("COLLATE")) CollationName();
            SortOrder();
        } while (_ts.TryKind(SqlTokenKind.Comma));
        _ts.Expect(SqlTokenKind.RightParen);
        return names;
    }

    private void Default(SqlToken at)
    {
        var t = _ts.Peek();
        if (t.Kind == SqlTokenKind.LeftParen)
        {
            int open = _ts.Index;
            _ts.Index++;
            SqlExpr? expr = null;
            if (SqlExpressionParser.TryParse(_ts, out var parsed) && _ts.Peek().Kind == SqlTokenKind.RightParen)
            {
                expr = parsed;
                _ts.Index++;
            }
            else
            {
                _ts.Index = open;
                _ts.SkipParenthesized();
            }
            int close = _ts.Index - 1;
            if (close == open + 1) throw _ts.SyntaxError(_ts.At(close));
            if (expr is not null && !IsConstantShape(expr))
            {
                throw _ts.Error($"default value of column [{_table.Columns[^1].Name}] is not constant", at);
            }
            _table.SetDefault(Inside(open, close), expr, isIdentifier: false, at);
            return;
        }

        int first = _ts.Index;
        if (t.Kind is SqlTokenKind.Plus or SqlTokenKind.Minus)
        {
            _ts.Index++;
            int term = _ts.Index;
            if (!IsTerm(_ts.Peek())) throw _ts.SyntaxError();
            _ts.Index++;
            var literal = new SqlExpr(SqlExprKind.Literal, term, term);
            var unary = new SqlExpr(SqlExprKind.Unary, first, term) { Operand = literal, OpToken = first };
            _table.SetDefault(_ts.Span(first, term), unary, isIdentifier: false, at);
            return;
        }
        if (IsTerm(t))
        {
            _ts.Index++;
            _table.SetDefault(_ts.Span(first, first), new SqlExpr(SqlExprKind.Literal, first, first), isIdentifier: false, at);
            return;
        }
        if (_ts.IsId(t))
        {
            _ts.Index++;
            _table.SetDefault(_ts.Span(first, first), new SqlExpr(SqlExprKind.Name, first, first), isIdentifier: true, at);
            return;
        }
        throw _ts.SyntaxError();
    }

    /// <summary>SQLite's "term" in DEFAULT: a literal or CURRENT_TIME/DATE/TIMESTAMP.</summary>
    private bool IsTerm(SqlToken t) => t.Kind switch
    {
        SqlTokenKind.Integer or SqlTokenKind.Float or SqlTokenKind.String or SqlTokenKind.Blob => true,
        SqlTokenKind.Identifier => _ts.IsWord(t, "NULL") || _ts.IsWord(t, "CURRENT_TIME")
                                   || _ts.IsWord(t, "CURRENT_DATE") || _ts.IsWord(t, "CURRENT_TIMESTAMP"),
        _ => false,
    };

    /// <summary>
    /// SQLite rejects a DEFAULT expression that refers to a column (any name other than TRUE/FALSE), a
    /// parameter or a subquery; functions and operators are allowed.
    /// </summary>
    private bool IsConstantShape(SqlExpr e)
    {
        System.Runtime.CompilerServices.RuntimeHelpers.EnsureSufficientExecutionStack();
        switch (e.Kind)
        {
            case SqlExprKind.Name:
                var t = _ts.At(e.First);
                return t.Kind == SqlTokenKind.Identifier && (_ts.IsWord(t, "TRUE") || _ts.IsWord(t, "FALSE"));
            case SqlExprKind.QualifiedName:
            case SqlExprKind.Variable:
                return false;
            case SqlExprKind.Opaque:
                return e.Children is { } items && items.TrueForAll(IsConstantShape);
        }
        if (e.Operand is not null && !IsConstantShape(e.Operand)) return false;
        return e.Children is null || e.Children.TrueForAll(IsConstantShape);
    }

    private void Generated(SqlToken at)
    {
        var (open, close) = _ts.SkipParenthesized();
        if (close == open + 1) throw _ts.SyntaxError(_ts.At(close));
        var kind = SharcGeneratedKind.Virtual;
        var t = _ts.Peek();
        if (_ts.IsId(t))
        {
            _ts.Index++;
            var word = _ts.Text(t);
            if (t.Kind == SqlTokenKind.Identifier && SqlText.EqualsIgnoreCase(word, "STORED")) kind = SharcGeneratedKind.Stored;
            else if (t.Kind != SqlTokenKind.Identifier || !SqlText.EqualsIgnoreCase(word, "VIRTUAL"))
            {
                throw _ts.Error($"error in generated column \"{_table.Columns[^1].Name}\"", t);
            }
        }
        _table.SetGenerated(Inside(open, close), kind, at);
    }

    /// <summary>The text between two parenthesis tokens, comments included, trimmed as SQLite trims DEFAULT text.</summary>
    private string Inside(int open, int close)
        => SqlText.TrimSpace(_ts.Sql.AsSpan(_ts.At(open).End, _ts.At(close).Start - _ts.At(open).End)).ToString();

    private void TableConstraint()
    {
        var t = _ts.Peek();
        if (_ts.TryWord("CONSTRAINT"))
        {
            _constraintName = _ts.ExpectName();
        }
        else if (_ts.TryWord("PRIMARY"))
        {
            _ts.ExpectWord("KEY");
            var (terms, autoIncrement) = KeyTerms(allowAutoIncrement: true);
            _table.AddPrimaryKey(terms, columnDescending: false, autoIncrement, t, OnConflict());
        }
        else if (_ts.TryWord("UNIQUE"))
        {
            var (terms, _) = KeyTerms(allowAutoIncrement: false);
            _table.AddUnique(terms, t, OnConflict());
        }
        else if (_ts.TryWord("CHECK"))
        {
            Check(-1);
            OnConflict(); // SQLite parses it and ignores it: a CHECK follows the statement's OR clause, else ABORT
        }
        else if (_ts.TryWord("FOREIGN"))
        {
            _ts.ExpectWord("KEY");
            var children = NameList();
            _ts.ExpectWord("REFERENCES");
            References(children, t);
            if (_ts.PeekWord("DEFERRABLE") || (_ts.PeekWord("NOT") && _ts.PeekWord("DEFERRABLE", 1))) _table.DeferLastForeignKey(DeferClause());
        }
        else
        {
            throw _ts.SyntaxError();
        }
    }

    /// <summary>The "( key, … [AUTOINCREMENT] )" list of a PRIMARY KEY or UNIQUE table constraint.</summary>
    private (List<TableDefinition.Term> Terms, bool AutoIncrement) KeyTerms(bool allowAutoIncrement)
    {
        _ts.Expect(SqlTokenKind.LeftParen);
        var terms = new List<TableDefinition.Term>();
        do
        {
            var key = IndexKeyParser.Parse(_ts);
            terms.Add(new TableDefinition.Term(key.ConstraintColumnName, key.Collation, key.Descending, _ts.At(key.First)));
        } while (_ts.TryKind(SqlTokenKind.Comma));
        bool autoIncrement = allowAutoIncrement && _ts.TryWord("AUTOINCREMENT");
        _ts.Expect(SqlTokenKind.RightParen);
        return (terms, autoIncrement);
    }
}
