using System.Text;

namespace Sharc.Format;

/// <summary>The built-in collating sequences.</summary>
internal enum Collation : byte
{
    Binary = 0,
    NoCase = 1,
    RTrim = 2,

    /// <summary>
    /// EF_DECIMAL, which EF Core's SQLite provider registers on its connections to order decimals stored as TEXT:
    /// texts compare as the decimals they spell (see <see cref="CollationCompare.DecimalText"/>).
    /// </summary>
    EfDecimal = 3,
}

/// <summary>Encodings for the three database text encodings, created once.</summary>
internal static class TextCodec
{
    private static readonly Encoding Utf16BE = new UnicodeEncoding(bigEndian: true, byteOrderMark: false);
    private static readonly Encoding Utf16LE = new UnicodeEncoding(bigEndian: false, byteOrderMark: false);

    public static Encoding For(SharcTextEncoding enc) => enc switch
    {
        SharcTextEncoding.Utf16LE => Utf16LE,
        SharcTextEncoding.Utf16BE => Utf16BE,
        _ => Encoding.UTF8,
    };

    /// <summary>Stored text as a .NET string, invalid UTF-8 repaired as SQLite repairs it (<see cref="SqliteUtf8"/>).</summary>
    public static string GetString(SharcTextEncoding enc, ReadOnlySpan<byte> bytes)
        => enc == SharcTextEncoding.Utf8 ? SqliteUtf8.GetString(bytes) : For(enc).GetString(bytes);
}

/// <summary>
/// SQLite's collating functions. BINARY compares the stored bytes in the database encoding (memcmp); NOCASE and
/// RTRIM are registered for UTF-8 only, so SQLite compares UTF-8 for them whatever the database encoding.
/// </summary>
internal static class CollationCompare
{
    public static bool TryParse(string? name, out Collation c)
    {
        if (name is null || name.Equals("BINARY", StringComparison.OrdinalIgnoreCase)) { c = Collation.Binary; return true; }
        if (name.Equals("NOCASE", StringComparison.OrdinalIgnoreCase)) { c = Collation.NoCase; return true; }
        if (name.Equals("RTRIM", StringComparison.OrdinalIgnoreCase)) { c = Collation.RTrim; return true; }
        if (name.Equals("EF_DECIMAL", StringComparison.OrdinalIgnoreCase)) { c = Collation.EfDecimal; return true; }
        // A collation registered on the database running the statement (SharcDatabase.CreateCollation).
        if (Sql.Functions.UserFunctionRegistry.Current is { } user && user.TryGetCollation(name, out c)) return true;
        c = Collation.Binary;
        return false;
    }

    /// <summary>Compares a stored text value (in <paramref name="enc"/>) with a key given in both encodings.</summary>
    public static int Compare(Collation coll, ReadOnlySpan<byte> stored, SharcTextEncoding enc, ReadOnlySpan<byte> keyDbEnc, ReadOnlySpan<byte> keyUtf8)
    {
        if (coll == Collation.Binary) return Sign(stored.SequenceCompareTo(keyDbEnc));
        if (enc == SharcTextEncoding.Utf8) return CompareUtf8(coll, stored, keyUtf8);

        var codec = TextCodec.For(enc);
        int max = Encoding.UTF8.GetMaxByteCount(stored.Length / 2 + 1);
        byte[]? rented = null;
        Span<byte> tmp = max <= 512 ? stackalloc byte[512] : (rented = System.Buffers.ArrayPool<byte>.Shared.Rent(max));
        try
        {
            int chars = codec.GetCharCount(stored);
            char[]? rentedChars = null;
            Span<char> cs = chars <= 256 ? stackalloc char[256] : (rentedChars = System.Buffers.ArrayPool<char>.Shared.Rent(chars));
            int nc = codec.GetChars(stored, cs);
            int nb = Encoding.UTF8.GetBytes(cs[..nc], tmp);
            if (rentedChars is not null) System.Buffers.ArrayPool<char>.Shared.Return(rentedChars);
            return CompareUtf8(coll, tmp[..nb], keyUtf8);
        }
        finally
        {
            if (rented is not null) System.Buffers.ArrayPool<byte>.Shared.Return(rented);
        }
    }

    public static int CompareUtf8(Collation coll, ReadOnlySpan<byte> a, ReadOnlySpan<byte> b)
    {
        switch (coll)
        {
            case Collation.NoCase:
            {
                // SQLite's sqlite3StrNICmp over the shorter length: it stops at a NUL byte (a C string end) in the
                // first operand, then compares the bytes there; only a full match falls back to the lengths.
                int n = Math.Min(a.Length, b.Length);
                for (int i = 0; i < n; i++)
                {
                    int x = Lower(a[i]), y = Lower(b[i]);
                    if (x != y) return x < y ? -1 : 1;
                    if (a[i] == 0) break; // equal up to the NUL: the lengths decide, as below
                }
                return Sign(a.Length - b.Length);
            }
            case Collation.RTrim:
                return Sign(TrimSpaces(a).SequenceCompareTo(TrimSpaces(b)));
            case Collation.EfDecimal when DecimalText(a) is { } x && DecimalText(b) is { } y:
                return x.CompareTo(y);
            case var user when Sql.Functions.UserCollations.IsUser(user):
                return Sql.Functions.UserCollations.Compare(user, a, b);
            default:
                return Sign(a.SequenceCompareTo(b));
        }
    }

    /// <summary>
    /// UTF-8 text as the decimal it spells (invariant, exponents allowed, as EF reads its decimals), or null when it
    /// spells none: EF_DECIMAL then compares such texts as BINARY, so the order stays total.
    /// </summary>
    public static decimal? DecimalText(ReadOnlySpan<byte> utf8)
        => decimal.TryParse(utf8, System.Globalization.NumberStyles.Number | System.Globalization.NumberStyles.AllowExponent,
            System.Globalization.CultureInfo.InvariantCulture, out var d) ? d : null;

    private static ReadOnlySpan<byte> TrimSpaces(ReadOnlySpan<byte> s)
    {
        int n = s.Length;
        while (n > 0 && s[n - 1] == (byte)' ') n--;
        return s[..n];
    }

    private static int Lower(byte b) => b is >= (byte)'A' and <= (byte)'Z' ? b + 32 : b;

    private static int Sign(int c) => c < 0 ? -1 : c > 0 ? 1 : 0;
}
