using BenchmarkDotNet.Running;

namespace Sharc.Benchmarks;

/// <summary>Entry point: the standard BenchmarkDotNet command line (--filter, --job, --exporters …).</summary>
public static class Program
{
    public static void Main(string[] args) => BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
}
