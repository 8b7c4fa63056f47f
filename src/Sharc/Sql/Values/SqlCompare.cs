using Sharc.Format;

namespace Sharc.Sql.Values;

/// <summary>The six comparison operators.</summary>
internal enum SqlCompareOp : byte
{
    /// <summary><c>=</c> / <c>==</c>.</summary>
    Eq,
    /// <summary><c>!=</c> / <c>&lt;&gt;</c>.</summary>
    Ne,
    /// <summary><c>&lt;</c>.</summary>
    Lt,
    /// <summary><c>&lt;=</c>.</summary>
    Le,
    /// <summary><c>&gt;</c>.</summary>
    Gt,
    /// <summary><c>&gt;=</c>.</summary>
    Ge,
}

/// <summary>
/// Comparisons as SQLite makes them. Values of different classes order NULL &lt; INTEGER/REAL &lt; TEXT &lt; BLOB;
/// numbers compare by exact value (an INTEGER and a REAL are compared without rounding either); TEXT uses the
/// collation; BLOB compares bytes. Before a comparison operator, the comparison affinity
/// (<see cref="SqlAffinities.ForComparison"/>) is applied to both operands. Nothing here allocates.
/// </summary>
internal static class SqlCompare
{
    /// <summary>
    /// The sort order of two values with no affinity applied: negative, zero or positive. This is the order of
    /// ORDER BY, min()/max(), DISTINCT and GROUP BY (NULLs equal and first).
    /// </summary>
    public static int Compare(in SqlValue a, in SqlValue b, Collation collation = Collation.Binary)
    {
        // Sorts and range checks mostly compare two integers: settle that without ranking classes.
        if (a.Type == SharcColumnType.Integer && b.Type == SharcColumnType.Integer) return a.IntegerValue.CompareTo(b.IntegerValue);
        int ca = ClassRank(a.Type), cb = ClassRank(b.Type);
        if (ca != cb) return ca < cb ? -1 : 1;
        switch (ca)
        {
            case 0:
                return 0;
            case 1:
                return CompareNumbers(a, b);
            case 2:
                return CollationCompare.CompareUtf8(collation, a.Bytes, b.Bytes);
            default:
                return Sign(a.Bytes.SequenceCompareTo(b.Bytes));
        }
    }

    /// <summary>Compares two INTEGER/REAL values exactly.</summary>
    public static int CompareNumbers(in SqlValue a, in SqlValue b)
    {
        if (a.Type == SharcColumnType.Integer)
        {
            if (b.Type == SharcColumnType.Integer) return a.IntegerValue.CompareTo(b.IntegerValue);
            return CompareIntegerReal(a.IntegerValue, b.RealValue);
        }
        if (b.Type == SharcColumnType.Integer) return -CompareIntegerReal(b.IntegerValue, a.RealValue);
        double x = a.RealValue, y = b.RealValue;
        return x < y ? -1 : x > y ? 1 : 0;
    }

    /// <summary>Compares an integer with a double exactly (no NaN: SQLite never holds one).</summary>
    public static int CompareIntegerReal(long i, double r)
    {
        // Doubles at or beyond ±2^63 are out of the integer range; inside it, truncate and compare the parts.
        if (r < -9223372036854775808.0) return 1;
        if (r >= 9223372036854775808.0) return -1;
        long t = (long)r;
        if (i != t) return i < t ? -1 : 1;
        double frac = r - t;
        return frac > 0 ? -1 : frac < 0 ? 1 : 0;
    }

    /// <summary>
    /// A comparison operator: NULL when either operand is NULL (after <paramref name="affinity"/> is applied,
    /// which never makes a NULL), otherwise 1 or 0.
    /// </summary>
    public static SqlValue Evaluate(SqlCompareOp op, in SqlValue a, in SqlValue b, SqlAffinity affinity, Collation collation)
    {
        if (a.IsNull || b.IsNull) return SqlValue.Null;
        int c = CompareWithAffinity(a, b, affinity, collation);
        return SqlValue.Boolean(Holds(op, c));
    }

    /// <summary>
    /// A comparison operator between operands with their own affinities (a column's, a CAST's, or none); the
    /// comparison affinity is chosen from the two.
    /// </summary>
    public static SqlValue Evaluate(SqlCompareOp op, in SqlValue a, SqlAffinity affinityA, in SqlValue b, SqlAffinity affinityB, Collation collation)
        => Evaluate(op, a, b, SqlAffinities.ForComparison(affinityA, affinityB), collation);

    /// <summary>True when comparison result <paramref name="c"/> satisfies <paramref name="op"/>.</summary>
    public static bool Holds(SqlCompareOp op, int c) => op switch
    {
        SqlCompareOp.Eq => c == 0,
        SqlCompareOp.Ne => c != 0,
        SqlCompareOp.Lt => c < 0,
        SqlCompareOp.Le => c <= 0,
        SqlCompareOp.Gt => c > 0,
        _ => c >= 0,
    };

    /// <summary><c>a IS b</c> (and <c>a IS NOT DISTINCT FROM b</c>): true when both are NULL or both are equal; never NULL.</summary>
    public static bool Is(in SqlValue a, in SqlValue b, SqlAffinity affinity, Collation collation)
    {
        if (a.IsNull || b.IsNull) return a.IsNull && b.IsNull;
        return CompareWithAffinity(a, b, affinity, collation) == 0;
    }

    /// <summary><c>a IS b</c> as a value (1 or 0).</summary>
    public static SqlValue IsValue(in SqlValue a, in SqlValue b, SqlAffinity affinity, Collation collation)
        => SqlValue.Boolean(Is(a, b, affinity, collation));

    /// <summary><c>a IS NOT b</c> (and <c>a IS DISTINCT FROM b</c>) as a value (1 or 0).</summary>
    public static SqlValue IsNotValue(in SqlValue a, in SqlValue b, SqlAffinity affinity, Collation collation)
        => SqlValue.Boolean(!Is(a, b, affinity, collation));

    /// <summary>
    /// <c>x BETWEEN low AND high</c>, which SQLite evaluates as <c>x &gt;= low AND x &lt;= high</c>, each comparison
    /// with its own comparison affinity: pass <see cref="SqlAffinities.ForComparison"/> of x's and low's affinities,
    /// and of x's and high's.
    /// </summary>
    public static SqlValue Between(in SqlValue x, in SqlValue low, in SqlValue high, SqlAffinity lowComparisonAffinity, SqlAffinity highComparisonAffinity, Collation collation)
    {
        var ge = Evaluate(SqlCompareOp.Ge, x, low, lowComparisonAffinity, collation);
        var le = Evaluate(SqlCompareOp.Le, x, high, highComparisonAffinity, collation);
        return SqlLogic.And(ge, le);
    }

    /// <summary>
    /// <c>x IN (list)</c>: 1 when an element equals x; otherwise NULL when x or any element is NULL, else 0. An empty
    /// list gives 0 even for a NULL x. SQLite applies the affinity of x alone, whatever the elements' affinities
    /// (pass x's affinity). For <c>IN (SELECT …)</c> use <see cref="InSubquery"/>.
    /// </summary>
    public static SqlValue In(in SqlValue x, ReadOnlySpan<SqlValue> list, SqlAffinity affinity, Collation collation)
    {
        if (list.IsEmpty) return SqlValue.False;
        if (x.IsNull) return SqlValue.Null;
        bool sawNull = false;
        foreach (ref readonly var item in list)
        {
            if (item.IsNull)
            {
                sawNull = true;
                continue;
            }
            if (CompareWithAffinity(x, item, affinity, collation) == 0) return SqlValue.True;
        }
        return sawNull ? SqlValue.Null : SqlValue.False;
    }

    /// <summary>
    /// <c>x IN (SELECT …)</c> over the subquery's values. SQLite keeps them in a temporary index, so
    /// <paramref name="affinity"/> — <see cref="SqlAffinities.ForComparison"/> of x and the subquery column — is
    /// applied to both sides as storing does: with REAL affinity an integer becomes a double (so 9007199254740993
    /// matches 9007199254740992.0 there, though not in <c>=</c>).
    /// </summary>
    public static SqlValue InSubquery(in SqlValue x, ReadOnlySpan<SqlValue> values, SqlAffinity affinity, Collation collation)
    {
        if (values.IsEmpty) return SqlValue.False;
        if (x.IsNull) return SqlValue.Null;
        var key = SqlAffinities.ApplyForStorage(x, affinity);
        bool sawNull = false;
        foreach (ref readonly var item in values)
        {
            if (item.IsNull)
            {
                sawNull = true;
                continue;
            }
            if (Compare(key, SqlAffinities.ApplyForStorage(item, affinity), collation) == 0) return SqlValue.True;
        }
        return sawNull ? SqlValue.Null : SqlValue.False;
    }

    /// <summary><c>x NOT IN (list)</c>: the negation of <see cref="In"/> (NULL stays NULL).</summary>
    public static SqlValue NotIn(in SqlValue x, ReadOnlySpan<SqlValue> list, SqlAffinity affinity, Collation collation)
        => SqlLogic.Not(In(x, list, affinity, collation));

    /// <summary>
    /// Compares two non-NULL values after applying <paramref name="affinity"/> to both, without allocating:
    /// numbers that TEXT affinity turns into text are rendered on the stack.
    /// </summary>
    public static int CompareWithAffinity(in SqlValue a, in SqlValue b, SqlAffinity affinity, Collation collation)
    {
        if (SqlAffinities.IsNumeric(affinity))
        {
            if (a.Type == SharcColumnType.Text || b.Type == SharcColumnType.Text)
            {
                var na = SqlAffinities.ApplyForComparison(a, affinity);
                var nb = SqlAffinities.ApplyForComparison(b, affinity);
                return Compare(na, nb, collation);
            }
            return Compare(a, b, collation);
        }
        if (affinity == SqlAffinity.Text && (a.IsNumber || b.IsNumber))
        {
            Span<byte> bufA = stackalloc byte[SqlValue.NumberTextMax];
            Span<byte> bufB = stackalloc byte[SqlValue.NumberTextMax];
            // After TEXT affinity a number is text, so it ranks with TEXT against the other operand.
            int ra = a.IsNumber ? 2 : ClassRank(a.Type), rb = b.IsNumber ? 2 : ClassRank(b.Type);
            if (ra != rb) return ra < rb ? -1 : 1;
            if (ra == 2) return CollationCompare.CompareUtf8(collation, a.TextBytes(bufA), b.TextBytes(bufB));
        }
        return Compare(a, b, collation);
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    private static int ClassRank(SharcColumnType t) => t switch
    {
        SharcColumnType.Null => 0,
        SharcColumnType.Integer or SharcColumnType.Real => 1,
        SharcColumnType.Text => 2,
        _ => 3,
    };

    private static int Sign(int c) => c < 0 ? -1 : c > 0 ? 1 : 0;
}
