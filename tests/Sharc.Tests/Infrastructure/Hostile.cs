namespace Sharc.Tests.Infrastructure;

/// <summary>Runs Sharc over hostile input with a time bound and classifies how it ended.</summary>
public static class Hostile
{
    public sealed record Outcome(int RowsRead, Exception? Expected, Exception? Unexpected);

    /// <summary>Opens, then reads every column of every row of every table and index (catching per object).</summary>
    public static Outcome ReadEverything(Func<SharcDatabase> open)
    {
        int rows = 0;
        Exception? expected = null;
        try
        {
            using var db = open();
            var names = db.Schema.Tables.Select(t => t.Name).Concat(db.Schema.Indexes.Select(i => i.Name)).ToList();
            foreach (var name in names)
            {
                try
                {
                    using var r = db.CreateReader(name);
                    while (r.Read())
                    {
                        rows++;
                        for (int i = 0; i < r.FieldCount; i++)
                        {
                            _ = r.GetColumnType(i);
                            _ = r.GetValue(i);
                        }
                    }
                    // Seeks walk different paths than scans.
                    if (r.FieldCount > 0 && db.Schema.FindTable(name) is { IsWithoutRowId: false, IsVirtual: false })
                        for (long k = -1; k < 50; k += 7) r.Seek(k);
                }
                catch (SharcException e)
                {
                    expected ??= e;
                }
            }
        }
        catch (SharcException e)
        {
            expected ??= e;
        }
        catch (Exception e)
        {
            return new Outcome(rows, expected, e);
        }
        return new Outcome(rows, expected, null);
    }

    /// <summary>Runs <paramref name="work"/> on its own thread with a deadline; a timeout is reported as unexpected.</summary>
    public static Outcome? Run(Func<Outcome> work, int seconds = 20)
    {
        Outcome? result = null;
        Exception? escaped = null;
        var t = new Thread(() =>
        {
            try { result = work(); }
            catch (Exception e) { escaped = e; }
        }, maxStackSize: 16 * 1024 * 1024);
        t.IsBackground = true;
        t.Start();
        if (!t.Join(TimeSpan.FromSeconds(seconds)))
            return new Outcome(0, null, new TimeoutException($"did not finish within {seconds}s (a hang?)"));
        return escaped is null ? result : new Outcome(0, null, escaped);
    }
}
