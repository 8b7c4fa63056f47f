using System.Globalization;
using Sharc.Sql.Ast;
using Sharc.Sql.Functions;
using Sharc.Sql.Values;

namespace Sharc.Sql.Intent;

/// <summary>CURRENT_TIME, CURRENT_DATE and CURRENT_TIMESTAMP: the UTC clock, formatted as SQLite formats it.</summary>
internal static class CurrentTime
{
    private static readonly ScalarFunction Time = Make("current_time", "HH:mm:ss");
    private static readonly ScalarFunction Date = Make("current_date", "yyyy-MM-dd");
    private static readonly ScalarFunction Timestamp = Make("current_timestamp", "yyyy-MM-dd HH:mm:ss");

    public static ScalarFunction For(SqlCurrentTimeKind kind) => kind switch
    {
        SqlCurrentTimeKind.Time => Time,
        SqlCurrentTimeKind.Date => Date,
        _ => Timestamp,
    };

    private static ScalarFunction Make(string name, string format)
        => new(name, 0, 0, (_, _) => SqlValue.Text(DateTime.UtcNow.ToString(format, CultureInfo.InvariantCulture)), deterministic: false);
}
