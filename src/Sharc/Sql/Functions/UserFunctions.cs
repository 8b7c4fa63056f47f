using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Sharc.Format;
using Sharc.Sql.Functions.Aggregates;
using Sharc.Sql.Values;

namespace Sharc.Sql.Functions;

/// <summary>A user scalar over the engine's arguments, before its result is converted.</summary>
internal delegate TResult UserScalarBody<TResult>(ReadOnlySpan<SqlValue> args, FunctionContext context);

/// <summary>One step of a user aggregate over the row's arguments (spans cannot be generic arguments on net8.0).</summary>
internal delegate TAccumulate UserStep<TAccumulate>(TAccumulate accumulate, ReadOnlySpan<SqlValue> args);

/// <summary>
/// The functions, aggregates and collations registered on one database (<see cref="SharcDatabase.CreateFunction{TResult}(string, Func{TResult}, bool)"/>
/// and its siblings). Looked up before the built-ins, so a registration can override one (like, glob, regexp …).
/// Registration copies the tables and swaps them in, so the compiler and the executor read them without locking on
/// any thread. The compiler finds the registry of the database that runs the statement through <see cref="Current"/>,
/// set by that database on the calling thread at each of its entry points.
/// </summary>
internal sealed class UserFunctionRegistry
{
    private readonly Lock _gate = new();
    private Dictionary<string, Dictionary<int, ScalarFunction>> _scalars = new(StringComparer.OrdinalIgnoreCase);
    private Dictionary<string, Dictionary<int, Func<SqlAggregate>>> _aggregates = new(StringComparer.OrdinalIgnoreCase);
    private Dictionary<string, Collation> _collations = new(StringComparer.OrdinalIgnoreCase);

    [ThreadStatic]
    private static UserFunctionRegistry? t_current;

    /// <summary>The registry of the database the calling thread last entered, or null.</summary>
    public static UserFunctionRegistry? Current => t_current;

    /// <summary>Makes this registry the one the calling thread's compilations see.</summary>
    public void MakeCurrent() => t_current = this;

    /// <summary>True once anything is registered (so lookups can be skipped cheaply otherwise).</summary>
    /// <summary>The registered collations' names, in registration order.</summary>
    public IEnumerable<string> CollationNames => _collations.Keys;

    public bool IsEmpty => _scalars.Count == 0 && _aggregates.Count == 0 && _collations.Count == 0;

    public void AddScalar(string name, int argCount, ScalarFunctionBody body, bool deterministic)
    {
        var function = new ScalarFunction(name.ToLowerInvariant(), Math.Max(argCount, 0), argCount, body, deterministic);
        lock (_gate)
        {
            var copy = new Dictionary<string, Dictionary<int, ScalarFunction>>(_scalars, StringComparer.OrdinalIgnoreCase);
            var byCount = copy.TryGetValue(name, out var old) ? new Dictionary<int, ScalarFunction>(old) : [];
            byCount[argCount] = function;
            copy[name] = byCount;
            _scalars = copy;
        }
    }

    public void AddAggregate(string name, int argCount, Func<SqlAggregate> factory)
    {
        lock (_gate)
        {
            var copy = new Dictionary<string, Dictionary<int, Func<SqlAggregate>>>(_aggregates, StringComparer.OrdinalIgnoreCase);
            var byCount = copy.TryGetValue(name, out var old) ? new Dictionary<int, Func<SqlAggregate>>(old) : [];
            byCount[argCount] = factory;
            copy[name] = byCount;
            _aggregates = copy;
        }
    }

    public void AddCollation(string name, Comparison<string> comparison)
    {
        lock (_gate)
        {
            var copy = new Dictionary<string, Collation>(_collations, StringComparer.OrdinalIgnoreCase);
            // A new registration of a name takes a new slot: plans and writers made earlier keep the comparison they
            // were made with rather than change order under an open cursor.
            copy[name] = UserCollations.Allocate(name, comparison);
            _collations = copy;
        }
    }

    /// <summary>The scalar registered for exactly <paramref name="argCount"/> arguments, else the variadic one.</summary>
    public bool TryGetScalar(string name, int argCount, [NotNullWhen(true)] out ScalarFunction? function)
    {
        function = null;
        return _scalars.TryGetValue(name, out var byCount) && (byCount.TryGetValue(argCount, out function) || byCount.TryGetValue(-1, out function));
    }

    public bool HasScalar(string name) => _scalars.ContainsKey(name);

    public bool TryGetAggregate(string name, int argCount, [NotNullWhen(true)] out Func<SqlAggregate>? factory)
    {
        factory = null;
        return _aggregates.TryGetValue(name, out var byCount) && (byCount.TryGetValue(argCount, out factory) || byCount.TryGetValue(-1, out factory));
    }

    public bool HasAggregate(string name) => _aggregates.ContainsKey(name);

    public bool TryGetCollation(string name, out Collation collation) => _collations.TryGetValue(name, out collation);

    /// <summary>Every registered function and argument count (-1 variadic) with its kind, for PRAGMA function_list.</summary>
    public IEnumerable<(string Name, string Type, int ArgCount, bool Deterministic)> List()
    {
        foreach (var (name, byCount) in _scalars)
            foreach (var (n, f) in byCount) yield return (name.ToLowerInvariant(), "s", n, f.IsDeterministic);
        foreach (var (name, byCount) in _aggregates)
            foreach (var (n, f) in byCount) yield return (name.ToLowerInvariant(), f() is UserAggregateBase { CanInvert: true } ? "w" : "a", n, false);
    }
}

/// <summary>
/// User collations by slot: a registration takes the next <see cref="Collation"/> value after the built-ins, so every
/// comparison that switches on a collation (sorts, indexes, DISTINCT) reaches the .NET comparison through it. Slots
/// are process-wide and never reused (a byte each, so at most <see cref="Capacity"/> registrations per process).
/// </summary>
internal static class UserCollations
{
    /// <summary>The first collation value given to user collations.</summary>
    public const int First = 16;

    /// <summary>How many user collations a process can register.</summary>
    public const int Capacity = 256 - First;

    private static readonly Comparison<string>?[] Comparisons = new Comparison<string>?[256];
    private static readonly string?[] Names = new string?[256];
    private static int s_next = First;

    public static Collation Allocate(string name, Comparison<string> comparison)
    {
        int slot = Interlocked.Increment(ref s_next) - 1;
        if (slot > 255)
            throw new InvalidOperationException($"cannot register collation {name}: a process can register at most {Capacity} collations");
        Names[slot] = name;
        Volatile.Write(ref Comparisons[slot], comparison);
        return (Collation)slot;
    }

    /// <summary>True for a collation value that names a user collation.</summary>
    public static bool IsUser(Collation c) => (int)c >= First;

    /// <summary>Compares two UTF-8 texts with the user collation <paramref name="c"/>.</summary>
    public static int Compare(Collation c, ReadOnlySpan<byte> a, ReadOnlySpan<byte> b)
    {
        var comparison = Comparisons[(int)c]!;
        int r;
        try
        {
            r = comparison(System.Text.Encoding.UTF8.GetString(a), System.Text.Encoding.UTF8.GetString(b));
        }
        catch (Exception e)
        {
            throw UserCode.Failed("collation " + Names[(int)c], e);
        }
        return r < 0 ? -1 : r > 0 ? 1 : 0;
    }
}

/// <summary>Turns what user code throws into the typed error that names the function.</summary>
internal static class UserCode
{
    public static SharcSqlException Failed(string what, Exception e)
        => e is SharcSqlException { InnerException: not null } nested && nested.SqliteMessage.StartsWith("user ", StringComparison.Ordinal)
            ? nested
            : SharcSqlException.FromUserCode($"user {what} failed: {e.Message}", e);
}

/// <summary>A user aggregate; one registered with an inverse step can also remove a row from its window frame.</summary>
internal abstract class UserAggregateBase : SqlAggregate, IInverseStep
{
    /// <summary>True when rows can be removed (the function was registered with an inverse step).</summary>
    public abstract bool CanInvert { get; }

    /// <summary>Removes one row's arguments (only when <see cref="CanInvert"/>).</summary>
    public abstract void Inverse(ReadOnlySpan<SqlValue> args);
}

/// <summary>A user aggregate: the seed, a step per row, an optional inverse step, and the result.</summary>
internal sealed class UserAggregate<TAccumulate> : UserAggregateBase
{
    private readonly string _name;
    private readonly TAccumulate _seed;
    private readonly UserStep<TAccumulate> _step;
    private readonly UserStep<TAccumulate>? _inverse;
    private readonly Func<TAccumulate, SqlValue> _result;
    private TAccumulate _accumulate;

    public UserAggregate(string name, TAccumulate seed, UserStep<TAccumulate> step, UserStep<TAccumulate>? inverse, Func<TAccumulate, SqlValue> result)
    {
        _name = name;
        _seed = seed;
        _step = step;
        _inverse = inverse;
        _result = result;
        _accumulate = seed;
    }

    public override bool CanInvert => _inverse is not null;

    public override void Step(ReadOnlySpan<SqlValue> args)
    {
        try
        {
            _accumulate = _step(_accumulate, args);
        }
        catch (Exception e)
        {
            throw UserCode.Failed($"aggregate {_name}()", e);
        }
    }

    public override void Inverse(ReadOnlySpan<SqlValue> args)
    {
        try
        {
            _accumulate = _inverse!(_accumulate, args);
        }
        catch (Exception e)
        {
            throw UserCode.Failed($"aggregate {_name}()", e);
        }
    }

    public override SqlValue Finish()
    {
        try
        {
            return _result(_accumulate);
        }
        catch (Exception e)
        {
            throw UserCode.Failed($"aggregate {_name}()", e);
        }
    }

    public override void Reset() => _accumulate = _seed;
}

/// <summary>SQL values to .NET parameter types, without boxing for numbers (the JIT keeps one branch per T).</summary>
internal static class ClrArg<T>
{
    /// <summary>True for the parameter types a user function may declare.</summary>
    public static readonly bool Supported =
        typeof(T) == typeof(long) || typeof(T) == typeof(int) || typeof(T) == typeof(double) || typeof(T) == typeof(bool)
        || typeof(T) == typeof(long?) || typeof(T) == typeof(int?) || typeof(T) == typeof(double?) || typeof(T) == typeof(bool?)
        || typeof(T) == typeof(string) || typeof(T) == typeof(byte[]) || typeof(T) == typeof(object) || typeof(T) == typeof(SharcValue);

    /// <summary>
    /// The argument as <typeparamref name="T"/>: numbers as sqlite3_value_int64/double read them, text as a string,
    /// blobs as a copied array. NULL for a non-nullable number is an error, as in Microsoft.Data.Sqlite: declare
    /// long?, double? … to accept it.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static T From(in SqlValue v)
    {
        if (v.IsNull && typeof(T).IsValueType && typeof(T) != typeof(SharcValue) && Nullable.GetUnderlyingType(typeof(T)) is null) NullArgument();
        if (typeof(T) == typeof(long)) { long x = v.ToInt64(); return Unsafe.As<long, T>(ref x); }
        if (typeof(T) == typeof(double)) { double x = v.ToDouble(); return Unsafe.As<double, T>(ref x); }
        if (typeof(T) == typeof(int)) { int x = (int)v.ToInt64(); return Unsafe.As<int, T>(ref x); }
        if (typeof(T) == typeof(bool)) { bool x = v.ToInt64() != 0 || (v.Type == SharcColumnType.Real && v.RealValue != 0); return Unsafe.As<bool, T>(ref x); }
        if (typeof(T) == typeof(SharcValue)) { var x = new SharcValue(v); return Unsafe.As<SharcValue, T>(ref x); }
        if (typeof(T) == typeof(long?)) { long? x = v.IsNull ? null : v.ToInt64(); return Unsafe.As<long?, T>(ref x); }
        if (typeof(T) == typeof(double?)) { double? x = v.IsNull ? null : v.ToDouble(); return Unsafe.As<double?, T>(ref x); }
        if (typeof(T) == typeof(int?)) { int? x = v.IsNull ? null : (int)v.ToInt64(); return Unsafe.As<int?, T>(ref x); }
        if (typeof(T) == typeof(bool?)) { bool? x = v.IsNull ? null : v.ToInt64() != 0 || (v.Type == SharcColumnType.Real && v.RealValue != 0); return Unsafe.As<bool?, T>(ref x); }
        if (typeof(T) == typeof(string)) return (T)(object?)v.AsString()!;
        if (typeof(T) == typeof(byte[])) return (T)(object?)(v.IsNull ? null : v.HasBytes ? v.Bytes.ToArray() : v.ToBlobValue().Bytes.ToArray())!;
        return (T)v.ToObject()!;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void NullArgument() => ClrArgErrors.NullArgument(typeof(T));
}

internal static class ClrArgErrors
{
    [DoesNotReturn]
    public static void NullArgument(Type type)
        => throw new InvalidCastException($"NULL cannot be passed as {type.Name}: declare the parameter {type.Name}? to accept NULL");
}

/// <summary>.NET results to SQL values, without boxing for numbers.</summary>
internal static class ClrResult<T>
{
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static SqlValue To(T value)
    {
        if (typeof(T) == typeof(long)) return SqlValue.Integer(Unsafe.As<T, long>(ref value));
        if (typeof(T) == typeof(int)) return SqlValue.Integer(Unsafe.As<T, int>(ref value));
        if (typeof(T) == typeof(double)) return SqlValue.Real(Unsafe.As<T, double>(ref value));
        if (typeof(T) == typeof(bool)) return SqlValue.Boolean(Unsafe.As<T, bool>(ref value));
        if (typeof(T) == typeof(SharcValue)) return Unsafe.As<T, SharcValue>(ref value).Value;
        if (typeof(T) == typeof(long?)) { var x = Unsafe.As<T, long?>(ref value); return x is { } l ? SqlValue.Integer(l) : SqlValue.Null; }
        if (typeof(T) == typeof(double?)) { var x = Unsafe.As<T, double?>(ref value); return x is { } d ? SqlValue.Real(d) : SqlValue.Null; }
        if (typeof(T) == typeof(int?)) { var x = Unsafe.As<T, int?>(ref value); return x is { } i ? SqlValue.Integer(i) : SqlValue.Null; }
        if (typeof(T) == typeof(string)) return value is string s ? SqlValue.Text(s) : SqlValue.Null;
        return value is SharcValue v ? v.Value : SqlValue.FromObject(value);
    }
}

/// <summary>Spans of engine values seen as spans of <see cref="SharcValue"/> (same layout: one field).</summary>
internal static class SharcValueSpan
{
    public static ReadOnlySpan<SharcValue> Of(ReadOnlySpan<SqlValue> values)
        => MemoryMarshal.CreateReadOnlySpan(ref Unsafe.As<SqlValue, SharcValue>(ref MemoryMarshal.GetReference(values)), values.Length);

    /// <summary>The arguments as objects, for variadic functions over <c>object?[]</c> (allocates the array).</summary>
    public static object?[] Objects(ReadOnlySpan<SqlValue> values)
    {
        var a = new object?[values.Length];
        for (int i = 0; i < a.Length; i++) a[i] = values[i].ToObject();
        return a;
    }
}
