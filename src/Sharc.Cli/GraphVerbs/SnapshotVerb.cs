using Sharc.Graph;

namespace Sharc.Cli.GraphVerbs;

/// <summary>What the whole-graph verbs share: the snapshot they work on, and one line per node keyed as stored.</summary>
internal static class SnapshotVerb
{
    /// <summary>Writes <c>[key, </c> for node <paramref name="node"/>; the caller writes the value and <c>]</c>.</summary>
    public static void BeginLine(TextWriter stdout, GraphSnapshot snapshot, int node)
    {
        stdout.Write('[');
        if (snapshot.KeyType == GraphKeyType.Text) GraphJson.Write(stdout, snapshot.GetKeyUtf8(node));
        else GraphJson.Write(stdout, snapshot.GetKeyInt64(node));
        stdout.Write(',');
    }
}
