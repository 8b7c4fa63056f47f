using Sharc.Format;
using Sharc.Sql.Intent;
using Sharc.Sql.Parsing;
using Sharc.Sql.Planning;
using Sharc.Sql.Values;
using SqlExpr = Sharc.Sql.Ast.SqlExpr;

namespace Sharc.Sql.Execution;

/// <summary>
/// Expressions compiled once against rows of tables held in memory and evaluated again and again as the rows change:
/// what the writer needs for CHECK constraints, index expressions, partial-index WHERE clauses and generated
/// columns, and what SQL writes need for RETURNING, UPSERT's SET and WHERE, and trigger conditions. One facility
/// for all of them, so that they all follow SQLite's rules for names, affinity and collation.
/// </summary>
internal sealed class RowExpressions : IDisposable
{
    private readonly Evaluator[] _evaluators;
    private readonly IntentExpr[] _intents;
    private readonly TableRowFrame[] _frames;
    private readonly ExecContext _context;
    private readonly List<SharcDataReader> _readers;

    private RowExpressions(SharcDatabase db, IReadOnlyList<IntentExpr> intents, int[] frames, int frameCount, IReadOnlyList<RowBinding> rows)
    {
        _intents = [.. intents];
        int parameters = 0;
        foreach (var e in _intents)
            IntentRewriter.Visit(e, x =>
            {
                if (x is ParameterExpr p) parameters = Math.Max(parameters, p.Slot + 1);
            });
        _context = new ExecContext(frameCount, parameters) { Database = db };
        _frames = new TableRowFrame[rows.Count];
        for (int i = 0; i < rows.Count; i++)
        {
            _frames[i] = new TableRowFrame(rows[i].Table);
            _context.Frames[frames[i]] = _frames[i];
        }
        var builder = new PipelineBuilder(db, Planner.PlanSubqueries(_intents));
        _evaluators = new Evaluator[_intents.Length];
        for (int i = 0; i < _intents.Length; i++) _evaluators[i] = builder.Compile(_intents[i]);
        _readers = builder.Readers;
    }

    /// <summary>Compiles parsed expressions; each node's offsets point into <paramref name="sql"/> (for error positions).</summary>
    public static RowExpressions Compile(SharcDatabase db, string sql, IReadOnlyList<SqlExpr> expressions, params RowBinding[] rows)
    {
        var list = new (string, SqlExpr)[expressions.Count];
        for (int i = 0; i < list.Length; i++) list[i] = (sql, expressions[i]);
        return Compile(db, list, rows);
    }

    /// <summary>Parses and compiles expressions given as SQL text, such as a CHECK constraint or an index expression.</summary>
    public static RowExpressions Compile(SharcDatabase db, IReadOnlyList<string> expressionTexts, params RowBinding[] rows)
    {
        var list = new (string, SqlExpr)[expressionTexts.Count];
        for (int i = 0; i < list.Length; i++) list[i] = (expressionTexts[i], SqlParser.ParseExpression(expressionTexts[i]));
        return Compile(db, list, rows);
    }

    private static RowExpressions Compile(SharcDatabase db, IReadOnlyList<(string Sql, SqlExpr Expr)> expressions, RowBinding[] rows)
    {
        ArgumentNullException.ThrowIfNull(db);
        var (intents, frames, frameCount) = IntentCompiler.CompileRowExpressions(db.Schema, expressions, rows);
        return new RowExpressions(db, intents, frames, frameCount, rows);
    }

    /// <summary>How many expressions there are.</summary>
    public int Count => _evaluators.Length;

    /// <summary>Parameter values by slot (SQLite's index minus one); NULL until set.</summary>
    public SqlValue[] Parameters => _context.Parameters;

    /// <summary>
    /// Points binding <paramref name="binding"/> at a row: its values in the table's column order (a VIRTUAL
    /// generated column's slot is ignored; the expression computes it) and its rowid, which an INTEGER PRIMARY KEY
    /// column reads. The array is read, not copied: keep it unchanged while evaluating.
    /// </summary>
    public void SetRow(int binding, SqlValue[] values, long rowid)
    {
        _frames[binding].Values = values;
        _frames[binding].RowId = rowid;
        _context.NextGeneration();
    }

    /// <summary>
    /// Per expression, the schema context whose expressions SQLite requires to be deterministic ("a CHECK
    /// constraint", "a generated column", "an index"), or null; 'now', 'localtime' and 'utc' fail there.
    /// </summary>
    public string?[]? PureContexts { get; set; }

    private ExecContext For(int index)
    {
        _context.Clock.PureContext = PureContexts?[index];
        return _context;
    }

    /// <summary>The value of expression <paramref name="index"/> on the current rows (text and blobs may be borrowed).</summary>
    public SqlValue Evaluate(int index) => _evaluators[index].Evaluate(For(index));

    /// <summary>True when the expression is true: what admits a row to a partial index or a WHERE.</summary>
    public bool IsTrue(int index) => _evaluators[index].Truth(For(index)) == true;

    /// <summary>True when the expression is false: a CHECK constraint fails only then (NULL passes).</summary>
    public bool IsFalse(int index) => _evaluators[index].Truth(For(index)) == false;

    /// <summary>The collation SQLite gives the expression's value (an index on the expression sorts by it).</summary>
    public Collation CollationOf(int index) => CollationRules.Of(_intents[index]) ?? Collation.Binary;

    /// <summary>The affinity of the expression's value (none unless it is a plain column or a CAST).</summary>
    public SqlAffinity AffinityOf(int index) => _intents[index].Affinity;

    /// <summary>Releases the b-tree readers of subqueries.</summary>
    public void Dispose()
    {
        foreach (var r in _readers) r.Dispose();
        _readers.Clear();
    }

    /// <summary>A table row held as values, read by column number (the rowid, or an INTEGER PRIMARY KEY, from <see cref="RowId"/>).</summary>
    private sealed class TableRowFrame(SharcTable table) : RowFrame
    {
        private readonly int _rowIdAlias = table.Columns.ToList().FindIndex(c => c.IsRowIdAlias);

        public SqlValue[] Values { get; set; } = [];

        public long RowId { get; set; }

        public override SqlValue Get(int column)
            => column == SourceColumn.RowId || column == _rowIdAlias ? SqlValue.Integer(RowId) : Values[column];
    }
}
