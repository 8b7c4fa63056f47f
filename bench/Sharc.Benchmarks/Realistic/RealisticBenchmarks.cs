using System.Globalization;
using System.Text;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Microsoft.Data.Sqlite;
using Sharc.Benchmarks.Fixtures;

namespace Sharc.Benchmarks.Realistic;

/// <summary>
/// What applications do with an embedded database, each engine used the best way it offers: one connection opened
/// in setup, prepared commands (SQLite) and prepared readers or queries (Sharc) reused with new values; only the
/// OpenReadClose rows open and close per operation (SQLite unpooled as baseline, and pooled). Times are per
/// operation where a row does several (profiles, config keys). Run with <c>--filter '*Realistic*'</c>.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class RealisticBenchmarks
{
    private const int Profiles = 100;
    private const int BatchUsers = 500;
    private const int ConfigKeys = 10;

    private string _path = null!;
    private string _unpooled = null!;
    private string _pooled = null!;
    private SqliteConnection _conn = null!;
    private SqliteCommand _user = null!, _purchases = null!, _setting = null!, _batch = null!, _version = null!, _columns = null!, _export = null!;
    private SharcDatabase _db = null!;
    private PreparedReader _userReader = null!, _batchReader = null!;
    private PreparedQuery _purchasesQuery = null!, _settingQuery = null!;
    private long[] _profileKeys = null!, _batchKeys = null!;
    private string[] _configKeys = null!;
    private readonly StringBuilder _csv = new();

    [GlobalSetup]
    public void Setup()
    {
        _path = RealisticData.Path();
        _unpooled = Engines.FileConnectionString(_path);
        _pooled = Engines.FileConnectionString(_path, pooling: true);
        _conn = Engines.OpenSqlite(_path, StorageKind.File);
        _user = Engines.Prepare(_conn, "SELECT name, email, age, city FROM users WHERE id = $id", ("$id", SqliteType.Integer));
        _purchases = Engines.Prepare(_conn, "SELECT id, item, total FROM purchases WHERE user_id = $id", ("$id", SqliteType.Integer));
        _setting = Engines.Prepare(_conn, "SELECT value FROM settings WHERE key = $k", ("$k", SqliteType.Text));
        _batch = Engines.Prepare(_conn, "SELECT name, age, score FROM users WHERE id = $id", ("$id", SqliteType.Integer));
        _version = Engines.Prepare(_conn, "PRAGMA user_version");
        _columns = Engines.Prepare(_conn, "SELECT name FROM pragma_table_info('users')");
        _export = Engines.Prepare(_conn, "SELECT id, name, email, age, score, city FROM users");
        Engines.RequirePlan(_conn, "SELECT id, item, total FROM purchases WHERE user_id = $id", "purchases_user", ("$id", 1L));

        _db = SharcDatabase.Open(_path);
        _userReader = _db.PrepareReader("users", "name", "email", "age", "city");
        _batchReader = _db.PrepareReader("users", "name", "age", "score");
        _purchasesQuery = _db.Prepare("SELECT id, item, total FROM purchases WHERE user_id = $id");
        _settingQuery = _db.Prepare("SELECT value FROM settings WHERE key = $k");

        _profileKeys = Keys.Random(Profiles, 1, UsersData.CoreRows);
        _batchKeys = Keys.Random(BatchUsers, 1, UsersData.CoreRows);
        var rng = new Random(UsersData.Seed);
        _configKeys = Enumerable.Range(0, ConfigKeys).Select(_ => RealisticData.SettingKey(rng.Next(RealisticData.Settings))).ToArray();

        Verify.Same("user profiles", ("SqliteUserProfile", SqliteUserProfile()), ("SharcUserProfile", SharcUserProfile()));
        Verify.Same("open, read one row, close", ("SqliteOpenReadClose", SqliteOpenReadClose()),
            ("SqliteOpenReadClosePooled", SqliteOpenReadClosePooled()), ("SharcOpenReadClose", SharcOpenReadClose()));
        Verify.Same("migration check", ("SqliteMigrationCheck", SqliteMigrationCheck()), ("SharcMigrationCheck", SharcMigrationCheck()));
        Verify.Same("config keys", ("SqliteConfigKeys", SqliteConfigKeys()), ("SharcConfigKeys", SharcConfigKeys()));
        Verify.Same("batch lookup", ("SqliteBatchLookup", SqliteBatchLookup()), ("SharcBatchLookup", SharcBatchLookup()));
        Verify.Same("CSV export", ("SqliteExportCsv", SqliteExportCsv()), ("SharcExportCsv", SharcExportCsv()));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        foreach (var cmd in new[] { _user, _purchases, _setting, _batch, _version, _columns, _export }) cmd.Dispose();
        _conn.Dispose();
        _userReader.Dispose();
        _batchReader.Dispose();
        _purchasesQuery.Dispose();
        _settingQuery.Dispose();
        _db.Dispose();
        SqliteConnection.ClearAllPools();
    }

    // ------------------------------------------------------------------ a user and their purchases, by key

    [Benchmark(Baseline = true, OperationsPerInvoke = Profiles)]
    [BenchmarkCategory("UserProfile")]
    public long SqliteUserProfile()
    {
        long sum = 0;
        var userId = _user.Parameters[0];
        var purchasesUser = _purchases.Parameters[0];
        foreach (long k in _profileKeys)
        {
            userId.Value = k;
            using (var r = _user.ExecuteReader())
                if (r.Read()) sum += Mix.Of(r.GetString(0)) + (r.IsDBNull(1) ? 0 : Mix.Of(r.GetString(1))) + r.GetInt64(2) + Mix.Of(r.GetString(3));
            purchasesUser.Value = k;
            using (var r = _purchases.ExecuteReader())
                while (r.Read()) sum += r.GetInt64(0) + Mix.Of(r.GetString(1)) + Mix.Of(r.GetDouble(2));
        }
        return sum;
    }

    [Benchmark(OperationsPerInvoke = Profiles)]
    [BenchmarkCategory("UserProfile")]
    public long SharcUserProfile()
    {
        long sum = 0;
        var u = _userReader;
        foreach (long k in _profileKeys)
        {
            if (u.Seek(k)) sum += Mix.Of(u.GetString(0)) + (u.IsNull(1) ? 0 : Mix.Of(u.GetString(1))) + u.GetInt64(2) + Mix.Of(u.GetString(3));
            _purchasesQuery.Bind(1, k);
            using var r = _purchasesQuery.Execute();
            while (r.Read()) sum += r.GetInt64(0) + Mix.Of(r.GetString(1)) + Mix.Of(r.GetDouble(2));
        }
        return sum;
    }

    // ------------------------------------------------------------------ open, read one row, close

    private const long OpenKey = UsersData.CoreRows / 2;

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("OpenReadClose")]
    public long SqliteOpenReadClose() => OpenReadClose.Sqlite(_unpooled, OpenKey);

    [Benchmark]
    [BenchmarkCategory("OpenReadClose")]
    public long SqliteOpenReadClosePooled() => OpenReadClose.Sqlite(_pooled, OpenKey);

    [Benchmark]
    [BenchmarkCategory("OpenReadClose")]
    public long SharcOpenReadClose() => OpenReadClose.Sharc(_path, OpenKey);

    // ------------------------------------------------------------------ startup migration check

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("MigrationCheck")]
    public long SqliteMigrationCheck()
    {
        long version = (long)_version.ExecuteScalar()!;
        long columns = 0;
        bool hasCity = false;
        using (var r = _columns.ExecuteReader())
            while (r.Read())
            {
                columns++;
                hasCity |= r.GetString(0) == "city";
            }
        return version * 1000 + columns * 10 + (hasCity ? 1 : 0);
    }

    [Benchmark]
    [BenchmarkCategory("MigrationCheck")]
    public long SharcMigrationCheck()
    {
        long version = _db.Header.UserVersion;
        var table = _db.Schema.GetTable("users");
        bool hasCity = false;
        foreach (var c in table.Columns) hasCity |= c.Name == "city";
        return version * 1000 + table.Columns.Count * 10 + (hasCity ? 1 : 0);
    }

    // ------------------------------------------------------------------ 10 settings by text key

    [Benchmark(Baseline = true, OperationsPerInvoke = ConfigKeys)]
    [BenchmarkCategory("ConfigKeys")]
    public long SqliteConfigKeys()
    {
        long sum = 0;
        var key = _setting.Parameters[0];
        foreach (string k in _configKeys)
        {
            key.Value = k;
            using var r = _setting.ExecuteReader();
            if (r.Read()) sum += Mix.Of(r.GetString(0));
        }
        return sum;
    }

    [Benchmark(OperationsPerInvoke = ConfigKeys)]
    [BenchmarkCategory("ConfigKeys")]
    public long SharcConfigKeys()
    {
        long sum = 0;
        foreach (string k in _configKeys)
        {
            _settingQuery.Bind(1, k);
            using var r = _settingQuery.Execute();
            if (r.Read()) sum += Mix.Of(r.GetString(0));
        }
        return sum;
    }

    // ------------------------------------------------------------------ 500 users by key

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("BatchLookup")]
    public long SqliteBatchLookup() => Core.PointLookupBenchmarks.SqliteLookups(_batch, _batchKeys);

    [Benchmark]
    [BenchmarkCategory("BatchLookup")]
    public long SharcBatchLookup() => Core.PointLookupBenchmarks.SharcLookups(_batchReader, _batchKeys);

    // ------------------------------------------------------------------ a table to CSV

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("ExportCsv")]
    public long SqliteExportCsv()
    {
        var csv = _csv.Clear();
        using var r = _export.ExecuteReader();
        while (r.Read())
            CsvRow(csv, r.GetInt64(0), r.GetString(1), r.IsDBNull(2) ? null : r.GetString(2), r.GetInt64(3), r.GetDouble(4), r.GetString(5));
        return csv.Length;
    }

    [Benchmark]
    [BenchmarkCategory("ExportCsv")]
    public long SharcExportCsv()
    {
        var csv = _csv.Clear();
        using var r = _db.CreateReader("users", "id", "name", "email", "age", "score", "city");
        while (r.Read())
            CsvRow(csv, r.GetInt64(0), r.GetString(1), r.IsNull(2) ? null : r.GetString(2), r.GetInt64(3), r.GetDouble(4), r.GetString(5));
        return csv.Length;
    }

    /// <summary>One CSV line, formatted the same way for both engines (what they read is the measured difference).</summary>
    private static void CsvRow(StringBuilder csv, long id, string? name, string? email, long age, double score, string? city)
    {
        csv.Append(id).Append(',').Append(name).Append(',').Append(email).Append(',').Append(age).Append(',')
            .Append(score.ToString("R", CultureInfo.InvariantCulture)).Append(',').Append(city).Append('\n');
    }
}
