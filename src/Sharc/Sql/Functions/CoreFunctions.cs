using Sharc.Sql.Values;

namespace Sharc.Sql.Functions;

/// <summary>NULL handling, conditionals, typeof, planner hints, and the multi-argument min()/max().</summary>
internal static class CoreFunctions
{
    /// <summary>coalesce(X, Y, …) and ifnull(X, Y): the first argument that is not NULL, else NULL.</summary>
    public static SqlValue Coalesce(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        foreach (ref readonly var v in a)
        {
            if (!v.IsNull) return v;
        }
        return SqlValue.Null;
    }

    /// <summary>nullif(X, Y): NULL when X equals Y under the call's collation (no affinity), else X.</summary>
    public static SqlValue NullIf(ReadOnlySpan<SqlValue> a, FunctionContext ctx)
        => SqlCompare.Compare(a[0], a[1], ctx.Collation) == 0 ? SqlValue.Null : a[0];

    /// <summary>
    /// iif(C1, V1 [, C2, V2 …] [, ELSE]) and if(): the value after the first true condition, else the trailing ELSE
    /// argument (when the count is odd), else NULL. SQLite rewrites iif into CASE, so only the chosen branch is
    /// evaluated; an executor that wants that laziness should do the same rather than call this.
    /// </summary>
    public static SqlValue Iif(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        int i = 0;
        for (; i + 1 < a.Length; i += 2)
        {
            if (SqlLogic.IsTrue(a[i])) return a[i + 1];
        }
        return i < a.Length ? a[i] : SqlValue.Null;
    }

    /// <summary>typeof(X).</summary>
    public static SqlValue TypeOf(ReadOnlySpan<SqlValue> a, FunctionContext _) => TypeNames[(int)a[0].Type];

    private static readonly SqlValue[] TypeNames =
    [
        SqlValue.Text("null"), SqlValue.Text("integer"), SqlValue.Text("real"), SqlValue.Text("text"), SqlValue.Text("blob"),
    ];

    /// <summary>likely(X), unlikely(X): X (they only advise the planner).</summary>
    public static SqlValue Identity(ReadOnlySpan<SqlValue> a, FunctionContext _) => a[0];

    /// <summary>
    /// likelihood(X, Y): X. Y must be a real between 0.0 and 1.0 — SQLite checks that it is such a constant when the
    /// statement is prepared; here it is checked at the call.
    /// </summary>
    public static SqlValue Likelihood(ReadOnlySpan<SqlValue> a, FunctionContext _)
    {
        var y = a[1];
        if (y.Type != SharcColumnType.Real || y.RealValue is < 0.0 or > 1.0)
            SqlErrors.Throw("second argument to likelihood() must be a constant between 0.0 and 1.0");
        return a[0];
    }

    /// <summary>min(X, Y, …): the smallest argument under the call's collation; NULL when any argument is NULL. Of equal arguments, the last wins.</summary>
    public static SqlValue Min(ReadOnlySpan<SqlValue> a, FunctionContext ctx)
    {
        int best = 0;
        if (a[0].IsNull) return SqlValue.Null;
        for (int i = 1; i < a.Length; i++)
        {
            if (a[i].IsNull) return SqlValue.Null;
            if (SqlCompare.Compare(a[best], a[i], ctx.Collation) >= 0) best = i;
        }
        return a[best];
    }

    /// <summary>max(X, Y, …): the largest argument under the call's collation; NULL when any argument is NULL. Of equal arguments, the first wins.</summary>
    public static SqlValue Max(ReadOnlySpan<SqlValue> a, FunctionContext ctx)
    {
        int best = 0;
        if (a[0].IsNull) return SqlValue.Null;
        for (int i = 1; i < a.Length; i++)
        {
            if (a[i].IsNull) return SqlValue.Null;
            if (SqlCompare.Compare(a[best], a[i], ctx.Collation) < 0) best = i;
        }
        return a[best];
    }
}
