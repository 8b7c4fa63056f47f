using Sharc.Format;
using Sharc.Sql.Ast;
using Sharc.Sql.Functions;

namespace Sharc.Sql.Intent;

internal sealed partial class IntentCompiler
{
    // x -> p and x ->> p are calls of the functions SQLite registers under those names.
    private IntentExpr JsonArrow(SqlBinaryExpr b, Scope scope, Clause clause)
    {
        var function = ScalarFunctions.Resolve(b.Operator == SqlBinaryOperator.JsonExtract ? "->" : "->>", 2);
        var l = Expr(b.Left, scope, clause);
        var r = Expr(b.Right, scope, clause);
        return new FunctionExpr(function, [l, r], Collation.Binary) { HasCollate = l.HasCollate || r.HasCollate, Offset = b.Start };
    }
}
