using FluentAssertions;
using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Sql.Attach;

/// <summary>
/// A transaction over main and an attached file, crashed at each of its writes and syncs in turn: afterwards SQLite
/// (and Sharc) must find both files before the transaction or both after it — the super-journal protocol — and
/// each file must pass integrity_check.
/// </summary>
public class AttachCrashTests
{
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void A_commit_across_two_files_is_all_or_nothing_at_every_crash_point(bool tear)
    {
        using var dir = new TempDir();
        string seedMain = dir.File("seed.db"), seedAux = dir.File("seed-aux.db");
        Oracle.Exec(seedMain, "CREATE TABLE t(a)", "INSERT INTO t VALUES (1)");
        Oracle.Exec(seedAux, "CREATE TABLE u(b)", "INSERT INTO u VALUES (1)");
        var options = new SharcOpenOptions { Writable = true };

        void Work(SharcDatabase db, string aux)
        {
            db.Execute($"ATTACH '{aux}' AS aux");
            db.Execute("BEGIN; INSERT INTO t SELECT a + 1 FROM t; INSERT INTO aux.u SELECT b + 1 FROM aux.u; " +
                       "INSERT INTO t VALUES (randomblob(5000)); INSERT INTO aux.u VALUES (randomblob(5000)); COMMIT");
        }

        var counter = new FaultyStorage();
        string cleanMain = dir.File("clean.db"), cleanAux = dir.File("clean-aux.db");
        File.Copy(seedMain, cleanMain);
        File.Copy(seedAux, cleanAux);
        using (var db = SharcDatabase.OpenWritable(cleanMain, options, counter)) Work(db, cleanAux);
        int total = counter.Operations;
        total.Should().BeGreaterThan(4);
        Counts(cleanMain, cleanAux).Should().Be((3, 3));

        int before = 0, after = 0;
        for (int crashAt = 1; crashAt <= total; crashAt++)
        {
            string main = dir.File($"c{crashAt}.db"), aux = dir.File($"c{crashAt}-aux.db");
            File.Copy(seedMain, main);
            File.Copy(seedAux, aux);
            var fs = new FaultyStorage { CrashAt = crashAt, Tear = tear };
            try
            {
                using var db = SharcDatabase.OpenWritable(main, options, fs);
                Work(db, aux);
            }
            catch (Exception e) when (e is IOException or SharcException)
            {
            }
            fs.Crashed.Should().BeTrue($"operation {crashAt} of {total} crashes");

            // Sharc, opening the crashed files, recovers them the same way.
            var sharc = SharcCounts(main, aux);
            // SQLite opens them afterwards (Sharc's recovery left nothing to do, or the same to do).
            var sqlite = Counts(main, aux);
            sqlite.Should().Be(sharc, $"crash at {crashAt}");
            sqlite.Should().BeOneOf([(1, 1), (3, 3)], $"crash at operation {crashAt} of {total} leaves both files before or both after");
            if (sqlite == (1, 1)) before++;
            else after++;
            Oracle.IntegrityCheck(main).Should().Be("ok");
            Oracle.IntegrityCheck(aux).Should().Be("ok");
        }
        before.Should().BeGreaterThan(0);
        after.Should().BeGreaterThan(0);
    }

    [Fact]
    public void Sqlite_recovers_crashed_files_as_sharc_does()
    {
        // The crash is undone by SQLite alone here (Sharc does not open the files again first).
        using var dir = new TempDir();
        string seedMain = dir.File("seed.db"), seedAux = dir.File("seed-aux.db");
        Oracle.Exec(seedMain, "CREATE TABLE t(a)", "INSERT INTO t VALUES (1)");
        Oracle.Exec(seedAux, "CREATE TABLE u(b)", "INSERT INTO u VALUES (1)");
        var options = new SharcOpenOptions { Writable = true };
        var counter = new FaultyStorage();
        int total;
        {
            string m = dir.File("n.db"), a = dir.File("n-aux.db");
            File.Copy(seedMain, m);
            File.Copy(seedAux, a);
            using (var db = SharcDatabase.OpenWritable(m, options, counter))
                db.Execute($"ATTACH '{a}' AS aux; BEGIN; INSERT INTO t VALUES (2); INSERT INTO aux.u VALUES (2); COMMIT");
            total = counter.Operations;
        }
        for (int crashAt = 1; crashAt <= total; crashAt++)
        {
            string main = dir.File($"s{crashAt}.db"), aux = dir.File($"s{crashAt}-aux.db");
            File.Copy(seedMain, main);
            File.Copy(seedAux, aux);
            var fs = new FaultyStorage { CrashAt = crashAt };
            try
            {
                using var db = SharcDatabase.OpenWritable(main, options, fs);
                db.Execute($"ATTACH '{aux}' AS aux; BEGIN; INSERT INTO t VALUES (2); INSERT INTO aux.u VALUES (2); COMMIT");
            }
            catch (Exception e) when (e is IOException or SharcException)
            {
            }
            Counts(main, aux).Should().BeOneOf([(1, 1), (2, 2)], $"crash at operation {crashAt} of {total}");
        }
    }

    private static (long, long) Counts(string main, string aux)
    {
        using var c = Oracle.Open(main);
        Oracle.Exec(c, $"ATTACH '{aux}' AS aux");
        return ((long)Oracle.Scalar(c, "SELECT count(*) FROM t")!, (long)Oracle.Scalar(c, "SELECT count(*) FROM aux.u")!);
    }

    private static (long, long) SharcCounts(string main, string aux)
    {
        using var db = SharcDatabase.Open(main, new SharcOpenOptions { Writable = true });
        db.Execute($"ATTACH '{aux}' AS aux");
        using var r = db.Query("SELECT (SELECT count(*) FROM t), (SELECT count(*) FROM aux.u)");
        r.Read();
        return (r.GetInt64(0), r.GetInt64(1));
    }
}
