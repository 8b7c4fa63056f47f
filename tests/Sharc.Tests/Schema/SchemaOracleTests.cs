namespace Sharc.Tests.Schema;

/// <summary>
/// Creates tables and indexes with real SQLite, builds Sharc's schema from the resulting sqlite_schema rows,
/// and compares every column and index with what SQLite's PRAGMAs report.
/// </summary>
public class SchemaOracleTests
{
    public static TheoryData<string> Tables => new()
    {
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT NOT NULL, c REAL DEFAULT 1.5, d BLOB, e)",
        "CREATE TABLE t(a integer primary key autoincrement, b \"integer\", c 'int', d \"my\"\"type\", e 'foo' 'bar', f [big int])",
        "CREATE TABLE t(a INT /*c*/ KEY, b  unsigned   big   int, c DECIMAL( 10 , 5 ), d Integer(5), e varchar(+10), f \"varchar\"(10), g x generated)",
        "CREATE TABLE t(a int generated always as (1), b generated always as (2) stored, c foo always as (3), d GENERATED   ALWAYS   as (4) virtual, e)",
        "CREATE TABLE t(a UNIQUE, b UNIQUE COLLATE nocase UNIQUE, c, d PRIMARY KEY DESC, UNIQUE(a), UNIQUE(a DESC), UNIQUE(c, a), UNIQUE(b COLLATE rtrim), UNIQUE(b))",
        "CREATE TABLE t(a UNIQUE, b, PRIMARY KEY(a))",
        "CREATE TABLE t(a UNIQUE, b, PRIMARY KEY(a)) WITHOUT ROWID",
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b UNIQUE) WITHOUT ROWID",
        "CREATE TABLE t(a INTEGER, b UNIQUE, PRIMARY KEY(a COLLATE nocase DESC)) WITHOUT ROWID",
        "CREATE TABLE t(a INTEGER, b UNIQUE, PRIMARY KEY(a COLLATE nocase DESC))",
        "CREATE TABLE t(a INTEGER PRIMARY KEY DESC, b)",
        "CREATE TABLE t(a INT PRIMARY KEY, b)",
        "CREATE TABLE t(a, b, c, PRIMARY KEY(b, a, b)) WITHOUT ROWID",
        "CREATE TABLE t(a, b, c, PRIMARY KEY(b, a, b COLLATE nocase, a))",
        "CREATE TABLE t(a INT PRIMARY KEY, b ANY, c integer, d text not null, e blob, f real) STRICT",
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b int) STRICT, WITHOUT ROWID",
        "CREATE TABLE t(k TEXT COLLATE NOCASE, k2 INT, v, PRIMARY KEY(k, k2 DESC)) WITHOUT ROWID",
        "CREATE TABLE t(a TEXT COLLATE nocase PRIMARY KEY, b TEXT UNIQUE COLLATE rtrim, c UNIQUE ON CONFLICT REPLACE)",
        "CREATE TABLE t(a, b, UNIQUE('a', \"b\"), UNIQUE((b)), CONSTRAINT pk PRIMARY KEY ([a] ASC, b DESC) ON CONFLICT IGNORE)",
        "CREATE TABLE t(a PRIMARY KEY UNIQUE, b UNIQUE)",
        "CREATE TABLE t(\"odd name\" TEXT, [a b] INT, `c` REAL, 'd' BLOB, key, desc, replace, \"select\")",
        "CREATE TABLE t(a DEFAULT ( /* c */ 1 --x\n ), b DEFAULT - /* c */ 1, c DEFAULT/**/'x'/**/, d DEFAULT (\t1\n))",
        "CREATE TABLE t(a DEFAULT 1, b DEFAULT -1, c DEFAULT - 1, d DEFAULT +'x', e DEFAULT 'it''s', f DEFAULT \"abc\", g DEFAULT abc, h DEFAULT true, i DEFAULT (1+2), j DEFAULT ( 1 + 2 ), k DEFAULT x'0A', l DEFAULT current_timestamp, m DEFAULT null, n DEFAULT 1.5e3, o DEFAULT 0x1F, p DEFAULT [key], q DEFAULT -0x10, r DEFAULT ( (5) ))",
        "CREATE TABLE t(a INT DEFAULT 5 NOT NULL CHECK(a > 0) REFERENCES x(y) ON DELETE CASCADE ON UPDATE SET NULL MATCH FULL DEFERRABLE INITIALLY DEFERRED COLLATE rtrim, b, FOREIGN KEY(a, b) REFERENCES x(y, z) NOT DEFERRABLE, CHECK(a <> b), CONSTRAINT c2 CHECK(1))",
        "CREATE TABLE t(a CONSTRAINT x CONSTRAINT y NOT NULL CONSTRAINT z, b NULL DEFAULT 1 DEFAULT 2, c INT DEFERRABLE)",
        "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, UNIQUE(name COLLATE nocase), UNIQUE(name), UNIQUE(id))",
        "CREATE TABLE t(a PRIMARY KEY, b, UNIQUE(a COLLATE nocase), UNIQUE(a DESC))",
        "CREATE TABLE t(a, b, c, PRIMARY KEY(c, a), UNIQUE(a, c), UNIQUE(c, a)) WITHOUT ROWID",
        "CREATE TABLE t(a, b UNIQUE, PRIMARY KEY(b)) WITHOUT ROWID",
        "CREATE TABLE t(a \"INTEGER\" PRIMARY KEY, b)",
        "CREATE TABLE t(a [INTEGER] PRIMARY KEY ASC, b)",
        "CREATE TABLE t(a INTEGER NOT NULL CONSTRAINT p PRIMARY KEY ON CONFLICT FAIL AUTOINCREMENT, b)",
        "CREATE TABLE t(a INTEGER, b, PRIMARY KEY('a' AUTOINCREMENT))",
        "CREATE TABLE t(x AS (y * 2) STORED, y INT, z TEXT GENERATED ALWAYS AS (upper(w)), w TEXT COLLATE nocase)",
        "CREATE TABLE t(a, b, PRIMARY KEY(a) UNIQUE(b) CHECK(a>b))",
        "CREATE TABLE \"quoted \"\"table\"\"\"(a UNIQUE, b PRIMARY KEY)",
        "CREATE TABLE 'string name'(a UNIQUE)",
        "CREATE TABLE t(É, é)",
        "CREATE TABLE t(a PRIMARY KEY COLLATE nocase, b UNIQUE COLLATE rtrim COLLATE nocase, c)",
        "CREATE TABLE t(a PRIMARY KEY COLLATE nocase, b, UNIQUE(a), UNIQUE(a COLLATE binary)) WITHOUT ROWID",
        "CREATE TABLE t(a \"\", b '', c [], d \"INT\" PRIMARY KEY)",
        "CREATE TABLE t(a INTEGER, b, PRIMARY KEY(a)) WITHOUT ROWID",
        "CREATE TABLE t(a, b, PRIMARY KEY(b, a), UNIQUE(b, a), UNIQUE(a, b)) WITHOUT ROWID",
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b INT UNIQUE, c TEXT UNIQUE, d INT, UNIQUE(b, c)) STRICT",
    };

    [Theory]
    [MemberData(nameof(Tables))]
    public void Columns_match_pragma_table_xinfo(string createTable)
    {
        using var db = SchemaOracle.Create(createTable);
        SchemaAssert.ColumnsMatch(db, db.Build().Tables[0]);
    }

    [Theory]
    [MemberData(nameof(Tables))]
    public void Indexes_match_pragma_index_list_and_index_xinfo(string createTable)
    {
        using var db = SchemaOracle.Create(createTable);
        SchemaAssert.IndexesMatch(db, db.Build().Tables[0]);
    }

    [Theory]
    [MemberData(nameof(Tables))]
    public void Primary_key_matches_the_key_index_sqlite_uses(string createTable)
    {
        using var db = SchemaOracle.Create(createTable);
        SchemaAssert.PrimaryKeyMatches(db, db.Build().Tables[0]);
    }

    public static TheoryData<string, string> RowIdAliases => new()
    {
        { "CREATE TABLE t(a INTEGER PRIMARY KEY, b)", "a" },
        { "CREATE TABLE t(a integer primary key asc, b)", "a" },
        { "CREATE TABLE t(a \"INTEGER\" PRIMARY KEY, b)", "a" },
        { "CREATE TABLE t(a INTEGER, b, PRIMARY KEY(a DESC))", "a" },
        { "CREATE TABLE t(a INTEGER, b, PRIMARY KEY(a COLLATE nocase))", "a" },
        { "CREATE TABLE t(a INTEGER PRIMARY KEY DESC, b)", "" },
        { "CREATE TABLE t(a INT PRIMARY KEY, b)", "" },
        { "CREATE TABLE t(a INTEGER(5) PRIMARY KEY, b)", "" },
        { "CREATE TABLE t(a UNSIGNED INTEGER PRIMARY KEY, b)", "" },
        { "CREATE TABLE t(a INTEGER, b INTEGER, PRIMARY KEY(a, b))", "" },
        { "CREATE TABLE t(a INTEGER PRIMARY KEY, b) WITHOUT ROWID", "" },
    };

    /// <summary>A column is the rowid exactly when SQLite reads it back equal to the rowid.</summary>
    [Theory]
    [MemberData(nameof(RowIdAliases))]
    public void Rowid_alias_is_detected_as_sqlite_treats_it(string createTable, string alias)
    {
        using var db = SchemaOracle.Create(createTable);
        var table = db.Build().Tables[0];
        bool withoutRowId = table.IsWithoutRowId;
        string? sqliteAlias = null;
        if (!withoutRowId)
        {
            db.Exec("INSERT INTO t(a, b) VALUES (7, 1)");
            // Only an alias makes rowid follow the value written to the column.
            if ((long)db.Rows("SELECT rowid FROM t")[0][0]! == 7) sqliteAlias = "a";
        }
        (sqliteAlias ?? "").Should().Be(alias);
        table.RowIdAliasOrdinal.Should().Be(alias == "" ? -1 : table.FindColumn(alias)!.Ordinal);
        table.Columns.Count(c => c.IsRowIdAlias).Should().Be(alias == "" ? 0 : 1);
    }

    public static TheoryData<string> Indexes => new()
    {
        "CREATE INDEX i ON t(c)",
        "CREATE INDEX i ON t(a DESC, b ASC, \"d e\")",
        "CREATE UNIQUE INDEX IF NOT EXISTS main.i ON t (b DESC, a) WHERE b IS NOT NULL AND a > 0",
        "CREATE INDEX i ON t((a), +a, a COLLATE nocase COLLATE rtrim, -a COLLATE nocase, a+b COLLATE nocase, lower(a) COLLATE nocase, a IN (1,2) COLLATE nocase)",
        "CREATE INDEX i ON t('a', \"b\", [d e], b COLLATE \"BINARY\", b, ('b'), 'b' COLLATE rtrim)",
        "CREATE INDEX i ON t(CASE WHEN a THEN 1 END COLLATE nocase, a IS NOT NULL COLLATE rtrim, (a+b) COLLATE rtrim, a NOT NULL COLLATE rtrim, a BETWEEN 1 AND 2 COLLATE rtrim, x'01' COLLATE rtrim, a -> 'x' COLLATE rtrim)",
        "CREATE INDEX i ON t(~a COLLATE rtrim, NOT a COLLATE rtrim, a ISNULL COLLATE rtrim, a LIKE b ESCAPE 'x' COLLATE rtrim, a IS b COLLATE rtrim, CAST(a AS int) COLLATE rtrim)",
        "CREATE INDEX i ON t(a || b COLLATE rtrim, a = b COLLATE rtrim, a COLLATE rtrim IS NULL, - - a COLLATE rtrim, a COLLATE rtrim + 1, a NOTNULL COLLATE rtrim, a GLOB b COLLATE rtrim)",
        "CREATE INDEX i ON t(a IS NOT b COLLATE rtrim, a IS NOT DISTINCT FROM b COLLATE rtrim, a NOT BETWEEN 1 AND 2 COLLATE rtrim, a NOT LIKE b COLLATE rtrim, coalesce(a, b, 1) DESC)",
        "CREATE INDEX i ON t(json_extract(a, '$.x'), a ->> '$.y' DESC, substr(b, 1, 2) COLLATE nocase ASC)",
    };

    [Theory]
    [MemberData(nameof(Indexes))]
    public void Index_keys_match_pragma_index_xinfo(string createIndex)
    {
        using var db = SchemaOracle.Create("CREATE TABLE t(a, b TEXT COLLATE nocase, c INTEGER PRIMARY KEY, \"d e\")", createIndex);
        var index = db.Build().GetIndex("i");
        SchemaAssert.KeyColumnsMatch(db, index);
        index.IsUnique.Should().Be(db.IndexList("t").Single(i => i.Name == "i").Unique);
    }

    [Fact]
    public void Partial_index_keeps_its_where_clause_and_expression_keys_their_text()
    {
        using var db = SchemaOracle.Create(
            "CREATE TABLE t(a, b)",
            "CREATE INDEX i ON t(lower(a) COLLATE nocase DESC, (a + b), b) WHERE a > 0 AND (b IS NULL OR b < 5)");
        var index = db.Build().GetIndex("i");
        index.WhereSql.Should().Be("a > 0 AND (b IS NULL OR b < 5)");
        index.HasExpressions.Should().BeTrue();
        index.Columns[0].ExpressionSql.Should().Be("lower(a)");
        index.Columns[0].Collation.Should().Be("nocase");
        index.Columns[1].ExpressionSql.Should().Be("(a + b)");
        index.Columns[2].ExpressionSql.Should().BeNull();
    }
}
