using System.Runtime.InteropServices;
using Sharc.Sql.Ast;
using Sharc.Sql.Execution;
using Sharc.Sql.Values;

namespace Sharc.Sql.Writes;

/// <summary>
/// SQLCipher's cipher_* settings on an open database. They are read when the database is opened (SharcOpenOptions.Cipher,
/// or Sharc.Data's cipher pragmas between PRAGMA key and the first statement), so here they answer the settings in
/// use; setting one to what it already is answers nothing, to anything else is refused (SQLCipher takes it and then
/// fails to read the file).
/// </summary>
internal static partial class Pragmas
{
    /// <summary>What cipher_provider answers: the cryptography is .NET's (System.Security.Cryptography).</summary>
    internal const string CipherProvider = "dotnet";

    private static bool TryRunCipherSetting(SharcDatabase db, string name, string? value, string sql, SqlPragmaStatement pragma, out StatementOutcome outcome)
    {
        outcome = StatementOutcome.None;
        var codec = db.Codec;
        if (SharcCipherSettings.IsSettingPragma(name))
        {
            // SQLCipher answers nothing, and changes nothing, on a database without a key.
            if (codec is null) return true;
            if (value is null)
            {
                outcome = CipherSetting(name, codec.Settings, codec.Salt) is { } answer ? Single(name, SqlValue.Text(answer)) : StatementOutcome.None;
                return true;
            }
            var asked = WithCipherPragma(codec.Settings, name, value, sql, pragma);
            if (!SameCipher(asked, codec.Settings, codec.Salt, codec.Key?.IsRaw == true))
                throw new SharcSqlException($"PRAGMA {name} cannot change the cipher of an open database (its settings are fixed when it is opened): give them with SharcOpenOptions.Cipher, or in Sharc.Data between PRAGMA key and the first statement", sql, pragma.Start);
            return true;
        }
        if (name.StartsWith("cipher_default_", StringComparison.Ordinal))
        {
            var defaults = SharcCipherSettings.SqlCipher4;
            string setting = DefaultToSetting(name);
            if (SharcCipherSettings.IsSettingPragma(setting) && setting != "cipher_salt")
            {
                if (value is null)
                {
                    if (CipherSetting(setting, defaults, default) is { } answer) outcome = Single(name, SqlValue.Text(answer));
                    return true;
                }
                // Checked, then left alone: Sharc keeps no process-wide defaults (SQLCipher's apply to later keys, not to this database).
                WithCipherPragma(defaults, setting, value, sql, pragma);
                return true;
            }
        }
        switch (name)
        {
            case "cipher_default_settings":
                outcome = Rows(["pragma"], [.. SharcCipherSettings.SqlCipher4.ToPragmas().Select(p => new[] { SqlValue.Text(DefaultPragma(p)) })]);
                return true;
            case "cipher_settings":
                if (codec is not null) outcome = Rows(["pragma"], [.. codec.Settings.ToPragmas().Select(p => new[] { SqlValue.Text(p) })]);
                return true;
            case "cipher_provider":
                if (codec is not null) outcome = Single(name, SqlValue.Text(CipherProvider));
                return true;
            case "cipher_provider_version":
                if (codec is not null) outcome = Single(name, SqlValue.Text(RuntimeInformation.FrameworkDescription));
                return true;
            case "cipher_memory_security":
                if (value is null)
                {
                    outcome = Single(name, SqlValue.Text("0"));
                    return true;
                }
                if (Boolean(value, sql, pragma))
                    throw new SharcSqlException("PRAGMA cipher_memory_security = ON is not supported: Sharc zeroes keys and derived material always, but does not lock or wipe the memory of cached plaintext pages", sql, pragma.Start);
                return true;
            case "cipher_hmac_pgno":
            case "cipher_hmac_salt_mask":
            case "fast_kdf_iter":
                // Deprecated in SQLCipher 4: a setting answers its notice and changes nothing; the value stays the format's.
                if (value is not null)
                    outcome = Single(name, SqlValue.Text($"PRAGMA {name} is deprecated, please remove from use"));
                else if (codec is not null)
                    outcome = Single(name, SqlValue.Text(name switch { "cipher_hmac_pgno" => "le", "cipher_hmac_salt_mask" => "3a", _ => "2" }));
                return true;
        }
        return false;
    }

    /// <summary>cipher_default_page_size → cipher_page_size, cipher_default_kdf_iter → kdf_iter, and so on.</summary>
    internal static string DefaultToSetting(string name)
    {
        string rest = name["cipher_default_".Length..];
        return rest == "kdf_iter" ? rest : "cipher_" + rest;
    }

    private static string DefaultPragma(string setting) => setting.StartsWith("PRAGMA kdf_iter", StringComparison.Ordinal)
        ? "PRAGMA cipher_default_" + setting["PRAGMA ".Length..]
        : setting.Replace("PRAGMA cipher_", "PRAGMA cipher_default_", StringComparison.Ordinal);

    /// <summary>What SQLCipher answers when a setting is queried (cipher_compatibility answers nothing).</summary>
    private static string? CipherSetting(string name, SharcCipherSettings s, ReadOnlySpan<byte> salt) => name switch
    {
        "cipher_page_size" => s.PageSize.ToString(System.Globalization.CultureInfo.InvariantCulture),
        "kdf_iter" => s.KdfIterations.ToString(System.Globalization.CultureInfo.InvariantCulture),
        "cipher_hmac_algorithm" => SharcCipherSettings.HashName(s.HmacHash, "HMAC_"),
        "cipher_kdf_algorithm" => SharcCipherSettings.HashName(s.KdfHash, "PBKDF2_HMAC_"),
        "cipher_plaintext_header_size" => s.PlaintextHeaderSize.ToString(System.Globalization.CultureInfo.InvariantCulture),
        "cipher_use_hmac" => "1",
        "cipher_salt" when !salt.IsEmpty => Convert.ToHexString(salt).ToLowerInvariant(),
        _ => null,
    };

    private static SharcCipherSettings WithCipherPragma(SharcCipherSettings s, string name, string value, string sql, SqlPragmaStatement pragma)
    {
        try
        {
            return s.WithPragma(name, value);
        }
        catch (ArgumentException e)
        {
            throw new SharcSqlException(e.Message.Split(" (Parameter")[0], sql, pragma.Start);
        }
    }

    /// <summary>Settings that read the same file: with a raw key the key derivation does not matter.</summary>
    private static bool SameCipher(SharcCipherSettings a, SharcCipherSettings b, ReadOnlySpan<byte> salt, bool rawKey)
        => a.PageSize == b.PageSize && a.HmacHash == b.HmacHash && a.PlaintextHeaderSize == b.PlaintextHeaderSize
            && (rawKey || (a.KdfIterations == b.KdfIterations && a.KdfHash == b.KdfHash))
            && (a.Salt is not { } s || s.Span.SequenceEqual(salt));
}
