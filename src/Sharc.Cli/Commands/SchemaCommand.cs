using System.Globalization;
using System.Text;
using Sharc.Cli.Output;

namespace Sharc.Cli.Commands;

/// <summary><c>sharc schema &lt;db&gt;</c>: the tables, indexes, views and triggers of a database, as readable text.</summary>
internal sealed class SchemaCommand : ICommand
{
    private static readonly OptionSpec[] Options = [];

    private static readonly string[] ColumnHeader =
        ["column", "type", "affinity", "not null", "default", "pk", "collation", "rowid alias", "generated"];

    public string Name => "schema";

    public string Synopsis => "schema <db>";

    public string Summary => "describe the tables (with their columns), indexes, views and triggers";

    public string Help =>
        "usage: sharc " + Synopsis + "\n" +
        "\n" +
        "Describes the schema stored in the database:\n" +
        "  tables    with each column's declared type, affinity, NOT NULL, DEFAULT, primary-key position\n" +
        "            (1-based), collation, whether it is the rowid alias, and how it is generated\n" +
        "  indexes   their table, uniqueness, key columns (with DESC and COLLATE), partial WHERE clause,\n" +
        "            and what each entry stores after the keys\n" +
        "  views and triggers, with their SQL\n" +
        "\n" +
        "options:\n" +
        CommandLine.DescribeOptions(Options);

    public int Execute(string[] args, TextWriter stdout, TextWriter stderr)
    {
        var line = CommandLine.Parse(Name, args, Options);
        string path = line.Expect("db")[0];
        using var db = DatabaseFile.Open(path);
        Describe(db, path, stdout);
        return Program.ExitOk;
    }

    /// <summary>Writes the description of <paramref name="db"/>'s schema.</summary>
    public static void Describe(SharcDatabase db, string path, TextWriter output)
    {
        var schema = db.Schema;
        output.Write($"database {path}\n");
        output.Write(string.Create(CultureInfo.InvariantCulture,
            $"  {db.PageSize}-byte pages, {db.PageCount} pages, {EncodingName(db.TextEncoding)}\n"));

        var tables = schema.Tables.Where(t => !IsSchemaTable(t)).ToList();
        output.Write($"\n{Count(tables.Count, "table")}\n");
        foreach (var t in tables) DescribeTable(t, output);

        output.Write($"\n{Count(schema.Indexes.Count, "index", "indexes")}\n");
        foreach (var i in schema.Indexes) DescribeIndex(schema, i, output);

        output.Write($"\n{Count(schema.Views.Count, "view")}\n");
        foreach (var v in schema.Views)
        {
            string cols = v.ColumnNames.Count > 0 ? " (" + string.Join(", ", v.ColumnNames) + ")" : "";
            output.Write($"\nview {v.Name}{cols}\n");
            WriteSql(output, v.Sql);
        }

        output.Write($"\n{Count(schema.Triggers.Count, "trigger")}\n");
        foreach (var tr in schema.Triggers)
        {
            output.Write($"\ntrigger {tr.Name} on {tr.TableName}\n");
            WriteSql(output, tr.Sql);
        }
        output.Flush();
    }

    private static void DescribeTable(SharcTable t, TextWriter output)
    {
        var traits = new List<string>();
        if (t.IsVirtual) traits.Add("virtual table");
        else traits.Add(t.IsWithoutRowId ? "WITHOUT ROWID" : "rowid table");
        if (t.IsStrict) traits.Add("STRICT");
        if (t.IsAutoIncrement) traits.Add("AUTOINCREMENT");
        if (!t.IsVirtual) traits.Add(string.Create(CultureInfo.InvariantCulture, $"root page {t.RootPage}"));
        output.Write($"\ntable {t.Name} ({string.Join(", ", traits)})\n");

        if (t.IsVirtual)
        {
            WriteSql(output, t.Sql);
            if (t.Columns.Count == 0) return;
        }

        var writer = new TableWriter(output) { Indent = "  ", NullText = "", ShowRowCount = false, MaxCellWidth = int.MaxValue };
        writer.Begin(ColumnHeader);
        foreach (var c in t.Columns)
        {
            writer.WriteRow(new StringRow(
            [
                c.Name,
                c.DeclaredType,
                AffinityName(c.Affinity),
                c.IsNotNull ? "yes" : null,
                c.DefaultSql,
                c.PrimaryKeyPosition >= 0 ? (c.PrimaryKeyPosition + 1).ToString(CultureInfo.InvariantCulture) : null,
                c.Collation,
                c.IsRowIdAlias ? "yes" : null,
                c.Generated switch
                {
                    SharcGeneratedKind.Virtual => $"VIRTUAL AS ({c.GeneratedSql})",
                    SharcGeneratedKind.Stored => $"STORED AS ({c.GeneratedSql})",
                    _ => null,
                },
            ]));
        }
        writer.Complete();

        if (t.PrimaryKey.Count > 0)
        {
            var keys = new List<string>();
            for (int k = 0; k < t.PrimaryKey.Count; k++)
            {
                int ordinal = t.PrimaryKey[k];
                string key = ordinal >= 0 && ordinal < t.Columns.Count ? t.Columns[ordinal].Name : $"#{ordinal}";
                string coll = k < t.PrimaryKeyCollations.Count ? t.PrimaryKeyCollations[k] : "BINARY";
                if (!coll.Equals("BINARY", StringComparison.OrdinalIgnoreCase)) key += " COLLATE " + coll;
                if (k < t.PrimaryKeyDescending.Count && t.PrimaryKeyDescending[k]) key += " DESC";
                keys.Add(key);
            }
            string note = t.RowIdAliasOrdinal >= 0 ? " (the rowid)" : t.IsWithoutRowId ? " (the storage order)" : "";
            output.Write($"  primary key ({string.Join(", ", keys)}){note}\n");
        }
    }

    private static void DescribeIndex(SharcSchema schema, SharcIndex index, TextWriter output)
    {
        var sb = new StringBuilder("\n");
        sb.Append(index.IsUnique ? "unique index " : "index ").Append(index.Name).Append(" on ").Append(index.TableName).Append(" (");
        for (int k = 0; k < index.Columns.Count; k++)
        {
            var c = index.Columns[k];
            if (k > 0) sb.Append(", ");
            sb.Append(c.Name ?? c.ExpressionSql ?? "?");
            if (!c.Collation.Equals("BINARY", StringComparison.OrdinalIgnoreCase)) sb.Append(" COLLATE ").Append(c.Collation);
            if (c.IsDescending) sb.Append(" DESC");
        }
        sb.Append(')');
        if (index.WhereSql is not null) sb.Append(" WHERE ").Append(index.WhereSql);
        output.Write(sb.Append('\n').ToString());

        var notes = new List<string> { string.Create(CultureInfo.InvariantCulture, $"root page {index.RootPage}") };
        if (index.IsAutoIndex) notes.Add("created automatically for a PRIMARY KEY or UNIQUE constraint");
        if (index.IsPrimaryKey) notes.Add("holds the table's rows");
        if (index.HasExpressions) notes.Add("has expression keys");
        var table = schema.FindTable(index.TableName);
        if (table is not null && !index.IsPrimaryKey) notes.Add("entries end with " + Suffix(table, index));
        output.Write("  " + string.Join("; ", notes) + "\n");
    }

    /// <summary>What an index entry stores after its declared keys.</summary>
    private static string Suffix(SharcTable table, SharcIndex index)
    {
        if (!table.IsWithoutRowId) return "the rowid";
        var extra = new List<string>();
        foreach (int pk in table.PrimaryKey)
        {
            if (index.Columns.Any(k => k.TableOrdinal == pk)) continue;
            extra.Add(pk >= 0 && pk < table.Columns.Count ? table.Columns[pk].Name : $"#{pk}");
        }
        return extra.Count == 0 ? "nothing (the keys include the whole primary key)" : "the primary key (" + string.Join(", ", extra) + ")";
    }

    private static void WriteSql(TextWriter output, string sql)
    {
        foreach (var l in sql.ReplaceLineEndings("\n").Split('\n'))
            output.Write("  " + l.TrimEnd() + "\n");
    }

    private static bool IsSchemaTable(SharcTable t)
        => t.Name.Equals("sqlite_schema", StringComparison.OrdinalIgnoreCase)
        || t.Name.Equals("sqlite_master", StringComparison.OrdinalIgnoreCase)
        || t.Name.Equals("sqlite_temp_schema", StringComparison.OrdinalIgnoreCase)
        || t.Name.Equals("sqlite_temp_master", StringComparison.OrdinalIgnoreCase);

    private static string Count(int n, string singular, string? plural = null)
        => n switch
        {
            0 => $"no {plural ?? singular + "s"}",
            1 => $"1 {singular}",
            _ => string.Create(CultureInfo.InvariantCulture, $"{n} {plural ?? singular + "s"}"),
        };

    private static string AffinityName(SharcAffinity a) => a switch
    {
        SharcAffinity.Blob => "BLOB",
        SharcAffinity.Text => "TEXT",
        SharcAffinity.Numeric => "NUMERIC",
        SharcAffinity.Integer => "INTEGER",
        SharcAffinity.Real => "REAL",
        _ => a.ToString(),
    };

    private static string EncodingName(SharcTextEncoding e) => e switch
    {
        SharcTextEncoding.Utf8 => "UTF-8",
        SharcTextEncoding.Utf16LE => "UTF-16le",
        SharcTextEncoding.Utf16BE => "UTF-16be",
        _ => e.ToString(),
    };
}
