using Sharc.Storage.Crypto;
using Sharc.Storage.Wal;

namespace Sharc.Storage;

/// <summary>Changing the key of an encrypted database: every page rewritten under the new key in one transaction.</summary>
internal sealed partial class Pager
{
    private readonly List<PageCodec> _retiredCodecs = new();

    /// <summary>
    /// Rewrites every page under <paramref name="next"/> in one transaction (the caller holds the write lock). Pages are
    /// journaled (or, in WAL mode, kept in the log) under the current key; the key changes just before the commit
    /// writes them, and changes back if the commit fails, which leaves the database under the old key.
    /// </summary>
    public void Rekey(PageCodec next)
    {
        var file = (EncryptedFile)_file;
        var old = file.Codec;
        bool switched = false;
        try
        {
            BeginWrite();
            for (uint page = 1; page <= PageCount; page++)
                if (page != LockBytePage) Write(page);
            file.SetCodec(next);
            (_wal as WalLog)?.SetCodec(next);
            switched = true;
            Commit();
        }
        catch
        {
            if (InTransaction) Rollback();
            if (switched)
            {
                file.SetCodec(old);
                (_wal as WalLog)?.SetCodec(old);
            }
            next.Dispose();
            throw;
        }
        // Readers on other threads may still be decrypting with the old keys: they are zeroed when the pager closes.
        _retiredCodecs.Add(old);
        // In WAL mode the file and the older frames are still under the old key: checkpoint, so the file is all new-key
        // (SQLCipher's cipher_integrity_check reads the file). A failure leaves a valid log for the next checkpoint.
        if (_wal is not null)
        {
            try
            {
                Checkpoint();
            }
            catch (IOException)
            {
            }
        }
    }
}
