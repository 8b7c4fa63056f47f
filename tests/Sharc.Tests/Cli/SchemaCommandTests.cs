namespace Sharc.Tests.Cli;

public sealed class SchemaCommandTests : IDisposable
{
    private readonly CliFixture _fx = new();

    public void Dispose() => _fx.Dispose();

    private string FeatureDb() => _fx.CreateDb("features.db",
        "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE, age INT DEFAULT 18, bio)",
        "CREATE TABLE pairs (a TEXT, b INTEGER, w REAL GENERATED ALWAYS AS (b * 1.5) STORED, PRIMARY KEY (a, b DESC)) WITHOUT ROWID",
        "CREATE UNIQUE INDEX people_name ON people (name COLLATE BINARY DESC, age)",
        "CREATE INDEX adults ON people (age) WHERE age >= 18",
        "CREATE INDEX pairs_w ON pairs (w)",
        "CREATE VIEW names AS SELECT name FROM people",
        "CREATE TRIGGER people_ai AFTER INSERT ON people BEGIN SELECT 1; END");

    [Fact]
    public void Schema_lists_tables_with_a_row_per_column()
    {
        var result = CliFixture.Run("schema", FeatureDb());

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Stderr.Should().BeEmpty();
        var lines = result.Lines;
        lines[0].Should().Be($"database {_fx.PathOf("features.db")}");
        lines.Should().ContainInOrder(
            "2 tables",
            "",
            "table people (rowid table, root page 2)",
            "  column | type    | affinity | not null | default | pk | collation | rowid alias | generated",
            "  -------+---------+----------+----------+---------+----+-----------+-------------+----------",
            "  id     | INTEGER | INTEGER  |          |         | 1  | BINARY    | yes",
            "  name   | TEXT    | TEXT     | yes      |         |    | NOCASE",
            "  age    | INT     | INTEGER  |          | 18      |    | BINARY",
            "  bio    |         | BLOB     |          |         |    | BINARY",
            "  primary key (id) (the rowid)");
    }

    [Fact]
    public void Schema_describes_without_rowid_tables_their_key_and_generated_columns()
    {
        var result = CliFixture.Run("schema", FeatureDb());

        result.ExitCode.Should().Be(0, result.Stderr);
        var lines = result.Lines;
        lines.Should().Contain(l => l.StartsWith("table pairs (WITHOUT ROWID, root page ", StringComparison.Ordinal));
        lines.Should().Contain(l => l.StartsWith("  w ", StringComparison.Ordinal) && l.EndsWith("| STORED AS (b * 1.5)", StringComparison.Ordinal));
        lines.Should().Contain("  primary key (a, b DESC) (the storage order)");
    }

    [Fact]
    public void Schema_describes_indexes_with_uniqueness_order_collation_and_partial_where()
    {
        var result = CliFixture.Run("schema", FeatureDb());

        result.ExitCode.Should().Be(0, result.Stderr);
        var lines = result.Lines;
        // Sharc lists the key of a WITHOUT ROWID table as an index (it has no row in sqlite_schema): the table's b-tree.
        lines.Should().Contain("4 indexes");
        lines.Should().ContainInOrder(
            "unique index sqlite_autoindex_pairs_1 on pairs (a, b DESC)",
            "  root page 3; created automatically for a PRIMARY KEY or UNIQUE constraint; holds the table's rows");
        lines.Should().Contain("unique index people_name on people (name DESC, age)");
        lines.Should().Contain("index adults on people (age) WHERE age >= 18");
        lines.Should().Contain("index pairs_w on pairs (w)");
        lines.Should().Contain(l => l.StartsWith("  root page ", StringComparison.Ordinal) && l.EndsWith("; entries end with the rowid", StringComparison.Ordinal));
        lines.Should().Contain(l => l.EndsWith("; entries end with the primary key (a, b)", StringComparison.Ordinal));
    }

    [Fact]
    public void Schema_shows_index_collations_that_differ_from_binary()
    {
        string db = _fx.CreateDb("coll.db",
            "CREATE TABLE t(a TEXT, b TEXT COLLATE NOCASE)",
            "CREATE INDEX t_ab ON t(a COLLATE RTRIM, b DESC)");

        var result = CliFixture.Run("schema", db);

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Lines.Should().Contain("index t_ab on t (a COLLATE RTRIM, b COLLATE NOCASE DESC)");
    }

    [Fact]
    public void Schema_lists_views_and_triggers_with_their_sql()
    {
        var result = CliFixture.Run("schema", FeatureDb());

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Lines.Should().ContainInOrder(
            "1 view", "", "view names", "  CREATE VIEW names AS SELECT name FROM people",
            "", "1 trigger", "", "trigger people_ai on people", "  CREATE TRIGGER people_ai AFTER INSERT ON people BEGIN SELECT 1; END");
    }

    [Fact]
    public void Schema_of_an_empty_database_says_there_is_nothing()
    {
        string path = _fx.PathOf("empty.db");
        File.WriteAllBytes(path, []);

        var result = CliFixture.Run("schema", path);

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Lines.Should().ContainInOrder("no tables", "", "no indexes", "", "no views", "", "no triggers");
    }

    [Fact]
    public void Schema_marks_automatic_indexes_and_autoincrement()
    {
        string db = _fx.CreateDb("auto.db",
            "CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT, code TEXT UNIQUE)");

        var result = CliFixture.Run("schema", db);

        result.ExitCode.Should().Be(0, result.Stderr);
        result.Lines.Should().Contain("table t (rowid table, AUTOINCREMENT, root page 2)");
        result.Lines.Should().Contain("unique index sqlite_autoindex_t_1 on t (code)");
        result.Lines.Should().Contain(l => l.Contains("created automatically for a PRIMARY KEY or UNIQUE constraint", StringComparison.Ordinal));
        result.Lines.Should().Contain("table sqlite_sequence (rowid table, root page 4)");
    }
}
