/* The random stream of Python's random.Random, for the games' native cores.
 *
 * A native core must take exactly the actions of the Python engine, so every draw it
 * makes must equal the draw random.Random would make from the same seed. This is the
 * Mersenne Twister MT19937 (Matsumoto and Nishimura, 1998) seeded as CPython seeds it
 * from an int (init_by_array over the seed's 32-bit words, least significant first),
 * with the derived draws CPython's random module builds on it:
 *
 *   ks_random_double   random.random()
 *   ks_getrandbits     random.getrandbits(k), 0 <= k <= 32
 *   ks_randbelow       random.randrange(n) for n >= 1 (Random._randbelow_with_getrandbits)
 *
 * A generator may be seeded lazily (ks_random_lazy), as core.LazyRandom is: the seeding
 * (about 1,900 steps) happens at the first draw, so a bot that never draws costs nothing.
 * tests/test_games_fastcore.py plays tens of thousands of games through the cores and
 * the Python engine, each drawing from these and from random.Random.
 */
#ifndef KS_RANDOM_H
#define KS_RANDOM_H

#include <stdint.h>
#include <string.h>

#define KS_MT_N 624
#define KS_MT_M 397

typedef struct {
    uint32_t state[KS_MT_N];
    int index;
    int pending; /* 1: seeded lazily and not drawn from yet */
    uint64_t seed;
} ks_random;

static void ks_mt_init_genrand(ks_random *r, uint32_t s) {
    uint32_t *mt = r->state;
    mt[0] = s;
    for (int i = 1; i < KS_MT_N; i++) {
        mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    }
    r->index = KS_MT_N;
}

/* Every int seed starts from init_genrand(19650218): made once, then copied (a third
 * of the cost of seeding). */
static uint32_t ks_mt_seed_base[KS_MT_N];
static int ks_mt_seed_base_made = 0;

static void ks_mt_init_by_array(ks_random *r, const uint32_t *key, int key_length) {
    uint32_t *mt = r->state;
    if (!ks_mt_seed_base_made) {
        ks_mt_init_genrand(r, 19650218U);
        memcpy(ks_mt_seed_base, mt, sizeof ks_mt_seed_base);
        ks_mt_seed_base_made = 1;
    } else {
        memcpy(mt, ks_mt_seed_base, sizeof ks_mt_seed_base);
        r->index = KS_MT_N;
    }
    int i = 1, j = 0;
    for (int k = KS_MT_N > key_length ? KS_MT_N : key_length; k > 0; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= KS_MT_N) {
            mt[0] = mt[KS_MT_N - 1];
            i = 1;
        }
        if (j >= key_length) j = 0;
    }
    for (int k = KS_MT_N - 1; k > 0; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= KS_MT_N) {
            mt[0] = mt[KS_MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000U; /* a non-zero initial state is assured */
}

/* random.Random(seed) for 0 <= seed < 2**64: one key word below 2**32, else two. */
static void ks_random_seed(ks_random *r, uint64_t seed) {
    uint32_t key[2] = {(uint32_t)(seed & 0xFFFFFFFFU), (uint32_t)(seed >> 32)};
    ks_mt_init_by_array(r, key, key[1] ? 2 : 1);
    r->pending = 0;
    r->seed = seed;
}

/* Like ks_random_seed, but the state is made at the first draw. */
static void ks_random_lazy(ks_random *r, uint64_t seed) {
    r->pending = 1;
    r->seed = seed;
}

static inline uint32_t ks_genrand_uint32(ks_random *r) {
    uint32_t *mt = r->state;
    uint32_t y;
    if (r->pending) ks_random_seed(r, r->seed);
    if (r->index >= KS_MT_N) {
        int kk;
        for (kk = 0; kk < KS_MT_N - KS_MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + KS_MT_M] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        }
        for (; kk < KS_MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (KS_MT_M - KS_MT_N)] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        }
        y = (mt[KS_MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[KS_MT_N - 1] = mt[KS_MT_M - 1] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        r->index = 0;
    }
    y = mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.random(): 53 bits from two words. */
static inline double ks_random_double(ks_random *r) {
    uint32_t a = ks_genrand_uint32(r) >> 5;
    uint32_t b = ks_genrand_uint32(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* random.getrandbits(k) for 0 <= k <= 32. */
static inline uint32_t ks_getrandbits(ks_random *r, int k) {
    if (k == 0) return 0;
    return ks_genrand_uint32(r) >> (32 - k);
}

static inline int ks_bit_length(uint32_t n) {
    int bits = 0;
    while (n) {
        bits++;
        n >>= 1;
    }
    return bits;
}

/* random.randrange(n) for n >= 1: draw n.bit_length() bits until below n. */
static inline uint32_t ks_randbelow(ks_random *r, uint32_t n) {
    int k = ks_bit_length(n);
    uint32_t v = ks_getrandbits(r, k);
    while (v >= n) v = ks_getrandbits(r, k);
    return v;
}

#endif
