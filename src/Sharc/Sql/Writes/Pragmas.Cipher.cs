using Sharc.Sql.Ast;
using Sharc.Sql.Execution;
using Sharc.Sql.Values;

namespace Sharc.Sql.Writes;

/// <summary>
/// SQLCipher's pragmas, answered as SQLCipher 4.5.5 answers them: key, rekey, cipher_version,
/// cipher_integrity_check and the cipher_* settings (same column names, rows and messages).
/// </summary>
internal static partial class Pragmas
{
    /// <summary>What cipher_version answers: the SQLCipher release whose format Sharc writes, and who answers.</summary>
    internal const string CipherVersion = "4.5.5 sharc";

    /// <summary>SQLCipher's message for an empty key, and for a rekey of a database that is not encrypted.</summary>
    internal const string KeyOrRekeyError = "An error occurred with PRAGMA key or rekey. PRAGMA key requires a key of one or more characters. PRAGMA rekey can only be run on an existing encrypted database. Use sqlcipher_export() and ATTACH to convert encrypted/plaintext databases.";

    private static bool TryRunCipher(SharcDatabase db, string name, string? value, string sql, SqlPragmaStatement pragma, out StatementOutcome outcome)
    {
        switch (name)
        {
            case "cipher_version":
                outcome = Single(name, SqlValue.Text(CipherVersion));
                return true;
            case "key":
                outcome = Key(db, value, sql, pragma);
                return true;
            case "rekey":
                outcome = Rekey(db, value, sql, pragma);
                return true;
            case "cipher_integrity_check":
                // SQLCipher answers nothing at all (not even a column) for a database that is not encrypted.
                var problems = db.UnderWriteLock(static d => d.CipherIntegrityCheck());
                outcome = problems is null
                    ? StatementOutcome.None
                    : Rows([name], [.. problems.Select(p => new[] { SqlValue.Text(p) })]);
                return true;
        }
        return TryRunCipherSetting(db, name, value, sql, pragma, out outcome);
    }

    /// <summary>
    /// The key is given when the database is opened (the options, Sharc.Data's Password, or Sharc.Data's PRAGMA key
    /// as a connection's first statement): here an encrypted database answers "ok", as SQLCipher does to a key set
    /// again, and a plaintext one, already read, cannot take a key any more.
    /// </summary>
    private static StatementOutcome Key(SharcDatabase db, string? value, string sql, SqlPragmaStatement pragma)
    {
        if (value is null) return Rows(["key"], []);
        if (value.Length == 0) throw new SharcSqlException(KeyOrRekeyError, sql, pragma.Start);
        if (!db.IsEncrypted)
            throw new SharcSqlException("PRAGMA key must come before the database is read: this one was opened without a key (give it with SharcOpenOptions.Key, or in Sharc.Data with Password or a first PRAGMA key)", sql, pragma.Start);
        return Single("ok", SqlValue.Text("ok"));
    }

    private static StatementOutcome Rekey(SharcDatabase db, string? value, string sql, SqlPragmaStatement pragma)
    {
        if (value is null) return Rows(["rekey"], []);
        if (value.Length == 0 || !db.IsEncrypted) throw new SharcSqlException(KeyOrRekeyError, sql, pragma.Start);
        // SQLCipher commits the transaction's changes so far with the rekey and goes on, so a later ROLLBACK no longer
        // undoes them (checked against 4.5.5): a transaction that cannot roll back is refused here instead.
        if (db.InTransaction)
            throw new SharcSqlException("PRAGMA rekey cannot run inside a transaction: SQLCipher would commit the changes made so far and a ROLLBACK would no longer undo them; COMMIT or ROLLBACK first, then rekey", sql, pragma.Start);
        using var key = SharcEncryptionKey.Parse(value);
        db.Rekey(key);
        return Single("ok", SqlValue.Text("ok"));
    }
}
