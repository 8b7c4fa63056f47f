using Sharc.Tests.Infrastructure;

namespace Sharc.Tests.Write;

/// <summary>FOREIGN KEY enforcement compared with SQLite's under PRAGMA foreign_keys=ON: same outcomes, same rows.</summary>
public sealed class ForeignKeyTests
{
    private const string Parent = "CREATE TABLE p(id INTEGER PRIMARY KEY, code TEXT UNIQUE, n INT)";
    private const string Rows = "SELECT * FROM c ORDER BY rowid";

    [Fact]
    public void Foreign_keys_are_off_unless_enabled()
    {
        using var twin = new WriteTwin(foreignKeys: false);
        twin.Schema(Parent, "CREATE TABLE c(id INTEGER PRIMARY KEY, pid INT REFERENCES p)");
        twin.Db.ForeignKeysEnabled.Should().BeFalse();
        twin.Both("INSERT INTO c VALUES(1, 99)", d => d.Insert("c", 1, 99)).Should().BeNull();
        twin.AssertSame(Rows);
    }

    [Fact]
    public void Child_insert_and_update_need_an_existing_parent()
    {
        using var twin = new WriteTwin(foreignKeys: true);
        twin.Schema(Parent, "CREATE TABLE c(id INTEGER PRIMARY KEY, pid INT REFERENCES p, pcode TEXT REFERENCES p(code))");
        twin.Both("INSERT INTO p VALUES(1, 'a', 0)", d => d.Insert("p", 1, "a", 0));
        twin.Both("INSERT INTO c VALUES(1, 1, 'a')", d => d.Insert("c", 1, 1, "a"));
        twin.Both("INSERT INTO c VALUES(2, '1', NULL)", d => d.Insert("c", 2, "1", null));
        twin.Both("INSERT INTO c VALUES(3, 2, NULL)", d => d.Insert("c", 3, 2, null)).Should().Be("FOREIGN KEY constraint failed");
        twin.Both("INSERT INTO c VALUES(4, NULL, 'b')", d => d.Insert("c", 4, null, "b")).Should().Be("FOREIGN KEY constraint failed");
        twin.Both("INSERT INTO c VALUES(5, NULL, NULL)", d => d.Insert("c", 5, null, null));
        twin.Both("UPDATE c SET pid = 7 WHERE id = 1", d => d.Update("c", 1, ["pid"], [7])).Should().Be("FOREIGN KEY constraint failed");
        twin.AssertSame(Rows);
    }

    [Fact]
    public void Deleting_or_rekeying_a_parent_with_children_fails_without_an_action()
    {
        using var twin = new WriteTwin(foreignKeys: true);
        twin.Schema(Parent, "CREATE TABLE c(id INTEGER PRIMARY KEY, pid INT REFERENCES p(id) ON DELETE NO ACTION, pcode TEXT REFERENCES p(code) ON UPDATE RESTRICT)");
        twin.Both("INSERT INTO p VALUES(1, 'a', 0)", d => d.Insert("p", 1, "a", 0));
        twin.Both("INSERT INTO p VALUES(2, 'b', 0)", d => d.Insert("p", 2, "b", 0));
        twin.Both("INSERT INTO c VALUES(1, 1, 'b')", d => d.Insert("c", 1, 1, "b"));
        twin.Both("DELETE FROM p WHERE id = 1", d => d.Delete("p", 1)).Should().Be("FOREIGN KEY constraint failed");
        twin.Both("UPDATE p SET code = 'z' WHERE id = 2", d => d.Update("p", 2, ["code"], ["z"])).Should().Be("FOREIGN KEY constraint failed");
        twin.Both("UPDATE p SET n = 5 WHERE id = 2", d => d.Update("p", 2, ["n"], [5]));
        twin.Both("UPDATE p SET code = 'b' WHERE id = 2", d => d.Update("p", 2, ["code"], ["b"]));
        twin.Both("DELETE FROM c WHERE id = 1", d => d.Delete("c", 1));
        twin.Both("DELETE FROM p WHERE id = 1", d => d.Delete("p", 1));
        twin.AssertSame(Rows, "SELECT * FROM p ORDER BY id");
    }

    [Fact]
    public void Cascade_set_null_and_set_default_change_the_children()
    {
        using var twin = new WriteTwin(foreignKeys: true);
        twin.Schema(Parent,
            "CREATE TABLE c(id INTEGER PRIMARY KEY, pid INT REFERENCES p ON DELETE CASCADE ON UPDATE CASCADE, " +
            "pcode TEXT DEFAULT 'a' REFERENCES p(code) ON DELETE SET DEFAULT ON UPDATE SET NULL)",
            "CREATE TABLE g(id INTEGER PRIMARY KEY, cid INT REFERENCES c ON DELETE SET NULL)");
        twin.Both("INSERT INTO p VALUES(1, 'a', 0)", d => d.Insert("p", 1, "a", 0));
        twin.Both("INSERT INTO p VALUES(2, 'b', 0)", d => d.Insert("p", 2, "b", 0));
        twin.Both("INSERT INTO p VALUES(3, 'c', 0)", d => d.Insert("p", 3, "c", 0));
        twin.Both("INSERT INTO c VALUES(1, 1, 'b')", d => d.Insert("c", 1, 1, "b"));
        twin.Both("INSERT INTO c VALUES(2, 2, 'c')", d => d.Insert("c", 2, 2, "c"));
        twin.Both("INSERT INTO c VALUES(3, 2, 'b')", d => d.Insert("c", 3, 2, "b"));
        twin.Both("INSERT INTO g VALUES(1, 1)", d => d.Insert("g", 1, 1));
        twin.Both("INSERT INTO g VALUES(2, 2)", d => d.Insert("g", 2, 2));
        twin.Both("UPDATE p SET id = 20 WHERE id = 2", d => d.Update("p", 2, ["id"], [20]));
        twin.Both("UPDATE p SET code = 'cc' WHERE id = 3", d => d.Update("p", 3, ["code"], ["cc"]));
        twin.Both("DELETE FROM p WHERE id = 20", d => d.Delete("p", 20));
        twin.AssertSame(Rows, "SELECT * FROM p ORDER BY id", "SELECT * FROM g ORDER BY id");
        // c1's code was reset to 'a' by p20's SET DEFAULT; deleting p1 cascades it away, and g1 loses its parent.
        twin.Both("DELETE FROM p WHERE id = 1", d => d.Delete("p", 1)).Should().BeNull();
        twin.AssertSame(Rows, "SELECT * FROM p ORDER BY id", "SELECT * FROM g ORDER BY id");
    }

    [Fact]
    public void Rekeying_an_integer_primary_key_parent_runs_the_update_action_not_the_delete_action()
    {
        using var twin = new WriteTwin(foreignKeys: true);
        twin.Schema("CREATE TABLE p(id INTEGER PRIMARY KEY, n INT)",
            "CREATE TABLE c(id INTEGER PRIMARY KEY, pid REFERENCES p ON DELETE CASCADE ON UPDATE SET NULL)");
        twin.Both("INSERT INTO p VALUES(1, 0)", d => d.Insert("p", 1, 0));
        twin.Both("INSERT INTO p VALUES(2, 0)", d => d.Insert("p", 2, 0));
        twin.Both("INSERT INTO c VALUES(1, 1)", d => d.Insert("c", 1, 1));
        twin.Both("INSERT INTO c VALUES(2, 2)", d => d.Insert("c", 2, 2));
        twin.Both("UPDATE p SET id = 10 WHERE id = 1", d => d.Update("p", 1, ["id"], [10]));
        twin.Both("UPDATE p SET id = 20 WHERE id = 2", d => d.Execute("UPDATE p SET id = 20 WHERE id = 2"));
        twin.AssertSame(Rows, "SELECT * FROM p ORDER BY id");
    }

    [Fact]
    public void Set_default_to_a_missing_parent_fails()
    {
        using var twin = new WriteTwin(foreignKeys: true);
        twin.Schema(Parent, "CREATE TABLE c(id INTEGER PRIMARY KEY, pid INT DEFAULT 9 REFERENCES p ON DELETE SET DEFAULT)");
        twin.Both("INSERT INTO p VALUES(1, 'a', 0)", d => d.Insert("p", 1, "a", 0));
        twin.Both("INSERT INTO c VALUES(1, 1)", d => d.Insert("c", 1, 1));
        twin.Both("DELETE FROM p WHERE id = 1", d => d.Delete("p", 1)).Should().Be("FOREIGN KEY constraint failed");
        twin.Both("INSERT INTO p VALUES(9, 'z', 0)", d => d.Insert("p", 9, "z", 0));
        twin.Both("DELETE FROM p WHERE id = 1", d => d.Delete("p", 1));
        twin.AssertSame(Rows);
    }

    [Fact]
    public void Deferred_violations_are_counted_and_checked_at_commit()
    {
        using var twin = new WriteTwin(foreignKeys: true);
        twin.Schema(Parent, "CREATE TABLE c(id INTEGER PRIMARY KEY, pid INT REFERENCES p DEFERRABLE INITIALLY DEFERRED)");
        Oracle.Exec(twin.Sqlite, "BEGIN");
        var tx = twin.Db.BeginTransaction();
        twin.Both("INSERT INTO c VALUES(1, 5)", d => d.Insert("c", 1, 5));
        twin.Both("INSERT INTO c VALUES(2, 6)", d => d.Insert("c", 2, 6));
        twin.Both("DELETE FROM c WHERE id = 2", d => d.Delete("c", 2));
        twin.SqliteError("COMMIT").Should().Be("FOREIGN KEY constraint failed");
        FluentActions.Invoking(tx.Commit).Should().Throw<SharcConstraintException>().WithMessage("FOREIGN KEY constraint failed");
        twin.Both("INSERT INTO p VALUES(5, 'a', 0)", d => d.Insert("p", 5, "a", 0));
        twin.SqliteError("COMMIT").Should().BeNull();
        tx.Commit();
        twin.AssertSame(Rows, "SELECT * FROM p");
    }

    [Fact]
    public void Deferred_violation_outside_a_transaction_fails_the_statement()
    {
        using var twin = new WriteTwin(foreignKeys: true);
        twin.Schema(Parent, "CREATE TABLE c(id INTEGER PRIMARY KEY, pid INT REFERENCES p DEFERRABLE INITIALLY DEFERRED)");
        twin.Both("INSERT INTO c VALUES(1, 5)", d => d.Insert("c", 1, 5)).Should().Be("FOREIGN KEY constraint failed");
        twin.AssertSame(Rows);
    }

    [Fact]
    public void Parent_key_that_is_not_unique_is_a_mismatch()
    {
        using var twin = new WriteTwin(foreignKeys: true);
        twin.Schema(Parent, "CREATE TABLE c(id INTEGER PRIMARY KEY, pn INT REFERENCES p(n))");
        twin.Both("INSERT INTO c VALUES(1, 5)", d => d.Insert("c", 1, 5)).Should().Be("foreign key mismatch - \"c\" referencing \"p\"");
        twin.Both("INSERT INTO p VALUES(1, 'a', 0)", d => d.Insert("p", 1, "a", 0));
        twin.Both("DELETE FROM p WHERE id = 1", d => d.Delete("p", 1)).Should().Be("foreign key mismatch - \"c\" referencing \"p\"");
        twin.AssertSame(Rows);
    }

    [Fact]
    public void Missing_parent_table_is_an_error_for_child_writes()
    {
        using var twin = new WriteTwin(foreignKeys: true);
        twin.Schema("CREATE TABLE c(id INTEGER PRIMARY KEY, pid INT REFERENCES nowhere)");
        twin.Both("INSERT INTO c VALUES(1, 5)", d => d.Insert("c", 1, 5)).Should().Be("no such table: main.nowhere");
        twin.Both("INSERT INTO c VALUES(2, NULL)", d => d.Insert("c", 2, null));
        twin.AssertSame(Rows);
    }

    [Fact]
    public void Self_referencing_rows_may_reference_themselves_and_cascade_down_a_tree()
    {
        using var twin = new WriteTwin(foreignKeys: true);
        twin.Schema("CREATE TABLE c(id INTEGER PRIMARY KEY, up INT REFERENCES c(id) ON DELETE CASCADE)");
        twin.Both("INSERT INTO c VALUES(1, 1)", d => d.Insert("c", 1, 1));
        for (int i = 2; i <= 12; i++)
        {
            int id = i;
            twin.Both($"INSERT INTO c VALUES({id}, {id / 2})", d => d.Insert("c", id, id / 2));
        }
        twin.Both("INSERT INTO c VALUES(13, 14)", d => d.Insert("c", 13, 14)).Should().Be("FOREIGN KEY constraint failed");
        twin.Both("DELETE FROM c WHERE id = 2", d => d.Delete("c", 2));
        twin.AssertSame(Rows);
    }

    [Fact]
    public void Composite_keys_use_the_parents_unique_index_in_any_column_order()
    {
        using var twin = new WriteTwin(foreignKeys: true);
        twin.Schema("CREATE TABLE p(a TEXT COLLATE NOCASE, b INT, UNIQUE(b, a))",
            "CREATE TABLE c(x TEXT, y INT, FOREIGN KEY(x, y) REFERENCES p(a, b) ON DELETE CASCADE)");
        twin.Both("INSERT INTO p VALUES('k', 1)", d => d.Insert("p", "k", 1));
        twin.Both("INSERT INTO c VALUES('K', '1')", d => d.Insert("c", "K", "1"));
        twin.Both("INSERT INTO c VALUES('k', 2)", d => d.Insert("c", "k", 2)).Should().Be("FOREIGN KEY constraint failed");
        twin.Both("DELETE FROM p WHERE rowid = 1", d => d.Delete("p", 1));
        twin.AssertSame(Rows);
    }

    [Fact]
    public void Option_enables_enforcement_at_open()
    {
        using var dir = new TempDir();
        string path = dir.File("fk.db");
        using (var db = SharcDatabase.Create(path))
        {
            db.CreateTable(Parent);
            db.CreateTable("CREATE TABLE c(id INTEGER PRIMARY KEY, pid INT REFERENCES p)");
        }
        using var fk = SharcDatabase.Open(path, new SharcOpenOptions { Writable = true, ForeignKeys = true });
        fk.ForeignKeysEnabled.Should().BeTrue();
        FluentActions.Invoking(() => fk.Insert("c", 1, 3)).Should().Throw<SharcConstraintException>().WithMessage("FOREIGN KEY constraint failed");
    }

    [Fact]
    public void A_transaction_whose_only_write_was_undone_commits_without_leaving_a_journal()
    {
        using var twin = new WriteTwin(foreignKeys: true);
        twin.Schema(Parent, "CREATE TABLE c(id INTEGER PRIMARY KEY, pid INT REFERENCES p)");
        using (var tx = twin.Db.BeginTransaction())
        {
            // The insert reaches the b-tree before the statement's foreign key check undoes it.
            FluentActions.Invoking(() => twin.Db.Insert("c", 1, 5)).Should().Throw<SharcConstraintException>();
            tx.Commit();
        }
        File.Exists(twin.SharcPath + "-journal").Should().BeFalse();
        twin.AssertSame(Rows);
    }

    [Fact]
    public void Replacing_a_without_rowid_parent_runs_its_delete_actions()
    {
        using var twin = new WriteTwin(foreignKeys: true);
        twin.Schema("CREATE TABLE p(k TEXT PRIMARY KEY, u INT UNIQUE) WITHOUT ROWID",
            "CREATE TABLE c(id INTEGER PRIMARY KEY, pk TEXT REFERENCES p ON DELETE CASCADE, pu INT REFERENCES p(u) ON DELETE SET NULL)");
        twin.Both("INSERT INTO p VALUES('a', 1)", d => d.Insert("p", "a", 1));
        twin.Both("INSERT INTO p VALUES('b', 2)", d => d.Insert("p", "b", 2));
        twin.Both("INSERT INTO c VALUES(1, 'a', 2)", d => d.Insert("c", 1, "a", 2));
        twin.Both("INSERT INTO c VALUES(2, 'b', 1)", d => d.Insert("c", 2, "b", 1));
        twin.Both("INSERT OR REPLACE INTO p VALUES('a', 3)", d => d.Upsert("p", "a", 3));
        twin.Both("INSERT OR REPLACE INTO p VALUES('z', 2)", d => d.Upsert("p", "z", 2));
        twin.AssertSame(Rows, "SELECT * FROM p ORDER BY k");
    }
}
