using Sharc.Write;

namespace Sharc;

public sealed partial class SharcDatabase
{
    /// <summary>
    /// Creates a table from a CREATE TABLE statement (constraints, WITHOUT ROWID, AUTOINCREMENT, STRICT), stored in
    /// sqlite_schema exactly as SQLite stores it, with the sqlite_autoindex_* indexes its PRIMARY KEY and UNIQUE
    /// constraints need. "IF NOT EXISTS" makes an existing table a no-op.
    /// </summary>
    public void CreateTable(string createTableSql)
        => RunWrite(createTableSql, static (db, sql) => { new SchemaWriter(db).CreateTable(sql); return 0; });

    /// <summary>Creates an index (CREATE [UNIQUE] INDEX … ON t(…)) and fills it from the existing rows.</summary>
    public void CreateIndex(string createIndexSql)
        => RunWrite(createIndexSql, static (db, sql) => { new SchemaWriter(db).CreateIndex(sql); return 0; });

    /// <summary>Drops a table with its indexes and triggers; its pages go to the freelist.</summary>
    public void DropTable(string name, bool ifExists = false)
        => RunWrite((name, ifExists), static (db, s) => { new SchemaWriter(db).DropTable(s.name, s.ifExists); return 0; });

    /// <summary>Drops an index (not one that backs a PRIMARY KEY or UNIQUE constraint).</summary>
    public void DropIndex(string name, bool ifExists = false)
        => RunWrite((name, ifExists), static (db, s) => { new SchemaWriter(db).DropIndex(s.name, s.ifExists); return 0; });

    /// <summary>ALTER TABLE <paramref name="table"/> ADD COLUMN <paramref name="columnDefinition"/> (e.g. "age INT DEFAULT 0").</summary>
    public void AddColumn(string table, string columnDefinition)
        => RunWrite((table, columnDefinition), static (db, s) => { new SchemaWriter(db).AddColumn(s.table, s.columnDefinition); return 0; });

    /// <summary>ALTER TABLE … RENAME TO: renames a table (its indexes, triggers and sqlite_sequence entry follow).</summary>
    public void RenameTable(string table, string newName)
        => RunWrite((table, newName), static (db, s) => { db.RenameTableInStatement(s.table, s.newName); return 0; });

    /// <summary>ALTER TABLE … RENAME COLUMN.</summary>
    public void RenameColumn(string table, string column, string newName)
        => RunWrite((table, column, newName), static (db, s) => { db.RenameColumnInStatement(s.table, s.column, s.newName); return 0; });

    /// <summary>
    /// ALTER TABLE … DROP COLUMN (SQLite 3.35's rules): refuses PRIMARY KEY, UNIQUE and indexed columns and columns
    /// the table's CHECKs, generated columns or FOREIGN KEYs use; otherwise rewrites the definition and every row.
    /// </summary>
    public void DropColumn(string table, string column)
        => RunWrite((table, column), static (db, s) => { db.DropColumnInStatement(s.table, s.column); return 0; });

    // The ALTER TABLE steps shared by the C# API and SQL: run inside the caller's statement, so a view the change
    // breaks undoes it.
    internal void RenameTableInStatement(string table, string newName)
    {
        new SchemaWriter(this).RenameTable(table, newName);
        CheckViewsResolve("");
    }

    internal void RenameColumnInStatement(string table, string column, string newName)
    {
        new SchemaWriter(this).RenameColumn(table, column, newName);
        CheckViewsResolve("");
    }

    internal void DropColumnInStatement(string table, string column)
    {
        new SchemaWriter(this).DropColumn(table, column);
        CheckViewsResolve(" after drop column");
    }

    /// <summary>
    /// After ALTER TABLE has rewritten the schema, every view must still resolve, as SQLite checks: otherwise the
    /// statement fails ("error in view v: no such column: a") and is undone. Trigger bodies are not checked.
    /// </summary>
    private void CheckViewsResolve(string when)
    {
        ReloadSchema();
        foreach (var view in Schema.Views)
        {
            try
            {
                Sql.Planning.QueryPlan.Create(Schema, $"SELECT * FROM main.\"{view.Name.Replace("\"", "\"\"")}\"");
            }
            catch (SharcSqlException e)
            {
                string message = e.SqliteMessage;
                // SQLite names the missing table with its schema here.
                if (message.StartsWith("no such table: ", StringComparison.Ordinal) && !message.Contains('.'))
                    message = "no such table: main." + message["no such table: ".Length..];
                throw new SharcException($"error in view {view.Name}{when}: {message}");
            }
        }
    }
}
