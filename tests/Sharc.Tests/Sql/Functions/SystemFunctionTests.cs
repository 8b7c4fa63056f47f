using FluentAssertions;
using Sharc.Tests.Sql.Writes;

namespace Sharc.Tests.Sql.Functions;

/// <summary>
/// The functions that describe the engine, compared with SQLite 3.53.3: Sharc reports that release, whose behaviour
/// it implements, and refuses load_extension() with a message saying why.
/// </summary>
public sealed class SystemFunctionTests
{
    [Fact]
    public void Version_and_source_id_are_those_of_sqlite_3_53_3()
    {
        using var o = new WriteOracle();
        o.Ok("SELECT sqlite_version()").Rows.Should().Equal("text '3.53.3'");
        o.Ok("SELECT sqlite_source_id()");
        o.Ok("SELECT typeof(sqlite_version()), length(sqlite_source_id())");
    }

    [Theory]
    [InlineData("THREADSAFE")]
    [InlineData("SQLITE_THREADSAFE")]
    [InlineData("sqlite_threadsafe=1")]
    [InlineData("THREADSAFE=2")]
    [InlineData("THREAD")]
    [InlineData("ENABLE_MATH_FUNCTIONS")]
    [InlineData("MAX_PAGE_SIZE")]
    [InlineData("DEFAULT_PAGE_SIZE=4096")]
    [InlineData("NO_SUCH_OPTION")]
    [InlineData("")]
    public void Compile_option_used_matches_names_as_sqlite(string option)
    {
        using var o = new WriteOracle();
        o.Ok("SELECT sqlite_compileoption_used(?1)", option);
    }

    [Fact]
    public void Compile_option_functions_handle_null_numbers_and_out_of_range_indexes()
    {
        using var o = new WriteOracle();
        o.Ok("SELECT sqlite_compileoption_used(NULL), sqlite_compileoption_used(12), sqlite_compileoption_get(-1), sqlite_compileoption_get(100000), sqlite_compileoption_get(NULL) IS NULL");
        o.Both("SELECT sqlite_compileoption_used()").Error.Should().Be("wrong number of arguments to function sqlite_compileoption_used()");
        // Every index Sharc answers names an option it also reports as used.
        for (int i = 0; ; i++)
        {
            var row = o.RunSharc($"SELECT sqlite_compileoption_get({i}), sqlite_compileoption_used(sqlite_compileoption_get({i}))", []).Rows.Single();
            if (row.StartsWith("NULL")) break;
            row.Should().EndWith("int 1");
        }
    }

    [Fact]
    public void Load_extension_is_refused_as_not_supported()
    {
        using var o = new WriteOracle();
        var e = o.RunSharc("SELECT load_extension('libfoo')", []).Error;
        e.Should().Contain("load_extension() is not supported");
        o.RunSqlite("SELECT load_extension('libfoo')", []).Error.Should().NotBeNull("SQLite refuses it too (not authorized)");
        o.RunSharc("SELECT load_extension('libfoo', 'entry')", []).Error.Should().Contain("not supported");
        o.Ok("SELECT sqlite_log(1, 'message')");
    }

    [Fact]
    public void Function_list_rows_are_in_sqlite_s_list_and_sqlite_s_gaps_are_known()
    {
        using var o = new WriteOracle();
        static (string Name, string Type, string Narg) Key(string row)
        {
            var p = row.Split(", ");
            return (p[0], p[2], p[4]);
        }
        var sqlite = o.RunSqlite("PRAGMA function_list", []).Rows.Select(Key).ToHashSet();
        var sharc = o.RunSharc("PRAGMA function_list", []).Rows.Select(Key).ToList();
        sharc.Should().OnlyHaveUniqueItems();
        // Sharc lists variadic functions with narg -1; SQLite's own list uses other negative counts for some.
        var sqliteNames = sqlite.Select(k => k.Name).ToHashSet();
        var notInSqlite = sharc.Where(k => !sqlite.Contains(k) && !(k.Narg == "int -1" && sqliteNames.Contains(k.Name)))
            .Where(k => !k.Name.StartsWith("text 'ef_", StringComparison.Ordinal)).ToList();
        notInSqlite.Should().BeEmpty("Sharc lists only what SQLite has (its EF Core helpers aside)");

        // What SQLite has and Sharc lacks must be a known, documented gap (docs/COMPAT.md).
        var sharcNames = sharc.Select(k => k.Name).ToHashSet();
        // JSON (another part of the engine), FTS3/4/5, R-Tree and Geopoly (virtual-table modules Sharc does not have),
        // and the few scalars listed in docs/COMPAT.md as not implemented.
        string[] gapPrefixes = ["json", "->", "fts", "geopoly_", "rtree"];
        string[] gaps = ["bm25", "highlight", "snippet", "offsets", "matchinfo", "match", "optimize"];
        var missing = sqlite.Select(k => k.Name).Where(n => !sharcNames.Contains(n)).Distinct()
            .Where(n => !gapPrefixes.Any(g => n.StartsWith("text '" + g, StringComparison.Ordinal)) && !gaps.Any(g => n == "text '" + g + "'")).ToList();
        missing.Should().BeEmpty("every built-in SQLite lists is in Sharc or a listed gap");
    }
}
