using System.Text;

namespace Sharc.Cli.Import;

/// <summary>
/// Reads CSV records as RFC 4180 writes them, streaming: fields separated by ",", records ended by CRLF or LF, a
/// field in double quotes may hold commas, line breaks and doubled quotes. It is lenient with what the RFC forbids:
/// a quote inside an unquoted field is kept as a character and an unterminated quoted field runs to the end of the
/// input (both as in the sqlite3 shell), a lone CR ends a record, and text after a closing quote is appended to the
/// field (<c>"q"tail</c> is <c>qtail</c>; sqlite3 instead reads on as if the quote were still open, to the next
/// quote before a comma or line end). An empty line is a record of one empty field.
/// </summary>
internal sealed class CsvReader(TextReader input)
{
    private readonly char[] _buffer = new char[1 << 16];
    private readonly StringBuilder _field = new();
    private int _pos;
    private int _len;
    private long _line = 1;

    /// <summary>The 1-based line on which the record last read starts.</summary>
    public long RecordLine { get; private set; }

    /// <summary>Reads the next record into <paramref name="fields"/> (cleared first); false at the end of the input.</summary>
    public bool ReadRecord(List<string> fields)
    {
        fields.Clear();
        if (Peek() < 0) return false;
        RecordLine = _line;
        while (true)
        {
            bool endOfRecord = ReadField(out string field);
            fields.Add(field);
            if (endOfRecord) return true;
        }
    }

    /// <summary>Reads one field; true when it ended its record (at a line end or the end of the input).</summary>
    private bool ReadField(out string field)
    {
        _field.Clear();
        bool quoted = false;
        if (Peek() == '"')
        {
            quoted = true;
            Next();
        }
        while (true)
        {
            int c = Next();
            if (c < 0)
            {
                field = _field.ToString();
                return true;
            }
            if (quoted)
            {
                if (c == '"')
                {
                    if (Peek() == '"')
                    {
                        Next();
                        _field.Append('"');
                    }
                    else
                    {
                        quoted = false;
                    }
                    continue;
                }
                if (c == '\n') _line++;
                _field.Append((char)c);
                continue;
            }
            switch (c)
            {
                case ',':
                    field = _field.ToString();
                    return false;
                case '\n':
                    _line++;
                    field = _field.ToString();
                    return true;
                case '\r':
                    if (Peek() == '\n') Next();
                    _line++;
                    field = _field.ToString();
                    return true;
                default:
                    _field.Append((char)c);
                    break;
            }
        }
    }

    private int Peek()
    {
        if (_pos == _len && !Fill()) return -1;
        return _buffer[_pos];
    }

    private int Next()
    {
        if (_pos == _len && !Fill()) return -1;
        return _buffer[_pos++];
    }

    private bool Fill()
    {
        _len = input.Read(_buffer, 0, _buffer.Length);
        _pos = 0;
        return _len > 0;
    }
}
