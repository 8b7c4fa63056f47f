using System.Collections;
using System.Data.Common;
using System.Diagnostics.CodeAnalysis;
using System.Globalization;

namespace Sharc.Data;

/// <summary>
/// Connection strings with Microsoft.Data.Sqlite's keywords: <c>Data Source</c> (or <c>DataSource</c>,
/// <c>Filename</c>), <c>Mode</c>, <c>Foreign Keys</c>, <c>Default Timeout</c> (or <c>Command Timeout</c>),
/// <c>Pooling</c>, <c>Cache</c>, <c>Password</c> and <c>Recursive Triggers</c>. An unknown keyword is an error naming it.
/// </summary>
public sealed class SharcConnectionStringBuilder : DbConnectionStringBuilder
{
    private static readonly Dictionary<string, string> Synonyms = new(StringComparer.OrdinalIgnoreCase)
    {
        ["Data Source"] = "Data Source", ["DataSource"] = "Data Source", ["Filename"] = "Data Source",
        ["Mode"] = "Mode",
        ["Foreign Keys"] = "Foreign Keys",
        ["Default Timeout"] = "Default Timeout", ["Command Timeout"] = "Default Timeout",
        ["Pooling"] = "Pooling",
        ["Cache"] = "Cache",
        ["Password"] = "Password",
        ["Recursive Triggers"] = "Recursive Triggers",
    };

    /// <summary>An empty builder.</summary>
    public SharcConnectionStringBuilder() { }

    /// <summary>A builder over <paramref name="connectionString"/>.</summary>
    /// <exception cref="ArgumentException">The string has a keyword Sharc does not know, or a value of the wrong kind.</exception>
    public SharcConnectionStringBuilder(string? connectionString) => ConnectionString = connectionString ?? "";

    /// <summary>The database file (":memory:" or empty for a private in-memory database).</summary>
    public string DataSource
    {
        get => TryGetValue("Data Source", out var v) ? Convert.ToString(v, CultureInfo.InvariantCulture) ?? "" : "";
        set => this["Data Source"] = value;
    }

    /// <summary>How the file is opened (default <see cref="SharcOpenMode.ReadWriteCreate"/>).</summary>
    public SharcOpenMode Mode
    {
        get => TryGetValue("Mode", out var v) ? Enum.Parse<SharcOpenMode>(Convert.ToString(v, CultureInfo.InvariantCulture)!, ignoreCase: true) : SharcOpenMode.ReadWriteCreate;
        set => this["Mode"] = value.ToString();
    }

    /// <summary>Whether FOREIGN KEY constraints are enforced (null: the default, off, as in SQLite).</summary>
    public bool? ForeignKeys
    {
        get => TryGetValue("Foreign Keys", out var v) && Convert.ToString(v, CultureInfo.InvariantCulture) is { Length: > 0 } s ? bool.Parse(s) : null;
        set => this["Foreign Keys"] = value?.ToString() ?? "";
    }

    /// <summary>The default command timeout in seconds (30), also how long an open waits for a busy file.</summary>
    public int DefaultTimeout
    {
        get => TryGetValue("Default Timeout", out var v) ? int.Parse(Convert.ToString(v, CultureInfo.InvariantCulture)!, CultureInfo.InvariantCulture) : 30;
        set => this["Default Timeout"] = value.ToString(CultureInfo.InvariantCulture);
    }

    /// <summary>Accepted for compatibility; Sharc connections are not pooled (opening one is cheap: no native handle).</summary>
    public bool Pooling
    {
        get => !TryGetValue("Pooling", out var v) || bool.Parse(Convert.ToString(v, CultureInfo.InvariantCulture)!);
        set => this["Pooling"] = value.ToString();
    }

    /// <summary>Microsoft.Data.Sqlite's cache mode: "Default" and "Private" are accepted, "Shared" is refused on open.</summary>
    public string Cache
    {
        get => TryGetValue("Cache", out var v) ? Convert.ToString(v, CultureInfo.InvariantCulture) ?? "Default" : "Default";
        set => this["Cache"] = value;
    }

    /// <summary>
    /// The key of a SQLCipher-encrypted database, as Microsoft.Data.Sqlite passes it to SQLCipher's <c>PRAGMA key</c>: a
    /// passphrase, or <c>x'…'</c> with 64 (or 96) hex digits for a raw key. A new database is created encrypted.
    /// </summary>
    public string Password
    {
        get => TryGetValue("Password", out var v) ? Convert.ToString(v, CultureInfo.InvariantCulture) ?? "" : "";
        set => this["Password"] = value;
    }

    /// <summary>Accepted for compatibility (SQLite's recursive_triggers pragma); Sharc does not change behaviour with it.</summary>
    public bool RecursiveTriggers
    {
        get => TryGetValue("Recursive Triggers", out var v) && bool.Parse(Convert.ToString(v, CultureInfo.InvariantCulture)!);
        set => this["Recursive Triggers"] = value.ToString();
    }

    /// <summary>The value of <paramref name="keyword"/>, by its canonical name or a synonym.</summary>
    /// <exception cref="ArgumentException">Sharc does not know the keyword (its name is in the message).</exception>
    [AllowNull]
    public override object this[string keyword]
    {
        get => base[Canonical(keyword)];
        set
        {
            string key = Canonical(keyword);
            if (value is null) Remove(key);
            else
            {
                Validate(key, Convert.ToString(value, CultureInfo.InvariantCulture) ?? "");
                base[key] = value;
            }
        }
    }

    /// <inheritdoc/>
    public override bool ContainsKey(string keyword) => Synonyms.TryGetValue(keyword, out var k) && base.ContainsKey(k);

    /// <inheritdoc/>
    public override bool Remove(string keyword) => Synonyms.TryGetValue(keyword, out var k) && base.Remove(k);

    /// <inheritdoc/>
    public override bool TryGetValue(string keyword, [NotNullWhen(true)] out object? value)
    {
        value = null;
        return Synonyms.TryGetValue(keyword, out var k) && base.TryGetValue(k, out value);
    }

    /// <summary>The keywords Sharc accepts (canonical names).</summary>
    public override ICollection Keys => base.Keys;

    private static string Canonical(string keyword)
    {
        ArgumentNullException.ThrowIfNull(keyword);
        return Synonyms.TryGetValue(keyword.Trim(), out var k)
            ? k
            : throw new ArgumentException($"Connection string keyword '{keyword}' is not supported by Sharc.Data (known: Data Source, Mode, Foreign Keys, Default Timeout, Pooling, Cache, Password, Recursive Triggers).", nameof(keyword));
    }

    private static void Validate(string key, string value)
    {
        bool ok = key switch
        {
            "Mode" => Enum.TryParse<SharcOpenMode>(value, ignoreCase: true, out _),
            "Foreign Keys" => value.Length == 0 || bool.TryParse(value, out _),
            "Pooling" or "Recursive Triggers" => bool.TryParse(value, out _),
            "Default Timeout" => int.TryParse(value, NumberStyles.Integer, CultureInfo.InvariantCulture, out int t) && t >= 0,
            "Cache" => value is "Default" or "Private" or "Shared" || value.Equals("default", StringComparison.OrdinalIgnoreCase) || value.Equals("private", StringComparison.OrdinalIgnoreCase) || value.Equals("shared", StringComparison.OrdinalIgnoreCase),
            _ => true,
        };
        if (!ok) throw new ArgumentException($"'{value}' is not a valid value for the connection string keyword '{key}'.", nameof(value));
    }
}
