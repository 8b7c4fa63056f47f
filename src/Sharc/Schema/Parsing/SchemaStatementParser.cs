namespace Sharc.Schema.Parsing;

/// <summary>The kind of object a CREATE statement defines, named as in sqlite_schema.type.</summary>
internal enum SchemaObjectKind
{
    Table,
    Index,
    View,
    Trigger,
}

/// <summary>A parsed CREATE statement from sqlite_schema.sql.</summary>
internal sealed class SchemaStatement
{
    public required SchemaObjectKind Kind { get; init; }
    /// <summary>The object name, unquoted.</summary>
    public required string Name { get; init; }
    /// <summary>True when the name was written as schema.name (SQLite refuses that in a stored schema).</summary>
    public bool Qualified => Schema is not null;
    /// <summary>The schema the name was qualified with, unquoted, or null.</summary>
    public string? Schema { get; init; }
    /// <summary>CREATE TEMP / TEMPORARY.</summary>
    public bool Temporary { get; set; }
    /// <summary>Where the unqualified object name starts in the text: SQLite stores the statement from there.</summary>
    public int NameStart { get; init; }
    /// <summary>Where the statement's last token ends.</summary>
    public int LastTokenEnd { get; set; }
    /// <summary>
    /// Where the token that ended the statement starts: its ';', or the end of the text. Whitespace and comments
    /// before it lie between <see cref="LastTokenEnd"/> and here.
    /// </summary>
    public int TerminatorStart { get; set; }
    /// <summary>The table an index or trigger belongs to; the object itself for tables and views.</summary>
    public required string TableName { get; init; }
    /// <summary>The token stream, which literal values are read from later.</summary>
    public required SqlTokenStream Tokens { get; init; }

    /// <summary>Tables: the definition.</summary>
    public TableDefinition? Table { get; init; }

    /// <summary>Indexes: true for CREATE UNIQUE INDEX.</summary>
    public bool IsUnique { get; init; }
    /// <summary>Indexes: the key columns.</summary>
    public IReadOnlyList<IndexKey> Keys { get; init; } = [];
    /// <summary>Indexes: the WHERE clause of a partial index.</summary>
    public string? WhereSql { get; init; }

    /// <summary>Views: the column names given after the view name.</summary>
    public IReadOnlyList<string> ColumnNames { get; init; } = [];
    /// <summary>Views: the SELECT statement.</summary>
    public string? SelectSql { get; init; }
}

/// <summary>
/// Parses the statements sqlite_schema holds: CREATE [TEMP] TABLE, CREATE VIRTUAL TABLE, CREATE [UNIQUE] INDEX,
/// CREATE [TEMP] VIEW and CREATE [TEMP] TRIGGER. Like SQLite, only the first statement counts: whatever follows
/// its ';' is ignored. Errors are <see cref="SqlSyntaxException"/>s worded as SQLite words them.
/// </summary>
internal static class SchemaStatementParser
{
    /// <summary>Parses one CREATE statement.</summary>
    public static SchemaStatement Parse(string sql)
    {
        var ts = new SqlTokenStream(sql);
        ts.ExpectWord("CREATE");
        bool temp = ts.TryWord("TEMP") || ts.TryWord("TEMPORARY");
        var statement = Body(ts, temp);
        statement.Temporary = temp;
        statement.TerminatorStart = ts.Peek().Start;
        statement.LastTokenEnd = ts.At(ts.Index - 1).End;
        return statement;
    }

    private static SchemaStatement Body(SqlTokenStream ts, bool temp)
    {
        if (ts.TryWord("TABLE"))
        {
            var (table, name) = CreateTableParser.ParseTable(ts);
            return TableStatement(ts, table, name);
        }
        if (!temp && ts.TryWord("VIRTUAL"))
        {
            ts.ExpectWord("TABLE");
            var (table, name) = CreateTableParser.ParseVirtualTable(ts);
            return TableStatement(ts, table, name);
        }
        if (ts.TryWord("VIEW")) return View(ts);
        if (ts.TryWord("TRIGGER")) return Trigger(ts);
        if (!temp)
        {
            bool unique = ts.TryWord("UNIQUE");
            if (ts.TryWord("INDEX")) return Index(ts, unique);
        }
        throw ts.SyntaxError();
    }

    private static SchemaStatement TableStatement(SqlTokenStream ts, TableDefinition table, QualifiedName name) => new()
    {
        Kind = SchemaObjectKind.Table,
        Name = table.Name,
        Schema = name.Schema,
        NameStart = name.NameStart,
        TableName = table.Name,
        Tokens = ts,
        Table = table,
    };

    private static SchemaStatement Index(SqlTokenStream ts, bool unique)
    {
        CreateTableParser.SkipIfNotExists(ts);
        var qualified = ts.ExpectQualifiedName();
        string name = qualified.Name;
        ts.ExpectWord("ON");
        string table = ts.ExpectName();
        ts.Expect(SqlTokenKind.LeftParen);
        var keys = new List<IndexKey>();
        do
        {
            keys.Add(IndexKeyParser.Parse(ts));
        } while (ts.TryKind(SqlTokenKind.Comma));
        ts.Expect(SqlTokenKind.RightParen);
        string? where = null;
        if (ts.TryWord("WHERE")) where = RestOfStatement(ts);
        ts.ExpectStatementEnd();
        return new SchemaStatement
        {
            Kind = SchemaObjectKind.Index,
            Name = name,
            Schema = qualified.Schema,
            NameStart = qualified.NameStart,
            TableName = table,
            Tokens = ts,
            IsUnique = unique,
            Keys = keys,
            WhereSql = where,
        };
    }

    private static SchemaStatement View(SqlTokenStream ts)
    {
        CreateTableParser.SkipIfNotExists(ts);
        var qualified = ts.ExpectQualifiedName();
        string name = qualified.Name;
        var columns = new List<string>();
        if (ts.TryKind(SqlTokenKind.LeftParen))
        {
            do
            {
                columns.Add(ts.ExpectName());
                // SQLite accepts (and ignores) COLLATE and ASC/DESC here when it reads a stored schema.
                if (ts.TryWord("COLLATE") && !ts.IsIds(ts.Next())) throw ts.SyntaxError(ts.At(ts.Index - 1));
                if (!ts.TryWord("ASC")) ts.TryWord("DESC");
            } while (ts.TryKind(SqlTokenKind.Comma));
            ts.Expect(SqlTokenKind.RightParen);
        }
        ts.ExpectWord("AS");
        string select = RestOfStatement(ts);
        return new SchemaStatement
        {
            Kind = SchemaObjectKind.View,
            Name = name,
            Schema = qualified.Schema,
            NameStart = qualified.NameStart,
            TableName = name,
            Tokens = ts,
            ColumnNames = columns,
            SelectSql = select,
        };
    }

    private static SchemaStatement Trigger(SqlTokenStream ts)
    {
        CreateTableParser.SkipIfNotExists(ts);
        var qualified = ts.ExpectQualifiedName();
        string name = qualified.Name;
        if (!ts.TryWord("BEFORE") && !ts.TryWord("AFTER") && ts.TryWord("INSTEAD")) ts.ExpectWord("OF");
        if (ts.TryWord("UPDATE"))
        {
            if (ts.TryWord("OF"))
            {
                do ts.ExpectName(); while (ts.TryKind(SqlTokenKind.Comma));
            }
        }
        else if (!ts.TryWord("DELETE") && !ts.TryWord("INSERT"))
        {
            throw ts.SyntaxError();
        }
        ts.ExpectWord("ON");
        string table = ts.ExpectQualifiedName().Name;
        if (ts.TryWord("FOR"))
        {
            ts.ExpectWord("EACH");
            ts.ExpectWord("ROW");
        }
        if (ts.TryWord("WHEN") && !SqlExpressionParser.TryParse(ts, out _))
        {
            // Unmodelled syntax in WHEN: the body starts at the first BEGIN that is not a column of new./old.
            while (!(ts.PeekWord("BEGIN") && ts.At(ts.Index - 1).Kind != SqlTokenKind.Dot))
            {
                if (ts.Next().Kind == SqlTokenKind.EndOfInput) throw ts.SyntaxError();
            }
        }
        ts.ExpectWord("BEGIN");
        if (ts.PeekWord("END")) throw ts.SyntaxError();
        // Every statement of the body ends with ';', so the trigger's END is the first END right after one.
        while (true)
        {
            var t = ts.Next();
            if (t.Kind == SqlTokenKind.EndOfInput) throw ts.SyntaxError(t);
            if (t.Kind == SqlTokenKind.Semicolon && ts.TryWord("END")) break;
        }
        ts.ExpectStatementEnd();
        return new SchemaStatement
        {
            Kind = SchemaObjectKind.Trigger,
            Name = name,
            Schema = qualified.Schema,
            NameStart = qualified.NameStart,
            TableName = table,
            Tokens = ts,
        };
    }

    /// <summary>The text from the current token to the end of the statement, which must not be empty.</summary>
    private static string RestOfStatement(SqlTokenStream ts)
    {
        int first = ts.Index;
        while (!ts.AtStatementEnd) ts.Index++;
        if (ts.Index == first) throw ts.SyntaxError();
        return ts.Span(first, ts.Index - 1);
    }
}
