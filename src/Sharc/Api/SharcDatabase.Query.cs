using Sharc.Sql.Execution;
using Sharc.Sql.Planning;

namespace Sharc;

public sealed partial class SharcDatabase
{
    /// <summary>How many plans <see cref="Query(string, object?[])"/> keeps, by SQL text.</summary>
    private const int PlanCacheCapacity = 256;

    private readonly Dictionary<string, QueryPlan> _plans = new(StringComparer.Ordinal);
    private readonly Queue<string> _planOrder = new();
    private readonly Lock _planLock = new();

    /// <summary>
    /// Runs a SELECT and returns a reader over its rows. Any other statement is run too (see
    /// <see cref="Execute(string, object?[])"/>) and the reader serves its RETURNING or PRAGMA rows, or none. Parameters (<c>?</c>, <c>?NNN</c>, <c>:name</c>,
    /// <c>@name</c>, <c>$name</c>) take <paramref name="parameters"/> by slot number, as SQLite numbers them (the
    /// first value is slot 1); every slot needs a value (pass null or DBNull for NULL). Values are stored as
    /// Microsoft.Data.Sqlite stores them: null, integers, floating-point numbers, bool and enums as numbers; strings,
    /// char, decimal, Guid, DateTime, DateTimeOffset, DateOnly, TimeOnly and TimeSpan as text; byte arrays as blobs.
    /// </summary>
    /// <remarks>
    /// The statement is parsed and planned once per SQL text: plans are cached (a bounded number of them) and made
    /// again after a schema change. Semantics are SQLite's: type affinity, comparisons across storage classes,
    /// collations, three-valued logic, SQLite's functions and aggregates. Rows stream: a filtered scan reads the
    /// table once and keeps nothing; only DISTINCT, GROUP BY and ORDER BY hold rows (ORDER BY with LIMIT keeps
    /// just LIMIT + OFFSET of them). The reader's getters convert as on any <see cref="SharcDataReader"/>; text and
    /// blobs are valid until the next <see cref="SharcDataReader.Read"/>.
    /// </remarks>
    /// <exception cref="ArgumentException">Fewer values than the statement has parameters (the first one missing is named).</exception>
    /// <exception cref="ObjectDisposedException">The database was disposed.</exception>
    /// <exception cref="SharcSqlException">
    /// The text does not parse, names an unknown table, column or function, or uses SQL that Sharc does not run yet
    /// (the message then says "… is not supported"). The position is in <see cref="SharcSqlException.Line"/> and
    /// <see cref="SharcSqlException.Column"/>.
    /// </exception>
    public SharcDataReader Query(string sql, params object?[] parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        ThrowIfDisposed();
        if (RunUnlessSelect(sql, parameters) is { } rows) return rows;
        for (int attempt = 0; ; attempt++)
        {
            var plan = GetPlan(sql);
            QueryExecution execution;
            try
            {
                execution = QueryExecution.Rent(this, plan);
            }
            // Its readers are made by name: an index or table the plan chose may have been dropped by another thread since.
            catch (SharcException) when (attempt < QueryExecution.MaxSchemaRetries && !IsCurrent(plan))
            {
                continue;
            }
            try
            {
                execution.BindAll(parameters);
                if (execution.StartOnPlanSchema() || attempt == QueryExecution.MaxSchemaRetries) return new SharcDataReader(this, execution);
            }
            catch
            {
                execution.Release();
                throw;
            }
            execution.Release();
        }
    }

    /// <summary>
    /// Runs a statement like <see cref="Query(string, object?[])"/>, binding its parameters by name: ":a", "@a", "$a"
    /// (or the name without its prefix) take the value of that key. <see cref="SharcParameters.From"/> makes the
    /// dictionary from an object: <c>db.Query(sql, SharcParameters.From(new { id = 5 }))</c>.
    /// </summary>
    /// <exception cref="ArgumentException">A parameter has no value in <paramref name="parameters"/> (its name is in the message).</exception>
    public SharcDataReader Query(string sql, IReadOnlyDictionary<string, object?> parameters)
    {
        ArgumentNullException.ThrowIfNull(sql);
        ArgumentNullException.ThrowIfNull(parameters);
        ThrowIfDisposed();
        var statement = Sql.Parsing.SqlParser.ParseStatement(sql);
        return Query(sql, SharcParameters.ToPositional(statement.ParameterNames, statement.ParameterCount, parameters));
    }

    /// <summary>
    /// Parses and plans a SELECT once for repeated execution with different parameter values: bind them with
    /// <see cref="PreparedQuery.Bind(int, long)"/> and its overloads (or pass them to
    /// <see cref="PreparedQuery.Execute(object?[])"/>), then read the reader <see cref="PreparedQuery.Execute(object?[])"/>
    /// returns. After the first execution, running a filtered scan or a point lookup again allocates nothing.
    /// Any other statement (INSERT, UPDATE, DELETE, DDL, PRAGMA) is prepared too: each execution runs it, the reader
    /// serves its RETURNING or PRAGMA rows, and <see cref="LastChanges"/> tells what it changed; an INSERT is compiled
    /// once, so a warm prepared insert allocates a few dozen bytes.
    /// </summary>
    /// <exception cref="SharcSqlException">As for <see cref="Query(string, object?[])"/>.</exception>
    public PreparedQuery Prepare(string sql)
    {
        ThrowIfDisposed();
        return PrepareUnlessSelect(sql) ?? new(this, GetPlan(sql));
    }

    /// <summary>
    /// Splits a script into the text of its statements (without the ';' between them, comments kept inside), as
    /// SQLite's sqlite3_prepare walks a script: for running each with <see cref="Prepare"/>, as ADO.NET providers do.
    /// </summary>
    /// <exception cref="SharcSqlException">A statement does not parse (the position is in the script).</exception>
    public static IReadOnlyList<string> SplitStatements(string sql)
    {
        ArgumentNullException.ThrowIfNull(sql);
        var statements = Sql.Parsing.SqlParser.ParseScript(sql);
        var texts = new string[statements.Count];
        for (int i = 0; i < texts.Length; i++) texts[i] = sql[statements[i].Start..statements[i].End];
        return texts;
    }

    /// <summary>
    /// How the statement would run, in the spirit of EXPLAIN QUERY PLAN: one line per query level (SCAN or SEARCH,
    /// the index or rowid used, and how ORDER BY, GROUP BY and DISTINCT are done).
    /// </summary>
    internal string Explain(string sql) => GetPlan(sql).Describe();

    /// <summary>The cached plan for <paramref name="sql"/>, made (again) when missing or made under another schema.</summary>
    internal QueryPlan GetPlan(string sql)
    {
        ArgumentNullException.ThrowIfNull(sql);
        var schema = Schema;
        lock (_planLock)
        {
            if (_plans.TryGetValue(sql, out var cached) && IsCurrent(cached)) return cached;
        }
        var plan = QueryPlan.Create(schema, sql, TempViewSet);
        lock (_planLock)
        {
            if (!_plans.ContainsKey(sql))
            {
                if (_plans.Count >= PlanCacheCapacity) _plans.Remove(_planOrder.Dequeue());
                _planOrder.Enqueue(sql);
            }
            _plans[sql] = plan;
        }
        return plan;
    }
}
