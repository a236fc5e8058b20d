/* Idiot's native core: whole games for seats played by the greedy, the heuristic or the
 * random bot, and playouts from a position of the Python engine.
 *
 * The pure-Python engine (state.py, bots.py, events.py) is the reference and the
 * readable source of the rules; this file plays exactly the same games, action for
 * action and draw for draw, so a simulation of these bots runs without a
 * Python call per action. Functions are named after the Python methods they mirror
 * (IdiotState._play -> play_cards, _after_lay -> after_lay, ...), with the RULES.md id
 * they carry out. tests/test_games_idiot_fastcore.py and tests/test_games_fastcore.py
 * compare the two engines.
 *
 * Every rule is read, not written, here: fast.py hands in the game's rule parameters
 * (IdiotGame.parameters: the burn count, the hand size, the variants' switches, read by
 * the names of RULE_PARAMETERS) and its per-card tables, each made from a predicate of
 * rules.py (reach, burns, resets, need_after, may_finish, may_sneak, counts_for_start,
 * run_next), and each greedy or heuristic seat's keep costs (and burn_pile), once per
 * configuration (IdiotCore). The seats, action kinds, phases and counters come from
 * ks_game.h, which the build writes from spec.py and actions.py (games/cheader.py). What
 * no table can carry is written in one function each, marked with the rules.py function
 * it mirrors (e.g. "rules.burns_on_top"); games/README.md has the recipe for a rule change.
 *
 * A game's state lives in fixed arrays: the table has at most MAX_CARDS cards and each
 * card is in exactly one place, so no container ever holds more than MAX_CARDS; the
 * appends check it all the same and turn a broken invariant into a Python exception
 * rather than a write out of bounds.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ks_game.h"
#include "ks_playability.h"
#include "ks_chunk.h"
#include "ks_random.h"
#include "ks_rules.h"

#define MAX_CARDS 64 /* IdiotGame sorts at most 1 << CARD_BITS cards */
#define CARD_BITS 6
#define MAX_ROW 8      /* the largest hand_size these arrays hold (3 rows x 8 x 2 seats <= 52) */
#define SAME_RANK 4    /* a deck holds at most four cards of a rank (IdiotGame checks) */
#define HIGHEST_RANK 127 /* above every rank: ends a seat's ranks in starting_player */
/* More than any position can offer: plays are at most one per card in the source
 * (MAX_CARDS), sneaks at most SAME_RANK, and at most two more (chance or end of run, take). */
#define MAX_LEGAL (MAX_CARDS + SAME_RANK + 4)
_Static_assert(MAX_LEGAL < KS_MAX_BRANCHING, "the meter counts every legal list");
#define COST_LIMIT ((int64_t)1 << 40) /* keeps cost * 16 far from overflow */

/* A move's kind inside the core: its action kind less KIND_BASE (ks_game.h). */
#define K(name) (KIND_##name - KIND_BASE)

static PyObject *counter_names[COUNTER_COUNT]; /* interned at module init */

enum { SEAT_GREEDY, SEAT_RANDOM, SEAT_HEURISTIC };

typedef struct {
    uint8_t kind;
    uint8_t n;        /* cards in c (PLAY, SNEAK: 1..4; SWAP: 2; FACE_DOWN: the slot, 1) */
    int8_t c[SAME_RANK];
    uint8_t at;       /* PLAY: where c[0] is in its source (hand or face-up row) */
} Move;


/* -- the configuration: one per game and seating (fast.py caches it) ----------------- */

typedef struct {
    PyObject_HEAD
    int size;                 /* cards in the table */
    int num_players;
    int num_plants;
    long long action_cap;
    Rules rules;
    int8_t rank[MAX_CARDS];
    /* IdiotGame's per-card tables, each from a predicate of rules.py */
    int8_t reach[MAX_CARDS];
    int8_t burns[MAX_CARDS];
    int8_t resets[MAX_CARDS];
    int8_t need_after[MAX_CARDS];
    int8_t may_finish[MAX_CARDS];
    int8_t may_sneak[MAX_CARDS];
    int8_t counts_for_start[MAX_CARDS];
    int8_t run_next[MAX_CARDS];
    uint16_t key[MAX_CARDS];  /* IdiotGame.sort_key: rank << CARD_BITS | card */
    int8_t plants[MAX_CARDS];
    int seat_kind[MAX_SEATS];
    int64_t cost[MAX_SEATS][MAX_CARDS]; /* the greedy and heuristic bots' keep costs */
    long long burn_pile[MAX_SEATS];     /* a heuristic seat's burn_pile setting */
    int64_t special_cost;               /* bots.SPECIAL_COST: a greedy bot keeps such cards */
    PyObject *single_play[MAX_CARDS]; /* (PLAY, card), shared by every game's actions */
    PyObject *face_down_action[MAX_ROW];
    PyObject *bare_action[KIND_COUNT]; /* (TAKE,), (CHANCE,), ... for the one-element kinds */
} IdiotCore;

/* -- one game's state ----------------------------------------------------------------- */

typedef struct {
    int8_t cards[MAX_CARDS];
    int len;
} Cards;

typedef struct {
    const IdiotCore *core;
    int n;
    Cards hand[MAX_SEATS];
    Cards up[MAX_SEATS];
    int8_t down[MAX_SEATS][MAX_ROW]; /* -1 once played, so slot numbers stay put */
    int down_left[MAX_SEATS];
    Cards stock;                  /* top = last */
    Cards pile;                   /* top = last */
    int burned;
    int need;                     /* lowest ordinary rank that may go on the pile */
    int run;                      /* sequences: the rank that continues the run, 0: none */
    int out[MAX_SEATS];
    int order[MAX_SEATS];
    int num_out;
    int active;
    int loser;
    int phase;
    int player;
    long long actions;
    long long turns;
    int over;
    int broken;                   /* an invariant failed: the caller raises */
    long long counter[COUNTER_COUNT];
    int counter_order[COUNTER_COUNT]; /* first-counted order, as the Python dict's keys */
    int counters_seen;
    int cards_played[MAX_CARDS];
    int measure;                  /* a whole game (not a playout): the meter counts */
    /* the moves made, grown on the heap */
    Move *moves;
    long long moves_len, moves_cap;
    int record;                   /* keep the moves (a chunk's games keep none) */
    ks_meter meter;               /* set up by play(), as play_game sets up its Meter */
} Game;

/* -- card lists ----------------------------------------------------------------------- */

static inline void push_card(Game *g, Cards *cards, int card) {
    if (cards->len >= MAX_CARDS) {
        g->broken = 1;
        return;
    }
    cards->cards[cards->len++] = (int8_t)card;
}

/* ordering.remove_card: the first (only) copy of card, keeping the order of the rest. */
static inline void remove_card(Game *g, Cards *cards, int card) {
    for (int i = 0; i < cards->len; i++) {
        if (cards->cards[i] == card) {
            cards->len--;
            for (; i < cards->len; i++) cards->cards[i] = cards->cards[i + 1];
            return;
        }
    }
    g->broken = 1;
}

/* remove_card for each card of a play: a legal play's cards are neighbours in its
 * sorted source, in order, so they go in one shift; else one by one. */
static inline void remove_cards(Game *g, Cards *cards, const Move *m) {
    int n = m->n, len = cards->len, i = m->at;
    /* the play was listed from this source as it is: its cards are there (a check) */
    int together =
        i + n <= len && cards->cards[i] == m->c[0] && cards->cards[i + n - 1] == m->c[n - 1];
    if (!together) {
        for (int k = 0; k < n; k++) remove_card(g, cards, m->c[k]);
        return;
    }
    cards->len = len - n;
    for (; i < len - n; i++) cards->cards[i] = cards->cards[i + n];
}

/* state.sort_cards: by rank, then card index (the keys are unique, so any sort agrees). */
static void sort_cards(const IdiotCore *core, Cards *cards) {
    for (int j = 1; j < cards->len; j++) {
        int8_t card = cards->cards[j];
        uint16_t key = core->key[card];
        int i = j;
        while (i > 0 && core->key[cards->cards[i - 1]] > key) {
            cards->cards[i] = cards->cards[i - 1];
            i--;
        }
        cards->cards[i] = card;
    }
}

/* state.insert_card: into a sorted list where it belongs. */
static void insert_card(Game *g, Cards *cards, int card) {
    if (cards->len >= MAX_CARDS) {
        g->broken = 1;
        return;
    }
    const uint16_t *key = g->core->key;
    int i = cards->len++;
    while (i > 0 && key[cards->cards[i - 1]] > key[card]) {
        cards->cards[i] = cards->cards[i - 1];
        i--;
    }
    cards->cards[i] = (int8_t)card;
}

/* -- counters (events.py: each Event.count) ------------------------------------------- */

static inline void count(Game *g, int counter) {
    if (g->counter[counter]++ == 0) g->counter_order[g->counters_seen++] = counter;
}

static inline void count_played(Game *g, int card) { g->cards_played[card]++; }

/* -- the deal (IdiotState.__init__) ----------------------------------------------------- */

/* The shuffle by random sort keys: one random() per plant card, then the positions
 * sorted by key, stably (sorted(range(...), key=keys.__getitem__)). */
static void shuffle_by_keys(const IdiotCore *core, ks_random *rng, int8_t *deck) {
    double keys[MAX_CARDS];
    uint8_t positions[MAX_CARDS], order[MAX_CARDS];
    int plants = core->num_plants;
    for (int i = 0; i < plants; i++) {
        keys[i] = ks_random_double(rng);
        positions[i] = (uint8_t)i;
    }
    ks_sort_by_random_keys(keys, positions, plants, order);
    for (int i = 0; i < plants; i++) deck[i] = core->plants[order[i]];
}

static int starting_player(const Game *g);

/* ID-2: a row face down, a row face up and a hand each; the rest is the stock. */
static void deal(Game *g, const IdiotCore *core, ks_random *rng) {
    int8_t deck[MAX_CARDS];
    int row = core->rules.hand_size;
    memset(g, 0, offsetof(Game, moves));
    g->core = core;
    g->n = core->num_players;
    shuffle_by_keys(core, rng, deck);
    for (int seat = 0; seat < g->n; seat++) {
        const int8_t *base = deck + seat * 3 * row;
        for (int k = 0; k < row; k++) {
            g->down[seat][k] = base[k];
            g->up[seat].cards[k] = base[row + k];
            g->hand[seat].cards[k] = base[2 * row + k];
        }
        g->up[seat].len = row;
        g->hand[seat].len = row;
        sort_cards(core, &g->up[seat]);
        sort_cards(core, &g->hand[seat]);
        g->down_left[seat] = row;
    }
    for (int i = g->n * 3 * row; i < core->num_plants; i++)
        g->stock.cards[g->stock.len++] = deck[i];
    g->active = g->n;
    g->loser = -1;
    if (core->rules.no_swap) {
        g->phase = PHASE_PLAYING;
        g->player = starting_player(g);
    } else {
        g->phase = PHASE_SWAPPING;
        g->player = 0; /* ID-3: seats swap in order from the dealer's left */
    }
}

/* ID-4: the lowest ordinary hand card (counts_for_start: 2 and 10 don't count), then the
 * next; a rank above every rank ends each seat's ranks, so that a shorter list that agrees
 * so far compares as Python's does. */
static int starting_player(const Game *g) {
    const int8_t *rank = g->core->rank;
    const int8_t *counts = g->core->counts_for_start;
    int best_seat = 0;
    int best[MAX_CARDS + 1];
    int best_len = 0;
    for (int seat = 0; seat < g->n; seat++) {
        int key[MAX_CARDS + 1];
        int len = 0;
        const Cards *hand = &g->hand[seat];
        for (int i = 0; i < hand->len; i++) {
            int card = hand->cards[i];
            if (counts[card]) key[len++] = rank[card]; /* the hand is sorted by rank */
        }
        key[len++] = HIGHEST_RANK;
        int less = seat == 0;
        if (!less) {
            int i = 0;
            while (i < len && i < best_len && key[i] == best[i]) i++;
            if (i < len && i < best_len) less = key[i] < best[i];
            else less = len < best_len;
        }
        if (less) {
            best_seat = seat;
            memcpy(best, key, sizeof(int) * (size_t)len);
            best_len = len;
        }
    }
    return best_seat;
}

/* -- legal actions (IdiotState._generate_general, which _generate agrees with) -------- */

typedef struct {
    Move move[MAX_LEGAL + SAME_RANK]; /* room for add_plays' writes past the end */
    int len;
    /* the plays of each rank, in list order: the first's index and the last's (a rank's
     * plays are neighbours and start with the same card); what greedy_choice reads */
    uint8_t group_first[MAX_CARDS + 1], group_last[MAX_CARDS + 1];
    int groups;
    int blind; /* how many of the moves are face-down cards (FACE_DOWN) */
} Legal;

static inline Move *add_move(Game *g, Legal *legal, int kind, int n) {
    if (legal->len >= MAX_LEGAL) {
        g->broken = 1;
        return NULL;
    }
    Move *m = &legal->move[legal->len++];
    m->kind = (uint8_t)kind;
    m->n = (uint8_t)n;
    return m;
}

static void add_face_down_moves(Game *g, Legal *legal, int p) {
    for (int slot = 0; slot < g->core->rules.hand_size; slot++) {
        if (g->down[p][slot] >= 0) {
            Move *m = add_move(g, legal, K(FACE_DOWN), 1);
            if (m) m->c[0] = (int8_t)slot;
            legal->blind++;
        }
    }
}

/* IdiotState._plays: per rank, one card up to all of them (ID-5), and the threes slipped
 * under the pile (sneak_three); src is sorted by rank, so equal ranks are neighbours.
 * A rank's group (at most SAME_RANK cards: IdiotCore_init checks the plants) is measured
 * and its plays written without a branch on the cards: the group's length by comparing
 * the next three ranks, its SAME_RANK plays always written (the list has room for them
 * past its end) and counted only if the rank may be laid. Where a play may be skipped
 * (no_finish_on_two with the stock empty and at most SAME_RANK cards held), or the list
 * could pass MAX_LEGAL, each play is added one by one as before. */
static inline __attribute__((always_inline)) void
add_plays(Game *g, Legal *legal, const Cards *src, int need, int only_rank) {
    const IdiotCore *core = g->core;
    const int8_t *rank = core->rank;
    const int8_t *cards = src->cards;
    int p = g->player;
    int total = g->hand[p].len + g->up[p].len + g->down_left[p];
    int stock_empty = g->stock.len == 0;
    int careful = stock_empty && total <= SAME_RANK;
    int size = src->len;
    int sneaks = g->pile.len && !only_rank;
    int i = 0;
    while (i < size) {
        int card = cards[i];
        int r = rank[card];
        int g1 = (i + 1 < size) & (rank[cards[(i + 1) & (MAX_CARDS - 1)]] == r);
        int g2 = g1 & (i + 2 < size) & (rank[cards[(i + 2) & (MAX_CARDS - 1)]] == r);
        int g3 = g2 & (i + 3 < size) & (rank[cards[(i + 3) & (MAX_CARDS - 1)]] == r);
        int group = 1 + g1 + g2 + g3;
        int ok = ((only_rank == 0) | (r == only_rank)) & (core->reach[card] >= need);
        if (!careful && legal->len + SAME_RANK <= MAX_LEGAL && i + SAME_RANK <= MAX_CARDS) {
            Move *m = &legal->move[legal->len];
            for (int n = 1; n <= SAME_RANK; n++, m++) {
                m->kind = (uint8_t)K(PLAY);
                m->n = (uint8_t)n;
                memcpy(m->c, cards + i, SAME_RANK);
                m->at = (uint8_t)i;
            }
            legal->group_first[legal->groups] = (uint8_t)legal->len;
            legal->len += group & -ok;
            legal->group_last[legal->groups] = (uint8_t)(legal->len - 1);
            legal->groups += ok;
        } else if (ok) {
            int first = legal->len;
            for (int n = 1; n <= group; n++) {
                if (stock_empty && n == total && !core->may_finish[card])
                    continue; /* ID-13 no_finish_on_two: a 2 may not be the last card */
                Move *m = add_move(g, legal, K(PLAY), n);
                if (m) {
                    for (int k = 0; k < n; k++) m->c[k] = cards[i + k];
                    m->at = (uint8_t)i;
                }
            }
            if (legal->len > first) {
                legal->group_first[legal->groups] = (uint8_t)first;
                legal->group_last[legal->groups++] = (uint8_t)(legal->len - 1);
            }
        }
        if (sneaks && core->may_sneak[card]) {
            for (int n = 1; n <= group; n++) {
                Move *m = add_move(g, legal, K(SNEAK), n);
                if (m)
                    for (int k = 0; k < n; k++) m->c[k] = cards[i + k];
            }
        }
        i += group;
    }
}

static void generate(Game *g, Legal *legal) {
    int p = g->player;
    legal->len = 0;
    legal->blind = 0;
    legal->groups = 0;
    if (g->phase == PHASE_SWAPPING) { /* ID-3 */
        const Cards *hand = &g->hand[p], *up = &g->up[p];
        for (int h = 0; h < hand->len; h++) {
            for (int u = 0; u < up->len; u++) {
                Move *m = add_move(g, legal, K(SWAP), 2);
                if (m) {
                    m->c[0] = hand->cards[h];
                    m->c[1] = up->cards[u];
                }
            }
        }
        add_move(g, legal, K(READY), 0);
        return;
    }
    const Cards *src = g->hand[p].len ? &g->hand[p] : &g->up[p];
    if (g->run) {
        /* ID-13 sequences: the run goes on from hand, else the face-up row, else with a
         * face-down card turned unseen (it must continue the run). */
        if (src->len) add_plays(g, legal, src, g->run, g->run);
        else add_face_down_moves(g, legal, p);
        add_move(g, legal, K(END_RUN), 0);
        return;
    }
    if (src->len) {
        add_plays(g, legal, src, g->need, 0);
        if (!legal->len && g->stock.len) add_move(g, legal, K(CHANCE), 0); /* ID-10 */
    } else {
        add_face_down_moves(g, legal, p); /* ID-11 */
    }
    if (g->pile.len) add_move(g, legal, K(TAKE), 0);
    if (!legal->len) add_move(g, legal, K(PASS), 0);
}

/* -- carrying out actions ------------------------------------------------------------- */

/* rules.next_seat (ID-12): the turn passes to the left, to the next seat still in. */
static void next_player(Game *g, int p) {
    for (int step = 0; step < g->n; step++) {
        p = p + 1 < g->n ? p + 1 : 0;
        if (!g->out[p]) {
            g->player = p;
            return;
        }
    }
    g->broken = 1; /* every seat out: _go_out ends the game before this can happen */
}

/* IdiotState._end_turn */
static void end_turn(Game *g) {
    g->turns++;
    g->run = 0;
    next_player(g, g->player);
}

static inline int is_empty(const Game *g, int p) {
    return !g->hand[p].len && !g->up[p].len && !g->down_left[p];
}

/* ID-12, IdiotState._go_out: out; one seat left with cards is the Idiot. */
static void go_out(Game *g, int p) {
    g->out[p] = 1;
    if (g->num_out < MAX_SEATS) g->order[g->num_out++] = p;
    g->active--;
    g->run = 0;
    if (g->active == 1) {
        g->turns++;
        g->loser = -1;
        for (int seat = 0; seat < g->n; seat++) {
            if (!g->out[seat]) {
                g->loser = seat;
                break;
            }
        }
        g->phase = PHASE_OVER;
        g->over = 1;
    }
}

/* ID-9, IdiotState._draw: draw back up to the hand size while the stock lasts. */
static void draw(Game *g, Cards *hand) {
    while (hand->len < g->core->rules.hand_size && g->stock.len)
        insert_card(g, hand, g->stock.cards[--g->stock.len]);
}

/* rules.burns_on_top (ID-8): the top burn_count cards of the pile are of one rank. */
static int burns_on_top_of(const IdiotCore *core, const int8_t *pile, int size) {
    const int8_t *rank = core->rank;
    int count = core->rules.burn_count;
    if (size < count) return 0;
    int top = rank[pile[size - 1]];
    for (int i = size - count; i < size - 1; i++)
        if (rank[pile[i]] != top) return 0;
    return 1;
}

/* burns_on_top_of the pile with the cards of `m` laid on it (only its top cards are read). */
static int burns_when_laid(const IdiotCore *core, const Cards *pile, const Move *m) {
    const int8_t *rank = core->rank;
    int count = core->rules.burn_count, size = pile->len + m->n;
    if (size < count) return 0;
    int top = rank[m->n ? m->c[m->n - 1] : pile->cards[pile->len - 1]];
    for (int i = size - count; i < size - 1; i++) {
        int card = i < pile->len ? pile->cards[i] : m->c[i - pile->len];
        if (rank[card] != top) return 0;
    }
    return 1;
}

static int burns_on_top(const Game *g) { return burns_on_top_of(g->core, g->pile.cards, g->pile.len); }

/* IdiotState._burn_cause: the counter of the burn ``card``, just laid on top, makes
 * (ID-7: the card burns, ID-8: burns_on_top), or -1 for none. */
static int burn_cause(const Game *g, int card) {
    if (g->core->burns[card]) return COUNTER_TEN_BURNS;
    if (burns_on_top(g)) return COUNTER_FOUR_BURNS;
    return -1;
}

/* IdiotState._after_lay: burns (ID-7, ID-8), the 2 (ID-6), going out (ID-12), runs. */
static void after_lay(Game *g, int p, int card, int burn, int from_hand, int allow_run) {
    const IdiotCore *core = g->core;
    int again = 0;
    int reset = core->resets[card];
    if (burn >= 0) {
        g->burned += g->pile.len;
        g->pile.len = 0;
        g->need = 0;
        again = 1;
    } else {
        g->need = core->need_after[card];
        if (reset) again = core->rules.two_same_player;
    }
    Cards *hand = &g->hand[p];
    if (from_hand && hand->len < core->rules.hand_size && g->stock.len) draw(g, hand);
    int out = is_empty(g, p);
    if (burn >= 0) {
        count(g, COUNTER_BURNS);
        count(g, burn);
    } else if (reset) {
        count(g, COUNTER_RESETS);
    }
    if (out) {
        go_out(g, p); /* ID-12: after a burn the next player starts the new pile */
        if (g->phase != PHASE_OVER) end_turn(g);
        return;
    }
    if (again) {
        g->run = 0;
        return;
    }
    if (core->rules.sequences && allow_run) {
        /* ID-13 sequences: on with the next rank up while the player holds one; with
         * hand and face-up row empty, a face-down card may continue it. */
        int following = core->run_next[card];
        if (following) {
            const Cards *src = hand->len ? hand : &g->up[p];
            if (src->len) {
                for (int i = 0; i < src->len; i++) {
                    if (core->rank[src->cards[i]] == following) {
                        g->run = following;
                        return;
                    }
                }
            } else if (g->down_left[p]) {
                g->run = following;
                return;
            }
        }
    }
    end_turn(g);
}

/* ID-5, IdiotState._play: cards of one rank from hand (else the face-up row). */
static void play_cards(Game *g, const Move *m) {
    const IdiotCore *core = g->core;
    int p = g->player;
    Cards *hand = &g->hand[p];
    int from_hand = hand->len > 0;
    Cards *src = from_hand ? hand : &g->up[p];
    remove_cards(g, src, m);
    for (int k = 0; k < m->n; k++) {
        push_card(g, &g->pile, m->c[k]);
        count_played(g, m->c[k]);
    }
    int card = m->c[0];
    int burn = burn_cause(g, card);
    if (burn >= 0 || core->resets[card] || core->rules.sequences) {
        after_lay(g, p, card, burn, from_hand, 1);
        return;
    }
    g->need = core->need_after[card];
    if (from_hand) draw(g, hand);
    if (is_empty(g, p)) {
        go_out(g, p);
        if (g->phase == PHASE_OVER) return;
    }
    g->turns++;
    next_player(g, p);
}

/* ID-13 sneak_three, IdiotState._sneak_under: threes slipped under the pile. */
static void sneak_under(Game *g, const Move *m) {
    int p = g->player;
    Cards *hand = &g->hand[p];
    int from_hand = hand->len > 0;
    Cards *src = from_hand ? hand : &g->up[p];
    Cards *pile = &g->pile;
    for (int k = 0; k < m->n; k++) {
        remove_card(g, src, m->c[k]);
        if (pile->len >= MAX_CARDS) {
            g->broken = 1;
            return;
        }
        memmove(pile->cards + 1, pile->cards, (size_t)pile->len);
        pile->cards[0] = m->c[k];
        pile->len++;
    }
    count(g, COUNTER_SNEAKS);
    for (int k = 0; k < m->n; k++) count_played(g, m->c[k]);
    if (from_hand) draw(g, hand);
    if (is_empty(g, p)) {
        go_out(g, p);
        if (g->phase == PHASE_OVER) return;
    }
    end_turn(g);
}

/* The pile (and a card that could not be laid) into hand: IdiotState._take, _pick_up. */
static void pile_into_hand(Game *g, Cards *hand) {
    if (hand->len + g->pile.len > MAX_CARDS) {
        g->broken = 1;
        return;
    }
    if (g->pile.len) count(g, COUNTER_PILE_PICKUPS);
    memcpy(hand->cards + hand->len, g->pile.cards, (size_t)g->pile.len);
    hand->len += g->pile.len;
    g->pile.len = 0;
}

static void take(Game *g) { /* ID-10: the whole pile into hand */
    Cards *hand = &g->hand[g->player];
    pile_into_hand(g, hand);
    sort_cards(g->core, hand);
    g->need = 0;
    end_turn(g);
}

static void pick_up(Game *g, int p, int card) {
    Cards *hand = &g->hand[p];
    pile_into_hand(g, hand);
    push_card(g, hand, card);
    sort_cards(g->core, hand);
    g->need = 0;
    end_turn(g);
}

/* ID-10 sjanse, IdiotState._chance: the top stock card is played if legal, else taken. */
static void chance(Game *g) {
    int p = g->player;
    if (!g->stock.len) {
        g->broken = 1;
        return;
    }
    int card = g->stock.cards[--g->stock.len];
    count(g, COUNTER_CHANCE_DRAWS);
    if (g->core->reach[card] >= g->need) {
        count(g, COUNTER_CHANCE_DRAWS_PLAYED);
        count_played(g, card);
        push_card(g, &g->pile, card);
        after_lay(g, p, card, burn_cause(g, card), 0, 0);
    } else {
        pick_up(g, p, card);
    }
}

/* ID-11, IdiotState._face_down: the chosen face-down card is played if legal (in a run:
 * if it continues the run), else taken with the pile. */
static void face_down(Game *g, int slot) {
    const IdiotCore *core = g->core;
    int p = g->player;
    int card = g->down[p][slot];
    if (card < 0) {
        g->broken = 1;
        return;
    }
    g->down[p][slot] = -1;
    g->down_left[p]--;
    int last_card = !g->down_left[p];
    int in_run = g->run;
    int playable = in_run ? core->rank[card] == in_run : core->reach[card] >= g->need;
    if (last_card && !core->may_finish[card]) playable = 0; /* ID-13 no_finish_on_two */
    count(g, COUNTER_FACE_DOWN_PLAYS);
    if (playable) {
        count_played(g, card);
        push_card(g, &g->pile, card);
        after_lay(g, p, card, burn_cause(g, card), 0, in_run != 0);
    } else {
        count(g, COUNTER_FACE_DOWN_FAILS);
        pick_up(g, p, card);
    }
}

static int index_of(const Cards *cards, int card) {
    for (int i = 0; i < cards->len; i++)
        if (cards->cards[i] == card) return i;
    return -1;
}

/* ID-3, IdiotState._swap */
static void swap(Game *g, int hand_card, int up_card) {
    Cards *hand = &g->hand[g->player], *up = &g->up[g->player];
    int h = index_of(hand, hand_card), u = index_of(up, up_card);
    if (h < 0 || u < 0) {
        g->broken = 1;
        return;
    }
    hand->cards[h] = (int8_t)up_card;
    up->cards[u] = (int8_t)hand_card;
    sort_cards(g->core, hand);
    sort_cards(g->core, up);
}

/* ID-3, IdiotState._ready: the next seat swaps, or play starts (ID-4). */
static void ready(Game *g) {
    if (g->player + 1 < g->n) {
        g->player++;
        return;
    }
    g->phase = PHASE_PLAYING;
    g->player = starting_player(g);
}

/* IdiotState.apply, for a move from the legal list. */
static void apply(Game *g, const Move *m) {
    g->actions++;
    if (g->actions >= g->core->action_cap) g->over = 1;
    switch (m->kind) {
    case K(PLAY): play_cards(g, m); break;
    case K(TAKE): take(g); break;
    case K(CHANCE): chance(g); break;
    case K(FACE_DOWN): face_down(g, m->c[0]); break;
    case K(SWAP): swap(g, m->c[0], m->c[1]); break;
    case K(READY): ready(g); break;
    case K(SNEAK): sneak_under(g, m); break;
    default: end_turn(g); break; /* END_RUN, PASS */
    }
}

/* -- the bots ------------------------------------------------------------------------- */

/* bots.GreedyBot.act: the cheapest ordinary play, laying the most cards of its rank;
 * else the lowest key (face-down by slot, end of run, chance, pile, anything else). */
static int greedy_choice(const Legal *legal, const int64_t *cost, int64_t special_cost) {
    int cheapest = -1;
    int64_t cheapest_cost = 0;
    /* over the list's plays in order, a rank's at once: they share their first card */
    for (int k = 0; k < legal->groups; k++) {
        int64_t c = cost[legal->move[legal->group_first[k]].c[0]];
        if (c >= special_cost) continue;
        if (cheapest < 0) {
            cheapest = legal->group_last[k];
            cheapest_cost = c;
        } else if (c == cheapest_cost) {
            cheapest = legal->group_last[k];
        } else {
            break;
        }
    }
    if (cheapest >= 0) return cheapest;
    int best = 0;
    int64_t best_key = (int64_t)1 << 30;
    for (int i = 0; i < legal->len; i++) {
        const Move *m = &legal->move[i];
        int64_t key;
        switch (m->kind) {
        case K(PLAY): key = cost[m->c[0]] * 16 - (1 + m->n); break;
        case K(SNEAK): key = cost[m->c[0]] * 16 + 8 - (1 + m->n); break;
        case K(READY): return i;
        case K(FACE_DOWN): key = 1000 + m->c[0]; break;
        case K(END_RUN): key = 2000; break;
        case K(CHANCE): key = 3000; break;
        case K(TAKE): key = 4000; break;
        default: key = 5000; break;
        }
        if (key < best_key) {
            best = i;
            best_key = key;
        }
    }
    return best;
}

static int first_of_kind(const Legal *legal, int kind) {
    for (int i = 0; i < legal->len; i++)
        if (legal->move[i].kind == kind) return i;
    return -1;
}

/* bots.HeuristicBot._swap: the swap that gains most keep cost, else ready. */
static int heuristic_swap(const Legal *legal, const int64_t *cost) {
    int best = -1; /* ready unless a swap gains */
    int64_t gain = 0;
    for (int i = 0; i < legal->len; i++) {
        const Move *m = &legal->move[i];
        if (m->kind != K(SWAP)) continue;
        int64_t diff = cost[m->c[0]] - cost[m->c[1]];
        if (diff > gain) {
            best = i;
            gain = diff;
        }
    }
    if (best >= 0) return best;
    best = first_of_kind(legal, K(READY));
    return best >= 0 ? best : 0;
}

/* bots.HeuristicBot.act: a burn completed on top, else the lowest ordinary rank (all of
 * it; a run stopped before high cards while the stock lasts), threes under the pile, a 10
 * for a big pile or a 2, then face down, end of run, chance, the pile. */
static int heuristic_choice(const Game *g, const Legal *legal, const int64_t *cost,
                            int64_t special_cost, long long burn_pile) {
    const IdiotCore *core = g->core;
    int first = legal->move[0].kind;
    if (first == K(SWAP) || first == K(READY)) return heuristic_swap(legal, cost);
    /* the plays are read a rank at a time (legal->group_first): they share their first
     * card, and a rank's last play lays the most of it */
    int any_play = legal->groups > 0;
    const Cards *pile = &g->pile;
    if (pile->len && !core->resets[pile->cards[pile->len - 1]]) {
        int top = pile->cards[pile->len - 1];
        for (int k = 0; k < legal->groups; k++) {
            if (core->rank[legal->move[legal->group_first[k]].c[0]] != core->rank[top]) continue;
            for (int i = legal->group_first[k]; i <= legal->group_last[k]; i++)
                if (burns_when_laid(core, pile, &legal->move[i])) return i; /* ID-8, no 2 spent */
        }
    }
    int best = -1;
    int64_t best_key = 0;
    for (int k = 0; k < legal->groups; k++) {
        int last = legal->group_last[k];
        int64_t c = cost[legal->move[last].c[0]];
        if (c >= special_cost) continue;
        int64_t key = c * 16 - (1 + legal->move[last].n);
        if (best < 0 || key < best_key) {
            best = last;
            best_key = key;
        }
    }
    if (best >= 0) {
        if (g->run && cost[legal->move[best].c[0]] >= 12 && g->stock.len) {
            int end = first_of_kind(legal, K(END_RUN));
            if (end >= 0) return end;
        }
        return best;
    }
    int sneak = -1;
    for (int i = 0; i < legal->len; i++) {
        const Move *m = &legal->move[i];
        if (m->kind == K(SNEAK) && (sneak < 0 || m->n > legal->move[sneak].n)) sneak = i;
    }
    if (sneak >= 0) return sneak;
    if (any_play) {
        int ten = -1, two = -1;
        for (int i = 0; i < legal->len; i++) {
            const Move *m = &legal->move[i];
            if (m->kind != K(PLAY)) continue;
            if (ten < 0 && core->burns[m->c[0]]) ten = i;
            if (two < 0 && core->resets[m->c[0]]) two = i;
        }
        if (ten >= 0 && (pile->len >= burn_pile || two < 0)) return ten;
        if (two >= 0) return two;
    }
    static const int fallbacks[] = {K(FACE_DOWN), K(END_RUN), K(CHANCE), K(TAKE), K(PASS)};
    for (size_t k = 0; k < sizeof fallbacks / sizeof fallbacks[0]; k++) {
        int found = first_of_kind(legal, fallbacks[k]);
        if (found >= 0) return found;
    }
    return 0;
}

/* -- what the simulation measures (IdiotState._distinct, progress, seats_out) ---------- */

/* The ranks of sorted `cards`, each once, rising, into `ranks`; how many. */
static int distinct_ranks(const int8_t *rank, const Cards *cards, int8_t *ranks) {
    int len = 0;
    for (int i = 0; i < cards->len; i++) {
        int8_t r = rank[cards->cards[i]];
        if (!len || ranks[len - 1] != r) ranks[len++] = r;
    }
    return len;
}

/* IdiotState._distinct: plays are listed once per rank and count already; swaps count once
 * per pair of ranks (those of equal ranks all as one), plus READY; face-down cards once. */
static int distinct_moves(const Game *g, const Legal *legal) {
    const int8_t *rank = g->core->rank;
    if (g->phase == PHASE_SWAPPING) {
        /* generate lists every hand card with every face-up card: the distinct pairs of
         * ranks are every hand rank with every face-up rank, those of one rank all one */
        const Cards *hand = &g->hand[g->player], *up = &g->up[g->player];
        int8_t hand_ranks[MAX_CARDS], up_ranks[MAX_CARDS];
        int held = distinct_ranks(rank, hand, hand_ranks), shown = distinct_ranks(rank, up, up_ranks);
        int both = 0;
        for (int i = 0, j = 0; i < held && j < shown;) { /* both lists rise */
            if (hand_ranks[i] == up_ranks[j]) {
                both++;
                i++;
                j++;
            } else if (hand_ranks[i] < up_ranks[j]) {
                i++;
            } else {
                j++;
            }
        }
        return held * shown - both + (both > 0) + 1; /* and READY */
    }
    return legal->blind > 1 ? legal->len - legal->blind + 1 : legal->len;
}

/* IdiotState.progress of a seat: minus the cards it still holds. */
static inline long progress_of(const Game *g, int seat) {
    return -(long)(g->hand[seat].len + g->up[seat].len + g->down_left[seat]);
}

/* Meter.moved with IdiotState.progress and seats_out, after `seat` acted (-1: the deal).
 * An Idiot action moves only the cards of the seat that acts (its hand, rows, the stock,
 * the pile), so only that seat's progress can have changed; the identity test compares
 * every figure with the Python engine's, which reads every seat. */
static void measure_position(Game *g, int seat) {
    ks_meter *m = &g->meter;
    int changed = g->num_out != m->last_out;
    if (seat >= 0) {
        changed |= ks_meter_progress(m, seat, progress_of(g, seat));
    } else {
        for (int s = 0; s < g->n; s++) changed |= ks_meter_progress(m, s, progress_of(g, s));
    }
    if (changed) ks_meter_moved(m, g->num_out, g->actions);
}

/* -- a whole game ----------------------------------------------------------------------- */

static int record_move(Game *g, const Move *m) {
    if (g->moves_len >= g->moves_cap) {
        long long cap = g->moves_cap ? g->moves_cap * 2 : 256;
        if ((size_t)cap > PY_SSIZE_T_MAX / sizeof(Move)) return -1;
        Move *grown = PyMem_Realloc(g->moves, (size_t)cap * sizeof(Move));
        if (!grown) return -1;
        g->moves = grown;
        g->moves_cap = cap;
    }
    g->moves[g->moves_len++] = *m;
    return 0;
}

/* IdiotState.play_out's loop with the bots inlined, from the position in g; each random
 * seat draws from bot_rng[seat]. Returns -1 with a Python exception set on failure. */
static int play_loop(Game *g, const IdiotCore *core, ks_random *bot_rng) {
    Legal legal;
    legal.len = 0;
    while (!g->over && !g->broken) {
        generate(g, &legal);
        if (g->broken || legal.len == 0) break;
        int seat = g->player;
        if (g->measure) /* a forced move too: it is a turn */
            ks_meter_decision(&g->meter, legal.len > 1 ? distinct_moves(g, &legal) : 1, 0, seat,
                              g->actions);
        int kind = core->seat_kind[seat];
        int choice = kind == SEAT_RANDOM ? (int)ks_randbelow(&bot_rng[seat], (uint32_t)legal.len)
                     : kind == SEAT_GREEDY
                         ? greedy_choice(&legal, core->cost[seat], core->special_cost)
                         : heuristic_choice(g, &legal, core->cost[seat], core->special_cost,
                                            core->burn_pile[seat]);
        const Move *m = &legal.move[choice];
        if (g->record && record_move(g, m) < 0) {
            PyErr_NoMemory();
            return -1;
        }
        apply(g, m);
        if (g->measure) measure_position(g, seat);
    }
    if (g->broken || (!g->over && legal.len == 0)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "idiot native core: an impossible position (an engine bug); "
                        "KRAFTSTOKK_PURE_PYTHON=1 plays the game in Python");
        return -1;
    }
    return 0;
}

/* The game from the deal's generator `rng`, Random(seed) (seeded or still pending), each
 * random seat drawing from bot_rng[seat] (seeded or pending). */
static int play_dealt_by(Game *g, const IdiotCore *core, ks_random *rng, ks_random *bot_rng) {
    deal(g, core, rng);
    g->measure = 1;
    ks_meter_start(&g->meter, g->n);
    measure_position(g, -1);
    return play_loop(g, core, bot_rng);
}

/* runner.play_game: the deal from Random(seed), seat s's bot seeded with derive_seed(seed,
 * s + 1), then the loop. Returns -1 with a Python exception set on failure. */
static int play(Game *g, const IdiotCore *core, uint64_t seed) {
    ks_random rng;
    ks_random bot_rng[MAX_SEATS];
    ks_random *drawn[MAX_SEATS + 1] = {&rng}; /* the generators this game draws from */
    int drawing = 1;
    ks_random_lazy(&rng, seed);
    for (int seat = 0; seat < core->num_players; seat++) {
        if (core->seat_kind[seat] == SEAT_RANDOM) { /* the greedy bot never draws */
            ks_random_lazy(&bot_rng[seat], ks_derive_seed(seed, (uint64_t)seat + 1));
            drawn[drawing++] = &bot_rng[seat];
        }
    }
    ks_random_seed_pending(drawn, drawing);
    return play_dealt_by(g, core, &rng, bot_rng);
}

/* -- Python results ------------------------------------------------------------------- */

static PyObject *cards_list(const int8_t *cards, int len) {
    PyObject *list = PyList_New(len);
    if (!list) return NULL;
    for (int i = 0; i < len; i++) {
        PyObject *item = PyLong_FromLong(cards[i]);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

static PyObject *face_down_list(const Game *g, int seat) {
    int8_t cards[MAX_ROW];
    int len = 0;
    for (int slot = 0; slot < g->core->rules.hand_size; slot++)
        if (g->down[seat][slot] >= 0) cards[len++] = g->down[seat][slot];
    return cards_list(cards, len);
}

static PyObject *move_tuple(const IdiotCore *core, const Move *m) {
    PyObject *shared = NULL;
    if (m->kind == K(PLAY) && m->n == 1) shared = core->single_play[m->c[0]];
    else if (m->kind == K(FACE_DOWN)) shared = core->face_down_action[m->c[0]];
    else if (m->kind != K(PLAY) && m->kind != K(SNEAK) && m->kind != K(SWAP))
        shared = core->bare_action[m->kind];
    if (shared) {
        Py_INCREF(shared);
        return shared;
    }
    PyObject *tuple = PyTuple_New(1 + m->n);
    if (!tuple) return NULL;
    PyObject *kind = PyLong_FromLong(KIND_BASE + m->kind);
    if (!kind) {
        Py_DECREF(tuple);
        return NULL;
    }
    PyTuple_SET_ITEM(tuple, 0, kind);
    for (int k = 0; k < m->n; k++) {
        PyObject *card = PyLong_FromLong(m->c[k]);
        if (!card) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, 1 + k, card);
    }
    return tuple;
}

/* The actions played, as the Python engine's tuples. */
static PyObject *moves_list(const IdiotCore *core, const Game *g) {
    if (g->moves_len > PY_SSIZE_T_MAX) return PyErr_NoMemory();
    PyObject *actions = PyList_New((Py_ssize_t)g->moves_len);
    if (!actions) return NULL;
    for (long long i = 0; i < g->moves_len; i++) {
        PyObject *tuple = move_tuple(core, &g->moves[i]);
        if (!tuple) {
            Py_DECREF(actions);
            return NULL;
        }
        PyList_SET_ITEM(actions, (Py_ssize_t)i, tuple);
    }
    return actions;
}

/* The seats in the order they went out. */
static PyObject *order_list(const Game *g) {
    PyObject *order = PyList_New(g->num_out);
    if (!order) return NULL;
    for (int i = 0; i < g->num_out; i++) {
        PyObject *seat = PyLong_FromLong(g->order[i]);
        if (!seat) {
            Py_DECREF(order);
            return NULL;
        }
        PyList_SET_ITEM(order, i, seat);
    }
    return order;
}

/* The NativeRun tuple (see kraftstokk/games/fastcore.py). */
static PyObject *run_result(const IdiotCore *core, const Game *g) {
    PyObject *actions = NULL, *order = NULL, *loser = NULL, *rounds = NULL;
    PyObject *counters = NULL, *samples = NULL, *played = NULL, *loser_cards = NULL;
    PyObject *figures = NULL, *branching = NULL;
    PyObject *result = NULL;
    int finished = g->phase == PHASE_OVER;
    actions = moves_list(core, g);
    if (!actions) goto done;
    order = order_list(g);
    if (!order) goto done;
    if (finished && g->loser >= 0) {
        loser = PyLong_FromLong(g->loser);
    } else {
        loser = Py_None;
        Py_INCREF(loser);
    }
    if (!loser) goto done;
    rounds = PyLong_FromLongLong((g->turns + g->n - 1) / g->n);
    if (!rounds) goto done;
    counters = PyDict_New();
    if (!counters) goto done;
    for (int i = 0; i < g->counters_seen; i++) {
        int c = g->counter_order[i];
        PyObject *value = PyLong_FromLongLong(g->counter[c]);
        if (!value || PyDict_SetItem(counters, counter_names[c], value) < 0) {
            Py_XDECREF(value);
            goto done;
        }
        Py_DECREF(value);
    }
    samples = PyDict_New();
    if (!samples) goto done;
    played = PyList_New(core->size);
    if (!played) goto done;
    for (int c = 0; c < core->size; c++) {
        PyObject *value = PyLong_FromLong(g->cards_played[c]);
        if (!value) goto done;
        PyList_SET_ITEM(played, c, value);
    }
    if (finished && g->loser >= 0) {
        int8_t left[2 * MAX_CARDS + MAX_ROW];
        int len = 0;
        const Cards *hand = &g->hand[g->loser], *up = &g->up[g->loser];
        memcpy(left, hand->cards, (size_t)hand->len);
        len += hand->len;
        memcpy(left + len, up->cards, (size_t)up->len);
        len += up->len;
        for (int slot = 0; slot < core->rules.hand_size; slot++)
            if (g->down[g->loser][slot] >= 0) left[len++] = g->down[g->loser][slot];
        loser_cards = cards_list(left, len);
    } else {
        loser_cards = PyList_New(0);
    }
    if (!loser_cards) goto done;
    long long cards_laid = 0;
    for (int c = 0; c < core->size; c++) cards_laid += g->cards_played[c];
    figures = ks_meter_figures(&g->meter, finished, g->num_out ? g->order[0] : -1,
                               finished ? g->loser : -1, g->actions, cards_laid);
    if (!figures) goto done;
    branching = ks_meter_branching(&g->meter);
    if (!branching) goto done;
    result = PyTuple_Pack(11, actions, finished ? Py_True : Py_False, order, loser, rounds,
                          counters, samples, played, loser_cards, figures, branching);
done:
    Py_XDECREF(figures);
    Py_XDECREF(branching);
    Py_XDECREF(actions);
    Py_XDECREF(order);
    Py_XDECREF(loser);
    Py_XDECREF(rounds);
    Py_XDECREF(counters);
    Py_XDECREF(samples);
    Py_XDECREF(played);
    Py_XDECREF(loser_cards);
    return result;
}

/* -- the IdiotCore type ----------------------------------------------------------------- */

static int seed_of(const IdiotCore *self, PyObject *arg, uint64_t *seed) {
    if (!self->num_players) {
        PyErr_SetString(PyExc_RuntimeError, "IdiotCore was not initialised");
        return -1;
    }
    if (!PyLong_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "a seed is an int, not %.100s", Py_TYPE(arg)->tp_name);
        return -1;
    }
    unsigned long long value = PyLong_AsUnsignedLongLong(arg);
    if (value == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "the native core takes seeds 0 <= seed < 2**64");
        return -1;
    }
    *seed = value;
    return 0;
}

static PyObject *IdiotCore_play(IdiotCore *self, PyObject *arg) {
    uint64_t seed;
    if (seed_of(self, arg, &seed) < 0) return NULL;
    Game g;
    g.moves = NULL;
    g.moves_len = g.moves_cap = 0;
    g.record = 1;
    PyObject *result = NULL;
    if (play(&g, self, seed) == 0) result = run_result(self, &g);
    PyMem_Free(g.moves);
    return result;
}

/* The game just played into the chunk's row and totals (run_result's figures). */
static void chunk_game(ks_chunk *c, const IdiotCore *core, const Game *g) {
    int finished = g->phase == PHASE_OVER;
    int loser = finished ? g->loser : -1;
    long long cards_laid = 0;
    for (int card = 0; card < core->size; card++) {
        cards_laid += g->cards_played[card];
        ks_chunk_played(c, card, g->cards_played[card]);
    }
    int64_t *row = ks_chunk_game(c, &g->meter, finished, g->actions,
                                 (g->turns + g->n - 1) / g->n, g->num_out ? g->order[0] : -1,
                                 loser, cards_laid);
    for (int i = 0; i < g->counters_seen; i++) {
        int counter = g->counter_order[i];
        ks_chunk_counter(c, row, counter, g->counter[counter]);
    }
    if (loser >= 0) {
        for (int k = 0; k < g->hand[loser].len; k++) ks_chunk_left(c, g->hand[loser].cards[k]);
        for (int k = 0; k < g->up[loser].len; k++) ks_chunk_left(c, g->up[loser].cards[k]);
        for (int slot = 0; slot < core->rules.hand_size; slot++)
            if (g->down[loser][slot] >= 0) ks_chunk_left(c, g->down[loser][slot]);
    }
}

/* play_chunk(series, start, stop): games start .. stop - 1 of the series, game i played
 * as play(derive_seed(series, i)) plays it, as a NativeChunk (ks_chunk.h). */
static PyObject *IdiotCore_play_chunk(IdiotCore *self, PyObject *args) {
    uint64_t series;
    long long start, stop;
    if (ks_chunk_args(args, &series, &start, &stop) < 0) return NULL;
    if (!self->num_players) {
        PyErr_SetString(PyExc_RuntimeError, "IdiotCore was not initialised");
        return NULL;
    }
    ks_chunk *chunk = ks_chunk_open((Py_ssize_t)(stop - start), self->size);
    if (chunk == NULL) return NULL;
    Game *g = PyMem_Malloc(sizeof(Game));
    PyObject *result = NULL;
    ks_chunk_seeds seeds = {0};
    if (g == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    g->moves = NULL;
    g->moves_len = g->moves_cap = 0;
    g->record = 0;
    /* the deals' generators and the random seats', several games' seeded side by side */
    unsigned random_seats = 0;
    for (int seat = 0; seat < self->num_players; seat++)
        if (self->seat_kind[seat] == SEAT_RANDOM) random_seats |= 1U << seat;
    if (ks_chunk_seeds_open(&seeds, random_seats) < 0) goto done;
    ks_random bot_rng[MAX_SEATS];
    for (long long index = start; index < stop; index += seeds.games) {
        int ahead = ks_chunk_seed_next(&seeds, series, index, stop);
        for (int k = 0; k < ahead; k++) {
            ks_random *dealt = ks_chunk_seeded(&seeds, k, -1);
            uint64_t seed = dealt->seed;
            for (int seat = 0; seat < self->num_players; seat++) {
                if (!(random_seats >> seat & 1U)) continue;
                const ks_random *r = ks_chunk_seeded(&seeds, k, seat);
                if (r != NULL) bot_rng[seat] = *r;
                else ks_random_lazy(&bot_rng[seat], ks_derive_seed(seed, (uint64_t)seat + 1));
            }
            if (play_dealt_by(g, self, dealt, bot_rng) < 0) goto done;
            chunk_game(chunk, self, g);
            for (int seat = 0; seat < self->num_players; seat++)
                if (random_seats >> seat & 1U) ks_chunk_drawn(&seeds, seat, &bot_rng[seat]);
        }
    }
    result = ks_chunk_result(chunk, counter_names, NULL);
done:
    if (g != NULL) PyMem_Free(g->moves);
    PyMem_Free(g);
    ks_chunk_seeds_close(&seeds);
    ks_chunk_close(chunk);
    return result;
}

static PyObject *IdiotCore_deal(IdiotCore *self, PyObject *arg) {
    uint64_t seed;
    if (seed_of(self, arg, &seed) < 0) return NULL;
    Game g;
    ks_random rng;
    ks_random_seed(&rng, seed);
    deal(&g, self, &rng);
    PyObject *places = PyDict_New();
    if (!places) return NULL;
    static const char *const shared[] = {"stock", "pile", "burned"};
    const Cards empty = {.len = 0};
    const Cards *lists[] = {&g.stock, &empty, &empty};
    for (int i = 0; i < 3; i++) {
        PyObject *cards = cards_list(lists[i]->cards, lists[i]->len);
        int failed = !cards || PyDict_SetItemString(places, shared[i], cards) < 0;
        Py_XDECREF(cards);
        if (failed) {
            Py_DECREF(places);
            return NULL;
        }
    }
    static const char *const row_names[] = {"hand", "face_up", "face_down"};
    for (int seat = 0; seat < g.n; seat++) {
        for (int r = 0; r < 3; r++) {
            char name[32];
            PyOS_snprintf(name, sizeof name, "%s:%d", row_names[r], seat);
            PyObject *row = r == 0   ? cards_list(g.hand[seat].cards, g.hand[seat].len)
                            : r == 1 ? cards_list(g.up[seat].cards, g.up[seat].len)
                                     : face_down_list(&g, seat);
            int failed = !row || PyDict_SetItemString(places, name, row) < 0;
            Py_XDECREF(row);
            if (failed) {
                Py_DECREF(places);
                return NULL;
            }
        }
    }
    return places;
}

static void IdiotCore_dealloc(IdiotCore *self) {
    for (int c = 0; c < MAX_CARDS; c++) Py_XDECREF(self->single_play[c]);
    for (int s = 0; s < MAX_ROW; s++) Py_XDECREF(self->face_down_action[s]);
    for (int k = 0; k < KIND_COUNT; k++) Py_XDECREF(self->bare_action[k]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Reads a sequence of ints into out[0..len), each lo <= v <= hi; -1 with an error set. */
static int read_ints(PyObject *seq, const char *what, int64_t lo, int64_t hi, int64_t *out,
                     Py_ssize_t min_len, Py_ssize_t max_len, Py_ssize_t *len) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n < min_len || n > max_len) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items, expected %zd to %zd", what, n, min_len,
                     max_len);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        int overflow = 0;
        long long v = PyLong_Check(item) ? PyLong_AsLongLongAndOverflow(item, &overflow) : 0;
        if (!PyLong_Check(item) || overflow || v < lo || v > hi) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "%s: item %zd is not an int from %lld to %lld",
                             what, i, (long long)lo, (long long)hi);
            Py_DECREF(fast);
            return -1;
        }
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = v;
    }
    Py_DECREF(fast);
    *len = n;
    return 0;
}

static PyObject *make_tuple(long kind, int n, const long *items) {
    PyObject *tuple = PyTuple_New(1 + n);
    if (!tuple) return NULL;
    for (int k = 0; k <= n; k++) {
        PyObject *item = PyLong_FromLong(k == 0 ? kind : items[k - 1]);
        if (!item) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, k, item);
    }
    return tuple;
}

/* Reads game.<name>, a per-card table of size ints from lo to hi, into out. */
static int read_table(PyObject *game, const char *name, int64_t lo, int64_t hi, int size,
                      int8_t *out) {
    PyObject *table = PyObject_GetAttrString(game, name);
    if (!table) return -1;
    int64_t values[MAX_CARDS];
    Py_ssize_t len;
    int failed = read_ints(table, name, lo, hi, values, size, size, &len) < 0;
    Py_DECREF(table);
    if (failed) return -1;
    for (int c = 0; c < size; c++) out[c] = (int8_t)values[c];
    return 0;
}

/* IdiotGame's per-card tables the core plays by (each made from a predicate of rules.py),
 * by attribute name, with the range of their values. */
#define CARD_TABLES(X)             \
    X(reach, 0, 127)               \
    X(burns, 0, 1)                 \
    X(resets, 0, 1)                \
    X(need_after, 0, HIGHEST_RANK) \
    X(may_finish, 0, 1)            \
    X(may_sneak, 0, 1)             \
    X(counts_for_start, 0, 1)      \
    X(run_next, 0, HIGHEST_RANK)

/* Reads an int attribute of the game; -1 with an error set. */
static int read_long(PyObject *game, const char *name, long long lo, long long hi,
                     long long *out) {
    PyObject *value = PyObject_GetAttrString(game, name);
    if (!value) return -1;
    int overflow = 0;
    long long v = PyLong_Check(value) ? PyLong_AsLongLongAndOverflow(value, &overflow) : 0;
    int is_int = PyLong_Check(value);
    Py_DECREF(value);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (!is_int || overflow || v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s: not an int from %lld to %lld", name, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

static int IdiotCore_init(IdiotCore *self, PyObject *args, PyObject *kwds) {
    static char *keywords[] = {"game", "seat_costs", "special_cost", "burn_piles", NULL};
    PyObject *game, *seat_costs, *ranks, *keys, *plants, *parameters, *burn_piles = NULL;
    long long special_cost;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOL|O:IdiotCore", keywords, &game,
                                     &seat_costs, &special_cost, &burn_piles))
        return -1;
    /* Unusable until the whole configuration is read: play and deal refuse it. */
    self->num_players = 0;
    long long players, action_cap;
    if (read_long(game, "num_players", MIN_SEATS, MAX_SEATS, &players) < 0) return -1;
    if (read_long(game, "action_cap", 1, LLONG_MAX, &action_cap) < 0) return -1;
    self->action_cap = action_cap;
    parameters = PyObject_GetAttrString(game, "parameters");
    if (!parameters) return -1;
    int failed = ks_read_rules(parameters, &self->rules) < 0;
    Py_DECREF(parameters);
    if (failed) return -1;
    int row = self->rules.hand_size;
    if (row < 1 || row > MAX_ROW) {
        PyErr_Format(PyExc_ValueError, "hand_size: the core deals 1 to %d cards a row, not %d",
                     MAX_ROW, row);
        return -1;
    }
    if (self->rules.burn_count < 2) {
        PyErr_SetString(PyExc_ValueError, "burn_count: at least 2");
        return -1;
    }
    int64_t values[MAX_CARDS];
    Py_ssize_t size, len;
    ranks = PyObject_GetAttrString(game, "ranks");
    if (!ranks) return -1;
    failed = read_ints(ranks, "ranks", 0, HIGHEST_RANK, values, 1, MAX_CARDS, &size) < 0;
    Py_DECREF(ranks);
    if (failed) return -1;
    self->size = (int)size;
    for (int c = 0; c < size; c++) self->rank[c] = (int8_t)values[c];
#define READ_TABLE(name, lo, hi) \
    if (read_table(game, #name, lo, hi, self->size, self->name) < 0) return -1;
    CARD_TABLES(READ_TABLE)
#undef READ_TABLE
    keys = PyObject_GetAttrString(game, "sort_key");
    if (!keys) return -1;
    failed = read_ints(keys, "sort_key", 0, 0xFFFF, values, size, size, &len) < 0;
    Py_DECREF(keys);
    if (failed) return -1;
    for (int c = 0; c < size; c++) {
        if ((values[c] & ((1 << CARD_BITS) - 1)) != c) {
            PyErr_SetString(PyExc_ValueError,
                            "sort_key: a key must hold its card in its low bits");
            return -1;
        }
        self->key[c] = (uint16_t)values[c];
    }
    plants = PyObject_GetAttrString(game, "plant_cards");
    if (!plants) return -1;
    failed = read_ints(plants, "plant_cards", 0, size - 1, values, 3 * row * players, size,
                       &len) < 0;
    Py_DECREF(plants);
    if (failed) return -1;
    self->num_plants = (int)len;
    int seen[MAX_CARDS] = {0}, per_rank[HIGHEST_RANK + 1] = {0};
    for (int i = 0; i < len; i++) {
        int card = (int)values[i];
        int r = self->rank[card];
        if (seen[card]++ || r < 1 || ++per_rank[r] > SAME_RANK) {
            PyErr_SetString(PyExc_ValueError,
                            "plant_cards: distinct cards with a rank, at most four of a rank");
            return -1;
        }
        self->plants[i] = (int8_t)card;
    }
    if (special_cost < -COST_LIMIT || special_cost > COST_LIMIT) {
        PyErr_SetString(PyExc_ValueError, "special_cost: out of the keep costs' range");
        return -1;
    }
    self->special_cost = special_cost;
    PyObject *seats = PySequence_Fast(seat_costs, "seat_costs");
    if (!seats) return -1;
    if (PySequence_Fast_GET_SIZE(seats) != players) {
        PyErr_SetString(PyExc_ValueError, "seat_costs: one entry per seat");
        Py_DECREF(seats);
        return -1;
    }
    for (int s = 0; s < players; s++) {
        PyObject *costs = PySequence_Fast_GET_ITEM(seats, s);
        if (costs == Py_None) {
            self->seat_kind[s] = SEAT_RANDOM;
            continue;
        }
        self->seat_kind[s] = SEAT_GREEDY;
        if (read_ints(costs, "keep costs", -COST_LIMIT, COST_LIMIT, self->cost[s], size, size,
                      &len) < 0) {
            Py_DECREF(seats);
            return -1;
        }
    }
    Py_DECREF(seats);
    /* burn_piles: per seat None, or a heuristic seat's burn_pile (its keep costs above) */
    if (burn_piles != NULL) {
        PyObject *items = PySequence_Fast(burn_piles, "burn_piles");
        if (!items) return -1;
        int failed = PySequence_Fast_GET_SIZE(items) != players;
        if (failed) PyErr_SetString(PyExc_ValueError, "burn_piles: one entry per seat");
        for (int s = 0; s < players && !failed; s++) {
            PyObject *item = PySequence_Fast_GET_ITEM(items, s);
            if (item == Py_None) continue;
            int overflow = 0;
            long long value = PyLong_Check(item) ? PyLong_AsLongLongAndOverflow(item, &overflow) : -1;
            failed = self->seat_kind[s] != SEAT_GREEDY || overflow || value < 0;
            if (failed && !PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError,
                                "burn_piles: an int >= 0 for a seat with keep costs, else None");
            self->seat_kind[s] = SEAT_HEURISTIC;
            self->burn_pile[s] = value;
        }
        Py_DECREF(items);
        if (failed) return -1;
    }
    for (int c = 0; c < size; c++) {
        long card = c;
        Py_XSETREF(self->single_play[c], make_tuple(KIND_PLAY, 1, &card));
        if (!self->single_play[c]) return -1;
    }
    for (int s = 0; s < row; s++) {
        long slot = s;
        Py_XSETREF(self->face_down_action[s], make_tuple(KIND_FACE_DOWN, 1, &slot));
        if (!self->face_down_action[s]) return -1;
    }
    static const int bare[] = {K(READY), K(TAKE), K(CHANCE), K(END_RUN), K(PASS)};
    for (size_t i = 0; i < sizeof bare / sizeof bare[0]; i++) {
        Py_XSETREF(self->bare_action[bare[i]], make_tuple(KIND_BASE + bare[i], 0, NULL));
        if (!self->bare_action[bare[i]]) return -1;
    }
    self->num_players = (int)players;
    return 0;
}

/* -- a position from the Python engine (IdiotState's fields, by name) ---------------- */

/* Reads the cards of seq into cards: distinct plant cards (seen marks those read so far),
 * at most max of them; with slots, -1 stands for a played face-down slot. */
static int read_cards(const IdiotCore *core, PyObject *seq, const char *what, int max,
                      int slots, int8_t *out, int *len, uint8_t *seen) {
    int64_t values[MAX_CARDS];
    Py_ssize_t n;
    if (read_ints(seq, what, slots ? -1 : 0, core->size - 1, values, 0, max, &n) < 0) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        int card = (int)values[i];
        if (card < 0) {
            out[i] = -1;
            continue;
        }
        if (core->rank[card] < 1 || seen[card]++) {
            PyErr_Format(PyExc_ValueError, "%s: card %d is not a plant card, or is in two places",
                         what, card);
            return -1;
        }
        out[i] = (int8_t)card;
    }
    *len = (int)n;
    return 0;
}

/* Reads state.<name>, one list of cards per seat, into rows (or the face-down slots). */
static int read_rows(Game *g, PyObject *state, const char *name, Cards *rows,
                     int8_t (*slots)[MAX_ROW], uint8_t *seen) {
    const IdiotCore *core = g->core;
    PyObject *value = PyObject_GetAttrString(state, name);
    if (!value) return -1;
    PyObject *seats = PySequence_Fast(value, name);
    Py_DECREF(value);
    if (!seats) return -1;
    int failed = PySequence_Fast_GET_SIZE(seats) != g->n;
    if (failed) PyErr_Format(PyExc_ValueError, "%s: one row per seat", name);
    for (int seat = 0; seat < g->n && !failed; seat++) {
        PyObject *row = PySequence_Fast_GET_ITEM(seats, seat);
        if (slots) {
            int len;
            memset(slots[seat], -1, sizeof slots[seat]);
            failed = read_cards(core, row, name, core->rules.hand_size, 1, slots[seat], &len,
                                seen) < 0;
            for (int k = 0; k < len && !failed; k++) g->down_left[seat] += slots[seat][k] >= 0;
        } else {
            failed = read_cards(core, row, name, MAX_CARDS, 0, rows[seat].cards, &rows[seat].len,
                                seen) < 0;
        }
    }
    Py_DECREF(seats);
    return failed ? -1 : 0;
}

/* Reads state.<name>, a list of cards, into cards. */
static int read_card_list(Game *g, PyObject *state, const char *name, Cards *cards,
                          uint8_t *seen) {
    PyObject *value = PyObject_GetAttrString(state, name);
    if (!value) return -1;
    int failed = read_cards(g->core, value, name, MAX_CARDS, 0, cards->cards, &cards->len, seen);
    Py_DECREF(value);
    return failed;
}

/* The position of an IdiotState (a clone of it would play on from here): the rows, the
 * stock and the pile as the state orders them, the need, the run, who is out, the phase,
 * the player to act and the actions and turns so far. The counters start at zero. */
static int load_position(Game *g, const IdiotCore *core, PyObject *state) {
    memset(g, 0, offsetof(Game, moves));
    g->core = core;
    g->n = core->num_players;
    uint8_t seen[MAX_CARDS] = {0};
    if (read_rows(g, state, "_hands", g->hand, NULL, seen) < 0 ||
        read_rows(g, state, "_up", g->up, NULL, seen) < 0 ||
        read_rows(g, state, "_down", NULL, g->down, seen) < 0 ||
        read_card_list(g, state, "_stock", &g->stock, seen) < 0 ||
        read_card_list(g, state, "_pile", &g->pile, seen) < 0)
        return -1;
    long long need, run, phase, player, actions, turns, over, loser = -1;
    if (read_long(state, "_need", 0, HIGHEST_RANK, &need) < 0 ||
        read_long(state, "_run", 0, HIGHEST_RANK, &run) < 0 ||
        read_long(state, "_phase", PHASE_SWAPPING, PHASE_OVER, &phase) < 0 ||
        read_long(state, "_player", 0, g->n - 1, &player) < 0 ||
        read_long(state, "_actions", 0, LLONG_MAX, &actions) < 0 ||
        read_long(state, "_turns", 0, LLONG_MAX, &turns) < 0 ||
        read_long(state, "_over", 0, 1, &over) < 0)
        return -1;
    PyObject *value = PyObject_GetAttrString(state, "_loser");
    if (!value) return -1;
    int has_loser = value != Py_None;
    Py_DECREF(value);
    if (has_loser && read_long(state, "_loser", 0, g->n - 1, &loser) < 0) return -1;
    value = PyObject_GetAttrString(state, "_order");
    if (!value) return -1;
    int64_t order[MAX_SEATS];
    Py_ssize_t out;
    int failed = read_ints(value, "_order", 0, g->n - 1, order, 0, g->n, &out) < 0;
    Py_DECREF(value);
    if (failed) return -1;
    for (Py_ssize_t i = 0; i < out; i++) {
        if (g->out[order[i]]++) {
            PyErr_SetString(PyExc_ValueError, "_order: a seat went out twice");
            return -1;
        }
        g->order[i] = (int)order[i];
    }
    g->num_out = (int)out;
    g->active = g->n - (int)out;
    g->need = (int)need;
    g->run = (int)run;
    g->phase = (int)phase;
    g->player = (int)player;
    g->actions = actions;
    g->turns = turns;
    g->over = (int)over || actions >= core->action_cap;
    g->loser = (int)loser;
    if (!g->over && (g->out[g->player] || g->active < 2 || phase == PHASE_OVER)) {
        PyErr_SetString(PyExc_ValueError,
                        "an unfinished position needs two seats with cards, one of them to act");
        return -1;
    }
    return 0;
}

/* Each seat's len(IdiotState.remaining_cards(seat)): hand, face-up and face-down cards. */
static PyObject *held_list(const Game *g) {
    PyObject *list = PyList_New(g->n);
    if (!list) return NULL;
    for (int seat = 0; seat < g->n; seat++) {
        long count = g->hand[seat].len + g->up[seat].len + g->down_left[seat];
        PyObject *held = PyLong_FromLong(count);
        if (!held) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, seat, held);
    }
    return list;
}

/* playout(state, seed, record): the result (finished, order, loser, actions, rounds), the
 * list of actions played from the position when record is true (else None), and each
 * seat's count of cards still held. */
static PyObject *playout_result(const IdiotCore *core, const Game *g, int record) {
    int finished = g->phase == PHASE_OVER;
    PyObject *order = order_list(g), *actions = NULL, *held = NULL, *result = NULL;
    if (!order) return NULL;
    actions = record ? moves_list(core, g) : Py_NewRef(Py_None);
    if (!actions) goto done;
    held = held_list(g);
    if (!held) goto done;
    if (finished && g->loser >= 0)
        result = Py_BuildValue("(OOiLLOO)", Py_True, order, g->loser, g->actions,
                               (g->turns + g->n - 1) / g->n, actions, held);
    else
        result = Py_BuildValue("(OOOLLOO)", finished ? Py_True : Py_False, order, Py_None,
                               g->actions, (g->turns + g->n - 1) / g->n, actions, held);
done:
    Py_DECREF(order);
    Py_XDECREF(actions);
    Py_XDECREF(held);
    return result;
}

/* Applies first, a legal action of the Python engine at the position in g (an action
 * tuple), as IdiotState.apply does (the actions recorded are those after it). Returns -1
 * with a Python exception set when it is not one of the position's legal actions. */
static int apply_first(Game *g, const IdiotCore *core, PyObject *first) {
    Legal legal;
    legal.len = 0;
    if (!g->over) generate(g, &legal);
    if (g->broken) {
        PyErr_SetString(PyExc_ValueError, "first: the position has no legal actions");
        return -1;
    }
    for (int i = 0; i < legal.len; i++) {
        PyObject *action = move_tuple(core, &legal.move[i]);
        if (!action) return -1;
        int same = PyObject_RichCompareBool(action, first, Py_EQ);
        Py_DECREF(action);
        if (same < 0) return -1;
        if (same) {
            apply(g, &legal.move[i]);
            return 0;
        }
    }
    PyErr_SetString(PyExc_ValueError, "first: not a legal action of the position");
    return -1;
}

/* playout(state, seed, record, first=None): with first, that action is applied to the
 * position before the bots play on (IdiotState.apply draws nothing from its generator). */
static PyObject *IdiotCore_playout(IdiotCore *self, PyObject *args) {
    PyObject *state, *seed_arg, *first = Py_None;
    int record;
    if (!PyArg_ParseTuple(args, "OOp|O:playout", &state, &seed_arg, &record, &first))
        return NULL;
    uint64_t seed;
    if (seed_of(self, seed_arg, &seed) < 0) return NULL;
    Game g;
    g.moves = NULL;
    g.moves_len = g.moves_cap = 0;
    g.record = 1;
    PyObject *result = NULL;
    if (load_position(&g, self, state) == 0 &&
        (first == Py_None || apply_first(&g, self, first) == 0)) {
        /* IdiotState never draws from its own generator after the deal: only the random
         * seats draw, each from LazyRandom(derive_seed(seed, seat + 1)). */
        ks_random bot_rng[MAX_SEATS];
        for (int seat = 0; seat < self->num_players; seat++)
            ks_random_lazy(&bot_rng[seat], ks_derive_seed(seed, (uint64_t)seat + 1));
        if (play_loop(&g, self, bot_rng) == 0) result = playout_result(self, &g, record);
    }
    PyMem_Free(g.moves);
    return result;
}

static PyMethodDef IdiotCore_methods[] = {
    {"play", (PyCFunction)IdiotCore_play, METH_O,
     "play(seed) -> NativeRun: the game play_game(game, bots, seed) plays."},
    {"deal", (PyCFunction)IdiotCore_deal, METH_O,
     "deal(seed) -> game.new_initial_state(random.Random(seed)).card_locations()."},
    {"play_chunk", (PyCFunction)IdiotCore_play_chunk, METH_VARARGS,
     "play_chunk(series, start, stop) -> NativeChunk: games start .. stop - 1 of the series,\n"
     "game i the one play(derive_seed(series, i)) plays, as the chunk's rows and sums."},
    {"playout", (PyCFunction)IdiotCore_playout, METH_VARARGS,
     "playout(state, seed, record, first=None) -> (finished, order, loser, actions, rounds,\n"
     "played, held): the state played on as playouts.python_playout(state, bots, seed,\n"
     "first=first) plays it."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject IdiotCoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kraftstokk.games.idiot._fastcore.IdiotCore",
    .tp_basicsize = sizeof(IdiotCore),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Idiot games of greedy, heuristic and random bots, played natively (see fast.py).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)IdiotCore_init,
    .tp_dealloc = (destructor)IdiotCore_dealloc,
    .tp_methods = IdiotCore_methods,
};

static struct PyModuleDef fastcore_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "kraftstokk.games.idiot._fastcore",
    .m_doc = "Idiot's native core: whole games of greedy, heuristic and random bots.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__fastcore(void) {
    static const char *const names[COUNTER_COUNT] = COUNTER_NAMES;
    for (int c = 0; c < COUNTER_COUNT; c++) {
        if (!counter_names[c]) counter_names[c] = PyUnicode_InternFromString(names[c]);
        if (!counter_names[c]) return NULL;
    }
    if (PyType_Ready(&IdiotCoreType) < 0) return NULL;
    PyObject *module = PyModule_Create(&fastcore_module);
    if (!module) return NULL;
    Py_INCREF(&IdiotCoreType);
    if (PyModule_AddObject(module, "IdiotCore", (PyObject *)&IdiotCoreType) < 0) {
        Py_DECREF(&IdiotCoreType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
