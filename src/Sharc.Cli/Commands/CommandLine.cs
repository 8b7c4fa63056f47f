namespace Sharc.Cli.Commands;

/// <summary>An option a command accepts: <c>--name value</c>, <c>--name=value</c>, <c>-x value</c>, or a flag.</summary>
internal sealed record OptionSpec(string Name, char? ShortName, string? ValueName, string Description)
{
    /// <summary>True when the option takes a value; false for a flag.</summary>
    public bool TakesValue => ValueName is not null;

    /// <summary>The option as shown in help ("-f, --format &lt;fmt&gt;").</summary>
    public string Display
        => (ShortName is { } s ? $"-{s}, " : "    ") + "--" + Name + (ValueName is null ? "" : $" <{ValueName}>");
}

/// <summary>A parsed command line: positional arguments in order, and the options given.</summary>
internal sealed class CommandLine
{
    private readonly Dictionary<string, string?> _options = new(StringComparer.Ordinal);

    private CommandLine(string command)
    {
        Command = command;
    }

    /// <summary>The command the arguments belong to (for error messages).</summary>
    public string Command { get; }

    /// <summary>The positional arguments.</summary>
    public List<string> Positionals { get; } = [];

    /// <summary>True when the option or flag was given.</summary>
    public bool Has(string name) => _options.ContainsKey(name);

    /// <summary>The value of an option, or null when it was not given.</summary>
    public string? Get(string name) => _options.GetValueOrDefault(name);

    /// <summary>True when the arguments ask for help (-h or --help before any "--").</summary>
    public static bool WantsHelp(IEnumerable<string> args)
    {
        foreach (var a in args)
        {
            if (a == "--") return false;
            if (a is "-h" or "--help") return true;
        }
        return false;
    }

    /// <summary>
    /// Parses <paramref name="args"/> against the options a command accepts. Options may come before, between or
    /// after positionals; "--" ends options; "-" alone is a positional. Throws a usage error for an unknown option,
    /// a missing value, or an option given twice.
    /// </summary>
    public static CommandLine Parse(string command, string[] args, IReadOnlyList<OptionSpec> specs)
    {
        var result = new CommandLine(command);
        bool optionsEnded = false;
        for (int i = 0; i < args.Length; i++)
        {
            string a = args[i];
            if (optionsEnded || a == "-" || !a.StartsWith('-'))
            {
                result.Positionals.Add(a);
                continue;
            }
            if (a == "--")
            {
                optionsEnded = true;
                continue;
            }

            OptionSpec? spec;
            string? inlineValue = null;
            if (a.StartsWith("--", StringComparison.Ordinal))
            {
                string body = a[2..];
                int eq = body.IndexOf('=', StringComparison.Ordinal);
                if (eq >= 0)
                {
                    inlineValue = body[(eq + 1)..];
                    body = body[..eq];
                }
                spec = FindLong(specs, body);
            }
            else
            {
                spec = a.Length == 2 ? FindShort(specs, a[1]) : null;
                if (spec is null && a.Length > 2 && FindShort(specs, a[1]) is { TakesValue: true } s)
                {
                    spec = s;
                    inlineValue = a[2..];
                }
            }
            if (spec is null)
                throw CliException.UsageError($"{command}: unknown option '{a}' (see 'sharc {command} --help')");
            if (result._options.ContainsKey(spec.Name))
                throw CliException.UsageError($"{command}: option --{spec.Name} given more than once");

            string? value = null;
            if (spec.TakesValue)
            {
                if (inlineValue is not null) value = inlineValue;
                else if (i + 1 < args.Length) value = args[++i];
                else throw CliException.UsageError($"{command}: option --{spec.Name} needs a value <{spec.ValueName}>");
            }
            else if (inlineValue is not null)
            {
                throw CliException.UsageError($"{command}: option --{spec.Name} takes no value");
            }
            result._options[spec.Name] = value;
        }
        return result;
    }

    /// <summary>Requires exactly the positionals named (for the error message) and returns them.</summary>
    public string[] Expect(params string[] names)
    {
        if (Positionals.Count < names.Length)
            throw CliException.UsageError($"{Command}: missing <{names[Positionals.Count]}> (usage: sharc {Command} {string.Join(' ', names.Select(n => $"<{n}>"))})");
        if (Positionals.Count > names.Length)
            throw CliException.UsageError($"{Command}: unexpected argument '{Positionals[names.Length]}'");
        return [.. Positionals];
    }

    /// <summary>Formats the options of a command for its help text (with -h, --help unless <paramref name="withHelp"/> is false).</summary>
    public static string DescribeOptions(IReadOnlyList<OptionSpec> specs, bool withHelp = true)
    {
        var all = withHelp ? specs.Append(new OptionSpec("help", 'h', null, "show this help")).ToList() : specs.ToList();
        int width = all.Max(s => s.Display.Length);
        var sb = new System.Text.StringBuilder();
        foreach (var s in all)
            sb.Append("  ").Append(s.Display.PadRight(width + 2)).Append(s.Description).Append('\n');
        return sb.ToString();
    }

    private static OptionSpec? FindLong(IReadOnlyList<OptionSpec> specs, string name)
    {
        foreach (var s in specs)
            if (s.Name == name) return s;
        return null;
    }

    private static OptionSpec? FindShort(IReadOnlyList<OptionSpec> specs, char c)
    {
        foreach (var s in specs)
            if (s.ShortName == c) return s;
        return null;
    }
}
