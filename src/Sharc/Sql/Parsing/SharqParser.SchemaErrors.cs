using Sharc.Schema.Parsing;

namespace Sharc.Sql.Parsing;

/// <summary>
/// Puts the schema reader's CREATE TABLE errors in SQLite's order. That parser checks a rule (a duplicate column,
/// AUTOINCREMENT on the wrong column, a non-constant DEFAULT, an expression in a PRIMARY KEY) as soon as it has
/// read the construct; SQLite checks it when it reduces the construct, which it only does once the next token
/// shows the construct is complete. So when that token cannot follow, SQLite's error is a syntax error there, and
/// any syntax error inside the construct comes first.
/// </summary>
internal sealed partial class SharqParser
{
    /// <summary>What may follow a column definition or a constraint inside a column list.</summary>
    private static readonly string[] ConstraintWords =
        ["CONSTRAINT", "DEFAULT", "NULL", "NOT", "PRIMARY", "UNIQUE", "CHECK", "REFERENCES", "COLLATE", "GENERATED", "AS", "DEFERRABLE", "FOREIGN"];

    private static bool IsSyntaxMessage(string message)
        => message.StartsWith("near \"", StringComparison.Ordinal) || message == "incomplete input"
           || message.StartsWith("unrecognized token", StringComparison.Ordinal);

    /// <summary>
    /// The error SQLite would report instead of <paramref name="error"/>, raised by the schema parser when the next
    /// token it would have read was token <paramref name="reached"/>, and the offset from which Sharq's own errors
    /// in the column list (starting at token <paramref name="first"/>) no longer come first.
    /// </summary>
    private (SqlSyntaxException Error, int Stop) ReconcileSchemaError(SqlSyntaxException error, int reached, int first, bool singleColumn)
    {
        if (IsSyntaxMessage(error.Message)) return (error, error.Offset);
        try
        {
            int at = first;
            while (_ts.At(at).Start < error.Offset && _ts.At(at).Kind != SqlTokenKind.EndOfInput) at++;
            var errorToken = _ts.At(at);
            if (error.Message.StartsWith("unknown table option", StringComparison.Ordinal))
            {
                var next = _ts.At(at + 1);
                bool follows = next.Kind is SqlTokenKind.Comma or SqlTokenKind.Semicolon or SqlTokenKind.EndOfInput;
                return follows ? (error, int.MaxValue) : (_ts.SyntaxError(next), next.Start);
            }
            // The word after a generated column's expression must be a plain identifier, which INDEXED is not.
            if (error.Message.StartsWith("error in generated column", StringComparison.Ordinal) && _ts.WordClass(errorToken) == SqlWordClass.Indexed)
            {
                return (_ts.SyntaxError(errorToken), errorToken.Start);
            }
            // Rules checked at the end of the table (after the closing ")") are not affected.
            int depth = 0;
            for (int i = first; i < reached; i++)
            {
                var kind = _ts.At(i).Kind;
                if (kind == SqlTokenKind.LeftParen) depth++;
                else if (kind == SqlTokenKind.RightParen && depth-- == 0) return (error, int.MaxValue);
            }
            var following = _ts.At(reached);
            bool valid = following.Kind is SqlTokenKind.Comma or SqlTokenKind.RightParen
                         || (singleColumn && following.Kind is SqlTokenKind.Semicolon or SqlTokenKind.EndOfInput)
                         || ConstraintWords.Any(w => _ts.IsWord(following, w));
            return valid ? (error, following.Start) : (_ts.SyntaxError(following), following.Start);
        }
        catch (SqlSyntaxException lexError)
        {
            // An unrecognized token where SQLite would look for the next one: that is what it reports.
            return (lexError, lexError.Offset);
        }
    }
}
