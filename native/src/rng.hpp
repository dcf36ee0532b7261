// The game's random number generator, bit for bit as unotable/rng.py specifies it.
//
// MT19937 seeded with init_by_array over the 32-bit words of the seed (least significant first),
// exactly as CPython's random.Random(int) does; below(n) = (x * n) >> 64 with x one 64-bit output
// (two 32-bit outputs, the first the low word); shuffle = Fisher-Yates from the last position down.
#pragma once
#include <cstddef>
#include <cstdint>

namespace uno {

struct Rng {
    static constexpr int N = 624;
    uint32_t mt[N];
    int32_t mti;

    void init_genrand(uint32_t s) {
        mt[0] = s;
        for (mti = 1; mti < N; mti++)
            mt[mti] = 1812433253U * (mt[mti - 1] ^ (mt[mti - 1] >> 30)) + static_cast<uint32_t>(mti);
    }

    // CPython's init_by_array (Modules/_randommodule.c); key holds at least one word.
    void seed_words(const uint32_t* key, size_t len) {
        init_genrand(19650218U);
        size_t i = 1, j = 0;
        size_t k = N > len ? N : len;
        for (; k; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + static_cast<uint32_t>(j);
            i++;
            j++;
            if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
            if (j >= len) j = 0;
        }
        for (k = N - 1; k; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - static_cast<uint32_t>(i);
            i++;
            if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
        }
        mt[0] = 0x80000000U;
        mti = N;
    }

    uint32_t next32() {
        uint32_t y;
        if (mti >= N) {
            int kk;
            for (kk = 0; kk < N - 397; kk++) {
                y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
                mt[kk] = mt[kk + 397] ^ (y >> 1) ^ ((0U - (y & 0x1U)) & 0x9908b0dfU);
            }
            for (; kk < N - 1; kk++) {
                y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
                mt[kk] = mt[kk + (397 - N)] ^ (y >> 1) ^ ((0U - (y & 0x1U)) & 0x9908b0dfU);
            }
            y = (mt[N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
            mt[N - 1] = mt[396] ^ (y >> 1) ^ ((0U - (y & 0x1U)) & 0x9908b0dfU);
            mti = 0;
        }
        y = mt[mti++];
        y ^= (y >> 11);
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= (y >> 18);
        return y;
    }

    uint64_t next64() {
        uint64_t lo = next32();
        uint64_t hi = next32();
        return lo | (hi << 32);
    }

    // below(n): a uniform int in [0, n), n >= 1.
    uint32_t below(uint32_t n) {
        return static_cast<uint32_t>((static_cast<unsigned __int128>(next64()) * n) >> 64);
    }

    // Python's random.Random.randrange(n) for 0 < n < 2**32 (_randbelow_with_getrandbits), used by
    // the built-in policies that port Python bots drawing from a random.Random.
    uint32_t randbelow(uint32_t n) {
        int k = 32 - __builtin_clz(n);  // n.bit_length(), n >= 1
        uint32_t r = next32() >> (32 - k);
        while (r >= n) r = next32() >> (32 - k);
        return r;
    }

    // random.Random.random(): 53 bits from two outputs.
    double random() {
        uint32_t a = next32() >> 5, b = next32() >> 6;
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }

    template <class T>
    void shuffle(T* cards, int n) {
        for (int i = n - 1; i >= 1; i--) {
            uint32_t j = below(static_cast<uint32_t>(i + 1));
            T t = cards[i];
            cards[i] = cards[j];
            cards[j] = t;
        }
    }
};

}  // namespace uno
