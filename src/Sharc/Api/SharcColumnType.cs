namespace Sharc;

/// <summary>SQLite's storage classes: the type of one stored value.</summary>
public enum SharcColumnType
{
    /// <summary>NULL.</summary>
    Null = 0,
    /// <summary>A signed 64-bit integer.</summary>
    Integer = 1,
    /// <summary>An IEEE 754 double.</summary>
    Real = 2,
    /// <summary>Text in the database encoding.</summary>
    Text = 3,
    /// <summary>Bytes stored as given.</summary>
    Blob = 4,
}
