namespace Sharc.Cli.Commands;

/// <summary>Opens the database a command names, turning the ways that can fail into one clear message.</summary>
internal static class DatabaseFile
{
    private static readonly AsyncLocal<string?> CurrentKey = new();

    /// <summary>The --key of the running command (a SQLCipher key: a passphrase or x'hex'), or null.</summary>
    public static string? Key
    {
        get => CurrentKey.Value;
        set => CurrentKey.Value = value;
    }

    /// <summary>
    /// Removes the shared --key option (<c>--key &lt;k&gt;</c> or <c>--key=&lt;k&gt;</c>, before any "--") from a command's
    /// arguments, so every command that opens a database takes it without declaring it.
    /// </summary>
    public static string[] TakeKeyOption(string command, string[] args, out string? key)
    {
        key = null;
        var rest = new List<string>(args.Length);
        for (int i = 0; i < args.Length; i++)
        {
            string a = args[i];
            if (a == "--")
            {
                rest.AddRange(args.AsSpan(i).ToArray());
                break;
            }
            string? value = null;
            if (a == "--key")
            {
                if (i + 1 >= args.Length) throw CliException.UsageError($"{command}: option --key needs a value <passphrase or x'hex'>");
                value = args[++i];
            }
            else if (a.StartsWith("--key=", StringComparison.Ordinal)) value = a["--key=".Length..];
            else
            {
                rest.Add(a);
                continue;
            }
            if (key is not null) throw CliException.UsageError($"{command}: option --key given more than once");
            if (value.Length == 0) throw CliException.UsageError($"{command}: option --key needs a non-empty value");
            key = value;
        }
        return [.. rest];
    }

    /// <summary>Open options carrying the --key, if any (the key is copied into the database's codec, so it is not kept).</summary>
    public static SharcDatabase OpenWithKey(string path, bool writable)
    {
        if (Key is not { } key) return SharcDatabase.Open(path, new SharcOpenOptions { Writable = writable });
        using var k = SharcEncryptionKey.Parse(key);
        return SharcDatabase.Open(path, new SharcOpenOptions { Writable = writable, Key = k });
    }

    /// <summary>A directory where a database file is expected is an error naming it.</summary>
    public static void RefuseDirectory(string path)
    {
        if (Directory.Exists(path)) throw CliException.DataError($"{path}: is a directory, not a database file");
    }

    /// <summary>
    /// Opens <paramref name="path"/> with <see cref="SharcDatabase.Open"/>. A missing file, a directory, an
    /// unreadable file, or a file Sharc rejects becomes a <see cref="CliException"/> naming the path.
    /// </summary>
    public static SharcDatabase Open(string path)
    {
        RefuseDirectory(path);
        SharcDatabase? db = null;
        try
        {
            db = OpenWithKey(path, writable: false);
            // Open reads page 1 only; every command reads the schema, so a malformed one is reported here, as
            // a file too damaged to open, before a command starts its output.
            _ = db.Schema;
            return db;
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException)
        {
            throw CliException.DataError($"{path}: no such file", e);
        }
        catch (UnauthorizedAccessException e)
        {
            throw CliException.DataError($"{path}: permission denied", e);
        }
        catch (IOException e)
        {
            throw CliException.DataError($"{path}: cannot read: {e.Message}", e);
        }
        catch (SharcException e)
        {
            db?.Dispose();
            throw CliException.DataError($"{path}: {e.Message}", e);
        }
    }
}
