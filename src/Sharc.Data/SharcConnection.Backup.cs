using System.Data;

namespace Sharc.Data;

/// <summary>Microsoft.Data.Sqlite's BackupDatabase, on Sharc's online backup.</summary>
public sealed partial class SharcConnection
{
    /// <summary>
    /// Copies this connection's database into <paramref name="destination"/>'s (opened first if it is closed, and closed
    /// again afterwards), as Microsoft.Data.Sqlite's <c>BackupDatabase</c>: the copy is one snapshot of this database,
    /// written into the destination in one transaction of its own (<see cref="Sharc.SharcDatabase.BackupTo(Sharc.SharcDatabase, SharcBackupOptions?)"/>),
    /// and writers of this connection are not blocked meanwhile. Both databases need the same page size.
    /// </summary>
    public void BackupDatabase(SharcConnection destination) => BackupDatabase(destination, "main", "main");

    /// <summary>As <see cref="BackupDatabase(SharcConnection)"/>; only the main databases can be named.</summary>
    public void BackupDatabase(SharcConnection destination, string destinationName, string sourceName)
    {
        ArgumentNullException.ThrowIfNull(destination);
        ArgumentNullException.ThrowIfNull(destinationName);
        ArgumentNullException.ThrowIfNull(sourceName);
        if (!string.Equals(destinationName, "main", StringComparison.OrdinalIgnoreCase) || !string.Equals(sourceName, "main", StringComparison.OrdinalIgnoreCase))
            throw new NotSupportedException("Sharc backs up main databases only.");
        var source = OpenDatabase(nameof(BackupDatabase));
        bool close = destination.State != ConnectionState.Open;
        if (close) destination.Open();
        try
        {
            source.BackupTo(destination.OpenDatabase(nameof(BackupDatabase)));
        }
        finally
        {
            if (close) destination.Close();
        }
    }
}
