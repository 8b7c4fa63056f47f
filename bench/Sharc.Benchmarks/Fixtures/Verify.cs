namespace Sharc.Benchmarks.Fixtures;

/// <summary>
/// The answer checks every [GlobalSetup] runs: each benchmark method is called once and must agree with its
/// baseline (and must not be trivially empty), or the run stops before anything is measured.
/// </summary>
public static class Verify
{
    /// <summary>Throws unless every result equals the first one and the first one is not the default value.</summary>
    public static void Same<T>(string what, params (string Method, T Result)[] results)
    {
        if (results.Length == 0) throw new ArgumentException("nothing to compare", nameof(results));
        var (firstName, first) = results[0];
        if (EqualityComparer<T>.Default.Equals(first, default!))
            throw new InvalidOperationException($"{what}: {firstName} returned {first}; the benchmark would measure nothing");
        foreach (var (name, value) in results)
        {
            if (!EqualityComparer<T>.Default.Equals(first, value))
                throw new InvalidOperationException($"{what}: engines disagree — {firstName} returned {first}, {name} returned {value}");
        }
    }

    /// <summary>Throws unless <paramref name="condition"/> holds.</summary>
    public static void That(bool condition, string message)
    {
        if (!condition) throw new InvalidOperationException(message);
    }
}

/// <summary>
/// Order-independent, exact checksums: integers are added, doubles are added as their bit patterns, strings
/// contribute their length and first character (all generated text is ASCII, so a UTF-8 span and a
/// .NET string give the same numbers). Overflow wraps.
/// </summary>
public static class Mix
{
    /// <summary>The contribution of a double.</summary>
    public static long Of(double d) => BitConverter.DoubleToInt64Bits(d);

    /// <summary>The contribution of a string (0 for null).</summary>
    public static long Of(string? s) => s is null ? 0 : s.Length == 0 ? 1 : s.Length * 131L + s[0];

    /// <summary>The contribution of UTF-8 text (0 for NULL, which Sharc returns as an empty span).</summary>
    public static long Of(ReadOnlySpan<byte> utf8, bool isNull = false) => isNull ? 0 : utf8.Length == 0 ? 1 : utf8.Length * 131L + utf8[0];
}

/// <summary>Random keys from a fixed seed.</summary>
public static class Keys
{
    /// <summary>The seed every suite uses for its keys.</summary>
    public const int Seed = 7;

    /// <summary><paramref name="count"/> keys uniformly drawn from [<paramref name="min"/>, <paramref name="max"/>].</summary>
    public static long[] Random(int count, long min, long max, int seed = Seed)
    {
        var rng = new Random(seed);
        var keys = new long[count];
        for (int i = 0; i < count; i++) keys[i] = rng.NextInt64(min, max + 1);
        return keys;
    }
}
