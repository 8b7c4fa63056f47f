#if !NET9_0_OR_GREATER
namespace System.Threading;

/// <summary>
/// .NET 8 stand-in for .NET 9's <c>System.Threading.Lock</c>. The compiler turns <c>lock</c> over a type of this name
/// into <see cref="EnterScope"/>, so the stand-in supplies it over an ordinary monitor on this object.
/// </summary>
internal sealed class Lock
{
    // The monitor is on a private object: converting this Lock to object would itself draw the compiler's warning.
    private readonly object _monitor = new();

    public Scope EnterScope()
    {
        Monitor.Enter(_monitor);
        return new Scope(_monitor);
    }

    public ref struct Scope
    {
        private readonly object _monitor;

        internal Scope(object monitor) => _monitor = monitor;

        public void Dispose() => Monitor.Exit(_monitor);
    }
}
#endif
