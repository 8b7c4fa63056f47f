namespace Sharc.Cli.Slt;

/// <summary>The one place that says which engine <c>sharc slt</c> runs test files against.</summary>
internal static class SltEngines
{
    /// <summary>What <c>sharc slt</c> reports while there is no engine to run against.</summary>
    public const string NotAvailableMessage = "the SQL engine is not available yet";

    /// <summary>
    /// Makes a fresh engine (an empty in-memory database) for one test file, or is null while Sharc has no SQL engine.
    /// </summary>
    /// <remarks>
    /// To plug in Sharc's engine, write one small class implementing <see cref="ISltEngine"/> (open an empty
    /// in-memory database; <see cref="ISltEngine.Execute"/> → <c>db.Execute</c>; <see cref="ISltEngine.Query"/> →
    /// <c>db.Query</c>, reading each row's values as null/long/double/string/byte[]) and return
    /// <c>() =&gt; new SharcSltEngine()</c> here.
    /// </remarks>
    public static Func<ISltEngine>? Sharc => null;
}
