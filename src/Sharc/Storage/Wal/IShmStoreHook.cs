namespace Sharc.Storage.Wal;

/// <summary>
/// Sees each store into the shared wal-index just before it happens. Crash tests implement it on their storage
/// system: throwing from <see cref="BeforeStore"/> stops the writer between two stores, which leaves the mapped -shm
/// exactly as the stores before it left it, what other processes see after a kill -9 at that instant. The OS storage
/// does not implement it, so a store costs one null check more.
/// </summary>
internal interface IShmStoreHook
{
    /// <summary>Called before one store (a header copy, a checkpoint field, a read mark, a hash-table entry or clear).</summary>
    void BeforeStore();
}
