namespace Sharc;

/// <summary>The text encoding a database stores its TEXT values in (header offset 56).</summary>
public enum SharcTextEncoding
{
    /// <summary>UTF-8 (header value 1).</summary>
    Utf8 = 1,
    /// <summary>UTF-16 little-endian (header value 2).</summary>
    Utf16LE = 2,
    /// <summary>UTF-16 big-endian (header value 3).</summary>
    Utf16BE = 3,
}
