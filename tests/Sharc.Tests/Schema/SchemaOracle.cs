using Microsoft.Data.Sqlite;
using Sharc.Schema;

namespace Sharc.Tests.Schema;

/// <summary>
/// Real SQLite as the reference for schema tests: builds in-memory databases, reads their sqlite_schema rows
/// and the PRAGMAs that describe tables and indexes.
/// </summary>
internal sealed class SchemaOracle : IDisposable
{
    public sealed record ColumnInfo(long Cid, string Name, string Type, bool NotNull, string? Default, long Pk, long Hidden);
    public sealed record IndexInfo(string Name, bool Unique, string Origin, bool Partial);
    public sealed record IndexColumnInfo(long Cid, string? Name, bool Desc, string Collation);

    private SchemaOracle(SqliteConnection connection) => Connection = connection;

    public SqliteConnection Connection { get; }

    /// <summary>An in-memory database after running <paramref name="statements"/>.</summary>
    public static SchemaOracle Create(params string[] statements)
    {
        var c = new SqliteConnection("Data Source=:memory:;Pooling=False");
        c.Open();
        var oracle = new SchemaOracle(c);
        foreach (var s in statements) oracle.Exec(s);
        return oracle;
    }

    /// <summary>Opens a database file read-only.</summary>
    public static SchemaOracle OpenFile(string path)
    {
        var c = new SqliteConnection($"Data Source={path};Mode=ReadOnly;Pooling=False");
        c.Open();
        return new SchemaOracle(c);
    }

    public void Exec(string sql)
    {
        using var cmd = Connection.CreateCommand();
        cmd.CommandText = sql;
        cmd.ExecuteNonQuery();
    }

    /// <summary>Runs <paramref name="sql"/> and returns the SQLite error message, or null when it succeeds.</summary>
    public string? TryExec(string sql)
    {
        try
        {
            Exec(sql);
            return null;
        }
        catch (SqliteException e)
        {
            return e.Message;
        }
    }

    public List<object?[]> Rows(string sql) => Sharc.Tests.Infrastructure.Oracle.Rows(Connection, sql);

    public List<SchemaRow> SchemaRows()
        => Rows("SELECT type, name, tbl_name, rootpage, sql FROM sqlite_schema ORDER BY rowid")
            .ConvertAll(r => new SchemaRow((string)r[0]!, (string)r[1]!, (string)r[2]!, (long)r[3]!, (string?)r[4]));

    public uint PageCount => (uint)(long)Rows("PRAGMA page_count")[0][0]!;

    /// <summary>The schema Sharc builds from this database's sqlite_schema rows.</summary>
    public SharcSchema Build() => SchemaBuilder.Build(SchemaRows(), PageCount);

    public List<ColumnInfo> TableXInfo(string table)
        => Rows($"SELECT cid, name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo({Quote(table)})")
            .ConvertAll(r => new ColumnInfo((long)r[0]!, (string)r[1]!, (string)r[2]!, (long)r[3]! != 0, (string?)r[4], (long)r[5]!, (long)r[6]!));

    public List<IndexInfo> IndexList(string table)
        => Rows($"SELECT name, \"unique\", origin, partial FROM pragma_index_list({Quote(table)})")
            .ConvertAll(r => new IndexInfo((string)r[0]!, (long)r[1]! != 0, (string)r[2]!, (long)r[3]! != 0));

    /// <summary>The key columns of an index (PRAGMA index_xinfo rows with key = 1).</summary>
    public List<IndexColumnInfo> IndexKeyColumns(string index)
        => Rows($"SELECT cid, name, desc, coll FROM pragma_index_xinfo({Quote(index)}) WHERE key ORDER BY seqno")
            .ConvertAll(r => new IndexColumnInfo((long)r[0]!, (string?)r[1], (long)r[2]! != 0, (string)r[3]!));

    public static string Quote(string s) => "'" + s.Replace("'", "''") + "'";

    public void Dispose() => Connection.Dispose();
}
