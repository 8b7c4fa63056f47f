using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Conformance;

/// <summary>
/// Seeded bit-flip and truncation fuzzing of fixture databases: every mutant is read or rejected with a
/// SharcException, each within a time bound. Seeds are fixed, so a failure names a reproducible case.
/// </summary>
public class FuzzTests
{
    private static byte[] Fixture(int pageSize, string encoding, int autoVacuum)
    {
        using var dir = new TempDir();
        string path = dir.File("f.db");
        FixtureBuilder.Build(path, new FixtureSpec(pageSize, encoding, autoVacuum, Rows: 60, Seed: pageSize + autoVacuum));
        return File.ReadAllBytes(path);
    }

    public static IEnumerable<object[]> Seeds() => [[512, "UTF-8", 0], [1024, "UTF-16le", 1], [4096, "UTF-8", 2]];

    [Theory]
    [MemberData(nameof(Seeds))]
    public void BitFlippedDatabasesAreReadOrRejected(int pageSize, string encoding, int autoVacuum)
    {
        byte[] image = Fixture(pageSize, encoding, autoVacuum);
        var rng = new Random(pageSize * 31 + autoVacuum);
        var failures = new List<string>();
        for (int round = 0; round < 700; round++)
        {
            byte[] m = (byte[])image.Clone();
            int flips = 1 + rng.Next(8);
            for (int f = 0; f < flips; f++)
            {
                // Aim half of the flips at the first bytes of pages, where headers and pointers live.
                int pos = rng.Next(2) == 0 ? rng.Next(m.Length) : rng.Next(m.Length / pageSize) * pageSize + rng.Next(Math.Min(pageSize, 120));
                m[pos] ^= (byte)(1 << rng.Next(8));
            }
            var outcome = Hostile.Run(() => Hostile.ReadEverything(() => SharcDatabase.OpenMemory(m)), seconds: 10);
            if (outcome?.Unexpected is not null) failures.Add($"round {round}: {outcome.Unexpected.GetType().Name}: {outcome.Unexpected.Message}\n{outcome.Unexpected.StackTrace}");
        }
        failures.Should().BeEmpty();
    }

    [Theory]
    [MemberData(nameof(Seeds))]
    public void TruncatedDatabasesAreReadOrRejected(int pageSize, string encoding, int autoVacuum)
    {
        byte[] image = Fixture(pageSize, encoding, autoVacuum);
        var rng = new Random(pageSize * 17 + autoVacuum);
        var failures = new List<string>();
        for (int round = 0; round < 150; round++)
        {
            int len = round < 20 ? round * 7 : rng.Next(image.Length);
            byte[] m = image[..len];
            var outcome = Hostile.Run(() => Hostile.ReadEverything(() => SharcDatabase.OpenMemory(m)), seconds: 10);
            if (outcome?.Unexpected is not null) failures.Add($"length {len}: {outcome.Unexpected.GetType().Name}: {outcome.Unexpected.Message}\n{outcome.Unexpected.StackTrace}");
        }
        failures.Should().BeEmpty();
    }

    [Fact]
    public void RandomBytesAreNotADatabase()
    {
        var rng = new Random(5);
        for (int i = 0; i < 50; i++)
        {
            byte[] junk = new byte[rng.Next(1, 10000)];
            rng.NextBytes(junk);
            var act = () => SharcDatabase.OpenMemory(junk);
            act.Should().Throw<SharcFormatException>().WithMessage("*not a database*");
        }
    }
}
