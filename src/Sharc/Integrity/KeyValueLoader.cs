using System.Buffers;
using System.Text;
using Sharc.BTree;
using Sharc.Format;

namespace Sharc.Integrity;

/// <summary>
/// Fills the <see cref="KeyValue"/>s that <see cref="KeyComparer"/> compares records with, from stored record fields
/// (bytes kept exactly as stored, so BINARY comparison sees what SQLite sees) or from column defaults.
/// </summary>
internal static class KeyValueLoader
{
    public static void FromField(ref KeyValue kv, long serialType, ReadOnlySpan<byte> value, SharcTextEncoding enc)
    {
        switch (SerialType.StorageClass(serialType))
        {
            case SharcColumnType.Null:
                kv.SetNull();
                break;
            case SharcColumnType.Integer:
                kv.SetInteger(SerialType.ReadInteger(serialType, value));
                break;
            case SharcColumnType.Real:
                kv.SetReal(SerialType.ReadReal(value));
                break;
            case SharcColumnType.Text:
                SetStoredText(ref kv, value, enc);
                break;
            default:
                kv.SetBlob(value);
                break;
        }
    }

    /// <summary>A default value: null, long, double, string or byte[] (as <see cref="SharcColumn.DefaultValue"/> holds).</summary>
    public static void FromObject(ref KeyValue kv, object? value, SharcTextEncoding enc)
    {
        switch (value)
        {
            case null: kv.SetNull(); break;
            case long l: kv.SetInteger(l); break;
            case double d: kv.SetReal(d); break;
            case string s: kv.SetText(s, enc); break;
            case byte[] b: kv.SetBlob(b); break;
            default: kv.SetNull(); break;
        }
    }

    /// <summary>Text exactly as stored (for BINARY), plus its UTF-8 form (NOCASE and RTRIM compare UTF-8).</summary>
    private static void SetStoredText(ref KeyValue kv, ReadOnlySpan<byte> stored, SharcTextEncoding enc)
    {
        if (enc == SharcTextEncoding.Utf8)
        {
            kv.SetUtf8(stored, enc);
            return;
        }
        kv.Type = SharcColumnType.Text;
        if (kv.Bytes is null || kv.Bytes.Length < stored.Length) kv.Bytes = new byte[Math.Max(16, stored.Length)];
        stored.CopyTo(kv.Bytes);
        kv.Length = stored.Length;

        var codec = TextCodec.For(enc);
        int chars = codec.GetCharCount(stored);
        char[] tmp = ArrayPool<char>.Shared.Rent(Math.Max(chars, 1));
        try
        {
            int n = codec.GetChars(stored, tmp);
            int len = Encoding.UTF8.GetByteCount(tmp.AsSpan(0, n));
            if (kv.Utf8 is null || kv.Utf8.Length < len) kv.Utf8 = new byte[Math.Max(16, len)];
            kv.Utf8Length = Encoding.UTF8.GetBytes(tmp.AsSpan(0, n), kv.Utf8);
        }
        finally
        {
            ArrayPool<char>.Shared.Return(tmp);
        }
    }
}
