namespace Sharc.Schema.Parsing;

/// <summary>The lexical class of a SQL token.</summary>
internal enum SqlTokenKind : byte
{
    /// <summary>End of the text (or a NUL character, where SQLite's C strings end).</summary>
    EndOfInput,
    /// <summary>A bare word: an identifier or a keyword; keywords are told apart by <see cref="SqlKeywords"/>.</summary>
    Identifier,
    /// <summary>"x", [x] or `x`.</summary>
    QuotedIdentifier,
    /// <summary>'x'.</summary>
    String,
    /// <summary>x'0A1B'.</summary>
    Blob,
    /// <summary>Decimal or hexadecimal integer, possibly with '_' digit separators.</summary>
    Integer,
    /// <summary>Number with a fraction or exponent, possibly with '_' digit separators.</summary>
    Float,
    /// <summary>?, ?NNN, :name, @name, $name, #name.</summary>
    Variable,
    LeftParen,
    RightParen,
    Comma,
    Semicolon,
    Dot,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    /// <summary>||</summary>
    Concat,
    /// <summary>-&gt;</summary>
    Arrow,
    /// <summary>-&gt;&gt;</summary>
    DoubleArrow,
    /// <summary>= or ==</summary>
    Equal,
    /// <summary>!= or &lt;&gt;</summary>
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    ShiftLeft,
    ShiftRight,
    BitAnd,
    BitOr,
    BitNot,
    /// <summary>Text SQLite would reject as "unrecognized token".</summary>
    Illegal,
}

/// <summary>A token as a slice of the source text, so tokenizing does not allocate strings.</summary>
internal readonly record struct SqlToken(SqlTokenKind Kind, int Start, int Length)
{
    /// <summary>The offset just past the token.</summary>
    public int End => Start + Length;

    /// <summary>The token's characters within <paramref name="sql"/>.</summary>
    public ReadOnlySpan<char> Text(string sql) => sql.AsSpan(Start, Length);
}
