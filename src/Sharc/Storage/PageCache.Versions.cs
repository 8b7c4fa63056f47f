namespace Sharc.Storage;

/// <summary>
/// The version store: committed images of pages that a commit has since replaced, kept for readers of older
/// versions (see <see cref="Concurrency.ConcurrencyControl"/>). Lookups at a version and the cache's own lookups
/// happen under one lock, so a reader never sees a page between its old image being kept and its new one published.
/// </summary>
internal sealed partial class PageCache
{
    /// <summary>An image of a page valid for versions before <see cref="SupersededAt"/>; older images follow.</summary>
    private sealed class OldImage(byte[] image, long supersededAt, OldImage? older)
    {
        public readonly byte[] Image = image;
        public readonly long SupersededAt = supersededAt;
        public OldImage? Older = older;
    }

    private readonly Dictionary<uint, OldImage> _versions = new();

    /// <summary>The number of pages with kept images (for tests).</summary>
    public int VersionedPages
    {
        get
        {
            lock (_lock) return _versions.Count;
        }
    }

    /// <summary>Borrows <paramref name="page"/> as it was in committed version <paramref name="version"/>.</summary>
    public PageRef AcquireAt(uint page, long version)
    {
        lock (_lock)
        {
            if (_versions.Count != 0 && TryOld(page, version, out var old)) return old;
            return AcquireLocked(page);
        }
    }

    /// <summary><see cref="Exchange"/> at a committed version.</summary>
    public PageRef ExchangeAt(in PageRef previous, uint page, long version)
    {
        lock (_lock)
        {
            ReleaseLocked(previous);
            if (_versions.Count != 0 && TryOld(page, version, out var old)) return old;
            return AcquireLocked(page);
        }
    }

    private bool TryOld(uint page, long version, out PageRef found)
    {
        found = default;
        if (!_versions.TryGetValue(page, out var image) || image.SupersededAt <= version) return false;
        // The oldest image replaced after this version is the one the version saw.
        while (image.Older is { } older && older.SupersededAt > version) image = older;
        found = new PageRef(image.Image, 0, _pageSize, page, -1);
        return true;
    }

    /// <summary>
    /// Keeps the committed image of <paramref name="page"/> for readers of versions before
    /// <paramref name="supersededAt"/>: the cached copy when there is one, else what storage holds now (the caller
    /// has not overwritten it yet).
    /// </summary>
    public void KeepVersion(uint page, long supersededAt)
    {
        lock (_lock)
        {
            var image = new byte[_pageSize];
            if (_map.TryGetValue(page, out int slot)) _slots[slot].Buffer.CopyTo(image, 0);
            else _load(page, image);
            _versions.TryGetValue(page, out var older);
            _versions[page] = new OldImage(image, supersededAt, older);
        }
    }

    /// <summary>Drops images no reader needs: those replaced at or before <paramref name="oldestReader"/>.</summary>
    public void PruneVersions(long oldestReader)
    {
        lock (_lock)
        {
            if (_versions.Count == 0) return;
            List<uint>? drop = null;
            foreach (var (page, newest) in _versions)
            {
                if (newest.SupersededAt <= oldestReader)
                {
                    (drop ??= new()).Add(page);
                    continue;
                }
                var keep = newest;
                while (keep.Older is { } older)
                {
                    if (older.SupersededAt <= oldestReader)
                    {
                        keep.Older = null;
                        break;
                    }
                    keep = older;
                }
            }
            if (drop is not null)
                foreach (uint page in drop) _versions.Remove(page);
        }
    }
}
