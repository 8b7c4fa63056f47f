using System.Runtime.InteropServices;
using System.Text;

namespace Sharc.Tests.Infrastructure;

/// <summary>
/// Real SQLCipher 4.5.5 (built by .ci/build-sqlcipher) driven through its C API. It is loaded under its own file name
/// and called through function pointers, so it never clashes with the e_sqlite3 oracle in the same process.
/// </summary>
public sealed class SqlCipher : IDisposable
{
    public static string? LibraryPath { get; } = Locate();

    public static string SkipReason => "SQLCipher is not built (run .ci/build-sqlcipher, or set SHARC_SQLCIPHER to a libsqlcipher.so)";

    private static string? Locate()
    {
        var candidates = new List<string?>
        {
            Environment.GetEnvironmentVariable("SHARC_SQLCIPHER"),
            Environment.GetEnvironmentVariable("SHARC_SQLCIPHER_DIR") is { } d ? System.IO.Path.Combine(d, "libsqlcipher.so") : null,
            System.IO.Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".cache", "sharc", "sqlcipher-4.5.5", "libsqlcipher.so"),
        };
        return candidates.FirstOrDefault(p => p is not null && File.Exists(p));
    }

    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] private delegate int OpenV2(byte[] path, out IntPtr db, int flags, IntPtr vfs);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] private delegate int CloseV2(IntPtr db);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] private delegate int KeyFn(IntPtr db, byte[] key, int n);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] private delegate int PrepareV2(IntPtr db, byte[] sql, int n, out IntPtr stmt, IntPtr tail);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] private delegate int StmtFn(IntPtr stmt);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] private delegate int ColInt(IntPtr stmt, int i);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] private delegate long ColInt64(IntPtr stmt, int i);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] private delegate double ColDouble(IntPtr stmt, int i);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] private delegate IntPtr ColPtr(IntPtr stmt, int i);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)] private delegate IntPtr ErrMsg(IntPtr db);

    private static readonly Lazy<Api> Native = new(() => new Api(NativeLibrary.Load(LibraryPath ?? throw new InvalidOperationException(SkipReason))));

    private sealed class Api(IntPtr lib)
    {
        private T F<T>(string name) where T : Delegate => Marshal.GetDelegateForFunctionPointer<T>(NativeLibrary.GetExport(lib, name));
        public OpenV2 OpenF => _open ??= F<OpenV2>("sqlite3_open_v2");
        public CloseV2 Close => _close ??= F<CloseV2>("sqlite3_close_v2");
        public KeyFn Key => _key ??= F<KeyFn>("sqlite3_key");
        public PrepareV2 Prepare => _prepare ??= F<PrepareV2>("sqlite3_prepare_v2");
        public StmtFn Step => _step ??= F<StmtFn>("sqlite3_step");
        public StmtFn Finalize => _finalize ??= F<StmtFn>("sqlite3_finalize");
        public StmtFn ColumnCount => _count ??= F<StmtFn>("sqlite3_column_count");
        public ColInt ColumnType => _type ??= F<ColInt>("sqlite3_column_type");
        public ColInt64 ColumnInt64 => _i64 ??= F<ColInt64>("sqlite3_column_int64");
        public ColDouble ColumnDouble => _dbl ??= F<ColDouble>("sqlite3_column_double");
        public ColPtr ColumnText => _text ??= F<ColPtr>("sqlite3_column_text");
        public ColPtr ColumnBlob => _blob ??= F<ColPtr>("sqlite3_column_blob");
        public ColInt ColumnBytes => _bytes ??= F<ColInt>("sqlite3_column_bytes");
        public ErrMsg Error => _err ??= F<ErrMsg>("sqlite3_errmsg");
        public ColPtr ColumnName => _name ??= F<ColPtr>("sqlite3_column_name");
        private ColPtr? _name;
        private OpenV2? _open; private CloseV2? _close; private KeyFn? _key; private PrepareV2? _prepare; private StmtFn? _step, _finalize, _count;
        private ColInt? _type, _bytes; private ColInt64? _i64; private ColDouble? _dbl; private ColPtr? _text, _blob; private ErrMsg? _err;
    }

    private IntPtr _db;

    private SqlCipher(IntPtr db) => _db = db;

    /// <summary>Opens (creating when missing) with <paramref name="key"/> as PRAGMA key takes it, then runs <paramref name="pragmas"/>.</summary>
    public static SqlCipher Open(string path, string key, params string[] pragmas)
    {
        var api = Native.Value;
        int rc = api.OpenF(Z(path), out var db, 0x02 | 0x04 /* READWRITE | CREATE */, IntPtr.Zero);
        var c = new SqlCipher(db);
        if (rc != 0) throw new InvalidOperationException($"sqlite3_open_v2: {rc}");
        var k = Encoding.UTF8.GetBytes(key);
        c.Check(api.Key(db, k, k.Length), "sqlite3_key");
        foreach (var p in pragmas) c.Exec(p);
        return c;
    }

    /// <summary>Opens (creating when missing) without a key: the first statement may be PRAGMA key.</summary>
    public static SqlCipher OpenWithoutKey(string path)
    {
        int rc = Native.Value.OpenF(Z(path), out var db, 0x02 | 0x04 /* READWRITE | CREATE */, IntPtr.Zero);
        var c = new SqlCipher(db);
        if (rc != 0) throw new InvalidOperationException($"sqlite3_open_v2: {rc}");
        return c;
    }

    private static byte[] Z(string s) => Encoding.UTF8.GetBytes(s + "\0");

    private void Check(int rc, string what)
    {
        if (rc != 0) throw new InvalidOperationException($"{what}: {rc} {Marshal.PtrToStringUTF8(Native.Value.Error(_db))}");
    }

    public void Exec(string sql) => Rows(sql);

    public object? Scalar(string sql) => Rows(sql).FirstOrDefault()?[0];

    /// <summary>The column names of the last statement <see cref="Rows"/> ran.</summary>
    public string[] LastColumns { get; private set; } = [];

    /// <summary>Runs <paramref name="sql"/> and returns SQLite's error message, or null when it succeeded.</summary>
    public string? Error(string sql)
    {
        try
        {
            Rows(sql);
            return null;
        }
        catch (InvalidOperationException)
        {
            return Marshal.PtrToStringUTF8(Native.Value.Error(_db));
        }
    }

    public List<object?[]> Rows(string sql)
    {
        var api = Native.Value;
        var rows = new List<object?[]>();
        var bytes = Encoding.UTF8.GetBytes(sql);
        Check(api.Prepare(_db, bytes, bytes.Length, out var stmt, IntPtr.Zero), "prepare " + sql);
        int columns = api.ColumnCount(stmt);
        LastColumns = [.. Enumerable.Range(0, columns).Select(i => Marshal.PtrToStringUTF8(api.ColumnName(stmt, i)) ?? "")];
        try
        {
            while (true)
            {
                int rc = api.Step(stmt);
                if (rc == 101) break; // SQLITE_DONE
                if (rc != 100) Check(rc, "step " + sql);
                int n = api.ColumnCount(stmt);
                var row = new object?[n];
                for (int i = 0; i < n; i++)
                {
                    row[i] = api.ColumnType(stmt, i) switch
                    {
                        1 => api.ColumnInt64(stmt, i),
                        2 => api.ColumnDouble(stmt, i),
                        3 => Marshal.PtrToStringUTF8(api.ColumnText(stmt, i), api.ColumnBytes(stmt, i)),
                        4 => Blob(api, stmt, i),
                        _ => null,
                    };
                }
                rows.Add(row);
            }
        }
        finally
        {
            api.Finalize(stmt);
        }
        return rows;
    }

    private static byte[] Blob(Api api, IntPtr stmt, int i)
    {
        int n = api.ColumnBytes(stmt, i);
        var b = new byte[n];
        if (n > 0) Marshal.Copy(api.ColumnBlob(stmt, i), b, 0, n);
        return b;
    }

    public void Dispose()
    {
        if (_db != IntPtr.Zero) Native.Value.Close(_db);
        _db = IntPtr.Zero;
    }
}

/// <summary>A fact skipped, with the reason, where SQLCipher was not built.</summary>
public sealed class NeedsSqlCipherFactAttribute : FactAttribute
{
    public NeedsSqlCipherFactAttribute()
    {
        if (SqlCipher.LibraryPath is null) Skip = SqlCipher.SkipReason;
    }
}

/// <summary>A theory skipped, with the reason, where SQLCipher was not built.</summary>
public sealed class NeedsSqlCipherTheoryAttribute : TheoryAttribute
{
    public NeedsSqlCipherTheoryAttribute()
    {
        if (SqlCipher.LibraryPath is null) Skip = SqlCipher.SkipReason;
    }
}
