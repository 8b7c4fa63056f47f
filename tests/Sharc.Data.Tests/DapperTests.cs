using System.Data.Common;
using Dapper;
using static Sharc.Data.Tests.Providers;

namespace Sharc.Data.Tests;

/// <summary>Dapper, which no one here wrote, gets the same answers through Sharc.Data as through Microsoft.Data.Sqlite.</summary>
public class DapperTests : IDisposable
{
    private readonly Providers _providers = new();

    public void Dispose() => _providers.Dispose();

    public sealed class Artist
    {
        public long Id { get; set; }
        public string Name { get; set; } = "";
        public DateTime Born { get; set; }
        public decimal Fee { get; set; }
        // Guid properties over TEXT columns need a Dapper type handler with either provider (Dapper does not parse them).
        public string Key { get; set; } = "";
        public bool Active { get; set; }
        public double? Rating { get; set; }
        public List<Album> Albums { get; } = [];
        public override string ToString() => $"{Id} {Name} {Born:O} {Fee} {Key} {Active} {Rating}";
    }

    public sealed class Album
    {
        public long AlbumId { get; set; }
        public string Title { get; set; } = "";
        public Artist? Artist { get; set; }
        public override string ToString() => $"{AlbumId} {Title} by {Artist?.Name}";
    }

    private static void Seed(DbConnection c)
    {
        c.Execute("CREATE TABLE artist(Id INTEGER PRIMARY KEY, Name TEXT NOT NULL UNIQUE, Born TEXT, Fee TEXT, Key TEXT, Active INTEGER, Rating REAL)");
        c.Execute("CREATE TABLE album(AlbumId INTEGER PRIMARY KEY, Title TEXT, ArtistId INTEGER REFERENCES artist(Id))");
        var artists = Enumerable.Range(1, 5).Select(i => new
        {
            Name = "artist " + i,
            Born = new DateTime(1950 + i, i, i, 1, 2, 3),
            Fee = 1000.5m * i,
            Key = new Guid(i, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
            Active = i % 2 == 0,
            Rating = i == 3 ? (double?)null : i / 2.0,
        });
        c.Execute("INSERT INTO artist(Name, Born, Fee, Key, Active, Rating) VALUES(@Name, @Born, @Fee, @Key, @Active, @Rating)", artists);
        c.Execute("INSERT INTO album(Title, ArtistId) VALUES(@t, @a)", Enumerable.Range(1, 8).Select(i => new { t = "album " + i, a = i % 5 + 1 }));
    }

    private void Same(Func<DbConnection, object?> query)
    {
        var (sqlite, sharc) = _providers.Run(c =>
        {
            Seed(c);
            return Describe(Capture(() => query(c)));
        });
        sharc.Should().Be(sqlite);
        sharc.Should().NotStartWith("throws");
    }

    private static object? Capture(Func<object?> f)
    {
        try
        {
            return f();
        }
        catch (DbException)
        {
            return "throws DbException";
        }
    }

    private static string Describe(object? v) => v switch
    {
        null => "null",
        string s => s,
        System.Collections.IDictionary d => string.Join(",", d.Keys.Cast<object>().Select(k => $"{k}={Show(d[k])}")),
        IEnumerable<KeyValuePair<string, object>> row => string.Join(",", row.Select(kv => $"{kv.Key}={Show(kv.Value)}")),
        System.Collections.IEnumerable e => "[" + string.Join("; ", e.Cast<object?>().Select(Describe)) + "]",
        _ => v.ToString() ?? "",
    };

    [Fact]
    public void TypedQueriesMapEveryColumnType()
        => Same(c => c.Query<Artist>("SELECT * FROM artist ORDER BY Id").ToList());

    [Fact]
    public void DynamicQueriesSeeTheStoredValues()
        => Same(c => c.Query("SELECT Id, Name, Fee, Rating FROM artist WHERE Id > @min ORDER BY Id", new { min = 2 }).ToList());

    [Fact]
    public void ScalarsAndSingleRows()
        => Same(c => $"{c.ExecuteScalar<long>("SELECT count(*) FROM album")} {c.QuerySingle<string>("SELECT Name FROM artist WHERE Id = $id", new { id = 4 })} {c.QueryFirstOrDefault<Artist>("SELECT * FROM artist WHERE 0")}");

    [Fact]
    public void MultiMappingSplitsRowsIntoObjects()
        => Same(c => c.Query<Album, Artist, Album>(
            "SELECT al.AlbumId, al.Title, ar.Id, ar.Name FROM album al JOIN artist ar ON ar.Id = al.ArtistId ORDER BY al.AlbumId",
            (album, artist) => { album.Artist = artist; return album; }, splitOn: "Id").ToList());

    [Fact]
    public void QueryMultipleReadsEachResultSet()
        => Same(c =>
        {
            using var grid = c.QueryMultiple("SELECT * FROM artist WHERE Id = @id; SELECT * FROM album WHERE ArtistId = @id ORDER BY AlbumId; SELECT count(*) FROM album", new { id = 2 });
            var artist = grid.ReadSingle<Artist>();
            var albums = grid.Read<Album>().ToList();
            long count = grid.ReadSingle<long>();
            return $"{artist} | {string.Join(",", albums)} | {count}";
        });

    [Fact]
    public void InListsExpand()
        => Same(c => c.Query<string>("SELECT Name FROM artist WHERE Id IN @ids ORDER BY Name DESC", new { ids = new[] { 1, 3, 5 } }).ToList());

    [Fact]
    public void UnbufferedQueriesStream()
        => Same(c => string.Join(",", c.Query<Album>("SELECT * FROM album ORDER BY AlbumId", buffered: false).Take(3)));

    [Fact]
    public void TransactionsCommitAndRollBack()
        => Same(c =>
        {
            using (var tx = c.BeginTransaction())
            {
                c.Execute("DELETE FROM album", transaction: tx);
                tx.Rollback();
            }
            using (var tx = c.BeginTransaction())
            {
                c.Execute("UPDATE artist SET Name = Name || '!' WHERE Id = 1", transaction: tx);
                tx.Commit();
            }
            return $"{c.ExecuteScalar<long>("SELECT count(*) FROM album")} {c.ExecuteScalar<string>("SELECT Name FROM artist WHERE Id = 1")}";
        });

    [Fact]
    public void TypedParametersRoundTrip()
        => Same(c =>
        {
            var p = new DynamicParameters();
            p.Add("d", new DateTime(2020, 1, 2, 3, 4, 5));
            p.Add("g", Guid.Parse("01234567-89ab-cdef-0123-456789abcdef"));
            p.Add("m", 123.456m);
            p.Add("b", new byte[] { 9, 8, 7 });
            p.Add("n", null);
            p.Add("o", new DateTimeOffset(2020, 1, 2, 3, 4, 5, TimeSpan.FromHours(-3)));
            var row = c.QuerySingle("SELECT @d AS d, @g AS g, @m AS m, @b AS b, @n AS n, @o AS o, typeof(@g) AS tg, typeof(@m) AS tm", p);
            // Dapper converts a TEXT value to DateTimeOffset with neither provider (Convert.ChangeType has no such
            // conversion), so the typed read stops at the types it does convert.
            var typed = c.QuerySingle<(DateTime, string, decimal, byte[])>("SELECT @d, @g, @m, @b", p);
            return Describe(row) + " " + (typed.Item1, typed.Item2, typed.Item3, Convert.ToHexString(typed.Item4));
        });

    [Fact]
    public void ConstraintAndSyntaxErrorsAreDbExceptions()
    {
        var (sqlite, sharc) = _providers.Run(c =>
        {
            Seed(c);
            return Describe(Capture(() => c.Execute("INSERT INTO artist(Name) VALUES('artist 1')"))) + " "
                + Describe(Capture(() => c.Query("SELEKT 1").ToList())) + " "
                + c.ExecuteScalar<long>("SELECT count(*) FROM artist");
        });
        sharc.Should().Be(sqlite);
        sharc.Should().Be("throws DbException throws DbException 5");
    }
}
