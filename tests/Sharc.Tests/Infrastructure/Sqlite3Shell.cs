namespace Sharc.Tests.Infrastructure;

/// <summary>The sqlite3 shell, for tests that need SQLite in a second process (POSIX locks are per process).</summary>
public static class Sqlite3Shell
{
    public static string? Path { get; } = new[] { "/usr/bin/sqlite3", "/usr/local/bin/sqlite3" }.FirstOrDefault(File.Exists);

    /// <summary>Starts the shell on a database with its standard streams redirected.</summary>
    public static System.Diagnostics.Process Start(string path)
    {
        var psi = new System.Diagnostics.ProcessStartInfo(Path!, $"\"{path}\"")
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        return System.Diagnostics.Process.Start(psi)!;
    }

    /// <summary>
    /// Runs <paramref name="sql"/> in a new sqlite3 process with SQLite's error log on stderr (".log stderr"), where
    /// SQLite reports notices such as a wal-index rebuilt from the log ("recovered N frames from WAL file").
    /// </summary>
    public static (string Stdout, string Stderr) RunLogged(string path, string sql)
    {
        var psi = new System.Diagnostics.ProcessStartInfo(Path!)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var arg in new[] { "-cmd", ".log stderr", path, sql }) psi.ArgumentList.Add(arg);
        using var p = System.Diagnostics.Process.Start(psi)!;
        var stdout = p.StandardOutput.ReadToEndAsync();
        var stderr = p.StandardError.ReadToEndAsync();
        p.WaitForExit(60_000).Should().BeTrue("sqlite3 finishes");
        return (stdout.Result, stderr.Result);
    }
}

/// <summary>A fact skipped, with the reason, where the sqlite3 shell is not installed.</summary>
public sealed class NeedsSqlite3ShellFactAttribute : FactAttribute
{
    public NeedsSqlite3ShellFactAttribute()
    {
        if (Sqlite3Shell.Path is null) Skip = "the sqlite3 shell is not installed (apt-get install sqlite3; .ci/run installs it)";
    }
}
