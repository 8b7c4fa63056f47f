namespace Sharc.Cli.Shell;

/// <summary>
/// Whether shell input holds only complete statements, in the spirit of sqlite3_complete: it ends with a ';' that is
/// not inside a string, a quoted name or a comment, and a CREATE TRIGGER statement ends only at the ';' after its END
/// (the ';' inside its body do not end it). Whitespace and comments after the last ';' do not matter.
/// </summary>
internal static class StatementCompleteness
{
    /// <summary>True when <paramref name="text"/> ends a statement (and is not only whitespace and comments).</summary>
    public static bool IsComplete(string text)
    {
        bool complete = false;
        int wordsInStatement = 0;
        bool trigger = false;
        string? first = null, previous = null;
        int i = 0;
        while (i < text.Length)
        {
            char c = text[i];
            if (char.IsWhiteSpace(c))
            {
                i++;
                continue;
            }
            if (c == '-' && At(text, i + 1, '-'))
            {
                int end = text.IndexOf('\n', i);
                i = end < 0 ? text.Length : end + 1;
                continue;
            }
            if (c == '/' && At(text, i + 1, '*'))
            {
                int end = text.IndexOf("*/", i + 2, StringComparison.Ordinal);
                if (end < 0) return false;
                i = end + 2;
                continue;
            }

            string token;
            if (c is '\'' or '"' or '`' or '[')
            {
                char close = c == '[' ? ']' : c;
                int j = i + 1;
                while (true)
                {
                    if (j >= text.Length) return false; // an open string or quoted name: more input needed
                    if (text[j] == close)
                    {
                        if (close != ']' && At(text, j + 1, close))
                        {
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    j++;
                }
                token = "'";
                i = j + 1;
            }
            else if (IsWordChar(c))
            {
                int j = i;
                while (j < text.Length && IsWordChar(text[j])) j++;
                token = text[i..j].ToUpperInvariant();
                i = j;
            }
            else
            {
                token = c.ToString();
                i++;
            }

            if (token == ";")
            {
                if (trigger && previous != "END")
                {
                    complete = false;
                    previous = token;
                    continue;
                }
                complete = true;
                wordsInStatement = 0;
                trigger = false;
                previous = token;
                continue;
            }
            complete = false;
            wordsInStatement++;
            // CREATE [TEMP | TEMPORARY] TRIGGER: the body's statements end in ';' too.
            if (wordsInStatement == 1) first = token;
            if (token == "TRIGGER" && first == "CREATE" && (wordsInStatement == 2 || (wordsInStatement == 3 && previous is "TEMP" or "TEMPORARY")))
                trigger = true;
            previous = token;
        }
        return complete;
    }

    private static bool At(string text, int i, char c) => i < text.Length && text[i] == c;

    private static bool IsWordChar(char c) => char.IsLetterOrDigit(c) || c is '_' or '$' || c > 0x7f;
}
