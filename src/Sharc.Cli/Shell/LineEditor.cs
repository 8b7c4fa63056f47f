using System.Text;

namespace Sharc.Cli.Shell;

/// <summary>
/// Line editing on a terminal, with <see cref="Console.ReadKey(bool)"/>: arrows, Home/End (Ctrl-A/Ctrl-E), Backspace and
/// Delete, Ctrl-U and Ctrl-K to erase before and after the cursor, Up/Down through the history, Ctrl-C to abandon
/// the statement being typed, Ctrl-D on an empty line to leave. The line is redrawn with ANSI escapes, across as many
/// terminal rows as it wraps onto (every character is taken to be one column wide).
/// </summary>
internal sealed class LineEditor(TextWriter output, History history) : ILineReader
{
    /// <summary>How many rows below the prompt's row the cursor is, so a redraw can go back up to the prompt.</summary>
    private int _cursorRow;

    public bool Interrupted { get; private set; }

    public string? ReadLine(string prompt)
    {
        Interrupted = false;
        var line = new StringBuilder();
        int cursor = 0;
        int recalled = history.Count; // history.Count: the line being typed, not a recalled one
        string typed = "";
        output.Write(prompt);
        output.Flush();
        _cursorRow = 0;
        bool treatCtrlC = Console.TreatControlCAsInput;
        Console.TreatControlCAsInput = true;
        try
        {
            while (true)
            {
                var key = Console.ReadKey(intercept: true);
                bool ctrl = (key.Modifiers & ConsoleModifiers.Control) != 0;
                switch (key.Key)
                {
                    case ConsoleKey.Enter:
                        Redraw(prompt, line, line.Length); // the output goes below the whole line, not into it
                        output.Write('\n');
                        output.Flush();
                        history.Add(line.ToString());
                        return line.ToString();
                    case ConsoleKey.Backspace:
                        if (cursor == 0) continue;
                        line.Remove(--cursor, 1);
                        break;
                    case ConsoleKey.Delete:
                        if (cursor == line.Length) continue;
                        line.Remove(cursor, 1);
                        break;
                    case ConsoleKey.LeftArrow:
                        cursor = Math.Max(0, cursor - 1);
                        break;
                    case ConsoleKey.RightArrow:
                        cursor = Math.Min(line.Length, cursor + 1);
                        break;
                    case ConsoleKey.Home:
                    case ConsoleKey.A when ctrl:
                        cursor = 0;
                        break;
                    case ConsoleKey.End:
                    case ConsoleKey.E when ctrl:
                        cursor = line.Length;
                        break;
                    case ConsoleKey.UpArrow or ConsoleKey.DownArrow:
                    case ConsoleKey.P or ConsoleKey.N when ctrl:
                        bool up = key.Key is ConsoleKey.UpArrow or ConsoleKey.P;
                        int next = up ? recalled - 1 : recalled + 1;
                        if (next < 0 || next > history.Count) continue;
                        if (recalled == history.Count) typed = line.ToString();
                        recalled = next;
                        line.Clear().Append(recalled == history.Count ? typed : history[recalled]);
                        cursor = line.Length;
                        break;
                    case ConsoleKey.U when ctrl:
                        line.Remove(0, cursor);
                        cursor = 0;
                        break;
                    case ConsoleKey.K when ctrl:
                        line.Remove(cursor, line.Length - cursor);
                        break;
                    case ConsoleKey.C when ctrl:
                        Redraw(prompt, line, line.Length);
                        output.Write("^C\n");
                        output.Flush();
                        Interrupted = true;
                        return "";
                    case ConsoleKey.D when ctrl:
                        if (line.Length > 0)
                        {
                            if (cursor < line.Length) line.Remove(cursor, 1);
                            break;
                        }
                        output.Write('\n');
                        output.Flush();
                        return null;
                    default:
                        if (key.KeyChar == '\0' || char.IsControl(key.KeyChar)) continue;
                        line.Insert(cursor++, key.KeyChar);
                        break;
                }
                Redraw(prompt, line, cursor);
            }
        }
        finally
        {
            Console.TreatControlCAsInput = treatCtrlC;
        }
    }

    private void Redraw(string prompt, StringBuilder line, int cursor)
    {
        int width = TerminalWidth();
        var sb = new StringBuilder();
        if (_cursorRow > 0) sb.Append("\u001b[").Append(_cursorRow).Append('A');
        sb.Append('\r').Append(prompt).Append(line).Append("\u001b[J");
        int end = prompt.Length + line.Length;
        // A line ending exactly at the right margin leaves the cursor waiting to wrap: wrap it, so rows count plainly.
        if (end % width == 0) sb.Append(" \r\u001b[K");
        int target = prompt.Length + cursor;
        int up = end / width - target / width;
        if (up > 0) sb.Append("\u001b[").Append(up).Append('A');
        sb.Append('\r');
        if (target % width > 0) sb.Append("\u001b[").Append(target % width).Append('C');
        _cursorRow = target / width;
        output.Write(sb.ToString());
        output.Flush();
    }

    private static int TerminalWidth()
    {
        try
        {
            return Math.Max(Console.WindowWidth, 10);
        }
        catch (IOException)
        {
            return 80;
        }
    }
}

/// <summary>
/// The lines typed at the shell, oldest first, kept in ~/.sharc_history between sessions (as sqlite3 keeps
/// ~/.sqlite_history). Empty lines and a repeat of the previous line are not added.
/// </summary>
internal sealed class History
{
    private const int MaxLines = 1000;
    private readonly List<string> _lines = [];
    private readonly string? _path;

    private History(string? path)
    {
        _path = path;
    }

    /// <summary>The number of lines.</summary>
    public int Count => _lines.Count;

    /// <summary>Line <paramref name="i"/>, 0 the oldest.</summary>
    public string this[int i] => _lines[i];

    /// <summary>The history in the user's history file, or an empty one kept in memory when there is no home directory.</summary>
    public static History Load()
    {
        string home = Environment.GetFolderPath(Environment.SpecialFolder.UserProfile);
        var history = new History(home.Length == 0 ? null : Path.Combine(home, ".sharc_history"));
        try
        {
            if (history._path is not null && File.Exists(history._path))
                foreach (var line in File.ReadLines(history._path)) history.Add(line);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // An unreadable history is no reason to refuse a shell.
        }
        return history;
    }

    /// <summary>Adds a line typed.</summary>
    public void Add(string line)
    {
        if (line.Trim().Length == 0 || (_lines.Count > 0 && _lines[^1] == line)) return;
        _lines.Add(line);
        if (_lines.Count > MaxLines) _lines.RemoveRange(0, _lines.Count - MaxLines);
    }

    /// <summary>Writes the history back to its file (nothing for an in-memory history); failures are ignored.</summary>
    public void Save()
    {
        if (_path is null) return;
        try
        {
            File.WriteAllLines(_path, _lines);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Losing the history is better than failing at exit.
        }
    }
}
