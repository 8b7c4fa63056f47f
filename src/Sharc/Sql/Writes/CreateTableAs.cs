using System.Text;
using Sharc.Format;
using Sharc.Schema.Parsing;
using Sharc.Sql.Ast;
using Sharc.Sql.Values;
using Sharc.Write;

namespace Sharc.Sql.Writes;

/// <summary>
/// CREATE TABLE … AS SELECT: the query runs to completion, then a table is created with one column per result
/// column — named as the result column (duplicates get ":1", ":2", …) and typed by the expression's affinity
/// (TEXT, NUM, INT, REAL or none), written out as SQLite's createTableStmt writes it — and the rows go in.
/// </summary>
internal static class CreateTableAs
{
    public static StatementOutcome Run(SharcDatabase db, string sql, SqlCreateTableStatement create, SqlValue[] parameters)
    {
        if (create.Schema is { } s && !SqlNameComparer.Instance.Equals(s, db.SchemaName))
            throw new SharcSqlException($"unknown database {s}", sql, create.Start);
        if (db.Schema.FindTable(create.Name) is not null || db.Schema.FindView(create.Name) is not null)
        {
            if (create.IfNotExists) return StatementOutcome.None;
            throw new SharcSqlException($"{(db.Schema.FindView(create.Name) is not null ? "view" : "table")} {create.Name} already exists", sql, create.Start);
        }
        var select = new SqlSelectStatement(create.AsSelect!)
        {
            Start = create.AsSelect!.Start,
            End = create.AsSelect.End,
            ParameterCount = create.ParameterCount,
            ParameterNames = create.ParameterNames,
        };
        var plan = Planning.QueryPlan.Create(db.Schema, sql, select, db.TempViewSet);
        var names = new List<string>();
        var types = new List<string>();
        var projections = plan.Statement.Query.Projections;
        for (int i = 0; i < plan.Columns.Length; i++)
        {
            string name = plan.Columns[i].Name;
            string stem = name;
            int colon = stem.LastIndexOf(':');
            if (colon > 0 && colon < stem.Length - 1 && stem[(colon + 1)..].All(char.IsAsciiDigit)) stem = stem[..colon];
            for (int n = 0; names.Contains(name, SqlNameComparer.Instance);) name = stem + ":" + ++n;
            names.Add(name);
            types.Add(projections[i].Expr.Affinity switch
            {
                SqlAffinity.Text => " TEXT",
                SqlAffinity.Numeric => " NUM",
                SqlAffinity.Integer => " INT",
                SqlAffinity.Real => " REAL",
                _ => "",
            });
        }
        string stored = Statement(create.Name, names, types);
        return db.RunSqlStatement(() =>
        {
            var rows = DmlTarget.RunSelect(db, sql, select, parameters, out _);
            new SchemaWriter(db).CreateTable(stored);
            db.ReloadSchema();
            var table = db.Schema.GetTable(create.Name);
            var writer = db.WriterFor(table.Name);
            var stored2 = new StoredValue[names.Count];
            var scratch = new byte[]?[names.Count];
            foreach (var row in rows)
            {
                for (int i = 0; i < stored2.Length; i++)
                    WriteValues.Store(ref stored2[i], ref scratch[i], row[i], table.Columns[i].Affinity, db.TextEncoding);
                writer.Insert(stored2, replace: false);
            }
            return StatementOutcome.None;
        });
    }

    /// <summary>The CREATE TABLE text SQLite's createTableStmt makes: one line when short, one column per line otherwise.</summary>
    private static string Statement(string table, List<string> names, List<string> types)
    {
        int n = IdentLength(table);
        foreach (var name in names) n += IdentLength(name) + 5;
        bool shortForm = n < 50;
        var sb = new StringBuilder("CREATE TABLE ");
        Ident(sb, table);
        sb.Append('(');
        for (int i = 0; i < names.Count; i++)
        {
            sb.Append(i == 0 ? (shortForm ? "" : "\n  ") : (shortForm ? "," : ",\n  "));
            Ident(sb, names[i]);
            sb.Append(types[i]);
        }
        sb.Append(shortForm ? ")" : "\n)");
        return sb.ToString();
    }

    private static int IdentLength(string s) => s.Length + s.Count(c => c == '"') + 2;

    /// <summary>An identifier, in double quotes when it is not a plain word (SQLite's identPut).</summary>
    private static void Ident(StringBuilder sb, string s)
    {
        int j = 0;
        while (j < s.Length && (char.IsAsciiLetterOrDigit(s[j]) || s[j] == '_')) j++;
        bool quote = s.Length == 0 || char.IsAsciiDigit(s[0]) || j < s.Length || SqlKeywords.IsKeyword(s);
        if (quote) sb.Append('"');
        sb.Append(s.Replace("\"", "\"\"", StringComparison.Ordinal));
        if (quote) sb.Append('"');
    }
}
