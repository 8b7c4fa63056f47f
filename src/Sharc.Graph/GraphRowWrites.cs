using System.Text;

namespace Sharc.Graph;

/// <summary>A reusable buffer that text keys and kinds are encoded into (UTF-8), so lookups allocate nothing.</summary>
internal sealed class Utf8Scratch
{
    private byte[] _bytes = new byte[64];

    public ReadOnlySpan<byte> Encode(string text)
    {
        int max = Encoding.UTF8.GetMaxByteCount(text.Length);
        if (_bytes.Length < max) _bytes = new byte[Math.Max(max, _bytes.Length * 2)];
        return _bytes.AsSpan(0, Encoding.UTF8.GetBytes(text, _bytes));
    }
}

/// <summary>Node rows as the mapping lays them out: a prepared insert of the mapped columns, updates and deletes by rowid (or by key).</summary>
internal sealed class NodeWrite
{
    private readonly SharcDatabase _db;
    private readonly string _table;
    // Null when the key is the bare rowid, which a prepared insert cannot name: such rows go through Insert.
    private readonly PreparedInsert? _insert;
    private readonly string[] _insertColumns;
    private readonly int _kindSlot, _dataSlot;
    private readonly string[] _updateColumns;
    private readonly object?[] _updateValues;

    public NodeWrite(SharcDatabase db, SharcGraph graph)
    {
        var map = graph.Schema;
        _db = db;
        var table = Resolve(db, map.NodeTable, map.NodeData, "node");
        _table = table.Name;
        WithoutRowId = table.IsWithoutRowId;
        if (WithoutRowId && table.PrimaryKey.Count != 1)
            throw new GraphMappingException(GraphMappingProblem.UnsupportedTable, $"node table {table.Name} is WITHOUT ROWID with a primary key of {table.PrimaryKey.Count} columns: the writer needs the node key to be the whole primary key");
        var key = SharcGraph.FindColumn(table, map.NodeKey);
        var columns = new List<string> { key?.Name ?? "rowid" };
        var update = new List<string>();
        _kindSlot = Slot(map.NodeKind, columns, update);
        _dataSlot = Slot(map.NodeData, columns, update);
        _insertColumns = [.. columns];
        if (key is not null) _insert = db.PrepareInsert(table.Name, _insertColumns);
        _updateColumns = [.. update];
        _updateValues = new object?[update.Count];
    }

    public bool WithoutRowId { get; }

    public long Insert(GraphKey key, string? kind, string? data, Utf8Scratch scratch)
    {
        if (_insert is null)
        {
            var values = new object?[_insertColumns.Length];
            values[0] = key.Int64;
            if (_kindSlot >= 0) values[_kindSlot] = kind;
            if (_dataSlot >= 0) values[_dataSlot] = data;
            return _db.Insert(_table, _insertColumns, values);
        }
        if (key.Text is { } text) _insert.SetText(0, scratch.Encode(text));
        else _insert.SetInt64(0, key.Int64);
        SetTextOrNull(_insert, _kindSlot, kind);
        SetTextOrNull(_insert, _dataSlot, data);
        return _insert.Execute();
    }

    public void Update(GraphKey key, long rowId, string? kind, string? data)
    {
        if (_updateColumns.Length == 0) return;
        int i = 0;
        if (_kindSlot >= 0) _updateValues[i++] = kind;
        if (_dataSlot >= 0) _updateValues[i] = data;
        if (WithoutRowId) _db.UpdateByKey(_table, [KeyObject(key)], _updateColumns, _updateValues);
        else _db.Update(_table, rowId, _updateColumns, _updateValues);
    }

    public void Delete(GraphKey key, long rowId)
    {
        if (WithoutRowId) _db.DeleteByKey(_table, KeyObject(key));
        else _db.Delete(_table, rowId);
    }

    private static object KeyObject(GraphKey key) => key.Text ?? (object)key.Int64;

    /// <summary>The mapped table, its data column (which only the writer uses, so only it checks) verified.</summary>
    internal static SharcTable Resolve(SharcDatabase db, string name, string? dataColumn, string role)
    {
        var table = db.Schema.GetTable(name);
        if (dataColumn is not null && SharcGraph.FindColumn(table, dataColumn) is null)
            throw new GraphMappingException(GraphMappingProblem.UnknownColumn, $"{role} table {table.Name} has no column {dataColumn} (the {role} data)");
        return table;
    }

    /// <summary>A mapped optional column joins the insert (its slot is returned) and the updatable columns; -1 when unmapped.</summary>
    internal static int Slot(string? column, List<string> insert, List<string> update)
    {
        if (column is null) return -1;
        insert.Add(column);
        update.Add(column);
        return insert.Count - 1;
    }

    internal static void SetTextOrNull(PreparedInsert insert, int slot, string? value)
    {
        if (slot < 0) return;
        if (value is null) insert.SetNull(slot);
        else insert.SetText(slot, value);
    }
}

/// <summary>Edge rows: a prepared insert of the mapped columns, updates and deletes by rowid.</summary>
internal sealed class EdgeWrite
{
    private readonly SharcDatabase _db;
    private readonly string _table;
    private readonly PreparedInsert _insert;
    private readonly int _kindSlot, _weightSlot, _dataSlot;
    private readonly string[] _updateColumns;
    private readonly object?[] _updateValues;

    public EdgeWrite(SharcDatabase db, SharcGraph graph)
    {
        var map = graph.Schema;
        _db = db;
        var table = NodeWrite.Resolve(db, map.EdgeTable, map.EdgeData, "edge");
        _table = table.Name;
        var columns = new List<string> { map.EdgeSource, map.EdgeTarget };
        var update = new List<string>();
        _kindSlot = NodeWrite.Slot(map.EdgeKind, columns, update);
        _weightSlot = NodeWrite.Slot(map.EdgeWeight, columns, update);
        _dataSlot = NodeWrite.Slot(map.EdgeData, columns, update);
        _insert = db.PrepareInsert(table.Name, [.. columns]);
        _updateColumns = [.. update];
        _updateValues = new object?[update.Count];
    }

    public long Insert(GraphKey source, GraphKey target, string? kind, double weight, string? data, Utf8Scratch scratch)
    {
        if (source.Text is { } s)
        {
            _insert.SetText(0, scratch.Encode(s));
            _insert.SetText(1, scratch.Encode(target.Text!));
        }
        else
        {
            _insert.SetInt64(0, source.Int64);
            _insert.SetInt64(1, target.Int64);
        }
        NodeWrite.SetTextOrNull(_insert, _kindSlot, kind);
        if (_weightSlot >= 0) _insert.SetDouble(_weightSlot, weight);
        NodeWrite.SetTextOrNull(_insert, _dataSlot, data);
        return _insert.Execute();
    }

    public bool Update(long rowId, string? kind, double weight, string? data)
    {
        if (_updateColumns.Length == 0) return Exists(rowId);
        int i = 0;
        if (_kindSlot >= 0) _updateValues[i++] = kind;
        if (_weightSlot >= 0) _updateValues[i++] = weight;
        if (_dataSlot >= 0) _updateValues[i] = data;
        return _db.Update(_table, rowId, _updateColumns, _updateValues);
    }

    public bool Delete(long rowId) => _db.Delete(_table, rowId);

    private bool Exists(long rowId)
    {
        using var rows = _db.CreateReader(_table, "rowid");
        return rows.Seek(rowId);
    }
}
