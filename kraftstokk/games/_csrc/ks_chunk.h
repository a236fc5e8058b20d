/* A chunk of seeded games played in one call: a core's `play_chunk(series, start, stop)`.
 *
 * Include after ks_game.h, ks_playability.h and ks_random.h; a core with samples defines
 * KS_CHUNK_SAMPLES (its count of sample names) first. Game i of the chunk is the game
 * `play(derive_seed(series, i))` plays, and the chunk keeps what sim/stream.py reduces
 * (games/fastcore.py's NativeChunk says how): per game a row of int64 figures, and over
 * the chunk the cards played, the losers' cards, the branching counts, which counters and
 * samples occurred and each sample's histogram. Nothing per game becomes a Python object.
 *
 * A row: finished, actions, rounds, the winner (-1: nobody went out), the loser (-1
 * unless the game finished with one), the figures of play (ks_meter_values), each
 * counter's value in ks_game.h's order (0 where the game did not count it), and per
 * sample name its values' count and sum.
 */
#ifndef KS_CHUNK_H
#define KS_CHUNK_H

#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "ks_random.h"

#ifndef KS_CHUNK_SAMPLES
#define KS_CHUNK_SAMPLES 0
#endif

enum { KS_ROW_FINISHED, KS_ROW_ACTIONS, KS_ROW_ROUNDS, KS_ROW_WINNER, KS_ROW_LOSER, KS_ROW_PLAY };
#define KS_ROW_COUNTERS (KS_ROW_PLAY + PLAY_FIGURE_COUNT)
#define KS_ROW_SAMPLES (KS_ROW_COUNTERS + COUNTER_COUNT)
#define KS_ROW_WIDTH (KS_ROW_SAMPLES + 2 * KS_CHUNK_SAMPLES)
/* The most games one call plays (a chunk's rows stay under a few hundred MB). */
#define KS_CHUNK_MAX_GAMES 1000000
#define KS_SAMPLE_SLOTS (KS_CHUNK_SAMPLES > 0 ? KS_CHUNK_SAMPLES : 1)

typedef struct {
    int64_t *counts; /* counts[value]: how often a game of the chunk sampled value */
    Py_ssize_t len;
} ks_values;

typedef struct {
    Py_ssize_t games, played;
    int64_t *rows;
    int size; /* the deck's cards */
    int64_t *cards_played, *loser_cards;
    int top; /* branching[2 .. top] are in use */
    int64_t branching[KS_MAX_BRANCHING];
    uint8_t counter_seen[COUNTER_COUNT > 0 ? COUNTER_COUNT : 1];
    uint8_t sample_seen[KS_SAMPLE_SLOTS];
    ks_values samples[KS_SAMPLE_SLOTS];
} ks_chunk;

/* Games seeded ahead, side by side: a generator's seeding is a chain of dependent
 * multiplies (ks_random.h), and sixteen chains interleaved cost much less each than one.
 * Where a game has no generator but its deal's, 32 games (ks_random_seed_many's widest
 * batch; with the seats' generators too, 32 games' would no longer stay in the cache). */
#define KS_CHUNK_AHEAD 16
#define KS_CHUNK_AHEAD_ALONE 32

/* The generators a game of the chunk draws from, seeded ahead: its deal's, Random(seed)
 * with seed = derive_seed(series, i), and seat s's, Random(derive_seed(seed, s + 1)), for
 * the seats whose bots may draw (bit s of `seats`) and did in at least KS_CHUNK_DREW of
 * the last KS_CHUNK_AHEAD games (all of them at first); the core seeds any other at its
 * first draw, as a single game does. A generator seeded ahead is the one seeded at its
 * first draw, so which are seeded ahead changes no game, only the time. */
#define KS_CHUNK_DREW 2

typedef struct {
    unsigned seats; /* the seats that may draw */
    unsigned ahead; /* those seeded ahead for the games of the last ks_chunk_seed_next */
    int per_game;   /* 1 + the seats that may draw */
    int games;      /* how many games are seeded at once */
    int drew[MAX_SEATS]; /* games since the last ks_chunk_seed_next in which a seat drew */
    ks_random *rngs; /* game g's at rngs[g * per_game], `games` games */
} ks_chunk_seeds;

/* 0, or -1 with MemoryError set. */
static int ks_chunk_seeds_open(ks_chunk_seeds *seeds, unsigned seats) {
    memset(seeds, 0, sizeof *seeds);
    seeds->seats = seats;
    seeds->per_game = 1 + __builtin_popcount(seats);
    seeds->games = seeds->per_game == 1 ? KS_CHUNK_AHEAD_ALONE : KS_CHUNK_AHEAD;
    for (int seat = 0; seat < MAX_SEATS; seat++) seeds->drew[seat] = KS_CHUNK_DREW;
    seeds->rngs =
        PyMem_Malloc(sizeof(ks_random) * (size_t)seeds->games * (size_t)seeds->per_game);
    if (seeds->rngs == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void ks_chunk_seeds_close(ks_chunk_seeds *seeds) { PyMem_Free(seeds->rngs); }

static inline ks_random *ks_chunk_slot(const ks_chunk_seeds *seeds, int g, int seat) {
    ks_random *r = &seeds->rngs[g * seeds->per_game];
    return seat < 0 ? r : r + 1 + __builtin_popcount(seeds->seats & ((1U << seat) - 1U));
}

/* Seeds the generators of games index .. of the chunk (at most seeds->games, none from
 * stop on), side by side; how many games. */
static int ks_chunk_seed_next(ks_chunk_seeds *seeds, uint64_t series, long long index,
                              long long stop) {
    ks_random *pending[KS_CHUNK_AHEAD * (MAX_SEATS + 1) > KS_CHUNK_AHEAD_ALONE
                           ? KS_CHUNK_AHEAD * (MAX_SEATS + 1)
                           : KS_CHUNK_AHEAD_ALONE];
    int games = 0, waiting = 0;
    seeds->ahead = 0;
    for (int seat = 0; seat < MAX_SEATS; seat++) {
        if ((seeds->seats >> seat & 1U) && seeds->drew[seat] >= KS_CHUNK_DREW)
            seeds->ahead |= 1U << seat;
        seeds->drew[seat] = 0;
    }
    for (; games < seeds->games && index + games < stop; games++) {
        uint64_t seed = ks_derive_seed(series, (uint64_t)(index + games));
        ks_random *r = ks_chunk_slot(seeds, games, -1);
        ks_random_lazy(r, seed);
        pending[waiting++] = r;
        for (int seat = 0; seat < MAX_SEATS; seat++) {
            if (!(seeds->ahead >> seat & 1U)) continue;
            r = ks_chunk_slot(seeds, games, seat);
            ks_random_lazy(r, ks_derive_seed(seed, (uint64_t)seat + 1));
            pending[waiting++] = r;
        }
    }
    ks_random_seed_many(pending, waiting);
    return games;
}

/* Game g's (of the last ks_chunk_seed_next) generator for its deal (seat -1), or for seat
 * `seat` when it was seeded ahead; else NULL. */
static inline ks_random *ks_chunk_seeded(const ks_chunk_seeds *seeds, int g, int seat) {
    if (seat >= 0 && !(seeds->ahead >> seat & 1U)) return NULL;
    return ks_chunk_slot(seeds, g, seat);
}

/* After a game: seat `seat`'s generator `r` (seeded ahead or at its first draw) and
 * whether it was drawn from. */
static inline void ks_chunk_drawn(ks_chunk_seeds *seeds, int seat, const ks_random *r) {
    if (!r->pending && r->index != KS_MT_N) seeds->drew[seat]++;
}

/* (series, start, stop) of play_chunk: 0 <= series < 2**64, 0 <= start <= stop, at most
 * KS_CHUNK_MAX_GAMES games; -1 with an exception set. */
static int ks_chunk_args(PyObject *args, uint64_t *series, long long *start, long long *stop) {
    PyObject *series_object;
    if (!PyArg_ParseTuple(args, "OLL:play_chunk", &series_object, start, stop)) return -1;
    if (!PyLong_Check(series_object)) {
        PyErr_SetString(PyExc_TypeError, "play_chunk: the series seed is an int");
        return -1;
    }
    *series = PyLong_AsUnsignedLongLong(series_object);
    if (*series == (uint64_t)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "play_chunk: the series seed is 0 <= seed < 2**64");
        return -1;
    }
    if (*start < 0 || *stop < *start || *stop - *start > KS_CHUNK_MAX_GAMES) {
        PyErr_Format(PyExc_ValueError,
                     "play_chunk: games %lld to %lld are not 0 <= start <= stop, at most %d",
                     *start, *stop, KS_CHUNK_MAX_GAMES);
        return -1;
    }
    return 0;
}

/* A chunk for `games` games of a deck of `size` cards, on the heap (NULL with an error). */
static ks_chunk *ks_chunk_open(Py_ssize_t games, int size) {
    ks_chunk *c = PyMem_Calloc(1, sizeof(ks_chunk));
    if (c == NULL) return (ks_chunk *)PyErr_NoMemory();
    c->games = games;
    c->size = size;
    c->top = 1;
    c->rows = PyMem_Calloc((size_t)(games ? games : 1), KS_ROW_WIDTH * sizeof(int64_t));
    c->cards_played = PyMem_Calloc((size_t)(size ? size : 1), sizeof(int64_t));
    c->loser_cards = PyMem_Calloc((size_t)(size ? size : 1), sizeof(int64_t));
    if (c->rows == NULL || c->cards_played == NULL || c->loser_cards == NULL) {
        PyMem_Free(c->rows);
        PyMem_Free(c->cards_played);
        PyMem_Free(c->loser_cards);
        PyMem_Free(c);
        return (ks_chunk *)PyErr_NoMemory();
    }
    return c;
}

static void ks_chunk_close(ks_chunk *c) {
    if (c == NULL) return;
    for (int k = 0; k < KS_CHUNK_SAMPLES; k++) PyMem_Free(c->samples[k].counts);
    PyMem_Free(c->rows);
    PyMem_Free(c->cards_played);
    PyMem_Free(c->loser_cards);
    PyMem_Free(c);
}

/* The next game's row, with its result and its figures of play filled in and its
 * branching counts added to the chunk's; the core then adds its counters, samples and
 * cards. `loser`: the game's loser, counted only when it finished. */
static int64_t *ks_chunk_game(ks_chunk *c, const ks_meter *m, int finished, long long actions,
                              long long rounds, int winner, int loser, long long cards_laid) {
    int64_t *row = c->rows + c->played++ * KS_ROW_WIDTH;
    loser = finished ? loser : -1;
    row[KS_ROW_FINISHED] = finished != 0;
    row[KS_ROW_ACTIONS] = actions;
    row[KS_ROW_ROUNDS] = rounds;
    row[KS_ROW_WINNER] = winner;
    row[KS_ROW_LOSER] = loser;
    ks_meter_values(m, finished, winner, loser, actions, cards_laid, row + KS_ROW_PLAY);
    while (c->top < m->top) c->branching[++c->top] = 0;
    for (int d = 2; d <= m->top; d++) c->branching[d] += m->branching[d];
    return row;
}

/* Counter `counter` of the game's row, which the game counted. */
static inline void ks_chunk_counter(ks_chunk *c, int64_t *row, int counter, long long value) {
    row[KS_ROW_COUNTERS + counter] = value;
    c->counter_seen[counter] = 1;
}

/* The values sample `which` took in the game (at least one). 0, or -1 with an error. */
static int ks_chunk_sample(ks_chunk *c, int64_t *row, int which, const uint16_t *values,
                           size_t len) {
    ks_values *seen = &c->samples[which];
    long long sum = 0;
    for (size_t k = 0; k < len; k++) {
        Py_ssize_t value = values[k];
        if (value >= seen->len) {
            Py_ssize_t grown = value + 64;
            int64_t *counts = PyMem_Realloc(seen->counts, (size_t)grown * sizeof(int64_t));
            if (counts == NULL) {
                PyErr_NoMemory();
                return -1;
            }
            memset(counts + seen->len, 0, (size_t)(grown - seen->len) * sizeof(int64_t));
            seen->counts = counts;
            seen->len = grown;
        }
        seen->counts[value]++;
        sum += value;
    }
    row[KS_ROW_SAMPLES + 2 * which] = (int64_t)len;
    row[KS_ROW_SAMPLES + 2 * which + 1] = sum;
    c->sample_seen[which] = 1;
    return 0;
}

/* The game played card `card` `times` times. */
static inline void ks_chunk_played(ks_chunk *c, int card, long long times) {
    if (card >= 0 && card < c->size) c->cards_played[card] += times;
}

/* The loser of a finished game was left with card `card`. */
static inline void ks_chunk_left(ks_chunk *c, int card) {
    if (card >= 0 && card < c->size) c->loser_cards[card]++;
}

static PyObject *ks_int64_bytes(const int64_t *values, Py_ssize_t len) {
    return PyBytes_FromStringAndSize((const char *)values, len * (Py_ssize_t)sizeof(int64_t));
}

/* The chunk as games/fastcore.py's NativeChunk: (rows, counter names, counters seen,
 * sample names, samples, cards played, losers' cards, branching); NULL with an error. */
static PyObject *ks_chunk_result(const ks_chunk *c, PyObject *const *counter_names,
                                 PyObject *const *sample_names) {
    PyObject *rows = NULL, *names = NULL, *seen = NULL, *sampled = NULL, *samples = NULL;
    PyObject *played = NULL;
    PyObject *left = NULL, *branching = NULL, *result = NULL;
    rows = ks_int64_bytes(c->rows, c->played * KS_ROW_WIDTH);
    names = PyTuple_New(COUNTER_COUNT);
    seen = PyBytes_FromStringAndSize((const char *)c->counter_seen, COUNTER_COUNT);
    sampled = PyTuple_New(KS_CHUNK_SAMPLES);
    samples = PyDict_New();
    played = ks_int64_bytes(c->cards_played, c->size);
    left = ks_int64_bytes(c->loser_cards, c->size);
    Py_ssize_t pairs = 0;
    for (int d = 2; d <= c->top; d++) pairs += c->branching[d] != 0;
    branching = PyBytes_FromStringAndSize(NULL, 2 * pairs * (Py_ssize_t)sizeof(int64_t));
    if (!rows || !names || !seen || !sampled || !samples || !played || !left || !branching)
        goto done;
    for (int i = 0; i < COUNTER_COUNT; i++) PyTuple_SET_ITEM(names, i, Py_NewRef(counter_names[i]));
    for (int k = 0; k < KS_CHUNK_SAMPLES; k++) PyTuple_SET_ITEM(sampled, k, Py_NewRef(sample_names[k]));
    int64_t *pair = (int64_t *)PyBytes_AS_STRING(branching);
    for (int d = 2; d <= c->top; d++) {
        if (c->branching[d]) {
            *pair++ = d;
            *pair++ = c->branching[d];
        }
    }
    for (int k = 0; k < KS_CHUNK_SAMPLES; k++) {
        if (!c->sample_seen[k]) continue;
        PyObject *histogram = PyDict_New();
        if (histogram == NULL) goto done;
        int failed = PyDict_SetItem(samples, sample_names[k], histogram) < 0;
        Py_DECREF(histogram);
        if (failed) goto done;
        for (Py_ssize_t value = 0; value < c->samples[k].len; value++) {
            if (!c->samples[k].counts[value]) continue;
            PyObject *key = PyLong_FromSsize_t(value);
            PyObject *count = PyLong_FromLongLong(c->samples[k].counts[value]);
            failed = !key || !count || PyDict_SetItem(histogram, key, count) < 0;
            Py_XDECREF(key);
            Py_XDECREF(count);
            if (failed) goto done;
        }
    }
    result = PyTuple_Pack(8, rows, names, seen, sampled, samples, played, left, branching);
done:
    Py_XDECREF(rows);
    Py_XDECREF(names);
    Py_XDECREF(seen);
    Py_XDECREF(sampled);
    Py_XDECREF(samples);
    Py_XDECREF(played);
    Py_XDECREF(left);
    Py_XDECREF(branching);
    return result;
}

#endif /* KS_CHUNK_H */
