namespace Sharc.Cli.Slt;

/// <summary>
/// A SQL engine that sqllogictest files can be run against: one fresh, empty, in-memory database per instance.
/// The runner talks only to this interface, so any engine (Sharc's, or real SQLite as a reference) can be plugged in
/// with one small adapter class.
/// </summary>
/// <remarks>
/// Values are reported as SQLite's storage classes: <see langword="null"/>, <see cref="long"/>, <see cref="double"/>,
/// <see cref="string"/> or <see cref="byte"/>[]. The runner, not the engine, turns them into the text the test files
/// expect, so an engine must not format anything itself.
/// </remarks>
public interface ISltEngine : IDisposable
{
    /// <summary>A short name for reports ("sharc", "sqlite").</summary>
    string Name { get; }

    /// <summary>
    /// Runs one SQL statement, discarding any rows it returns. Throws (any exception) when the statement fails to
    /// prepare or to run; <c>statement error</c> records count on that.
    /// </summary>
    /// <param name="sql">The statement's text, exactly as the test file gives it (it may span lines).</param>
    void Execute(string sql);

    /// <summary>
    /// Runs one SQL statement and returns all its rows, each an array with one value per result column. Throws (any
    /// exception) when the statement fails to prepare or fails while stepping; the runner then treats the result as
    /// empty, as the reference harness does.
    /// </summary>
    /// <param name="sql">The statement's text, exactly as the test file gives it (it may span lines).</param>
    /// <returns>The rows in the order the engine produced them.</returns>
    IReadOnlyList<object?[]> Query(string sql);
}
