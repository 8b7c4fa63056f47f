using Microsoft.Data.Sqlite;
using SQLitePCL;
using Sharc.Sql.Ast;
using Sharc.Sql.Parsing;

namespace Sharc.Tests.Sql.Parsing;

/// <summary>
/// Asks real SQLite (sqlite3_prepare_v2 on an in-memory database holding <see cref="SqlCorpus.Schema"/>) whether the
/// first statement of a text has a syntax error, and asks Sharq the same question, so the two can be compared.
/// Only syntax errors are compared: SQLite's prepare also resolves names, which Sharq's parser does not.
/// </summary>
internal sealed class SqliteSyntaxOracle : IDisposable
{
    private readonly SqliteConnection _connection;

    public SqliteSyntaxOracle()
    {
        _connection = new SqliteConnection("Data Source=:memory:");
        _connection.Open();
        using var cmd = _connection.CreateCommand();
        cmd.CommandText = SqlCorpus.Schema;
        cmd.ExecuteNonQuery();
    }

    public void Dispose() => _connection.Dispose();

    /// <summary>SQLite's error for the first statement of <paramref name="sql"/>, or null when it prepares.</summary>
    public string? SqliteError(string sql)
    {
        int rc = raw.sqlite3_prepare_v2(_connection.Handle, sql, out sqlite3_stmt stmt, out string _);
        stmt?.Dispose();
        return rc == raw.SQLITE_OK ? null : raw.sqlite3_errmsg(_connection.Handle).utf8_to_string();
    }

    public static bool IsSyntaxMessage(string? message)
        => message is not null
           && (message.StartsWith("near \"", StringComparison.Ordinal)
               || message == "incomplete input"
               || message.StartsWith("unrecognized token:", StringComparison.Ordinal));

    /// <summary>Sharq's verdict on the first statement: its error (null when it parses) and its tree.</summary>
    public static (SharcSqlException? Error, SqlStatement? Statement) Sharq(string sql)
    {
        var statements = SqlParser.ParseScript(sql, out var error);
        return statements.Count > 0 ? (null, statements[0]) : (error, null);
    }

    /// <summary>
    /// The one known difference: Sharq accepts ORDER BY/LIMIT on UPDATE and DELETE (SQLITE_ENABLE_UPDATE_DELETE_LIMIT),
    /// which the oracle's SQLite build does not.
    /// </summary>
    public static bool UsesUpdateDeleteLimit(SqlStatement? statement) => statement switch
    {
        SqlUpdateStatement u => u.Limit is not null || u.OrderBy.Count > 0,
        SqlDeleteStatement d => d.Limit is not null || d.OrderBy.Count > 0,
        _ => false,
    };

    /// <summary>
    /// Null when SQLite and Sharq agree on whether <paramref name="sql"/> has a syntax error, otherwise a
    /// description of the disagreement.
    /// </summary>
    public string? Disagreement(string sql)
    {
        string? sqlite = SqliteError(sql);
        var (error, statement) = Sharq(sql);
        bool sqliteSyntax = IsSyntaxMessage(sqlite);
        bool sharqSyntax = error is { IsSyntaxError: true };
        if (sqliteSyntax == sharqSyntax) return null;
        if (sqliteSyntax && UsesUpdateDeleteLimit(statement)) return null;
        // SQLite looks up names while it parses (the table of CREATE TRIGGER and ALTER TABLE … ADD, the name and
        // schema of CREATE TABLE, a column's collation) and stops there, before later syntax errors; a parser
        // without the schema cannot know.
        if (sqlite is not null && (sqlite.StartsWith("no such table:", StringComparison.Ordinal)
                                   || sqlite.StartsWith("unknown database ", StringComparison.Ordinal)
                                   || sqlite.StartsWith("no such collation sequence:", StringComparison.Ordinal)
                                   || sqlite.EndsWith(" already exists", StringComparison.Ordinal)))
        {
            return null;
        }
        return $"{sql}\n    SQLite: {sqlite ?? "ok"}\n    Sharq:  {error?.Message ?? "ok"}";
    }
}
