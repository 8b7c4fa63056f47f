using Sharc.Sql.Execution;

namespace Sharc;

public sealed partial class SharcDatabase
{
    private readonly StatementInterruption _interruption = new();

    /// <summary>The running statements' stop flag; executions poll it between rows.</summary>
    internal StatementInterruption Interruption => _interruption;

    /// <summary>
    /// Stops the SQL statements running on this database, on any thread, as sqlite3_interrupt does: each fails with
    /// <see cref="SharcInterruptedException"/> at its next row (scans, joins, sorts, recursive CTEs and the rows of a
    /// write all check), and a write is undone as on any other error. Statements started after every running one has
    /// ended are not affected; with none running the call does nothing. A query counts as running from its first row
    /// until it is read to the end, fails, is executed again or its reader is disposed (as a SQLite statement until it
    /// is reset), so a reader left open keeps later statements interruptible.
    /// </summary>
    /// <remarks>
    /// To cancel with a <see cref="CancellationToken"/>, register this method on it —
    /// <c>using var registration = token.Register(db.Interrupt);</c> — keeping in mind that it stops every statement
    /// running on the database, not only the one the token was meant for. (No <c>Query</c> overload takes a token: it
    /// would compete with <c>params object?[]</c> for the same calls.)
    /// </remarks>
    public void Interrupt() => _interruption.Interrupt();
}
