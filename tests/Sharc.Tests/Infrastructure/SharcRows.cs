namespace Sharc.Tests.Infrastructure;

/// <summary>Reads everything a Sharc reader returns, in the same shape as <see cref="Oracle.Rows(string, string)"/>.</summary>
public static class SharcRows
{
    public static List<object?[]> All(SharcDataReader r)
    {
        var rows = new List<object?[]>();
        while (r.Read()) rows.Add(Current(r));
        return rows;
    }

    public static object?[] Current(SharcDataReader r)
    {
        var row = new object?[r.FieldCount];
        for (int i = 0; i < row.Length; i++) row[i] = r.GetValue(i);
        return row;
    }

    public static List<object?[]> All(SharcDatabase db, string table, params string[] columns)
    {
        using var r = db.CreateReader(table, columns);
        return All(r);
    }

    /// <summary>Asserts two row lists are equal value by value, with storage classes (long vs double) respected.</summary>
    public static void ShouldEqual(this List<object?[]> actual, List<object?[]> expected, string because = "")
    {
        actual.Count.Should().Be(expected.Count, "row counts must match {0}", because);
        for (int i = 0; i < expected.Count; i++)
        {
            actual[i].Length.Should().Be(expected[i].Length, "row {0} width {1}", i, because);
            for (int j = 0; j < expected[i].Length; j++)
            {
                object? e = expected[i][j], a = actual[i][j];
                if (e is null) { a.Should().BeNull("row {0} col {1} {2}", i, j, because); continue; }
                a.Should().NotBeNull("row {0} col {1} {2}", i, j, because);
                a!.GetType().Should().Be(e.GetType(), "row {0} col {1} storage class {2}", i, j, because);
                if (e is byte[] eb) ((byte[])a).Should().Equal(eb, "row {0} col {1} {2}", i, j, because);
                else if (e is double ed) ((double)a).Should().Be(ed, "row {0} col {1} {2}", i, j, because);
                else a.Should().Be(e, "row {0} col {1} {2}", i, j, because);
            }
        }
    }
}
