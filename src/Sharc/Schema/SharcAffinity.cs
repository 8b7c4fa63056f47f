namespace Sharc;

/// <summary>A column's type affinity, derived from its declared type by SQLite's rules (section 3.1 of the datatype documentation).</summary>
public enum SharcAffinity
{
    /// <summary>BLOB (historically "NONE"): values are stored as given.</summary>
    Blob = 0,
    /// <summary>TEXT.</summary>
    Text = 1,
    /// <summary>NUMERIC.</summary>
    Numeric = 2,
    /// <summary>INTEGER.</summary>
    Integer = 3,
    /// <summary>REAL.</summary>
    Real = 4,
}
