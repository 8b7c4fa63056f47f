using Sharc.Schema.Parsing;
using Sharc.Sql.Writes;
using Sharc.Storage;

namespace Sharc;

public sealed partial class SharcDatabase
{
    /// <summary>Open savepoints, innermost last; a savepoint taken outside a transaction started it.</summary>
    private readonly List<(string Name, PagerSnapshot Snapshot)> _savepoints = new();
    private bool _transactionFromSavepoint;

    /// <summary>SAVEPOINT name: outside a transaction it begins one (as BEGIN DEFERRED), as in SQLite.</summary>
    internal void SqlSavepoint(string name)
    {
        if (!OwnsTransaction)
        {
            _savepoints.Clear();
            SqlBegin();
            _transactionFromSavepoint = true;
        }
        else if (_savepoints.Count == 0)
        {
            _transactionFromSavepoint = false;
        }
        _savepoints.Add((name, WritablePager.TakeSnapshot()));
        foreach (var joined in JoinedDatabases()) joined.SqlSavepoint(name);
    }

    /// <summary>RELEASE name: forgets it and every savepoint after it; releasing the outermost one of a transaction it began commits.</summary>
    internal void SqlRelease(string name)
    {
        int at = FindSavepoint(name);
        _savepoints.RemoveRange(at, _savepoints.Count - at);
        foreach (var joined in JoinedDatabases()) joined.SqlRelease(name);
        if (_savepoints.Count == 0 && _transactionFromSavepoint)
        {
            _transactionFromSavepoint = false;
            SqlCommit();
        }
    }

    /// <summary>ROLLBACK TO name: undoes everything since the savepoint, which stays open (as in SQLite).</summary>
    internal void SqlRollbackTo(string name)
    {
        int at = FindSavepoint(name);
        _savepoints.RemoveRange(at + 1, _savepoints.Count - at - 1);
        WritablePager.RestoreSnapshot(_savepoints[at].Snapshot);
        _writers.Clear();
        ReloadSchema();
        foreach (var joined in JoinedDatabases()) joined.SqlRollbackTo(name);
    }

    private int FindSavepoint(string name)
    {
        if (!OwnsTransaction) _savepoints.Clear();
        for (int i = _savepoints.Count - 1; i >= 0; i--)
            if (SqlNameComparer.Instance.Equals(_savepoints[i].Name, name)) return i;
        throw SqlScript.Positionless($"no such savepoint: {name}");
    }
}
