using Sharc.Sql.Functions;
using Sharc.Sql.Values;

namespace Sharc;

/// <summary>
/// User-defined functions, aggregates, window functions and collations, in the shape Microsoft.Data.Sqlite's
/// SqliteConnection gives them. A registration belongs to this <see cref="SharcDatabase"/> instance (not the file),
/// is visible at once to every thread using it, and applies to statements prepared after it: register before
/// preparing the statements that call it. Registering a name again replaces it (per argument count); a registered
/// function is found before a built-in of the same name and argument count, so registering like, glob or regexp
/// changes what the LIKE, GLOB and REGEXP operators do (SQLite's built-ins have no REGEXP: registering regexp makes
/// it work). Exceptions thrown by user code end the statement with a <see cref="SharcSqlException"/> naming the
/// function, the exception as its inner exception.
/// </summary>
public sealed partial class SharcDatabase
{
    private readonly UserFunctionRegistry _userFunctions = new();

    internal UserFunctionRegistry UserFunctions => _userFunctions;

    /// <summary>Registers a scalar function of no arguments.</summary>
    /// <param name="name">The SQL name (case-insensitive).</param>
    /// <param name="function">The body; its result becomes the SQL value (null is NULL).</param>
    /// <param name="isDeterministic">True when the same arguments always give the same result: calls may then be shared between rows and used in indexes, CHECK constraints and generated columns.</param>
    /// <exception cref="ArgumentException">A type is not one of long, int, double, bool (also nullable), string, byte[], object or <see cref="SharcValue"/>.</exception>
    public void CreateFunction<TResult>(string name, Func<TResult> function, bool isDeterministic = false)
    {
        ArgumentNullException.ThrowIfNull(function);
        AddScalar<TResult>(name, 0, isDeterministic, (_, _) => function());
    }

    /// <summary>Registers a scalar function of one argument (see <see cref="CreateFunction{TResult}(string, Func{TResult}, bool)"/>).</summary>
    /// <remarks>Numbers reach <typeparamref name="T1"/> without boxing; NULL reads as 0 for a non-nullable number (declare long? to see it).</remarks>
    public void CreateFunction<T1, TResult>(string name, Func<T1, TResult> function, bool isDeterministic = false)
    {
        ArgumentNullException.ThrowIfNull(function);
        Check<T1>();
        AddScalar<TResult>(name, 1, isDeterministic, (a, _) => function(ClrArg<T1>.From(a[0])));
    }

    /// <summary>Registers a scalar function of two arguments (see <see cref="CreateFunction{TResult}(string, Func{TResult}, bool)"/>).</summary>
    public void CreateFunction<T1, T2, TResult>(string name, Func<T1, T2, TResult> function, bool isDeterministic = false)
    {
        ArgumentNullException.ThrowIfNull(function);
        Check<T1>();
        Check<T2>();
        AddScalar<TResult>(name, 2, isDeterministic, (a, _) => function(ClrArg<T1>.From(a[0]), ClrArg<T2>.From(a[1])));
    }

    /// <summary>Registers a scalar function of three arguments (see <see cref="CreateFunction{TResult}(string, Func{TResult}, bool)"/>).</summary>
    public void CreateFunction<T1, T2, T3, TResult>(string name, Func<T1, T2, T3, TResult> function, bool isDeterministic = false)
    {
        ArgumentNullException.ThrowIfNull(function);
        Check<T1>();
        Check<T2>();
        Check<T3>();
        AddScalar<TResult>(name, 3, isDeterministic, (a, _) => function(ClrArg<T1>.From(a[0]), ClrArg<T2>.From(a[1]), ClrArg<T3>.From(a[2])));
    }

    /// <summary>Registers a scalar function of four arguments (see <see cref="CreateFunction{TResult}(string, Func{TResult}, bool)"/>).</summary>
    public void CreateFunction<T1, T2, T3, T4, TResult>(string name, Func<T1, T2, T3, T4, TResult> function, bool isDeterministic = false)
    {
        ArgumentNullException.ThrowIfNull(function);
        Check<T1>();
        Check<T2>();
        Check<T3>();
        Check<T4>();
        AddScalar<TResult>(name, 4, isDeterministic, (a, _) => function(ClrArg<T1>.From(a[0]), ClrArg<T2>.From(a[1]), ClrArg<T3>.From(a[2]), ClrArg<T4>.From(a[3])));
    }

    /// <summary>
    /// Registers a scalar function taking any number of arguments, passed as objects (null, long, double, string or
    /// byte[]); a registration for an exact argument count is preferred over this one.
    /// </summary>
    public void CreateFunction<TResult>(string name, Func<object?[], TResult> function, bool isDeterministic = false)
    {
        ArgumentNullException.ThrowIfNull(function);
        AddScalar<TResult>(name, -1, isDeterministic, (a, _) => function(SharcValueSpan.Objects(a)));
    }

    /// <summary>
    /// Registers a scalar function over <see cref="SharcValue"/> arguments: nothing is boxed or copied, text and blobs
    /// arrive as spans. <paramref name="argumentCount"/> is the number of arguments, or -1 for any number.
    /// </summary>
    public void CreateFunction(string name, SharcScalarFunction function, int argumentCount = -1, bool isDeterministic = false)
    {
        ArgumentNullException.ThrowIfNull(function);
        ArgumentOutOfRangeException.ThrowIfLessThan(argumentCount, -1);
        Register(name, r => r.AddScalar(name, argumentCount, (a, _) =>
        {
            try
            {
                return function(SharcValueSpan.Of(a)).Value;
            }
            catch (Exception e)
            {
                throw UserCode.Failed($"function {name}()", e);
            }
        }, isDeterministic));
    }

    /// <summary>
    /// Registers an aggregate of one argument: <paramref name="seed"/> starts each group, <paramref name="func"/>
    /// folds each row in, <paramref name="resultSelector"/> gives the group's value. Usable with OVER as a window
    /// function (each frame is folded afresh; see <see cref="CreateWindowFunction{T1, TAccumulate, TResult}"/> for an inverse step).
    /// </summary>
    /// <remarks>A reference-type seed is shared by the groups: use an immutable accumulator, or a value type.</remarks>
    public void CreateAggregate<T1, TAccumulate, TResult>(string name, TAccumulate seed, Func<TAccumulate, T1, TAccumulate> func, Func<TAccumulate, TResult> resultSelector, bool isDeterministic = false)
    {
        ArgumentNullException.ThrowIfNull(func);
        ArgumentNullException.ThrowIfNull(resultSelector);
        Check<T1>();
        AddAggregate(name, 1, seed, (acc, a) => func(acc, ClrArg<T1>.From(a[0])), null, resultSelector);
    }

    /// <summary>Registers an aggregate of one argument whose value is the accumulator itself.</summary>
    public void CreateAggregate<T1, TAccumulate>(string name, TAccumulate seed, Func<TAccumulate, T1, TAccumulate> func, bool isDeterministic = false)
        => CreateAggregate(name, seed, func, static a => a, isDeterministic);

    /// <summary>Registers an aggregate of no arguments (called as <c>name()</c>), whose value is the accumulator.</summary>
    public void CreateAggregate<TAccumulate>(string name, TAccumulate seed, Func<TAccumulate, TAccumulate> func, bool isDeterministic = false)
    {
        ArgumentNullException.ThrowIfNull(func);
        AddAggregate(name, 0, seed, (acc, _) => func(acc), null, static (TAccumulate a) => a);
    }

    /// <summary>Registers an aggregate of two arguments (see <see cref="CreateAggregate{T1, TAccumulate, TResult}"/>).</summary>
    public void CreateAggregate<T1, T2, TAccumulate, TResult>(string name, TAccumulate seed, Func<TAccumulate, T1, T2, TAccumulate> func, Func<TAccumulate, TResult> resultSelector, bool isDeterministic = false)
    {
        ArgumentNullException.ThrowIfNull(func);
        ArgumentNullException.ThrowIfNull(resultSelector);
        Check<T1>();
        Check<T2>();
        AddAggregate(name, 2, seed, (acc, a) => func(acc, ClrArg<T1>.From(a[0]), ClrArg<T2>.From(a[1])), null, resultSelector);
    }

    /// <summary>Registers an aggregate taking any number of arguments, passed as objects (see <see cref="CreateAggregate{T1, TAccumulate, TResult}"/>).</summary>
    public void CreateAggregate<TAccumulate, TResult>(string name, TAccumulate seed, Func<TAccumulate, object?[], TAccumulate> func, Func<TAccumulate, TResult> resultSelector, bool isDeterministic = false)
    {
        ArgumentNullException.ThrowIfNull(func);
        ArgumentNullException.ThrowIfNull(resultSelector);
        AddAggregate(name, -1, seed, (acc, a) => func(acc, SharcValueSpan.Objects(a)), null, resultSelector);
    }

    /// <summary>
    /// Registers an aggregate window function of one argument with an inverse step: over a sliding frame
    /// (<c>ROWS BETWEEN 2 PRECEDING AND CURRENT ROW</c>) each row is folded in once by <paramref name="step"/> and
    /// taken out once by <paramref name="inverse"/> when it leaves the frame, instead of each frame being folded
    /// afresh. It also works as a plain aggregate. <paramref name="inverse"/> must undo <paramref name="step"/>.
    /// </summary>
    public void CreateWindowFunction<T1, TAccumulate, TResult>(string name, TAccumulate seed, Func<TAccumulate, T1, TAccumulate> step, Func<TAccumulate, T1, TAccumulate> inverse, Func<TAccumulate, TResult> resultSelector)
    {
        ArgumentNullException.ThrowIfNull(step);
        ArgumentNullException.ThrowIfNull(inverse);
        ArgumentNullException.ThrowIfNull(resultSelector);
        Check<T1>();
        AddAggregate(name, 1, seed, (acc, a) => step(acc, ClrArg<T1>.From(a[0])), (acc, a) => inverse(acc, ClrArg<T1>.From(a[0])), resultSelector);
    }

    /// <summary>Registers an aggregate window function of two arguments with an inverse step (see <see cref="CreateWindowFunction{T1, TAccumulate, TResult}"/>).</summary>
    public void CreateWindowFunction<T1, T2, TAccumulate, TResult>(string name, TAccumulate seed, Func<TAccumulate, T1, T2, TAccumulate> step, Func<TAccumulate, T1, T2, TAccumulate> inverse, Func<TAccumulate, TResult> resultSelector)
    {
        ArgumentNullException.ThrowIfNull(step);
        ArgumentNullException.ThrowIfNull(inverse);
        ArgumentNullException.ThrowIfNull(resultSelector);
        Check<T1>();
        Check<T2>();
        AddAggregate(name, 2, seed, (acc, a) => step(acc, ClrArg<T1>.From(a[0]), ClrArg<T2>.From(a[1])),
            (acc, a) => inverse(acc, ClrArg<T1>.From(a[0]), ClrArg<T2>.From(a[1])), resultSelector);
    }

    /// <summary>
    /// Registers a collation: <c>COLLATE name</c> in queries, column definitions and indexes then orders and compares
    /// text with <paramref name="comparison"/> (numbers and blobs compare as always). A file whose schema names the
    /// collation (say, an index created by another program) can be read and written correctly once it is
    /// registered; before that, statements that need it fail with "no such collation sequence". The comparison must
    /// be a total order and must not change while the database is open, or indexes built with it go out of order.
    /// </summary>
    /// <remarks>A process can register at most 240 collations over its lifetime (each registration takes a slot).</remarks>
    public void CreateCollation(string name, Comparison<string> comparison)
    {
        ArgumentNullException.ThrowIfNull(comparison);
        Register(name, r => r.AddCollation(name, comparison));
    }

    private void AddScalar<TResult>(string name, int argCount, bool deterministic, UserScalarBody<TResult> body)
    {
        Check<TResult>();
        Register(name, r => r.AddScalar(name, argCount, (a, c) =>
        {
            try
            {
                return ClrResult<TResult>.To(body(a, c));
            }
            catch (Exception e)
            {
                throw UserCode.Failed($"function {name}()", e);
            }
        }, deterministic));
    }

    private void AddAggregate<TAccumulate, TResult>(string name, int argCount, TAccumulate seed, UserStep<TAccumulate> step, UserStep<TAccumulate>? inverse, Func<TAccumulate, TResult> result)
    {
        Check<TResult>();
        string lower = name.ToLowerInvariant();
        Register(name, r => r.AddAggregate(name, argCount, () => new UserAggregate<TAccumulate>(lower, seed, step, inverse, a => ClrResult<TResult>.To(result(a)))));
    }

    private void Register(string name, Action<UserFunctionRegistry> add)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ThrowIfDisposed();
        add(_userFunctions);
        // Cached plans resolved names before this registration: a new name may now shadow a built-in.
        lock (_planLock)
        {
            _plans.Clear();
            _planOrder.Clear();
        }
    }

    private static void Check<T>()
    {
        if (!ClrArg<T>.Supported)
            throw new ArgumentException($"{typeof(T)} is not a type SQL values convert to: use long, int, double, bool (or their nullable forms), string, byte[], object or SharcValue");
    }
}
