using System.Globalization;
using System.Text;
using Microsoft.Data.Sqlite;
using Sharc.Sql.Values;

namespace Sharc.Tests.Sql.Semantics;

/// <summary>What an evaluation produced: a value, or an error message (SQLite's wording).</summary>
internal readonly record struct Outcome(SqlValue Value, string? Error)
{
    public static Outcome Of(SqlValue v) => new(v, null);

    public static Outcome Failed(string message) => new(default, message);

    /// <summary>Same storage class and same value: integers equal, reals bit for bit, text and blobs byte for byte.</summary>
    public bool SameAs(Outcome other)
    {
        if (Error is not null || other.Error is not null) return Error == other.Error;
        var a = Value;
        var b = other.Value;
        if (a.Type != b.Type) return false;
        return a.Type switch
        {
            SharcColumnType.Integer => a.IntegerValue == b.IntegerValue,
            SharcColumnType.Real => BitConverter.DoubleToInt64Bits(a.RealValue) == BitConverter.DoubleToInt64Bits(b.RealValue),
            SharcColumnType.Text or SharcColumnType.Blob => a.Bytes.SequenceEqual(b.Bytes),
            _ => true,
        };
    }

    public override string ToString() => Error is null ? Describe(Value) : "ERROR " + Error;

    public static string Describe(SqlValue v) => v.Type switch
    {
        SharcColumnType.Real => v.RealValue.ToString("R", CultureInfo.InvariantCulture) + (v.RealValue == 0 && double.IsNegative(v.RealValue) ? "(-0)" : "") + " [real]",
        SharcColumnType.Text => "'" + Encoding.UTF8.GetString(v.Bytes) + "' (" + Convert.ToHexString(v.Bytes) + ") [text]",
        _ => v + " [" + v.TypeName + "]",
    };
}

/// <summary>
/// Real SQLite, in memory, answering <c>SELECT expr</c> with parameters or literals; results come back with their
/// storage class and exact bytes (text as raw UTF-8, reals bit for bit).
/// </summary>
internal sealed class SemanticsOracle : IDisposable
{
    private readonly SqliteConnection _c;
    private readonly Dictionary<string, SqliteCommand> _commands = new();

    public SemanticsOracle()
    {
        _c = new SqliteConnection("Data Source=:memory:;Pooling=False");
        _c.Open();
    }

    public SqliteConnection Connection => _c;

    public void Exec(string sql, params SqlValue[] args)
    {
        using var cmd = _c.CreateCommand();
        cmd.CommandText = sql;
        for (int i = 0; i < args.Length; i++) cmd.Parameters.AddWithValue("@p" + i, ToParameter(args[i]));
        cmd.ExecuteNonQuery();
    }

    /// <summary>
    /// Evaluates a template whose operands are written {0}, {1}, …: with <paramref name="literal"/> they become SQL
    /// literals, otherwise bound parameters (text SQLite cannot receive as a .NET string is bound as a blob and
    /// cast, inside an expression without affinity).
    /// </summary>
    public Outcome Eval(string template, SqlValue[] args, bool literal = false) => EvalRow(template, args, literal)[0];

    /// <summary>Evaluates several comma-separated expressions of one SELECT; one outcome each (an error fails all).</summary>
    public Outcome[] EvalRow(string template, SqlValue[] args, bool literal = false, string? from = null)
    {
        var sql = "SELECT " + Substitute(template, args, literal) + (from is null ? "" : " FROM " + from);
        if (!_commands.TryGetValue(sql, out var cmd))
        {
            if (_commands.Count > 2000)
            {
                foreach (var c in _commands.Values) c.Dispose();
                _commands.Clear();
            }
            cmd = _c.CreateCommand();
            cmd.CommandText = sql;
            _commands[sql] = cmd;
        }
        cmd.Parameters.Clear();
        if (!literal)
        {
            for (int i = 0; i < args.Length; i++) cmd.Parameters.AddWithValue("@p" + i, ToParameter(args[i]));
        }
        try
        {
            using var r = cmd.ExecuteReader();
            if (!r.Read()) return [Outcome.Failed("no row")];
            var result = new Outcome[r.FieldCount];
            for (int i = 0; i < result.Length; i++) result[i] = Outcome.Of(Read(r, i));
            return result;
        }
        catch (SqliteException e)
        {
            return [Outcome.Failed(ErrorText(e))];
        }
    }

    public static SqlValue Read(SqliteDataReader r, int i)
    {
        if (r.IsDBNull(i)) return SqlValue.Null;
        return r.GetValue(i) switch
        {
            long l => SqlValue.Integer(l),
            double d => SqlValue.Real(d),
            string => SqlValue.CopyText(r.GetFieldValue<byte[]>(i)),
            byte[] b => SqlValue.OwnedBlob(b),
            var o => throw new InvalidOperationException(o.GetType().Name),
        };
    }

    public static string ErrorText(SqliteException e)
    {
        var m = e.Message;
        int a = m.IndexOf('\''), b = m.LastIndexOf('\'');
        return a >= 0 && b > a ? m[(a + 1)..b] : m;
    }

    private static string Substitute(string template, SqlValue[] args, bool literal)
    {
        var sb = new StringBuilder(template);
        for (int i = args.Length - 1; i >= 0; i--)
        {
            string token = "{" + i + "}";
            string with = literal ? Literal(args[i]) : ParameterExpression(args[i], i);
            sb.Replace(token, with);
        }
        return sb.ToString();
    }

    /// <summary>True when SQLite can receive the text as a .NET string without changing its bytes.</summary>
    public static bool IsPlainText(in SqlValue v)
    {
        if (v.Type != SharcColumnType.Text) return false;
        var b = v.Bytes;
        if (b.IndexOf((byte)0) >= 0) return false;
        return System.Text.Unicode.Utf8.IsValid(b);
    }

    private static string ParameterExpression(SqlValue v, int i)
        => v.Type == SharcColumnType.Text && !IsPlainText(v) ? $"(''||CAST(@p{i} AS TEXT))" : "@p" + i;

    private static object ToParameter(SqlValue v) => v.Type switch
    {
        SharcColumnType.Null => DBNull.Value,
        SharcColumnType.Integer => v.IntegerValue,
        SharcColumnType.Real => v.RealValue,
        SharcColumnType.Text => IsPlainText(v) ? Encoding.UTF8.GetString(v.Bytes) : v.Bytes.ToArray(),
        _ => v.Bytes.ToArray(),
    };

    /// <summary>The value as SQL source text that evaluates to exactly it.</summary>
    public static string Literal(SqlValue v)
    {
        switch (v.Type)
        {
            case SharcColumnType.Null:
                return "NULL";
            case SharcColumnType.Integer:
                return v.IntegerValue.ToString(CultureInfo.InvariantCulture);
            case SharcColumnType.Real:
            {
                double r = v.RealValue;
                if (double.IsPositiveInfinity(r)) return "1e999";
                if (double.IsNegativeInfinity(r)) return "-1e999";
                if (r == 0) return double.IsNegative(r) ? "-0.0" : "0.0";
                var s = r.ToString("R", CultureInfo.InvariantCulture);
                if (!s.Contains('.') && !s.Contains('E')) s += ".0";
                return s;
            }
            case SharcColumnType.Text:
                if (IsPlainText(v)) return "'" + Encoding.UTF8.GetString(v.Bytes).Replace("'", "''") + "'";
                return "(''||CAST(x'" + Convert.ToHexString(v.Bytes) + "' AS TEXT))";
            default:
                return "x'" + Convert.ToHexString(v.Bytes) + "'";
        }
    }

    public void Dispose()
    {
        foreach (var c in _commands.Values) c.Dispose();
        _c.Dispose();
    }
}
