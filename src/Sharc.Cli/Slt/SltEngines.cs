using System.Text;
using Sharc.Sql.Ast;
using Sharc.Sql.Intent;
using Sharc.Sql.Parsing;

namespace Sharc.Cli.Slt;

/// <summary>The one place that says which engine <c>sharc slt</c> runs test files against.</summary>
internal static class SltEngines
{
    /// <summary>What <c>sharc slt</c> reports while there is no engine to run against.</summary>
    public const string NotAvailableMessage = "the SQL engine is not available yet";

    /// <summary>Makes a fresh engine (an empty database in a temporary file) for one test file.</summary>
    public static Func<ISltEngine>? Sharc => () => new SharcSltEngine();
}

/// <summary>
/// Sharc as an sqllogictest engine. Queries go through <see cref="SharcDatabase.Query"/>. Statements are mapped onto
/// the write API: CREATE TABLE / CREATE INDEX / DROP TABLE / DROP INDEX onto the DDL methods, and INSERT (VALUES
/// rows of constant expressions, or a SELECT run by the query engine) onto <see cref="SharcDatabase.Insert(string, string[], object?[])"/>.
/// Any other statement throws, so its record fails honestly rather than passing by accident.
/// </summary>
/// <remarks>
/// Each engine owns a database file in a directory of its own under the temp folder, deleted on dispose.
/// Consecutive statements share one transaction (committed before the next query), so a file's setup costs one
/// set of syncs rather than one per row.
/// </remarks>
internal sealed class SharcSltEngine : ISltEngine
{
    private readonly string _directory;
    private readonly SharcDatabase _db;
    private SharcTransaction? _transaction;

    public SharcSltEngine()
    {
        _directory = Path.Combine(Path.GetTempPath(), "sharc-slt", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(_directory);
        _db = SharcDatabase.Create(Path.Combine(_directory, "slt.db"));
    }

    public string Name => "sharc";

    public void Execute(string sql)
    {
        _transaction ??= _db.BeginTransaction();
        foreach (var statement in SqlParser.ParseScript(sql)) Run(statement, sql);
    }

    public IReadOnlyList<object?[]> Query(string sql)
    {
        Commit();
        return ReadAll(sql);
    }

    private List<object?[]> ReadAll(string sql)
    {
        using var reader = _db.Query(sql);
        var rows = new List<object?[]>();
        while (reader.Read())
        {
            var row = new object?[reader.FieldCount];
            for (int i = 0; i < row.Length; i++) row[i] = reader.GetValue(i);
            rows.Add(row);
        }
        return rows;
    }

    private void Commit()
    {
        if (_transaction is null) return;
        var tx = _transaction;
        _transaction = null;
        tx.Commit();
    }

    private void Run(SqlStatement statement, string sql)
    {
        string text = sql[statement.Start..statement.End];
        if (statement.Explain != SqlExplainMode.None) Unsupported.Throw("EXPLAIN", sql, statement.Start);
        switch (statement)
        {
            case SqlCreateTableStatement:
                _db.CreateTable(text);
                break;
            case SqlCreateIndexStatement:
                _db.CreateIndex(text);
                break;
            case SqlDropStatement { Kind: SqlObjectKind.Table } drop:
                _db.DropTable(drop.Name, drop.IfExists);
                break;
            case SqlDropStatement { Kind: SqlObjectKind.Index } drop:
                _db.DropIndex(drop.Name, drop.IfExists);
                break;
            case SqlInsertStatement insert:
                Insert(insert, sql);
                break;
            case SqlDeleteStatement delete:
                Delete(delete, sql);
                break;
            case SqlUpdateStatement update:
                Update(update, sql);
                break;
            case SqlSelectStatement:
                Commit();
                ReadAll(text);
                break;
            default:
                Unsupported.Throw($"{IntentCompiler.StatementName(statement)} in the sqllogictest engine", sql, statement.Start);
                break;
        }
    }

    private void Insert(SqlInsertStatement insert, string sql)
    {
        if (insert.With is not null || insert.Upserts.Count > 0 || insert.Returning.Count > 0 || insert.Table.Alias is not null)
            Unsupported.Throw("INSERT with WITH, an alias, ON CONFLICT or RETURNING", sql, insert.Start);
        if (insert.Conflict is not (SqlConflictAction.Default or SqlConflictAction.Abort or SqlConflictAction.Replace or SqlConflictAction.Ignore))
            Unsupported.Throw($"INSERT OR {insert.Conflict.ToString().ToUpperInvariant()}", sql, insert.Start);
        string table = insert.Table.Name;
        string[] columns = [.. insert.Columns];

        var rows = new List<object?[]>();
        if (insert.Source is null)
        {
            // DEFAULT VALUES: every column takes its default; a NULL rowid asks for a new one.
            if (_db.Schema.FindTable(table) is not { IsWithoutRowId: false } t)
                throw new SharcSqlException($"INSERT … DEFAULT VALUES into {table} is not supported", sql, insert.Start);
            string rowid = IntentCompiler.RowIdNames.FirstOrDefault(n => t.FindColumn(n) is null)
                ?? t.Columns.First(c => c.IsRowIdAlias).Name;
            _db.Insert(table, [rowid], [null]);
            return;
        }
        if (insert.Source is { With: null, Body: SqlValuesBody valueRows, OrderBy.Count: 0, Limit: null })
        {
            foreach (var row in valueRows.Rows) rows.Add(Constants(row, sql));
        }
        else
        {
            // INSERT … SELECT: the query runs to completion before the first row is written, as in SQLite.
            Commit();
            rows.AddRange(ReadAll(sql[insert.Source.Start..insert.Source.End]));
            _transaction = _db.BeginTransaction();
        }

        foreach (var values in rows)
        {
            if (columns.Length == 0)
            {
                var t = _db.Schema.GetTable(table);
                int visible = t.Columns.Count(c => !c.IsHidden);
                if (values.Length != visible)
                    throw new SharcException($"table {t.Name} has {visible} columns but {values.Length} values were supplied");
            }
            else if (values.Length != columns.Length)
            {
                throw new SharcException($"{values.Length} values for {columns.Length} columns");
            }
            try
            {
                if (insert.Conflict == SqlConflictAction.Replace)
                {
                    if (columns.Length == 0) _db.Upsert(table, values);
                    else _db.Upsert(table, columns, values);
                }
                else if (columns.Length == 0)
                {
                    _db.Insert(table, values);
                }
                else
                {
                    _db.Insert(table, columns, values);
                }
            }
            catch (SharcConstraintException) when (insert.Conflict == SqlConflictAction.Ignore)
            {
                // OR IGNORE: the row is skipped, the statement goes on.
            }
        }
    }

    /// <summary>
    /// DELETE FROM t [WHERE …]: the query engine finds the rows (their rowids, or primary keys), then they are
    /// deleted one by one.
    /// </summary>
    private void Delete(SqlDeleteStatement delete, string sql)
    {
        if (delete.With is not null || delete.Returning.Count > 0 || delete.OrderBy.Count > 0 || delete.Limit is not null ||
            delete.Table.Alias is not null || delete.Table.IndexedBy is not null || delete.Table.NotIndexed)
            Unsupported.Throw("DELETE with WITH, an alias, INDEXED BY, RETURNING, ORDER BY or LIMIT", sql, delete.Start);
        var table = _db.Schema.FindTable(delete.Table.Name) ?? throw new SharcSqlException($"no such table: {delete.Table.Name}", sql, delete.Table.Start);
        var key = KeyColumns(table);
        var rows = Select(key, table, delete.Where, sql);
        foreach (var row in rows)
        {
            if (table.IsWithoutRowId) _db.DeleteByKey(table.Name, row);
            else _db.Delete(table.Name, (long)row[0]!);
        }
    }

    /// <summary>
    /// UPDATE t SET … [WHERE …]: the query engine finds the rows and computes every new value from the old row
    /// (as SQLite does, all SET expressions see the row before the change); then each row is updated.
    /// </summary>
    private void Update(SqlUpdateStatement update, string sql)
    {
        if (update.With is not null || update.From is not null || update.Returning.Count > 0 || update.OrderBy.Count > 0 ||
            update.Limit is not null || update.Table.Alias is not null || update.Table.IndexedBy is not null || update.Table.NotIndexed ||
            update.Conflict != SqlConflictAction.Default)
            Unsupported.Throw("UPDATE with WITH, FROM, an alias, INDEXED BY, OR, RETURNING, ORDER BY or LIMIT", sql, update.Start);
        var table = _db.Schema.FindTable(update.Table.Name) ?? throw new SharcSqlException($"no such table: {update.Table.Name}", sql, update.Table.Start);
        var columns = new List<string>();
        var values = new List<string>();
        foreach (var assignment in update.Set)
        {
            if (assignment.Columns.Count != 1) Unsupported.Throw("UPDATE with row-value assignments", sql, assignment.Start);
            columns.Add(assignment.Columns[0]);
            values.Add(ExpressionText(sql, assignment.Value));
        }
        var key = KeyColumns(table);
        var rows = Select([.. key, .. values], table, update.Where, sql);
        foreach (var row in rows)
        {
            var newValues = row[key.Count..];
            if (table.IsWithoutRowId) _db.UpdateByKey(table.Name, row[..key.Count], [.. columns], newValues);
            else _db.Update(table.Name, (long)row[0]!, [.. columns], newValues);
        }
    }

    private static List<string> KeyColumns(SharcTable table)
        => table.IsWithoutRowId ? [.. table.PrimaryKey.Select(i => Quote(table.Columns[i].Name))] : ["rowid"];

    /// <summary>Runs SELECT expressions FROM table WHERE … to completion (before anything is written, as SQLite does).</summary>
    private List<object?[]> Select(IReadOnlyList<string> expressions, SharcTable table, SqlExpr? where, string sql)
    {
        var select = new StringBuilder("SELECT ").AppendJoin(", ", expressions).Append(" FROM ").Append(Quote(table.Name));
        if (where is not null) select.Append(" WHERE ").Append(ExpressionText(sql, where));
        Commit();
        try
        {
            return ReadAll(select.ToString());
        }
        finally
        {
            _transaction = _db.BeginTransaction();
        }
    }

    /// <summary>
    /// The source text of an expression. A node's span leaves out parentheses around its first or last operand
    /// ("(a) AND b" spans "a) AND b"), so the span is widened until its parentheses balance.
    /// </summary>
    internal static string ExpressionText(string sql, SqlNode e)
    {
        int start = e.Start, end = e.End, depth = 0, lowest = 0;
        for (int i = start; i < end; i++)
        {
            char c = sql[i];
            if (c is '\'' or '"' or '`' or '[')
            {
                char close = c == '[' ? ']' : c;
                while (++i < end && sql[i] != close)
                {
                }
                continue;
            }
            if (c == '(') depth++;
            else if (c == ')') lowest = Math.Min(lowest, --depth);
        }
        for (int open = -lowest; open > 0 && start > 0;)
        {
            char c = sql[--start];
            if (c == '(') open--;
            else if (!char.IsWhiteSpace(c)) throw new SharcSqlException("unbalanced parentheses", sql, start);
        }
        for (int close = depth - lowest; close > 0 && end < sql.Length;)
        {
            char c = sql[end++];
            if (c == ')') close--;
            else if (!char.IsWhiteSpace(c)) throw new SharcSqlException("unbalanced parentheses", sql, end - 1);
        }
        return sql[start..end];
    }

    private static string Quote(string name) => "\"" + name.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";

    /// <summary>One VALUES row: literals directly, anything else evaluated by the query engine as a SELECT.</summary>
    private object?[] Constants(IReadOnlyList<SqlExpr> row, string sql)
    {
        var values = new object?[row.Count];
        bool simple = true;
        for (int i = 0; i < row.Count && simple; i++) simple = TryLiteral(row[i], out values[i]);
        if (simple) return values;

        var select = new StringBuilder("SELECT ");
        for (int i = 0; i < row.Count; i++)
        {
            if (i > 0) select.Append(", ");
            select.Append(ExpressionText(sql, row[i]));
        }
        try
        {
            return ReadAll(select.ToString())[0];
        }
        catch (SharcSqlException e)
        {
            // Report the error against the statement as written.
            throw new SharcSqlException(e.SqliteMessage, sql, row[0].Start);
        }
    }

    private static bool TryLiteral(SqlExpr e, out object? value)
    {
        switch (e)
        {
            case SqlNullLiteral:
                value = null;
                return true;
            case SqlIntegerLiteral i:
                value = i.Value;
                return true;
            case SqlRealLiteral { IsInt64MinMagnitude: false } r when !double.IsNaN(r.Value):
                value = r.Value;
                return true;
            case SqlStringLiteral s:
                value = s.Value;
                return true;
            case SqlBlobLiteral b:
                value = b.Value.ToArray();
                return true;
            case SqlUnaryExpr { Operator: SqlUnaryOperator.Negate, Operand: SqlIntegerLiteral { Value: > long.MinValue } n }:
                value = -n.Value;
                return true;
            case SqlUnaryExpr { Operator: SqlUnaryOperator.Negate, Operand: SqlRealLiteral { IsInt64MinMagnitude: false } r } when !double.IsNaN(r.Value):
                value = -r.Value;
                return true;
            default:
                value = null;
                return false;
        }
    }

    public void Dispose()
    {
        try
        {
            Commit();
        }
        catch (SharcException)
        {
            // The file is thrown away anyway.
        }
        _transaction?.Dispose();
        _db.Dispose();
        try
        {
            Directory.Delete(_directory, recursive: true);
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }
    }
}
