using Sharc.Cli.Output;
using Sharc.Sql.Ast;
using Sharc.Sql.Parsing;
using Sharc.Sql.Writes;

namespace Sharc.Cli.Commands;

/// <summary>
/// <c>sharc exec &lt;db&gt; "&lt;sql&gt;" [--format table|csv|jsonl]</c>: runs a script of SQL statements against the
/// database, creating the file when it does not exist (as the sqlite3 shell does), and prints the rows of each
/// statement that has some (SELECT, RETURNING, PRAGMA) in the formats of <c>sharc query</c>.
/// </summary>
internal sealed class ExecCommand : ICommand
{
    private static readonly OptionSpec[] Options =
    [
        new("format", 'f', "fmt", $"output format: {RowWriters.Names} (default table)"),
    ];

    public string Name => "exec";

    public string Synopsis => "exec <db> <sql> [--format table|csv|jsonl]";

    public string Summary => "run SQL statements (writes included) and print their rows";

    public string Help =>
        "usage: sharc " + Synopsis + "\n" +
        "\n" +
        "Runs one or more SQL statements separated by ';' against the database, in order: INSERT, UPDATE, DELETE\n" +
        "(with OR conflict clauses and RETURNING), CREATE / DROP / ALTER, BEGIN / COMMIT / ROLLBACK / SAVEPOINT,\n" +
        "PRAGMA, SELECT. The file is created when it does not exist; PRAGMA page_size, encoding and auto_vacuum at\n" +
        "the start of the script choose how. Rows of SELECT, RETURNING and PRAGMA are printed per statement.\n" +
        "\n" +
        "Each statement outside BEGIN … COMMIT is committed when it ends. On an error the tool stops, prints it\n" +
        "and exits with status 1: statements before it keep their effect, and a transaction the script left open\n" +
        "is rolled back, as the sqlite3 shell does.\n" +
        "\n" +
        "options:\n" +
        CommandLine.DescribeOptions(Options) +
        "\n" +
        "formats: as for 'sharc dump'.\n";

    public int Execute(string[] args, TextWriter stdout, TextWriter stderr)
    {
        var line = CommandLine.Parse(Name, args, Options);
        var p = line.Expect("db", "sql");
        var format = RowWriters.ParseFormat(line.Get("format") ?? "table", Name);
        string path = p[0], sql = p[1];

        using var db = OpenOrCreate(path, sql);
        try
        {
            SqlScript.Run(db, sql, new ScriptParameters([], null), reader => RowWriters.WriteAll(format, stdout, reader));
        }
        finally
        {
            db.RollbackOpenSqlTransaction();
        }
        return Program.ExitOk;
    }

    /// <summary>Opens the file for writing, or creates it with the settings of the script's leading PRAGMAs.</summary>
    private static SharcDatabase OpenOrCreate(string path, string sql)
    {
        if (Directory.Exists(path)) throw CliException.DataError($"{path}: is a directory, not a database file");
        if (File.Exists(path) && new FileInfo(path).Length > 0)
        {
            try
            {
                return SharcDatabase.Open(path, new SharcOpenOptions { Writable = true });
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
        return SharcDatabase.Create(path, CreateOptions(sql));
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
