using Sharc.Format;

namespace Sharc.Write;

/// <summary>
/// How the C# API's row writes fire triggers. The SQL layer implements it (triggers are SQL programs); the API
/// calls it only for tables that have triggers, so writes to other tables never pay for it.
/// </summary>
internal interface ITriggerHook
{
    /// <summary>Inserts a row (OR REPLACE when <paramref name="replace"/>), firing INSERT triggers; 0 when a BEFORE trigger raised IGNORE.</summary>
    long Insert(TableWriter writer, StoredValue[] row, bool replace, StoredValue explicitRowId);

    /// <summary>Updates some columns of a row, firing UPDATE triggers; false when the row is missing or was skipped.</summary>
    bool Update(TableWriter writer, long rowId, int[] columns, StoredValue[] values);

    /// <summary>Deletes a row, firing DELETE triggers; false when the row is missing or was skipped.</summary>
    bool Delete(TableWriter writer, long rowId);
}
