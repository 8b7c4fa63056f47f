using System.Text;
using Sharc.Schema.Parsing;

namespace Sharc.Write;

/// <summary>
/// Rewrites schema SQL text for ALTER TABLE … RENAME TO / RENAME COLUMN the way SQLite (3.26+, legacy_alter_table
/// off) edits it: only the tokens that name the renamed object change, everything else — spacing, comments, case —
/// stays byte for byte. Which tokens name a table or a column is read from the token stream: a table is named after
/// FROM / JOIN / INTO / UPDATE / TABLE / ON / REFERENCES, in a FROM list, or as the qualifier before a dot; a column
/// inside its own table's definition and indexes, in REFERENCES lists naming its table, qualified by its table (or an
/// alias of it, or NEW / OLD in its triggers), and unqualified in views that read its table.
/// </summary>
internal static class RenameRewriter
{
    private static readonly HashSet<string> TableKeywords = new(StringComparer.OrdinalIgnoreCase) { "FROM", "JOIN", "INTO", "UPDATE", "TABLE", "ON", "REFERENCES" };
    private static readonly HashSet<string> FromEnd = new(StringComparer.OrdinalIgnoreCase)
        { "WHERE", "GROUP", "ORDER", "LIMIT", "HAVING", "WINDOW", "UNION", "EXCEPT", "INTERSECT", "SELECT", "VALUES", "SET", "ON", "USING" };

    /// <summary>The new table name as SQLite writes it on rename: always double-quoted.</summary>
    public static string QuoteTable(string name) => "\"" + name.Replace("\"", "\"\"") + "\"";

    private static bool Is(string sql, SqlToken t, string name)
        => t.Kind is SqlTokenKind.Identifier or SqlTokenKind.QuotedIdentifier or SqlTokenKind.String
           && SqlNameComparer.Instance.Equals(SqlText.Dequote(t.Text(sql)), name);

    private static bool Word(string sql, SqlToken t, string w) => t.Kind == SqlTokenKind.Identifier && SqlText.EqualsIgnoreCase(t.Text(sql), w);

    /// <summary>Positions of tokens that name table <paramref name="table"/>.</summary>
    private static List<int> TableTokens(string sql, List<SqlToken> tokens, string table)
    {
        var found = new List<int>();
        int depth = 0, fromDepth = -1;
        for (int i = 0; i < tokens.Count; i++)
        {
            var t = tokens[i];
            if (t.Kind == SqlTokenKind.LeftParen) depth++;
            else if (t.Kind == SqlTokenKind.RightParen && --depth < fromDepth) fromDepth = -1;
            if (t.Kind == SqlTokenKind.Identifier && FromEnd.Contains(t.Text(sql).ToString()) && depth == fromDepth) fromDepth = -1;
            if (Word(sql, t, "FROM") || Word(sql, t, "JOIN")) fromDepth = depth;
            if (t.Kind == SqlTokenKind.String && !(i > 0 && TableKeywords.Contains(tokens[i - 1].Text(sql).ToString()))) continue;
            if (!Is(sql, t, table)) continue;
            int p = i - 1;
            if (p >= 1 && tokens[p].Kind == SqlTokenKind.Dot && !(i + 1 < tokens.Count && tokens[i + 1].Kind == SqlTokenKind.Dot)) p -= 2; // schema.table
            bool afterKeyword = p >= 0 && tokens[p].Kind == SqlTokenKind.Identifier && TableKeywords.Contains(tokens[p].Text(sql).ToString());
            bool inFromList = p >= 0 && tokens[p].Kind == SqlTokenKind.Comma && fromDepth == depth;
            bool qualifier = i + 1 < tokens.Count && tokens[i + 1].Kind == SqlTokenKind.Dot;
            if (afterKeyword || inFromList || qualifier) found.Add(i);
        }
        return found;
    }

    /// <summary>RENAME TO: every token naming the old table becomes the new name, double-quoted.</summary>
    public static string RenameTable(string sql, string oldName, string newName)
    {
        var tokens = SqlLexer.Tokenize(sql);
        return Replace(sql, tokens, TableTokens(sql, tokens, oldName), _ => QuoteTable(newName));
    }

    /// <summary>True when the SQL names table <paramref name="table"/> anywhere a table can be named.</summary>
    public static bool MentionsTable(string sql, string table) => TableTokens(sql, SqlLexer.Tokenize(sql), table).Count > 0;

    /// <summary>
    /// RENAME COLUMN in one schema object's SQL. <paramref name="kind"/> is the sqlite_schema type;
    /// <paramref name="owner"/> its tbl_name.
    /// </summary>
    public static string RenameColumn(string sql, string kind, string owner, string table, string column, string newName)
    {
        var tokens = SqlLexer.Tokenize(sql);
        var hits = new List<int>();
        bool own = SqlNameComparer.Instance.Equals(owner, table);
        int firstParen = tokens.FindIndex(t => t.Kind == SqlTokenKind.LeftParen);
        var qualifiers = new List<string> { table };
        qualifiers.AddRange(Aliases(sql, tokens, table));
        if (kind == "trigger" && own) qualifiers.AddRange(["new", "old"]);
        bool readsTable = kind == "view" && TableTokens(sql, tokens, table).Count > 0;
        var bodyReads = kind == "trigger" ? TriggerTokensReading(sql, tokens, table) : null;
        for (int i = 0; i < tokens.Count; i++)
        {
            var t = tokens[i];
            if (t.Kind is not (SqlTokenKind.Identifier or SqlTokenKind.QuotedIdentifier) || !Is(sql, t, column)) continue;
            bool qualified = i >= 2 && tokens[i - 1].Kind == SqlTokenKind.Dot;
            if (qualified)
            {
                if (qualifiers.Exists(q => Is(sql, tokens[i - 2], q))) hits.Add(i);
                continue;
            }
            if (i + 1 < tokens.Count && tokens[i + 1].Kind is SqlTokenKind.Dot or SqlTokenKind.LeftParen) continue; // a qualifier or a function
            if (InReferencesList(sql, tokens, i, out string? parent))
            {
                if (SqlNameComparer.Instance.Equals(parent, table)) hits.Add(i);
                continue;
            }
            if (i > 0 && (Word(sql, tokens[i - 1], "REFERENCES") || Word(sql, tokens[i - 1], "COLLATE") || Word(sql, tokens[i - 1], "AS"))) continue;
            if (kind is "table" or "index" && own && i > firstParen) hits.Add(i);
            else if (readsTable) hits.Add(i);
            else if (kind == "trigger" && own && InUpdateOfList(sql, tokens, i)) hits.Add(i);
            else if (bodyReads is not null && bodyReads.Contains(i)) hits.Add(i);
        }
        return Replace(sql, tokens, hits, t => t.Kind == SqlTokenKind.Identifier && IsPlainIdentifier(newName) ? newName : QuoteTable(newName));
    }

    /// <summary>
    /// The tokens of a trigger body whose unqualified column names read <paramref name="table"/>: those in a statement
    /// or subquery that names the table itself (as target, in FROM, in an INSERT column list) — not those of a
    /// subquery or statement reading other tables. A parenthesis opening a SELECT starts a scope of its own, as does
    /// the SELECT of an INSERT; any other parenthesis (a column list, VALUES, function arguments) belongs to the scope
    /// around it.
    /// </summary>
    private static HashSet<int> TriggerTokensReading(string sql, List<SqlToken> tokens, string table)
    {
        var reading = new HashSet<int>();
        int begin = tokens.FindIndex(t => Word(sql, t, "BEGIN"));
        if (begin < 0) return reading;
        var scopeOf = new int[tokens.Count];
        var readingScopes = new HashSet<int>();
        var stack = new Stack<int>();
        int scopes = 0, current = scopes++, start = begin + 1;
        for (int i = start; i < tokens.Count; i++)
        {
            var k = tokens[i].Kind;
            if (k == SqlTokenKind.LeftParen)
            {
                stack.Push(current);
                scopeOf[i] = current;
                if (i + 1 < tokens.Count && (Word(sql, tokens[i + 1], "SELECT") || Word(sql, tokens[i + 1], "WITH"))) current = scopes++;
                continue;
            }
            if (k == SqlTokenKind.RightParen && stack.Count > 0) current = stack.Pop();
            // INSERT … SELECT: the SELECT reads its own FROM, not the target whose column list came before it.
            if (stack.Count == 0 && i > start && Word(sql, tokens[i], "SELECT")
                && (Word(sql, tokens[start], "INSERT") || Word(sql, tokens[start], "REPLACE"))) current = scopes++;
            scopeOf[i] = current;
            if (stack.Count == 0 && (k == SqlTokenKind.Semicolon || i == tokens.Count - 1))
            {
                foreach (int t in TableTokens(sql, tokens.GetRange(start, i - start), table)) readingScopes.Add(scopeOf[start + t]);
                for (int j = start; j < i; j++) if (readingScopes.Contains(scopeOf[j])) reading.Add(j);
                readingScopes.Clear();
                current = scopes++;
                start = i + 1;
            }
        }
        return reading;
    }

    /// <summary>Names given to <paramref name="table"/> in FROM clauses ("FROM t AS x", "FROM t x").</summary>
    private static IEnumerable<string> Aliases(string sql, List<SqlToken> tokens, string table)
    {
        foreach (int i in TableTokens(sql, tokens, table))
        {
            int j = i + 1;
            if (j < tokens.Count && Word(sql, tokens[j], "AS")) j++;
            if (j < tokens.Count && tokens[j].Kind is SqlTokenKind.Identifier or SqlTokenKind.QuotedIdentifier
                && !(tokens[j].Kind == SqlTokenKind.Identifier && SqlKeywords.IsKeyword(tokens[j].Text(sql))))
                yield return SqlText.Dequote(tokens[j].Text(sql));
        }
    }

    /// <summary>True inside "REFERENCES parent ( … )"; <paramref name="parent"/> names the referenced table.</summary>
    private static bool InReferencesList(string sql, List<SqlToken> tokens, int i, out string? parent)
    {
        parent = null;
        int j = i - 1;
        while (j >= 0 && tokens[j].Kind is SqlTokenKind.Identifier or SqlTokenKind.QuotedIdentifier or SqlTokenKind.Comma) j--;
        if (j < 2 || tokens[j].Kind != SqlTokenKind.LeftParen || !Word(sql, tokens[j - 2], "REFERENCES")) return false;
        parent = SqlText.Dequote(tokens[j - 1].Text(sql));
        return true;
    }

    /// <summary>True inside a trigger's "UPDATE OF a, b ON t" column list.</summary>
    private static bool InUpdateOfList(string sql, List<SqlToken> tokens, int i)
    {
        int j = i - 1;
        while (j >= 1 && tokens[j].Kind == SqlTokenKind.Comma && tokens[j - 1].Kind is SqlTokenKind.Identifier or SqlTokenKind.QuotedIdentifier) j -= 2;
        return j >= 1 && Word(sql, tokens[j], "OF") && Word(sql, tokens[j - 1], "UPDATE");
    }

    private static bool IsPlainIdentifier(string s)
    {
        if (s.Length == 0 || !(char.IsAsciiLetter(s[0]) || s[0] == '_')) return false;
        foreach (char c in s) if (!(char.IsAsciiLetterOrDigit(c) || c == '_')) return false;
        return !SqlKeywords.IsKeyword(s);
    }

    private static string Replace(string sql, List<SqlToken> tokens, List<int> at, Func<SqlToken, string> replacement)
    {
        if (at.Count == 0) return sql;
        var sb = new StringBuilder(sql.Length + 16);
        int last = 0;
        foreach (int i in at)
        {
            var t = tokens[i];
            sb.Append(sql, last, t.Start - last).Append(replacement(t));
            last = t.End;
        }
        return sb.Append(sql, last, sql.Length - last).ToString();
    }
}
