using System.Collections.Frozen;

namespace Sharc.Schema.Parsing;

/// <summary>How SQLite's grammar lets a bare word be used.</summary>
internal enum SqlWordClass : byte
{
    /// <summary>Not a keyword: an ordinary identifier.</summary>
    NotKeyword,
    /// <summary>A keyword the parser also accepts as an identifier wherever a keyword would not fit (e.g. KEY, DESC, TEMP).</summary>
    Fallback,
    /// <summary>INDEXED: usable as a name and as a DEFAULT word, but not inside a type name.</summary>
    Indexed,
    /// <summary>NATURAL, LEFT, OUTER, RIGHT, FULL, INNER, CROSS: usable as object and column names only.</summary>
    JoinKeyword,
    /// <summary>A keyword that can never be an unquoted identifier (e.g. TABLE, NOT, PRIMARY).</summary>
    Reserved,
}

/// <summary>SQLite's keyword list and which keywords may double as identifiers (checked against SQLite 3.50).</summary>
internal static class SqlKeywords
{
    private const int LongestKeyword = 17; // CURRENT_TIMESTAMP

    private static readonly FrozenDictionary<string, SqlWordClass> Words = Build();
#if NET9_0_OR_GREATER
    private static readonly FrozenDictionary<string, SqlWordClass>.AlternateLookup<ReadOnlySpan<char>> Lookup =
        Words.GetAlternateLookup<ReadOnlySpan<char>>();
#endif

    private static FrozenDictionary<string, SqlWordClass> Build()
    {
        const string reserved =
            "ADD ALL ALTER AND AS AUTOINCREMENT BETWEEN CASE CHECK COLLATE COMMIT CONSTRAINT CREATE DEFAULT " +
            "DEFERRABLE DELETE DISTINCT DROP ELSE ESCAPE EXCEPT EXISTS FOREIGN FROM GROUP HAVING IN INDEX INSERT " +
            "INTERSECT INTO IS ISNULL JOIN LIMIT NOT NOTHING NOTNULL NULL ON OR ORDER PRIMARY REFERENCES RETURNING " +
            "SELECT SET TABLE THEN TO TRANSACTION UNION UNIQUE UPDATE USING VALUES WHEN WHERE";
        const string fallback =
            "ABORT ACTION AFTER ALWAYS ANALYZE ASC ATTACH BEFORE BEGIN BY CASCADE CAST COLUMN CONFLICT CURRENT " +
            "CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP DATABASE DEFERRED DESC DETACH DO EACH END EXCLUDE EXCLUSIVE " +
            "EXPLAIN FAIL FILTER FIRST FOLLOWING FOR GENERATED GLOB GROUPS IF IGNORE IMMEDIATE INITIALLY INSTEAD KEY " +
            "LAST LIKE MATCH MATERIALIZED NO NULLS OF OFFSET OTHERS OVER PARTITION PLAN PRAGMA PRECEDING QUERY RAISE " +
            "RANGE RECURSIVE REGEXP REINDEX RELEASE RENAME REPLACE RESTRICT ROLLBACK ROW ROWS SAVEPOINT TEMP TEMPORARY " +
            "TIES TRIGGER UNBOUNDED VACUUM VIEW VIRTUAL WINDOW WITH WITHOUT";
        const string join = "CROSS FULL INNER LEFT NATURAL OUTER RIGHT";

        var d = new Dictionary<string, SqlWordClass>(StringComparer.Ordinal);
        foreach (var w in reserved.Split(' ')) d.Add(w, SqlWordClass.Reserved);
        foreach (var w in fallback.Split(' ')) d.Add(w, SqlWordClass.Fallback);
        foreach (var w in join.Split(' ')) d.Add(w, SqlWordClass.JoinKeyword);
        d.Add("INDEXED", SqlWordClass.Indexed);
        return d.ToFrozenDictionary(StringComparer.Ordinal);
    }

    /// <summary>All SQLite keywords, upper case.</summary>
    public static IEnumerable<string> All => Words.Keys;

    /// <summary>Classifies a bare word; matching is ASCII case-insensitive, as in SQLite.</summary>
    public static SqlWordClass Classify(ReadOnlySpan<char> word)
    {
        if (word.Length is 0 or > LongestKeyword) return SqlWordClass.NotKeyword;
        Span<char> upper = stackalloc char[LongestKeyword];
        for (int i = 0; i < word.Length; i++)
        {
            char c = word[i];
            if (c >= 0x80) return SqlWordClass.NotKeyword;
            upper[i] = char.ToUpperInvariant(c);
        }
#if NET9_0_OR_GREATER
        return Lookup.TryGetValue(upper[..word.Length], out var cls) ? cls : SqlWordClass.NotKeyword;
#else
        // .NET 8 has no span lookup on dictionaries: parsing pays one short string per bare word there.
        return Words.TryGetValue(new string(upper[..word.Length]), out var cls) ? cls : SqlWordClass.NotKeyword;
#endif
    }

    /// <summary>True when <paramref name="word"/> is any SQLite keyword.</summary>
    public static bool IsKeyword(ReadOnlySpan<char> word) => Classify(word) != SqlWordClass.NotKeyword;
}
