namespace Sharc.Sql.Functions.Json;

/// <summary>
/// Translates JSON text (RFC 8259 and the JSON5 extensions SQLite accepts) into JSONB, keeping each number's and
/// string's original spelling as SQLite does (INT5, FLOAT5, TEXTJ, TEXT5 say which extensions a leaf uses).
/// </summary>
internal sealed class JsonTextParser
{
    /// <summary>SQLite's JSON_MAX_DEPTH: deeper nesting is malformed.</summary>
    public const int MaxDepth = 1000;

    private readonly JsonBuffer _out;
    private byte[] _text = [];
    private int _end;
    // Where SQLite's parser last noted a closing bracket in a value's place: what json_error_position reports
    // for junk after a complete document, as SQLite reports it.
    private int _lastClose;

    private JsonTextParser(JsonBuffer output) => _out = output;

    /// <summary>True when the text used a JSON5 extension (json_valid's flag 1 refuses it).</summary>
    public bool NonStandard { get; private set; }

    /// <summary>The byte offset of the first error after a failed <see cref="Parse"/>.</summary>
    public int ErrorOffset { get; private set; }

    /// <summary>
    /// Appends the JSONB of <paramref name="text"/> to <paramref name="output"/>; false (with the output cut back)
    /// when the text is not JSON. <paramref name="nonStandard"/> says whether JSON5 was needed.
    /// </summary>
    public static bool TryParse(ReadOnlySpan<byte> text, JsonBuffer output, out bool nonStandard, out int errorOffset)
    {
        var p = new JsonTextParser(output);
        int mark = output.Length;
        bool ok = p.Parse(text);
        if (!ok) output.Truncate(mark);
        nonStandard = p.NonStandard;
        errorOffset = p.ErrorOffset;
        return ok;
    }

    private bool Parse(ReadOnlySpan<byte> text)
    {
        _text = text.ToArray();
        _end = _text.Length;
        int i = 0;
        if (!SkipSpace(ref i)) return false;
        if (i >= _end) return Fail(0);
        if (!Value(ref i, 0)) return false;
        if (!SkipSpace(ref i)) return false;
        if (i != _end) return Fail(_lastClose);
        return true;
    }

    private bool Fail(int at)
    {
        ErrorOffset = Math.Min(at, _end);
        return false;
    }

    private bool SkipSpace(ref int i)
    {
        var t = _text;
        while (i < _end)
        {
            byte b = t[i];
            if (b is (byte)' ' or (byte)'\t' or (byte)'\n' or (byte)'\r') { i++; continue; }
            if (b is 0x0b or 0x0c) { NonStandard = true; i++; continue; }
            if (b == (byte)'/' && i + 1 < _end && t[i + 1] == (byte)'*')
            {
                NonStandard = true;
                int close = t.AsSpan(i + 2, _end - i - 2).IndexOf("*/"u8);
                if (close < 0) return Fail(i);
                i += close + 4;
                continue;
            }
            if (b == (byte)'/' && i + 1 < _end && t[i + 1] == (byte)'/')
            {
                NonStandard = true;
                i += 2;
                while (i < _end && t[i] != (byte)'\n' && !IsLineSeparator(i)) i++;
                continue;
            }
            int u = UnicodeSpace(i);
            if (u == 0) break;
            NonStandard = true;
            i += u;
        }
        return true;
    }

    private bool IsLineSeparator(int i)
        => i + 2 < _end && _text[i] == 0xe2 && _text[i + 1] == 0x80 && _text[i + 2] is 0xa8 or 0xa9;

    // JSON5 white space beyond ASCII: the length of the character at i when it is one, else 0.
    private int UnicodeSpace(int i)
    {
        var t = _text;
        byte b = t[i];
        if (b == 0xc2 && i + 1 < _end && t[i + 1] == 0xa0) return 2;
        if (i + 2 >= _end) return 0;
        byte b1 = t[i + 1], b2 = t[i + 2];
        if (b == 0xef && b1 == 0xbb && b2 == 0xbf) return 3;
        if (b == 0xe1 && b1 == 0x9a && b2 == 0x80) return 3;
        if (b == 0xe2 && b1 == 0x80 && (b2 <= 0x8a || b2 is 0xa8 or 0xa9 or 0xaf)) return 3;
        if (b == 0xe2 && b1 == 0x81 && b2 == 0x9f) return 3;
        if (b == 0xe3 && b1 == 0x80 && b2 == 0x80) return 3;
        return 0;
    }

    private bool Value(ref int i, int depth)
    {
        if (i >= _end) return Fail(i);
        byte b = _text[i];
        switch (b)
        {
            case (byte)'{': return depth >= MaxDepth ? Fail(i) : Object(ref i, depth);
            case (byte)'[': return depth >= MaxDepth ? Fail(i) : Array(ref i, depth);
            case (byte)'"' or (byte)'\'': return String(ref i);
            case (byte)'t': return Literal(ref i, "true"u8, Jsonb.True);
            case (byte)'f': return Literal(ref i, "false"u8, Jsonb.False);
            case (byte)'n': return Literal(ref i, "null"u8, Jsonb.Null);
            case (byte)'N':
                if (!Literal(ref i, "NaN"u8, Jsonb.Null)) return false;
                NonStandard = true;
                return true;
            default:
                if (b is (byte)'-' or (byte)'+' or (byte)'.' or (byte)'I' or (byte)'i' || b is >= (byte)'0' and <= (byte)'9')
                    return Number(ref i);
                return Fail(i);
        }
    }

    private bool Literal(ref int i, ReadOnlySpan<byte> word, int type)
    {
        if (!_text.AsSpan(i).StartsWith(word) || (i + word.Length < _end && IsAlnum(_text[i + word.Length]))) return Fail(i);
        _out.Append((byte)type);
        i += word.Length;
        return true;
    }

    private static bool IsAlnum(byte b) => b is >= (byte)'0' and <= (byte)'9' or >= (byte)'a' and <= (byte)'z' or >= (byte)'A' and <= (byte)'Z';

    private bool Array(ref int i, int depth)
    {
        int start = _out.BeginContainer(Jsonb.Array);
        i++;
        bool first = true;
        while (true)
        {
            int j = i;
            if (!SkipSpace(ref i)) return false;
            if (i >= _end || _text[i] is (byte)',' or (byte)'}' or (byte)':') return Fail(j);
            if (_text[i] == (byte)']')
            {
                _lastClose = i;
                if (!first) NonStandard = true;
                i++;
                break;
            }
            if (!Value(ref i, depth + 1)) return false;
            byte sep = Separator(ref i, (byte)',', (byte)']', depth);
            if (sep == 0) return false;
            if (sep == (byte)',') { first = false; continue; }
            break;
        }
        _out.EndContainer(start, Jsonb.Array);
        return true;
    }

    private bool Object(ref int i, int depth)
    {
        int start = _out.BeginContainer(Jsonb.Object);
        i++;
        bool first = true;
        while (true)
        {
            if (!SkipSpace(ref i)) return false;
            if (i >= _end) return Fail(i);
            byte b = _text[i];
            if (b == (byte)'}')
            {
                _lastClose = i;
                if (!first) NonStandard = true;
                i++;
                break;
            }
            if (b is (byte)'"' or (byte)'\'')
            {
                if (!String(ref i)) return false;
            }
            else if (LabelIsOtherValue(i, depth, out bool failed))
            {
                // SQLite reads a label as a value first: a number or literal there is not a label.
                return failed ? false : Fail(i);
            }
            else if (IsIdentifierStart(b))
            {
                int s = i;
                while (i < _end && IsIdentifierPart(_text[i]) && (_text[i] < 0x80 || UnicodeSpace(i) == 0)) i++;
                NonStandard = true;
                _out.AppendElement(Jsonb.Text, _text.AsSpan(s, i - s));
            }
            else return Fail(i);
            if (Separator(ref i, (byte)':', (byte)':', depth) == 0) return false;
            int v = i;
            if (!SkipSpace(ref i)) return false;
            if (i >= _end || _text[i] is (byte)',' or (byte)'}' or (byte)':' or (byte)']') return Fail(v);
            if (!Value(ref i, depth + 1)) return false;
            byte sep = Separator(ref i, (byte)',', (byte)'}', depth);
            if (sep == 0) return false;
            if (sep == (byte)',') { first = false; continue; }
            break;
        }
        _out.EndContainer(start, Jsonb.Object);
        return true;
    }

    // True when a value other than a string parses at a label's place (failed: it began as one and broke, and
    // no identifier can start there either).
    private bool LabelIsOtherValue(int i, int depth, out bool failed)
    {
        failed = false;
        byte b = _text[i];
        bool candidate = b is (byte)'t' or (byte)'f' or (byte)'n' or (byte)'N' or (byte)'I' or (byte)'i' or (byte)'-' or (byte)'+' or (byte)'.' or (byte)'{' or (byte)'['
            || IsDigit(b);
        if (!candidate) return false;
        int mark = _out.Length, k = i;
        bool nonStandard = NonStandard;
        int error = ErrorOffset;
        bool parsed = Value(ref k, depth + 1);
        _out.Truncate(mark);
        NonStandard = nonStandard;
        if (parsed) return true;
        if (IsIdentifierStart(b)) { ErrorOffset = error; return false; }
        failed = true;
        return true;
    }

    /// <summary>
    /// Expects <paramref name="a"/> or <paramref name="b"/> after plain white space, and returns it (0 on error).
    /// Otherwise does as SQLite does: reads on as if a value came there, and reports the error where that read
    /// failed, or where the separator was due when something else parsed.
    /// </summary>
    private byte Separator(ref int i, byte a, byte b, int depth)
    {
        var t = _text;
        int j = i;
        while (j < _end && t[j] is (byte)' ' or (byte)'\t' or (byte)'\n' or (byte)'\r') j++;
        if (j < _end && (t[j] == a || t[j] == b))
        {
            i = j + 1;
            return t[j];
        }
        int k = j;
        if (!SkipSpace(ref k)) return 0;
        if (k < _end && t[k] is (byte)',' or (byte)']' or (byte)'}' or (byte)':')
        {
            _lastClose = k;
            if (t[k] == a || t[k] == b)
            {
                i = k + 1;
                return t[k];
            }
            Fail(j);
            return 0;
        }
        if (k >= _end)
        {
            Fail(j);
            return 0;
        }
        int mark = _out.Length;
        bool parsed = Value(ref k, depth + 1);
        _out.Truncate(mark);
        if (parsed) Fail(j);
        return 0;
    }

    private static bool IsIdentifierStart(byte b) => b is >= (byte)'a' and <= (byte)'z' or >= (byte)'A' and <= (byte)'Z' or (byte)'_' or (byte)'$' or >= 0x80;

    private static bool IsIdentifierPart(byte b) => IsIdentifierStart(b) || b is >= (byte)'0' and <= (byte)'9';

    private bool String(ref int i)
    {
        byte quote = _text[i];
        if (quote == (byte)'\'') NonStandard = true;
        int s = ++i;
        int type = Jsonb.Text;
        var t = _text.AsSpan(0, _end);
        while (true)
        {
            if (i >= _end) return Fail(i);
            byte b = t[i];
            if (b == quote) break;
            if (b == (byte)'\\')
            {
                int n = JsonStrings.EscapeLength(t, i, out bool five);
                if (n == 0) return Fail(i + 1);
                if (five)
                {
                    NonStandard = true;
                    type = Jsonb.Text5;
                }
                else if (type == Jsonb.Text) type = Jsonb.TextJ;
                i += n;
                continue;
            }
            if (b < 0x20 || b == (byte)'"')
            {
                // Raw control characters (and a double quote inside single quotes) need TEXT5's rewriting on output.
                if (b < 0x20) NonStandard = true;
                type = Jsonb.Text5;
            }
            i++;
        }
        _out.AppendElement(type, t[s..i]);
        i++;
        return true;
    }

    private bool Number(ref int i)
    {
        var t = _text.AsSpan(0, _end);
        int s = i;
        bool neg = false;
        if (t[i] is (byte)'-' or (byte)'+')
        {
            neg = t[i] == (byte)'-';
            if (!neg) NonStandard = true;
            i++;
            if (i >= _end) return Fail(i);
        }
        int digitsStart = i;
        if (t[i] is (byte)'I' or (byte)'i')
        {
            // SQLite: without a sign exactly "Infinity" (case aside) and no letter after it; after a sign also
            // "Inf", and whatever follows is left to the caller.
            bool whole = i + 8 <= _end && System.Text.Ascii.EqualsIgnoreCase(t.Slice(i, 8), "infinity"u8);
            int word = whole ? 8 : i + 3 <= _end && System.Text.Ascii.EqualsIgnoreCase(t.Slice(i, 3), "inf"u8) ? 3 : 0;
            if (word == 0) return Fail(s);
            if (digitsStart == s && i + word < _end && IsAlnum(t[i + word])) return Fail(i);
            i += word;
            NonStandard = true;
            _out.AppendElement(Jsonb.Float, neg ? "-9e999"u8 : "9e999"u8);
            return true;
        }
        if (t[i] == (byte)'0' && i + 1 < _end && (t[i + 1] | 0x20) == (byte)'x')
        {
            int h = i + 2;
            while (h < _end && JsonStrings.HexValue(t[h]) >= 0) h++;
            // "0x" without digits is the number 0 followed by junk, as SQLite reads it.
            if (h > i + 2)
            {
                NonStandard = true;
                i = h;
                Emit(Jsonb.Int5, neg, digitsStart, i);
                return true;
            }
        }
        // SQLite's scan: digits, at most one '.', at most one exponent; each error at the character SQLite names.
        if (t[i] == (byte)'0' && i + 1 < _end && t[i + 1] is >= (byte)'0' and <= (byte)'9') return Fail(i + 1);
        if (t[i] == (byte)'.' && !(i + 1 < _end && IsDigit(t[i + 1]))) return Fail(i);
        if (t[i] != (byte)'.' && !IsDigit(t[i])) return Fail(s);
        bool dot = t[i] == (byte)'.', exp = false, five = dot;
        int j = i + 1;
        for (; j < _end; j++)
        {
            byte c = t[j];
            if (IsDigit(c)) continue;
            if (c == (byte)'.')
            {
                if (dot || exp) return Fail(j);
                dot = true;
                continue;
            }
            if ((c | 0x20) == (byte)'e')
            {
                if (t[j - 1] == (byte)'.')
                {
                    if (j - 2 >= digitsStart && IsDigit(t[j - 2])) five = true;
                    else return Fail(j);
                }
                if (exp) return Fail(j);
                exp = true;
                if (j + 1 < _end && t[j + 1] is (byte)'+' or (byte)'-') j++;
                if (!(j + 1 < _end && IsDigit(t[j + 1]))) return Fail(j);
                continue;
            }
            break;
        }
        if (t[j - 1] == (byte)'.')
        {
            if (j - 2 >= digitsStart && IsDigit(t[j - 2])) five = true;
            else return Fail(j);
        }
        i = j;
        if (five) NonStandard = true;
        Emit(!dot && !exp ? Jsonb.Int : five ? Jsonb.Float5 : Jsonb.Float, neg, digitsStart, i);
        return true;
    }

    private static bool IsDigit(byte b) => b is >= (byte)'0' and <= (byte)'9';

    // A leading '+' is dropped; a '-' stays part of the number's text.
    private void Emit(int type, bool neg, int digitsStart, int end)
    {
        int s = neg ? digitsStart - 1 : digitsStart;
        _out.AppendElement(type, _text.AsSpan(s, end - s));
    }
}
