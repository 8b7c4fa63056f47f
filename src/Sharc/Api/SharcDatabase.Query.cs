using Sharc.Sql.Execution;
using Sharc.Sql.Planning;

namespace Sharc;

public sealed partial class SharcDatabase
{
    /// <summary>How many plans <see cref="Query"/> keeps, by SQL text.</summary>
    private const int PlanCacheCapacity = 256;

    private readonly Dictionary<string, QueryPlan> _plans = new(StringComparer.Ordinal);
    private readonly Queue<string> _planOrder = new();
    private readonly Lock _planLock = new();

    /// <summary>
    /// Runs a SELECT and returns a reader over its rows. Any other statement is run too (see
    /// <see cref="Execute(string, object?[])"/>) and the reader serves its RETURNING or PRAGMA rows, or none. Parameters (<c>?</c>, <c>?NNN</c>, <c>:name</c>,
    /// <c>@name</c>, <c>$name</c>) take <paramref name="parameters"/> by slot number, as SQLite numbers them (the
    /// first value is slot 1); slots without a value are NULL. Values may be null, integers, floating-point numbers,
    /// bool, strings or byte arrays.
    /// </summary>
    /// <remarks>
    /// The statement is parsed and planned once per SQL text: plans are cached (a bounded number of them) and made
    /// again after a schema change. Semantics are SQLite's: type affinity, comparisons across storage classes,
    /// collations, three-valued logic, SQLite's functions and aggregates. Rows stream: a filtered scan reads the
    /// table once and keeps nothing; only DISTINCT, GROUP BY and ORDER BY hold rows (ORDER BY with LIMIT keeps
    /// just LIMIT + OFFSET of them). The reader's getters convert as on any <see cref="SharcDataReader"/>; text and
    /// blobs are valid until the next <see cref="SharcDataReader.Read"/>.
    /// </remarks>
    /// <exception cref="SharcSqlException">
    /// The text does not parse, names an unknown table, column or function, or uses SQL that Sharc does not run yet
    /// (the message then says "… is not supported"). The position is in <see cref="SharcSqlException.Line"/> and
    /// <see cref="SharcSqlException.Column"/>.
    /// </exception>
    public SharcDataReader Query(string sql, params object?[] parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        if (RunUnlessSelect(sql, parameters) is { } rows) return rows;
        var execution = new QueryExecution(this, GetPlan(sql), ownedByReader: true);
        execution.BindAll(parameters);
        execution.Start();
        return new SharcDataReader(this, execution);
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
    /// <exception cref="SharcSqlException">As for <see cref="Query"/>.</exception>
    public PreparedQuery Prepare(string sql) => PrepareUnlessSelect(sql) ?? new(this, GetPlan(sql));

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
