using Sharc.Format;
using Sharc.Sql.Execution;
using Sharc.Sql.Intent;
using Sharc.Sql.Values;

namespace Sharc.Write;

/// <summary>
/// What the writer computes from a row with SQL expressions: generated columns, expression index keys, partial-index
/// WHERE clauses and CHECK constraints. All of them are compiled once, into one <see cref="RowExpressions"/> bound to
/// the row being written, so they follow SQLite's rules for names, affinity and collation. Tables without any of them
/// never touch this code, which keeps their inserts allocation-free.
/// </summary>
internal sealed partial class TableWriter
{
    private RowExpressions? _computed;
    private SqlValue[] _sqlRow = [];
    /// <summary>Per column: the expression computing a generated column, or -1.</summary>
    private int[] _generatedExpr = [];
    private int _generatedCount;
    private int _checkFirst;
    private int _checkCount;

    private bool HasComputed => _computed is not null;

    private void PlanComputed()
    {
        var texts = new List<string>();
        _generatedExpr = new int[_fieldCount];
        Array.Fill(_generatedExpr, -1);
        foreach (var c in _table.Columns)
        {
            if (c.Generated == SharcGeneratedKind.None) continue;
            _generatedExpr[c.Ordinal] = texts.Count;
            texts.Add(c.GeneratedSql!);
            _generatedCount++;
        }
        _checkFirst = texts.Count;
        foreach (var check in _table.Checks) texts.Add(check.ExpressionSql);
        _checkCount = _table.Checks.Count;
        foreach (var ix in _indexes)
        {
            var cols = ix.Index.Columns;
            for (int i = 0; i < cols.Count; i++)
            {
                if (cols[i].ExpressionSql is not { } sql) continue;
                ix.Expressions ??= CreateFilled(ix.Fields.Length, -1);
                ix.Expressions[i] = texts.Count;
                texts.Add(sql);
            }
            if (ix.Index.WhereSql is { } where)
            {
                ix.Where = texts.Count;
                texts.Add(where);
            }
        }
        if (texts.Count == 0) return;
        _computed = RowExpressions.Compile(_db, texts, new RowBinding(_table.Name, _table));
        var pure = new string?[texts.Count];
        for (int i = 0; i < pure.Length; i++)
            pure[i] = i < _checkFirst ? "a generated column" : i < _checkFirst + _checkCount ? "a CHECK constraint" : "an index";
        _computed.PureContexts = pure;
        _sqlRow = new SqlValue[_fieldCount];
        foreach (var ix in _indexes)
        {
            if (ix.Expressions is null) continue;
            var cols = ix.Index.Columns;
            for (int i = 0; i < cols.Count; i++)
                if (ix.Expressions[i] >= 0 && !cols[i].HasExplicitCollation) ix.Collations[i] = _computed.CollationOf(ix.Expressions[i]);
        }
    }

    private static int[] CreateFilled(int n, int value)
    {
        var a = new int[n];
        Array.Fill(a, value);
        return a;
    }

    /// <summary>Points the expressions at the current record (the rowid alias reads <paramref name="rowId"/>).</summary>
    private void BindRow(long rowId)
    {
        RowValues.ToSqlRow(_record, _table, Encoding, _sqlRow);
        _computed!.SetRow(0, _sqlRow, rowId);
    }

    /// <summary>
    /// Fills the generated columns of the current record, STORED and VIRTUAL alike (an index may key on either), each
    /// with its column's affinity. A generated column may read another; repeating the pass as many times as there are
    /// generated columns settles any chain of them whatever their declaration order.
    /// </summary>
    private void ComputeGenerated(long rowId)
    {
        if (_generatedCount == 0) return;
        for (int pass = 0; pass < _generatedCount; pass++)
        {
            for (int c = 0; c < _fieldCount; c++)
            {
                int e = _generatedExpr[c];
                if (e < 0) continue;
                BindRow(rowId);
                _record[c] = RowValues.ToStored(_computed!.Evaluate(e), _table.Columns[c].Affinity, Encoding);
            }
        }
    }

    /// <summary>Generated columns, NOT NULL, STRICT types and CHECK for the row about to be written, in SQLite's order.</summary>
    private void PrepareComputedRow(long rowId)
    {
        ComputeGenerated(rowId);
        CheckNotNull();
        CheckStrictTypes();
        if (_checkCount == 0) return;
        BindRow(rowId);
        for (int i = 0; i < _checkCount; i++)
        {
            if (!_computed!.IsFalse(_checkFirst + i)) continue;
            var check = _table.Checks[i];
            throw new SharcConstraintException($"CHECK constraint failed: {check.Name ?? check.ExpressionSql}");
        }
    }

    /// <summary>True when the current row belongs in the index (always, unless the index is partial).</summary>
    private bool Admits(IndexPlan ix, long rowId)
    {
        if (ix.Where < 0) return true;
        BindRow(rowId);
        return _computed!.IsTrue(ix.Where);
    }

    /// <summary>Fills the index's scratch with the first <paramref name="fields"/> values of the current row's entry.</summary>
    private void FillKey(IndexPlan ix, long rowId, int fields)
    {
        if (ix.Expressions is null)
        {
            for (int i = 0; i < fields; i++) ix.Scratch[i] = ValueFor(ix.Fields[i], rowId);
            return;
        }
        BindRow(rowId);
        for (int i = 0; i < fields; i++)
        {
            int e = ix.Expressions[i];
            // An expression key has no affinity: its value is stored exactly as computed.
            ix.Scratch[i] = e >= 0 ? RowValues.ToStored(_computed!.Evaluate(e), SharcAffinity.Blob, Encoding) : ValueFor(ix.Fields[i], rowId);
        }
    }

    /// <summary>How many columns an insert without a column list gives values for (generated columns take none).</summary>
    public int WritableColumnCount => _fieldCount - _generatedCount;

    /// <summary>Refuses writes to generated columns with SQLite's words.</summary>
    public void CheckWritable(int ordinal, bool insert)
    {
        var c = _table.Columns[ordinal];
        if (c.Generated == SharcGeneratedKind.None) return;
        throw new SharcException(insert ? $"cannot INSERT into generated column \"{c.Name}\"" : $"cannot UPDATE generated column \"{c.Name}\"");
    }
}
