using Sharc.Sql.Execution;
using Sharc.Sql.Values;

namespace Sharc;

public sealed partial class PreparedReader
{
    // A filtered reader: rows come from the SQL executor running the filter's SELECT (planned once).
    private QueryExecution? _filterRun;
    private readonly FilterBindings? _bindings;
    private readonly SharcDatabase? _filterDb;

    internal PreparedReader(SharcDatabase db, QueryExecution run, FilterBindings bindings) : base(db, run)
    {
        _filterRun = run;
        _bindings = bindings;
        _filterDb = db;
        bindings.BindConstants(run.Context.Parameters);
        run.Start();
    }

    /// <summary>Binds an integer to the filter's parameter <paramref name="parameter"/> (see <see cref="SharcFilter.Parameter"/>).</summary>
    /// <exception cref="ArgumentException">The filter has no parameter of that name.</exception>
    /// <exception cref="InvalidOperationException">The reader has no filter.</exception>
    public void Bind(string parameter, long value) => Filter().Bind(Parameters, parameter, SqlValue.Integer(value));

    /// <summary>Binds a real (NaN binds NULL) to the filter's parameter <paramref name="parameter"/>.</summary>
    public void Bind(string parameter, double value) => Filter().Bind(Parameters, parameter, SqlValue.Real(value));

    /// <summary>Binds text (null binds NULL) to the filter's parameter <paramref name="parameter"/>; the text is copied.</summary>
    public void Bind(string parameter, string? value)
    {
        if (value is null) BindNull(parameter);
        else Filter().Bind(Parameters, parameter, value);
    }

    /// <summary>Binds text given as UTF-8 bytes to the filter's parameter <paramref name="parameter"/>; the bytes are copied.</summary>
    public void Bind(string parameter, ReadOnlySpan<byte> utf8)
        => Filter().Bind(Parameters, parameter, utf8);

    /// <summary>Binds a blob to the filter's parameter <paramref name="parameter"/>; the bytes are copied.</summary>
    public void BindBlob(string parameter, byte[] bytes)
    {
        ArgumentNullException.ThrowIfNull(bytes);
        Filter().Bind(Parameters, parameter, SqlValue.BorrowedBlob(bytes, 0, bytes.Length));
    }

    /// <summary>Binds NULL (which no comparison matches) to the filter's parameter <paramref name="parameter"/>.</summary>
    public void BindNull(string parameter) => Filter().Bind(Parameters, parameter, SqlValue.Null);

    /// <summary>Binds a value given as an object (null, an integer, a real, bool, a string or a byte array).</summary>
    public void Bind(string parameter, object? value)
    {
        if (value is string s) Bind(parameter, s);
        else Filter().Bind(Parameters, parameter, SqlValue.FromObject(value));
    }

    private SqlValue[] Parameters => _filterRun!.Context.Parameters;

    private FilterBindings Filter()
    {
        ObjectDisposedException.ThrowIf(_filterDisposed, this);
        return _bindings ?? throw new InvalidOperationException($"the reader over {SourceName} has no filter: only a reader prepared with a SharcFilter takes parameters");
    }

    private bool _filterDisposed;

    private void RestartFiltered()
    {
        ObjectDisposedException.ThrowIf(_filterDisposed, this);
        // Another thread's DDL, VACUUM or ANALYZE since the last run: plan the filter again, as a prepared query does.
        if (!_filterDb!.IsCurrent(_filterRun!.Plan)) Replan();
        for (int attempt = 0; !_filterRun!.StartOnPlanSchema() && attempt < QueryExecution.MaxSchemaRetries; attempt++) Replan();
        RestartQuery();
    }

    private void Replan()
    {
        var old = _filterRun!;
        var next = QueryExecution.CreateCurrent(_filterDb!, old.Plan.Sql, ownedByReader: false);
        // The same SQL: the same parameter slots, with the values bound so far.
        old.Context.Parameters.AsSpan().CopyTo(next.Context.Parameters);
        old.Dispose();
        _filterRun = next;
        ReplaceQuery(next);
    }

    /// <summary>Releases the reader's pages (and a filtered reader's execution).</summary>
    protected override void Dispose(bool disposing)
    {
        base.Dispose(disposing);
        if (_filterRun is null || _filterDisposed) return;
        _filterDisposed = true;
        _filterRun.Dispose();
    }
}
