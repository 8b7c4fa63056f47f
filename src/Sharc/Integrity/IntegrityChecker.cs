using Sharc.Storage;

namespace Sharc.Integrity;

/// <summary>What every part of the check shares: the pages, the header, the problem log and the page accounting.</summary>
internal sealed class CheckContext
{
    public CheckContext(SharcDatabase db, ProblemLog log)
    {
        Database = db;
        Source = db.Source;
        Header = CurrentHeader(db);
        Log = log;
        UsableSize = Header.UsableSize;
        PageSize = db.PageSize;
        Pages = new PageAccounting(db.PageCount, db.PageSize, log);
    }

    public SharcDatabase Database { get; }
    public IPageSource Source { get; }
    public DatabaseHeader Header { get; }
    public ProblemLog Log { get; }
    public PageAccounting Pages { get; }
    public int UsableSize { get; }
    public int PageSize { get; }
    /// <summary>Null unless the database has pointer-map pages.</summary>
    public PointerMapCheck? PointerMap { get; set; }

    /// <summary>
    /// The header as page 1 holds it now. Inside a transaction the freelist fields have moved on from the header
    /// read at open or at the last commit, while every page is read with the transaction's changes; checking
    /// against the old fields reports pages the transaction freed as "never used".
    /// </summary>
    private static DatabaseHeader CurrentHeader(SharcDatabase db)
    {
        // What is wrong with an unreadable page 1 is reported by the walk of sqlite_schema.
        try
        {
            var page = db.Source.Acquire(1);
            try
            {
                return DatabaseHeader.Parse(page.Span);
            }
            finally
            {
                db.Source.Release(page);
            }
        }
        catch (SharcException)
        {
            return db.Header;
        }
    }

    /// <summary>Copies the whole page into <paramref name="dest"/> (at least a page long); reports a page that cannot be read.</summary>
    public bool TryCopyPage(uint page, byte[] dest, in Where from)
    {
        try
        {
            var pr = Source.Acquire(page);
            try
            {
                pr.Span.CopyTo(dest);
            }
            finally
            {
                Source.Release(pr);
            }
            return true;
        }
        catch (SharcCorruptException e)
        {
            Log.Add(from, $"page {page} cannot be read: {e.Message}");
            return false;
        }
    }

    /// <summary>Reads <c>dest.Length</c> bytes at <paramref name="offset"/> of a page; reports a page that cannot be read.</summary>
    public bool TryRead(uint page, int offset, Span<byte> dest, in Where from)
    {
        try
        {
            var pr = Source.Acquire(page);
            try
            {
                pr.Span.Slice(offset, dest.Length).CopyTo(dest);
            }
            finally
            {
                Source.Release(pr);
            }
            return true;
        }
        catch (SharcCorruptException e)
        {
            Log.Add(from, $"page {page} cannot be read: {e.Message}");
            return false;
        }
    }
}

/// <summary>
/// Sharc's integrity check, in the spirit of SQLite's PRAGMA integrity_check. In order: the header's vacuum
/// fields, the freelist, every b-tree named by the schema (structure, key order, overflow chains, pointer-map
/// entries), pages nobody uses, then each table against its indexes (entry counts, missing entries, key order,
/// uniqueness, NOT NULL). Work is bounded: every page is entered at most once by the structural walks, cursor
/// walks stop past the page count, and the check ends as soon as <c>maxErrors</c> problems are found.
/// </summary>
internal static class IntegrityChecker
{
    public static IReadOnlyList<string> Run(SharcDatabase db, int maxErrors, Action<string, long, long>? progress = null)
    {
        var log = new ProblemLog(maxErrors);
        if (db.PageCount == 0) return log.Problems; // a zero-length file is an empty database
        try
        {
            if (db.PageCount >= (uint)Array.MaxLength)
            {
                log.Add($"Header: {db.PageCount} pages are more than this checker can account for");
                return log.Problems;
            }
            var ctx = new CheckContext(db, log);
            ctx.Pages.Progress = progress;
            RunAll(ctx, progress);
        }
        catch (CheckLimitReachedException)
        {
            // Enough problems reported.
        }
        return log.Problems;
    }

    private static void RunAll(CheckContext ctx, Action<string, long, long>? progress)
    {
        var schema = ctx.Database.Schema;
        var trees = CollectTrees(schema);

        uint largestRoot = 1;
        foreach (var t in trees) largestRoot = Math.Max(largestRoot, t.Root);
        PointerMapCheck.CheckHeader(ctx, largestRoot);
        if (ctx.Header.IsAutoVacuum)
        {
            ctx.PointerMap = new PointerMapCheck(ctx);
            ctx.PointerMap.ReserveMapPages();
        }

        FreelistCheck.Run(ctx);

        var structure = new BTreeStructureCheck(ctx);
        foreach (var t in trees) structure.CheckTree(t.Root, t.IsIndex);

        ctx.Pages.ReportNeverUsed();

        var consistency = new IndexConsistencyCheck(ctx);
        int tablesDone = 0;
        foreach (var table in schema.AllTables)
        {
            progress?.Invoke("tables", tablesDone++, schema.AllTables.Count);
            try
            {
                consistency.CheckTable(table);
            }
            catch (SharcException e)
            {
                // The check handles what it expects to meet; anything else the reader raises is still a problem line.
                ctx.Log.Add(Where.Tree(table.RootPage), $"table {table.Name} cannot be checked: {e.Message}");
            }
        }
    }

    private readonly record struct TreeRoot(uint Root, bool IsIndex);

    /// <summary>
    /// The b-trees the schema names, page 1 (sqlite_schema) first. A WITHOUT ROWID table's primary-key index is the
    /// table's own b-tree and is listed once; any other repeated root is listed again, so that it is reported.
    /// </summary>
    private static List<TreeRoot> CollectTrees(SharcSchema schema)
    {
        var trees = new List<TreeRoot> { new(1, false) };
        for (int n = 0; n < schema.AllTables.Count; n++)
        {
            var t = schema.AllTables[n];
            // Tables[0] is sqlite_schema itself (page 1, listed above); virtual tables have no b-tree.
            if (n == 0 || t.IsVirtual || t.RootPage == 0) continue;
            trees.Add(new(t.RootPage, t.IsWithoutRowId));
        }
        foreach (var i in schema.Indexes)
        {
            if (i.RootPage == 0 || i.IsPrimaryKey) continue;
            trees.Add(new(i.RootPage, true));
        }
        return trees;
    }
}
