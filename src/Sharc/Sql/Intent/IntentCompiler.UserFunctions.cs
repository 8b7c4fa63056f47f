using Sharc.Format;
using Sharc.Sql.Ast;
using Sharc.Sql.Functions;
using Sharc.Sql.Functions.Aggregates;

namespace Sharc.Sql.Intent;

/// <summary>
/// Calls of functions registered on the database (<see cref="UserFunctionRegistry"/>): they are found before the
/// built-ins of the same name and argument count, as SQLite finds a function registered on the connection, and a
/// registered like(), glob(), regexp() or match() implements its operator.
/// </summary>
internal sealed partial class IntentCompiler
{
    private static bool IsUserScalar(string name, int argc)
        => UserFunctionRegistry.Current is { IsEmpty: false } user && user.TryGetScalar(name, argc, out _);

    private static Func<SqlAggregate>? UserAggregate(string name, int argc)
        => UserFunctionRegistry.Current is { IsEmpty: false } user && user.TryGetAggregate(name, argc, out var factory) ? factory : null;

    /// <summary>Whether a call (not a window call) is an aggregate: a registered aggregate, or a built-in one no registered scalar hides.</summary>
    internal static bool IsAggregateCall(SqlFunctionExpr f)
    {
        if (f.IsWindowCall) return false;
        int argc = f.Star ? 0 : f.Arguments.Count;
        if (UserAggregate(f.Name, argc) is not null) return true;
        return AggregateFunctions.IsAggregate(f.Name, argc) && !IsUserScalar(f.Name, argc);
    }

    /// <summary>A call of a registered function, or null when none of that name and argument count is registered.</summary>
    private IntentExpr? UserFunction(SqlFunctionExpr f, int argc, UserFunctionRegistry user, Scope scope, Clause clause)
    {
        if (user.TryGetAggregate(f.Name, argc, out _)) return Aggregate(f, argc, scope, clause);
        if (!user.TryGetScalar(f.Name, argc, out var function))
        {
            bool registered = user.HasScalar(f.Name) || user.HasAggregate(f.Name);
            bool builtIn = ScalarFunctions.TryGet(f.Name, argc, out _);
            if (registered && !builtIn) throw Error($"wrong number of arguments to function {f.Name}()", f.Start);
            return null;
        }
        if (f.Filter is not null) throw Error($"FILTER may not be used with non-aggregate {f.Name}()", f.Start);
        if (f.OrderBy.Count > 0) throw Error($"ORDER BY may not be used with non-aggregate {f.Name}()", f.Start);
        if (f.Star) throw Error($"no such function: {f.Name}", f.Start);
        var args = new IntentExpr[argc];
        bool collate = false;
        for (int i = 0; i < argc; i++)
        {
            args[i] = Expr(f.Arguments[i], scope, clause);
            collate |= args[i].HasCollate;
        }
        return new FunctionExpr(function, args, Collation.Binary) { HasCollate = collate, Offset = f.Start };
    }

    /// <summary>
    /// X LIKE Y [ESCAPE Z], X GLOB Y, X REGEXP Y and X MATCH Y through a registered like(Y, X[, Z]), glob(Y, X),
    /// regexp(Y, X) or match(Y, X) (pattern first, as SQLite calls them), or null when none is registered.
    /// </summary>
    private IntentExpr? UserLike(SqlLikeExpr l, Scope scope, Clause clause)
    {
        if (UserFunctionRegistry.Current is not { IsEmpty: false } user) return null;
        string name = l.Operator switch
        {
            SqlLikeOperator.Glob => "glob",
            SqlLikeOperator.Regexp => "regexp",
            SqlLikeOperator.Match => "match",
            _ => "like",
        };
        int argc = l.Escape is null ? 2 : 3;
        if (!user.TryGetScalar(name, argc, out var function)) return null;
        var x = Expr(l.Operand, scope, clause);
        var p = Expr(l.Pattern, scope, clause);
        IntentExpr[] args = l.Escape is null ? [p, x] : [p, x, Expr(l.Escape, scope, clause)];
        bool collate = args.Any(a => a.HasCollate);
        IntentExpr call = new FunctionExpr(function, args, Collation.Binary) { HasCollate = collate, Offset = l.Start };
        return l.Not ? new UnaryExpr(IntentUnaryOp.Not, call) { Offset = l.Start } : call;
    }
}
