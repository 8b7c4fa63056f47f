using System.Reflection;
using Microsoft.Data.Sqlite;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Api.DotNet;

/// <summary>
/// The .NET type mapping is Microsoft.Data.Sqlite's: each value read through both providers converts the same way
/// (or fails with the same exception type), and each .NET value bound or inserted is stored as it stores it.
/// </summary>
public class TypeMappingTests
{
    public static readonly string[] Expressions =
    [
        "5000000000", "1.9", "-1.9", "'12'", "'abc'", "x'0102'", "'2024-01-02 03:04:05'", "2460311.5", "2460311.75",
        "'2024-01-02T03:04:05+02:00'", "'2024-01-02 03:04:05.1234567'", "'1e3'", "'1,000.5'", "1", "0", "-1", "65", "'x'", "'é'", "'xy'", "70000",
        "x'0102030405060708090a0b0c0d0e0f10'", "'01020304-0506-0708-090a-0b0c0d0e0f10'", "'1.02:03:04.005'",
        "'03:04:05'", "'03:04:05.0060000'", "1e300", "'2024-01-02'", "0.5", "'true'", "-9223372036854775808", "300", "-129",
    ];

    public static readonly Type[] Types =
    [
        typeof(bool), typeof(byte), typeof(sbyte), typeof(short), typeof(ushort), typeof(int), typeof(uint), typeof(long),
        typeof(ulong), typeof(float), typeof(double), typeof(decimal), typeof(string), typeof(char), typeof(DateTime),
        typeof(DateTimeOffset), typeof(DateOnly), typeof(TimeOnly), typeof(TimeSpan), typeof(Guid), typeof(byte[]),
        typeof(int?), typeof(Guid?), typeof(DayOfWeek), typeof(object),
    ];

    public static IEnumerable<object[]> ExpressionCases() => Expressions.Select(e => new object[] { e });

    [Theory]
    [MemberData(nameof(ExpressionCases))]
    public void GetFieldValueConvertsEveryTypeAsMicrosoftDataSqlite(string expression)
    {
        using var sqlite = new SqliteConnection("Data Source=:memory:");
        sqlite.Open();
        using var db = SharcDatabase.OpenMemory(ReadOnlyMemory<byte>.Empty);
        var mismatches = new List<string>();
        foreach (var type in Types)
        {
            // A fresh reader per type: SQLite converts a blob to text in place once it has been read as text.
            using var cmd = sqlite.CreateCommand();
            cmd.CommandText = "SELECT " + expression;
            using var expected = cmd.ExecuteReader();
            expected.Read();
            using var actual = db.Query("SELECT " + expression);
            actual.Read().Should().BeTrue();
            var want = Outcome(() => Invoke(typeof(SqliteDataReader), expected, type));
            var got = Outcome(() => Invoke(typeof(SharcDataReader), actual, type));
            if (want != got) mismatches.Add($"{type.Name}: SQLite {want}, Sharc {got}");
        }
        mismatches.Should().BeEmpty();
    }

    private static object? Invoke(Type readerType, object reader, Type t)
    {
        var method = readerType.GetMethods().Single(m => m.Name == "GetFieldValue" && m.IsGenericMethodDefinition && m.GetParameters()[0].ParameterType == typeof(int));
        try
        {
            return method.MakeGenericMethod(t).Invoke(reader, [0]);
        }
        catch (TargetInvocationException e)
        {
            throw e.InnerException!;
        }
    }

    private static string Outcome(Func<object?> read)
    {
        try
        {
            return read() switch
            {
                null => "null",
                byte[] b => "bytes " + Convert.ToHexString(b),
                DateTime d => $"DateTime {d:O} {d.Kind}",
                DateTimeOffset d => $"DateTimeOffset {d:O}",
                var v => $"{v.GetType().Name} {Convert.ToString(v, System.Globalization.CultureInfo.InvariantCulture)}",
            };
        }
        catch (Exception e)
        {
            return "throws " + e.GetType().Name;
        }
    }

    public static IEnumerable<object[]> ClrValues()
    {
        yield return [true];
        yield return [(byte)7];
        yield return [(sbyte)-7];
        yield return [(short)-300];
        yield return [(ushort)60000];
        yield return [5];
        yield return [7u];
        yield return [8L];
        yield return [ulong.MaxValue];
        yield return [1.5f];
        yield return [0.1f];
        yield return [2.5];
        yield return [1.25m];
        yield return [3m];
        yield return [-123.4500m];
        yield return [79228162514264337593543950335m];
        yield return ['x'];
        yield return ["text"];
        yield return [new DateTime(2024, 1, 2, 3, 4, 5, DateTimeKind.Utc).AddTicks(1234567)];
        yield return [new DateTime(2024, 1, 2)];
        yield return [new DateTimeOffset(2024, 1, 2, 3, 4, 5, 123, TimeSpan.FromHours(-5))];
        yield return [new DateOnly(2024, 1, 2)];
        yield return [new TimeOnly(3, 4, 5, 6)];
        yield return [new TimeOnly(3, 4)];
        yield return [TimeSpan.FromHours(25.5)];
        yield return [TimeSpan.FromMinutes(-90)];
        yield return [Guid.Parse("01020304-0506-0708-090a-0b0c0d0e0f10")];
        yield return [new byte[] { 1, 2 }];
        yield return [DayOfWeek.Friday];
        yield return [double.PositiveInfinity];
    }

    [Theory]
    [MemberData(nameof(ClrValues))]
    public void BoundValuesAreStoredAsMicrosoftDataSqliteStoresThem(object value)
    {
        using var sqlite = new SqliteConnection("Data Source=:memory:");
        sqlite.Open();
        using var cmd = sqlite.CreateCommand();
        cmd.CommandText = "SELECT typeof(@p) || ' ' || quote(@p)";
        cmd.Parameters.AddWithValue("@p", value);
        string expected = (string)cmd.ExecuteScalar()!;

        using var db = SharcDatabase.OpenMemory(ReadOnlyMemory<byte>.Empty);
        using (var r = db.Query("SELECT typeof(?1) || ' ' || quote(?1)", value))
        {
            r.Read().Should().BeTrue();
            r.GetString(0).Should().Be(expected);
        }
        using var prepared = db.Prepare("SELECT typeof(@p) || ' ' || quote(@p)");
        prepared.Bind("@p", value);
        var p = prepared.Execute();
        p.Read().Should().BeTrue();
        p.GetString(0).Should().Be(expected);
    }

    [Theory]
    [MemberData(nameof(ClrValues))]
    public void ValuesInsertedBySharcReadBackThroughMicrosoftDataSqliteAndTheOtherWayRound(object value)
    {
        using var dir = new TempDir();
        string path = dir.File("t.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.Execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v)");
            db.Insert("t", 1L, value);
            db.Execute("INSERT INTO t VALUES(2, ?)", value);
        }
        using (var sqlite = Oracle.Open(path))
        {
            Oracle.Exec(sqlite, "INSERT INTO t VALUES(3, @p)", ("@p", value));
            var stored = Oracle.Rows(sqlite, "SELECT typeof(v) || ' ' || quote(v) FROM t ORDER BY id").Select(r => r[0]).ToList();
            stored.Should().AllBeEquivalentTo(stored[2], "Sharc's Insert and SQL bind the value as Microsoft.Data.Sqlite does");
        }
        using var check = SharcDatabase.Open(path);
        using var reader = check.Query("SELECT v FROM t ORDER BY id");
        using var sqliteRead = Oracle.Open(path);
        using var cmd = sqliteRead.CreateCommand();
        cmd.CommandText = "SELECT v FROM t ORDER BY id";
        using var expected = cmd.ExecuteReader();
        while (reader.Read())
        {
            expected.Read().Should().BeTrue();
            var type = value.GetType();
            Outcome(() => Invoke(typeof(SharcDataReader), reader, type)).Should().Be(Outcome(() => Invoke(typeof(SqliteDataReader), expected, type)));
        }
    }

    [Fact]
    public void DatesGuidsAndDecimalsRoundTripThroughSharc()
    {
        using var db = SharcDatabase.OpenMemory(ReadOnlyMemory<byte>.Empty);
        var when = new DateTime(2024, 5, 6, 7, 8, 9).AddTicks(1234567);
        var id = Guid.NewGuid();
        using var r = db.Query("SELECT ?, ?, ?, ?, ?, ?", when, id, 12.345m, new DateOnly(2020, 2, 29), TimeSpan.FromMinutes(-90), new DateTimeOffset(when, TimeSpan.FromHours(3)));
        r.Read().Should().BeTrue();
        r.GetDateTime(0).Should().Be(when);
        r.GetGuid(1).Should().Be(id);
        r.GetDecimal(2).Should().Be(12.345m);
        r.GetFieldValue<DateOnly>(3).Should().Be(new DateOnly(2020, 2, 29));
        r.GetFieldValue<TimeSpan>(4).Should().Be(TimeSpan.FromMinutes(-90));
        r.GetFieldValue<DateTimeOffset>(5).Should().Be(new DateTimeOffset(when, TimeSpan.FromHours(3)));
    }

    [Fact]
    public void NarrowIntegerGettersAreRangeChecked()
    {
        using var db = SharcDatabase.OpenMemory(ReadOnlyMemory<byte>.Empty);
        using var r = db.Query("SELECT 5000000000, 300");
        r.Read().Should().BeTrue();
        r.Invoking(x => x.GetInt32(0)).Should().Throw<OverflowException>();
        r.GetInt64(0).Should().Be(5000000000);
        r.Invoking(x => x.GetByte(1)).Should().Throw<OverflowException>();
        r.GetInt16(1).Should().Be(300);
    }

    [Fact]
    public void NullReadsAsNullForNullableTypesAndFailsForValueTypes()
    {
        using var db = SharcDatabase.OpenMemory(ReadOnlyMemory<byte>.Empty);
        using var r = db.Query("SELECT NULL AS n");
        r.Read().Should().BeTrue();
        r.GetFieldValue<int?>(0).Should().BeNull();
        r.GetFieldValue<string>("n").Should().BeNull();
        r.GetFieldValue<byte[]>(0).Should().BeNull();
        r.Invoking(x => x.GetFieldValue<DateTime>(0)).Should().Throw<InvalidCastException>().WithMessage("*NULL*");
        r["n"].Should().BeNull();
    }

    [Fact]
    public void ColumnsAreFoundByNameAndAnUnknownNameThrowsAsMicrosoftDataSqliteDoes()
    {
        using var db = SharcDatabase.OpenMemory(ReadOnlyMemory<byte>.Empty);
        using var r = db.Query("SELECT 1 AS a, 2 AS A, 'x' AS Name");
        r.Read().Should().BeTrue();
        r.GetOrdinal("A").Should().Be(1, "an exact match wins over a case-insensitive one");
        r.GetOrdinal("name").Should().Be(2);
        r.GetString("NAME").Should().Be("x");
        r["a"].Should().Be(1L);
        r.Invoking(x => x.GetOrdinal("nope")).Should().Throw<ArgumentOutOfRangeException>().WithMessage("*nope*");
        r.TryGetOrdinal("nope", out int ordinal).Should().BeFalse();
        ordinal.Should().Be(-1);
    }

    [Fact]
    public void TypedGettersOfValueTypesAllocateNothing()
    {
        using var dir = new TempDir();
        using var db = AllocationFixture.OpenAs("file", AllocationFixture.Build(dir, "UTF-8", 500));
        using var reader = db.PrepareReader("users", "id", "score", "age");
        long sum = 0;
        long allocated = AllocationFixture.Measure(() =>
        {
            if (!reader.Seek(42)) throw new InvalidOperationException("missing key");
            sum += reader.GetFieldValue<long>(0) + reader.GetFieldValue<int>(2) + (long)reader.GetFieldValue<double>(1)
                + (reader.GetFieldValue<bool>(0) ? 1 : 0) + reader.GetFieldValue<short>(2) + (long)reader.GetFieldValue<decimal>(0);
        }, 1000);
        allocated.Should().Be(0);
        sum.Should().BeGreaterThan(0);
    }
}
