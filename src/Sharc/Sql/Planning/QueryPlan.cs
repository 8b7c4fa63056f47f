using System.Text;
using Sharc.Sql.Ast;
using Sharc.Sql.Intent;
using Sharc.Sql.Parsing;
using TempViews = Sharc.Sql.TempViews;

namespace Sharc.Sql.Planning;

/// <summary>
/// A SELECT parsed, compiled and planned: immutable, so one plan serves every execution and every thread. It is
/// tied to the schema it was made from; a schema change makes it stale.
/// </summary>
internal sealed class QueryPlan
{
    /// <summary>
    /// One finished execution of this plan kept for the next <c>Query</c> call (the only mutable part of a plan,
    /// taken and put back atomically): building an execution — operators, readers, hash tables — costs far more
    /// than running a small statement, and a cached plan is usually run again by the same caller.
    /// </summary>
    internal Execution.QueryExecution? IdleExecution;

    private QueryPlan(string sql, SharcSchema schema, TempViews? views, StatementIntent statement, Dictionary<QueryIntent, LevelPlan> levels)
    {
        Sql = sql;
        _otherSchemas = statement.OtherSchemas;
        Schema = schema;
        Views = views;
        Statement = statement;
        Levels = levels;
        var top = statement.Query;
        Columns = new ColumnSource[top.VisibleCount];
        for (int i = 0; i < Columns.Length; i++)
        {
            var p = top.Projections[i];
            Columns[i] = new ColumnSource { Name = p.Name, Kind = ColumnKind.Field, Field = i, Column = p.TableColumn };
        }
    }

    public string Sql { get; }

    /// <summary>The schema the plan was made from (a reader of another schema must plan again).</summary>
    public SharcSchema Schema { get; }

    /// <summary>The connection's temp views the plan was made with (registering or dropping one makes it stale).</summary>
    public TempViews? Views { get; }

    public StatementIntent Statement { get; }

    // The schemas of the temp and attached databases (in Views.Databases order) the statement was compiled against.
    private readonly SharcSchema[]? _otherSchemas;

    /// <summary>True when no temp or attached database's schema changed since the plan was made.</summary>
    public bool OtherSchemasCurrent()
    {
        if (_otherSchemas is null || Views is null) return true;
        var databases = Views.Databases;
        for (int i = 0; i < _otherSchemas.Length; i++)
            if (!ReferenceEquals(databases[i].Database.Schema, _otherSchemas[i])) return false;
        return true;
    }

    /// <summary>The plan of every level, by intent identity.</summary>
    public IReadOnlyDictionary<QueryIntent, LevelPlan> Levels { get; }

    /// <summary>The result columns as readers describe them.</summary>
    public ColumnSource[] Columns { get; }

    public int ParameterCount => Statement.ParameterCount;

    /// <summary>Parses, compiles and plans a SELECT against <paramref name="schema"/>.</summary>
    public static QueryPlan Create(SharcSchema schema, string sql, TempViews? views = null)
    {
        var statement = SqlParser.ParseStatement(sql);
        return Create(schema, sql, statement, views);
    }

    /// <summary>Compiles and plans an already parsed statement, which must be a SELECT.</summary>
    public static QueryPlan Create(SharcSchema schema, string sql, SqlStatement statement, TempViews? views = null)
    {
        var intent = IntentCompiler.CompileStatement(schema, sql, statement, views);
        return new QueryPlan(sql, schema, views, intent, Planner.PlanAll(intent.Query));
    }

    /// <summary>
    /// A description of the plan in the spirit of EXPLAIN QUERY PLAN: one line per query level (per step of a join),
    /// the statement's own level first, then its subqueries and views.
    /// </summary>
    public string Describe()
    {
        var sb = new StringBuilder();
        bool first = true;
        foreach (var (intent, level) in Levels)
        {
            if (!first) sb.Append('\n');
            // A join describes each of its steps on a line of its own: each line names the level it belongs to.
            string prefix = first ? "" : $"SUBQUERY {intent.Frame}: ";
            sb.Append(prefix).Append(level.Description.Replace("\n", "\n" + prefix, StringComparison.Ordinal));
            first = false;
        }
        return sb.ToString();
    }
}
