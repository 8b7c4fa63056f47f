namespace Sharc.Cli.Commands;

/// <summary>Opens the database a command names, turning the ways that can fail into one clear message.</summary>
internal static class DatabaseFile
{
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
        try
        {
            return SharcDatabase.Open(path);
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
            throw CliException.DataError($"{path}: {e.Message}", e);
        }
    }
}
