namespace Sharc.Storage;

/// <summary>
/// The state of a write transaction at a SAVEPOINT: a copy of every page changed so far and the page count.
/// Rolling back to it puts those pages back and forgets pages first changed after it (they return to what the file
/// holds, which the journal already saved). Copies are taken once per savepoint, so a savepoint costs memory in
/// proportion to the pages the transaction has changed when it is taken.
/// </summary>
internal sealed class PagerSnapshot
{
    internal PagerSnapshot(Dictionary<uint, byte[]> pages, uint pageCount)
    {
        Pages = pages;
        PageCount = pageCount;
    }

    internal Dictionary<uint, byte[]> Pages { get; }

    internal uint PageCount { get; }
}

internal sealed partial class Pager
{
    /// <summary>Takes a snapshot of the open transaction for SAVEPOINT.</summary>
    public PagerSnapshot TakeSnapshot()
    {
        if (!InTransaction) throw new InvalidOperationException("no write transaction is open");
        var pages = new Dictionary<uint, byte[]>(_dirty.Count);
        foreach (var (page, buf) in _dirty) pages[page] = (byte[])buf.Clone();
        return new PagerSnapshot(pages, PageCount);
    }

    /// <summary>ROLLBACK TO: the transaction's pages become what they were when <paramref name="snapshot"/> was taken.</summary>
    public void RestoreSnapshot(PagerSnapshot snapshot)
    {
        if (!InTransaction) throw new InvalidOperationException("no write transaction is open");
        foreach (var page in _dirty.Keys.ToList())
        {
            if (snapshot.Pages.ContainsKey(page)) continue;
            if (_dirty.Remove(page, out var b)) _pool.Push(b);
        }
        foreach (var (page, copy) in snapshot.Pages)
        {
            if (_dirty.TryGetValue(page, out var buf)) copy.CopyTo(buf, 0);
            else _dirty[page] = (byte[])copy.Clone();
        }
        PageCount = snapshot.PageCount;
        WriteCount++;
        DataVersion++;
    }
}
