using Sharc.Storage;

namespace Sharc.Tests.Storage;

/// <summary>The pin protocol of <see cref="PageCache"/>, including Exchange (release and acquire under one lock).</summary>
public class PageCacheTests
{
    private static PageCache NewCache(int capacity, List<uint>? loads = null)
        => new(64, capacity, (page, buffer) =>
        {
            loads?.Add(page);
            buffer.AsSpan().Fill((byte)page);
        });

    [Fact]
    public void Exchange_unpins_the_old_page_so_a_walk_stays_within_capacity()
    {
        var cache = NewCache(8);
        var held = cache.Acquire(1);
        for (uint page = 2; page <= 200; page++)
        {
            held = cache.Exchange(held, page);
            held.Span[0].Should().Be((byte)page);
        }
        cache.Release(held);
        cache.Count.Should().BeLessThanOrEqualTo(8, "every page but the current one was handed back");
    }

    [Fact]
    public void Exchange_keeps_other_pins_so_a_pinned_page_is_never_evicted()
    {
        var cache = NewCache(8);
        var pinned = cache.Acquire(1);
        var walker = cache.Acquire(2);
        for (uint page = 3; page <= 100; page++) walker = cache.Exchange(walker, page);
        pinned.Span[0].Should().Be(1, "page 1 stayed pinned, so its buffer was not reused");
        cache.Release(walker);
        cache.Release(pinned);
    }

    [Fact]
    public void Exchange_onto_a_cached_page_is_a_hit()
    {
        var loads = new List<uint>();
        var cache = NewCache(8, loads);
        var a = cache.Acquire(5);
        var b = cache.Exchange(a, 6);
        var c = cache.Exchange(b, 5);
        c.Span[0].Should().Be(5);
        loads.Should().Equal(5u, 6u);
        cache.Release(c);
    }

    [Fact]
    public void Exchange_releases_the_old_page_even_when_loading_the_new_one_fails()
    {
        var cache = new PageCache(64, 8, (page, buffer) =>
        {
            if (page == 99) throw new IOException("disk gone");
            buffer.AsSpan().Fill((byte)page);
        });
        var a = cache.Acquire(1);
        var act = () => cache.Exchange(a, 99);
        act.Should().Throw<IOException>();
        // Page 1 is unpinned: a walk over more pages than the capacity can evict it without growing the cache.
        var w = cache.Acquire(2);
        for (uint page = 3; page <= 50; page++) w = cache.Exchange(w, page);
        cache.Release(w);
        cache.Count.Should().BeLessThanOrEqualTo(8);
    }
}
