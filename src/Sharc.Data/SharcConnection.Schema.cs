using System.Data;

namespace Sharc.Data;

public sealed partial class SharcConnection
{
    /// <summary>The schema collections: <c>MetaDataCollections</c>, plus <c>Tables</c> and <c>Columns</c> (which Microsoft.Data.Sqlite does not have).</summary>
    public override DataTable GetSchema() => GetSchema("MetaDataCollections");

    /// <inheritdoc cref="GetSchema(string, string?[])"/>
    public override DataTable GetSchema(string collectionName) => GetSchema(collectionName, []);

    /// <summary>
    /// A schema collection: <c>MetaDataCollections</c> (the list), <c>Tables</c> (TABLE_NAME, TABLE_TYPE "table"
    /// or "view"; restriction: the name) and <c>Columns</c> (TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE,
    /// IS_NULLABLE, PRIMARY_KEY; restrictions: the table name, the column name).
    /// </summary>
    /// <exception cref="ArgumentException">The collection is unknown, or given more restrictions than it has.</exception>
    public override DataTable GetSchema(string collectionName, string?[] restrictionValues)
    {
        ArgumentNullException.ThrowIfNull(collectionName);
        restrictionValues ??= [];
        var db = OpenDatabase(nameof(GetSchema));
        switch (collectionName.ToUpperInvariant())
        {
            case "METADATACOLLECTIONS":
            {
                Restrictions(collectionName, restrictionValues, 0);
                var t = new DataTable("MetaDataCollections");
                t.Columns.Add("CollectionName", typeof(string));
                t.Columns.Add("NumberOfRestrictions", typeof(int));
                t.Columns.Add("NumberOfIdentifierParts", typeof(int));
                t.Rows.Add("MetaDataCollections", 0, 0);
                t.Rows.Add("Tables", 1, 1);
                t.Rows.Add("Columns", 2, 2);
                return t;
            }
            case "TABLES":
            {
                Restrictions(collectionName, restrictionValues, 1);
                var t = new DataTable("Tables");
                t.Columns.Add("TABLE_NAME", typeof(string));
                t.Columns.Add("TABLE_TYPE", typeof(string));
                foreach (var table in db.Schema.Tables)
                    if (Matches(table.Name, restrictionValues, 0)) t.Rows.Add(table.Name, "table");
                foreach (var view in db.Schema.Views)
                    if (Matches(view.Name, restrictionValues, 0)) t.Rows.Add(view.Name, "view");
                return t;
            }
            case "COLUMNS":
            {
                Restrictions(collectionName, restrictionValues, 2);
                var t = new DataTable("Columns");
                t.Columns.Add("TABLE_NAME", typeof(string));
                t.Columns.Add("COLUMN_NAME", typeof(string));
                t.Columns.Add("ORDINAL_POSITION", typeof(int));
                t.Columns.Add("DATA_TYPE", typeof(string));
                t.Columns.Add("IS_NULLABLE", typeof(bool));
                t.Columns.Add("PRIMARY_KEY", typeof(bool));
                foreach (var table in db.Schema.Tables)
                {
                    if (!Matches(table.Name, restrictionValues, 0)) continue;
                    foreach (var c in table.Columns)
                        if (Matches(c.Name, restrictionValues, 1))
                            t.Rows.Add(table.Name, c.Name, c.Ordinal, c.DeclaredType, !c.IsNotNull, c.IsPrimaryKey);
                }
                return t;
            }
            default:
                throw new ArgumentException($"The requested collection '{collectionName}' is not defined.", nameof(collectionName));
        }
    }

    private static void Restrictions(string collection, string?[] values, int allowed)
    {
        if (values.Length > allowed) throw new ArgumentException($"More restrictions were provided than the collection '{collection}' supports.", nameof(values));
    }

    private static bool Matches(string name, string?[] restrictions, int index)
        => index >= restrictions.Length || restrictions[index] is null || string.Equals(restrictions[index], name, StringComparison.OrdinalIgnoreCase);
}
