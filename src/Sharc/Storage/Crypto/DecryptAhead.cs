namespace Sharc.Storage.Crypto;

/// <summary>
/// Authenticates and decrypts the pages after a sequential run of cache misses on a thread-pool thread, so a cold
/// scan of an encrypted database spends a second core on the HMAC and AES work instead of waiting for it page by page.
/// </summary>
/// <remarks>
/// <para>A window of <see cref="Depth"/> pages after the last miss is shared by the reader and one helper: whoever
/// claims pages decrypts them into the window's own buffers; the reader copies a finished page into the cache. A
/// claim takes up to eight pages, whose HMACs are computed side by side where the codec can
/// (<see cref="PageCodec.DecryptsInBatches"/>): then a reader whose page nobody claimed takes it with the window's
/// unclaimed pages in one batch, and the helper waits until half a batch is free. While the page it needs is still
/// being decrypted, the reader decrypts the next unclaimed ones rather than wait idle.
/// Failures are never reported from the helper: a page it could not read or authenticate is left for the reader,
/// which reads it again and throws the typed error itself.</para>
/// <para>A finished page carries the read epoch it was claimed in (<see cref="IReadAheadSource.ReadEpoch"/>, which
/// changes whenever a read session begins or ends). It is used only while that epoch lasts: the session that held the
/// shared lock when the page was claimed then held it through the read, so no page from another commit is mixed in.
/// The buffers are allocated at their first use; steady state allocates nothing.</para>
/// </remarks>
internal sealed class DecryptAhead : IThreadPoolWorkItem
{
    /// <summary>Pages decrypted ahead of the reader at most.</summary>
    public const int Depth = 16;

    /// <summary>Pages one claim takes at most: a batch whose HMACs are computed side by side.</summary>
    private const int MaxRun = HmacSha512x8.Lanes;

    /// <summary>How long an idle helper waits for the reader's next miss before it leaves (a scan's pages come faster).</summary>
    private static readonly TimeSpan Linger = TimeSpan.FromMilliseconds(2);

    /// <summary>Failed: the helper could not read or authenticate the page; it stays claimed so nobody retries it.</summary>
    private enum State : byte { Free, Working, Ready, Failed }

    // One core: no helper (it would only take turns with the reader); the reader still decrypts in batches.
    private static readonly bool s_helpers = Environment.ProcessorCount > 1;

    private readonly IReadAheadSource _source;
    private readonly PageCodec _codec;
    private readonly object _gate = new();
    private readonly byte[][] _buffers = new byte[Depth][];
    private readonly uint[] _pages = new uint[Depth];
    private readonly long[] _epochs = new long[Depth];
    private readonly State[] _states = new State[Depth];
    private readonly bool[] _byHelper = new bool[Depth];
    // One batch for the reader and one for the helper, which may decrypt at the same time.
    private readonly Batch _readerBatch = new(), _helperBatch = new();
    // The helper waits for a run this long where runs are batched (one page a batch costs as much as a full batch).
    private readonly int _helperMinRun;
    private uint _front;
    private uint _lastMiss = uint.MaxValue - 1;
    private bool _running;
    private bool _disposed;

    public DecryptAhead(IReadAheadSource source, PageCodec codec)
    {
        _source = source;
        _codec = codec;
        _helperMinRun = codec.DecryptsInBatches ? MaxRun / 2 : 1;
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
                // A lingering helper is woken only when it has a run to claim: a wake-up per page costs a context
                // switch each, about what authenticating a page in a batch costs.
                if (_running && HasUnclaimed(_source.ReadEpoch)) Monitor.PulseAll(_gate);
            }
            if (sequential && !_running && s_helpers && HasUnclaimed(_source.ReadEpoch))
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
                if (ours && _states[slot] == State.Working)
                {
                    // The helper is on it: decrypt the next pages meanwhile, or wait when the window is all taken.
                    if (DecryptRun(_readerBatch, byHelper: false, withFront: false, minRun: 1) == 0) Monitor.Wait(_gate);
                    continue;
                }
                // Nobody has it: where pages authenticate in batches, the reader takes its page and the window's
                // unclaimed ones in one batch (a sequential scan on one core then pays a batch's cost per MaxRun pages).
                if (ours || !sequential || !_codec.DecryptsInBatches) return false;
                if (DecryptRun(_readerBatch, byHelper: false, withFront: true, minRun: 1) == 0 || !_readerBatch.HadFront) return false;
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
                    if (DecryptRun(_helperBatch, byHelper: true, withFront: false, minRun: _helperMinRun) > 0) continue;
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
    /// Under the gate: claims up to <see cref="MaxRun"/> unclaimed pages of the window (with the reader's own page
    /// first when <paramref name="withFront"/>), at least <paramref name="minRun"/>, and reads, authenticates and
    /// decrypts them with the gate released. Returns how many were claimed.
    /// </summary>
    private int DecryptRun(Batch batch, bool byHelper, bool withFront, int minRun)
    {
        long epoch = _source.ReadEpoch;
        int n = Claim(epoch, batch, withFront, minRun);
        if (n == 0) return 0;
        Monitor.Exit(_gate);
        try
        {
            for (int i = 0; i < n; i++)
            {
                try
                {
                    _source.ReadStored(batch.Pages[i], batch.Buffers[i]);
                    batch.Read[i] = true;
                }
                catch (Exception)
                {
                    batch.Read[i] = false;
                }
            }
            _codec.DecryptInPlace(batch.Pages.AsSpan(0, n), batch.Buffers, batch.Ok.AsSpan(0, n));
        }
        catch (Exception)
        {
            batch.Ok.AsSpan(0, n).Clear();
        }
        finally
        {
            Monitor.Enter(_gate);
        }
        for (int i = 0; i < n; i++)
        {
            int slot = batch.Slots[i];
            // A page that could not be read or authenticated is left for the reader, which reports what is wrong.
            _states[slot] = batch.Read[i] && batch.Ok[i] ? State.Ready : State.Failed;
            _byHelper[slot] = byHelper;
        }
        Monitor.PulseAll(_gate);
        return n;
    }

    private bool HasUnclaimed(long epoch) => Claim(epoch, null, withFront: false, _helperMinRun) > 0;

    /// <summary>Under the gate: claims pages of the window into <paramref name="batch"/> (or only counts them, when null).</summary>
    private int Claim(long epoch, Batch? batch, bool withFront, int minRun)
    {
        // The window is the reader's page and the Depth - 1 after it, so its slots are distinct and the reader's own
        // slot is never handed to another page while it waits for it.
        uint last = (uint)Math.Min((long)_front + Depth - 1, _source.PageCount);
        int n = 0;
        Span<int> slots = stackalloc int[MaxRun];
        Span<uint> pages = stackalloc uint[MaxRun];
        for (uint q = withFront ? _front : _front + 1; q <= last && n < MaxRun; q++)
        {
            int i = (int)(q % Depth);
            if (_states[i] == State.Working) continue;
            // Still useful: a page of the window finished (or given up) in this epoch. Anything else in the slot is stale.
            if (_states[i] is State.Ready or State.Failed && _epochs[i] == epoch && _pages[i] >= _front && _pages[i] <= last) continue;
            slots[n] = i;
            pages[n++] = q;
        }
        if (n < minRun) return 0;
        if (batch is null) return n;
        batch.HadFront = false;
        for (int k = 0; k < n; k++)
        {
            int i = slots[k];
            _states[i] = State.Working;
            _pages[i] = pages[k];
            _epochs[i] = epoch;
            batch.Slots[k] = i;
            batch.Pages[k] = pages[k];
            batch.Buffers[k] = _buffers[i] ??= new byte[_codec.PageSize];
            batch.HadFront |= pages[k] == _front;
        }
        return n;
    }

    /// <summary>One claimer's batch: slots, pages and their buffers (the window's), allocated once.</summary>
    private sealed class Batch
    {
        public readonly int[] Slots = new int[MaxRun];
        public readonly uint[] Pages = new uint[MaxRun];
        public readonly byte[][] Buffers = new byte[MaxRun][];
        public readonly bool[] Read = new bool[MaxRun];
        public readonly bool[] Ok = new bool[MaxRun];
        public bool HadFront;
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
