using Sharc.Sql.Ast;
using Sharc.Sql.Execution;
using Sharc.Sql.Values;

namespace Sharc.Sql.Writes;

/// <summary>
/// A statement other than SELECT held by a <see cref="PreparedQuery"/>: parsed once, with its parameter slots; an
/// INSERT is also compiled once (again after a schema change), so a warm prepared insert evaluates, converts and
/// writes its row into reused buffers.
/// </summary>
internal sealed class PreparedWrite : IDisposable
{
    private readonly SharcDatabase _db;
    private DmlInsert? _insert;
    private RowIdWrite? _byRowId;
    private SharcSchema? _byRowIdSchema;

    public PreparedWrite(SharcDatabase db, string sql, SqlStatement statement)
    {
        _db = db;
        Sql = sql;
        Statement = statement;
        Parameters = new SqlValue[statement.ParameterCount];
        EmptyRows = new QueryExecution([], []);
    }

    public string Sql { get; }

    public SqlStatement Statement { get; }

    /// <summary>Parameter values by slot (1-based slot n is index n − 1).</summary>
    public SqlValue[] Parameters { get; }

    /// <summary>The rows of a statement that returns none (reused, so running one allocates no reader state).</summary>
    public QueryExecution EmptyRows { get; }

    /// <summary>Runs the statement with the bound parameters.</summary>
    public StatementOutcome Run()
    {
        if (Statement is SqlInsertStatement insert && _db.Schema.FindTable(insert.Table.Name) is not null)
        {
            if (_insert is null || !ReferenceEquals(_insert.Schema, _db.Schema))
            {
                _insert?.Dispose();
                _insert = null;
                _insert = DmlInsert.Compile(_db, Sql, insert);
            }
            var outcome = _insert.Run(Parameters);
            _db.LastChanges = outcome.Changes;
            return outcome;
        }
        if (Statement is SqlUpdateStatement or SqlDeleteStatement && TryRunByRowId(out var byRowId)) return byRowId;
        return SqlScript.RunStatement(_db, Sql, Statement, Parameters);
    }

    /// <summary>UPDATE / DELETE of one row by rowid: straight to the writer (see <see cref="RowIdWrite"/>).</summary>
    private bool TryRunByRowId(out StatementOutcome outcome)
    {
        outcome = default;
        // Attached and temp databases route statements by name (DatabaseRouting): the general path decides there.
        if (_db.Connection.TempViewSet is { Databases.Count: > 0 }) return false;
        if (!ReferenceEquals(_byRowIdSchema, _db.Schema))
        {
            _byRowIdSchema = _db.Schema;
            _byRowId = RowIdWrite.TryCompile(_db, Statement);
        }
        return _byRowId is not null && _byRowId.TryRun(Parameters, out outcome);
    }

    public void Dispose() => _insert?.Dispose();
}
