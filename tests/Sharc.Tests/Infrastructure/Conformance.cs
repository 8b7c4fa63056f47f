namespace Sharc.Tests.Infrastructure;

/// <summary>Locates ../shared/conformance (beside the checkout). Absent in a user's fresh clone: tests then skip.</summary>
public static class Conformance
{
    private static readonly Lazy<string?> Root = new(Find);

    public static string? Directory => Root.Value;

    public static string SkipReason => "../shared/conformance is not beside this checkout (it is in CI); skipping external conformance material.";

    private static string? Find()
    {
        var env = Environment.GetEnvironmentVariable("SHARC_CONFORMANCE");
        if (!string.IsNullOrEmpty(env) && System.IO.Directory.Exists(env)) return env;
        var dir = new DirectoryInfo(AppContext.BaseDirectory);
        while (dir is not null)
        {
            if (File.Exists(Path.Combine(dir.FullName, "Sharc.sln")))
            {
                var candidate = Path.GetFullPath(Path.Combine(dir.FullName, "..", "shared", "conformance"));
                return System.IO.Directory.Exists(candidate) ? candidate : null;
            }
            dir = dir.Parent;
        }
        return null;
    }
}

/// <summary>A fact that is skipped, with a clear reason, when ../shared/conformance is absent.</summary>
public sealed class ConformanceFactAttribute : FactAttribute
{
    public ConformanceFactAttribute()
    {
        if (Conformance.Directory is null) Skip = Conformance.SkipReason;
    }
}

/// <summary>A theory that is skipped, with a clear reason, when ../shared/conformance is absent.</summary>
public sealed class ConformanceTheoryAttribute : TheoryAttribute
{
    public ConformanceTheoryAttribute()
    {
        if (Conformance.Directory is null) Skip = Conformance.SkipReason;
    }
}
