using System.Collections.Immutable;
using Sharc.Schema.Parsing;

namespace Sharc;

public sealed partial class SharcDatabase
{
    /// <summary>
    /// In a temp database: for each trigger created in it, the name of the database its table was found in when it
    /// was created (SQLite binds a TEMP trigger to that schema, whatever temp holds later). Replaced whole on change,
    /// so readers on other threads see one version or the next.
    /// </summary>
    internal ImmutableDictionary<string, string> TempTriggerHomes { get; set; } = ImmutableDictionary.Create<string, string>(SqlNameComparer.Instance);
}
