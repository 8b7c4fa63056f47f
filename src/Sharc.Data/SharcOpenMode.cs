namespace Sharc.Data;

/// <summary>How a connection opens its database: Microsoft.Data.Sqlite's <c>Mode</c> keyword.</summary>
public enum SharcOpenMode
{
    /// <summary>Read and write, creating the file when it does not exist (the default).</summary>
    ReadWriteCreate,
    /// <summary>Read and write an existing file.</summary>
    ReadWrite,
    /// <summary>Read an existing file only.</summary>
    ReadOnly,
    /// <summary>A private database that lives as long as the connection is open (kept in a temporary file Sharc deletes on close).</summary>
    Memory,
}
