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
/// The reference harness runs every record in autocommit. Statements here run inside one transaction kept open between
/// them (a failing statement is undone alone, as in SQLite), so a file's setup costs one set of syncs rather than one
/// per row — which gives the same answers only while nothing depends on being outside a transaction. The file's own
/// transaction control ends the kept transaction first; so does any PRAGMA, ATTACH, DETACH or VACUUM (SQLite ignores
/// <c>PRAGMA foreign_keys</c> inside a transaction and refuses the others), and after the first PRAGMA the engine runs
/// in real autocommit for the rest of the file, because deferred foreign keys are checked at each statement's commit.
/// </remarks>
internal sealed class SharcSltEngine : ISltEngine
{
    private readonly string _directory;
    private readonly SharcDatabase _db;
    private SharcTransaction? _transaction;
    private bool _autocommit;

    public SharcSltEngine()
    {
        _directory = Path.Combine(Path.GetTempPath(), "sharc-slt", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(_directory);
        _db = SharcDatabase.Create(Path.Combine(_directory, "slt.db"));
    }

    public string Name => "sharc";

    public void Execute(string sql)
    {
        if (NeedsAutocommit(sql))
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
        if (NeedsAutocommit(sql)) Commit();
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

    /// <summary>Whether <paramref name="sql"/> must run outside the kept transaction (and, for a PRAGMA, from now on every statement).</summary>
    private bool NeedsAutocommit(string sql)
    {
        string word = FirstKeyword(sql);
        if (word == "PRAGMA") _autocommit = true;
        return _autocommit
            || word is "BEGIN" or "COMMIT" or "END" or "ROLLBACK" or "SAVEPOINT" or "RELEASE" or "ATTACH" or "DETACH" or "VACUUM";
    }

    /// <summary>The statement's first keyword in upper case, after whitespace and <c>--</c> / <c>/* */</c> comments.</summary>
    internal static string FirstKeyword(string sql)
    {
        int i = 0;
        while (i < sql.Length)
        {
            if (char.IsWhiteSpace(sql[i])) i++;
            else if (i + 1 < sql.Length && sql[i] == '-' && sql[i + 1] == '-')
            {
                int end = sql.IndexOf('\n', i);
                i = end < 0 ? sql.Length : end + 1;
            }
            else if (i + 1 < sql.Length && sql[i] == '/' && sql[i + 1] == '*')
            {
                int end = sql.IndexOf("*/", i + 2, StringComparison.Ordinal);
                i = end < 0 ? sql.Length : end + 2;
            }
            else break;
        }
        int start = i;
        while (i < sql.Length && char.IsAsciiLetter(sql[i])) i++;
        return sql[start..i].ToUpperInvariant();
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
