using Sharc.Sql.Ast;

namespace Sharc.Tests.Sql.Parsing;

/// <summary>Statement printing for <see cref="SqlAstPrinter"/>.</summary>
internal sealed partial class SqlAstPrinter
{
    // ---- statements ----------------------------------------------------------------------------------------------

    private void Statement(SqlStatement statement)
    {
        if (statement.Explain == SqlExplainMode.Explain) W("EXPLAIN ");
        if (statement.Explain == SqlExplainMode.QueryPlan) W("EXPLAIN QUERY PLAN ");
        switch (statement)
        {
            case SqlSelectStatement s: Select(s.Query); break;
            case SqlInsertStatement i: Insert(i); break;
            case SqlUpdateStatement u: Update(u); break;
            case SqlDeleteStatement d: Delete(d); break;
            case SqlCreateTableStatement t:
                W(t.Temporary ? "CREATE TEMP TABLE " : "CREATE TABLE ");
                if (t.IfNotExists) W("IF NOT EXISTS ");
                if (t.Schema is not null) { Name(t.Schema); W("."); }
                Name(t.Name);
                if (t.AsSelect is not null) { W(" AS "); Select(t.AsSelect); }
                else
                {
                    // The column list as written: from the token after the name to the end of the statement.
                    int from = _sql.IndexOf('(', t.NameOffset);
                    W(" ").W(_sql[from..t.End]);
                }
                break;
            case SqlCreateIndexStatement x:
                W(x.Unique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ");
                if (x.IfNotExists) W("IF NOT EXISTS ");
                if (x.Schema is not null) { Name(x.Schema); W("."); }
                Name(x.Name);
                W(" ON ");
                Name(x.Table);
                W(" (");
                OrderBy(x.Keys);
                W(")");
                if (x.Where is not null) { W(" WHERE "); Expr(x.Where); }
                break;
            case SqlCreateViewStatement v:
                W(v.Temporary ? "CREATE TEMP VIEW " : "CREATE VIEW ");
                if (v.IfNotExists) W("IF NOT EXISTS ");
                if (v.Schema is not null) { Name(v.Schema); W("."); }
                Name(v.Name);
                if (v.Columns.Count > 0) { W("("); List(v.Columns, Name); W(")"); }
                W(" AS ");
                Select(v.Query);
                break;
            case SqlCreateTriggerStatement tr: Trigger(tr); break;
            case SqlCreateVirtualTableStatement vt:
                W("CREATE VIRTUAL TABLE ");
                if (vt.IfNotExists) W("IF NOT EXISTS ");
                if (vt.Schema is not null) { Name(vt.Schema); W("."); }
                Name(vt.Name);
                W(" USING ");
                Name(vt.Module);
                if (vt.Arguments.Count > 0) { W("("); List(vt.Arguments, a => W(a)); W(")"); }
                break;
            case SqlDropStatement d:
                W("DROP ").W(d.Kind.ToString().ToUpperInvariant()).W(d.IfExists ? " IF EXISTS " : " ");
                if (d.Schema is not null) { Name(d.Schema); W("."); }
                Name(d.Name);
                break;
            case SqlAlterTableStatement a: Alter(a); break;
            case SqlBeginStatement b: W("BEGIN ").W(b.Kind.ToString().ToUpperInvariant()); break;
            case SqlCommitStatement: W("COMMIT"); break;
            case SqlRollbackStatement r:
                W("ROLLBACK");
                if (r.Savepoint is not null) { W(" TO "); Name(r.Savepoint); }
                break;
            case SqlSavepointStatement sp: W("SAVEPOINT "); Name(sp.Name); break;
            case SqlReleaseStatement rl: W("RELEASE "); Name(rl.Name); break;
            case SqlPragmaStatement p:
                W("PRAGMA ");
                if (p.Schema is not null) { Name(p.Schema); W("."); }
                Name(p.Name);
                if (p.Value is not null)
                {
                    W(p.Parenthesized ? "(" : " = ");
                    Str(p.Value);
                    if (p.Parenthesized) W(")");
                }
                break;
            case SqlAnalyzeStatement an: W("ANALYZE"); Qualified(an.Qualifier, an.Name); break;
            case SqlReindexStatement re: W("REINDEX"); Qualified(re.Qualifier, re.Name); break;
            case SqlVacuumStatement va:
                W("VACUUM");
                if (va.Schema is not null) { W(" "); Name(va.Schema); }
                if (va.Into is not null) { W(" INTO "); Expr(va.Into); }
                break;
            case SqlAttachStatement at:
                W("ATTACH ");
                Expr(at.File);
                W(" AS ");
                Expr(at.Schema);
                if (at.Key is not null) { W(" KEY "); Expr(at.Key); }
                break;
            case SqlDetachStatement de: W("DETACH "); Expr(de.Schema); break;
            default: throw new InvalidOperationException($"unknown statement {statement.GetType().Name}");
        }
    }

    private void Qualified(string? qualifier, string? name)
    {
        if (name is null) return;
        W(" ");
        if (qualifier is not null) { Name(qualifier); W("."); }
        Name(name);
    }

    private static string Conflict(SqlConflictAction c) => c == SqlConflictAction.Default ? "" : " OR " + c.ToString().ToUpperInvariant();

    private void Insert(SqlInsertStatement i)
    {
        if (i.With is not null) With(i.With);
        W("INSERT").W(Conflict(i.Conflict)).W(" INTO ");
        TableName(i.Table);
        if (i.Table.Alias is not null) { W(" AS "); Name(i.Table.Alias); }
        if (i.Columns.Count > 0) { W(" ("); List(i.Columns, Name); W(")"); }
        if (i.Source is null) W(" DEFAULT VALUES");
        else { W(" "); Select(i.Source); }
        foreach (var u in i.Upserts)
        {
            W(" ON CONFLICT");
            if (u.Target.Count > 0) { W(" ("); OrderBy(u.Target); W(")"); }
            if (u.TargetWhere is not null) { W(" WHERE "); Expr(u.TargetWhere); }
            if (u.DoNothing) W(" DO NOTHING");
            else
            {
                W(" DO UPDATE SET ");
                Assignments(u.Set);
                if (u.Where is not null) { W(" WHERE "); Expr(u.Where); }
            }
        }
        Returning(i.Returning);
    }

    private void Returning(IReadOnlyList<SqlResultColumn> returning)
    {
        if (returning.Count == 0) return;
        W(" RETURNING ");
        ResultColumns(returning);
    }

    private void Assignments(IReadOnlyList<SqlAssignment> set) => List(set, a =>
    {
        if (a.Columns.Count == 1 && _sql.Length > a.Start && _sql[a.Start] != '(') Name(a.Columns[0]);
        else { W("("); List(a.Columns, Name); W(")"); }
        W(" = ");
        Expr(a.Value);
    });

    private void Update(SqlUpdateStatement u)
    {
        if (u.With is not null) With(u.With);
        W("UPDATE").W(Conflict(u.Conflict)).W(" ");
        Source(u.Table);
        W(" SET ");
        Assignments(u.Set);
        if (u.From is not null) { W(" FROM "); Join(u.From); }
        if (u.Where is not null) { W(" WHERE "); Expr(u.Where); }
        Returning(u.Returning);
        if (u.OrderBy.Count > 0) { W(" ORDER BY "); OrderBy(u.OrderBy); }
        Limit(u.Limit, u.Offset);
    }

    private void Delete(SqlDeleteStatement d)
    {
        if (d.With is not null) With(d.With);
        W("DELETE FROM ");
        Source(d.Table);
        if (d.Where is not null) { W(" WHERE "); Expr(d.Where); }
        Returning(d.Returning);
        if (d.OrderBy.Count > 0) { W(" ORDER BY "); OrderBy(d.OrderBy); }
        Limit(d.Limit, d.Offset);
    }

    private void Trigger(SqlCreateTriggerStatement t)
    {
        W(t.Temporary ? "CREATE TEMP TRIGGER " : "CREATE TRIGGER ");
        if (t.IfNotExists) W("IF NOT EXISTS ");
        if (t.Schema is not null) { Name(t.Schema); W("."); }
        Name(t.Name);
        W(t.Timing switch
        {
            SqlTriggerTiming.Before => " BEFORE",
            SqlTriggerTiming.After => " AFTER",
            SqlTriggerTiming.InsteadOf => " INSTEAD OF",
            _ => "",
        });
        W(" ").W(t.Event.ToString().ToUpperInvariant());
        if (t.UpdateColumns.Count > 0) { W(" OF "); List(t.UpdateColumns, Name); }
        W(" ON ");
        if (t.TableSchema is not null) { Name(t.TableSchema); W("."); }
        Name(t.Table);
        if (t.ForEachRow) W(" FOR EACH ROW");
        if (t.When is not null) { W(" WHEN "); Expr(t.When); }
        W(" BEGIN ");
        foreach (var s in t.Body)
        {
            Statement(s);
            W("; ");
        }
        W("END");
    }

    private void Alter(SqlAlterTableStatement a)
    {
        W("ALTER TABLE ");
        if (a.Schema is not null) { Name(a.Schema); W("."); }
        Name(a.Table);
        switch (a)
        {
            case SqlRenameTableStatement r: W(" RENAME TO "); Name(r.NewName); break;
            case SqlRenameColumnStatement r: W(" RENAME COLUMN "); Name(r.Column); W(" TO "); Name(r.NewName); break;
            case SqlDropColumnStatement d: W(" DROP COLUMN "); Name(d.Column); break;
            case SqlAddColumnStatement add: W(" ADD COLUMN ").W(_sql[add.Column.Start..add.Column.End]); break;
        }
    }
}
