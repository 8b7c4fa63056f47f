using Sharc.Sql.Ast;
using Sharc.Sql.Execution;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Writes;

/// <summary>
/// ATTACH and DETACH. Their operands are expressions, as in SQLite, except that a bare identifier is its own name
/// (ATTACH 'x.db' AS aux): SQLite reads an identifier there as a string. ATTACH … KEY is SQLCipher's.
/// </summary>
internal static class Attachments
{
    public static StatementOutcome Attach(SharcDatabase db, string sql, SqlAttachStatement attach, SqlValue[] parameters)
    {
        string file = Text(db, sql, attach.File, parameters);
        string name = Text(db, sql, attach.Schema, parameters);
        // SQLCipher's KEY: a passphrase or x'hex' raw key, '' for a plaintext database.
        string? key = attach.Key is null ? null : Text(db, sql, attach.Key, parameters);
        try
        {
            db.AttachDatabase(file, name, key);
        }
        catch (SharcException e) when (e is not SharcSqlException)
        {
            throw new SharcSqlException(e.Message, sql, attach.Start);
        }
        catch (IOException e)
        {
            throw new SharcSqlException($"unable to open database: {file} ({e.Message})", sql, attach.Start);
        }
        catch (UnauthorizedAccessException e)
        {
            throw new SharcSqlException($"unable to open database: {file} ({e.Message})", sql, attach.Start);
        }
        return StatementOutcome.None;
    }

    public static StatementOutcome Detach(SharcDatabase db, string sql, SqlDetachStatement detach, SqlValue[] parameters)
    {
        string name = Text(db, sql, detach.Schema, parameters);
        try
        {
            db.DetachDatabase(name);
        }
        catch (SharcException e) when (e is not SharcSqlException)
        {
            throw new SharcSqlException(e.Message, sql, detach.Start);
        }
        return StatementOutcome.None;
    }

    /// <summary>The operand as text: an identifier's name, else the expression's value (NULL is '').</summary>
    internal static string Text(SharcDatabase db, string sql, SqlExpr e, SqlValue[] parameters, string? nonTextError = null)
    {
        if (e is SqlColumnRef { Table: null } name) return name.Name;
        using var rx = RowExpressions.Compile(db, sql, [e]);
        DmlTarget.Bind(rx.Parameters, parameters);
        var v = rx.Evaluate(0);
        if (nonTextError is not null && v.Type != SharcColumnType.Text) throw new SharcSqlException(nonTextError, sql, e.Start);
        return v.AsString() ?? "";
    }
}
