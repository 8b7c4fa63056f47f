using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;

namespace Sharc.Sql.Intent;

/// <summary>
/// Names in other databases of the connection: a qualified name ("aux.t", "temp.t") is looked up in that database, an
/// unqualified one in temp, then main, then the attached databases in ATTACH order, as SQLite searches.
/// </summary>
internal sealed partial class IntentCompiler
{
    // Set when the connection has temp or attached databases: each one's schema, read once per compilation so that
    // every name of the statement is resolved against one version (in _tempViews.Databases order).
    private SharcSchema[]? _otherSchemas;
    private SharcDatabase? _mainDatabase;
    private SharcSchema? _mainSchema;

    /// <summary>Reads the other databases' schemas, when there are any, for a compilation that may name them.</summary>
    private void UseDatabases(Sql.TempViews? views)
    {
        if (views is null || views.Databases.Count == 0) return;
        var main = views.Databases[0].Database.Connection;
        _mainDatabase = main;
        _mainSchema = main.Schema;
        _otherSchemas = new SharcSchema[views.Databases.Count];
        for (int i = 0; i < _otherSchemas.Length; i++) _otherSchemas[i] = views.Databases[i].Database.Schema;
    }

    /// <summary>
    /// The schema a table reference names. False when its qualifier names no database. Without other databases, only
    /// main exists and <paramref name="database"/> is null (the statement's own database).
    /// </summary>
    private bool FindSchema(SqlTableRef t, out SharcSchema schema, out SharcDatabase? database, out string? schemaName)
    {
        schema = _schema;
        database = null;
        schemaName = null;
        if (_otherSchemas is null)
        {
            if (t.Schema is null || SqlText.EqualsIgnoreCase(t.Schema, "main")) return true;
            // temp.sqlite_master with no temp database yet is an empty table.
            return SqlText.EqualsIgnoreCase(t.Schema, "temp") && IsTempSchemaTable(t.Name, t.Schema);
        }
        var databases = _tempViews!.Databases;
        string name = t.Name;
        if (Qualifier(t) is { } q)
        {
            if (SqlText.EqualsIgnoreCase(q, "main")) return Main(out schema, out database, out schemaName);
            for (int i = 0; i < databases.Count; i++)
            {
                if (!SqlNameComparer.Instance.Equals(databases[i].Name, q)) continue;
                (schema, database, schemaName) = (_otherSchemas[i], databases[i].Database, databases[i].Name);
                return true;
            }
            if (SqlText.EqualsIgnoreCase(q, "temp") && IsTempSchemaTable(name, q)) return Main(out schema, out database, out schemaName);
            return false;
        }
        // Temp first (it is first in the list when it exists), then main, then the attached databases.
        int start = 0;
        if (databases.Count > 0 && SqlNameComparer.Instance.Equals(databases[0].Name, "temp"))
        {
            start = 1;
            bool mainSchemaTable = SqlText.EqualsIgnoreCase(name, "sqlite_master") || SqlText.EqualsIgnoreCase(name, "sqlite_schema");
            if (!mainSchemaTable && Holds(_otherSchemas[0], TempSchemaTableName(name, "temp")))
            {
                (schema, database, schemaName) = (_otherSchemas[0], databases[0].Database, "temp");
                return true;
            }
        }
        Main(out schema, out database, out schemaName);
        if (Holds(schema, name)) return true;
        for (int i = start; i < databases.Count; i++)
        {
            if (!Holds(_otherSchemas[i], name)) continue;
            (schema, database, schemaName) = (_otherSchemas[i], databases[i].Database, databases[i].Name);
            return true;
        }
        return true;
    }

    /// <summary>
    /// The database a view stored in main or an attached database is compiled in (null: none, or temp). SQLite fixes
    /// every unqualified name of such a view to the view's own database when it reads the CREATE VIEW, so a TEMP
    /// table or view of the same name never hides what the view reads; a TEMP view searches temp, main, attached.
    /// </summary>
    private string? _viewHome;

    /// <summary>The database a table reference names: its own qualifier, else the home of the view it is read in.</summary>
    private string? Qualifier(SqlTableRef t)
        => t.Schema ?? (_viewHome is { } home && !SqlText.EqualsIgnoreCase(home, "temp") && _otherSchemas is not null ? home : null);

    private bool Main(out SharcSchema schema, out SharcDatabase? database, out string? schemaName)
    {
        schema = _mainSchema!;
        database = _mainDatabase;
        schemaName = "main";
        return true;
    }

    private static bool Holds(SharcSchema schema, string name) => schema.FindTable(name) is not null || schema.FindView(name) is not null;

    /// <summary>sqlite_temp_master and sqlite_temp_schema name the temp database's schema table.</summary>
    private static bool IsTempSchemaTable(string name, string? qualifier)
        => SqlText.EqualsIgnoreCase(name, "sqlite_temp_master") || SqlText.EqualsIgnoreCase(name, "sqlite_temp_schema")
           || (qualifier is not null && SqlText.EqualsIgnoreCase(qualifier, "temp")
               && (SqlText.EqualsIgnoreCase(name, "sqlite_master") || SqlText.EqualsIgnoreCase(name, "sqlite_schema")));

    /// <summary>The name to look up in a database's schema: in temp, sqlite_temp_master is its sqlite_schema.</summary>
    private static string TempSchemaTableName(string name, string? schemaName)
        => schemaName is not null && SqlText.EqualsIgnoreCase(schemaName, "temp") && IsTempSchemaTable(name, null) ? "sqlite_schema" : name;

    /// <summary>True when a FROM item is a table of database <paramref name="qualifier"/> (for "db.table.column").</summary>
    private static bool InSchema(IntentSource source, string qualifier)
        => source is TableSource { } t ? SqlText.EqualsIgnoreCase(t.SchemaName ?? "main", qualifier) : SqlText.EqualsIgnoreCase(qualifier, "main");
}
