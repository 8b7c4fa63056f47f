namespace Sharc.Schema;

/// <summary>One row of sqlite_schema: type, name, tbl_name, rootpage and sql (null for sqlite_autoindex_* rows).</summary>
internal readonly record struct SchemaRow(string Type, string Name, string TableName, long RootPage, string? Sql);
