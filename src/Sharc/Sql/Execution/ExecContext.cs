using Sharc.Sql.Functions;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution;

/// <summary>
/// The state one execution of a statement shares across its operators and expressions: the parameter values, the
/// current row of every query level (by frame number) and the aggregated row of every aggregating level.
/// </summary>
internal sealed class ExecContext
{
    public ExecContext(int frameCount, int parameterCount)
    {
        Frames = new RowFrame[frameCount];
        AggregateRows = new ValuesFrame[frameCount];
        Parameters = new SqlValue[parameterCount];
    }

    /// <summary>The current source row of each query level.</summary>
    public RowFrame[] Frames { get; }

    /// <summary>The current aggregated row of each aggregating query level.</summary>
    public ValuesFrame[] AggregateRows { get; }

    /// <summary>Parameter values by slot (SQLite's index minus one); unbound slots are NULL.</summary>
    public SqlValue[] Parameters { get; }

    /// <summary>
    /// Changes with every execution, so values cached for one execution (uncorrelated subqueries, constant key
    /// lists) are recomputed for the next, whose parameters may differ.
    /// </summary>
    public int Generation { get; private set; } = 1;

    /// <summary>The database's stop flag, polled between rows (<see cref="SharcDatabase.Interrupt"/>).</summary>
    public StatementInterruption Interruption { get; set; } = StatementInterruption.Never;

    /// <summary>The database the expressions run on, for changes(), total_changes() and last_insert_rowid().</summary>
    public SharcDatabase? Database { get; init; }

    /// <summary>The random source of random() and randomblob() for this execution.</summary>
    public SqlRandom? Random { get; set; }

    /// <summary>The moment 'now' means for this execution.</summary>
    public StatementClock Clock { get; } = new();

    /// <summary>Starts a new execution.</summary>
    public void NextGeneration()
    {
        Generation = Generation == int.MaxValue ? 1 : Generation + 1;
        Clock.Reset();
    }
}
