/* Strømkrig's native core: whole games for seats whose bots are greedy, heuristic or random,
 * and playouts from a position of the Python engine.
 *
 * The pure-Python engine (state.py, bots.py, events.py) is the reference; this file
 * plays exactly its games, action for action, and counts what its events count. The
 * functions carry the names of the Python methods they mirror, so the two read side by
 * side. Every table (which card beats which, which starts a war, the special uses in
 * their listing order, war figures, the hand order, the greedy bot's costs, the heuristic
 * bot's ranks and each heuristic seat's settings) and the rule
 * parameters (game.parameters, read by the names of RULE_PARAMETERS) are handed over by
 * fast.py from the Python Game and bot objects: no rule is decided here twice. The seats,
 * action kinds, phases and counters come from ks_game.h, which the build writes from
 * spec.py and actions.py (games/cheader.py).
 *
 * The state is fixed C arrays. Each of the 55 cards is in exactly one place, so no card
 * list can hold more than 55; the pushes check it anyway and turn a broken invariant
 * into a Python exception rather than a write out of bounds.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ks_game.h"
#include "ks_playability.h"
#include "ks_random.h"
#include "ks_rules.h"

#define DECK 55
#define CATEGORY_COUNT 3
/* A turn lists at most 55 lays, 3 special uses per card, runs (a chain of k linked cards
 * gives k(k-1)/2 runs, so under 1,500), take and sjanse. */
#define MAX_LEGAL 2048
_Static_assert(DECK <= 64, "a hand is kept as the bits of a 64-bit word");
_Static_assert(MAX_LEGAL < KS_MAX_BRANCHING, "the meter counts every legal list");

enum { BOT_RANDOM = 0, BOT_GREEDY = 1, BOT_HEURISTIC = 2 };

/* A heuristic seat's settings (bots.HeuristicBot). */
typedef struct {
    long join_nr;
    long war_nr;
    double explore;
} heuristic_settings;

/* The samples, named as the events of events.py record them (the counters are in
 * ks_game.h). */
enum { WAR_SIZES, RUN_LENGTHS, SAMPLE_COUNT };
static const char *const SAMPLE_NAMES[SAMPLE_COUNT] = {"war_sizes", "run_lengths"};
#define KS_CHUNK_SAMPLES SAMPLE_COUNT
#include "ks_chunk.h"

/* ------------------------------------------------------------------ growable buffers */

typedef struct {
    uint16_t *data;
    size_t len;
    size_t cap;
} buffer;

/* Room for `extra` more entries; 0 and a MemoryError set when there is none. */
static int buffer_reserve(buffer *b, size_t extra) {
    if (b->len + extra <= b->cap) return 1;
    size_t cap = b->cap ? b->cap : 512;
    while (cap < b->len + extra) {
        if (cap > SIZE_MAX / 2 / sizeof(uint16_t)) {
            PyErr_NoMemory();
            return 0;
        }
        cap *= 2;
    }
    uint16_t *data = realloc(b->data, cap * sizeof(uint16_t));
    if (data == NULL) {
        PyErr_NoMemory();
        return 0;
    }
    b->data = data;
    b->cap = cap;
    return 1;
}

/* ------------------------------------------------------------------ the configuration */

/* One game's rules and one bot per seat: made once by fast.py, then play(seed) per game. */
typedef struct {
    PyObject_HEAD
    Rules rules; /* the game's rule parameters (rules.StromkrigRules) */
    int n;
    int dealer;
    long long action_cap;
    uint8_t bot[MAX_SEATS];
    int hand_order[DECK];
    int run_next[DECK];
    uint8_t beats[DECK][DECK]; /* beats[under][card] (SK-2) */
    uint8_t may_lay[DECK][DECK]; /* SK-2 or SK-6b */
    uint8_t war_starts[DECK][DECK]; /* war_reasons[under][card] is not empty (SK-6) */
    uint8_t beats_nothing[DECK];
    int16_t special_kinds[DECK][4]; /* special_uses[card]: their kinds, in listing order */
    uint8_t special_len[DECK];
    int16_t open_kinds[DECK][4]; /* open_uses: on an empty pile or after a reset */
    uint8_t open_len[DECK];
    double war_figure[CATEGORY_COUNT][DECK];
    double cost[DECK]; /* the greedy bot's cost of a special use */
    /* what the heuristic bot reads (StromkrigGame's tables) and each heuristic seat's
     * settings */
    heuristic_settings heuristic[MAX_SEATS];
    /* war_good[seat][card]: a plant within the heuristic seat's war_nr in some category
     * (HeuristicBot._good_for_war reads it for each card left in hand) */
    uint8_t war_good[MAX_SEATS][DECK];
    uint8_t burns[DECK]; /* the card has a burn among its special uses */
    double production[DECK];
    int gwh_nr[DECK];
    int nr[CATEGORY_COUNT][DECK];
    uint8_t joker[DECK];
    uint8_t special[DECK]; /* a burner, a resetter or an invisible card */
    /* A hand as bits (state.hand_bits): bit place[card] for each card, the places in
     * hand_order (the jokers first, as they come in the deck). Where every plant's key is
     * its own and each card's run_next is the card at the next place (what
     * StromkrigGame's tables give), in_bits is 1: a hand with at most one joker is then
     * in the order of its bits, and a run continues from a card to the next bit. The bits
     * are kept (keep_bits) where also a greedy seat plays, the one bot that reads them. */
    int in_bits;
    int keep_bits;
    uint8_t place[DECK];
    uint8_t at_place[DECK];
    uint64_t beats_bits[DECK]; /* beats, may_lay and beats_nothing by places */
    uint64_t may_lay_bits[DECK];
    uint64_t beats_nothing_bits;
    uint64_t links; /* the places whose card's run_next is the card at the next place */
    /* Every action with at most one argument, made once and shared by every game. */
    PyObject *action[KIND_COUNT][DECK];
    PyObject *counter_names[COUNTER_COUNT];
    PyObject *sample_names[SAMPLE_COUNT];
    /* Reused from game to game (the GIL is held throughout a game). */
    buffer log;
    buffer samples[SAMPLE_COUNT];
} Core;

/* ------------------------------------------------------------------ the state */

typedef struct {
    uint8_t card[DECK];
    int len;
} cards;

typedef struct {
    int16_t kind;
    uint8_t card; /* the card; for KIND_RUN the hand position of its first card; KIND_NAME: category */
    uint8_t len;  /* KIND_RUN: how many cards */
} action;

typedef struct {
    action item[MAX_LEGAL];
    int len;
} legal_list;

typedef struct {
    Core *core;
    int n;
    cards hands[MAX_SEATS];
    /* each hand as bits of places (Core.place) and its cards' special uses, kept as the
     * cards come and go (hand_gained, hand_remove; hands_indexed makes them anew) */
    uint64_t hand_bits[MAX_SEATS];
    int hand_specials[MAX_SEATS];
    cards stock; /* top card last */
    cards pile;
    cards beside;
    cards burned;
    cards war_cards;
    int top;
    int top_owner;
    int chance_card;
    int current;
    int phase;
    uint8_t out[MAX_SEATS];
    int order[MAX_SEATS];
    int order_len;
    long long actions;
    long long turns;
    int challenger;
    int war_players[MAX_SEATS];
    int war_players_len;
    int ask_queue[MAX_SEATS];
    int ask_head;
    int ask_len;
    int war_category;
    int round_players[MAX_SEATS];
    int round_len;
    int round_seat[MAX_SEATS];
    int round_card[MAX_SEATS];
    int laid_len;
    /* what the events count */
    long long counters[COUNTER_COUNT];
    uint8_t counter_order[COUNTER_COUNT]; /* first counted first, as a dict fills */
    int counters_seen;
    uint8_t sample_order[SAMPLE_COUNT];
    int samples_seen;
    long long cards_played[DECK];
    const char *error; /* a broken invariant: the game is abandoned with this message */
    ks_random rng;
    ks_random bot_rng[MAX_SEATS];
    int measure; /* a whole game (not a playout): the meter counts */
    ks_meter meter; /* last: a position's memset stops before it */
} state;

static void fail(state *s, const char *message) {
    if (s->error == NULL) s->error = message;
}

static void push(state *s, cards *list, int card) {
    if (list->len >= DECK || card < 0 || card >= DECK) {
        fail(s, "a card list overflowed");
        return;
    }
    list->card[list->len++] = (uint8_t)card;
}

static int pop(state *s, cards *list) {
    if (list->len <= 0) {
        fail(s, "a card was taken from an empty list");
        return 0;
    }
    return list->card[--list->len];
}

/* ordering.remove_card: the first occurrence. */
static void remove_card(state *s, cards *list, int card) {
    for (int i = 0; i < list->len; i++) {
        if (list->card[i] == card) {
            for (int j = i + 1; j < list->len; j++) list->card[j - 1] = list->card[j];
            list->len--;
            return;
        }
    }
    fail(s, "a card to remove was not in the list");
}

/* ordering.insert_sorted: after the cards of an equal key. */
static void insert_sorted(state *s, cards *hand, int card) {
    const int *key = s->core->hand_order;
    if (hand->len >= DECK) {
        fail(s, "a hand overflowed");
        return;
    }
    int i = hand->len++;
    while (i > 0 && key[hand->card[i - 1]] > key[card]) {
        hand->card[i] = hand->card[i - 1];
        i--;
    }
    hand->card[i] = (uint8_t)card;
}

/* ordering.sort_by: stable, as list.sort is for the long hands. */
static void sort_by(state *s, cards *hand) {
    const int *key = s->core->hand_order;
    for (int j = 1; j < hand->len; j++) {
        int card = hand->card[j];
        int i = j;
        while (i > 0 && key[hand->card[i - 1]] > key[card]) {
            hand->card[i] = hand->card[i - 1];
            i--;
        }
        hand->card[i] = (uint8_t)card;
    }
}

/* sort_by for a hand that picked up a pile: its sorted first part (the hand it held) is
 * kept, the rest sorted and the two merged, the first part's first among equal keys (what
 * a stable sort of the whole gives; fewer steps). */
static void sort_picked_up(state *s, cards *hand) {
    const int *key = s->core->hand_order;
    int sorted = hand->len ? 1 : 0;
    while (sorted < hand->len && key[hand->card[sorted - 1]] <= key[hand->card[sorted]]) sorted++;
    if (sorted == hand->len) return;
    for (int j = sorted + 1; j < hand->len; j++) {
        int card = hand->card[j];
        int i = j;
        while (i > sorted && key[hand->card[i - 1]] > key[card]) {
            hand->card[i] = hand->card[i - 1];
            i--;
        }
        hand->card[i] = (uint8_t)card;
    }
    uint8_t first[DECK];
    memcpy(first, hand->card, (size_t)sorted);
    int i = 0, j = sorted, out = 0; /* out <= j: the rest is read before it is written over */
    while (i < sorted && j < hand->len)
        hand->card[out++] = key[hand->card[j]] < key[first[i]] ? hand->card[j++] : first[i++];
    while (i < sorted) hand->card[out++] = first[i++];
}

static void extend(state *s, cards *into, const cards *from) {
    for (int i = 0; i < from->len; i++) push(s, into, from->card[i]);
}

static inline void hand_gained(state *s, int seat, int card) {
    if (!s->core->keep_bits) return;
    s->hand_bits[seat] |= (uint64_t)1 << s->core->place[card];
    s->hand_specials[seat] += s->core->special_len[card];
}

static void hand_gained_all(state *s, int seat, const cards *from) {
    if (!s->core->keep_bits) return;
    for (int i = 0; i < from->len; i++) hand_gained(s, seat, from->card[i]);
}

/* remove_card from a hand. */
static inline void hand_remove(state *s, int seat, int card) {
    remove_card(s, &s->hands[seat], card);
    if (!s->core->keep_bits) return;
    s->hand_bits[seat] &= ~((uint64_t)1 << s->core->place[card]);
    s->hand_specials[seat] -= s->core->special_len[card];
}

/* The hands' bits and special uses from the hands (a deal, a loaded position). */
static void hands_indexed(state *s) {
    for (int seat = 0; seat < s->n; seat++) {
        s->hand_bits[seat] = 0;
        s->hand_specials[seat] = 0;
        hand_gained_all(s, seat, &s->hands[seat]);
    }
}

/* The cards of a set of bits (the build targets no particular CPU: no popcnt). */
static inline int bit_count(uint64_t bits) {
    bits = bits - (bits >> 1 & 0x5555555555555555ULL);
    bits = (bits & 0x3333333333333333ULL) + (bits >> 2 & 0x3333333333333333ULL);
    bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((bits * 0x0101010101010101ULL) >> 56);
}

/* Stats.count: a counter enters the dict when first counted. Each call site names the
 * event of events.py whose count() it stands for. */
static void count(state *s, int counter) {
    if (s->counters[counter]++ == 0) s->counter_order[s->counters_seen++] = (uint8_t)counter;
}

static void sample(state *s, int which, int value) {
    buffer *b = &s->core->samples[which];
    if (b->len >= b->cap) {
        fail(s, "no room for a sample");
        return;
    }
    if (b->len == 0) s->sample_order[s->samples_seen++] = (uint8_t)which;
    b->data[b->len++] = (uint16_t)value;
}

static void played(state *s, int card) { s->cards_played[card]++; }

/* ------------------------------------------------------------------ seeds and the deal */

/* StromkrigGame.new_initial_state (SK-1): a stable sort by random() keys, then three cards
 * each from the dealer's left, the rest the stock. */
static void new_initial_state(state *s, Core *core, uint64_t seed,
                              const ks_chunk_seeds *seeded, int game) {
    s->core = core;
    s->n = core->n;
    /* The game's generator and the random seats' are seeded side by side; a greedy seat
     * draws only to name a war's category, and is seeded if it ever does. `seeded`: game
     * `game`'s generators seeded ahead (a chunk seeds several games' side by side: the
     * deal's and those of the seats that drew in its last games, ks_chunk_seeds). */
    ks_random *drawn[MAX_SEATS + 1] = {&s->rng};
    int drawing = 1;
    if (seeded != NULL) {
        s->rng = *ks_chunk_seeded(seeded, game, -1);
    } else {
        ks_random_lazy(&s->rng, seed);
    }
    for (int seat = 0; seat < s->n; seat++) {
        const ks_random *ahead = seeded != NULL ? ks_chunk_seeded(seeded, game, seat) : NULL;
        if (ahead != NULL) {
            s->bot_rng[seat] = *ahead;
            continue;
        }
        ks_random_lazy(&s->bot_rng[seat], ks_derive_seed(seed, (uint64_t)seat + 1));
        if (core->bot[seat] == BOT_RANDOM ||
            (core->bot[seat] == BOT_HEURISTIC && core->heuristic[seat].explore != 0.0))
            drawn[drawing++] = &s->bot_rng[seat];
    }
    ks_random_seed_pending(drawn, drawing);
    double keys[DECK];
    uint8_t in_order[DECK];
    for (int c = 0; c < DECK; c++) {
        keys[c] = ks_random_double(&s->rng);
        in_order[c] = (uint8_t)c;
    }
    cards *deck = &s->stock;
    deck->len = DECK;
    ks_sort_by_random_keys(keys, in_order, DECK, deck->card);
    int n = s->n;
    for (int seat = 0; seat < n; seat++) s->hands[seat].len = 0;
    for (int round = 0; round < core->rules.hand_size; round++) {
        for (int offset = 1; offset <= n; offset++) {
            push(s, &s->hands[(core->dealer + offset) % n], pop(s, deck));
        }
    }
    for (int seat = 0; seat < n; seat++) sort_by(s, &s->hands[seat]);
    hands_indexed(s);
    s->pile.len = s->beside.len = s->burned.len = s->war_cards.len = 0;
    s->top = s->top_owner = s->chance_card = -1;
    s->current = core->dealer;
    s->phase = PHASE_PLAY;
    memset(s->out, 0, sizeof s->out);
    s->order_len = 0;
    s->actions = s->turns = 0;
    s->challenger = -1;
    s->war_players_len = s->ask_head = s->ask_len = s->round_len = s->laid_len = 0;
    s->war_category = -1;
    memset(s->counters, 0, sizeof s->counters);
    s->counters_seen = s->samples_seen = 0;
    memset(s->cards_played, 0, sizeof s->cards_played);
    s->error = NULL;
    s->measure = 0;
}

/* ------------------------------------------------------------------ moves */

static void end_turn(state *s, int seat, int again);
static void start_war(state *s, int challenger, int under_owner);

static int next_seat(state *s, int seat) {
    for (int k = 1; k <= s->n; k++) {
        int next = seat + k < s->n ? seat + k : seat + k - s->n; /* (seat + k) % n, k <= n */
        if (!s->out[next]) return next;
    }
    fail(s, "no seat left to play");
    return seat;
}

static void draw_up(state *s, int seat) {
    cards *hand = &s->hands[seat];
    int hand_size = s->core->rules.hand_size; /* SK-3: drawn back up to this */
    while (hand->len < hand_size && s->stock.len > 0) {
        int card = pop(s, &s->stock);
        insert_sorted(s, hand, card);
        hand_gained(s, seat, card);
    }
}

static void pick_up(state *s, int seat) {
    cards *hand = &s->hands[seat];
    extend(s, hand, &s->pile);
    extend(s, hand, &s->beside);
    extend(s, hand, &s->war_cards);
    hand_gained_all(s, seat, &s->pile);
    hand_gained_all(s, seat, &s->beside);
    hand_gained_all(s, seat, &s->war_cards);
    s->war_cards.len = 0;
    sort_picked_up(s, hand);
    s->pile.len = s->beside.len = 0;
    s->top = s->top_owner = -1;
}

/* SK-4: the whole pile with the cards beside it; the next player starts. */
static void take(state *s, int seat) {
    count(s, COUNTER_PILE_PICKUPS); /* PileTaken */
    pick_up(s, seat);
    end_turn(s, seat, 0);
}

/* A war on the top card needs its owner, another player still in, and a layer who keeps
 * cards (SK-14). */
static int war_possible(const state *s, int layer_left) {
    int owner = s->top_owner;
    return layer_left && owner >= 0 && owner != s->current && !s->out[owner];
}

static int has_cards(const state *s, int seat) {
    return s->hands[seat].len > 0 || s->stock.len > 0;
}

/* SK-2/SK-5: lay ordinary card(s); SK-6 checks the first against the card under. */
static void lay_on_pile(state *s, int seat, const uint8_t *laid, int laid_len, int from_hand) {
    int first = laid[0];
    int under = s->top;
    int owner = s->top_owner;
    if (from_hand && s->stock.len > 0 && s->hands[seat].len < s->core->rules.hand_size)
        draw_up(s, seat);
    int war = under >= 0 && s->core->war_starts[under][first] && war_possible(s, has_cards(s, seat));
    for (int i = 0; i < laid_len; i++) push(s, &s->pile, laid[i]);
    s->top = laid[laid_len - 1];
    s->top_owner = seat;
    s->phase = PHASE_PLAY;
    if (war) {
        start_war(s, seat, owner);
    } else {
        end_turn(s, seat, 0);
    }
}

/* The common move: one ordinary card from the hand (SK-2, SK-3, SK-6). */
static void lay_card(state *s, int seat, int card) {
    hand_remove(s, seat, card);
    played(s, card); /* Laid */
    uint8_t laid[1] = {(uint8_t)card};
    lay_on_pile(s, seat, laid, 1, 1);
}

static void run(state *s, int seat, const uint8_t *laid, int laid_len) {
    for (int i = 0; i < laid_len; i++) hand_remove(s, seat, laid[i]);
    count(s, COUNTER_RUNS); /* RunLaid */
    sample(s, RUN_LENGTHS, laid_len);
    for (int i = 0; i < laid_len; i++) played(s, laid[i]);
    lay_on_pile(s, seat, laid, laid_len, 1);
}

static void special_or_lay(state *s, int seat, int kind, int card, int from_hand) {
    if (from_hand) hand_remove(s, seat, card);
    if (kind == KIND_LAY) {
        played(s, card);
        uint8_t laid[1] = {(uint8_t)card};
        lay_on_pile(s, seat, laid, 1, from_hand);
        return;
    }
    s->phase = PHASE_PLAY;
    if (from_hand) draw_up(s, seat);
    if (kind == KIND_BURN) { /* SK-10 */
        extend(s, &s->burned, &s->pile);
        extend(s, &s->burned, &s->beside);
        push(s, &s->burned, card);
        s->pile.len = s->beside.len = 0;
        s->top = s->top_owner = -1;
        count(s, COUNTER_BURNS); /* Burned */
        played(s, card);
        end_turn(s, seat, 1);
        return;
    }
    if (kind == KIND_RESET) { /* SK-11 */
        count(s, COUNTER_RESETS); /* Reset */
        played(s, card);
        push(s, &s->pile, card);
        s->top = s->top_owner = -1;
    } else { /* SK-12 */
        count(s, COUNTER_INVISIBLE_PLAYS); /* LaidBeside */
        played(s, card);
        push(s, &s->beside, card);
    }
    end_turn(s, seat, 0);
}

static void go_out(state *s, int seat) { /* SK-14 */
    s->out[seat] = 1;
    if (s->order_len >= MAX_SEATS) {
        fail(s, "more seats out than seats");
        return;
    }
    s->order[s->order_len++] = seat;
}

/* With one player left (or none) the game is over: 1 then. */
static int over_check(state *s) {
    int left = 0;
    for (int seat = 0; seat < s->n; seat++) left += !s->out[seat];
    if (left > 1) return 0;
    s->phase = PHASE_OVER;
    return 1;
}

static int mark_out(state *s) {
    if (s->stock.len > 0) return 0;
    for (int seat = 0; seat < s->n; seat++) {
        if (!s->out[seat] && s->hands[seat].len == 0) go_out(s, seat);
    }
    return over_check(s);
}

/* SK-14 out check; then the same player again (after a burn) or the next one. */
static void end_turn(state *s, int seat, int again) {
    s->phase = PHASE_PLAY;
    if (s->stock.len == 0 && s->hands[seat].len == 0) {
        go_out(s, seat);
        if (over_check(s)) return;
    }
    if (again && !s->out[seat]) {
        s->current = seat;
        return;
    }
    s->current = next_seat(s, seat);
}

/* ------------------------------------------------------------------ war (SK-6..SK-9) */

static void next_asked(state *s) {
    if (s->ask_head < s->ask_len) {
        s->phase = PHASE_ASK;
        s->current = s->ask_queue[s->ask_head];
    } else {
        s->phase = PHASE_NAMING;
        s->current = s->challenger;
    }
}

static void start_war(state *s, int challenger, int under_owner) {
    count(s, COUNTER_WARS); /* WarStarted */
    s->challenger = challenger;
    s->war_players[0] = challenger;
    s->war_players[1] = under_owner;
    s->war_players_len = 2;
    s->war_category = -1;
    s->ask_head = s->ask_len = 0;
    for (int k = 1; k < s->n; k++) {
        int seat = (challenger + k) % s->n;
        if (seat != under_owner && !s->out[seat]) s->ask_queue[s->ask_len++] = seat;
    }
    next_asked(s);
}

static void next_war_layer(state *s);

static void start_round(state *s, const int *players, int len) {
    int copy[MAX_SEATS];
    memcpy(copy, players, (size_t)len * sizeof(int));
    memcpy(s->round_players, copy, (size_t)len * sizeof(int));
    s->round_len = len;
    s->laid_len = 0;
    next_war_layer(s);
}

/* SK-7/SK-8: the loser takes the pile, the cards beside it and the war cards. */
static void end_war(state *s, int loser) {
    pick_up(s, loser);
    s->challenger = -1;
    s->war_players_len = s->round_len = s->laid_len = 0;
    s->war_category = -1;
    s->phase = PHASE_PLAY;
    if (mark_out(s)) return;
    s->current = loser;
}

static void next_war_layer(state *s) {
    if (s->laid_len < s->round_len) {
        int seat = s->round_players[s->laid_len];
        if (s->hands[seat].len == 0) { /* SK-9 */
            end_war(s, seat);
            return;
        }
        s->phase = PHASE_WAR;
        s->current = seat;
        return;
    }
    /* rules.war_losers: the lowest figure in the named category (jokers lowest, SK-7) */
    if (s->laid_len == 0 || s->war_category < 0) {
        fail(s, "a war round without cards");
        return;
    }
    const double *figure = s->core->war_figure[s->war_category];
    double lowest = figure[s->round_card[0]];
    for (int i = 1; i < s->laid_len; i++) {
        if (figure[s->round_card[i]] < lowest) lowest = figure[s->round_card[i]];
    }
    int losers[MAX_SEATS];
    int len = 0;
    for (int i = 0; i < s->laid_len; i++) {
        if (figure[s->round_card[i]] == lowest) losers[len++] = s->round_seat[i];
    }
    if (len == 1) {
        end_war(s, losers[0]);
    } else {
        count(s, COUNTER_WAR_ROUNDS); /* WarTied */
        start_round(s, losers, len);
    }
}

static void war_lay(state *s, int seat, int card) {
    hand_remove(s, seat, card);
    push(s, &s->war_cards, card);
    if (s->laid_len >= MAX_SEATS) {
        fail(s, "more war cards than seats");
        return;
    }
    s->round_seat[s->laid_len] = seat;
    s->round_card[s->laid_len] = card;
    s->laid_len++;
    played(s, card); /* WarCardLaid */
    draw_up(s, seat);
    next_war_layer(s);
}

/* ------------------------------------------------------------------ legal actions */

static void add(state *s, legal_list *legal, int kind, int card, int len) {
    if (legal->len >= MAX_LEGAL) {
        fail(s, "too many legal actions");
        return;
    }
    action *a = &legal->item[legal->len++];
    a->kind = (int16_t)kind;
    a->card = (uint8_t)card;
    a->len = (uint8_t)len;
}

/* Every single-card use of `card` on the current pile (SK-2, SK-6b, SK-10..13). */
static void uses(state *s, int card, legal_list *legal, int left_after) {
    const Core *core = s->core;
    int top = s->top;
    if (top < 0) {
        for (int k = 0; k < core->open_len[card]; k++) add(s, legal, core->open_kinds[card][k], card, 0);
        return;
    }
    const uint8_t *may = war_possible(s, left_after) ? core->may_lay[top] : core->beats[top];
    if (may[card]) add(s, legal, KIND_LAY, card, 0);
    for (int k = 0; k < core->special_len[card]; k++) add(s, legal, core->special_kinds[card][k], card, 0);
}

/* SK-6b: a lower card of the same tens may be laid, and starts a war (a war is possible). */
static int lays_may_start_war(const state *s) {
    int owner = s->top_owner;
    return s->top >= 0 && (s->hands[s->current].len > 1 || s->stock.len > 0) && owner >= 0 &&
           owner != s->current && !s->out[owner];
}

/* The rows saying which cards beat the top card (returned: a run's first card must) and
 * which may be laid on it (`may`). */
static const uint8_t *lay_rows(const state *s, const uint8_t **may) {
    const Core *core = s->core;
    int top = s->top;
    const uint8_t *beats = top < 0 ? core->beats_nothing : core->beats[top];
    *may = lays_may_start_war(s) ? core->may_lay[top] : beats;
    return beats;
}

/* lay_rows as bits of places. */
static uint64_t lay_bits(const state *s, uint64_t *may) {
    const Core *core = s->core;
    int top = s->top;
    uint64_t beats = top < 0 ? core->beats_nothing_bits : core->beats_bits[top];
    *may = lays_may_start_war(s) ? core->may_lay_bits[top] : beats;
    return beats;
}

/* A turn's ordinary lays (lowest production first, as the hand is sorted); returns the
 * row saying which cards beat the top card (a run's first card must). */
static const uint8_t *turn_lays(state *s, legal_list *legal) {
    const cards *hand = &s->hands[s->current];
    const uint8_t *may;
    const uint8_t *beats = lay_rows(s, &may);
    legal->len = 0;
    for (int i = 0; i < hand->len; i++) {
        if (may[hand->card[i]]) add(s, legal, KIND_LAY, hand->card[i], 0);
    }
    return beats;
}

/* The special uses, runs (SK-5), take and sjanse after the lays. */
static void turn_rest(state *s, legal_list *legal, const uint8_t *beats) {
    const Core *core = s->core;
    const cards *hand = &s->hands[s->current];
    uint8_t linked[DECK + 1] = {0}; /* linked[i]: hand[i + 1] continues a run from hand[i] */
    int links = 0;
    for (int i = 0; i < hand->len; i++) {
        int card = hand->card[i];
        for (int k = 0; k < core->special_len[card]; k++) add(s, legal, core->special_kinds[card][k], card, 0);
        if (i + 1 < hand->len && hand->card[i + 1] == core->run_next[card]) {
            linked[i] = 1;
            links++;
        }
    }
    if (links) {
        for (int i = 0; i + 1 < hand->len; i++) {
            if (!linked[i] || !beats[hand->card[i]]) continue;
            int len = 2;
            add(s, legal, KIND_RUN, i, len);
            for (int j = i + 1; linked[j]; j++) add(s, legal, KIND_RUN, i, ++len);
        }
    }
    if (s->pile.len > 0 || s->beside.len > 0) add(s, legal, KIND_TAKE, 0, 0);
    if (s->stock.len > 0) add(s, legal, KIND_CHANCE, 0, 0);
}

/* How many actions turn_rest would add, without listing them: a greedy seat that lays
 * never reads them, and the meter only counts them. */
static int count_rest(const state *s, const uint8_t *beats) {
    const Core *core = s->core;
    const cards *hand = &s->hands[s->current];
    int count = 0, chain = 0; /* chain: the hand's cards from i on that continue a run */
    for (int i = hand->len - 1; i >= 0; i--) {
        int card = hand->card[i];
        count += core->special_len[card];
        chain = i + 1 < hand->len && hand->card[i + 1] == core->run_next[card] ? chain + 1 : 0;
        if (chain && beats[card]) count += chain; /* the runs from i: 2 .. chain + 1 cards */
    }
    if (s->pile.len > 0 || s->beside.len > 0) count++;
    if (s->stock.len > 0) count++;
    return count;
}

/* The legal actions outside a regular turn, in the order of _compute_legal. */
static void other_legal(state *s, legal_list *legal) {
    legal->len = 0;
    int seat = s->current;
    switch (s->phase) {
    case PHASE_CHOOSE:
        uses(s, s->chance_card, legal, has_cards(s, seat));
        break;
    case PHASE_ASK:
        add(s, legal, KIND_JOIN, 0, 0);
        add(s, legal, KIND_STAY_OUT, 0, 0);
        break;
    case PHASE_NAMING:
        for (int category = 0; category < CATEGORY_COUNT; category++) add(s, legal, KIND_NAME, category, 0);
        break;
    default: /* PHASE_WAR */
        for (int i = 0; i < s->hands[seat].len; i++) add(s, legal, KIND_WAR_LAY, s->hands[seat].card[i], 0);
        break;
    }
}

/* ------------------------------------------------------------------ the bots */

/* GreedyBot._turn: the cheapest special use (invisible, reset, then burn for one card),
 * else a sjanse, else the pile, else the first action. */
static int greedy_turn(const state *s, const legal_list *legal) {
    const double *cost = s->core->cost;
    int special = -1;
    double special_cost = 0.0;
    int special_kind = 0;
    int fallback = -1;
    for (int i = 0; i < legal->len; i++) {
        int kind = legal->item[i].kind;
        if (kind == KIND_INVISIBLE || kind == KIND_RESET || kind == KIND_BURN) {
            double value = cost[legal->item[i].card];
            if (special < 0 || value < special_cost || (value == special_cost && kind > special_kind)) {
                special = i;
                special_cost = value;
                special_kind = kind;
            }
        } else if (kind == KIND_CHANCE || (kind == KIND_TAKE && fallback < 0)) {
            fallback = i;
        }
    }
    if (special >= 0) return special;
    if (fallback >= 0) return fallback;
    return 0;
}

/* GreedyBot.act outside a regular turn's fast path. */
static action greedy_act(state *s, const legal_list *legal, int seat) {
    const action *first = &legal->item[0];
    int kind = first->kind;
    if (kind == KIND_LAY) return *first;
    if (kind < KIND_JOIN) return legal->item[greedy_turn(s, legal)];
    action chosen = *first;
    if (kind == KIND_JOIN) {
        chosen.kind = KIND_STAY_OUT;
        return chosen;
    }
    if (kind == KIND_NAME) {
        chosen.card = (uint8_t)ks_randbelow(&s->bot_rng[seat], CATEGORY_COUNT);
        return chosen;
    }
    /* a war card: the highest figure, the first of equals */
    if (s->war_category < 0 || s->war_category >= CATEGORY_COUNT) {
        fail(s, "a war card without a named category");
        return chosen;
    }
    const double *figure = s->core->war_figure[s->war_category];
    double best_figure = figure[first->card];
    for (int i = 1; i < legal->len; i++) {
        if (figure[legal->item[i].card] > best_figure) {
            chosen = legal->item[i];
            best_figure = figure[chosen.card];
        }
    }
    return chosen;
}

/* HeuristicBot._strong: a plant in hand within join_nr in every category. */
static int heuristic_strong(const Core *core, const cards *hand, long join_nr) {
    for (int k = 0; k < CATEGORY_COUNT; k++) {
        int best = -1;
        for (int i = 0; i < hand->len; i++) {
            int card = hand->card[i];
            if (!core->joker[card] && (best < 0 || core->nr[k][card] < best)) best = core->nr[k][card];
        }
        if (best < 0 || best > join_nr) return 0;
    }
    return 1;
}

/* bots._best_category: the category in which the hand's best plant ranks highest, looked
 * at in the order production, effect, head; production when the hand holds none. */
static int heuristic_category(const Core *core, const cards *hand) {
    static const int order[CATEGORY_COUNT] = {1, 0, 2};
    int best_category = 1;
    long best_nr = 1000000;
    for (int k = 0; k < CATEGORY_COUNT; k++) {
        int category = order[k];
        for (int i = 0; i < hand->len; i++) {
            int card = hand->card[i];
            if (!core->joker[card] && core->nr[category][card] < best_nr) {
                best_nr = core->nr[category][card];
                best_category = category;
            }
        }
    }
    return best_category;
}

/* HeuristicBot._war_card: the highest figure to open a round (the last of equals, as the
 * end of a stable sort), else the lowest that beats the lowest card laid (the first of
 * equals), else the lowest. */
static int heuristic_war_card(const state *s, const legal_list *legal) {
    const double *figure = s->core->war_figure[s->war_category];
    int chosen = 0;
    if (s->laid_len == 0) {
        for (int i = 1; i < legal->len; i++)
            if (figure[legal->item[i].card] >= figure[legal->item[chosen].card]) chosen = i;
        return chosen;
    }
    double lowest = figure[s->round_card[0]];
    for (int i = 1; i < s->laid_len; i++)
        if (figure[s->round_card[i]] < lowest) lowest = figure[s->round_card[i]];
    int above = -1;
    for (int i = 0; i < legal->len; i++) {
        double value = figure[legal->item[i].card];
        if (value < figure[legal->item[chosen].card]) chosen = i;
        if (value > lowest && (above < 0 || value < figure[legal->item[above].card])) above = i;
    }
    return above >= 0 ? above : chosen;
}

/* The first card of a lay or run, and how many it lays. */
static int first_card(const state *s, const action *a) {
    return a->kind == KIND_RUN ? s->hands[s->current].card[a->card] : a->card;
}

/* HeuristicBot._good_for_war: a plant left in hand after laying `a`, within war_nr in
 * some category. */
static int heuristic_good_for_war(const state *s, const action *a, long war_nr) {
    const Core *core = s->core;
    const cards *hand = &s->hands[s->current];
    int from = a->kind == KIND_RUN ? a->card : -1, to = a->kind == KIND_RUN ? a->card + a->len : -1;
    for (int k = 0; k < CATEGORY_COUNT; k++) {
        for (int i = 0; i < hand->len; i++) {
            int card = hand->card[i];
            int spent = a->kind == KIND_RUN ? (i >= from && i < to) : card == a->card;
            if (!spent && !core->joker[card] && core->nr[k][card] <= war_nr) return 1;
        }
    }
    return 0;
}

/* HeuristicBot._cheapest: of the actions of `kind`, the first of the lowest (joker,
 * production); -1 when there is none. */
static int heuristic_cheapest(const Core *core, const legal_list *legal, int kind) {
    int best = -1;
    for (int i = 0; i < legal->len; i++) {
        if (legal->item[i].kind != kind) continue;
        int card = legal->item[i].card, other = best >= 0 ? legal->item[best].card : 0;
        if (best < 0 || core->joker[card] < core->joker[other] ||
            (core->joker[card] == core->joker[other] && core->production[card] < core->production[other]))
            best = i;
    }
    return best;
}

static int first_of(const legal_list *legal, int kind) {
    for (int i = 0; i < legal->len; i++)
        if (legal->item[i].kind == kind) return i;
    return -1;
}

/* HeuristicBot._turn: runs first, then plain cards (a burn for a big pile rather than a
 * top card), specials when stuck; no war it would probably lose. */
static int heuristic_turn(const state *s, const legal_list *legal, long war_nr) {
    const Core *core = s->core;
    int seat = s->current;
    int wary = s->top >= 0 && s->top_owner != seat && s->top_owner != -1;
    int pile_size = s->pile.len + s->beside.len;
    int best_run = -1, cheapest = -1, first_safe_lay = -1;
    for (int i = 0; i < legal->len; i++) {
        const action *a = &legal->item[i];
        if (a->kind != KIND_RUN && a->kind != KIND_LAY) continue;
        int card = first_card(s, a);
        if (wary && core->war_starts[s->top][card] && !heuristic_good_for_war(s, a, war_nr)) continue;
        if (a->kind == KIND_RUN) {
            /* max((len, -production)): the longest, then the lowest first card; the first of equals */
            if (best_run < 0) {
                best_run = i;
                continue;
            }
            const action *b = &legal->item[best_run];
            double mine = core->production[card], theirs = core->production[first_card(s, b)];
            if (a->len > b->len || (a->len == b->len && mine < theirs)) best_run = i;
            continue;
        }
        if (first_safe_lay < 0) first_safe_lay = i;
        if (cheapest < 0 && !core->special[card]) cheapest = i;
    }
    if (best_run >= 0) return best_run;
    if (cheapest < 0) cheapest = first_safe_lay; /* no plain card: any safe lay */
    int burn = heuristic_cheapest(core, legal, KIND_BURN);
    if (cheapest >= 0) {
        if (burn >= 0 && core->gwh_nr[legal->item[cheapest].card] <= 8 && pile_size >= 5) return burn;
        return cheapest;
    }
    if (s->chance_card >= 0) { /* choosing the use of a sjanse card */
        static const int stuck[3] = {KIND_INVISIBLE, KIND_RESET, KIND_BURN};
        for (int k = 0; k < 3; k++) {
            int found = first_of(legal, stuck[k]);
            if (found >= 0) return found;
        }
        return 0;
    }
    int invisible = heuristic_cheapest(core, legal, KIND_INVISIBLE);
    if (invisible >= 0) return invisible;
    int reset = heuristic_cheapest(core, legal, KIND_RESET);
    if (reset >= 0) return reset;
    int chance = first_of(legal, KIND_CHANCE);
    if (burn >= 0 && (pile_size >= 3 || chance < 0)) return burn;
    if (chance >= 0) return chance;
    if (burn >= 0) return burn;
    int lay = first_of(legal, KIND_LAY);
    if (lay >= 0) return lay;
    int take = first_of(legal, KIND_TAKE);
    return take >= 0 ? take : 0;
}

/* HeuristicBot.act */
static int heuristic_act(state *s, const legal_list *legal, int seat) {
    const Core *core = s->core;
    const heuristic_settings *h = &core->heuristic[seat];
    const cards *hand = &s->hands[seat];
    switch (s->phase) {
    case PHASE_ASK: /* legal: JOIN, STAY_OUT */
        return heuristic_strong(core, hand, h->join_nr) ? 0 : 1;
    case PHASE_NAMING: /* legal: NAME 0, 1, 2 */
        return heuristic_category(core, hand);
    case PHASE_WAR:
        if (s->war_category < 0 || s->war_category >= CATEGORY_COUNT) {
            fail(s, "a war card without a named category");
            return 0;
        }
        return heuristic_war_card(s, legal);
    default:
        break;
    }
    if (h->explore != 0.0 && ks_random_double(&s->bot_rng[seat]) < h->explore) {
        int plays = 0;
        for (int i = 0; i < legal->len; i++)
            plays += legal->item[i].kind == KIND_LAY || legal->item[i].kind == KIND_RUN;
        if (plays) {
            int pick = (int)ks_randbelow(&s->bot_rng[seat], (uint32_t)plays);
            for (int i = 0; i < legal->len; i++) {
                if (legal->item[i].kind != KIND_LAY && legal->item[i].kind != KIND_RUN) continue;
                if (pick-- == 0) return i;
            }
        }
    }
    return heuristic_turn(s, legal, h->war_nr);
}

/* Whether card's use costs less than other's: the lower (joker, production). */
static inline int cheaper_use(const Core *core, int card, int other) {
    return core->joker[card] < core->joker[other] ||
           (core->joker[card] == core->joker[other] && core->production[card] < core->production[other]);
}

/* The first (in the legal list's order: the hand's, then the card's uses) of the special
 * uses of `kind` with the lowest (joker, production): heuristic_cheapest over the hand. */
static int heuristic_cheapest_use(const Core *core, const cards *hand, int kind) {
    int best = -1;
    for (int i = 0; i < hand->len; i++) {
        int card = hand->card[i];
        for (int k = 0; k < core->special_len[card]; k++) {
            if (core->special_kinds[card][k] != kind) continue;
            if (best < 0 || cheaper_use(core, card, best)) best = card;
        }
    }
    return best;
}

static action an_action(int kind, int card, int len) {
    action a = {(int16_t)kind, (uint8_t)card, (uint8_t)len};
    return a;
}

/* choose for a heuristic seat on a regular turn, without listing the legal actions:
 * heuristic_act's choice (its draws the same) and the meter's count of distinct moves,
 * from the hand. The legal list would be the lays (turn_lays), then each card's special
 * uses, the runs, take and sjanse (turn_rest). Returns 0 where it cannot say without the
 * list (two jokers held: alike moves to count; a position heuristic_turn leaves to the
 * list's first action), having drawn nothing. */
static int heuristic_play(state *s, int seat, action *chosen) {
    const Core *core = s->core;
    const heuristic_settings *h = &core->heuristic[seat];
    const cards *hand = &s->hands[seat];
    const uint8_t *joker = core->joker;
    int len = hand->len;
    if (s->chance_card >= 0 || (s->measure && len >= 2 && joker[hand->card[1]])) return 0;
    const uint8_t *may;
    const uint8_t *beats = lay_rows(s, &may);
    int wary = s->top >= 0 && s->top_owner != seat && s->top_owner != -1;
    const uint8_t *starts = wary ? core->war_starts[s->top] : NULL;
    /* chain[i]: how many of the cards after hand[i] continue a run from it; good[i]: hand[i]
     * is a plant within war_nr in some category (HeuristicBot._good_for_war) */
    uint8_t chain[DECK + 1], good[DECK + 1];
    int lays = 0, runs = 0, specials = 0, goods = 0, following = -2; /* hand[i + 1] */
    int burn = -1; /* heuristic_cheapest_use(core, hand, KIND_BURN): from the end, <= */
    chain[len] = 0;
    for (int i = len - 1; i >= 0; i--) {
        int card = hand->card[i];
        lays += may[card];
        specials += core->special_len[card];
        chain[i] = following == core->run_next[card] ? chain[i + 1] + 1 : 0;
        following = card;
        if (chain[i] && beats[card]) runs += chain[i]; /* the runs from i: 2 .. chain + 1 cards */
        if (core->burns[card] && (burn < 0 || !cheaper_use(core, burn, card))) burn = card;
        if (starts == NULL) continue; /* only a lay that may start a war reads good */
        good[i] = core->war_good[seat][card];
        goods += good[i];
    }
    int takes = s->pile.len > 0 || s->beside.len > 0, chances = s->stock.len > 0;
    int moves = lays + specials + runs + takes + chances;
    if (s->measure) ks_meter_decision(&s->meter, moves, 0, seat, s->actions);
    if (moves == 0) {
        fail(s, "a seat had no legal action");
        *chosen = an_action(KIND_TAKE, 0, 0);
        return 1;
    }
    if (h->explore != 0.0 && ks_random_double(&s->bot_rng[seat]) < h->explore && lays + runs) {
        int pick = (int)ks_randbelow(&s->bot_rng[seat], (uint32_t)(lays + runs));
        for (int i = 0; i < len; i++) {
            if (may[hand->card[i]] && pick-- == 0) {
                *chosen = an_action(KIND_LAY, hand->card[i], 0);
                return 1;
            }
        }
        for (int i = 0; i < len; i++) {
            if (!chain[i] || !beats[hand->card[i]]) continue;
            if (pick < chain[i]) {
                *chosen = an_action(KIND_RUN, i, pick + 2);
                return 1;
            }
            pick -= chain[i];
        }
    }
    /* heuristic_turn: runs first, then plain cards, specials when stuck; no war it would
     * probably lose (a war card laid with no plant good for the war left in hand) */
    int pile_size = s->pile.len + s->beside.len;
    int run_at = -1, run_len = 0;
    for (int i = 0; runs && i < len; i++) {
        int card = hand->card[i];
        if (!chain[i] || !beats[card]) continue;
        int spent = starts != NULL ? good[i] : 0; /* the run's good cards */
        for (int n = 2; n <= chain[i] + 1; n++) {
            if (starts != NULL) spent += good[i + n - 1];
            if (starts != NULL && starts[card] && goods == spent) continue; /* none left */
            if (run_at < 0 || n > run_len ||
                (n == run_len && core->production[card] < core->production[hand->card[run_at]])) {
                run_at = i;
                run_len = n;
            }
        }
    }
    if (run_at >= 0) {
        *chosen = an_action(KIND_RUN, run_at, run_len);
        return 1;
    }
    int cheapest = -1, first_safe = -1, first_lay = -1;
    for (int i = 0; lays && i < len; i++) {
        int card = hand->card[i];
        if (!may[card]) continue;
        if (first_lay < 0) first_lay = card;
        if (starts != NULL && starts[card] && goods == good[i]) continue; /* none left */
        if (first_safe < 0) first_safe = card;
        if (!core->special[card]) {
            cheapest = card;
            break;
        }
    }
    if (cheapest < 0) cheapest = first_safe; /* no plain card: any safe lay */
    if (cheapest >= 0) {
        if (burn >= 0 && core->gwh_nr[cheapest] <= 8 && pile_size >= 5) {
            *chosen = an_action(KIND_BURN, burn, 0);
        } else {
            *chosen = an_action(KIND_LAY, cheapest, 0);
        }
        return 1;
    }
    int invisible = specials ? heuristic_cheapest_use(core, hand, KIND_INVISIBLE) : -1;
    int reset = specials && invisible < 0 ? heuristic_cheapest_use(core, hand, KIND_RESET) : -1;
    if (invisible >= 0) {
        *chosen = an_action(KIND_INVISIBLE, invisible, 0);
    } else if (reset >= 0) {
        *chosen = an_action(KIND_RESET, reset, 0);
    } else if (burn >= 0 && (pile_size >= 3 || !chances)) {
        *chosen = an_action(KIND_BURN, burn, 0);
    } else if (chances) {
        *chosen = an_action(KIND_CHANCE, 0, 0);
    } else if (burn >= 0) {
        *chosen = an_action(KIND_BURN, burn, 0);
    } else if (first_lay >= 0) {
        *chosen = an_action(KIND_LAY, first_lay, 0);
    } else if (takes) {
        *chosen = an_action(KIND_TAKE, 0, 0);
    } else { /* the list's first action: its first run (a lay would have come first) */
        int i = 0;
        while (i < len && !(chain[i] && beats[hand->card[i]])) i++;
        *chosen = an_action(KIND_RUN, i, 2);
    }
    return 1;
}

/* StromkrigState._distinct: the legal actions, a joker's counted once per kind (the
 * jokers are alike: burning, or laying in a war, one or another is one move). */
static int distinct_moves(const state *s, const legal_list *legal) {
    const uint8_t *joker = s->core->joker;
    /* Only a seat holding two jokers or more has alike moves (a sjanse card's uses are
     * one card's); a hand is sorted jokers first. */
    const cards *hand = &s->hands[s->current];
    if (s->phase == PHASE_CHOOSE || hand->len < 2 || !joker[hand->card[1]]) return legal->len;
    int kinds = 0, alike = 0;
    for (int i = 0; i < legal->len; i++) {
        const action *a = &legal->item[i];
        int kind = a->kind;
        if ((kind == KIND_LAY || kind == KIND_BURN || kind == KIND_RESET ||
             kind == KIND_INVISIBLE || kind == KIND_WAR_LAY) &&
            joker[a->card]) {
            int bit = 1 << (kind - KIND_LAY);
            if (kinds & bit) alike++;
            kinds |= bit;
        }
    }
    return legal->len - alike;
}

/* Meter.moved with StromkrigState.progress (minus the cards in hand) and seats_out. */
static void measure_position(state *s) {
    ks_meter *m = &s->meter;
    int changed = s->order_len != m->last_out;
    for (int seat = 0; seat < s->n; seat++)
        changed |= ks_meter_progress(m, seat, -(long)s->hands[seat].len);
    if (changed) ks_meter_moved(m, s->order_len, s->actions);
}

static action choose(state *s, legal_list *legal) {
    int seat = s->current;
    int greedy = s->core->bot[seat] == BOT_GREEDY;
    if (s->phase == PHASE_PLAY && greedy && s->measure) {
        /* a greedy seat lays its first card that may be laid, if any: where every move is
         * distinct (at most one joker held), the meter only needs how many there are */
        const cards *hand = &s->hands[seat];
        const Core *core = s->core;
        if (core->keep_bits && (hand->len < 2 || !core->joker[hand->card[1]])) {
            /* as below, from the hand's bits (in the hand's order: at most one joker) */
            uint64_t may_bits, held = s->hand_bits[seat];
            uint64_t beats_bits = lay_bits(s, &may_bits);
            uint64_t lays_bits = held & may_bits;
            if (lays_bits) {
                int rest = s->hand_specials[seat];
                /* the runs (count_rest): linked, a held card whose run goes on with the next
                   held one; from a card that beats the top, one run per link in a row */
                uint64_t linked = held & held >> 1 & core->links;
                for (uint64_t from = linked & beats_bits, d = 1; from; d++) {
                    rest += bit_count(from);
                    from &= linked >> d;
                }
                if (s->pile.len > 0 || s->beside.len > 0) rest++;
                if (s->stock.len > 0) rest++;
                ks_meter_decision(&s->meter, bit_count(lays_bits) + rest, 0, seat, s->actions);
                action lay = {KIND_LAY, core->at_place[__builtin_ctzll(lays_bits)], 0};
                return lay;
            }
        } else if (hand->len < 2 || !core->joker[hand->card[1]]) {
            const uint8_t *may;
            const uint8_t *beats = lay_rows(s, &may);
            /* the lays and count_rest's count in one pass over the hand, from its end */
            int lays = 0, first = -1, rest = 0, chain = 0, following = -2;
            for (int i = hand->len - 1; i >= 0; i--) {
                int card = hand->card[i];
                if (may[card]) {
                    lays++;
                    first = card;
                }
                rest += core->special_len[card];
                chain = following == core->run_next[card] ? chain + 1 : 0;
                if (chain && beats[card]) rest += chain;
                following = card;
            }
            if (lays) {
                if (s->pile.len > 0 || s->beside.len > 0) rest++;
                if (s->stock.len > 0) rest++;
                ks_meter_decision(&s->meter, lays + rest, 0, seat, s->actions);
                action lay = {KIND_LAY, (uint8_t)first, 0};
                return lay;
            }
        }
    }
    if (s->phase == PHASE_PLAY && s->core->bot[seat] == BOT_HEURISTIC) {
        action chosen;
        if (heuristic_play(s, seat, &chosen)) return chosen;
    }
    if (s->phase == PHASE_PLAY) {
        const uint8_t *beats = turn_lays(s, legal);
        int lays = legal->len;
        if (greedy && lays > 0) { /* it lays the first */
            if (!s->measure) return legal->item[0];
            const cards *hand = &s->hands[seat];
            if (hand->len < 2 || !s->core->joker[hand->card[1]]) { /* every move distinct */
                ks_meter_decision(&s->meter, lays + count_rest(s, beats), 0, seat, s->actions);
                return legal->item[0];
            }
        }
        turn_rest(s, legal, beats);
        if (s->measure) ks_meter_decision(&s->meter, distinct_moves(s, legal), 0, seat, s->actions);
        if (greedy && lays > 0) return legal->item[0];
    } else {
        other_legal(s, legal);
        if (s->measure)
            ks_meter_decision(&s->meter, distinct_moves(s, legal), s->phase == PHASE_ASK, seat,
                              s->actions);
    }
    if (legal->len == 0) {
        fail(s, "a seat had no legal action");
        action none = {KIND_TAKE, 0, 0};
        return none;
    }
    if (greedy) return greedy_act(s, legal, seat);
    if (s->core->bot[seat] == BOT_HEURISTIC) return legal->item[heuristic_act(s, legal, seat)];
    return legal->item[ks_randbelow(&s->bot_rng[seat], (uint32_t)legal->len)];
}

/* ------------------------------------------------------------------ apply */

/* SK-3 sjanse: turn the stock's top card. It keeps its special use; only a card with no
 * legal use at all goes home with the pile. */
static void chance(state *s, int seat, legal_list *scratch) {
    int card = pop(s, &s->stock);
    scratch->len = 0;
    uses(s, card, scratch, has_cards(s, seat));
    count(s, COUNTER_CHANCE_DRAWS); /* ChanceDrawn */
    if (scratch->len > 0) {
        count(s, COUNTER_CHANCE_DRAWS_PLAYED);
        s->chance_card = card;
        s->phase = PHASE_CHOOSE;
        return;
    }
    count(s, COUNTER_PILE_PICKUPS); /* PileTaken, with the sjanse card */
    push(s, &s->hands[seat], card);
    hand_gained(s, seat, card);
    pick_up(s, seat);
    end_turn(s, seat, 0);
}

static void apply(state *s, const action *a, const uint8_t *run_cards, legal_list *scratch) {
    int p = s->current;
    int kind = a->kind;
    s->actions++;
    switch (s->phase) {
    case PHASE_PLAY:
        s->turns++;
        if (kind == KIND_LAY) {
            lay_card(s, p, a->card);
        } else if (kind == KIND_TAKE) {
            take(s, p);
        } else if (kind == KIND_CHANCE) {
            chance(s, p, scratch);
        } else if (kind == KIND_RUN) {
            run(s, p, run_cards, a->len);
        } else {
            special_or_lay(s, p, kind, a->card, 1);
        }
        break;
    case PHASE_CHOOSE:
        s->chance_card = -1;
        special_or_lay(s, p, kind, a->card, 0);
        break;
    case PHASE_ASK:
        s->ask_head++;
        if (kind == KIND_JOIN) {
            if (s->war_players_len >= MAX_SEATS) {
                fail(s, "more war players than seats");
                break;
            }
            s->war_players[s->war_players_len++] = p;
        }
        next_asked(s);
        break;
    case PHASE_NAMING: {
        s->war_category = a->card;
        /* _seating_from: the players in seating order from the challenger */
        int players[MAX_SEATS];
        int len = 0;
        for (int k = 0; k < s->n; k++) {
            int seat = (s->challenger + k) % s->n;
            for (int i = 0; i < s->war_players_len; i++) {
                if (s->war_players[i] == seat) {
                    players[len++] = seat;
                    break;
                }
            }
        }
        count(s, COUNTER_WAR_ROUNDS); /* WarNamed */
        sample(s, WAR_SIZES, len);
        start_round(s, players, len);
        break;
    }
    default: /* PHASE_WAR */
        war_lay(s, p, a->card);
        break;
    }
}

/* ------------------------------------------------------------------ the game loop */

/* The log: one entry (kind - KIND_LAY) << 8 | argument per action, a run's cards after it. */
static int play_out(Core *core, state *s) {
    legal_list legal;
    core->log.len = 0;
    /* The samples' order goes with them: a playout after apply_first starts both anew
     * (else sample() writes past sample_order's end). */
    for (int k = 0; k < SAMPLE_COUNT; k++) core->samples[k].len = 0;
    s->samples_seen = 0;
    while (s->phase != PHASE_OVER && s->actions < core->action_cap) {
        /* A game with a very high cap may run for minutes: let Ctrl-C through. */
        if ((s->actions & 0xFFFF) == 0xFFFF && PyErr_CheckSignals() < 0) return 0;
        if (core->log.len + 1 + DECK > core->log.cap ||
            core->samples[WAR_SIZES].len >= core->samples[WAR_SIZES].cap ||
            core->samples[RUN_LENGTHS].len >= core->samples[RUN_LENGTHS].cap) {
            if (!buffer_reserve(&core->log, 1 + DECK)) return 0;
            for (int k = 0; k < SAMPLE_COUNT; k++) {
                if (!buffer_reserve(&core->samples[k], 1)) return 0;
            }
        }
        action chosen = choose(s, &legal);
        if (s->error) break;
        uint8_t run_cards[DECK];
        uint16_t *log = core->log.data + core->log.len;
        if (chosen.kind == KIND_RUN) {
            const cards *hand = &s->hands[s->current];
            if (chosen.card + chosen.len > hand->len) {
                fail(s, "a run past the end of the hand");
                break;
            }
            *log++ = (uint16_t)((KIND_RUN - KIND_BASE) << 8 | chosen.len);
            for (int i = 0; i < chosen.len; i++) {
                run_cards[i] = hand->card[chosen.card + i];
                *log++ = run_cards[i];
            }
        } else {
            *log++ = (uint16_t)((chosen.kind - KIND_BASE) << 8 | chosen.card);
        }
        core->log.len = (size_t)(log - core->log.data);
        apply(s, &chosen, run_cards, &legal);
        if (s->error) break;
        /* Answering the call to a war and naming its category move no card. */
        if (s->measure && chosen.kind != KIND_JOIN && chosen.kind != KIND_STAY_OUT &&
            chosen.kind != KIND_NAME)
            measure_position(s);
    }
    if (s->error) {
        PyErr_Format(PyExc_RuntimeError, "stromkrig native core: %s (action %lld)", s->error,
                     s->actions);
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ Python results */

static PyObject *cards_to_list(const cards *list) {
    PyObject *result = PyList_New(list->len);
    if (result == NULL) return NULL;
    for (int i = 0; i < list->len; i++) {
        PyObject *card = PyLong_FromLong(list->card[i]);
        if (card == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, i, card);
    }
    return result;
}

static PyObject *ints_to_list(const int *values, int len) {
    PyObject *result = PyList_New(len);
    if (result == NULL) return NULL;
    for (int i = 0; i < len; i++) {
        PyObject *value = PyLong_FromLong(values[i]);
        if (value == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, i, value);
    }
    return result;
}

static PyObject *actions_to_list(const Core *core) {
    const uint16_t *log = core->log.data;
    size_t len = core->log.len;
    Py_ssize_t total = 0;
    for (size_t i = 0; i < len; i++, total++) {
        if (log[i] >> 8 == KIND_RUN - KIND_BASE) i += log[i] & 0xFF;
    }
    PyObject *result = PyList_New(total);
    if (result == NULL) return NULL;
    Py_ssize_t index = 0;
    for (size_t i = 0; i < len; i++) {
        int kind = log[i] >> 8;
        int argument = log[i] & 0xFF;
        PyObject *item;
        if (kind == KIND_RUN - KIND_BASE) {
            item = PyTuple_New(argument + 1);
            if (item == NULL) goto error;
            PyTuple_SET_ITEM(item, 0, PyLong_FromLong(KIND_RUN));
            for (int k = 0; k < argument; k++) PyTuple_SET_ITEM(item, k + 1, PyLong_FromLong(log[i + 1 + k]));
            for (int k = 0; k <= argument; k++) {
                if (PyTuple_GET_ITEM(item, k) == NULL) {
                    Py_DECREF(item);
                    goto error;
                }
            }
            i += (size_t)argument;
        } else {
            if (kind >= KIND_COUNT || argument >= DECK || core->action[kind][argument] == NULL) {
                PyErr_SetString(PyExc_RuntimeError, "stromkrig native core: a broken action log");
                goto error;
            }
            item = core->action[kind][argument];
            Py_INCREF(item);
        }
        PyList_SET_ITEM(result, index++, item);
    }
    return result;
error:
    Py_DECREF(result);
    return NULL;
}

static PyObject *counters_to_dict(const Core *core, const state *s) {
    PyObject *result = PyDict_New();
    if (result == NULL) return NULL;
    for (int i = 0; i < s->counters_seen; i++) {
        int counter = s->counter_order[i];
        PyObject *value = PyLong_FromLongLong(s->counters[counter]);
        if (value == NULL || PyDict_SetItem(result, core->counter_names[counter], value) < 0) {
            Py_XDECREF(value);
            Py_DECREF(result);
            return NULL;
        }
        Py_DECREF(value);
    }
    return result;
}

static PyObject *samples_to_dict(const Core *core, const state *s) {
    PyObject *result = PyDict_New();
    if (result == NULL) return NULL;
    for (int i = 0; i < s->samples_seen; i++) {
        int which = s->sample_order[i];
        const buffer *b = &core->samples[which];
        PyObject *values = PyList_New((Py_ssize_t)b->len);
        if (values == NULL) goto error;
        for (size_t k = 0; k < b->len; k++) {
            PyObject *value = PyLong_FromLong(b->data[k]);
            if (value == NULL) {
                Py_DECREF(values);
                goto error;
            }
            PyList_SET_ITEM(values, (Py_ssize_t)k, value);
        }
        int failed = PyDict_SetItem(result, core->sample_names[which], values) < 0;
        Py_DECREF(values);
        if (failed) goto error;
    }
    return result;
error:
    Py_DECREF(result);
    return NULL;
}

static PyObject *cards_played_to_list(const state *s) {
    PyObject *result = PyList_New(DECK);
    if (result == NULL) return NULL;
    for (int c = 0; c < DECK; c++) {
        PyObject *value = PyLong_FromLongLong(s->cards_played[c]);
        if (value == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, c, value);
    }
    return result;
}

/* StromkrigState.result's loser: -1 unless the game finished. */
static int loser_of(const state *s) {
    int loser = -1;
    if (s->phase == PHASE_OVER) {
        for (int seat = 0; seat < s->n && loser < 0; seat++) {
            if (!s->out[seat]) loser = seat;
        }
        if (loser < 0 && s->order_len > 0) loser = s->order[s->order_len - 1];
    }
    return loser;
}

/* StromkrigState.result and remaining_cards, with the counters, as a NativeRun tuple. */
static PyObject *native_run(const Core *core, const state *s) {
    int finished = s->phase == PHASE_OVER;
    int loser = loser_of(s);
    long long rounds = (s->turns + s->n - 1) / s->n;
    PyObject *actions = actions_to_list(core);
    PyObject *order = ints_to_list(s->order, s->order_len);
    PyObject *loser_obj = loser >= 0 ? PyLong_FromLong(loser) : Py_NewRef(Py_None);
    PyObject *rounds_obj = PyLong_FromLongLong(rounds);
    PyObject *counters = counters_to_dict(core, s);
    PyObject *samples = samples_to_dict(core, s);
    PyObject *played_list = cards_played_to_list(s);
    cards no_cards = {{0}, 0};
    PyObject *loser_cards = cards_to_list(loser >= 0 ? &s->hands[loser] : &no_cards);
    long long cards_laid = 0;
    for (int c = 0; c < DECK; c++) cards_laid += s->cards_played[c];
    PyObject *figures = ks_meter_figures(&s->meter, finished, s->order_len ? s->order[0] : -1,
                                         loser, s->actions, cards_laid);
    PyObject *branching = ks_meter_branching(&s->meter);
    PyObject *result = NULL;
    if (actions && order && loser_obj && rounds_obj && counters && samples && played_list &&
        loser_cards && figures && branching) {
        result = PyTuple_Pack(11, actions, finished ? Py_True : Py_False, order, loser_obj,
                              rounds_obj, counters, samples, played_list, loser_cards, figures,
                              branching);
    }
    Py_XDECREF(figures);
    Py_XDECREF(branching);
    Py_XDECREF(actions);
    Py_XDECREF(order);
    Py_XDECREF(loser_obj);
    Py_XDECREF(rounds_obj);
    Py_XDECREF(counters);
    Py_XDECREF(samples);
    Py_XDECREF(played_list);
    Py_XDECREF(loser_cards);
    return result;
}

/* ------------------------------------------------------------------ the Core type */

static int parse_seed(PyObject *arg, uint64_t *seed) {
    if (!PyLong_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "seed must be an int");
        return 0;
    }
    unsigned long long value = PyLong_AsUnsignedLongLong(arg);
    if (value == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "the native core takes seeds 0 <= seed < 2**64");
        return 0;
    }
    *seed = value;
    return 1;
}

static state *new_state(void) {
    state *s = PyMem_Malloc(sizeof(state));
    if (s == NULL) PyErr_NoMemory();
    return s;
}

/* play_game's game, played into `s` (`dealt`: its generator seeded, or NULL): 1, or 0
 * with an exception set. */
static int play_game(Core *core, state *s, uint64_t seed, const ks_chunk_seeds *seeded,
                     int game) {
    new_initial_state(s, core, seed, seeded, game);
    s->measure = 1;
    ks_meter_start(&s->meter, s->n);
    measure_position(s);
    if (s->error) {
        PyErr_Format(PyExc_RuntimeError, "stromkrig native core: %s (deal)", s->error);
        return 0;
    }
    return play_out(core, s);
}

static PyObject *Core_play(PyObject *self, PyObject *arg) {
    Core *core = (Core *)self;
    uint64_t seed;
    if (!parse_seed(arg, &seed)) return NULL;
    state *s = new_state();
    if (s == NULL) return NULL;
    PyObject *result = play_game(core, s, seed, NULL, 0) ? native_run(core, s) : NULL;
    PyMem_Free(s);
    return result;
}

/* The game just played into the chunk's row and totals (native_run's figures). */
static int chunk_game(ks_chunk *c, const Core *core, const state *s) {
    int finished = s->phase == PHASE_OVER;
    int loser = loser_of(s);
    long long cards_laid = 0;
    for (int card = 0; card < DECK; card++) {
        cards_laid += s->cards_played[card];
        ks_chunk_played(c, card, s->cards_played[card]);
    }
    int64_t *row = ks_chunk_game(c, &s->meter, finished, s->actions, (s->turns + s->n - 1) / s->n,
                                 s->order_len ? s->order[0] : -1, loser, cards_laid);
    for (int i = 0; i < s->counters_seen; i++) {
        int counter = s->counter_order[i];
        ks_chunk_counter(c, row, counter, s->counters[counter]);
    }
    for (int i = 0; i < s->samples_seen; i++) {
        int which = s->sample_order[i];
        const buffer *b = &core->samples[which];
        if (ks_chunk_sample(c, row, which, b->data, b->len) < 0) return 0;
    }
    if (loser >= 0)
        for (int k = 0; k < s->hands[loser].len; k++) ks_chunk_left(c, s->hands[loser].card[k]);
    return 1;
}

/* The seats whose bots may draw: the random ones, the heuristic ones that explore, and the
 * greedy ones (to name a war's category, in many games): a chunk seeds them ahead. */
static unsigned drawing_seats(const Core *core) {
    unsigned seats = 0;
    for (int seat = 0; seat < core->n; seat++)
        if (core->bot[seat] != BOT_HEURISTIC || core->heuristic[seat].explore != 0.0)
            seats |= 1U << seat;
    return seats;
}

/* play_chunk(series, start, stop): games start .. stop - 1 of the series, game i played
 * as play(derive_seed(series, i)) plays it, as a NativeChunk (ks_chunk.h). */
static PyObject *Core_play_chunk(PyObject *self, PyObject *args) {
    Core *core = (Core *)self;
    uint64_t series;
    long long start, stop;
    if (ks_chunk_args(args, &series, &start, &stop) < 0) return NULL;
    ks_chunk *chunk = ks_chunk_open((Py_ssize_t)(stop - start), DECK);
    if (chunk == NULL) return NULL;
    state *s = new_state();
    PyObject *result = NULL;
    ks_chunk_seeds seeds = {0};
    if (s == NULL || ks_chunk_seeds_open(&seeds, drawing_seats(core)) < 0) goto done;
    for (long long index = start; index < stop; index += seeds.games) {
        int ahead = ks_chunk_seed_next(&seeds, series, index, stop);
        for (int k = 0; k < ahead; k++) {
            if (!play_game(core, s, ks_chunk_seeded(&seeds, k, -1)->seed, &seeds, k)) goto done;
            if (!chunk_game(chunk, core, s)) goto done;
            for (int seat = 0; seat < s->n; seat++) ks_chunk_drawn(&seeds, seat, &s->bot_rng[seat]);
        }
    }
    result = ks_chunk_result(chunk, core->counter_names, core->sample_names);
done:
    ks_chunk_seeds_close(&seeds);
    PyMem_Free(s);
    ks_chunk_close(chunk);
    return result;
}

static int set_cards(PyObject *places, const char *name, const cards *list) {
    PyObject *value = cards_to_list(list);
    if (value == NULL) return 0;
    int failed = PyDict_SetItemString(places, name, value) < 0;
    Py_DECREF(value);
    return !failed;
}

/* StromkrigState.card_locations of the dealt state. */
static PyObject *Core_deal(PyObject *self, PyObject *arg) {
    Core *core = (Core *)self;
    uint64_t seed;
    if (!parse_seed(arg, &seed)) return NULL;
    state *s = new_state();
    if (s == NULL) return NULL;
    new_initial_state(s, core, seed, NULL, 0);
    PyObject *places = s->error ? NULL : PyDict_New();
    if (s->error) PyErr_Format(PyExc_RuntimeError, "stromkrig native core: %s (deal)", s->error);
    int ok = places != NULL;
    char name[16];
    for (int seat = 0; ok && seat < s->n; seat++) {
        PyOS_snprintf(name, sizeof name, "hand:%d", seat);
        ok = set_cards(places, name, &s->hands[seat]);
    }
    cards chance = {{0}, 0};
    ok = ok && set_cards(places, "stock", &s->stock) && set_cards(places, "pile", &s->pile) &&
         set_cards(places, "beside", &s->beside) && set_cards(places, "war", &s->war_cards) &&
         set_cards(places, "burned", &s->burned) && set_cards(places, "chance", &chance);
    PyMem_Free(s);
    if (!ok) {
        Py_XDECREF(places);
        return NULL;
    }
    return places;
}

/* Table readers: each checks the shape and the range of every entry. */

static PyObject *sequence_of(PyObject *obj, Py_ssize_t len, const char *what) {
    PyObject *seq = PySequence_Fast(obj, what);
    if (seq == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != len) {
        PyErr_Format(PyExc_ValueError, "%s: %zd entries, not %zd", what, PySequence_Fast_GET_SIZE(seq), len);
        Py_DECREF(seq);
        return NULL;
    }
    return seq;
}

static int read_ints(PyObject *obj, int *out, Py_ssize_t len, long low, long high, const char *what) {
    PyObject *seq = sequence_of(obj, len, what);
    if (seq == NULL) return 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (value == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return 0;
        }
        if (value < low || value > high) {
            PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", what, value);
            Py_DECREF(seq);
            return 0;
        }
        out[i] = (int)value;
    }
    Py_DECREF(seq);
    return 1;
}

static int read_flags(PyObject *obj, uint8_t *out, Py_ssize_t len, const char *what) {
    int values[DECK];
    if (len > DECK || !read_ints(obj, values, len, 0, 1, what)) return 0;
    for (Py_ssize_t i = 0; i < len; i++) out[i] = (uint8_t)values[i];
    return 1;
}

static int read_flag_table(PyObject *obj, uint8_t table[DECK][DECK], const char *what) {
    PyObject *seq = sequence_of(obj, DECK, what);
    if (seq == NULL) return 0;
    for (Py_ssize_t i = 0; i < DECK; i++) {
        if (!read_flags(PySequence_Fast_GET_ITEM(seq, i), table[i], DECK, what)) {
            Py_DECREF(seq);
            return 0;
        }
    }
    Py_DECREF(seq);
    return 1;
}

static int read_doubles(PyObject *obj, double *out, Py_ssize_t len, const char *what) {
    PyObject *seq = sequence_of(obj, len, what);
    if (seq == NULL) return 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        double value = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (value == -1.0 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return 0;
        }
        if (isnan(value)) {
            PyErr_Format(PyExc_ValueError, "%s: NaN", what);
            Py_DECREF(seq);
            return 0;
        }
        out[i] = value;
    }
    Py_DECREF(seq);
    return 1;
}

/* uses[card]: the actions (kind, card) of each card's uses, each kind one of `allowed`. */
static int read_uses(PyObject *obj, int16_t kinds[DECK][4], uint8_t *lens, const int *allowed,
                     int allowed_len, const char *what) {
    PyObject *seq = sequence_of(obj, DECK, what);
    if (seq == NULL) return 0;
    for (Py_ssize_t c = 0; c < DECK; c++) {
        PyObject *card_uses = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, c), what);
        if (card_uses == NULL) goto error;
        Py_ssize_t len = PySequence_Fast_GET_SIZE(card_uses);
        if (len > allowed_len) {
            PyErr_Format(PyExc_ValueError, "%s: too many uses of card %zd", what, c);
            Py_DECREF(card_uses);
            goto error;
        }
        for (Py_ssize_t k = 0; k < len; k++) {
            int pair[2];
            if (!read_ints(PySequence_Fast_GET_ITEM(card_uses, k), pair, 2, 0, 1000, what)) {
                Py_DECREF(card_uses);
                goto error;
            }
            int known = 0;
            for (int i = 0; i < allowed_len; i++) known |= pair[0] == allowed[i];
            if (!known || pair[1] != c) {
                PyErr_Format(PyExc_ValueError, "%s: an unexpected use of card %zd", what, c);
                Py_DECREF(card_uses);
                goto error;
            }
            kinds[c][k] = (int16_t)pair[0];
        }
        lens[c] = (uint8_t)len;
        Py_DECREF(card_uses);
    }
    Py_DECREF(seq);
    return 1;
error:
    Py_DECREF(seq);
    return 0;
}

static void Core_dealloc(PyObject *self) {
    Core *core = (Core *)self;
    for (int k = 0; k < KIND_COUNT; k++) {
        for (int c = 0; c < DECK; c++) Py_CLEAR(core->action[k][c]);
    }
    for (int i = 0; i < COUNTER_COUNT; i++) Py_CLEAR(core->counter_names[i]);
    for (int i = 0; i < SAMPLE_COUNT; i++) Py_CLEAR(core->sample_names[i]);
    free(core->log.data);
    for (int i = 0; i < SAMPLE_COUNT; i++) free(core->samples[i].data);
    Py_TYPE(self)->tp_free(self);
}

/* Core.place and the rows as bits; in_bits where a hand's order and its runs can be read
 * from its bits (see Core). */
static void card_places(Core *core) {
    int order[DECK];
    for (int card = 0; card < DECK; card++) { /* by hand_order, then by card: stable */
        int at = card;
        while (at > 0 && core->hand_order[order[at - 1]] > core->hand_order[card]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = card;
    }
    core->in_bits = 1;
    for (int at = 0; at < DECK; at++) {
        core->place[order[at]] = (uint8_t)at;
        core->at_place[at] = (uint8_t)order[at];
        if (at > 0 && core->hand_order[order[at]] == core->hand_order[order[at - 1]] &&
            !(core->joker[order[at]] && core->joker[order[at - 1]]))
            core->in_bits = 0; /* two plants of one key: their order is the order they came */
    }
    core->beats_nothing_bits = core->links = 0;
    for (int card = 0; card < DECK; card++) {
        int next = core->run_next[card];
        if (next >= 0 && core->place[next] != core->place[card] + 1)
            core->in_bits = 0; /* a run would go on past cards between */
        if (next >= 0) core->links |= (uint64_t)1 << core->place[card];
        uint64_t bit = (uint64_t)1 << core->place[card];
        if (core->beats_nothing[card]) core->beats_nothing_bits |= bit;
        for (int under = 0; under < DECK; under++) {
            if (card == 0) core->beats_bits[under] = core->may_lay_bits[under] = 0;
            if (core->beats[under][card]) core->beats_bits[under] |= bit;
            if (core->may_lay[under][card]) core->may_lay_bits[under] |= bit;
        }
    }
}

static int make_action(Core *core, int kind, int argument, int with_argument) {
    PyObject *item = with_argument ? Py_BuildValue("(ii)", kind, argument) : Py_BuildValue("(i)", kind);
    if (item == NULL) return 0;
    core->action[kind - KIND_BASE][argument] = item;
    return 1;
}

static int make_actions(Core *core) {
    static const int per_card[] = {KIND_LAY, KIND_BURN, KIND_RESET, KIND_INVISIBLE, KIND_WAR_LAY};
    for (size_t k = 0; k < sizeof per_card / sizeof per_card[0]; k++) {
        for (int c = 0; c < DECK; c++) {
            if (!make_action(core, per_card[k], c, 1)) return 0;
        }
    }
    static const int bare[] = {KIND_TAKE, KIND_CHANCE, KIND_JOIN, KIND_STAY_OUT};
    for (size_t k = 0; k < sizeof bare / sizeof bare[0]; k++) {
        if (!make_action(core, bare[k], 0, 0)) return 0;
    }
    for (int category = 0; category < CATEGORY_COUNT; category++) {
        if (!make_action(core, KIND_NAME, category, 1)) return 0;
    }
    static const char *const counter_names[COUNTER_COUNT] = COUNTER_NAMES;
    for (int i = 0; i < COUNTER_COUNT; i++) {
        core->counter_names[i] = PyUnicode_InternFromString(counter_names[i]);
        if (core->counter_names[i] == NULL) return 0;
    }
    for (int i = 0; i < SAMPLE_COUNT; i++) {
        core->sample_names[i] = PyUnicode_InternFromString(SAMPLE_NAMES[i]);
        if (core->sample_names[i] == NULL) return 0;
    }
    return 1;
}

static PyObject *Core_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"num_players", "dealer", "action_cap", "parameters", "bots",
                               "hand_order", "run_next", "beats", "may_lay", "war_starts",
                               "beats_nothing", "special_uses", "open_uses", "war_figure",
                               "costs", "heuristics", "production", "gwh_nr", "nr", "joker",
                               "special", NULL};
    int n, dealer;
    long long action_cap;
    PyObject *parameters, *bots, *hand_order, *run_next, *beats, *may_lay, *war_starts;
    PyObject *beats_nothing, *special_uses, *open_uses, *war_figure, *costs;
    PyObject *heuristics, *production, *gwh_nr, *nr, *joker, *special;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iiLOOOOOOOOOOOOOOOOOO", keywords, &n,
                                     &dealer, &action_cap, &parameters, &bots, &hand_order,
                                     &run_next, &beats, &may_lay, &war_starts, &beats_nothing,
                                     &special_uses, &open_uses, &war_figure, &costs, &heuristics,
                                     &production, &gwh_nr, &nr, &joker, &special)) {
        return NULL;
    }
    if (n < MIN_SEATS || n > MAX_SEATS || dealer < 0 || dealer >= n || action_cap < 1) {
        PyErr_Format(PyExc_ValueError,
                     "stromkrig native core: %d-%d seats, a dealer among them, a cap >= 1",
                     MIN_SEATS, MAX_SEATS);
        return NULL;
    }
    Rules rules;
    if (ks_read_rules(parameters, &rules) < 0) return NULL;
    if (rules.hand_size < 1 || rules.hand_size * n > DECK) {
        PyErr_SetString(PyExc_ValueError, "stromkrig native core: hand_size does not fit the deck");
        return NULL;
    }
    Core *core = (Core *)type->tp_alloc(type, 0);
    if (core == NULL) return NULL;
    core->rules = rules;
    core->n = n;
    core->dealer = dealer;
    core->action_cap = action_cap;
    int bot_kinds[MAX_SEATS];
    static const int special_allowed[] = {KIND_BURN, KIND_RESET, KIND_INVISIBLE};
    static const int open_allowed[] = {KIND_LAY, KIND_BURN, KIND_RESET, KIND_INVISIBLE};
    PyObject *figures = NULL;
    if (!read_ints(bots, bot_kinds, n, BOT_RANDOM, BOT_HEURISTIC, "bots")) goto error;
    for (int seat = 0; seat < n; seat++) core->bot[seat] = (uint8_t)bot_kinds[seat];
    if (!read_ints(hand_order, core->hand_order, DECK, -1000, 1000, "hand_order")) goto error;
    if (!read_ints(run_next, core->run_next, DECK, -1, DECK - 1, "run_next")) goto error;
    if (!read_flag_table(beats, core->beats, "beats")) goto error;
    if (!read_flag_table(may_lay, core->may_lay, "may_lay")) goto error;
    if (!read_flag_table(war_starts, core->war_starts, "war_starts")) goto error;
    if (!read_flags(beats_nothing, core->beats_nothing, DECK, "beats_nothing")) goto error;
    if (!read_uses(special_uses, core->special_kinds, core->special_len, special_allowed, 3, "special_uses"))
        goto error;
    if (!read_uses(open_uses, core->open_kinds, core->open_len, open_allowed, 4, "open_uses")) goto error;
    figures = sequence_of(war_figure, CATEGORY_COUNT, "war_figure");
    if (figures == NULL) goto error;
    for (int category = 0; category < CATEGORY_COUNT; category++) {
        if (!read_doubles(PySequence_Fast_GET_ITEM(figures, category), core->war_figure[category], DECK,
                          "war_figure"))
            goto error;
    }
    Py_CLEAR(figures);
    if (!read_doubles(costs, core->cost, DECK, "costs")) goto error;
    if (!read_doubles(production, core->production, DECK, "production") ||
        !read_ints(gwh_nr, core->gwh_nr, DECK, -1000000, 1000000, "gwh_nr") ||
        !read_flags(joker, core->joker, DECK, "joker") ||
        !read_flags(special, core->special, DECK, "special"))
        goto error;
    figures = sequence_of(nr, CATEGORY_COUNT, "nr");
    if (figures == NULL) goto error;
    for (int category = 0; category < CATEGORY_COUNT; category++) {
        if (!read_ints(PySequence_Fast_GET_ITEM(figures, category), core->nr[category], DECK,
                       -1000000, 1000000, "nr"))
            goto error;
    }
    Py_CLEAR(figures);
    /* per seat None, or a heuristic seat's (join_nr, war_nr, explore) */
    figures = sequence_of(heuristics, n, "heuristics");
    if (figures == NULL) goto error;
    for (int seat = 0; seat < n; seat++) {
        PyObject *item = PySequence_Fast_GET_ITEM(figures, seat);
        if ((item == Py_None) != (core->bot[seat] != BOT_HEURISTIC)) {
            PyErr_SetString(PyExc_ValueError, "heuristics: settings for the heuristic seats only");
            goto error;
        }
        if (item == Py_None) continue;
        heuristic_settings *h = &core->heuristic[seat];
        if (!PyArg_ParseTuple(item, "lld:heuristics", &h->join_nr, &h->war_nr, &h->explore))
            goto error;
        if (!(h->explore >= 0.0 && h->explore <= 1.0)) {
            PyErr_SetString(PyExc_ValueError, "heuristics: explore from 0 to 1");
            goto error;
        }
        for (int card = 0; card < DECK; card++) {
            for (int k = 0; !core->joker[card] && k < CATEGORY_COUNT; k++)
                if (core->nr[k][card] <= h->war_nr) core->war_good[seat][card] = 1;
        }
    }
    Py_CLEAR(figures);
    card_places(core);
    for (int card = 0; card < DECK; card++)
        for (int k = 0; k < core->special_len[card]; k++)
            if (core->special_kinds[card][k] == KIND_BURN) core->burns[card] = 1;
    for (int seat = 0; seat < n; seat++)
        if (core->in_bits && core->bot[seat] == BOT_GREEDY) core->keep_bits = 1;
    if (!make_actions(core)) goto error;
    return (PyObject *)core;
error:
    Py_XDECREF(figures);
    Py_DECREF(core);
    return NULL;
}

/* ------------------------------------------------------------------ positions */

/* Reads the list state.<name> (at most max ints from low to high) into out. */
static int field_ints(PyObject *state, const char *name, int *out, int max, long low, long high,
                      int *len) {
    PyObject *value = PyObject_GetAttrString(state, name);
    if (value == NULL) return 0;
    PyObject *seq = PySequence_Fast(value, name);
    Py_DECREF(value);
    if (seq == NULL) return 0;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(seq);
    int ok = size <= max;
    if (!ok) PyErr_Format(PyExc_ValueError, "%s: more than %d entries", name, max);
    ok = ok && read_ints(seq, out, size, low, high, name);
    Py_DECREF(seq);
    *len = (int)size;
    return ok;
}

/* Reads the int (or bool) state.<name> from low to high into *out. */
static int field_long(PyObject *state, const char *name, long low, long high, long long *out) {
    PyObject *value = PyObject_GetAttrString(state, name);
    if (value == NULL) return 0;
    int overflow = 0;
    long long v = PyLong_Check(value) ? PyLong_AsLongLongAndOverflow(value, &overflow) : 0;
    int is_int = PyLong_Check(value);
    Py_DECREF(value);
    if (v == -1 && PyErr_Occurred()) return 0;
    if (!is_int || overflow || v < low || v > high) {
        PyErr_Format(PyExc_ValueError, "%s: not an int from %ld to %ld", name, low, high);
        return 0;
    }
    *out = v;
    return 1;
}

/* Cards read into a list, each in one place only (seen counts the places). */
static int take_cards(cards *into, const int *values, int len, uint8_t *seen, const char *what) {
    for (int i = 0; i < len; i++) {
        if (seen[values[i]]++) {
            PyErr_Format(PyExc_ValueError, "%s: card %d is in two places", what, values[i]);
            return 0;
        }
        into->card[i] = (uint8_t)values[i];
    }
    into->len = len;
    return 1;
}

static int field_cards(PyObject *state, const char *name, cards *into, uint8_t *seen) {
    int values[DECK], len;
    return field_ints(state, name, values, DECK, 0, DECK - 1, &len) &&
           take_cards(into, values, len, seen, name);
}

/* The position of a StromkrigState (its fields by name: the hands, stock, pile, cards
 * beside, burned and war cards in their order, the top card and its owner, the phase,
 * who is to act and who is out, the war under way, the actions and turns so far) into s,
 * with the counters at zero. */
static int load_position(state *s, Core *core, PyObject *py) {
    memset(s, 0, offsetof(state, meter));
    s->core = core;
    s->n = core->n;
    int n = s->n;
    uint8_t seen[DECK] = {0};
    PyObject *hands = PyObject_GetAttrString(py, "hands");
    if (hands == NULL) return 0;
    PyObject *rows = sequence_of(hands, n, "hands");
    Py_DECREF(hands);
    if (rows == NULL) return 0;
    for (int seat = 0; seat < n; seat++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(rows, seat), "hands");
        int values[DECK];
        Py_ssize_t len = row ? PySequence_Fast_GET_SIZE(row) : 0;
        int ok = row != NULL && len <= DECK;
        if (row != NULL && !ok) PyErr_SetString(PyExc_ValueError, "hands: too many cards");
        ok = ok && read_ints(row, values, len, 0, DECK - 1, "hands") &&
             take_cards(&s->hands[seat], values, (int)len, seen, "hands");
        Py_XDECREF(row);
        if (!ok) {
            Py_DECREF(rows);
            return 0;
        }
    }
    Py_DECREF(rows);
    if (!field_cards(py, "stock", &s->stock, seen) || !field_cards(py, "pile", &s->pile, seen) ||
        !field_cards(py, "beside", &s->beside, seen) ||
        !field_cards(py, "burned", &s->burned, seen) ||
        !field_cards(py, "war_cards", &s->war_cards, seen))
        return 0;
    long long top, owner, chance_card, current, phase, actions, turns, challenger, category;
    if (!field_long(py, "top", -1, DECK - 1, &top) ||
        !field_long(py, "top_owner", -1, n - 1, &owner) ||
        !field_long(py, "chance_card", -1, DECK - 1, &chance_card) ||
        !field_long(py, "current", 0, n - 1, &current) ||
        !field_long(py, "phase", PHASE_PLAY, PHASE_OVER, &phase) ||
        !field_long(py, "actions", 0, LLONG_MAX, &actions) ||
        !field_long(py, "turns", 0, LLONG_MAX, &turns) ||
        !field_long(py, "challenger", -1, n - 1, &challenger) ||
        !field_long(py, "war_category", -1, CATEGORY_COUNT - 1, &category))
        return 0;
    if (chance_card >= 0 && seen[chance_card]++) {
        PyErr_SetString(PyExc_ValueError, "chance_card: the card is in two places");
        return 0;
    }
    int flags[MAX_SEATS], len;
    if (!field_ints(py, "out", flags, n, 0, 1, &len)) return 0;
    if (len != n) {
        PyErr_SetString(PyExc_ValueError, "out: one flag per seat");
        return 0;
    }
    for (int seat = 0; seat < n; seat++) s->out[seat] = (uint8_t)flags[seat];
    if (!field_ints(py, "order", s->order, n, 0, n - 1, &s->order_len) ||
        !field_ints(py, "war_players", s->war_players, n, 0, n - 1, &s->war_players_len) ||
        !field_ints(py, "ask_queue", s->ask_queue, n, 0, n - 1, &s->ask_len) ||
        !field_ints(py, "round_players", s->round_players, n, 0, n - 1, &s->round_len))
        return 0;
    PyObject *laid = PyObject_GetAttrString(py, "round_laid");
    if (laid == NULL) return 0;
    PyObject *pairs = PySequence_Fast(laid, "round_laid");
    Py_DECREF(laid);
    if (pairs == NULL) return 0;
    Py_ssize_t laid_len = PySequence_Fast_GET_SIZE(pairs);
    int ok = laid_len <= n;
    if (!ok) PyErr_SetString(PyExc_ValueError, "round_laid: more war cards than seats");
    for (Py_ssize_t i = 0; ok && i < laid_len; i++) {
        int pair[2];
        ok = read_ints(PySequence_Fast_GET_ITEM(pairs, i), pair, 2, 0, DECK - 1, "round_laid");
        if (ok && pair[0] >= n) {
            PyErr_SetString(PyExc_ValueError, "round_laid: not a seat");
            ok = 0;
        }
        if (ok) {
            s->round_seat[i] = pair[0];
            s->round_card[i] = pair[1];
        }
    }
    Py_DECREF(pairs);
    if (!ok) return 0;
    s->laid_len = (int)laid_len;
    s->top = (int)top;
    s->top_owner = (int)owner;
    s->chance_card = (int)chance_card;
    s->current = (int)current;
    s->phase = (int)phase;
    s->actions = actions;
    s->turns = turns;
    s->challenger = (int)challenger;
    s->war_category = (int)category;
    hands_indexed(s);
    int left = 0;
    for (int seat = 0; seat < n; seat++) left += !s->out[seat];
    int playing = s->phase != PHASE_OVER && s->actions < core->action_cap;
    if (playing && (left < 2 || s->out[s->current] ||
                    (s->phase == PHASE_CHOOSE && s->chance_card < 0) ||
                    (s->phase != PHASE_PLAY && s->phase != PHASE_CHOOSE && s->challenger < 0))) {
        PyErr_SetString(PyExc_ValueError, "not a position of a game in play");
        return 0;
    }
    return 1;
}

/* The Python action of a legal action at the position (a new reference): the shared
 * tuple of its kind and card, or a run's (RUN, card, ...) with its cards in run_cards. */
static PyObject *legal_object(const Core *core, const state *s, const action *a,
                              uint8_t *run_cards) {
    if (a->kind != KIND_RUN) {
        PyObject *shared = core->action[a->kind - KIND_BASE][a->card];
        if (shared == NULL) {
            PyErr_SetString(PyExc_RuntimeError, "stromkrig native core: an unknown action");
            return NULL;
        }
        return Py_NewRef(shared);
    }
    const cards *hand = &s->hands[s->current];
    if (a->card + a->len > hand->len) {
        PyErr_SetString(PyExc_RuntimeError, "stromkrig native core: a run past the hand");
        return NULL;
    }
    PyObject *tuple = PyTuple_New(a->len + 1);
    if (tuple == NULL) return NULL;
    for (int k = 0; k <= a->len; k++) {
        if (k > 0) run_cards[k - 1] = hand->card[a->card + k - 1];
        PyObject *item = PyLong_FromLong(k == 0 ? KIND_RUN : run_cards[k - 1]);
        if (item == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, k, item);
    }
    return tuple;
}

/* Applies first, one of the position's legal actions (a Python action), as
 * StromkrigState.apply does (it draws nothing from the state's generator); not logged.
 * Returns 0 with a Python exception set when it is not legal here. */
static int apply_first(Core *core, state *s, PyObject *first) {
    legal_list legal, scratch;
    legal.len = 0;
    if (s->phase != PHASE_OVER && s->actions < core->action_cap) {
        for (int k = 0; k < SAMPLE_COUNT; k++) {
            if (!buffer_reserve(&core->samples[k], 1)) return 0;
        }
        if (s->phase == PHASE_PLAY) {
            turn_rest(s, &legal, turn_lays(s, &legal));
        } else {
            other_legal(s, &legal);
        }
    }
    for (int i = 0; i < legal.len && !s->error; i++) {
        uint8_t run_cards[DECK];
        action chosen = legal.item[i];
        PyObject *tuple = legal_object(core, s, &chosen, run_cards);
        if (tuple == NULL) return 0;
        int same = PyObject_RichCompareBool(tuple, first, Py_EQ);
        Py_DECREF(tuple);
        if (same < 0) return 0;
        if (same) {
            apply(s, &chosen, run_cards, &scratch);
            break;
        }
        if (i + 1 == legal.len) legal.len = 0; /* none matched */
    }
    if (s->error) {
        PyErr_Format(PyExc_RuntimeError, "stromkrig native core: %s (action %lld)", s->error,
                     s->actions);
        return 0;
    }
    if (legal.len == 0) {
        PyErr_SetString(PyExc_ValueError, "first: not a legal action of the position");
        return 0;
    }
    return 1;
}

/* playouts.python_playout: the position played on; seat s's bot draws from
 * LazyRandom(derive_seed(seed, s + 1)). (finished, order, loser, actions, rounds, the
 * actions played or None, each seat's count of cards held) */
static PyObject *Core_playout(PyObject *self, PyObject *args) {
    Core *core = (Core *)self;
    PyObject *position, *seed_arg, *first = Py_None;
    int record;
    uint64_t seed;
    if (!PyArg_ParseTuple(args, "OOp|O:playout", &position, &seed_arg, &record, &first) ||
        !parse_seed(seed_arg, &seed))
        return NULL;
    state *s = new_state();
    if (s == NULL) return NULL;
    PyObject *result = NULL;
    if (load_position(s, core, position)) {
        /* StromkrigState draws from its own generator only to deal. */
        ks_random_lazy(&s->rng, seed);
        for (int seat = 0; seat < s->n; seat++)
            ks_random_lazy(&s->bot_rng[seat], ks_derive_seed(seed, (uint64_t)seat + 1));
        /* With first, that action is applied before the bots play on (not logged). */
        if ((first == Py_None || apply_first(core, s, first)) && play_out(core, s)) {
            /* StromkrigState.result */
            int finished = s->phase == PHASE_OVER, loser = -1;
            for (int seat = 0; finished && seat < s->n && loser < 0; seat++)
                if (!s->out[seat]) loser = seat;
            if (finished && loser < 0 && s->order_len > 0) loser = s->order[s->order_len - 1];
            /* each seat's len(remaining_cards(seat)): the cards in its hand */
            int counts[MAX_SEATS];
            for (int seat = 0; seat < s->n; seat++) counts[seat] = s->hands[seat].len;
            PyObject *order = ints_to_list(s->order, s->order_len);
            PyObject *played = record ? actions_to_list(core) : Py_NewRef(Py_None);
            PyObject *loser_obj = loser >= 0 ? PyLong_FromLong(loser) : Py_NewRef(Py_None);
            PyObject *held = ints_to_list(counts, s->n);
            if (order && played && loser_obj && held)
                result = Py_BuildValue("(OOOLLOO)", finished ? Py_True : Py_False, order,
                                       loser_obj, s->actions, (s->turns + s->n - 1) / s->n,
                                       played, held);
            Py_XDECREF(order);
            Py_XDECREF(played);
            Py_XDECREF(loser_obj);
            Py_XDECREF(held);
        }
    }
    PyMem_Free(s);
    return result;
}

static PyMethodDef Core_methods[] = {
    {"play", Core_play, METH_O,
     "play(seed) -> (actions, finished, order, loser, rounds, counters, samples, cards_played, "
     "loser_cards, playability, branching): one whole game, as play_game plays it."},
    {"deal", Core_deal, METH_O, "deal(seed) -> card_locations() of the dealt state."},
    {"play_chunk", Core_play_chunk, METH_VARARGS,
     "play_chunk(series, start, stop) -> NativeChunk: games start .. stop - 1 of the series, "
     "game i the one play(derive_seed(series, i)) plays, as the chunk's rows and sums."},
    {"playout", Core_playout, METH_VARARGS,
     "playout(state, seed, record, first=None) -> (finished, order, loser, actions, rounds, "
     "played, held): the state played on as playouts.python_playout plays it."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kraftstokk.games.stromkrig._fastcore.Core",
    .tp_doc = PyDoc_STR("One Strømkrig game's rules and seats, played natively."),
    .tp_basicsize = sizeof(Core),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Core_new,
    .tp_dealloc = Core_dealloc,
    .tp_methods = Core_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "kraftstokk.games.stromkrig._fastcore",
    .m_doc = "Strømkrig's native core (see fast.py).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__fastcore(void) {
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    int ok = PyModule_AddObjectRef(m, "Core", (PyObject *)&CoreType) == 0 &&
             PyModule_AddIntConstant(m, "BOT_RANDOM", BOT_RANDOM) == 0 &&
             PyModule_AddIntConstant(m, "BOT_GREEDY", BOT_GREEDY) == 0 &&
             PyModule_AddIntConstant(m, "BOT_HEURISTIC", BOT_HEURISTIC) == 0 &&
             PyModule_AddIntConstant(m, "MAX_SEATS", MAX_SEATS) == 0;
    if (!ok) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
