/* Idiot's native core: whole games for seats played by the greedy or the random bot.
 *
 * The pure-Python engine (state.py, bots.py, events.py) is the reference and the
 * readable source of the rules; this file plays exactly the same games, action for
 * action and draw for draw, so a simulation of greedy and random bots runs without a
 * Python call per action. Functions are named after the Python methods they mirror
 * (IdiotState._play -> play_cards, _after_lay -> after_lay, ...), with the RULES.md id
 * they carry out. tests/test_games_idiot_fastcore.py and tests/test_games_fastcore.py
 * compare the two engines.
 *
 * Everything the rules read from the deck or a bot (ranks, reach, sort keys, action
 * kinds, the greedy bot's keep costs) is handed in by fast.py from the Python Game and
 * bot objects, once per configuration (IdiotCore). A game's state lives in fixed arrays:
 * the table has at most MAX_CARDS cards and each card is in exactly one place, so no
 * container ever holds more than MAX_CARDS; the appends check it all the same and turn
 * a broken invariant into a Python exception rather than a write out of bounds.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ks_random.h"

#define MAX_CARDS 64 /* IdiotGame sorts at most 1 << CARD_BITS cards */
#define CARD_BITS 6
#define MIN_SEATS 2
#define MAX_SEATS 5
#define ROW 3    /* ID-2: three cards each face-down, face-up and in hand */
#define DEALT (3 * ROW) /* ID-2: the cards dealt to a seat */
#define FOUR 4   /* ID-8 */
#define TWO 2
#define TEN 10
#define ACE 14
/* More than any position can offer: plays are at most one per card in the source
 * (MAX_CARDS), sneaks at most FOUR, and at most two more (chance or end of run, take). */
#define MAX_LEGAL (MAX_CARDS + FOUR + 4)
#define COST_LIMIT ((int64_t)1 << 40) /* keeps cost * 16 far from overflow */

/* Action kinds inside the core; IdiotCore.kinds maps them to actions.py's numbers. */
enum {
    K_SWAP,
    K_READY,
    K_PLAY,
    K_SNEAK,
    K_FACE_DOWN,
    K_TAKE,
    K_CHANCE,
    K_END_RUN,
    K_PASS,
    N_KINDS
};
enum { PHASE_SWAP, PHASE_PLAY, PHASE_OVER };

/* The counters of spec.py, each added where events.py's Event.count adds it. */
enum {
    C_PILE_PICKUPS,
    C_BURNS,
    C_TEN_BURNS,
    C_FOUR_BURNS,
    C_RESETS,
    C_CHANCE_DRAWS,
    C_CHANCE_DRAWS_PLAYED,
    C_FACE_DOWN_PLAYS,
    C_FACE_DOWN_FAILS,
    C_SNEAKS,
    N_COUNTERS
};
static const char *const COUNTER_NAMES[N_COUNTERS] = {
    "pile_pickups", "burns", "ten_burns", "four_burns", "resets", "chance_draws",
    "chance_draws_played", "face_down_plays", "face_down_fails", "sneaks",
};
static PyObject *counter_names[N_COUNTERS]; /* interned at module init */

enum { SEAT_GREEDY, SEAT_RANDOM };

typedef struct {
    uint8_t kind;
    uint8_t n;        /* cards in c (PLAY, SNEAK: 1..4; SWAP: 2; FACE_DOWN: the slot, 1) */
    int8_t c[FOUR];
} Move;

/* -- the configuration: one per game and seating (fast.py caches it) ----------------- */

typedef struct {
    PyObject_HEAD
    int size;                 /* cards in the table */
    int num_players;
    int num_plants;
    long long action_cap;
    int two_same, no_finish_two, no_swap, sequences, sneak;
    int8_t rank[MAX_CARDS];
    int8_t reach[MAX_CARDS];
    uint16_t key[MAX_CARDS];  /* IdiotGame.sort_key: rank << CARD_BITS | card */
    int8_t plants[MAX_CARDS];
    int seat_kind[MAX_SEATS];
    int64_t cost[MAX_SEATS][MAX_CARDS]; /* the greedy bots' keep costs, per seat */
    long kind_number[N_KINDS];
    PyObject *single_play[MAX_CARDS]; /* (PLAY, card), shared by every game's actions */
    PyObject *face_down_action[ROW];
    PyObject *bare_action[N_KINDS];   /* (TAKE,), (CHANCE,), ... for the one-element kinds */
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
    int8_t down[MAX_SEATS][ROW]; /* -1 once played, so slot numbers stay put */
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
    long long counter[N_COUNTERS];
    int counter_order[N_COUNTERS]; /* first-counted order, as the Python dict's keys */
    int counters_seen;
    int cards_played[MAX_CARDS];
    /* the moves made, grown on the heap */
    Move *moves;
    long long moves_len, moves_cap;
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

/* ID-2: three face-down, three face-up, three in hand; the rest is the stock. */
static void deal(Game *g, const IdiotCore *core, ks_random *rng) {
    int8_t deck[MAX_CARDS];
    memset(g, 0, offsetof(Game, moves));
    g->core = core;
    g->n = core->num_players;
    shuffle_by_keys(core, rng, deck);
    for (int seat = 0; seat < g->n; seat++) {
        const int8_t *base = deck + seat * DEALT;
        for (int k = 0; k < ROW; k++) {
            g->down[seat][k] = base[k];
            g->up[seat].cards[k] = base[ROW + k];
            g->hand[seat].cards[k] = base[2 * ROW + k];
        }
        g->up[seat].len = ROW;
        g->hand[seat].len = ROW;
        sort_cards(core, &g->up[seat]);
        sort_cards(core, &g->hand[seat]);
        g->down_left[seat] = ROW;
    }
    for (int i = g->n * DEALT; i < core->num_plants; i++) g->stock.cards[g->stock.len++] = deck[i];
    g->active = g->n;
    g->loser = -1;
    if (core->no_swap) {
        g->phase = PHASE_PLAY;
        g->player = starting_player(g);
    } else {
        g->phase = PHASE_SWAP;
        g->player = 0; /* ID-3: seats swap in order from the dealer's left */
    }
}

/* ID-4: the lowest ordinary hand card (2 and 10 don't count), then the next; 99 ends
 * each seat's ranks so that a shorter list that agrees so far compares as Python's does. */
static int starting_player(const Game *g) {
    const int8_t *rank = g->core->rank;
    int best_seat = 0;
    int best[MAX_CARDS + 1];
    int best_len = 0;
    for (int seat = 0; seat < g->n; seat++) {
        int key[MAX_CARDS + 1];
        int len = 0;
        const Cards *hand = &g->hand[seat];
        for (int i = 0; i < hand->len; i++) {
            int r = rank[hand->cards[i]];
            if (r != TWO && r != TEN) key[len++] = r; /* the hand is sorted by rank */
        }
        key[len++] = 99;
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
    Move move[MAX_LEGAL];
    int len;
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
    for (int slot = 0; slot < ROW; slot++) {
        if (g->down[p][slot] >= 0) {
            Move *m = add_move(g, legal, K_FACE_DOWN, 1);
            if (m) m->c[0] = (int8_t)slot;
        }
    }
}

/* IdiotState._plays: per rank, one card up to all of them (ID-5), and the threes slipped
 * under the pile (sneak_three); src is sorted by rank, so equal ranks are neighbours. */
static void add_plays(Game *g, Legal *legal, const Cards *src, int need, int only_rank) {
    const IdiotCore *core = g->core;
    int p = g->player;
    int total = g->hand[p].len + g->up[p].len + g->down_left[p];
    int stock_empty = g->stock.len == 0;
    int size = src->len;
    int i = 0;
    while (i < size) {
        int card = src->cards[i];
        int r = core->rank[card];
        int j = i + 1;
        while (j < size && core->rank[src->cards[j]] == r) j++;
        int group = j - i > FOUR ? FOUR : j - i; /* IdiotGame allows four of a rank */
        if ((only_rank == 0 || r == only_rank) && core->reach[card] >= need) {
            for (int n = 1; n <= group; n++) {
                if (r == TWO && core->no_finish_two && stock_empty && n == total)
                    continue; /* ID-13 no_finish_on_two: a 2 may not be the last card */
                Move *m = add_move(g, legal, K_PLAY, n);
                if (m)
                    for (int k = 0; k < n; k++) m->c[k] = src->cards[i + k];
            }
        }
        if (r == 3 && core->sneak && g->pile.len && !only_rank) {
            for (int n = 1; n <= group; n++) {
                Move *m = add_move(g, legal, K_SNEAK, n);
                if (m)
                    for (int k = 0; k < n; k++) m->c[k] = src->cards[i + k];
            }
        }
        i = j;
    }
}

static void generate(Game *g, Legal *legal) {
    int p = g->player;
    legal->len = 0;
    if (g->phase == PHASE_SWAP) { /* ID-3 */
        const Cards *hand = &g->hand[p], *up = &g->up[p];
        for (int h = 0; h < hand->len; h++) {
            for (int u = 0; u < up->len; u++) {
                Move *m = add_move(g, legal, K_SWAP, 2);
                if (m) {
                    m->c[0] = hand->cards[h];
                    m->c[1] = up->cards[u];
                }
            }
        }
        add_move(g, legal, K_READY, 0);
        return;
    }
    const Cards *src = g->hand[p].len ? &g->hand[p] : &g->up[p];
    if (g->run) {
        /* ID-13 sequences: the run goes on from hand, else the face-up row, else with a
         * face-down card turned unseen (it must continue the run). */
        if (src->len) add_plays(g, legal, src, g->run, g->run);
        else add_face_down_moves(g, legal, p);
        add_move(g, legal, K_END_RUN, 0);
        return;
    }
    if (src->len) {
        add_plays(g, legal, src, g->need, 0);
        if (!legal->len && g->stock.len) add_move(g, legal, K_CHANCE, 0); /* ID-10 */
    } else {
        add_face_down_moves(g, legal, p); /* ID-11 */
    }
    if (g->pile.len) add_move(g, legal, K_TAKE, 0);
    if (!legal->len) add_move(g, legal, K_PASS, 0);
}

/* -- carrying out actions ------------------------------------------------------------- */

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

/* ID-9, IdiotState._draw: draw back up to three while the stock lasts. */
static void draw(Game *g, Cards *hand) {
    while (hand->len < ROW && g->stock.len)
        insert_card(g, hand, g->stock.cards[--g->stock.len]);
}

static int next_in_run(int rank) { /* rules.next_in_run */
    if (rank == TWO || rank == TEN || rank >= ACE) return 0;
    int following = rank + 1;
    return following == TEN ? 11 : following;
}

static int four_on_top(const Game *g, int rank) { /* ID-8 */
    const int8_t *r = g->core->rank;
    const int8_t *pile = g->pile.cards;
    int top = g->pile.len - 1;
    return r[pile[top - 1]] == rank && r[pile[top - 2]] == rank && r[pile[top - 3]] == rank;
}

/* IdiotState._after_lay: burns (ID-7, ID-8), the 2 (ID-6), going out (ID-12), runs. */
static void after_lay(Game *g, int p, int rank, int from_hand, int allow_run) {
    const IdiotCore *core = g->core;
    int again = 0;
    int burn = -1;
    if (rank == TEN) burn = C_TEN_BURNS;
    else if (g->pile.len >= FOUR && four_on_top(g, rank)) burn = C_FOUR_BURNS;
    if (burn >= 0) {
        g->burned += g->pile.len;
        g->pile.len = 0;
        g->need = 0;
        again = 1;
    } else {
        g->need = rank == TWO ? 0 : rank;
        if (rank == TWO) again = core->two_same;
    }
    Cards *hand = &g->hand[p];
    if (from_hand && hand->len < ROW && g->stock.len) draw(g, hand);
    int out = is_empty(g, p);
    if (burn >= 0) {
        count(g, C_BURNS);
        count(g, burn);
    } else if (rank == TWO) {
        count(g, C_RESETS);
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
    if (core->sequences && allow_run) {
        /* ID-13 sequences: on with the next rank up while the player holds one; with
         * hand and face-up row empty, a face-down card may continue it. */
        int following = next_in_run(rank);
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
    for (int k = 0; k < m->n; k++) {
        remove_card(g, src, m->c[k]);
        push_card(g, &g->pile, m->c[k]);
        count_played(g, m->c[k]);
    }
    int rank = core->rank[m->c[0]];
    int top = g->pile.len;
    if (rank == TEN || rank == TWO || core->sequences ||
        (top >= FOUR && core->rank[g->pile.cards[top - FOUR]] == rank)) {
        after_lay(g, p, rank, from_hand, 1);
        return;
    }
    g->need = rank;
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
    count(g, C_SNEAKS);
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
    if (g->pile.len) count(g, C_PILE_PICKUPS);
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
    int rank = g->core->rank[card];
    count(g, C_CHANCE_DRAWS);
    if (g->core->reach[card] >= g->need) {
        count(g, C_CHANCE_DRAWS_PLAYED);
        count_played(g, card);
        push_card(g, &g->pile, card);
        after_lay(g, p, rank, 0, 0);
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
    int rank = core->rank[card];
    int last_card = !g->down_left[p];
    int in_run = g->run;
    int playable = in_run ? rank == in_run : core->reach[card] >= g->need;
    if (rank == TWO && core->no_finish_two && last_card) playable = 0;
    count(g, C_FACE_DOWN_PLAYS);
    if (playable) {
        count_played(g, card);
        push_card(g, &g->pile, card);
        after_lay(g, p, rank, 0, in_run != 0);
    } else {
        count(g, C_FACE_DOWN_FAILS);
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
    g->phase = PHASE_PLAY;
    g->player = starting_player(g);
}

/* IdiotState.apply, for a move from the legal list. */
static void apply(Game *g, const Move *m) {
    g->actions++;
    if (g->actions >= g->core->action_cap) g->over = 1;
    switch (m->kind) {
    case K_PLAY: play_cards(g, m); break;
    case K_TAKE: take(g); break;
    case K_CHANCE: chance(g); break;
    case K_FACE_DOWN: face_down(g, m->c[0]); break;
    case K_SWAP: swap(g, m->c[0], m->c[1]); break;
    case K_READY: ready(g); break;
    case K_SNEAK: sneak_under(g, m); break;
    default: end_turn(g); break; /* END_RUN, PASS */
    }
}

/* -- the bots ------------------------------------------------------------------------- */

/* bots.GreedyBot.act: the cheapest ordinary play, laying the most cards of its rank;
 * else the lowest key (face-down by slot, end of run, chance, pile, anything else). */
static int greedy_choice(const Legal *legal, const int64_t *cost) {
    int cheapest = -1;
    int64_t cheapest_cost = 0;
    for (int i = 0; i < legal->len; i++) {
        const Move *m = &legal->move[i];
        if (m->kind != K_PLAY) continue;
        int64_t c = cost[m->c[0]];
        if (c >= 15) continue;
        if (cheapest < 0) {
            cheapest = i;
            cheapest_cost = c;
        } else if (c == cheapest_cost) {
            cheapest = i;
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
        case K_PLAY: key = cost[m->c[0]] * 16 - (1 + m->n); break;
        case K_SNEAK: key = cost[m->c[0]] * 16 + 8 - (1 + m->n); break;
        case K_READY: return i;
        case K_FACE_DOWN: key = 1000 + m->c[0]; break;
        case K_END_RUN: key = 2000; break;
        case K_CHANCE: key = 3000; break;
        case K_TAKE: key = 4000; break;
        default: key = 5000; break;
        }
        if (key < best_key) {
            best = i;
            best_key = key;
        }
    }
    return best;
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

/* core.play_game's loop (IdiotState.play_out) with the bots inlined. Returns -1 with a
 * Python exception set on failure. */
static int play(Game *g, const IdiotCore *core, uint64_t seed) {
    ks_random rng, bot_rng[MAX_SEATS];
    ks_random *drawn[MAX_SEATS + 1] = {&rng}; /* the generators this game draws from */
    int drawing = 1;
    Legal legal;
    legal.len = 0;
    ks_random_lazy(&rng, seed);
    for (int seat = 0; seat < core->num_players; seat++) {
        if (core->seat_kind[seat] == SEAT_RANDOM) { /* the greedy bot never draws */
            ks_random_lazy(&bot_rng[seat], ks_derive_seed(seed, (uint64_t)seat + 1));
            drawn[drawing++] = &bot_rng[seat];
        }
    }
    ks_random_seed_pending(drawn, drawing);
    deal(g, core, &rng);
    while (!g->over && !g->broken) {
        generate(g, &legal);
        if (g->broken || legal.len == 0) break;
        int seat = g->player;
        int choice = core->seat_kind[seat] == SEAT_RANDOM
                         ? (int)ks_randbelow(&bot_rng[seat], (uint32_t)legal.len)
                         : greedy_choice(&legal, core->cost[seat]);
        const Move *m = &legal.move[choice];
        if (record_move(g, m) < 0) {
            PyErr_NoMemory();
            return -1;
        }
        apply(g, m);
    }
    if (g->broken || (!g->over && legal.len == 0)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "idiot native core: an impossible position (an engine bug); "
                        "KRAFTSTOKK_PURE_PYTHON=1 plays the game in Python");
        return -1;
    }
    return 0;
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
    int8_t cards[ROW];
    int len = 0;
    for (int slot = 0; slot < ROW; slot++)
        if (g->down[seat][slot] >= 0) cards[len++] = g->down[seat][slot];
    return cards_list(cards, len);
}

static PyObject *move_tuple(const IdiotCore *core, const Move *m) {
    PyObject *shared = NULL;
    if (m->kind == K_PLAY && m->n == 1) shared = core->single_play[m->c[0]];
    else if (m->kind == K_FACE_DOWN) shared = core->face_down_action[m->c[0]];
    else if (m->kind != K_PLAY && m->kind != K_SNEAK && m->kind != K_SWAP)
        shared = core->bare_action[m->kind];
    if (shared) {
        Py_INCREF(shared);
        return shared;
    }
    PyObject *tuple = PyTuple_New(1 + m->n);
    if (!tuple) return NULL;
    PyObject *kind = PyLong_FromLong(core->kind_number[m->kind]);
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

/* The NativeRun tuple (see kraftstokk/games/fastcore.py). */
static PyObject *run_result(const IdiotCore *core, const Game *g) {
    PyObject *actions = NULL, *order = NULL, *loser = NULL, *rounds = NULL;
    PyObject *counters = NULL, *samples = NULL, *played = NULL, *loser_cards = NULL;
    PyObject *result = NULL;
    int finished = g->phase == PHASE_OVER;
    if (g->moves_len > PY_SSIZE_T_MAX) goto done;
    actions = PyList_New((Py_ssize_t)g->moves_len);
    if (!actions) goto done;
    for (long long i = 0; i < g->moves_len; i++) {
        PyObject *tuple = move_tuple(core, &g->moves[i]);
        if (!tuple) goto done;
        PyList_SET_ITEM(actions, (Py_ssize_t)i, tuple);
    }
    order = PyList_New(g->num_out);
    if (!order) goto done;
    for (int i = 0; i < g->num_out; i++) {
        PyObject *seat = PyLong_FromLong(g->order[i]);
        if (!seat) goto done;
        PyList_SET_ITEM(order, i, seat);
    }
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
        int8_t left[2 * MAX_CARDS + ROW];
        int len = 0;
        const Cards *hand = &g->hand[g->loser], *up = &g->up[g->loser];
        memcpy(left, hand->cards, (size_t)hand->len);
        len += hand->len;
        memcpy(left + len, up->cards, (size_t)up->len);
        len += up->len;
        for (int slot = 0; slot < ROW; slot++)
            if (g->down[g->loser][slot] >= 0) left[len++] = g->down[g->loser][slot];
        loser_cards = cards_list(left, len);
    } else {
        loser_cards = PyList_New(0);
    }
    if (!loser_cards) goto done;
    result = PyTuple_Pack(9, actions, finished ? Py_True : Py_False, order, loser, rounds,
                          counters, samples, played, loser_cards);
done:
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
    PyObject *result = NULL;
    if (play(&g, self, seed) == 0) result = run_result(self, &g);
    PyMem_Free(g.moves);
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
    for (int s = 0; s < ROW; s++) Py_XDECREF(self->face_down_action[s]);
    for (int k = 0; k < N_KINDS; k++) Py_XDECREF(self->bare_action[k]);
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

static int IdiotCore_init(IdiotCore *self, PyObject *args, PyObject *kwds) {
    static char *keywords[] = {"ranks",  "reach",    "sort_keys", "plant_cards", "kinds",
                               "players", "action_cap", "variants", "seat_costs", NULL};
    PyObject *ranks, *reach, *keys, *plants, *kinds, *variants, *seat_costs;
    int players;
    long long action_cap;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOiLOO:IdiotCore", keywords, &ranks,
                                     &reach, &keys, &plants, &kinds, &players, &action_cap,
                                     &variants, &seat_costs))
        return -1;
    /* Unusable until the whole configuration is read: play and deal refuse it. */
    self->num_players = 0;
    int64_t values[MAX_CARDS];
    Py_ssize_t size, len;
    if (read_ints(ranks, "ranks", 0, ACE, values, 1, MAX_CARDS, &size) < 0) return -1;
    self->size = (int)size;
    for (int c = 0; c < size; c++) self->rank[c] = (int8_t)values[c];
    if (read_ints(reach, "reach", 0, 127, values, size, size, &len) < 0) return -1;
    for (int c = 0; c < size; c++) self->reach[c] = (int8_t)values[c];
    if (read_ints(keys, "sort_keys", 0, 0xFFFF, values, size, size, &len) < 0) return -1;
    for (int c = 0; c < size; c++) {
        if ((values[c] & ((1 << CARD_BITS) - 1)) != c) {
            PyErr_SetString(PyExc_ValueError,
                            "sort_keys: a key must hold its card in its low bits");
            return -1;
        }
        self->key[c] = (uint16_t)values[c];
    }
    if (players < MIN_SEATS || players > MAX_SEATS) {
        PyErr_Format(PyExc_ValueError, "idiot is for %d-%d players, not %d", MIN_SEATS,
                     MAX_SEATS, players);
        return -1;
    }
    if (read_ints(plants, "plant_cards", 0, size - 1, values, DEALT * players, size, &len) < 0)
        return -1;
    self->num_plants = (int)len;
    int seen[MAX_CARDS] = {0}, per_rank[ACE + 1] = {0};
    for (int i = 0; i < len; i++) {
        int card = (int)values[i];
        int r = self->rank[card];
        if (seen[card]++ || r < TWO || ++per_rank[r] > FOUR) {
            PyErr_SetString(PyExc_ValueError,
                            "plant_cards: distinct cards of rank 2..14, at most four of a rank");
            return -1;
        }
        self->plants[i] = (int8_t)card;
    }
    if (read_ints(kinds, "kinds", 0, 1 << 20, values, N_KINDS, N_KINDS, &len) < 0) return -1;
    for (int k = 0; k < N_KINDS; k++) self->kind_number[k] = (long)values[k];
    if (action_cap < 1) {
        PyErr_SetString(PyExc_ValueError, "action cap must be at least 1");
        return -1;
    }
    self->action_cap = action_cap;
    int64_t flags[5];
    if (read_ints(variants, "variants", 0, 1, flags, 5, 5, &len) < 0) return -1;
    self->two_same = (int)flags[0];
    self->no_finish_two = (int)flags[1];
    self->no_swap = (int)flags[2];
    self->sequences = (int)flags[3];
    self->sneak = (int)flags[4];
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
    for (int c = 0; c < size; c++) {
        long card = c;
        Py_XSETREF(self->single_play[c], make_tuple(self->kind_number[K_PLAY], 1, &card));
        if (!self->single_play[c]) return -1;
    }
    for (int s = 0; s < ROW; s++) {
        long slot = s;
        Py_XSETREF(self->face_down_action[s],
                   make_tuple(self->kind_number[K_FACE_DOWN], 1, &slot));
        if (!self->face_down_action[s]) return -1;
    }
    static const int bare[] = {K_READY, K_TAKE, K_CHANCE, K_END_RUN, K_PASS};
    for (size_t i = 0; i < sizeof bare / sizeof bare[0]; i++) {
        Py_XSETREF(self->bare_action[bare[i]], make_tuple(self->kind_number[bare[i]], 0, NULL));
        if (!self->bare_action[bare[i]]) return -1;
    }
    self->num_players = players;
    return 0;
}

static PyMethodDef IdiotCore_methods[] = {
    {"play", (PyCFunction)IdiotCore_play, METH_O,
     "play(seed) -> NativeRun: the game play_game(game, bots, seed) plays."},
    {"deal", (PyCFunction)IdiotCore_deal, METH_O,
     "deal(seed) -> game.new_initial_state(random.Random(seed)).card_locations()."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject IdiotCoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kraftstokk.games.idiot._fastcore.IdiotCore",
    .tp_basicsize = sizeof(IdiotCore),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Idiot games of greedy and random bots, played natively (see fast.py).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)IdiotCore_init,
    .tp_dealloc = (destructor)IdiotCore_dealloc,
    .tp_methods = IdiotCore_methods,
};

static struct PyModuleDef fastcore_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "kraftstokk.games.idiot._fastcore",
    .m_doc = "Idiot's native core: whole games of greedy and random bots.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__fastcore(void) {
    for (int c = 0; c < N_COUNTERS; c++) {
        if (!counter_names[c]) counter_names[c] = PyUnicode_InternFromString(COUNTER_NAMES[c]);
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
