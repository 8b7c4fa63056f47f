using Sharc.Write;

namespace Sharc;

public sealed partial class SharcDatabase
{
    /// <summary>
    /// True when writes enforce FOREIGN KEY constraints (SQLite's <c>PRAGMA foreign_keys</c>; off by default, as in
    /// SQLite). Set from <see cref="SharcOpenOptions.ForeignKeys"/> at open; like the pragma, changing it inside a
    /// transaction has no effect on that transaction's pending deferred checks.
    /// </summary>
    public bool ForeignKeysEnabled { get; set; }

    private ForeignKeys? _foreignKeys;

    /// <summary>The violation counters and key plans of FOREIGN KEY enforcement.</summary>
    internal ForeignKeys ForeignKeyState => _foreignKeys ??= new ForeignKeys(this);
}
