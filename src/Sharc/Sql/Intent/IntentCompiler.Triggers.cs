using Sharc.Format;
using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using Sharc.Sql.Functions;
using Sharc.Sql.Values;

namespace Sharc.Sql.Intent;

/// <summary>
/// The NEW and OLD rows a trigger program sees. Their values travel as parameters (a trigger body has no parameters
/// of its own): NEW's columns take slots 0…n-1 and its rowid slot n, OLD's the next n+1 slots.
/// </summary>
/// <param name="Table">The table the trigger is on (null for a view: its columns then have no affinity).</param>
/// <param name="Columns">The column names of the table or view.</param>
/// <param name="HasNew">INSERT and UPDATE triggers see NEW.</param>
/// <param name="HasOld">UPDATE and DELETE triggers see OLD.</param>
internal sealed record TriggerRows(SharcTable? Table, IReadOnlyList<string> Columns, bool HasNew, bool HasOld)
{
    /// <summary>Slots per row: the columns and the rowid.</summary>
    public int Width => Columns.Count + 1;

    /// <summary>The number of parameter slots both rows take.</summary>
    public int SlotCount => 2 * Width;

    /// <summary>The first slot of OLD.</summary>
    public int OldBase => Width;
}

/// <summary>An error RAISE() throws to end a trigger program: IGNORE skips the row that fired it (see the trigger runner).</summary>
internal sealed class TriggerIgnoreException() : Exception("RAISE(IGNORE)");

internal sealed partial class IntentCompiler
{
    // Statements of a trigger body are compiled by the same entry points as any other statement (DML, SELECT, row
    // expressions); the trigger's rows reach the compiler through this per-thread setting rather than through every
    // one of those signatures. Compilation never leaves the thread that set it.
    [ThreadStatic]
    private static TriggerRows? t_triggerRows;

    private readonly TriggerRows? _triggerRows = t_triggerRows;

    /// <summary>The data key under which a constraint error records the conflict action that governs it.</summary>
    internal const string ConflictActionKey = "Sharc.ConflictAction";

    /// <summary>
    /// Makes NEW./OLD. references and RAISE() compile, for statements compiled on this thread until the returned
    /// value is disposed (calls nest: each restores the rows it replaced).
    /// </summary>
    public static TriggerRowsScope EnterTrigger(TriggerRows? rows)
    {
        var previous = t_triggerRows;
        t_triggerRows = rows;
        return new TriggerRowsScope(previous);
    }

    /// <summary>Restores the trigger rows in effect before <see cref="EnterTrigger"/>.</summary>
    internal readonly struct TriggerRowsScope(TriggerRows? previous) : IDisposable
    {
        public void Dispose() => t_triggerRows = previous;
    }

    /// <summary>
    /// NEW.x / OLD.x when no source of the statement answers to the name: a parameter slot with the column's
    /// affinity and collation, as SQLite's trigger rows carry them. Null when the reference is not to a trigger row.
    /// </summary>
    private IntentExpr? ResolveTriggerColumn(SqlColumnRef c)
    {
        var rows = _triggerRows;
        if (rows is null || c.Table is null || c.Schema is not null) return null;
        int rowBase;
        if (rows.HasNew && SqlText.EqualsIgnoreCase(c.Table, "new")) rowBase = 0;
        else if (rows.HasOld && SqlText.EqualsIgnoreCase(c.Table, "old")) rowBase = rows.OldBase;
        else return null;
        for (int i = 0; i < rows.Columns.Count; i++)
        {
            if (!SqlNameComparer.Instance.Equals(rows.Columns[i], c.Name)) continue;
            if (rows.Table is not { } table) return new ParameterExpr(rowBase + i) { Offset = c.Start };
            var column = TableColumns(table)[i];
            if (column.UnknownCollation is not null) throw Error($"no such collation sequence: {column.UnknownCollation}", c.Start);
            var p = new ParameterExpr(rowBase + i) { Affinity = column.Affinity, Offset = c.Start };
            return column.Collation == Collation.Binary ? p : new CollateExpr(p, column.Collation) { Affinity = column.Affinity, Offset = c.Start };
        }
        if (rows.Table is { IsWithoutRowId: false } && IsRowIdName(c.Name))
            return new ParameterExpr(rowBase + rows.Columns.Count) { Affinity = SqlAffinity.Integer, Offset = c.Start };
        return null;
    }

    /// <summary>
    /// RAISE(action, message) inside a trigger program: a call that throws when evaluated (never folded, so it
    /// fires only for the rows that reach it).
    /// </summary>
    private IntentExpr Raise(SqlRaiseExpr r, Scope scope, Clause clause)
    {
        if (_triggerRows is null) throw Error("RAISE() may only be used within a trigger-program", r.Start);
        var action = r.Action;
        var function = new ScalarFunction("raise", 0, 1, (args, _) => throw RaiseError(action, args.Length > 0 ? args[0] : SqlValue.Null), deterministic: false);
        IReadOnlyList<IntentExpr> arguments = r.Message is null ? [] : [Compile(r.Message, scope, clause)];
        return new FunctionExpr(function, arguments, Collation.Binary) { Offset = r.Start };
    }

    private static Exception RaiseError(SqlRaiseAction action, SqlValue message)
    {
        if (action == SqlRaiseAction.Ignore) return new TriggerIgnoreException();
        var e = new SharcConstraintException(message.IsNull ? "" : Writes.WriteValues.Describe(message));
        e.Data[ConflictActionKey] = action switch
        {
            SqlRaiseAction.Rollback => SqlConflictAction.Rollback,
            SqlRaiseAction.Fail => SqlConflictAction.Fail,
            _ => SqlConflictAction.Abort,
        };
        return e;
    }
}
