namespace Sharc.Integrity;

/// <summary>Where a problem was found, formatted the way SQLite's integrity_check prefixes its messages.</summary>
internal readonly struct Where
{
    private readonly string? _label;
    private readonly uint _tree;
    private readonly uint _page;
    private readonly int _cell;

    private Where(string? label, uint tree, uint page, int cell)
    {
        _label = label;
        _tree = tree;
        _page = page;
        _cell = cell;
    }

    /// <summary>A b-tree as a whole (before its root page is known to be usable).</summary>
    public static Where Tree(uint tree) => new(null, tree, 0, -1);

    /// <summary>One page of a b-tree.</summary>
    public static Where Page(uint tree, uint page) => new(null, tree, page, -1);

    /// <summary>One cell of a b-tree page.</summary>
    public static Where Cell(uint tree, uint page, int cell) => new(null, tree, page, cell);

    /// <summary>Something that is not a b-tree ("Freelist", "Header").</summary>
    public static Where Other(string label) => new(label, 0, 0, -1);

    public override string ToString()
    {
        if (_label is not null) return _label;
        if (_page == 0) return $"Tree {_tree}";
        return _cell >= 0 ? $"Tree {_tree} page {_page} cell {_cell}" : $"Tree {_tree} page {_page}";
    }
}

/// <summary>Thrown when the problem list is full: the check stops at once (bounded work).</summary>
internal sealed class CheckLimitReachedException : Exception
{
    public CheckLimitReachedException() : base("the integrity check found as many problems as it was asked to report") { }
}

/// <summary>Collects problem lines, at most <c>max</c> of them; the one that fills the list stops the check.</summary>
internal sealed class ProblemLog
{
    private readonly List<string> _problems = new();
    private readonly int _max;

    public ProblemLog(int max) => _max = max;

    /// <summary>The number of problems so far (compare before and after a step to see whether it found any).</summary>
    public int Count => _problems.Count;

    public IReadOnlyList<string> Problems => _problems;

    public void Add(string message)
    {
        _problems.Add(message);
        if (_problems.Count >= _max) throw new CheckLimitReachedException();
    }

    public void Add(in Where where, string message) => Add(where.ToString() + ": " + message);
}
