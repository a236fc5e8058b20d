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
 * happens at the first draw, so a bot that never draws costs nothing; or several at once
 * (ks_random_seed_pending), which costs little more than one; sixteen at once with AVX2
 * (ks_random_seed_many), which costs less per generator again.
 * tests/test_games_fastcore.py plays tens of thousands of games through the cores and
 * the Python engine, each drawing from these and from random.Random.
 */
#ifndef KS_RANDOM_H
#define KS_RANDOM_H

#include <stdint.h>
#include <string.h>

#define KS_MT_N 624
#define KS_MT_M 397
#define KS_LANES 4

typedef struct {
    uint32_t state[KS_MT_N];
    int index;   /* the next word to draw */
    int ready;   /* words below it are twisted already (the twist is made as drawn) */
    int pending; /* 1: seeded lazily and not drawn from yet */
    uint64_t seed;
} ks_random;

/* Every int seed starts from init_genrand(19650218): made once, then copied. */
static uint32_t ks_mt_seed_base[KS_MT_N];
static int ks_mt_seed_base_made = 0;

static void ks_mt_make_seed_base(void) {
    uint32_t *mt = ks_mt_seed_base;
    mt[0] = 19650218U;
    for (int i = 1; i < KS_MT_N; i++) {
        mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    }
    ks_mt_seed_base_made = 1;
}

/* CPython's init_by_array for `lanes` generators side by side, each with its seed (below
 * 2**64: a key of one or two words) as the key. Seeding one generator is a chain of about
 * 1,250 dependent multiplies; interleaved, three chains cost little more than one. With
 * at most two key words, step t adds key[0] when t is even, and key[1] + 1 when it is odd
 * (key[0] again for a one-word key): the same t for every lane. */
static inline __attribute__((always_inline)) void ks_mt_seed_lanes(ks_random *const *rs,
                                                                   const int lanes) {
    uint32_t *mt[KS_LANES], even[KS_LANES], odd[KS_LANES], prev[KS_LANES];
    if (!ks_mt_seed_base_made) ks_mt_make_seed_base();
    for (int g = 0; g < lanes; g++) {
        mt[g] = rs[g]->state;
        memcpy(mt[g], ks_mt_seed_base, sizeof ks_mt_seed_base);
        uint32_t low = (uint32_t)(rs[g]->seed & 0xFFFFFFFFU);
        uint32_t high = (uint32_t)(rs[g]->seed >> 32);
        even[g] = low;
        odd[g] = high ? high + 1U : low;
        prev[g] = mt[g][0];
    }
    int i = 1;
    for (int t = 0; t < KS_MT_N; t++) {
        const uint32_t *add = (t & 1) ? odd : even;
#pragma GCC unroll 4
        for (int g = 0; g < lanes; g++) {
            prev[g] = (mt[g][i] ^ ((prev[g] ^ (prev[g] >> 30)) * 1664525U)) + add[g];
            mt[g][i] = prev[g];
        }
        if (++i >= KS_MT_N) {
            for (int g = 0; g < lanes; g++) mt[g][0] = prev[g];
            i = 1;
        }
    }
    for (int k = KS_MT_N - 1; k > 0; k--) {
#pragma GCC unroll 4
        for (int g = 0; g < lanes; g++) {
            prev[g] = (mt[g][i] ^ ((prev[g] ^ (prev[g] >> 30)) * 1566083941U)) - (uint32_t)i;
            mt[g][i] = prev[g];
        }
        if (++i >= KS_MT_N) {
            for (int g = 0; g < lanes; g++) mt[g][0] = prev[g];
            i = 1;
        }
    }
    for (int g = 0; g < lanes; g++) {
        mt[g][0] = 0x80000000U; /* a non-zero initial state is assured */
        rs[g]->index = rs[g]->ready = KS_MT_N;
        rs[g]->pending = 0;
    }
}

static void ks_mt_seed_1(ks_random *const *rs) { ks_mt_seed_lanes(rs, 1); }
static void ks_mt_seed_2(ks_random *const *rs) { ks_mt_seed_lanes(rs, 2); }
static void ks_mt_seed_3(ks_random *const *rs) { ks_mt_seed_lanes(rs, 3); }
static void ks_mt_seed_4(ks_random *const *rs) { ks_mt_seed_lanes(rs, 4); }

/* random.Random(seed) for 0 <= seed < 2**64. */
static void ks_random_seed(ks_random *r, uint64_t seed) {
    r->seed = seed;
    ks_mt_seed_1(&r);
}

/* Like ks_random_seed, but the state is made at the first draw. */
static void ks_random_lazy(ks_random *r, uint64_t seed) {
    r->pending = 1;
    r->seed = seed;
}

/* Seeds every generator of rs[0..n) still pending, side by side, making the states
 * ks_random_seed makes: a core may seed at once every generator it will draw from. Four
 * lanes when exactly four are left, else three at a time: the cheapest per generator. */
#define KS_SEED_AT_ONCE 16 /* more than a core seats; any beyond seed at their first draw */

static void ks_random_seed_pending(ks_random *const *rs, int n) {
    ks_random *todo[KS_SEED_AT_ONCE];
    int left = 0;
    for (int g = 0; g < n && left < KS_SEED_AT_ONCE; g++) {
        if (rs[g]->pending) todo[left++] = rs[g];
    }
    ks_random **next = todo;
    while (left > 0) {
        int lanes = left == 4 ? 4 : left >= 3 ? 3 : left;
        switch (lanes) {
            case 4: ks_mt_seed_4(next); break;
            case 3: ks_mt_seed_3(next); break;
            case 2: ks_mt_seed_2(next); break;
            default: ks_mt_seed_1(next); break;
        }
        next += lanes;
        left -= lanes;
    }
}

/* Sixteen generators at once (a chunk seeds its next games' ahead): with AVX2, eight
 * lanes to a vector and two vectors interleaved, the same steps as ks_mt_seed_lanes (a
 * lane's words kept in a row of vectors, transposed into each generator's state at the
 * end, eight words by eight); elsewhere four times four lanes. The states are the ones
 * ks_random_seed makes, on any machine: only the speed differs. */
#define KS_WIDE 16

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define KS_WIDE_AVX2 1

__attribute__((target("avx2"))) static void ks_mt_seed_avx2(ks_random *const *rs) {
    enum { V = KS_WIDE / 8 };
    static __m256i st[KS_MT_N][V]; /* 40 kB; the cores run holding the GIL */
    __m256i prev[V], even[V], odd[V];
    if (!ks_mt_seed_base_made) ks_mt_make_seed_base();
    for (int i = 0; i < KS_MT_N; i++) {
        __m256i base = _mm256_set1_epi32((int)ks_mt_seed_base[i]);
        for (int v = 0; v < V; v++) st[i][v] = base;
    }
    for (int v = 0; v < V; v++) {
        uint32_t lo[8], hi[8];
        for (int l = 0; l < 8; l++) {
            uint64_t seed = rs[8 * v + l]->seed;
            uint32_t high = (uint32_t)(seed >> 32);
            lo[l] = (uint32_t)(seed & 0xFFFFFFFFU);
            hi[l] = high ? high + 1U : lo[l];
        }
        even[v] = _mm256_loadu_si256((const __m256i *)lo);
        odd[v] = _mm256_loadu_si256((const __m256i *)hi);
        prev[v] = st[0][v];
    }
    const __m256i first = _mm256_set1_epi32(1664525), second = _mm256_set1_epi32(1566083941);
    int i = 1;
    for (int t = 0; t < KS_MT_N; t++) {
        const __m256i *add = (t & 1) ? odd : even;
        for (int v = 0; v < V; v++) {
            __m256i x = _mm256_xor_si256(prev[v], _mm256_srli_epi32(prev[v], 30));
            x = _mm256_xor_si256(st[i][v], _mm256_mullo_epi32(x, first));
            prev[v] = st[i][v] = _mm256_add_epi32(x, add[v]);
        }
        if (++i >= KS_MT_N) {
            for (int v = 0; v < V; v++) st[0][v] = prev[v];
            i = 1;
        }
    }
    for (int k = KS_MT_N - 1; k > 0; k--) {
        const __m256i index = _mm256_set1_epi32(i);
        for (int v = 0; v < V; v++) {
            __m256i x = _mm256_xor_si256(prev[v], _mm256_srli_epi32(prev[v], 30));
            x = _mm256_xor_si256(st[i][v], _mm256_mullo_epi32(x, second));
            prev[v] = st[i][v] = _mm256_sub_epi32(x, index);
        }
        if (++i >= KS_MT_N) {
            for (int v = 0; v < V; v++) st[0][v] = prev[v];
            i = 1;
        }
    }
    /* rows i .. i + 7 of eight lanes -> eight words of each lane's generator */
    for (int row = 0; row < KS_MT_N; row += 8) {
        for (int v = 0; v < V; v++) {
            __m256i t[8], u[8];
            for (int k = 0; k < 8; k += 2) {
                t[k] = _mm256_unpacklo_epi32(st[row + k][v], st[row + k + 1][v]);
                t[k + 1] = _mm256_unpackhi_epi32(st[row + k][v], st[row + k + 1][v]);
            }
            for (int k = 0; k < 8; k += 4) {
                u[k] = _mm256_unpacklo_epi64(t[k], t[k + 2]);
                u[k + 1] = _mm256_unpackhi_epi64(t[k], t[k + 2]);
                u[k + 2] = _mm256_unpacklo_epi64(t[k + 1], t[k + 3]);
                u[k + 3] = _mm256_unpackhi_epi64(t[k + 1], t[k + 3]);
            }
            for (int l = 0; l < 4; l++) {
                _mm256_storeu_si256((__m256i *)&rs[8 * v + l]->state[row],
                                    _mm256_permute2x128_si256(u[l], u[l + 4], 0x20));
                _mm256_storeu_si256((__m256i *)&rs[8 * v + l + 4]->state[row],
                                    _mm256_permute2x128_si256(u[l], u[l + 4], 0x31));
            }
        }
    }
    for (int g = 0; g < KS_WIDE; g++) {
        rs[g]->state[0] = 0x80000000U; /* a non-zero initial state is assured */
        rs[g]->index = rs[g]->ready = KS_MT_N;
        rs[g]->pending = 0;
    }
}

static int ks_have_avx2 = -1;
#endif

static void ks_mt_seed_wide(ks_random *const *rs) {
#ifdef KS_WIDE_AVX2
    if (ks_have_avx2 < 0) {
        __builtin_cpu_init();
        ks_have_avx2 = __builtin_cpu_supports("avx2") != 0;
    }
    if (ks_have_avx2) {
        ks_mt_seed_avx2(rs);
        return;
    }
#endif
    for (int g = 0; g < KS_WIDE; g += 4) ks_mt_seed_4(rs + g);
}

/* Seeds every generator of rs[0..n) still pending (any number), sixteen at a time where
 * it can (ks_mt_seed_wide), the rest as ks_random_seed_pending does. */
static void ks_random_seed_many(ks_random *const *rs, int n) {
    ks_random *todo[KS_WIDE];
    int left = 0;
    for (int g = 0; g < n; g++) {
        if (!rs[g]->pending) continue;
        todo[left++] = rs[g];
        if (left == KS_WIDE) {
            ks_mt_seed_wide(todo);
            left = 0;
        }
    }
    ks_random_seed_pending(todo, left);
}

/* core.derive_seed(seed, part): the seed of a sub-stream (seat s's bot: part s + 1). */
static inline uint64_t ks_derive_seed(uint64_t seed, uint64_t part) {
    uint64_t value = seed * 6364136223846793005ULL + 1442695040888963407ULL + part;
    return value ^ (value >> 29);
}

/* Words [from, to) of the next state, in place: the twist's steps in its own order, each
 * reading the words of the old state above it and the new ones below, so a twist made a
 * few words at a time as they are drawn gives the words a whole one gives. A generator
 * that draws a few numbers (a bot naming a category) twists a few words, not 624. */
#define KS_TWIST_STEP 32

static void ks_mt_twist_words(uint32_t *mt, int from, int to) {
    uint32_t y;
    int kk = from;
    for (; kk < to && kk < KS_MT_N - KS_MT_M; kk++) {
        y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
        mt[kk] = mt[kk + KS_MT_M] ^ (y >> 1) ^ ((0U - (y & 1U)) & 0x9908b0dfU);
    }
    for (; kk < to && kk < KS_MT_N - 1; kk++) {
        y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
        mt[kk] = mt[kk + (KS_MT_M - KS_MT_N)] ^ (y >> 1) ^ ((0U - (y & 1U)) & 0x9908b0dfU);
    }
    if (kk < to) {
        y = (mt[KS_MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[KS_MT_N - 1] = mt[KS_MT_M - 1] ^ (y >> 1) ^ ((0U - (y & 1U)) & 0x9908b0dfU);
    }
}

/* The next words of the state: a new twist once every 624 draws, made KS_TWIST_STEP words
 * at a time. */
static void ks_mt_twist_more(ks_random *r) {
    if (r->index >= KS_MT_N) r->index = r->ready = 0;
    int to = r->ready + KS_TWIST_STEP < KS_MT_N ? r->ready + KS_TWIST_STEP : KS_MT_N;
    ks_mt_twist_words(r->state, r->ready, to);
    r->ready = to;
}

static inline uint32_t ks_genrand_uint32(ks_random *r) {
    if (r->pending) ks_random_seed(r, r->seed);
    if (r->index >= r->ready) ks_mt_twist_more(r);
    uint32_t y = r->state[r->index++];
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

/* The games' "shuffle by random sort keys": items[0..m) (m <= 256) in the order of
 * sorted(items, key=keys.__getitem__), ties in their given order, as Python's stable sort
 * leaves them. The keys are random() draws, uniform in [0, 1), so the items are first
 * dealt into m buckets by key (scaling by m keeps the keys' order between buckets), in
 * their given order, and each small bucket is insertion-sorted: linear time on average. */
static void ks_sort_by_random_keys(const double *keys, const uint8_t *items, int m,
                                   uint8_t *out) {
    int first[257] = {0}, fill[256];
    uint8_t bucket_of[256];
    for (int k = 0; k < m; k++) {
        int bucket = (int)(keys[items[k]] * m);
        bucket_of[k] = (uint8_t)(bucket < m ? bucket : m - 1);
        first[bucket_of[k] + 1]++;
    }
    for (int b = 0; b < m; b++) {
        first[b + 1] += first[b];
        fill[b] = first[b];
    }
    for (int k = 0; k < m; k++) {
        int b = bucket_of[k];
        int j = fill[b]++;
        double key = keys[items[k]];
        while (j > first[b] && keys[out[j - 1]] > key) { /* strict: ties keep their order */
            out[j] = out[j - 1];
            j--;
        }
        out[j] = items[k];
    }
}

#endif
