namespace Sharc.Tests.Schema;

/// <summary>Comparisons of Sharc's schema objects with what SQLite's PRAGMAs report for the same database.</summary>
internal static class SchemaAssert
{
    /// <summary>Names, declared types, NOT NULL, DEFAULT text, primary key positions and generated kinds.</summary>
    public static void ColumnsMatch(SchemaOracle db, SharcTable table)
    {
        var expected = db.TableXInfo(table.Name);
        table.Columns.Should().HaveCount(expected.Count);
        foreach (var e in expected)
        {
            var c = table.Columns[(int)e.Cid];
            c.Name.Should().Be(e.Name);
            c.DeclaredType.Should().Be(e.Type, "declared type of {0}", e.Name);
            c.IsNotNull.Should().Be(e.NotNull, "not-null of {0}", e.Name);
            c.DefaultSql.Should().Be(e.Default, "default of {0}", e.Name);
            c.IsPrimaryKey.Should().Be(e.Pk > 0, "pk of {0}", e.Name);
            c.PrimaryKeyPosition.Should().Be((int)e.Pk - 1, "pk position of {0}", e.Name);
            int hidden = c.Generated switch
            {
                SharcGeneratedKind.Virtual => 2,
                SharcGeneratedKind.Stored => 3,
                _ => 0,
            };
            hidden.Should().Be((int)e.Hidden, "generated kind of {0}", e.Name);
        }
    }

    /// <summary>The same indexes (constraint indexes included), with the same uniqueness, origin and keys.</summary>
    public static void IndexesMatch(SchemaOracle db, SharcTable table)
    {
        var expected = db.IndexList(table.Name);
        table.Indexes.Select(i => i.Name).Should().BeEquivalentTo(expected.Select(i => i.Name));
        // Which constraint index is the primary key's is only visible on the parsed definition for rowid tables.
        string? pkIndex = Sharc.Schema.Parsing.SchemaStatementParser.Parse(table.Sql).Table!.Indexes.FirstOrDefault(i => i.IsPrimaryKey)?.Name;
        foreach (var e in expected)
        {
            var index = table.Indexes.Single(i => i.Name == e.Name);
            index.IsUnique.Should().Be(e.Unique);
            index.IsAutoIndex.Should().Be(e.Origin != "c");
            index.IsPartial.Should().Be(e.Partial);
            (e.Origin == "pk").Should().Be(index.Name == pkIndex, "origin of {0}", e.Name);
            index.IsPrimaryKey.Should().Be(table.IsWithoutRowId && e.Origin == "pk");
            if (index.IsPrimaryKey) index.RootPage.Should().Be(table.RootPage);
            KeyColumnsMatch(db, index);
        }
    }

    /// <summary>PrimaryKey, its collations and sort orders are those of the index SQLite keys the table with.</summary>
    public static void PrimaryKeyMatches(SchemaOracle db, SharcTable table)
    {
        var pkColumns = db.TableXInfo(table.Name).Where(c => c.Pk > 0).OrderBy(c => c.Pk).Select(c => (int)c.Cid).ToList();
        table.PrimaryKey.Distinct().Should().Equal(pkColumns);
        var pkIndex = db.IndexList(table.Name).FirstOrDefault(i => i.Origin == "pk");
        if (pkIndex is null) return;
        var keys = db.IndexKeyColumns(pkIndex.Name);
        table.PrimaryKey.Should().Equal(keys.Select(k => (int)k.Cid));
        table.PrimaryKeyCollations.Should().Equal(keys.Select(k => k.Collation));
        table.PrimaryKeyDescending.Should().Equal(keys.Select(k => k.Desc));
    }

    /// <summary>Key columns as PRAGMA index_xinfo reports them: ordinal, name, order and collation.</summary>
    public static void KeyColumnsMatch(SchemaOracle db, SharcIndex index)
    {
        var expected = db.IndexKeyColumns(index.Name);
        index.Columns.Should().HaveCount(expected.Count, "key count of {0}", index.Name);
        for (int i = 0; i < expected.Count; i++)
        {
            var (e, c) = (expected[i], index.Columns[i]);
            c.TableOrdinal.Should().Be((int)e.Cid, "ordinal of key {0} of {1}", i, index.Name);
            c.Name.Should().Be(e.Name, "name of key {0} of {1}", i, index.Name);
            c.IsDescending.Should().Be(e.Desc, "order of key {0} of {1}", i, index.Name);
            c.Collation.Should().Be(e.Collation, "collation of key {0} of {1}", i, index.Name);
            (c.ExpressionSql is not null).Should().Be(e.Cid == -2, "expression flag of key {0} of {1}", i, index.Name);
        }
    }
}
