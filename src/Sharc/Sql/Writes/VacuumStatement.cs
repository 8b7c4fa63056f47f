using Sharc.Sql.Ast;
using Sharc.Sql.Execution;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;
using Sharc.Schema.Parsing;

namespace Sharc.Sql.Writes;

/// <summary>
/// VACUUM [schema] and VACUUM [schema] INTO file, on the named database of the connection (main by default; temp is
/// in memory and left as it is). Refused inside a transaction, with SQLite's words.
/// </summary>
internal static class VacuumStatement
{
    public static StatementOutcome Run(SharcDatabase db, string sql, SqlVacuumStatement vacuum, SqlValue[] parameters)
    {
        var target = vacuum.Schema is { } schema
            ? db.FindDatabase(schema) ?? throw new SharcSqlException($"unknown database {schema}", sql, vacuum.Start)
            : db.FindDatabase("main")!;
        if (db.InExplicitTransaction || target.InExplicitTransaction)
            throw new SharcSqlException(SharcDatabase.VacuumInTransactionMessage, sql, vacuum.Start);
        string? into = null;
        if (vacuum.Into is { } file)
        {
            // SQLite's VACUUM INTO takes only a text value as the file name.
            into = Attachments.Text(db, sql, file, parameters, nonTextError: "non-text filename");
        }
        try
        {
            if (into is not null) target.VacuumInto(into);
            else if (vacuum.Schema is not null && SqlNameComparer.Instance.Equals(vacuum.Schema, "temp")) return StatementOutcome.None;
            else target.Vacuum();
        }
        catch (SharcException e) when (e.GetType() == typeof(SharcException))
        {
            throw new SharcSqlException(e.Message, sql, vacuum.Start);
        }
        return StatementOutcome.None;
    }
}
