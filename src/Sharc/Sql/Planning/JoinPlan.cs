using Sharc.Format;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Planning;

/// <summary>How one step of a join finds the rows of its item for the current row of the steps before it.</summary>
internal enum JoinMethod : byte
{
    /// <summary>Runs the item's access path again for each outer row (a seek when one fits, else a scan).</summary>
    Loop,
    /// <summary>Reads the item once per execution into a hash table on the equality keys, then probes it.</summary>
    Hash,
    /// <summary>Reads the item once per execution and walks all of it for each outer row.</summary>
    Materialize,
}

/// <summary>
/// An equality between the item of a step (<see cref="Build"/>) and the steps before it (<see cref="Probe"/>), with
/// the comparison's affinity and collation. Hashing by it only narrows: the equality itself still decides.
/// </summary>
internal sealed record HashKey(IntentExpr Probe, IntentExpr Build, SqlAffinity Affinity, Collation Collation);

/// <summary>
/// One step of a join in the chosen order: the item it binds, its join kind, the method, the access path (for a loop
/// over a table: the seek, whose key may read earlier items; for a hash or a materialized table: how it is read
/// once), <see cref="Match"/> (an outer join's ON: it decides matching, rows that fail it are null-extended, not
/// dropped), <see cref="BuildFilter"/> (terms on the item alone, checked once when it is read), and
/// <see cref="Filter"/> (the WHERE and inner-join terms whose items are all bound, and null-extended, by now).
/// </summary>
internal sealed record JoinStep(
    int Item,
    JoinKind Kind,
    JoinMethod Method,
    AccessPlan Access,
    IntentExpr? Match,
    IntentExpr? BuildFilter,
    IntentExpr? Filter,
    IReadOnlyList<HashKey> Keys,
    string Description);

/// <summary>The plan of a join level: its steps, outermost first.</summary>
internal sealed record JoinPlan(IReadOnlyList<JoinStep> Steps);
