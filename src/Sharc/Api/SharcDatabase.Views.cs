using Sharc.Sql;
using Sharc.Sql.Ast;
using Sharc.Sql.Intent;
using Sharc.Sql.Parsing;
using Sharc.Sql.Planning;

namespace Sharc;

public sealed partial class SharcDatabase
{
    private TempViews _tempViews = TempViews.Empty;
    private readonly Lock _viewLock = new();

    /// <summary>
    /// The connection's registered views and other databases (a temp or attached database answers its main one's), or
    /// null when there are none (so plans made before any stay current).
    /// </summary>
    internal TempViews? TempViewSet
    {
        get
        {
            if (_owner is not null) return _owner.TempViewSet;
            var views = _tempViews;
            return views.IsEmpty ? null : views;
        }
    }

    /// <summary>True when a plan was made against the current schema, registered views and other databases' schemas.</summary>
    internal bool IsCurrent(QueryPlan plan)
        => ReferenceEquals(plan.Schema, Schema) && ReferenceEquals(plan.Views, TempViewSet) && plan.OtherSchemasCurrent();

    /// <summary>
    /// Registers a view on this <see cref="SharcDatabase"/> instance: from now on <paramref name="name"/> can be used in
    /// queries wherever a table can (FROM, subqueries, other views), as SQLite's temporary views can. The view is
    /// not stored in the file and lasts until <see cref="UnregisterView"/> or until the database is disposed.
    /// </summary>
    /// <param name="name">The view's name; it must not be the name of a table, index or view of the schema.</param>
    /// <param name="selectSql">The SELECT that defines the view (any query <see cref="Query(string, object?[])"/> runs, without parameters).</param>
    /// <exception cref="SharcSqlException">
    /// The SELECT does not parse, names an unknown table or column, uses parameters, or makes views refer to each other
    /// in a circle; or the name is taken.
    /// </exception>
    public void RegisterView(string name, string selectSql)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        ArgumentNullException.ThrowIfNull(selectSql);
        RegisterTempView(name, [], selectSql, ifNotExists: false);
    }

    /// <summary>Removes a view registered with <see cref="RegisterView"/>; false when there was none of that name.</summary>
    public bool UnregisterView(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        lock (_viewLock)
        {
            if (_tempViews.Find(name) is null) return false;
            _tempViews = _tempViews.Without(name);
            return true;
        }
    }

    /// <summary>
    /// Opens a reader over the rows of a view registered with <see cref="RegisterView"/>, as
    /// <c>Query("SELECT * FROM name")</c> would.
    /// </summary>
    /// <exception cref="SharcSqlException">No view of that name is registered ("no such view"), or it no longer compiles.</exception>
    public SharcDataReader OpenView(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        if (_tempViews.Find(name) is null) throw new SharcSqlException($"no such view: {name}", name, 0);
        return Query("SELECT * FROM temp." + Quote(name));
    }

    /// <summary>
    /// <see cref="RegisterView"/>: registers a connection-local view (CREATE TEMP VIEW makes a view of the temp database instead). <paramref name="columns"/> names its columns (empty: the
    /// SELECT's names). With <paramref name="ifNotExists"/>, an existing view of that name makes this a no-op.
    /// </summary>
    internal void RegisterTempView(string name, IReadOnlyList<string> columns, string selectSql, bool ifNotExists)
    {
        var statement = SqlParser.ParseStatement(selectSql);
        if (statement is not SqlSelectStatement || statement.Explain != SqlExplainMode.None)
            throw new SharcSqlException("a view must be defined by a SELECT", selectSql, statement.Start);
        if (statement.ParameterCount > 0) throw new SharcSqlException("parameters are not allowed in views", selectSql, 0);
        lock (_viewLock)
        {
            if (_tempViews.Find(name) is not null)
            {
                if (ifNotExists) return;
                throw new SharcSqlException($"view {name} already exists", name, 0);
            }
            var schema = Schema;
            if (schema.FindTable(name) is not null) throw new SharcSqlException($"there is already a table named {name}", name, 0);
            if (schema.FindView(name) is not null) throw new SharcSqlException($"there is already a view named {name}", name, 0);
            if (schema.FindIndex(name) is not null) throw new SharcSqlException($"there is already an index named {name}", name, 0);

            string columnList = columns.Count == 0 ? "" : "(" + string.Join(", ", columns.Select(Quote)) + ")";
            var view = new SharcView(name, $"CREATE TEMP VIEW {Quote(name)}{columnList} AS {selectSql}", selectSql, columns);
            var candidate = _tempViews.With(view);
            // Compiling a query of the view with the view in place checks its SQL, its column list and that no chain
            // of views leads back to it.
            string probe = "SELECT * FROM temp." + Quote(name);
            IntentCompiler.CompileStatement(schema, probe, SqlParser.ParseStatement(probe), candidate);
            _tempViews = candidate;
        }
    }

    /// <summary>DROP VIEW of a connection-local view; false when there was none and <paramref name="ifExists"/> allowed that.</summary>
    internal bool DropTempView(string name, bool ifExists)
    {
        if (UnregisterView(name)) return true;
        if (ifExists) return false;
        throw new SharcSqlException($"no such view: {name}", name, 0);
    }

    /// <summary>True when a connection-local view of that name exists (DROP VIEW looks here before the schema).</summary>
    internal bool HasTempView(string name) => _tempViews.Find(name) is not null;

    private static string Quote(string name) => "\"" + name.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";
}
