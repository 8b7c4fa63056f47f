using Sharc.Sql.Intent;

namespace Sharc.Sql.Planning;

/// <summary>How plans describe the sources of compounds, VALUES and CTEs.</summary>
internal static class CompoundPlans
{
    public static string Describe(IntentSource source) => source switch
    {
        CompoundSource c => c.Ordering.Count > 0 ? $"MERGE {c.Arms.Count} SELECTS (ORDER BY)" : $"COMPOUND {c.Arms.Count} SELECTS",
        ValuesSource v => $"SCAN {v.Rows.Count} VALUES ROWS",
        MaterializedSource m => $"SCAN {m.Name} (MATERIALIZED)",
        RecursiveCteSource r => $"RECURSIVE {r.Name}" + (r.Ordering.Count > 0 ? " (PRIORITY QUEUE)" : " (QUEUE)"),
        RecursiveRefSource r => $"SCAN {r.Name} (RECURSIVE ROW)",
        TableFunctionSource t => $"SCAN {t.Name} VIRTUAL TABLE",
        _ => "SCAN " + source.Name,
    };
}
