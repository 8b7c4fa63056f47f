namespace Sharc;

/// <summary>
/// An encrypted page could not be authenticated or decrypted: a wrong key, cipher settings that do not match the file,
/// a file that is not encrypted, or a page that was altered. <see cref="Page"/> names the page.
/// </summary>
public sealed class SharcCryptoException : SharcException
{
    /// <summary>Creates a crypto error about page <paramref name="page"/> (0 when not tied to one page).</summary>
    public SharcCryptoException(string message, uint page = 0) : base(message) => Page = page;

    /// <summary>The 1-based page number that failed, or 0 when the failure is not tied to one page.</summary>
    public uint Page { get; }
}
