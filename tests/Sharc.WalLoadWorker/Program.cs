using System.Globalization;
using Sharc;

// One process of the shared-WAL load: transfers between accounts until the deadline, each transaction also logging
// (worker, n) in xfer so the test can count exactly what committed; after every commit a read through a second,
// read-only connection (and now and then through the writing one) checks, row by row, that the total is conserved.
// Checkpoints of every kind run now and then. Prints "committed N reads M"; exit code 0, or 2 with the reason on
// stderr (3 when the invariant broke).
if (args.Length != 6)
{
    Console.Error.WriteLine("usage: Sharc.WalLoadWorker <db> <worker> <seed> <deadline-unix-ms> <accounts> <total>");
    return 1;
}
string path = args[0], worker = args[1];
var rng = new Random(int.Parse(args[2], CultureInfo.InvariantCulture));
// A few seconds at least, however late a loaded machine started this process.
var deadline = DateTimeOffset.FromUnixTimeMilliseconds(long.Parse(args[3], CultureInfo.InvariantCulture));
if (deadline < DateTimeOffset.UtcNow.AddSeconds(3)) deadline = DateTimeOffset.UtcNow.AddSeconds(3);
int accounts = int.Parse(args[4], CultureInfo.InvariantCulture);
long total = long.Parse(args[5], CultureInfo.InvariantCulture);
long committed = 0, reads = 0;
try
{
    var busy = TimeSpan.FromSeconds(30);
    using var db = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true, BusyTimeout = busy, WalAutoCheckpoint = rng.Next(100, 400) });
    using var ro = SharcDatabase.Open(path, new SharcOpenOptions { BusyTimeout = busy });
    while (DateTimeOffset.UtcNow < deadline)
    {
        long a = rng.Next(1, accounts + 1), b = rng.Next(1, accounts + 1), amount = rng.Next(1, 50);
        using (var tx = db.BeginTransaction())
        {
            db.Execute("UPDATE acct SET bal = bal - ?1 WHERE id = ?2", amount, a);
            db.Execute("UPDATE acct SET bal = bal + ?1 WHERE id = ?2", amount, b);
            db.Execute("INSERT INTO xfer(worker, n) VALUES(?1, ?2)", worker, committed + 1);
            tx.Commit();
        }
        committed++;
        if (!Conserved(ro) || (rng.Next(5) == 0 && !Conserved(db))) return 3;
        if (rng.Next(40) == 0) db.Checkpoint((SharcCheckpointMode)rng.Next(4));
    }
    Console.WriteLine($"committed {committed} reads {reads}");
    return 0;
}
catch (Exception e)
{
    Console.Error.WriteLine($"{worker} after {committed} commits: {e.GetType().Name}: {e.Message}");
    return 2;
}

bool Conserved(SharcDatabase on)
{
    long sum = 0, rows = 0;
    using (var reader = on.CreateReader("acct"))
        while (reader.Read())
        {
            sum += reader.GetInt64(1);
            rows++;
        }
    reads++;
    if (sum == total && rows == accounts) return true;
    Console.Error.WriteLine($"{worker}: read {rows} accounts summing to {sum}, not {accounts} summing to {total}");
    return false;
}
