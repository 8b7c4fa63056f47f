namespace Sharc.Storage.Crypto;

/// <summary>
/// Authenticates and decrypts the pages after a sequential run of cache misses on a thread-pool thread, so a cold
/// scan of an encrypted database spends a second core on the HMAC and AES work instead of waiting for it page by page.
/// </summary>
/// <remarks>
/// <para>A window of <see cref="Depth"/> pages after the last miss is shared by the reader and one helper: whoever
/// claims a page decrypts it into one of the window's own buffers; the reader copies a finished page into the cache.
/// While the page it needs is still being decrypted, the reader decrypts the next unclaimed one rather than wait idle.
/// Failures are never reported from the helper: a page it could not read or authenticate is left for the reader,
/// which reads it again and throws the typed error itself.</para>
/// <para>A finished page carries the read epoch it was claimed in (<see cref="IReadAheadSource.ReadEpoch"/>, which
/// changes whenever a read session begins or ends). It is used only while that epoch lasts: the session that held the
/// shared lock when the page was claimed then held it through the read, so no page from another commit is mixed in.
/// The buffers are allocated once; steady state allocates nothing.</para>
/// </remarks>
internal sealed class DecryptAhead : IThreadPoolWorkItem
{
    /// <summary>Pages decrypted ahead of the reader at most.</summary>
    public const int Depth = 8;

    /// <summary>How long an idle helper waits for the reader's next miss before it leaves (a scan's pages come faster).</summary>
    private static readonly TimeSpan Linger = TimeSpan.FromMilliseconds(2);

    /// <summary>Failed: the helper could not read or authenticate the page; it stays claimed so nobody retries it.</summary>
    private enum State : byte { Free, Working, Ready, Failed }

    private readonly IReadAheadSource _source;
    private readonly PageCodec _codec;
    private readonly object _gate = new();
    private readonly byte[][] _buffers = new byte[Depth][];
    private readonly uint[] _pages = new uint[Depth];
    private readonly long[] _epochs = new long[Depth];
    private readonly State[] _states = new State[Depth];
    private readonly bool[] _byHelper = new bool[Depth];
    private uint _front;
    private uint _lastMiss = uint.MaxValue - 1;
    private bool _running;
    private bool _disposed;

    public DecryptAhead(IReadAheadSource source, PageCodec codec)
    {
        _source = source;
        _codec = codec;
        for (int i = 0; i < Depth; i++) _buffers[i] = new byte[codec.PageSize];
    }

    /// <summary>
    /// Fills <paramref name="buffer"/> with plaintext page <paramref name="page"/> if the window holds it (or the helper
    /// is finishing it); false when the caller must read and decrypt the page itself. Called by one reader at a time
    /// (under the cache's lock).
    /// </summary>
    public bool TryTake(uint page, byte[] buffer)
    {
        bool sequential = page == _lastMiss + 1;
        _lastMiss = page;
        int slot = (int)(page % Depth);
        lock (_gate)
        {
            if (_disposed) return false;
            // The window starts at this page: nobody claims it or reuses its slot from now on.
            if (_front != page)
            {
                _front = page;
                // A lingering helper has new pages to claim.
                if (_running) Monitor.PulseAll(_gate);
            }
            if (sequential && !_running && HasUnclaimed(_source.ReadEpoch))
            {
                _running = true;
                ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);
            }
            while (true)
            {
                long epoch = _source.ReadEpoch;
                bool ours = _pages[slot] == page && _epochs[slot] == epoch;
                if (ours && _states[slot] == State.Ready)
                {
                    _buffers[slot].CopyTo(buffer, 0);
                    _states[slot] = State.Free;
                    if (_byHelper[slot]) TakenFromHelper++;
                    else TakenFromReader++;
                    return true;
                }
                if (!ours || _states[slot] != State.Working) return false;
                // The helper is on it: decrypt the next page meanwhile, or wait when the window is all taken.
                if (!DecryptOne(byHelper: false)) Monitor.Wait(_gate);
            }
        }
    }

    /// <summary>
    /// The helper's loop: claims and decrypts pages while the window has some; when it has none, it waits up to
    /// <see cref="Linger"/> for the reader to move the window on before it leaves. Leaving after every window and being
    /// queued again at the next miss cost a thread-pool hand-off per few pages, about as long as decrypting one.
    /// </summary>
    void IThreadPoolWorkItem.Execute()
    {
        lock (_gate)
        {
            try
            {
                while (!_disposed)
                {
                    if (DecryptOne(byHelper: true)) continue;
                    uint front = _front;
                    if (!Monitor.Wait(_gate, Linger) && _front == front) break;
                }
            }
            finally
            {
                _running = false;
                Monitor.PulseAll(_gate);
            }
        }
    }

    /// <summary>
    /// Under the gate: claims the first unclaimed page of the window and decrypts it with the gate released. False
    /// when there was none.
    /// </summary>
    private bool DecryptOne(bool byHelper)
    {
        long epoch = _source.ReadEpoch;
        if (!TryClaim(epoch, out int slot, out uint page)) return false;
        bool done = false;
        Monitor.Exit(_gate);
        try
        {
            var raw = EncryptedFile.RawScratch(_codec.PageSize);
            _source.ReadStored(page, raw);
            _codec.Decrypt(page, raw, _buffers[slot]);
            done = true;
            _byHelper[slot] = byHelper;
        }
        catch (Exception)
        {
            // Left for the reader, which reads the page again and reports what is wrong with it.
        }
        finally
        {
            Monitor.Enter(_gate);
        }
        _states[slot] = done ? State.Ready : State.Failed;
        Monitor.PulseAll(_gate);
        return true;
    }

    private bool HasUnclaimed(long epoch) => TryClaim(epoch, out _, out _, claim: false);

    private bool TryClaim(long epoch, out int slot, out uint page, bool claim = true)
    {
        // The window is the reader's page and the Depth - 1 after it, so its slots are distinct and the reader's own
        // slot is never handed to another page while it waits for it.
        uint last = (uint)Math.Min((long)_front + Depth - 1, _source.PageCount);
        for (uint q = _front + 1; q <= last; q++)
        {
            int i = (int)(q % Depth);
            if (_states[i] == State.Working) continue;
            // Still useful: a page of the window finished (or given up) in this epoch. Anything else in the slot is stale.
            if (_states[i] is State.Ready or State.Failed && _epochs[i] == epoch && _pages[i] >= _front && _pages[i] <= last) continue;
            if (claim)
            {
                _states[i] = State.Working;
                _pages[i] = q;
                _epochs[i] = epoch;
            }
            slot = i;
            page = q;
            return true;
        }
        slot = 0;
        page = 0;
        return false;
    }

    /// <summary>Pages the reader took that the helper had decrypted (diagnostics: how much of the work the second core did).</summary>
    internal long TakenFromHelper { get; private set; }

    /// <summary>Pages the reader took from the window that it had decrypted itself while the helper worked on its page.</summary>
    internal long TakenFromReader { get; private set; }

    /// <summary>True when no helper is running or queued (tests wait for it).</summary>
    internal bool IsIdle
    {
        get
        {
            lock (_gate) return !_running;
        }
    }

    /// <summary>Stops the helper; returns once it no longer touches the source (before the file is closed).</summary>
    public void Dispose()
    {
        lock (_gate)
        {
            _disposed = true;
            Monitor.PulseAll(_gate);
            while (_running) Monitor.Wait(_gate);
        }
    }
}

/// <summary>What <see cref="DecryptAhead"/> needs of the page source it works for.</summary>
internal interface IReadAheadSource
{
    /// <summary>Pages in the current snapshot.</summary>
    uint PageCount { get; }

    /// <summary>Changes whenever a read session begins or ends: a page read in one epoch is valid only in it.</summary>
    long ReadEpoch { get; }

    /// <summary>Reads page <paramref name="page"/> as stored (ciphertext) from wherever it currently lives.</summary>
    void ReadStored(uint page, byte[] target);
}
