using Sharc.Sql.Ast;
using Sharc.Sql.Functions;

namespace Sharc.Sql.Intent;

/// <summary>
/// CURRENT_TIME, CURRENT_DATE and CURRENT_TIMESTAMP: time('now'), date('now') and datetime('now'), so they read the
/// statement's clock and agree with those functions within one execution.
/// </summary>
internal static class CurrentTime
{
    private static readonly ScalarFunction Time = new("current_time", 0, 0, (a, c) => DateTimeFunctions.Time(a, c, "current_time"), deterministic: false);
    private static readonly ScalarFunction Date = new("current_date", 0, 0, (a, c) => DateTimeFunctions.Date(a, c, "current_date"), deterministic: false);
    private static readonly ScalarFunction Timestamp = new("current_timestamp", 0, 0, (a, c) => DateTimeFunctions.DateTime(a, c, "current_timestamp"), deterministic: false);

    public static ScalarFunction For(SqlCurrentTimeKind kind) => kind switch
    {
        SqlCurrentTimeKind.Time => Time,
        SqlCurrentTimeKind.Date => Date,
        _ => Timestamp,
    };
}
