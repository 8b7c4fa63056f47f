using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace Sharc.Storage.Crypto;

/// <summary>
/// HMAC-SHA512 of up to eight equal-length messages at once, one per 64-bit lane of AVX-512 registers (FIPS 180-4's
/// SHA-512 run eight times side by side). A page's HMAC is a serial chain of compressions, so one page cannot use
/// the vector width; eight pages of a scan can, for a fraction of eight single HMACs. The key's inner and outer
/// states are computed once. Only where AVX-512 (F and BW) is available; callers fall back to the platform's HMAC.
/// </summary>
internal sealed class HmacSha512x8
{
    public const int Lanes = 8;
    private const int BlockSize = 128;

    private static readonly ulong[] K = RoundConstants();
    private static readonly ulong[] Initial = InitialState();

    // Key material: pinned, zeroed by Clear.
    private readonly ulong[] _inner = GC.AllocateArray<ulong>(8, pinned: true);
    private readonly ulong[] _outer = GC.AllocateArray<ulong>(8, pinned: true);

    /// <summary>True where the vector HMAC runs (x64 with AVX-512 F and BW).</summary>
    public static bool IsSupported => Avx512F.IsSupported && Avx512BW.IsSupported;

    /// <summary>Computes the key's inner and outer states (the key is at most one block, as SQLCipher's are).</summary>
    public HmacSha512x8(ReadOnlySpan<byte> key)
    {
        if (key.Length > BlockSize) throw new ArgumentException("an HMAC key longer than a block is not supported", nameof(key));
        Span<byte> pad = stackalloc byte[BlockSize];
        Absorb(key, 0x36, pad, _inner);
        Absorb(key, 0x5c, pad, _outer);
        pad.Clear();
    }

    /// <summary>Zeroes the key states (the codec's dispose).</summary>
    public void Clear()
    {
        Array.Clear(_inner);
        Array.Clear(_outer);
    }

    private static void Absorb(ReadOnlySpan<byte> key, byte mask, Span<byte> pad, ulong[] state)
    {
        pad.Fill(mask);
        for (int i = 0; i < key.Length; i++) pad[i] ^= key[i];
        Span<Vector512<ulong>> s = stackalloc Vector512<ulong>[8];
        for (int i = 0; i < 8; i++) s[i] = Vector512.Create(Initial[i]);
        Span<Vector512<ulong>> w = stackalloc Vector512<ulong>[16];
        for (int t = 0; t < 16; t++) w[t] = Vector512.Create(BinaryPrimitives.ReadUInt64BigEndian(pad[(t * 8)..]));
        Compress(s, w);
        for (int i = 0; i < 8; i++) state[i] = s[i].GetElement(0);
        w.Clear();
    }

    /// <summary>
    /// The HMAC of <c>buffers[i][offset .. offset + length]</c> followed by <c>numbers[i]</c> (4 bytes, little-endian)
    /// for each of the first <paramref name="count"/> lanes, into <paramref name="macs"/> (64 bytes a lane, big-endian
    /// as SHA-512 writes its digest).
    /// </summary>
    public void Compute(byte[][] buffers, int count, int offset, int length, ReadOnlySpan<uint> numbers, Span<byte> macs)
    {
        if (!IsSupported) throw new PlatformNotSupportedException();
        if ((uint)count - 1 >= Lanes) throw new ArgumentOutOfRangeException(nameof(count));
        // Unused lanes hash the first lane's message again; their results are ignored.
        Span<int> lane = stackalloc int[Lanes];
        for (int i = 0; i < Lanes; i++) lane[i] = i < count ? i : 0;

        Span<Vector512<ulong>> s = stackalloc Vector512<ulong>[8];
        for (int i = 0; i < 8; i++) s[i] = Vector512.Create(_inner[i]);
        Span<Vector512<ulong>> w = stackalloc Vector512<ulong>[16];
        int full = length / BlockSize;
        for (int b = 0; b < full; b++)
        {
            int at = offset + b * BlockSize;
            for (int t = 0; t < 16; t++)
            {
                int o = at + t * 8;
                var v = Vector512.Create(
                    Word(buffers[lane[0]], o), Word(buffers[lane[1]], o), Word(buffers[lane[2]], o), Word(buffers[lane[3]], o),
                    Word(buffers[lane[4]], o), Word(buffers[lane[5]], o), Word(buffers[lane[6]], o), Word(buffers[lane[7]], o));
                w[t] = ByteSwap(v);
            }
            Compress(s, w);
        }

        // The tail of each message, its page number, the padding and the length (the key block counts) in the last
        // block or two, laid out per lane in scratch.
        int rest = length - full * BlockSize;
        int tailBytes = rest + 4 + 1 + 16 <= BlockSize ? BlockSize : 2 * BlockSize;
        Span<byte> tails = stackalloc byte[Lanes * 2 * BlockSize];
        tails.Clear();
        ulong bits = ((ulong)BlockSize + (ulong)length + 4) * 8;
        for (int i = 0; i < Lanes; i++)
        {
            var t = tails.Slice(i * 2 * BlockSize, tailBytes);
            buffers[lane[i]].AsSpan(offset + full * BlockSize, rest).CopyTo(t);
            BinaryPrimitives.WriteUInt32LittleEndian(t[rest..], numbers[lane[i]]);
            t[rest + 4] = 0x80;
            BinaryPrimitives.WriteUInt64BigEndian(t[(tailBytes - 8)..], bits);
        }
        for (int b = 0; b < tailBytes; b += BlockSize)
        {
            for (int t = 0; t < 16; t++)
            {
                int o = b + t * 8;
                const int L = 2 * BlockSize;
                w[t] = ByteSwap(Vector512.Create(
                    Word(tails, o), Word(tails, L + o), Word(tails, 2 * L + o), Word(tails, 3 * L + o),
                    Word(tails, 4 * L + o), Word(tails, 5 * L + o), Word(tails, 6 * L + o), Word(tails, 7 * L + o)));
            }
            Compress(s, w);
        }

        // The outer hash: the inner digest (already eight big-endian words a lane) in one padded block.
        for (int i = 0; i < 8; i++) w[i] = s[i];
        w[8] = Vector512.Create(0x8000000000000000UL);
        for (int i = 9; i < 15; i++) w[i] = Vector512<ulong>.Zero;
        w[15] = Vector512.Create((ulong)(BlockSize + 64) * 8);
        for (int i = 0; i < 8; i++) s[i] = Vector512.Create(_outer[i]);
        Compress(s, w);

        for (int i = 0; i < count; i++)
            for (int k = 0; k < 8; k++)
                BinaryPrimitives.WriteUInt64BigEndian(macs[(i * 64 + k * 8)..], s[k].GetElement(i));
        tails.Clear();
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Word(ReadOnlySpan<byte> b, int at) => MemoryMarshal.Read<ulong>(b[at..]);

    private static readonly Vector512<byte> SwapMask = Vector512.Create(
        (byte)7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
        7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
        7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
        7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector512<ulong> ByteSwap(Vector512<ulong> v) => Avx512BW.Shuffle(v.AsByte(), SwapMask).AsUInt64();

    // Ternary-logic truth tables: x ^ y ^ z, x ? y : z (Ch), majority (Maj).
    private const byte Xor3 = 0x96, Choose = 0xCA, Majority = 0xE8;

    /// <summary>One SHA-512 compression of the block in <paramref name="w"/> (consumed) into state <paramref name="s"/>.</summary>
    private static void Compress(Span<Vector512<ulong>> s, Span<Vector512<ulong>> w)
    {
        Vector512<ulong> a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
        var k = K;
        for (int t = 0; t < 80; t++)
        {
            Vector512<ulong> wt;
            if (t < 16) wt = w[t];
            else
            {
                var w2 = w[(t - 2) & 15];
                var w15 = w[(t - 15) & 15];
                var s1 = Avx512F.TernaryLogic(Avx512F.RotateRight(w2, 19), Avx512F.RotateRight(w2, 61), Avx512F.ShiftRightLogical(w2, 6), Xor3);
                var s0 = Avx512F.TernaryLogic(Avx512F.RotateRight(w15, 1), Avx512F.RotateRight(w15, 8), Avx512F.ShiftRightLogical(w15, 7), Xor3);
                wt = w[t & 15] = s1 + w[(t - 7) & 15] + s0 + w[t & 15];
            }
            var big1 = Avx512F.TernaryLogic(Avx512F.RotateRight(e, 14), Avx512F.RotateRight(e, 18), Avx512F.RotateRight(e, 41), Xor3);
            var t1 = h + big1 + Avx512F.TernaryLogic(e, f, g, Choose) + Vector512.Create(k[t]) + wt;
            var big0 = Avx512F.TernaryLogic(Avx512F.RotateRight(a, 28), Avx512F.RotateRight(a, 34), Avx512F.RotateRight(a, 39), Xor3);
            var t2 = big0 + Avx512F.TernaryLogic(a, b, c, Majority);
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        s[0] += a;
        s[1] += b;
        s[2] += c;
        s[3] += d;
        s[4] += e;
        s[5] += f;
        s[6] += g;
        s[7] += h;
    }

    // FIPS 180-4 defines the constants as the first 64 bits of the fractional parts of the cube roots of the first 80
    // primes (round constants) and of the square roots of the first 8 (initial state); computed here, exactly.
    private static ulong[] RoundConstants() => Roots(80, 3);

    private static ulong[] InitialState() => Roots(8, 2);

    private static ulong[] Roots(int count, int degree)
    {
        var result = new ulong[count];
        int n = 0;
        for (int p = 2; n < count; p++)
        {
            bool prime = true;
            for (int q = 2; q * q <= p; q++) prime &= p % q != 0;
            if (!prime) continue;
            // floor(root(p) * 2^64) = floor(root(p * 2^(64 * degree))); its low 64 bits are the fraction's.
            var x = IntegerRoot(new BigInteger(p) << (64 * degree), degree);
            result[n++] = (ulong)(x & ulong.MaxValue);
        }
        return result;
    }

    private static BigInteger IntegerRoot(BigInteger value, int degree)
    {
        // Newton's method from above converges to the floor of the root.
        var x = BigInteger.One << (int)((value.GetBitLength() + degree - 1) / degree + 1);
        while (true)
        {
            var next = ((degree - 1) * x + value / BigInteger.Pow(x, degree - 1)) / degree;
            if (next >= x) return x;
            x = next;
        }
    }
}
