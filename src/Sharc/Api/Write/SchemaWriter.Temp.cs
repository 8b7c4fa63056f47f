namespace Sharc.Write;

internal sealed partial class SchemaWriter
{
    /// <summary>
    /// In the temp database, after a table of another database was renamed: the triggers in <paramref name="owned"/>
    /// (bound to that table) take its new name as tbl_name, and their text — with, when <paramref name="rewriteReaders"/>,
    /// that of every other trigger and view that mentions the old name — names the new one.
    /// </summary>
    public void RenameInTempSchema(string oldName, string newName, IReadOnlySet<string> owned, bool rewriteReaders)
    {
        UpdateSchemaRows(
            r => r.Sql is not null && (r.Type == "trigger" && owned.Contains(r.Name)
                || (rewriteReaders && r.Type is "trigger" or "view" && RenameRewriter.MentionsTable(r.Sql, oldName))),
            r => r with
            {
                TableName = r.Type == "trigger" && owned.Contains(r.Name) ? newName : r.TableName,
                Sql = RenameRewriter.RenameTable(r.Sql!, oldName, newName),
            });
        BumpCookie();
    }
}
