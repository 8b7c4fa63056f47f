namespace Sharc.Storage.Locking;

/// <summary>
/// First come, first served turns to write among the connections of this process to one database file.
/// </summary>
/// <remarks>
/// The file locks themselves have no queue: a writer that finds RESERVED (or WAL's write lock) taken polls with
/// backoff, as SQLite's busy handler does, and a connection that commits and begins again at once wins the lock
/// again and again. With several connections per process (a connection per request or per thread) one of them could
/// wait out its whole busy timeout while the others kept writing. Connections of one process therefore queue here
/// before they poll for the file lock, and each finished transaction hands the turn to the longest waiting one, so
/// only other processes are left to poll against. The queue never decides who may write — the file locks still do.
/// </remarks>
internal sealed class WriterQueue
{
    private static readonly Dictionary<string, WriterQueue> s_queues = new(StringComparer.Ordinal);

    private readonly string _key;
    private readonly LinkedList<object> _waiting = new();
    private object? _owner;
    private int _users;

    private WriterQueue(string key) => _key = key;

    /// <summary>The queue of the file at <paramref name="fullPath"/>, shared with every other user of that path until each calls <see cref="Leave"/>.</summary>
    public static WriterQueue Join(string fullPath)
    {
        lock (s_queues)
        {
            if (!s_queues.TryGetValue(fullPath, out var queue)) s_queues.Add(fullPath, queue = new WriterQueue(fullPath));
            queue._users++;
            return queue;
        }
    }

    /// <summary>Ends one user's membership; the last one removes the queue. <paramref name="who"/> gives up any turn it holds.</summary>
    public void Leave(object who)
    {
        Exit(who);
        lock (s_queues)
        {
            if (--_users == 0) s_queues.Remove(_key);
        }
    }

    /// <summary>Takes the turn if it is free and nobody waits for it; never blocks.</summary>
    public bool TryEnter(object who)
    {
        lock (_waiting)
        {
            if (_owner == who) return true;
            if (_owner is not null || _waiting.Count > 0) return false;
            _owner = who;
            return true;
        }
    }

    /// <summary>Waits in line for the turn until <paramref name="deadline"/>; false when it passed first (and the place in line is given up).</summary>
    public bool Enter(object who, DateTime deadline)
    {
        lock (_waiting)
        {
            if (_owner == who) return true;
            if (_owner is null && _waiting.Count == 0)
            {
                _owner = who;
                return true;
            }
            var place = _waiting.AddLast(who);
            while (_owner != who)
            {
                var left = deadline - DateTime.UtcNow;
                if (left <= TimeSpan.Zero)
                {
                    _waiting.Remove(place);
                    return false;
                }
                Monitor.Wait(_waiting, left);
            }
            return true;
        }
    }

    /// <summary>Hands <paramref name="who"/>'s turn to the longest waiting connection (no-op when it holds none).</summary>
    public void Exit(object who)
    {
        lock (_waiting)
        {
            if (_owner != who) return;
            // Handed over directly rather than freed: a connection arriving meanwhile cannot jump the line.
            if (_waiting.First is { } next)
            {
                _waiting.RemoveFirst();
                _owner = next.Value;
                Monitor.PulseAll(_waiting);
            }
            else _owner = null;
        }
    }

    /// <summary>How many connections wait in line (for tests).</summary>
    public int Waiting
    {
        get
        {
            lock (_waiting) return _waiting.Count;
        }
    }

    /// <summary>True when <paramref name="who"/> holds the turn.</summary>
    public bool IsHeldBy(object who)
    {
        lock (_waiting) return _owner == who;
    }
}
