using System.Diagnostics.CodeAnalysis;
using Sharc.Sql.Values;

namespace Sharc.Sql.Functions;

/// <summary>
/// The built-in scalar functions, by name (case-insensitive). min and max are scalar only with two or more
/// arguments; with one they are aggregates (<see cref="Aggregates.AggregateFunctions"/>), so look there first for
/// one-argument calls.
/// </summary>
internal static class ScalarFunctions
{
    private static readonly Dictionary<string, ScalarFunction> Functions = Build();

    private static Dictionary<string, ScalarFunction> Build()
    {
        var d = new Dictionary<string, ScalarFunction>(StringComparer.OrdinalIgnoreCase);
        void Add(string name, int min, int max, ScalarFunctionBody body, bool deterministic = true, bool collation = false)
            => d.Add(name, new ScalarFunction(name, min, max, body, deterministic, collation));

        Add("abs", 1, 1, MathFunctions.Abs);
        Add("changes", 0, 0, (_, c) => SqlValue.Integer(c.Session?.Changes ?? 0), deterministic: false);
        Add("char", 0, -1, EncodingFunctions.Char);
        Add("coalesce", 2, -1, CoreFunctions.Coalesce);
        Add("concat", 1, -1, StringFunctions.Concat);
        Add("concat_ws", 2, -1, StringFunctions.ConcatWs);
        Add("format", 0, -1, (a, _) => Printf.Function(a));
        Add("glob", 2, 2, (a, _) => LikeGlob.Glob(a[1], a[0]));
        Add("hex", 1, 1, EncodingFunctions.Hex);
        Add("if", 2, -1, CoreFunctions.Iif);
        Add("ifnull", 2, 2, CoreFunctions.Coalesce);
        Add("iif", 2, -1, CoreFunctions.Iif);
        Add("instr", 2, 2, StringFunctions.Instr);
        Add("last_insert_rowid", 0, 0, (_, c) => SqlValue.Integer(c.Session?.LastInsertRowId ?? 0), deterministic: false);
        Add("length", 1, 1, StringFunctions.Length);
        Add("like", 2, 3, (a, _) => a.Length == 3 ? LikeGlob.Like(a[1], a[0], a[2], hasEscape: true) : LikeGlob.Like(a[1], a[0]));
        Add("likelihood", 2, 2, CoreFunctions.Likelihood);
        Add("likely", 1, 1, CoreFunctions.Identity);
        Add("lower", 1, 1, StringFunctions.Lower);
        Add("ltrim", 1, 2, StringFunctions.LTrim);
        Add("max", 2, -1, CoreFunctions.Max, collation: true);
        Add("min", 2, -1, CoreFunctions.Min, collation: true);
        Add("nullif", 2, 2, CoreFunctions.NullIf, collation: true);
        Add("octet_length", 1, 1, StringFunctions.OctetLength);
        Add("printf", 0, -1, (a, _) => Printf.Function(a));
        Add("quote", 1, 1, EncodingFunctions.Quote);
        Add("random", 0, 0, MathFunctions.Random, deterministic: false);
        Add("randomblob", 1, 1, MathFunctions.RandomBlob, deterministic: false);
        Add("replace", 3, 3, StringFunctions.Replace);
        Add("round", 1, 2, MathFunctions.Round);
        Add("rtrim", 1, 2, StringFunctions.RTrim);
        Add("sign", 1, 1, MathFunctions.Sign);
        Add("substr", 2, 3, StringFunctions.Substr);
        Add("substring", 2, 3, StringFunctions.Substr);
        Add("total_changes", 0, 0, (_, c) => SqlValue.Integer(c.Session?.TotalChanges ?? 0), deterministic: false);
        Add("trim", 1, 2, StringFunctions.Trim);
        Add("typeof", 1, 1, CoreFunctions.TypeOf);
        Add("unhex", 1, 2, EncodingFunctions.Unhex);
        Add("unicode", 1, 1, EncodingFunctions.Unicode);
        Add("unlikely", 1, 1, CoreFunctions.Identity);
        Add("upper", 1, 1, StringFunctions.Upper);
        Add("zeroblob", 1, 1, MathFunctions.ZeroBlob);
        foreach (var f in MathExtensionFunctions.All()) d.Add(f.Name, f);
        foreach (var f in DateTimeFunctions.All()) d.Add(f.Name, f);
        foreach (var f in EfCoreFunctions.All()) d.Add(f.Name, f);
        foreach (var f in Json.JsonFunctions.All()) d.Add(f.Name, f);
        foreach (var f in SystemFunctions.All()) d.Add(f.Name, f);
        foreach (var f in UnicodeEscapeFunctions.All()) d.Add(f.Name, f);
        return d;
    }

    /// <summary>All registered functions.</summary>
    public static IEnumerable<ScalarFunction> All => Functions.Values;

    /// <summary>True when a function of that name exists (with any argument count).</summary>
    public static bool Exists(string name) => Functions.ContainsKey(name);

    /// <summary>The function <paramref name="name"/> when it exists and accepts <paramref name="argCount"/> arguments.</summary>
    public static bool TryGet(string name, int argCount, [NotNullWhen(true)] out ScalarFunction? function)
    {
        if (Functions.TryGetValue(name, out function) && function.Accepts(argCount)) return true;
        function = null;
        return false;
    }

    /// <summary>
    /// The function <paramref name="name"/> for <paramref name="argCount"/> arguments, or SQLite's error:
    /// "no such function: X", or "wrong number of arguments to function X()" (X as written in the call).
    /// </summary>
    public static ScalarFunction Resolve(string name, int argCount)
    {
        if (!Functions.TryGetValue(name, out var function)) SqlErrors.NoSuchFunction(name);
        if (!function.Accepts(argCount)) SqlErrors.WrongArgumentCount(name);
        return function;
    }
}
