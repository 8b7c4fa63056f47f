using System.Globalization;
using System.Text;

namespace Sharc.Cli.Output;

/// <summary>
/// Aligned columns for people to read:
/// <code>
/// id | name         | born
/// ---+--------------+-----
///  1 | Jane Austen  | 1775
///  2 | Mary Shelley | NULL
/// (2 rows)
/// </code>
/// A column whose values (NULLs aside) are all numbers is right-aligned, header included; others are left-aligned.
/// NULL is shown as <c>NULL</c>, blobs as <c>x'hex'</c>; in text, CR, LF and TAB are
/// shown as \r, \n, \t and other control characters as \u00xx, so every row stays on one line. Cells wider than
/// <see cref="MaxCellWidth"/> terminal columns are cut and end with "…". The writer holds back only a bounded sample,
/// the first <see cref="MaxBufferedRows"/> rows, sizes the columns from it, and then streams: a later text or blob
/// cell wider than its column is cut to fit, so the table never overflows its columns. Numbers are never cut (a cut
/// number would read as another number): a wider one pushes the rest of its line to the right. With
/// <see cref="MaxLineWidth"/> (a terminal's width), the widest text columns are narrowed until a line fits.
/// Use jsonl or csv for exact values.
/// </summary>
internal sealed class TableWriter : IRowWriter
{
    /// <summary>The default for <see cref="MaxBufferedRows"/>.</summary>
    public const int DefaultMaxBufferedRows = 100;

    /// <summary>The default for <see cref="MaxCellWidth"/>.</summary>
    public const int DefaultMaxCellWidth = 60;

    private readonly TextWriter _output;
    private readonly List<Cell[]> _buffer = [];
    private Cell[] _header = [];
    private int[] _widths = [];
    private bool[] _rightAligned = [];
    private bool _flushed;
    private long _rows;

    /// <summary>Creates a writer with the default settings.</summary>
    public TableWriter(TextWriter output)
    {
        _output = output;
    }

    /// <summary>How many rows are buffered to size the columns.</summary>
    public int MaxBufferedRows { get; init; } = DefaultMaxBufferedRows;

    /// <summary>The widest a cell is shown, in terminal columns.</summary>
    public int MaxCellWidth { get; init; } = DefaultMaxCellWidth;

    /// <summary>The widest a line may be (a terminal's width), or 0 for no limit.</summary>
    public int MaxLineWidth { get; init; }

    /// <summary>What NULL looks like.</summary>
    public string NullText { get; init; } = "NULL";

    /// <summary>Whether to end with "(N rows)".</summary>
    public bool ShowRowCount { get; init; } = true;

    /// <summary>Written at the start of every line.</summary>
    public string Indent { get; init; } = "";

    public void Begin(IReadOnlyList<string> columnNames)
    {
        _header = new Cell[columnNames.Count];
        _widths = new int[columnNames.Count];
        _rightAligned = new bool[columnNames.Count];
        for (int i = 0; i < columnNames.Count; i++)
        {
            _header[i] = MakeCell(Printable(columnNames[i]), CellKind.Text);
            _widths[i] = _header[i].Width;
        }
    }

    public void WriteRow(IRowValues row)
    {
        var cells = new Cell[_widths.Length];
        for (int i = 0; i < cells.Length; i++)
            cells[i] = CellOf(row, i);
        _rows++;
        if (_flushed)
        {
            WriteLine(cells);
            return;
        }
        for (int i = 0; i < cells.Length; i++)
            _widths[i] = Math.Max(_widths[i], cells[i].Width);
        _buffer.Add(cells);
        if (_buffer.Count >= MaxBufferedRows) FlushBuffer();
    }

    public void Complete()
    {
        if (!_flushed) FlushBuffer();
        if (ShowRowCount)
            _output.Write(Indent + (_rows == 1 ? "(1 row)\n" : $"({_rows.ToString(CultureInfo.InvariantCulture)} rows)\n"));
        _output.Flush();
    }

    private void FlushBuffer()
    {
        _flushed = true;
        for (int i = 0; i < _rightAligned.Length; i++)
        {
            bool sawNumber = false, sawOther = false;
            foreach (var cells in _buffer)
            {
                if (cells[i].Kind == CellKind.Number) sawNumber = true;
                else if (cells[i].Kind != CellKind.Null) sawOther = true;
            }
            _rightAligned[i] = sawNumber && !sawOther;
        }
        if (MaxLineWidth > 0) FitLineWidth();
        WriteLine(_header);
        var sb = new StringBuilder(Indent);
        for (int i = 0; i < _widths.Length; i++)
        {
            if (i > 0) sb.Append("-+-");
            sb.Append('-', _widths[i]);
        }
        _output.Write(sb.Append('\n').ToString());
        foreach (var cells in _buffer) WriteLine(cells);
        _buffer.Clear();
    }

    /// <summary>Narrows the widest text columns, one terminal column at a time, until a line fits <see cref="MaxLineWidth"/>.</summary>
    private void FitLineWidth()
    {
        const int Narrowest = 6;
        int total = 3 * (_widths.Length - 1);
        foreach (int w in _widths) total += w;
        while (total > MaxLineWidth)
        {
            int widest = -1;
            for (int i = 0; i < _widths.Length; i++)
                if (!_rightAligned[i] && _widths[i] > Narrowest && (widest < 0 || _widths[i] > _widths[widest])) widest = i;
            if (widest < 0) return; // only numbers and narrow columns left: let the line wrap rather than cut them
            _widths[widest]--;
            total--;
        }
    }

    private void WriteLine(Cell[] cells)
    {
        // Empty cells at the end of the line are left out, separators included, so no line ends in blanks.
        int last = cells.Length - 1;
        while (last > 0 && cells[last].Text.Length == 0) last--;
        var sb = new StringBuilder(Indent);
        for (int i = 0; i <= last; i++)
        {
            if (i > 0) sb.Append(" | ");
            var cell = cells[i];
            if (cell.Width > _widths[i] && cell.Kind != CellKind.Number)
            {
                var (text, width) = Truncate(cell.Text, _widths[i]);
                cell = cell with { Text = text, Width = width };
            }
            int pad = Math.Max(0, _widths[i] - cell.Width);
            if (_rightAligned[i]) sb.Append(' ', pad).Append(cell.Text);
            else
            {
                sb.Append(cell.Text);
                if (i < last) sb.Append(' ', pad);
            }
        }
        _output.Write(sb.Append('\n').ToString());
    }

    private Cell CellOf(IRowValues row, int i) => row.GetColumnType(i) switch
    {
        SharcColumnType.Null => MakeCell(NullText, CellKind.Null),
        SharcColumnType.Integer => MakeCell(ValueText.Integer(row.GetInt64(i)), CellKind.Number),
        SharcColumnType.Real => MakeCell(ValueText.Real(row.GetDouble(i)), CellKind.Number),
        SharcColumnType.Text => MakeCell(Printable(row.GetText(i)), CellKind.Text),
        _ => MakeCell("x'" + ValueText.Hex(row.GetBlob(i)) + "'", CellKind.Text),
    };

    private Cell MakeCell(string text, CellKind kind)
    {
        int width = DisplayWidth(text);
        if (width > MaxCellWidth) (text, width) = Truncate(text, MaxCellWidth);
        return new Cell(text, width, kind);
    }

    private enum CellKind : byte
    {
        Null,
        Number,
        Text,
    }

    private readonly record struct Cell(string Text, int Width, CellKind Kind);

    /// <summary>Text with control characters made visible and unpaired surrogates replaced, so it prints on one line.</summary>
    internal static string Printable(string text)
    {
        StringBuilder? sb = null;
        for (int i = 0; i < text.Length; i++)
        {
            char c = text[i];
            string? replacement = null;
            if (c < 0x20 || c == 0x7f)
            {
                replacement = c switch
                {
                    '\n' => "\\n",
                    '\r' => "\\r",
                    '\t' => "\\t",
                    _ => "\\u00" + ((int)c).ToString("x2", CultureInfo.InvariantCulture),
                };
            }
            else if (char.IsSurrogate(c))
            {
                if (char.IsHighSurrogate(c) && i + 1 < text.Length && char.IsLowSurrogate(text[i + 1]))
                {
                    sb?.Append(c).Append(text[i + 1]);
                    i++;
                    continue;
                }
                replacement = "\uFFFD";
            }

            if (replacement is null)
            {
                sb?.Append(c);
                continue;
            }
            sb ??= new StringBuilder(text, 0, i, text.Length + 16);
            sb.Append(replacement);
        }
        return sb?.ToString() ?? text;
    }

    private static (string, int) Truncate(string text, int maxWidth)
    {
        var sb = new StringBuilder();
        int width = 0;
        foreach (var rune in text.EnumerateRunes())
        {
            int w = RuneWidth(rune);
            if (width + w > maxWidth - 1) break;
            sb.Append(rune.ToString());
            width += w;
        }
        return (sb.Append('…').ToString(), width + 1);
    }

    /// <summary>How many terminal columns <paramref name="text"/> takes: East Asian wide characters count 2, combining marks 0.</summary>
    internal static int DisplayWidth(string text)
    {
        int width = 0;
        foreach (var rune in text.EnumerateRunes()) width += RuneWidth(rune);
        return width;
    }

    private static int RuneWidth(Rune r)
    {
        int v = r.Value;
        if (v < 0x300) return v < 0x20 || (v >= 0x7f && v < 0xa0) ? 0 : 1;
        var cat = Rune.GetUnicodeCategory(r);
        if (cat is UnicodeCategory.NonSpacingMark or UnicodeCategory.EnclosingMark or UnicodeCategory.Format) return 0;
        bool wide =
            (v >= 0x1100 && v <= 0x115F) ||
            (v >= 0x2E80 && v <= 0xA4CF && v != 0x303F) ||
            (v >= 0xAC00 && v <= 0xD7A3) ||
            (v >= 0xF900 && v <= 0xFAFF) ||
            (v >= 0xFE30 && v <= 0xFE4F) ||
            (v >= 0xFF00 && v <= 0xFF60) ||
            (v >= 0xFFE0 && v <= 0xFFE6) ||
            (v >= 0x1F300 && v <= 0x1F64F) ||
            (v >= 0x1F900 && v <= 0x1F9FF) ||
            (v >= 0x20000 && v <= 0x3FFFD);
        return wide ? 2 : 1;
    }
}
