using Sharc.Sql.Ast;
using Sharc.Sql.Execution;
using Sharc.Sql.Intent;
using Sharc.Sql.Parsing;
using Sharc.Sql.Values;

namespace Sharc.Sql.Writes;

/// <summary>
/// What one statement produced: the rows it changed (for INSERT, UPDATE and DELETE, as sqlite3_changes counts them)
/// and, for SELECT, RETURNING and PRAGMA, its rows.
/// </summary>
internal readonly record struct StatementOutcome(int Changes, bool IsDml, QueryExecution? Rows)
{
    public static StatementOutcome None => default;
}

/// <summary>Parameter values for a script: by slot, or by name (each statement numbers its own slots).</summary>
internal readonly record struct ScriptParameters(SqlValue[] Positional, IReadOnlyDictionary<string, object?>? Named)
{
    /// <summary>The values of <paramref name="statement"/>'s slots.</summary>
    public SqlValue[] For(SqlStatement statement)
    {
        if (Named is null)
        {
            ThrowHelper.EnsureAllParameters(statement.ParameterNames, statement.ParameterCount, Positional.Length);
            return Positional;
        }
        var named = SharcParameters.ToPositional(statement.ParameterNames, statement.ParameterCount, Named);
        var values = new SqlValue[named.Length];
        for (int i = 0; i < values.Length; i++) values[i] = SqlValue.FromObject(named[i]);
        return values;
    }
}

/// <summary>
/// Runs SQL scripts: statements one by one, as sqlite3_exec does — statements before a failing one keep their
/// effect, and a syntax error stops the script where it is.
/// </summary>
internal static class SqlScript
{
    /// <summary>
    /// Runs every statement of <paramref name="sql"/>; <paramref name="rows"/>, when given, receives a reader over
    /// the rows of each statement that has some (SELECT, RETURNING, PRAGMA) — it must read them before returning.
    /// Returns the changes of the last INSERT, UPDATE or DELETE.
    /// </summary>
    public static int Run(SharcDatabase db, string sql, ScriptParameters parameters, Action<SharcDataReader>? rows)
    {
        var statements = SqlParser.ParseScript(sql, out var error);
        // Each statement numbers its own slots from the one list: a value no statement has a slot for is an error.
        int slots = statements.Count == 0 ? 0 : statements.Max(s => s.ParameterCount);
        if (parameters.Named is null && parameters.Positional.Length > slots)
            ThrowHelper.TooManyParameters(slots, parameters.Positional.Length, "parameters");
        int changes = 0;
        foreach (var statement in statements)
        {
            var outcome = RunStatement(db, sql, statement, parameters.For(statement));
            if (outcome.IsDml) changes = outcome.Changes;
            if (outcome.Rows is null) continue;
            using var reader = new SharcDataReader(db, outcome.Rows);
            if (rows is not null) rows(reader);
            else while (reader.Read()) { }
        }
        if (error is not null) throw error;
        return changes;
    }

    /// <summary>Runs one parsed statement of <paramref name="sql"/>.</summary>
    public static StatementOutcome RunStatement(SharcDatabase db, string sql, SqlStatement statement, SqlValue[] parameters)
    {
        if (statement.Explain != SqlExplainMode.None)
            Unsupported.Throw(statement.Explain == SqlExplainMode.QueryPlan ? "EXPLAIN QUERY PLAN" : "EXPLAIN", sql, statement.Start);
        if (DatabaseRouting.Target(db, statement) is var target && !ReferenceEquals(target, db))
        {
            target.JoinConnectionTransaction();
            return RunStatement(target, sql, statement, parameters);
        }
        // A write runs as one statement for Interrupt; a SELECT's execution counts itself while its rows are read.
        bool counted = statement is not SqlSelectStatement;
        if (counted) db.Interruption.Enter();
        try
        {
            var outcome = ViewTriggers.TryRun(db, sql, statement, parameters, out var onView) ? onView : statement switch
            {
                SqlSelectStatement select => Select(db, sql, select, parameters),
                SqlInsertStatement insert => DmlInsert.Run(db, sql, insert, parameters),
                SqlUpdateStatement update => DmlChange.Update(db, sql, update, parameters),
                SqlDeleteStatement delete => DmlChange.Delete(db, sql, delete, parameters),
                SqlPragmaStatement pragma => Pragmas.Run(db, sql, pragma),
                SqlBeginStatement or SqlCommitStatement or SqlRollbackStatement or SqlSavepointStatement or SqlReleaseStatement
                    => Transaction(db, statement),
                _ => DdlStatements.Run(db, sql, statement, parameters),
            };
            if (outcome.IsDml) db.LastChanges = outcome.Changes;
            return outcome;
        }
        catch (SharcSqlException e) when (IsPositionless(e))
        {
            throw new SharcSqlException(e.SqliteMessage, sql, statement.Start);
        }
        finally
        {
            if (counted) db.Interruption.Exit();
        }
    }

    /// <summary>Errors raised away from the SQL text (transaction control) carry no position: they are placed at their statement.</summary>
    private static bool IsPositionless(SharcSqlException e) => e.Data.Contains(PositionlessKey);

    internal const string PositionlessKey = "Sharc.Positionless";

    /// <summary>An error raised where the statement's text is not at hand; <see cref="RunStatement"/> places it at its statement.</summary>
    internal static SharcSqlException Positionless(string message)
    {
        var e = new SharcSqlException(message, "", 0);
        e.Data[PositionlessKey] = true;
        return e;
    }

    private static StatementOutcome Select(SharcDatabase db, string sql, SqlSelectStatement select, SqlValue[] parameters)
    {
        var plan = Planning.QueryPlan.Create(db.Schema, sql, select, db.TempViewSet);
        var execution = new QueryExecution(db, plan, ownedByReader: true);
        DmlTarget.Bind(execution.Context.Parameters, parameters);
        execution.Start();
        return new StatementOutcome(0, false, execution);
    }

    private static StatementOutcome Transaction(SharcDatabase db, SqlStatement statement)
    {
        switch (statement)
        {
            case SqlBeginStatement:
                db.SqlBegin();
                break;
            case SqlCommitStatement:
                db.SqlCommit();
                break;
            case SqlRollbackStatement { Savepoint: null }:
                db.SqlRollback();
                break;
            case SqlRollbackStatement rollback:
                db.SqlRollbackTo(rollback.Savepoint);
                break;
            case SqlSavepointStatement savepoint:
                db.SqlSavepoint(savepoint.Name);
                break;
            case SqlReleaseStatement release:
                db.SqlRelease(release.Name);
                break;
        }
        return StatementOutcome.None;
    }
}
