using Sharc.Sql.Ast;
using Sharc.Sql.Parsing;

namespace Sharc.Tests.Sql.Parsing;

/// <summary>The trees of DML, DDL, transaction and administrative statements, and of scripts.</summary>
public sealed class SqlStatementParsingTests
{
    private static T Parse<T>(string sql) where T : SqlStatement => SqlParser.ParseStatement(sql).Should().BeOfType<T>().Subject;

    [Fact]
    public void Insert_forms()
    {
        var i = Parse<SqlInsertStatement>("WITH c AS (SELECT 1) INSERT OR IGNORE INTO main.t AS x (a, b) SELECT * FROM c RETURNING a");
        (i.With is not null, i.Conflict, i.Table.Schema, i.Table.Name, i.Table.Alias).Should().Be((true, SqlConflictAction.Ignore, "main", "t", "x"));
        i.Columns.Should().Equal("a", "b");
        i.Source!.Body.Should().BeOfType<SqlSelectCore>();
        i.Returning.Should().ContainSingle();

        Parse<SqlInsertStatement>("REPLACE INTO t VALUES (1)").Conflict.Should().Be(SqlConflictAction.Replace);
        Parse<SqlInsertStatement>("INSERT INTO t VALUES (1), (2)").Source!.Body.Should().BeOfType<SqlValuesBody>();
        Parse<SqlInsertStatement>("INSERT INTO t DEFAULT VALUES").DefaultValues.Should().BeTrue();
    }

    [Fact]
    public void Upsert_clauses()
    {
        var i = Parse<SqlInsertStatement>(
            "INSERT INTO t (a) VALUES (1) ON CONFLICT (a) WHERE a > 0 DO UPDATE SET b = excluded.b, (c, d) = (1, 2) WHERE b < 1 ON CONFLICT DO NOTHING RETURNING *");
        i.Upserts.Should().HaveCount(2);
        var first = i.Upserts[0];
        (first.Target.Count, first.TargetWhere is not null, first.DoNothing, first.Set.Count, first.Where is not null).Should().Be((1, true, false, 2, true));
        first.Set[1].Columns.Should().Equal("c", "d");
        i.Upserts[1].DoNothing.Should().BeTrue();
        i.Upserts[1].Target.Should().BeEmpty();
        i.Returning.Should().ContainSingle().Which.Should().BeOfType<SqlStarColumn>();
    }

    [Fact]
    public void Update_and_delete()
    {
        var u = Parse<SqlUpdateStatement>("UPDATE OR REPLACE t AS x INDEXED BY i SET a = 1, (b, c) = (SELECT 1, 2) FROM t2 WHERE a = 2 RETURNING a");
        (u.Conflict, u.Table.Alias, u.Table.IndexedBy, u.Set.Count, u.From is not null, u.Where is not null, u.Returning.Count)
            .Should().Be((SqlConflictAction.Replace, "x", "i", 2, true, true, 1));
        var d = Parse<SqlDeleteStatement>("DELETE FROM main.t NOT INDEXED WHERE a = 1 RETURNING *");
        (d.Table.Schema, d.Table.NotIndexed, d.Where is not null, d.Returning.Count).Should().Be(("main", true, true, 1));
        var limited = Parse<SqlDeleteStatement>("DELETE FROM t ORDER BY a LIMIT 3 OFFSET 1");
        (limited.OrderBy.Count, limited.Limit is not null, limited.Offset is not null).Should().Be((1, true, true));
    }

    [Fact]
    public void Create_table_reuses_the_schema_readers_model_and_adds_parsed_expressions()
    {
        const string sql = "CREATE TABLE IF NOT EXISTS main.n (id INTEGER PRIMARY KEY, b TEXT NOT NULL DEFAULT 'x' CHECK (length(b) > 0), " +
                           "c DEFAULT -1, d DEFAULT abc, e AS (id * 2) STORED, CHECK (b <> c), UNIQUE (b, c))";
        var t = Parse<SqlCreateTableStatement>(sql);
        (t.IfNotExists, t.Schema, t.Name, sql[t.NameOffset..(t.NameOffset + 1)]).Should().Be((true, "main", "n", "n"));
        t.Definition!.RowIdAlias.Should().Be(0);
        t.Definition.Indexes.Should().ContainSingle().Which.Name.Should().Be("sqlite_autoindex_n_1");
        t.Columns.Select(c => c.Name).Should().Equal("id", "b", "c", "d", "e");
        t.Columns[1].Definition.NotNull.Should().BeTrue();
        t.Columns[1].Default.Should().BeOfType<SqlStringLiteral>().Which.Value.Should().Be("x");
        t.Columns[1].Checks.Should().ContainSingle();
        SqlAstPrinter.Print(t.Columns[2].Default!).Should().Be("(-1)");
        t.Columns[3].Default.Should().BeOfType<SqlStringLiteral>().Which.Value.Should().Be("abc");
        SqlAstPrinter.Print(t.Columns[4].Generated!).Should().Be("(id * 2)");
        t.TableChecks.Should().ContainSingle();
        sql[t.Columns[1].Start..t.Columns[1].End].Should().Be("b TEXT NOT NULL DEFAULT 'x' CHECK (length(b) > 0)");
    }

    [Fact]
    public void Create_table_as_select()
    {
        var t = Parse<SqlCreateTableStatement>("CREATE TEMP TABLE n AS SELECT * FROM t");
        (t.Temporary, t.Definition, t.AsSelect is not null).Should().Be((true, (Sharc.Schema.Parsing.TableDefinition?)null, true));
    }

    [Fact]
    public void Other_create_statements()
    {
        var index = Parse<SqlCreateIndexStatement>("CREATE UNIQUE INDEX IF NOT EXISTS i ON t (a COLLATE nocase DESC, b + 1) WHERE a > 0");
        (index.Unique, index.IfNotExists, index.Table, index.Keys.Count, index.Where is not null).Should().Be((true, true, "t", 2, true));

        var view = Parse<SqlCreateViewStatement>("CREATE TEMP VIEW v (x, y) AS SELECT 1, 2");
        (view.Temporary, view.Name).Should().Be((true, "v"));
        view.Columns.Should().Equal("x", "y");

        var trigger = Parse<SqlCreateTriggerStatement>(
            "CREATE TRIGGER tr BEFORE UPDATE OF a, b ON main.t FOR EACH ROW WHEN new.a > 0 BEGIN " +
            "UPDATE t2 SET x = 1; INSERT INTO t2 VALUES (1); DELETE FROM t2; SELECT RAISE(ABORT, 'no'); END");
        (trigger.Timing, trigger.Event, trigger.TableSchema, trigger.Table, trigger.ForEachRow, trigger.When is not null)
            .Should().Be((SqlTriggerTiming.Before, SqlTriggerEvent.Update, "main", "t", true, true));
        trigger.UpdateColumns.Should().Equal("a", "b");
        trigger.Body.Select(s => s.GetType()).Should().Equal(
            typeof(SqlUpdateStatement), typeof(SqlInsertStatement), typeof(SqlDeleteStatement), typeof(SqlSelectStatement));
        var raise = ((SqlExprColumn)((SqlSelectCore)((SqlSelectStatement)trigger.Body[3]).Query.Body).Columns[0]).Expr;
        raise.Should().BeOfType<SqlRaiseExpr>().Which.Action.Should().Be(SqlRaiseAction.Abort);

        var vt = Parse<SqlCreateVirtualTableStatement>("CREATE VIRTUAL TABLE v USING fts5(a, b  c, tokenize = 'porter', (x, y),)");
        vt.Module.Should().Be("fts5");
        vt.Arguments.Should().Equal("a", "b  c", "tokenize = 'porter'", "(x, y)");
    }

    [Fact]
    public void Drop_and_alter()
    {
        var drop = Parse<SqlDropStatement>("DROP VIEW IF EXISTS main.v");
        (drop.Kind, drop.IfExists, drop.Schema, drop.Name).Should().Be((SqlObjectKind.View, true, "main", "v"));
        Parse<SqlRenameTableStatement>("ALTER TABLE t RENAME TO u").NewName.Should().Be("u");
        var rename = Parse<SqlRenameColumnStatement>("ALTER TABLE main.t RENAME COLUMN a TO b");
        (rename.Schema, rename.Column, rename.NewName).Should().Be(("main", "a", "b"));
        Parse<SqlDropColumnStatement>("ALTER TABLE t DROP c").Column.Should().Be("c");
        const string sql = "ALTER TABLE t ADD COLUMN d INTEGER NOT NULL DEFAULT (1 + 1) CHECK (d > 0)";
        var add = Parse<SqlAddColumnStatement>(sql);
        add.Column.Name.Should().Be("d");
        add.Column.Definition.DeclaredType.Should().Be("INTEGER");
        add.Column.Definition.NotNull.Should().BeTrue();
        SqlAstPrinter.Print(add.Column.Default!).Should().Be("(1 + 1)");
        add.Column.Checks.Should().ContainSingle();
        sql[add.Column.Start..add.Column.End].Should().Be("d INTEGER NOT NULL DEFAULT (1 + 1) CHECK (d > 0)");
    }

    [Fact]
    public void Transactions_and_administration()
    {
        Parse<SqlBeginStatement>("BEGIN IMMEDIATE TRANSACTION").Kind.Should().Be(SqlTransactionKind.Immediate);
        Parse<SqlBeginStatement>("BEGIN").Kind.Should().Be(SqlTransactionKind.Deferred);
        Parse<SqlCommitStatement>("END TRANSACTION");
        Parse<SqlRollbackStatement>("ROLLBACK").Savepoint.Should().BeNull();
        Parse<SqlRollbackStatement>("ROLLBACK TRANSACTION TO SAVEPOINT sp").Savepoint.Should().Be("sp");
        Parse<SqlSavepointStatement>("SAVEPOINT sp").Name.Should().Be("sp");
        Parse<SqlReleaseStatement>("RELEASE sp").Name.Should().Be("sp");

        var pragma = Parse<SqlPragmaStatement>("PRAGMA main.cache_size = -2000");
        (pragma.Schema, pragma.Name, pragma.Value, pragma.Parenthesized).Should().Be(("main", "cache_size", "-2000", false));
        Parse<SqlPragmaStatement>("PRAGMA table_info('t')").Value.Should().Be("t");
        Parse<SqlPragmaStatement>("PRAGMA table_info(t)").Parenthesized.Should().BeTrue();
        Parse<SqlPragmaStatement>("PRAGMA foreign_keys = ON").Value.Should().Be("ON");
        Parse<SqlPragmaStatement>("PRAGMA user_version = +5").Value.Should().Be("5");
        Parse<SqlPragmaStatement>("PRAGMA cache_size").Value.Should().BeNull();

        var analyze = Parse<SqlAnalyzeStatement>("ANALYZE main.t");
        (analyze.Qualifier, analyze.Name).Should().Be(("main", "t"));
        Parse<SqlReindexStatement>("REINDEX").Name.Should().BeNull();
        var vacuum = Parse<SqlVacuumStatement>("VACUUM main INTO 'copy.db'");
        (vacuum.Schema, vacuum.Into is SqlStringLiteral).Should().Be(("main", true));
        var attach = Parse<SqlAttachStatement>("ATTACH DATABASE 'x.db' AS other KEY 'k'");
        (attach.File is SqlStringLiteral, attach.Schema is SqlColumnRef, attach.Key is not null).Should().Be((true, true, true));
        Parse<SqlDetachStatement>("DETACH other").Schema.Should().BeOfType<SqlColumnRef>();
    }

    [Fact]
    public void Explain_marks_the_statement()
    {
        SqlParser.ParseStatement("EXPLAIN SELECT 1").Explain.Should().Be(SqlExplainMode.Explain);
        var plan = SqlParser.ParseStatement("EXPLAIN QUERY PLAN DELETE FROM t");
        plan.Should().BeOfType<SqlDeleteStatement>();
        plan.Explain.Should().Be(SqlExplainMode.QueryPlan);
        plan.Start.Should().Be(0);
    }

    [Fact]
    public void Scripts_split_into_statements_with_their_spans()
    {
        const string sql = "  SELECT 1;;\n-- note\nCREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 2; SELECT 3; END ; CREATE VIRTUAL TABLE v USING m(a;b);PRAGMA x ";
        var statements = SqlParser.ParseScript(sql);
        statements.Select(s => sql[s.Start..s.End]).Should().Equal(
            "SELECT 1",
            "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 2; SELECT 3; END",
            "CREATE VIRTUAL TABLE v USING m(a;b)",
            "PRAGMA x");
        SqlParser.ParseScript("").Should().BeEmpty();
        SqlParser.ParseScript(" ; ;; -- only comments\n /* and */ ").Should().BeEmpty();
    }
}
