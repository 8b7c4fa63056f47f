namespace Sharc.Graph;

/// <summary>Why a traversal's last execution ended.</summary>
public enum StopReason
{
    /// <summary>Everything reachable within the depth limit (and filters and fan-out cap) was visited.</summary>
    Completed,
    /// <summary>The node budget (<see cref="BfsOptions.MaxNodes"/>) was reached; more nodes may have been reachable.</summary>
    NodeBudget,
    /// <summary>The time budget (<see cref="BfsOptions.TimeBudget"/>) ran out; more nodes may have been reachable.</summary>
    TimeBudget,
}
