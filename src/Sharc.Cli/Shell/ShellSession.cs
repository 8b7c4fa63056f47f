using System.Diagnostics;
using System.Globalization;
using System.Text;
using Sharc.Cli.Commands;
using Sharc.Cli.Output;

namespace Sharc.Cli.Shell;

/// <summary>
/// The state of one <c>sharc shell</c>: the database, the output mode, headers and timer, and the statement being
/// typed. Lines go in through <see cref="Run"/>; SQL runs when a ';' completes a statement, a line starting with '.'
/// is a dot-command. Errors are reported and the session goes on, as in the sqlite3 shell.
/// </summary>
internal sealed class ShellSession(string path, TextWriter stdout, TextWriter stderr, bool interactive) : IDisposable
{
    /// <summary>The prompt for a new statement.</summary>
    public const string Prompt = "sharc> ";

    /// <summary>The prompt for the next line of an unfinished statement.</summary>
    public const string ContinuationPrompt = "   ...> ";

    private readonly bool _interactive = interactive;
    private readonly string _source = interactive ? "input" : "stdin";
    private SharcDatabase? _db;
    // sqlite3's defaults for a script (list, no headers); a person at a terminal gets a table.
    private OutputFormat _mode = interactive ? OutputFormat.Table : OutputFormat.List;
    private bool _headers = interactive;
    private bool _timer;

    /// <summary>True once any statement or dot-command failed (the exit status of a non-interactive shell is then 1).</summary>
    public bool HadError { get; private set; }

    /// <summary>Reads lines until the end of input or <c>.quit</c>.</summary>
    public void Run(ILineReader lines)
    {
        var statement = new StringBuilder();
        int lineNumber = 0, statementLine = 0;
        while (true)
        {
            string? line = lines.ReadLine(statement.Length == 0 ? Prompt : ContinuationPrompt);
            if (line is null) break;
            lineNumber++;
            if (lines.Interrupted)
            {
                statement.Clear();
                continue;
            }
            if (statement.Length == 0)
            {
                if (line.Trim().Length == 0) continue;
                if (line.TrimStart().StartsWith('.'))
                {
                    if (!Guard(() => DotCommand(line.Trim()))) break;
                    continue;
                }
                statementLine = lineNumber;
            }
            statement.Append(line).Append('\n');
            string text = statement.ToString();
            if (!StatementCompleteness.IsComplete(text)) continue;
            statement.Clear();
            Guard(() => RunSql(text, statementLine));
        }
        // Input ended inside a statement: run it, so its error says what is missing (as sqlite3 reports "incomplete input").
        if (statement.Length > 0 && statement.ToString().Trim().Length > 0)
        {
            string rest = statement.ToString();
            Guard(() => RunSql(rest, statementLine));
        }
    }

    /// <summary>Runs <paramref name="action"/>, reporting an expected failure; returns what it returns (false ends the session).</summary>
    private bool Guard(Func<bool> action)
    {
        try
        {
            return action();
        }
        catch (Exception e) when (e is CliException or SharcException || (e is IOException && e is not OutputClosedException))
        {
            HadError = true;
            stdout.Flush();
            stderr.Write("sharc: error: " + e.Message.ReplaceLineEndings(" ") + "\n");
            stderr.Flush();
            return true;
        }
    }

    private void Guard(Action action) => Guard(() =>
    {
        action();
        return true;
    });

    private void RunSql(string sql, int firstLine)
    {
        var db = _db ??= ExecCommand.OpenOrCreate(path, sql);
        long started = Stopwatch.GetTimestamp();
        var process = _timer ? Process.GetCurrentProcess() : null;
        var (user, sys) = process is null ? (TimeSpan.Zero, TimeSpan.Zero) : (process.UserProcessorTime, process.PrivilegedProcessorTime);
        // At a terminal Ctrl-C stops the running statement (as in sqlite3) instead of ending the shell.
        ConsoleCancelEventHandler? onCtrlC = _interactive ? (_, e) =>
        {
            e.Cancel = true;
            db.Interrupt();
        } : null;
        if (onCtrlC is not null) Console.CancelKeyPress += onCtrlC;
        try
        {
            ScriptRunner.Run(db, sql, new ScriptSource(_source, firstLine),
                WriteRows);
        }
        finally
        {
            if (onCtrlC is not null) Console.CancelKeyPress -= onCtrlC;
            if (process is not null)
            {
                process.Refresh();
                double real = Stopwatch.GetElapsedTime(started).TotalSeconds;
                stdout.Write(string.Create(CultureInfo.InvariantCulture,
                    $"Run Time: real {real:F3} user {(process.UserProcessorTime - user).TotalSeconds:F6} sys {(process.PrivilegedProcessorTime - sys).TotalSeconds:F6}\n"));
            }
            stdout.Flush();
        }
    }

    private void WriteRows(SharcDataReader reader)
        => RowWriters.WriteAll(RowWriters.Create(_mode, stdout, _headers), stdout, reader, Progress.None);

    /// <summary>Runs one dot-command; false for .quit / .exit.</summary>
    private bool DotCommand(string line)
    {
        var words = line.Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries);
        string arg = words.Length > 1 ? words[1] : "";
        switch (words[0])
        {
            case ".quit" or ".exit" when words.Length == 1:
                return false;
            case ".help" when words.Length == 1:
                stdout.Write(HelpText);
                break;
            case ".tables" when words.Length <= 2:
                Tables(arg);
                break;
            case ".schema" when words.Length <= 2:
                Schema(arg);
                break;
            case ".mode" when words.Length == 1:
                stdout.Write($"current output mode: {_mode.ToString().ToLowerInvariant()}\n");
                break;
            case ".mode" when words.Length == 2:
                _mode = RowWriters.ParseFormat(arg, ".mode");
                break;
            case ".headers" or ".header" when words.Length == 2:
                _headers = OnOff(words[0], arg);
                break;
            case ".import" when words.Length is 3 or 4 && (words.Length == 3 || words[1] == "--csv"):
                ImportCommand.Import(Db, words[^1], words[^2], header: true, stderr);
                break;
            case ".read" when words.Length == 2:
                Read(arg);
                break;
            case ".timer" when words.Length == 2:
                _timer = OnOff(words[0], arg);
                break;
            default:
                throw CliException.UsageError($"unknown command or invalid arguments: \"{words[0][1..]}\". Enter \".help\" for help");
        }
        stdout.Flush();
        return true;
    }

    private static bool OnOff(string command, string value) => value.ToLowerInvariant() switch
    {
        "on" or "yes" or "1" or "true" => true,
        "off" or "no" or "0" or "false" => false,
        _ => throw CliException.UsageError($"{command}: expected on or off, not '{value}'"),
    };

    /// <summary>.read: runs a script file, its errors placed in that file.</summary>
    private void Read(string file)
    {
        string script;
        try
        {
            script = File.ReadAllText(file);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw CliException.DataError($".read: cannot read {file}: {e.Message}", e);
        }
        var db = _db ??= ExecCommand.OpenOrCreate(path, script);
        ScriptRunner.Run(db, script, new ScriptSource(file), WriteRows);
    }

    /// <summary>.tables: the names of tables and views, in columns as sqlite3 lays them out.</summary>
    private void Tables(string pattern)
    {
        if (_db is null && !File.Exists(path)) return;
        var names = new List<string>();
        using (var reader = Db.Query(
            "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name LIKE ?1 ORDER BY 1",
            pattern.Length == 0 ? "%" : pattern))
        {
            while (reader.Read()) names.Add(reader.GetString(0)!);
        }
        if (names.Count == 0) return;
        const int LineWidth = 80;
        int width = names.Max(n => n.Length) + 2;
        int perLine = Math.Max(1, LineWidth / width);
        int lines = (names.Count + perLine - 1) / perLine;
        for (int row = 0; row < lines; row++)
        {
            var sb = new StringBuilder();
            for (int col = 0; col < perLine; col++)
            {
                int i = col * lines + row;
                if (i >= names.Count) break;
                sb.Append(names[i].PadRight(width));
            }
            stdout.Write(sb.ToString().TrimEnd() + "\n");
        }
    }

    /// <summary>.schema: the CREATE statements of the objects whose name (or table) matches, in schema order.</summary>
    private void Schema(string pattern)
    {
        if (_db is null && !File.Exists(path)) return;
        using var reader = Db.Query(
            "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND (name LIKE ?1 OR tbl_name LIKE ?1)",
            pattern.Length == 0 ? "%" : pattern);
        while (reader.Read()) stdout.Write(reader.GetString(0) + ";\n");
    }

    private SharcDatabase Db => _db ??= ExecCommand.OpenOrCreate(path, "");

    /// <summary>The text of .help.</summary>
    public static string HelpText =>
        ".exit                  leave the shell (so does .quit, or Ctrl-D on an empty line)\n" +
        ".headers on|off        show column names in csv and list output\n" +
        ".help                  show this message\n" +
        ".import [--csv] FILE TABLE  load a CSV file into TABLE, as 'sharc import' does\n" +
        $".mode [MODE]           set (or show) the output mode: {RowWriters.Names}\n" +
        ".quit                  leave the shell\n" +
        ".read FILE             run the SQL script in FILE\n" +
        ".schema [PATTERN]      the CREATE statements of tables, indexes, views and triggers (LIKE pattern)\n" +
        ".tables [PATTERN]      the names of tables and views (LIKE pattern)\n" +
        ".timer on|off          print how long each statement took\n" +
        "SQL statements end with ';' and may span lines. Ctrl-C abandons the statement being typed, or stops the one running.\n";

    /// <summary>Rolls back a transaction left open and closes the database.</summary>
    public void Dispose()
    {
        if (_db is null) return;
        try
        {
            _db.RollbackOpenSqlTransaction();
        }
        finally
        {
            _db.Dispose();
        }
    }
}
