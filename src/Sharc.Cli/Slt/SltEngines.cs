namespace Sharc.Cli.Slt;

/// <summary>The one place that says which engine <c>sharc slt</c> runs test files against.</summary>
internal static class SltEngines
{
    /// <summary>What <c>sharc slt</c> reports while there is no engine to run against.</summary>
    public const string NotAvailableMessage = "the SQL engine is not available yet";

    /// <summary>Makes a fresh engine (an empty database in a temporary file) for one test file.</summary>
    public static Func<ISltEngine>? Sharc => () => new SharcSltEngine();
}

/// <summary>
/// Sharc as an sqllogictest engine: statements go through <see cref="SharcDatabase.Execute(string, object?[])"/>,
/// queries through <see cref="SharcDatabase.Query(string, object?[])"/>.
/// </summary>
/// <remarks>
/// Each engine owns a database file in a directory of its own under the temp folder, deleted on dispose.
/// Statements run inside one transaction kept open between them (a failing statement is undone alone, as in SQLite),
/// so a file's setup costs one set of syncs rather than one per row; the file's own transaction control ends it first.
/// </remarks>
internal sealed class SharcSltEngine : ISltEngine
{
    private readonly string _directory;
    private readonly SharcDatabase _db;
    private SharcTransaction? _transaction;

    public SharcSltEngine()
    {
        _directory = Path.Combine(Path.GetTempPath(), "sharc-slt", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(_directory);
        _db = SharcDatabase.Create(Path.Combine(_directory, "slt.db"));
    }

    public string Name => "sharc";

    public void Execute(string sql)
    {
        if (IsTransactionControl(sql))
        {
            Commit();
            _db.Execute(sql);
            return;
        }
        if (!_db.InExplicitTransaction) _transaction = _db.BeginTransaction();
        _db.Execute(sql);
    }

    public IReadOnlyList<object?[]> Query(string sql)
    {
        using var reader = _db.Query(sql);
        var rows = new List<object?[]>();
        while (reader.Read())
        {
            var row = new object?[reader.FieldCount];
            for (int i = 0; i < row.Length; i++) row[i] = reader.GetValue(i);
            rows.Add(row);
        }
        return rows;
    }

    private static bool IsTransactionControl(string sql)
    {
        string word = sql.TrimStart().Split((char[])[' ', '\t', '\n', '\r', ';'], 2)[0].ToUpperInvariant();
        return word is "BEGIN" or "COMMIT" or "END" or "ROLLBACK" or "SAVEPOINT" or "RELEASE";
    }

    private void Commit()
    {
        if (_transaction is null) return;
        var tx = _transaction;
        _transaction = null;
        if (_db.InExplicitTransaction) tx.Commit();
    }

    public void Dispose()
    {
        try
        {
            Commit();
        }
        catch (SharcException)
        {
            // The file is thrown away anyway.
        }
        _transaction?.Dispose();
        _db.Dispose();
        try
        {
            Directory.Delete(_directory, recursive: true);
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }
    }
}
