namespace Sharc.Benchmarks.Fixtures;

/// <summary>The benchmark databases' cache: each file is built once, under a private name, and published by rename.</summary>
public static class CachedFile
{
    private static readonly object Gate = new();

    /// <summary>
    /// Returns <paramref name="path"/>, first building it with <paramref name="build"/> when it does not exist. The
    /// build writes a private temporary name that is renamed into place, so a crashed or concurrent build never
    /// leaves a half-written file under the cached name (a concurrent process may publish the same file first).
    /// </summary>
    public static string GetOrBuild(string path, Action<string> build)
    {
        lock (Gate)
        {
            if (File.Exists(path)) return path;
            Directory.CreateDirectory(System.IO.Path.GetDirectoryName(path)!);
            string tmp = path + $".{Environment.ProcessId}.tmp";
            try
            {
                build(tmp);
                try
                {
                    File.Move(tmp, path, overwrite: false);
                }
                catch (IOException) when (File.Exists(path))
                {
                    // Another process published the same (identical) file first.
                }
            }
            finally
            {
                if (File.Exists(tmp)) File.Delete(tmp);
                if (File.Exists(tmp + "-journal")) File.Delete(tmp + "-journal");
            }
            return path;
        }
    }

    /// <summary>
    /// Copies a file and syncs the copy, for a benchmark that writes to it: otherwise the first fsync of the measured
    /// commit also waits for the copy's dirty pages (the file system flushes them with it), which is setup, not engine work.
    /// </summary>
    public static void CopyDurably(string from, string to)
    {
        File.Copy(from, to, overwrite: true);
        using var f = new FileStream(to, FileMode.Open, FileAccess.ReadWrite);
        f.Flush(flushToDisk: true);
    }
}
