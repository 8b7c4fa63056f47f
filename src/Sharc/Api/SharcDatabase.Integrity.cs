using Sharc.Integrity;

namespace Sharc;

public sealed partial class SharcDatabase
{
    /// <summary>
    /// Checks the database for corruption, in the spirit of SQLite's <c>PRAGMA integrity_check</c>, and returns one
    /// line per problem found (naming the page and what is wrong); an empty list means no problem was found.
    /// Checked: every page is used exactly once (by a b-tree, an overflow chain, the freelist, a pointer map or the
    /// lock-byte page); b-tree pages are well formed (types, cell pointers, cells, freeblocks, fragmented-byte
    /// count, all leaves at the same depth); rowids and index keys are in order; overflow chains have the right
    /// length; the freelist count matches the header; pointer-map entries match (auto_vacuum); every index holds
    /// exactly one entry per row of its table, UNIQUE indexes hold no duplicates, NOT NULL columns hold no NULL, and
    /// STRICT tables' columns hold only values of their type ("non-INT value in t.a", as SQLite words it).
    /// Not checked: CHECK constraints, and the entries (though not the count) of expression
    /// indexes and the count and entries of partial indexes, which need the SQL engine.
    /// The check never throws for a corrupt file (what the reader cannot read becomes a problem line), walks every
    /// page at most once, and stops after <paramref name="maxErrors"/> problems.
    /// </summary>
    /// <param name="maxErrors">The most problems to report (at least 1); the check stops when it has found this many.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maxErrors"/> is less than 1.</exception>
    /// <exception cref="ObjectDisposedException">The database has been disposed.</exception>
    public IReadOnlyList<string> CheckIntegrity(int maxErrors = 100) => CheckIntegrity(maxErrors, null);

    /// <summary>
    /// <see cref="CheckIntegrity(int)"/>, telling <paramref name="progress"/> how far it is: ("pages", checked, page
    /// count) while it walks the b-trees, then ("tables", checked, table count) while it compares tables with their indexes.
    /// </summary>
    internal IReadOnlyList<string> CheckIntegrity(int maxErrors, Action<string, long, long>? progress)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxErrors, 1);
        _ = Source; // throws when disposed
        return UnderWriteLock(db =>
        {
            // Open reads page 1 only: a schema too damaged to read is this check's one problem, not an exception.
            try
            {
                _ = db.Schema;
            }
            catch (SharcCorruptException e)
            {
                return (IReadOnlyList<string>)[e.Message];
            }
            return IntegrityChecker.Run(db, maxErrors, progress);
        });
    }

    /// <summary>True when <see cref="CheckIntegrity(int)"/> finds no problem (it stops at the first one).</summary>
    /// <exception cref="ObjectDisposedException">The database has been disposed.</exception>
    public bool IsIntact() => CheckIntegrity(1).Count == 0;
}
