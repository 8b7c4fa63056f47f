using Microsoft.Data.Sqlite;
using Sharc.Cli.Slt;

namespace Sharc.Tests.Slt;

/// <summary>Real SQLite (through Microsoft.Data.Sqlite) as an sqllogictest engine: the reference the runner is proven on.</summary>
internal sealed class SqliteSltEngine : ISltEngine
{
    private readonly SqliteConnection _connection;

    public SqliteSltEngine()
    {
        // No pooling: a pooled ":memory:" connection could hand the next file the previous file's tables.
        _connection = new SqliteConnection("Data Source=:memory:;Pooling=False");
        _connection.Open();
    }

    public string Name => "sqlite";

    public void Execute(string sql)
    {
        using var cmd = _connection.CreateCommand();
        cmd.CommandText = sql;
        cmd.ExecuteNonQuery();
    }

    public IReadOnlyList<object?[]> Query(string sql)
    {
        using var cmd = _connection.CreateCommand();
        cmd.CommandText = sql;
        using var reader = cmd.ExecuteReader();
        var rows = new List<object?[]>();
        while (reader.Read())
        {
            var row = new object?[reader.FieldCount];
            for (int i = 0; i < row.Length; i++)
            {
                // GetValue reports each value's own storage class: long, double, string or byte[].
                object v = reader.GetValue(i);
                row[i] = v is DBNull ? null : v;
            }
            rows.Add(row);
        }
        return rows;
    }

    public void Dispose() => _connection.Dispose();
}
