using Sharc.Sql.Execution;

namespace Sharc;

public sealed partial class SharcDatabase
{
    /// <summary>
    /// Opens a forward reader over the rows of <paramref name="table"/> (a table or view) that match
    /// <paramref name="filter"/>, returning <paramref name="columns"/> (all declared columns when empty). The filter is
    /// planned as the equivalent SELECT … WHERE is: an index or rowid seek where one applies, else a scan that tests
    /// the filter on each stored record before decoding it. Rows come in the order that path gives. The filter's
    /// parameters are NULL here; <see cref="PrepareReader(string, SharcFilter, string[])"/> binds them.
    /// </summary>
    /// <exception cref="SharcException">No such table or view (an index is refused: the planner picks indexes).</exception>
    /// <exception cref="SharcSqlException">A column the filter or <paramref name="columns"/> names does not exist.</exception>
    public SharcDataReader CreateReader(string table, SharcFilter filter, params string[] columns)
    {
        ThrowIfDisposed();
        var bindings = FilterBindings.Create(this, table, filter, columns);
        for (int attempt = 0; ; attempt++)
        {
            var run = new QueryExecution(this, GetPlan(bindings.Sql), ownedByReader: true);
            bindings.BindConstants(run.Context.Parameters);
            if (run.StartOnPlanSchema() || attempt == QueryExecution.MaxSchemaRetries) return new SharcDataReader(this, run);
            run.Dispose();
        }
    }

    /// <summary>
    /// Prepares a filtered reader (see <see cref="CreateReader(string, SharcFilter, string[])"/>) for repeated use:
    /// bind the filter's parameters with <see cref="PreparedReader.Bind(string, long)"/> and its overloads, call
    /// <see cref="PreparedReader.Reset"/>, and read. The plan is made once; after warm-up a run allocates nothing.
    /// A filtered reader has no rowid and no seeks: select the rowid as a column, or put the key in the filter.
    /// </summary>
    /// <exception cref="SharcException">No such table or view.</exception>
    /// <exception cref="SharcSqlException">A column the filter or <paramref name="columns"/> names does not exist.</exception>
    public PreparedReader PrepareReader(string table, SharcFilter filter, params string[] columns)
    {
        ThrowIfDisposed();
        var bindings = FilterBindings.Create(this, table, filter, columns);
        return new PreparedReader(this, new QueryExecution(this, GetPlan(bindings.Sql), ownedByReader: false), bindings);
    }
}
