namespace Sharc.Data;

/// <summary>
/// User-defined functions, aggregates and collations with Microsoft.Data.Sqlite's method names. They may be
/// registered before <see cref="Open"/> (kept, and registered on each open) or while open (registered at once);
/// they last for the connection's life. See <see cref="Sharc.SharcDatabase.CreateFunction{TResult}(string, Func{TResult}, bool)"/>
/// for the conversions, overriding and errors.
/// </summary>
public sealed partial class SharcConnection
{
    private readonly List<Action<SharcDatabase>> _registrations = [];

    private void Register(Action<SharcDatabase> registration)
    {
        _registrations.Add(registration);
        if (_db is { } db) registration(db);
    }

    private void ApplyRegistrations(SharcDatabase db)
    {
        foreach (var r in _registrations) r(db);
    }

    /// <summary>Registers a scalar function of no arguments.</summary>
    public void CreateFunction<TResult>(string name, Func<TResult> function, bool isDeterministic = false)
        => Register(db => db.CreateFunction(name, function, isDeterministic));

    /// <summary>Registers a scalar function of one argument.</summary>
    public void CreateFunction<T1, TResult>(string name, Func<T1, TResult> function, bool isDeterministic = false)
        => Register(db => db.CreateFunction(name, function, isDeterministic));

    /// <summary>Registers a scalar function of two arguments.</summary>
    public void CreateFunction<T1, T2, TResult>(string name, Func<T1, T2, TResult> function, bool isDeterministic = false)
        => Register(db => db.CreateFunction(name, function, isDeterministic));

    /// <summary>Registers a scalar function of three arguments.</summary>
    public void CreateFunction<T1, T2, T3, TResult>(string name, Func<T1, T2, T3, TResult> function, bool isDeterministic = false)
        => Register(db => db.CreateFunction(name, function, isDeterministic));

    /// <summary>Registers a scalar function of four arguments.</summary>
    public void CreateFunction<T1, T2, T3, T4, TResult>(string name, Func<T1, T2, T3, T4, TResult> function, bool isDeterministic = false)
        => Register(db => db.CreateFunction(name, function, isDeterministic));

    /// <summary>Registers a scalar function taking any number of arguments, passed as objects.</summary>
    public void CreateFunction<TResult>(string name, Func<object?[], TResult> function, bool isDeterministic = false)
        => Register(db => db.CreateFunction(name, function, isDeterministic));

    /// <summary>Registers an aggregate of no arguments whose value is the accumulator.</summary>
    public void CreateAggregate<TAccumulate>(string name, TAccumulate seed, Func<TAccumulate, TAccumulate> func, bool isDeterministic = false)
        => Register(db => db.CreateAggregate(name, seed, func, isDeterministic));

    /// <summary>Registers an aggregate of one argument whose value is the accumulator.</summary>
    public void CreateAggregate<T1, TAccumulate>(string name, TAccumulate seed, Func<TAccumulate, T1, TAccumulate> func, bool isDeterministic = false)
        => Register(db => db.CreateAggregate(name, seed, func, isDeterministic));

    /// <summary>Registers an aggregate of one argument with a result selector.</summary>
    public void CreateAggregate<T1, TAccumulate, TResult>(string name, TAccumulate seed, Func<TAccumulate, T1, TAccumulate> func, Func<TAccumulate, TResult> resultSelector, bool isDeterministic = false)
        => Register(db => db.CreateAggregate(name, seed, func, resultSelector, isDeterministic));

    /// <summary>Registers an aggregate of two arguments with a result selector.</summary>
    public void CreateAggregate<T1, T2, TAccumulate, TResult>(string name, TAccumulate seed, Func<TAccumulate, T1, T2, TAccumulate> func, Func<TAccumulate, TResult> resultSelector, bool isDeterministic = false)
        => Register(db => db.CreateAggregate(name, seed, func, resultSelector, isDeterministic));

    /// <summary>Registers an aggregate window function of one argument with an inverse step (which Microsoft.Data.Sqlite lacks).</summary>
    public void CreateWindowFunction<T1, TAccumulate, TResult>(string name, TAccumulate seed, Func<TAccumulate, T1, TAccumulate> step, Func<TAccumulate, T1, TAccumulate> inverse, Func<TAccumulate, TResult> resultSelector)
        => Register(db => db.CreateWindowFunction(name, seed, step, inverse, resultSelector));

    /// <summary>Registers a collation usable in COLLATE, column definitions and indexes.</summary>
    public void CreateCollation(string name, Comparison<string> comparison)
        => Register(db => db.CreateCollation(name, comparison));
}
