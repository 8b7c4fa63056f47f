using Sharc.Format;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Sql.Execution.RecordFilters;

/// <summary>
/// A WHERE clause (or the part of it the byte path understands) compiled to tests on record bytes, which a table scan
/// runs on each cell of a leaf page before the row reaches the operator tree: rows it proves false or NULL are never
/// decoded. When every part of the clause compiled (<see cref="Exact"/>), a row it proves true needs no second
/// evaluation either.
/// </summary>
internal sealed class RecordFilter(RecordTest root, bool exact)
{
    private readonly ValueArena _arena = new();

    public RecordTest Root => root;

    /// <summary>True when the whole clause compiled: True from <see cref="RecordTest.Test"/> is the clause's answer.</summary>
    public bool Exact => exact;

    private IntegerRange _range = new() { Field = -1 };

    /// <summary>A top-N's bar, tested before the clause: rows that could not enter its heap are dropped as False.</summary>
    public OrderGate? Gate { get; set; }

    /// <summary>A filter for a scan without WHERE, to carry a <see cref="Gate"/>: every other row is True.</summary>
    public static RecordFilter PassAll() => new(PassTest.Instance, exact: true);

    /// <summary>Evaluates the constants for a new run.</summary>
    public void Bind(ExecContext ctx)
    {
        _arena.Reset();
        root.Bind(ctx, _arena);
        // Which shape applies depends on the bound constants (an integer parameter this run, text the next).
        _range = IntegerRange.Of(root);
    }

    /// <summary>The truth of the filter for one record: the integer range's answer where it has one, else the tests'.</summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    public RecordTruth Test(ReadOnlySpan<byte> record, long rowId)
    {
        if (Gate is { } gate && gate.Rejects(record, rowId)) return RecordTruth.False;
        if (_range.Field >= 0)
        {
            var t = _range.Test(record);
            if (t != RecordTruth.Unknown) return t;
        }
        return root.Test(record, rowId);
    }

    /// <summary>
    /// Compiles <paramref name="where"/> for a scan of level <paramref name="frame"/>; null when no part of it can be
    /// tested on bytes. <paramref name="columnOf"/> says where a column of the level lies in the record (null: not in
    /// it, as a VIRTUAL generated column); <paramref name="compile"/> compiles the constant sides.
    /// </summary>
    public static RecordFilter? Create(IntentExpr where, int frame, Func<int, RecordColumn?> columnOf, Func<IntentExpr, Evaluator> compile)
    {
        var compiler = new Compiler(frame, columnOf, compile);
        var root = compiler.Compile(where);
        return root is OpaqueTest ? null : new RecordFilter(root, compiler.Exact);
    }

    private sealed class Compiler(int frame, Func<int, RecordColumn?> columnOf, Func<IntentExpr, Evaluator> compile)
    {
        public bool Exact { get; private set; } = true;

        public RecordTest Compile(IntentExpr e)
        {
            var t = TryCompile(e);
            if (t is not null) return t;
            Exact = false;
            return OpaqueTest.Instance;
        }

        private RecordTest? TryCompile(IntentExpr e)
        {
            switch (e)
            {
                case LogicExpr l:
                {
                    var terms = new List<RecordTest>();
                    Flatten(l, l.IsAnd, terms);
                    // An OR with a part the bytes cannot decide is Unknown for every row that part does not settle:
                    // still worth running, as its other parts may prove rows true.
                    if (terms.TrueForAll(t => t is OpaqueTest)) return null;
                    return new LogicTest(l.IsAnd, [.. terms]);
                }
                case UnaryExpr { Op: IntentUnaryOp.Not } u:
                    return TryCompile(u.Operand) is { } operand ? new NotTest(operand) : null;
                case CompareExpr { Op: IntentCompareOp.Is or IntentCompareOp.IsNot } c:
                {
                    bool not = c.Op == IntentCompareOp.IsNot;
                    if (c.Right is LiteralExpr { Value.IsNull: true } && Column(c.Left) is { } l) return new NullTest(l, not);
                    if (c.Left is LiteralExpr { Value.IsNull: true } && Column(c.Right) is { } r) return new NullTest(r, not);
                    return null;
                }
                case CompareExpr c:
                {
                    if (!StoredCompare.Supports(c.Collation)) return null;
                    var op = PipelineBuilder.CompareOp(c.Op);
                    if (Column(c.Left) is { } l && IsFixed(c.Right)) return new CompareTest(l, op, compile(c.Right), c.CompareAffinity, c.Collation);
                    if (Column(c.Right) is { } r && IsFixed(c.Left)) return new CompareTest(r, Commute(op), compile(c.Left), c.CompareAffinity, c.Collation);
                    return null;
                }
                case BetweenExpr b when Column(b.Operand) is { } col && IsFixed(b.Low) && IsFixed(b.High)
                                        && StoredCompare.Supports(b.LowCollation) && StoredCompare.Supports(b.HighCollation):
                {
                    RecordTest range = new LogicTest(true, [
                        new CompareTest(col, SqlCompareOp.Ge, compile(b.Low), b.LowAffinity, b.LowCollation),
                        new CompareTest(col, SqlCompareOp.Le, compile(b.High), b.HighAffinity, b.HighCollation)]);
                    return b.Not ? new NotTest(range) : range;
                }
                case InListExpr i when Column(i.Operand) is { } col && StoredCompare.Supports(i.Collation) && i.Items.All(IsFixed):
                {
                    RecordTest t = new InTest(col, [.. i.Items.Select(compile)], i.CompareAffinity, i.Collation);
                    return i.Not ? new NotTest(t) : t;
                }
                case NullTestExpr n when Column(n.Operand) is { } col:
                    return new NullTest(col, n.Not);
                case LikeExpr { Escape: null } k when Column(k.Operand) is { } col && IsFixed(k.Pattern):
                {
                    RecordTest t = new PrefixTest(col, k.Glob, compile(k.Pattern));
                    return k.Not ? new NotTest(t) : t;
                }
                default:
                    return null;
            }
        }

        private void Flatten(IntentExpr e, bool and, List<RecordTest> into)
        {
            if (e is LogicExpr l && l.IsAnd == and)
            {
                Flatten(l.Left, and, into);
                Flatten(l.Right, and, into);
                return;
            }
            into.Add(Compile(e));
        }

        /// <summary>Where an operand that is a plain column of this level lies (a COLLATE around it is the comparison's business).</summary>
        private RecordColumn? Column(IntentExpr e)
        {
            while (e is CollateExpr k) e = k.Operand;
            if (e is not ColumnExpr c || c.Frame != frame) return null;
            return columnOf(c.Column);
        }

        /// <summary>
        /// Literals and parameters only (possibly negated): evaluating them once per run, even for an empty table,
        /// can neither fail nor have effects, unlike a function call or a subquery.
        /// </summary>
        private static bool IsFixed(IntentExpr e) => e switch
        {
            LiteralExpr or ParameterExpr => true,
            CollateExpr k => IsFixed(k.Operand),
            UnaryExpr { Op: IntentUnaryOp.Negate or IntentUnaryOp.Plus } u => u.Operand is LiteralExpr or ParameterExpr,
            _ => false,
        };
    }

    private static SqlCompareOp Commute(SqlCompareOp op) => op switch
    {
        SqlCompareOp.Lt => SqlCompareOp.Gt,
        SqlCompareOp.Le => SqlCompareOp.Ge,
        SqlCompareOp.Gt => SqlCompareOp.Lt,
        SqlCompareOp.Ge => SqlCompareOp.Le,
        _ => op,
    };
}
