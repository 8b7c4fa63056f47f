using Sharc.Sql.Functions;
using Sharc.Sql.Values;
using static Sharc.Tests.Sql.Semantics.ValuePool;

namespace Sharc.Tests.Sql.Semantics;

/// <summary>LIKE, LIKE … ESCAPE and GLOB against SQLite on seeded random patterns.</summary>
public class LikeGlobTests : IClassFixture<OracleFixture>
{
    private readonly SemanticsOracle _oracle;

    public LikeGlobTests(OracleFixture fixture) => _oracle = fixture.Oracle;

    [Fact]
    public void LikeMatchesPercentUnderscoreAndAsciiCaseInsensitively()
    {
        var d = new Differential(_oracle);
        var rng = new Random(41);
        for (int i = 0; i < 4000; i++)
        {
            var s = rng.Next(8) == 0 ? Any(rng) : RandomText(rng, "aAbBÉé_%x", 6);
            var p = rng.Next(8) == 0 ? Any(rng) : RandomText(rng, "aAbBÉé_%%x", 5);
            d.Check("({0} LIKE {1})", [s, p], a => LikeGlob.Like(a[0], a[1]));
            d.Check("({0} NOT LIKE {1})", [s, p], a => SqlLogic.Not(LikeGlob.Like(a[0], a[1])), literalsToo: false);
        }
        d.AssertAgrees(12000);
    }

    [Fact]
    public void LikeEscapeMakesTheNextCharacterLiteral()
    {
        var d = new Differential(_oracle);
        var rng = new Random(42);
        var escapes = new[] { T("\\"), T("%"), T("_"), T("a"), T("É"), T(""), T("ab"), SqlValue.Null, I(1) };
        for (int i = 0; i < 3000; i++)
        {
            var s = RandomText(rng, "ab_%\\É1", 5);
            var p = RandomText(rng, "ab_%\\É1", 5);
            var e = Pick(rng, escapes);
            d.Check("({0} LIKE {1} ESCAPE {2})", [s, p, e], a => LikeGlob.Like(a[0], a[1], a[2], hasEscape: true));
            d.Check("like({1}, {0}, {2})", [s, p, e], a => ScalarFunctions.Resolve("like", 3).Invoke([a[1], a[0], a[2]]), literalsToo: false);
        }
        d.AssertAgrees(9000);
    }

    [Fact]
    public void GlobMatchesStarQuestionAndCharacterSets()
    {
        var d = new Differential(_oracle);
        var rng = new Random(43);
        for (int i = 0; i < 5000; i++)
        {
            var s = rng.Next(8) == 0 ? Any(rng) : RandomText(rng, "abcA-]^É[", 5);
            var p = rng.Next(8) == 0 ? Any(rng) : RandomText(rng, "abcA*?[]^-É", 6);
            d.Check("({0} GLOB {1})", [s, p], a => LikeGlob.Glob(a[0], a[1]));
        }
        d.AssertAgrees(10000);
    }

    [Fact]
    public void LikeAndGlobSeeTextOnlyUpToANul()
    {
        var d = new Differential(_oracle);
        var values = new[] { RawText("41004243"), RawText("00"), B("610062"), T("a%"), T("A"), T("%b"), RawText("FF"), RawText("C3A9"), T("_") };
        foreach (var s in values)
        {
            foreach (var p in values)
            {
                d.Check("({0} LIKE {1})", [s, p], a => LikeGlob.Like(a[0], a[1]));
                d.Check("({0} GLOB {1})", [s, p], a => LikeGlob.Glob(a[0], a[1]));
            }
        }
        d.AssertAgrees(150);
    }

    [Fact]
    public void OverlongLikePatternsAreRejected()
    {
        var pattern = SqlValue.Text(new string('%', 50_001));
        var act = () => LikeGlob.Like(T("a"), pattern);
        act.Should().Throw<SqlRuntimeException>().WithMessage("LIKE or GLOB pattern too complex");
        _oracle.Eval("({0} LIKE {1})", [T("a"), pattern]).Error.Should().Be("LIKE or GLOB pattern too complex");
    }
}
