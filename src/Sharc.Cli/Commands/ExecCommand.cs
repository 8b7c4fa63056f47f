using Sharc.Cli.Output;
using Sharc.Sql.Ast;
using Sharc.Sql.Parsing;

namespace Sharc.Cli.Commands;

/// <summary>
/// <c>sharc exec &lt;db&gt; ["&lt;sql&gt;" | - | --file script.sql] [--format &lt;fmt&gt;]</c>: runs a script of SQL
/// statements against the database, creating the file when it does not exist (as the sqlite3 shell does), and prints
/// the rows of each statement that has some (SELECT, RETURNING, PRAGMA) in the formats of <c>sharc query</c>. The script
/// is the argument, standard input ("-", or no argument when standard input is redirected), or a file.
/// </summary>
internal sealed class ExecCommand : ICommand
{
    private static readonly OptionSpec[] Options =
    [
        new("format", 'f', "fmt", $"output format: {RowWriters.Names} (default table)"),
        new("file", null, "path", "read the script from this file"),
    ];

    public string Name => "exec";

    public string Synopsis => "exec <db> [<sql> | - | --file <path>] [--format <fmt>]";

    public string Summary => "run SQL statements (writes included) and print their rows";

    public string Help =>
        "usage: sharc " + Synopsis + "\n" +
        "\n" +
        "Runs one or more SQL statements separated by ';' against the database, in order: INSERT, UPDATE, DELETE\n" +
        "(with OR conflict clauses and RETURNING), CREATE / DROP / ALTER, BEGIN / COMMIT / ROLLBACK / SAVEPOINT,\n" +
        "PRAGMA, SELECT. The file is created when it does not exist; PRAGMA page_size, encoding and auto_vacuum at\n" +
        "the start of the script choose how. Rows of SELECT, RETURNING and PRAGMA are printed per statement.\n" +
        "\n" +
        "The script is the <sql> argument; or standard input, with '-' or when no <sql> is given and input is\n" +
        "redirected (sharc exec app.db < script.sql); or the file named by --file.\n" +
        "\n" +
        "Each statement outside BEGIN … COMMIT is committed when it ends. On an error the tool stops and prints\n" +
        "where: source:line:column of the script, the message, and the statement (exit status 1). Statements before\n" +
        "it keep their effect, and a transaction the script left open is rolled back, as the sqlite3 shell does.\n" +
        "\n" +
        "options:\n" +
        CommandLine.DescribeOptions(Options) +
        "\n" +
        "formats: as for 'sharc dump'.\n";

    public int Execute(string[] args, TextWriter stdout, TextWriter stderr)
    {
        var line = CommandLine.Parse(Name, args, Options);
        var format = RowWriters.ParseFormat(line.Get("format") ?? "table", Name);
        var (path, script, source) = ReadScript(line);

        using var db = OpenOrCreate(path, script);
        try
        {
            ScriptRunner.Run(db, script, source, reader => RowWriters.WriteAll(format, stdout, reader));
        }
        finally
        {
            db.RollbackOpenSqlTransaction();
        }
        return Program.ExitOk;
    }

    /// <summary>The database path and the script with its source, from the argument, standard input or --file.</summary>
    private (string Path, string Script, ScriptSource Source) ReadScript(CommandLine line)
    {
        string? file = line.Get("file");
        var console = CliConsole.Current;
        if (line.Positionals.Count == 0) line.Expect("db", "sql");
        string path = line.Positionals[0];
        if (file is not null)
        {
            line.Expect("db");
            try
            {
                return (path, File.ReadAllText(file), new ScriptSource(file));
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                throw CliException.DataError($"{Name}: cannot read the script {file}: {e.Message}", e);
            }
        }
        if (line.Positionals.Count == 1 && !console.StdinIsRedirected)
            throw CliException.UsageError($"{Name}: missing <sql> (give the script as an argument, as '-' to read standard input, or with --file <path>)");
        string sql = line.Positionals.Count == 1 ? "-" : line.Expect("db", "sql")[1];
        return sql == "-" ? (path, console.Stdin.ReadToEnd(), new ScriptSource("stdin")) : (path, sql, new ScriptSource("sql"));
    }

    /// <summary>Opens the file for writing, or creates it with the settings of the script's leading PRAGMAs.</summary>
    internal static SharcDatabase OpenOrCreate(string path, string sql)
    {
        DatabaseFile.RefuseDirectory(path);
        if (File.Exists(path) && new FileInfo(path).Length > 0)
        {
            try
            {
                return DatabaseFile.OpenWithKey(path, writable: true);
            }
            catch (UnauthorizedAccessException e)
            {
                throw CliException.DataError($"{path}: permission denied", e);
            }
            catch (SharcException e)
            {
                throw CliException.DataError($"{path}: {e.Message}", e);
            }
        }
        if (DatabaseFile.Key is not { } key) return SharcDatabase.Create(path, CreateOptions(sql));
        using var k = SharcEncryptionKey.Parse(key);
        var options = CreateOptions(sql);
        return SharcDatabase.Create(path, new SharcCreateOptions
        {
            Key = k, TextEncoding = options.TextEncoding, AutoVacuum = options.AutoVacuum, JournalMode = options.JournalMode, Overwrite = options.Overwrite,
        });
    }

    private static SharcCreateOptions CreateOptions(string sql)
    {
        int pageSize = 4096;
        var encoding = SharcTextEncoding.Utf8;
        var autoVacuum = SharcAutoVacuum.None;
        foreach (var statement in SqlParser.ParseScript(sql, out _))
        {
            if (statement is not SqlPragmaStatement { Value: { } value } pragma) break;
            switch (pragma.Name.ToLowerInvariant())
            {
                case "page_size" when int.TryParse(value, out int size) && size >= 512 && size <= 65536 && (size & (size - 1)) == 0:
                    pageSize = size;
                    break;
                case "encoding":
                    encoding = value.ToLowerInvariant() switch
                    {
                        "utf-16le" or "utf-16" => SharcTextEncoding.Utf16LE,
                        "utf-16be" => SharcTextEncoding.Utf16BE,
                        _ => SharcTextEncoding.Utf8,
                    };
                    break;
                case "auto_vacuum":
                    autoVacuum = value.ToLowerInvariant() switch
                    {
                        "full" or "1" => SharcAutoVacuum.Full,
                        "incremental" or "2" => SharcAutoVacuum.Incremental,
                        _ => SharcAutoVacuum.None,
                    };
                    break;
            }
        }
        return new SharcCreateOptions { Overwrite = true, PageSize = pageSize, TextEncoding = encoding, AutoVacuum = autoVacuum };
    }
}
