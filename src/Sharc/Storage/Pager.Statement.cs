namespace Sharc.Storage;

/// <summary>Statement savepoints: a failed statement inside a transaction is undone alone (SQLite's statement journal).</summary>
internal sealed partial class Pager
{
    /// <summary>
    /// Starts a statement inside the transaction: if it fails, <see cref="RollbackStatement"/> undoes just its
    /// changes (SQLite's statement journal), leaving the transaction's earlier work in place.
    /// </summary>
    public void BeginStatement()
    {
        _statement.Clear();
        _inStatement = true;
        _pageCountAtStatement = PageCount;
    }

    public void CommitStatement()
    {
        foreach (var copy in _statement.Values)
            if (copy is not null) _pool.Push(copy);
        _statement.Clear();
        _inStatement = false;
    }

    public void RollbackStatement()
    {
        foreach (var (page, before) in _statement)
        {
            if (before is null)
            {
                // The page was clean (or new) before the statement: drop the statement's copy.
                if (_dirty.Remove(page, out var b)) _pool.Push(b);
            }
            else
            {
                if (_dirty.TryGetValue(page, out var buf)) before.CopyTo(buf, 0);
                _pool.Push(before);
            }
        }
        PageCount = _pageCountAtStatement;
        _statement.Clear();
        _inStatement = false;
        DataVersion++;
    }
}
