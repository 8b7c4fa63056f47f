using System.Data.Common;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Diagnostics;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace Sharc.Data.Tests;

/// <summary>
/// EF Core's SQLite provider run over a SharcConnection (<c>UseSqlite(connection)</c>) gives the same answers as over
/// a SqliteConnection: the same model, the same operations, compared as transcripts.
/// </summary>
public class EfCoreTests : IDisposable
{
    private readonly Providers _providers = new();

    public void Dispose() => _providers.Dispose();

    public sealed class Blog
    {
        public int Id { get; set; }
        public string Name { get; set; } = "";
        public decimal Rating { get; set; }
        public DateTime Created { get; set; }
        public Guid Key { get; set; }
        public bool Active { get; set; }
        public List<Post> Posts { get; } = [];
    }

    public sealed class Post
    {
        public int Id { get; set; }
        public int BlogId { get; set; }
        public Blog? Blog { get; set; }
        public string Title { get; set; } = "";
        public int Views { get; set; }
        public DateTimeOffset? Published { get; set; }
        public double Score { get; set; }
    }

    public sealed class BlogContext(DbConnection connection) : DbContext
    {
        public DbSet<Blog> Blogs => Set<Blog>();
        public DbSet<Post> Posts => Set<Post>();

        // As a user writes it: EF logs UnexpectedConnectionTypeWarning (the connection is not a SqliteConnection) and goes on.
        protected override void OnConfiguring(DbContextOptionsBuilder options) => options.UseSqlite(connection);

        protected override void OnModelCreating(ModelBuilder b)
            => b.Entity<Blog>().HasIndex(x => x.Name).IsUnique();
    }

    /// <summary>Runs <paramref name="script"/> with a context over each provider's open connection; both transcripts must agree.</summary>
    private void Same(Func<BlogContext, string> script, bool created = true)
    {
        var (sqlite, sharc) = _providers.Run(c =>
        {
            using var ctx = new BlogContext(c);
            if (created)
            {
                ctx.Database.EnsureCreated();
                Seed(ctx);
            }
            try
            {
                return script(ctx);
            }
            catch (Exception e) when (e is DbException or DbUpdateException or InvalidOperationException)
            {
                return "throws " + e.GetType().Name + " " + e.Message;
            }
        });
        sharc.Should().Be(sqlite, sharc);
        sharc.Should().NotStartWith("throws");
    }

    private static void Seed(BlogContext ctx)
    {
        for (int i = 1; i <= 4; i++)
        {
            var blog = new Blog
            {
                Name = "blog " + i,
                Rating = 1.25m * i,
                Created = new DateTime(2020, i, i, 10, 11, 12).AddTicks(i * 1234),
                Key = new Guid(i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
                Active = i % 2 == 1,
            };
            for (int p = 1; p <= i + 1; p++)
                blog.Posts.Add(new Post
                {
                    Title = $"post {i}.{p}",
                    Views = p * 10 + i,
                    Published = p % 3 == 0 ? null : new DateTimeOffset(2021, p, i, 1, 2, 3, TimeSpan.FromHours(p - 2)),
                    Score = p / 4.0,
                });
            ctx.Blogs.Add(blog);
        }
        ctx.SaveChanges();
        ctx.ChangeTracker.Clear();
    }

    private static string Show(Blog b) => $"{b.Id} {b.Name} {b.Rating} {b.Created:O} {b.Key} {b.Active}";

    private static string Show(Post p) => $"{p.Id} {p.BlogId} {p.Title} {p.Views} {p.Published:O} {p.Score}";

    [Fact]
    public void EnsureCreatedMakesTheSchemaAndSaveChangesInsertsWithGeneratedKeys()
        => Same(ctx => string.Join("\n", ctx.Blogs.OrderBy(b => b.Id).AsEnumerable().Select(Show))
            + "\n" + string.Join("\n", ctx.Posts.OrderBy(p => p.Id).AsEnumerable().Select(Show)));

    [Fact]
    public void UpdatesAndDeletesAreSaved()
        => Same(ctx =>
        {
            var blog = ctx.Blogs.Include(b => b.Posts).Single(b => b.Name == "blog 2");
            blog.Rating += 0.5m;
            blog.Posts[0].Title = "renamed";
            ctx.Posts.Remove(blog.Posts[1]);
            ctx.Blogs.Remove(ctx.Blogs.Include(b => b.Posts).Single(b => b.Name == "blog 4"));
            int saved = ctx.SaveChanges();
            ctx.ChangeTracker.Clear();
            return saved + "\n" + string.Join("\n", ctx.Blogs.OrderBy(b => b.Id).AsEnumerable().Select(Show))
                + "\n" + string.Join("\n", ctx.Posts.OrderBy(p => p.Id).AsEnumerable().Select(Show));
        });

    [Fact]
    public void ConstraintViolationsFailSaveChanges()
        => Same(ctx =>
        {
            ctx.Blogs.Add(new Blog { Name = "blog 1" });
            try
            {
                ctx.SaveChanges();
                return "saved";
            }
            catch (DbUpdateException e)
            {
                return "DbUpdateException " + (e.InnerException is DbException) + " " + ctx.Blogs.AsNoTracking().Count();
            }
        });

    [Fact]
    public void LinqJoinsFiltersAndProjectionsTranslate()
        => Same(ctx => string.Join("\n",
            from p in ctx.Posts
            join b in ctx.Blogs on p.BlogId equals b.Id
            where b.Active && p.Title.Contains(".2") || p.Views > 40
            orderby b.Name descending, p.Id
            select $"{b.Name} {p.Title} {p.Views} {p.Title.Length} {p.Title.ToUpper()}"));

    [Fact]
    public void GroupingAggregatesTranslate()
        => Same(ctx => string.Join("\n", ctx.Posts
            .GroupBy(p => p.BlogId)
            .Select(g => new { g.Key, Count = g.Count(), Views = g.Sum(p => p.Views), Max = g.Max(p => p.Score), Avg = g.Average(p => p.Views) })
            .OrderBy(x => x.Key)
            .AsEnumerable()
            .Select(x => $"{x.Key} {x.Count} {x.Views} {x.Max} {x.Avg}")));

    [Fact]
    public void PagingTranslates()
        => Same(ctx => string.Join("\n", ctx.Posts.OrderByDescending(p => p.Views).ThenBy(p => p.Id).Skip(3).Take(4).AsEnumerable().Select(Show)));

    [Fact]
    public void NavigationsIncludeAndCount()
        => Same(ctx => string.Join("\n", ctx.Blogs
            .Where(b => b.Posts.Count > 2)
            .Select(b => new { b.Name, Posts = b.Posts.OrderBy(p => p.Id).Select(p => p.Title).ToList(), Top = b.Posts.Max(p => p.Views) })
            .OrderBy(b => b.Name)
            .AsEnumerable()
            .Select(b => $"{b.Name}: {string.Join(",", b.Posts)} {b.Top}")));

    [Fact]
    public void DecimalComparisonsAndOrderingTranslate()
        // Decimals are TEXT in SQLite: EF compares, orders and adds them with functions it registers on a
        // SqliteConnection (ef_compare, the EF_DECIMAL collation, ef_add…).
        => Same(ctx => string.Join("\n", ctx.Blogs.Where(b => b.Rating > 2m).OrderByDescending(b => b.Rating).Select(b => b.Name + " " + (b.Rating + 1m)).ToList()));

    [Fact]
    public void DecimalAggregatesTranslate()
        => Same(ctx => string.Join("\n", ctx.Blogs
            .GroupBy(b => b.Active)
            .Select(g => new { g.Key, Sum = g.Sum(b => b.Rating), Avg = g.Average(b => b.Rating), Min = g.Min(b => b.Rating), Max = g.Max(b => b.Rating) })
            .OrderBy(x => x.Key)
            .AsEnumerable()
            .Select(x => $"{x.Key} {x.Sum} {x.Avg} {x.Min} {x.Max}"))
            + "\n" + ctx.Blogs.Select(b => b.Rating * 3m - 1m / 3m).Sum() + " " + ctx.Blogs.Select(b => -b.Rating % 2m).Max());

    [Fact]
    public void DateAndGuidValuesFilterAndReadBack()
        => Same(ctx =>
        {
            var key = new Guid(3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
            var since = new DateTime(2020, 2, 15);
            return string.Join("\n", ctx.Blogs.Where(b => b.Key == key || b.Created > since).OrderBy(b => b.Created).AsEnumerable().Select(Show))
                + "\n" + ctx.Blogs.Count(b => b.Created.Year == 2020 && b.Created.Month >= 3);
        });

    [Fact]
    public void TransactionsCommitAndRollBack()
        => Same(ctx =>
        {
            using (var tx = ctx.Database.BeginTransaction())
            {
                ctx.Blogs.Add(new Blog { Name = "rolled back" });
                ctx.SaveChanges();
                tx.Rollback();
            }
            ctx.ChangeTracker.Clear();
            using (var tx = ctx.Database.BeginTransaction())
            {
                ctx.Blogs.Add(new Blog { Name = "committed" });
                ctx.SaveChanges();
                tx.Commit();
            }
            return string.Join(",", ctx.Blogs.OrderBy(b => b.Id).Select(b => b.Name));
        });

    [Fact]
    public void AsyncQueriesAndSavesComplete()
        => Same(ctx =>
        {
            var blog = ctx.Blogs.SingleAsync(b => b.Name == "blog 3").GetAwaiter().GetResult();
            blog.Name = "blog three";
            int saved = ctx.SaveChangesAsync().GetAwaiter().GetResult();
            var names = ctx.Blogs.OrderBy(b => b.Name).Select(b => b.Name).ToListAsync().GetAwaiter().GetResult();
            return saved + " " + string.Join(",", names) + " " + ctx.Posts.CountAsync(p => p.Blog!.Name == "blog three").GetAwaiter().GetResult();
        });

    [Fact]
    public void RawSqlAndExecuteUpdateRun()
        => Same(ctx =>
        {
            int updated = ctx.Posts.Where(p => p.Views < 20).ExecuteUpdate(s => s.SetProperty(p => p.Views, p => p.Views + 100));
            int deleted = ctx.Posts.Where(p => p.Published == null).ExecuteDelete();
            var names = ctx.Database.SqlQuery<string>($"SELECT Name AS Value FROM Blogs WHERE Id > {2}").ToList();
            return $"{updated} {deleted} {string.Join(",", names)} {ctx.Posts.Sum(p => p.Views)}";
        });

    [Theory]
    [InlineData("SELECT ef_add('1.5', 2), ef_add(NULL, 1), ef_multiply('1e2', 0.5), ef_divide(1, 3), ef_mod(-7, '3'), ef_negate('0.10'), ef_negate(NULL)")]
    [InlineData("SELECT ef_compare('10', '9.5'), ef_compare('1.0', 1), ef_compare(2.5, '2.50'), ef_compare(NULL, 1)")]
    [InlineData("SELECT ef_sum(v), ef_avg(v), ef_min(v), ef_max(v), ef_sum(NULL) FROM (SELECT '1.25' AS v UNION ALL SELECT 3 UNION ALL SELECT NULL UNION ALL SELECT '-0.5')")]
    [InlineData("SELECT v FROM (SELECT '10' AS v UNION ALL SELECT '9.5' UNION ALL SELECT '-2' UNION ALL SELECT '100.25') ORDER BY v COLLATE EF_DECIMAL DESC")]
    [InlineData("SELECT count(DISTINCT v COLLATE EF_DECIMAL), '1.0' = '1.00' COLLATE EF_DECIMAL FROM (SELECT '1.0' AS v UNION ALL SELECT '1.00' UNION ALL SELECT '2')")]
    public void TheDecimalFunctionsAndCollationAnswerAsEfsOwn(string sql)
    {
        // A context over the SqliteConnection is what registers EF's functions on it; Sharc has them built in.
        var (sqlite, sharc) = _providers.Run(c =>
        {
            using var ctx = new BlogContext(c);
            ctx.Database.OpenConnection();
            return Providers.Transcript(c, sql);
        });
        sharc.Should().Be(sqlite);
        sharc.Should().NotContain("Exception");
    }

    // ---------------------------------------------------------------- migrations

    public sealed class MigratedContext(DbConnection connection) : DbContext
    {
        public DbSet<Blog> Blogs => Set<Blog>();

        protected override void OnConfiguring(DbContextOptionsBuilder options)
            => options.UseSqlite(connection).ConfigureWarnings(w => w
                .Ignore(SqliteEventId.UnexpectedConnectionTypeWarning)
                // The hand-written migrations have no model snapshot to compare the model with.
                .Ignore(RelationalEventId.PendingModelChangesWarning));

        protected override void OnModelCreating(ModelBuilder b) => b.Entity<Blog>().Ignore(x => x.Posts);
    }

    [DbContext(typeof(MigratedContext))]
    [Migration("20240101000000_Initial")]
    public sealed class InitialMigration : Migration
    {
        protected override void Up(MigrationBuilder m)
        {
            m.CreateTable("Blogs", t => new
            {
                Id = t.Column<int>(type: "INTEGER", nullable: false).Annotation("Sqlite:Autoincrement", true),
                Name = t.Column<string>(type: "TEXT", nullable: false),
                Rating = t.Column<decimal>(type: "TEXT", nullable: false),
                Created = t.Column<DateTime>(type: "TEXT", nullable: false),
                Key = t.Column<Guid>(type: "TEXT", nullable: false),
            }, constraints: t => t.PrimaryKey("PK_Blogs", x => x.Id));
            m.InsertData("Blogs", ["Name", "Rating", "Created", "Key"], ["TEXT", "TEXT", "TEXT", "TEXT"], ["seeded", 2.5m, new DateTime(2024, 1, 1), Guid.Empty]);
        }
    }

    [DbContext(typeof(MigratedContext))]
    [Migration("20240201000000_AddActive")]
    public sealed class AddActiveMigration : Migration
    {
        protected override void Up(MigrationBuilder m)
        {
            m.AddColumn<bool>("Active", "Blogs", type: "INTEGER", nullable: false, defaultValue: true);
            m.CreateIndex("IX_Blogs_Name", "Blogs", "Name", unique: true);
            m.CreateTable("Tags", t => new
            {
                Id = t.Column<int>(type: "INTEGER", nullable: false),
                BlogId = t.Column<int>(type: "INTEGER", nullable: false),
            }, constraints: t =>
            {
                t.PrimaryKey("PK_Tags", x => x.Id);
                t.ForeignKey("FK_Tags_Blogs", x => x.BlogId, "Blogs", "Id", onDelete: ReferentialAction.Cascade);
            });
            m.RenameTable("Tags", newName: "Labels");
            m.Sql("UPDATE Blogs SET Rating = '3.5' WHERE Name = 'seeded'");
        }
    }

    [Fact]
    public void MigrateAppliesHandWrittenMigrationsAndRecordsThem()
    {
        var (sqlite, sharc) = _providers.Run(c =>
        {
            string transcript;
            using (var ctx = new MigratedContext(c))
            {
                var pending = string.Join(",", ctx.Database.GetPendingMigrations());
                ctx.Database.Migrate();
                ctx.Blogs.Add(new Blog { Name = "added", Rating = 1m, Created = new DateTime(2024, 2, 2), Key = Guid.NewGuid() });
                ctx.SaveChanges();
                transcript = pending + " | " + string.Join(",", ctx.Database.GetAppliedMigrations()) + " | "
                    + string.Join(",", ctx.Blogs.OrderBy(b => b.Id).AsEnumerable().Select(b => b.Name + ":" + b.Active + ":" + b.Rating));
            }
            using (var ctx = new MigratedContext(c))
            {
                ctx.Database.Migrate(); // nothing left to apply
                transcript += " | " + string.Join(",", ctx.Database.GetPendingMigrations());
            }
            using var cmd = c.CreateCommand();
            cmd.CommandText = "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite%' ORDER BY name)";
            return transcript + " | " + cmd.ExecuteScalar();
        });
        sharc.Should().Be(sqlite);
        sharc.Should().Contain("20240101000000_Initial,20240201000000_AddActive | seeded:True:3.5,added:False:1 |  | Blogs,IX_Blogs_Name,Labels,__EFMigrationsHistory,__EFMigrationsLock");
    }
}
