using System.Runtime.CompilerServices;

namespace Sharc.Sql.Execution;

/// <summary>
/// sqlite3_interrupt's bookkeeping for one database: how many statements are running, and whether they were asked to
/// stop. The flag is cleared when a statement starts while none runs, so statements started after every interrupted
/// one has ended are not affected. Running statements poll <see cref="Check"/> between rows: one volatile read.
/// </summary>
internal sealed class StatementInterruption
{
    /// <summary>For executions outside any database statement (computed columns of a writer): never interrupted.</summary>
    public static readonly StatementInterruption Never = new();

    private int _active;
    private volatile bool _interrupted;

    /// <summary>Asks every running statement to stop.</summary>
    public void Interrupt()
    {
        if (ReferenceEquals(this, Never)) return;
        _interrupted = true;
    }

    /// <summary>A statement starts.</summary>
    public void Enter()
    {
        if (Interlocked.Increment(ref _active) == 1) _interrupted = false;
    }

    /// <summary>A statement ends (done, failed, reset or disposed).</summary>
    public void Exit() => Interlocked.Decrement(ref _active);

    /// <summary>Throws <see cref="SharcInterruptedException"/> once <see cref="Interrupt"/> was called.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Check()
    {
        if (_interrupted) Interrupted();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Interrupted() => throw new SharcInterruptedException();
}
