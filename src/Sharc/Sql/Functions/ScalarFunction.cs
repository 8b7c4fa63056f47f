using Sharc.Format;
using Sharc.Sql.Values;

namespace Sharc.Sql.Functions;

/// <summary>The body of a scalar function: arguments in, one value out.</summary>
internal delegate SqlValue ScalarFunctionBody(ReadOnlySpan<SqlValue> args, FunctionContext context);

/// <summary>
/// What a call may need besides its arguments: the collation of the call (min(), max() and nullif() compare with
/// it — SQLite takes it from the first argument that has one) and the random source of random()/randomblob().
/// A default context compares with BINARY and uses a per-thread random source.
/// </summary>
internal readonly struct FunctionContext
{
    private readonly SqlRandom? _random;
    private readonly StatementClock? _clock;
    private readonly SharcDatabase? _db;

    /// <summary>
    /// A context with a collation and, optionally, a random source (seed one for reproducible results) and the
    /// clock of the running statement.
    /// </summary>
    public FunctionContext(Collation collation, SqlRandom? random = null, StatementClock? clock = null, SharcDatabase? database = null)
    {
        Collation = collation;
        _random = random;
        _clock = clock;
        _db = database;
    }

    /// <summary>The calling thread's counters on the database running the call (null when evaluated away from one).</summary>
    public Writes.SqlSession? Session => _db?.Session;

    /// <summary>Where the call must be deterministic (see <see cref="StatementClock.PureContext"/>), or null.</summary>
    public string? PureContext => _clock?.PureContext;

    /// <summary>'now' as a julian day in milliseconds: the statement's clock, or the system clock without one.</summary>
    public long NowJulianMs => _clock?.NowJulianMs ?? StatementClock.ReadSystemClock();

    /// <summary>The collation of the call.</summary>
    public Collation Collation { get; }

    /// <summary>The random source of random() and randomblob().</summary>
    public SqlRandom Random => _random ?? SqlRandom.ForThread;
}

/// <summary>
/// The time 'now' and CURRENT_TIMESTAMP read: taken from the UTC system clock on first use and then held until
/// <see cref="Reset"/>, so every call in one execution of a statement sees the same moment, as in SQLite.
/// </summary>
internal sealed class StatementClock
{
    private long _now;

    /// <summary>The held moment as a julian day in milliseconds.</summary>
    public long NowJulianMs => _now != 0 ? _now : _now = ReadSystemClock();

    /// <summary>
    /// Set while evaluating a CHECK constraint, generated column or index expression ("a CHECK constraint" …):
    /// SQLite refuses what depends on the clock or the machine there.
    /// </summary>
    public string? PureContext { get; set; }

    /// <summary>Forgets the held moment; the next read takes a new one.</summary>
    public void Reset() => _now = 0;

    /// <summary>The UTC system clock as a julian day in milliseconds.</summary>
    public static long ReadSystemClock() => DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() + DateTimeValue.UnixEpochJd;
}

/// <summary>
/// A pseudo-random source for random() and randomblob(). SQLite seeds its own from the OS; results cannot match
/// SQLite's, so this one is seedable to make tests and repeated runs reproducible. Not thread-safe: use one per
/// statement or per thread.
/// </summary>
internal sealed class SqlRandom
{
    [ThreadStatic]
    private static SqlRandom? t_forThread;

    private readonly Random _random;

    /// <summary>A source seeded from the system.</summary>
    public SqlRandom() => _random = new Random();

    /// <summary>A source that always produces the same sequence for the same <paramref name="seed"/>.</summary>
    public SqlRandom(int seed) => _random = new Random(seed);

    /// <summary>The calling thread's default source.</summary>
    public static SqlRandom ForThread => t_forThread ??= new SqlRandom();

    /// <summary>Any 64-bit integer.</summary>
    public long NextInt64()
    {
        Span<byte> b = stackalloc byte[8];
        _random.NextBytes(b);
        return BitConverter.ToInt64(b);
    }

    /// <summary>Fills <paramref name="bytes"/> with random bytes.</summary>
    public void Fill(Span<byte> bytes) => _random.NextBytes(bytes);
}

/// <summary>A scalar SQL function: its name, how many arguments it takes, and whether it is deterministic.</summary>
internal sealed class ScalarFunction
{
    private readonly ScalarFunctionBody _body;

    /// <summary>Describes a function taking <paramref name="minArgs"/> to <paramref name="maxArgs"/> arguments (-1: no upper bound).</summary>
    public ScalarFunction(string name, int minArgs, int maxArgs, ScalarFunctionBody body, bool deterministic = true, bool usesCollation = false)
    {
        Name = name;
        MinArgs = minArgs;
        MaxArgs = maxArgs;
        _body = body;
        IsDeterministic = deterministic;
        UsesCollation = usesCollation;
    }

    /// <summary>The canonical (lower-case) name.</summary>
    public string Name { get; }

    /// <summary>The fewest arguments accepted.</summary>
    public int MinArgs { get; }

    /// <summary>The most arguments accepted, or -1 for any number.</summary>
    public int MaxArgs { get; }

    /// <summary>
    /// False for random() and randomblob(): the same arguments may give different results, so calls must not be
    /// folded into constants or shared between rows.
    /// </summary>
    public bool IsDeterministic { get; }

    /// <summary>True when the result depends on <see cref="FunctionContext.Collation"/> (min, max, nullif).</summary>
    public bool UsesCollation { get; }

    /// <summary>True when the function accepts <paramref name="argCount"/> arguments.</summary>
    public bool Accepts(int argCount) => argCount >= MinArgs && (MaxArgs < 0 || argCount <= MaxArgs);

    /// <summary>Calls the function with BINARY collation and the thread's random source.</summary>
    public SqlValue Invoke(ReadOnlySpan<SqlValue> args) => Invoke(args, default);

    /// <summary>Calls the function. The argument count must be one it <see cref="Accepts"/>.</summary>
    public SqlValue Invoke(ReadOnlySpan<SqlValue> args, FunctionContext context)
    {
        if (!Accepts(args.Length)) SqlErrors.WrongArgumentCount(Name);
        return _body(args, context);
    }
}
