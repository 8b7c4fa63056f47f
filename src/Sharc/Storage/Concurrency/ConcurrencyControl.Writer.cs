namespace Sharc.Storage.Concurrency;

/// <summary>Write ownership: one writer at a time, identified by its flow.</summary>
internal sealed partial class ConcurrencyControl
{
    private readonly object _writeGate = new();
    // Explicit transactions outlive a call, so they are owned by an async flow; statements only by a thread, which
    // costs nothing to check and sets no AsyncLocal (whose every change allocates).
    private readonly AsyncLocal<object?> _flow = new();
    private object? _ownerFlow;
    private int _ownerThread;
    private volatile bool _owned;

    /// <summary>True when the calling flow holds the write lock (inside its transaction or statement).</summary>
    public bool CurrentFlowOwnsWrite
    {
        get
        {
            if (!_owned) return false;
            if (_ownerThread != 0) return _ownerThread == Environment.CurrentManagedThreadId;
            var owner = _ownerFlow;
            return owner is not null && ReferenceEquals(_flow.Value, owner);
        }
    }

    /// <summary>True while some flow holds the write lock.</summary>
    public bool WriteOwned => _owned;

    /// <summary>What <see cref="EnterStatement"/> took, to hand back to <see cref="ExitStatement"/>.</summary>
    public enum Entry : byte
    {
        /// <summary>Nothing: the thread's own enclosing statement holds the lock.</summary>
        None,
        /// <summary>The write lock, for this statement alone.</summary>
        Lock,
        /// <summary>The transaction's flow gate: tasks of the owning flow write one statement at a time.</summary>
        FlowGate,
    }

    // Tasks started inside a transaction's flow belong to it (as an ambient TransactionScope with async flow does),
    // so they may run at once on several threads: their statements take turns here.
    private readonly object _flowGate = new();

    /// <summary>
    /// Takes the write lock for a statement on this thread, waiting up to <paramref name="timeout"/> for another
    /// flow's transaction or statement; inside this flow's own transaction, takes the flow's statement gate instead.
    /// </summary>
    public Entry EnterStatement(TimeSpan timeout, string path)
    {
        if (CurrentFlowOwnsWrite)
        {
            if (_ownerThread != 0) return Entry.None;
            if (!Monitor.TryEnter(_flowGate, timeout))
                throw new SharcBusyException($"database is locked: another task of this transaction is writing {path} (waited {timeout.TotalMilliseconds:0} ms, the busy timeout)");
            return Entry.FlowGate;
        }
        Enter(timeout, path, transaction: false);
        return Entry.Lock;
    }

    /// <summary>Hands back what <see cref="EnterStatement"/> took.</summary>
    public void ExitStatement(Entry entry)
    {
        if (entry == Entry.Lock) Exit();
        else if (entry == Entry.FlowGate) Monitor.Exit(_flowGate);
    }

    /// <summary>Takes the write lock for an explicit transaction of the calling async flow.</summary>
    public void EnterTransaction(TimeSpan timeout, string path)
    {
        if (!Enter(timeout, path, transaction: true))
            throw new InvalidOperationException("a transaction is already open on this thread (or async flow): commit or roll it back first");
    }

    private bool Enter(TimeSpan timeout, string path, bool transaction)
    {
        if (CurrentFlowOwnsWrite) return false;
        lock (_writeGate)
        {
            if (_owned && !MonitorWait.Until(_writeGate, timeout, this, static cc => !cc._owned))
                throw new SharcBusyException($"database is locked: another thread's transaction or statement is writing {path} (waited {timeout.TotalMilliseconds:0} ms, the busy timeout)");
            if (transaction)
            {
                var token = new object();
                _flow.Value = token;
                _ownerFlow = token;
                _ownerThread = 0;
            }
            else
            {
                _ownerFlow = null;
                _ownerThread = Environment.CurrentManagedThreadId;
            }
            _owned = true;
        }
        return true;
    }

    /// <summary>Releases the write lock (the transaction or statement ended) and wakes one waiting writer.</summary>
    public void Exit()
    {
        lock (_writeGate)
        {
            if (_ownerFlow is not null && ReferenceEquals(_flow.Value, _ownerFlow)) _flow.Value = null;
            _ownerFlow = null;
            _ownerThread = 0;
            _owned = false;
            Monitor.PulseAll(_writeGate);
        }
    }
}
