using Sharc.Format;
using System.Text;
using Sharc.Sql.Values;

namespace Sharc.Tests.Sql.Semantics;

/// <summary>One SQLite connection shared by the tests of a class (xunit class fixture).</summary>
public sealed class OracleFixture : IDisposable
{
    internal SemanticsOracle Oracle { get; } = new();

    public void Dispose() => Oracle.Dispose();
}

/// <summary>
/// Runs expressions through SQLite and through Sharc and collects every disagreement (value or storage class, or
/// error text), so a failing test lists the cases rather than stopping at the first.
/// </summary>
internal sealed class Differential
{
    private readonly SemanticsOracle _oracle;
    private readonly List<string> _failures = new();

    public Differential(SemanticsOracle oracle) => _oracle = oracle;

    public int Cases { get; private set; }

    /// <summary>Evaluates our side, turning our SQL errors into outcomes.</summary>
    public static Outcome Run(Func<SqlValue> f)
    {
        try
        {
            return Outcome.Of(f());
        }
        catch (SqlRuntimeException e)
        {
            return Outcome.Failed(e.Message);
        }
    }

    /// <summary>Compares <paramref name="template"/> ({0}, {1} … for the operands) in SQLite, bound and as literals, with <paramref name="mine"/>.</summary>
    public void Check(string template, SqlValue[] args, Func<SqlValue[], SqlValue> mine, bool literalsToo = true)
    {
        var actual = Run(() => mine(args));
        Compare(template, args, _oracle.Eval(template, args), actual, "");
        if (!literalsToo) return;
        // SQLite reads a real literal with its own text conversion, which is not always the nearest double.
        var parsed = args.Select(AsParsedLiteral).ToArray();
        var actualFromLiterals = parsed.AsSpan().SequenceEqual(args) ? actual : Run(() => mine(parsed));
        Compare(template, args, _oracle.Eval(template, args, literal: true), actualFromLiterals, " (literals)");
    }

    /// <summary>The value SQLite's tokenizer makes of the literal <see cref="SemanticsOracle.Literal"/> writes.</summary>
    public static SqlValue AsParsedLiteral(SqlValue v)
    {
        if (v.Type != SharcColumnType.Real) return v;
        var text = SemanticsOracle.Literal(v);
        bool negative = text.StartsWith('-');
        double r = SqlRealParser.Parse(Encoding.ASCII.GetBytes(negative ? text[1..] : text));
        return SqlValue.Real(negative ? -r : r);
    }

    public void Compare(string template, SqlValue[] args, Outcome expected, Outcome actual, string note)
    {
        Cases++;
        if (expected.SameAs(actual)) return;
        _failures.Add($"{Render(template, args)}{note}: SQLite {expected}, Sharc {actual}");
    }

    public void Fail(string message)
    {
        Cases++;
        _failures.Add(message);
    }

    public static string Render(string template, SqlValue[] args)
    {
        var sb = new StringBuilder(template);
        for (int i = args.Length - 1; i >= 0; i--) sb.Replace("{" + i + "}", SemanticsOracle.Literal(args[i]));
        return sb.ToString();
    }

    /// <summary>Fails with the first disagreements, and checks that enough cases ran.</summary>
    public void AssertAgrees(int minimumCases)
    {
        Cases.Should().BeGreaterThanOrEqualTo(minimumCases);
        if (_failures.Count == 0) return;
        var shown = string.Join("\n", _failures.Take(40));
        Assert.Fail($"{_failures.Count} of {Cases} cases disagree with SQLite:\n{shown}\n");
    }
}
