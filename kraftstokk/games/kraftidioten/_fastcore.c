/* Kraftidioten's native core: whole games for seats played by the greedy, heuristic or
 * random bot, and playouts from a position of the Python engine.
 *
 * The pure-Python engine (state.py, bots.py) is the reference and the readable source of
 * the rules; this file plays exactly the same games, action for action, random draw for
 * random draw, so a simulation of these bots runs without the interpreter. Each function
 * below mirrors the method of KraftidiotenState, GreedyBot or HeuristicBot of the same
 * name, with the rule ids of RULES.md. The tables (figures as printed, ranks, top-3
 * flags, the lists of false claims, the action tuples) are the Python game's and bot's
 * own, and so are the rule parameters (game.parameters: hand size, joker penalty and
 * limit, read by the names of RULE_PARAMETERS), handed over by fast.py once per game: no
 * rule data is recomputed here. The seats, action kinds, phases and counters come from
 * ks_game.h, which the build writes from spec.py and actions.py (games/cheader.py). A
 * rule no table carries is one function here, marked with the rules.py function it
 * mirrors ("rules.joker_costs"); games/README.md has the recipe for changing one.
 *
 * A game is played into fixed arrays (at most KI_MAX_CARDS cards, MAX_SEATS seats);
 * the Python objects of the result are made only at the end.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>

#include "ks_game.h"
#include "ks_playability.h"
#include "ks_chunk.h"
#include "ks_random.h"
#include "ks_rules.h"

#define KI_MAX_CARDS 64
#define KI_CATEGORIES 3
#define KI_NO_CATEGORY (-1)
/* A turn lists at most six actions per card in hand, plus take and draw. */
#define KI_MAX_LEGAL (6 * KI_MAX_CARDS + 2)
_Static_assert(KI_MAX_LEGAL + KI_MAX_CARDS < KS_MAX_BRANCHING, "the meter counts every move");
/* Random.sample keeps a pool up to this population (for samples of at most five). */
#define KI_MAX_SAMPLE 5
#define KI_SAMPLE_SETSIZE 21

enum { KI_GREEDY = 0, KI_RANDOM = 1, KI_HEURISTIC = 2 };

/* A heuristic seat's settings (bots.HeuristicBot). */
typedef struct {
    double knowledge;
    double top3_challenge;
    double bluff;
} ki_heuristic;
/* The core's action kinds: one per shape of action (kind_value maps them to KIND_...). */
enum {
    KI_LAY,        /* (LAY, card, category, plant) */
    KI_LAY_FIGURE, /* (LAY, card, category, plant, figure): a lie by figure, KI-4c */
    KI_LIE,
    KI_JOKER,
    KI_TAKE,
    KI_DRAW,
    KI_CHALLENGE,
    KI_PASS,
};

typedef struct {
    PyObject *tuple; /* the Python action (a reference owned by the rules); NULL: made later */
    int kind;
    int card;
    int category;
    int plant;
    long long figure; /* KI_LAY_FIGURE only */
} ki_action;

/* ------------------------------------------------------------------ the rules of a game */

typedef struct {
    PyObject_HEAD
    int num_players;
    int num_cards;
    int num_plants;
    int num_jokers;
    Rules parameters; /* the game's rule parameters (rules.KraftidiotenRules) */
    long long action_cap;
    long long max_claim_figure;
    long kind_value[KI_PASS + 1]; /* the Python kinds (LAY = 200, ...) by internal kind */
    unsigned char joker[KI_MAX_CARDS];
    unsigned char plants[KI_MAX_CARDS];
    unsigned char jokers[KI_MAX_CARDS];
    double claim_figures[KI_CATEGORIES][KI_MAX_CARDS];
    unsigned char top3[KI_CATEGORIES][KI_MAX_CARDS];
    /* KI-4c: per category and card, the plants it can be claimed as with their figures,
       rising (game.false_claims and game.false_figures). */
    int false_count[KI_CATEGORIES][KI_MAX_CARDS];
    unsigned char false_plant[KI_CATEGORIES][KI_MAX_CARDS][KI_MAX_CARDS];
    double false_figure[KI_CATEGORIES][KI_MAX_CARDS][KI_MAX_CARDS];
    PyObject *false_action[KI_CATEGORIES][KI_MAX_CARDS][KI_MAX_CARDS];
    PyObject *truth_action[KI_CATEGORIES][KI_MAX_CARDS];
    PyObject *lie_action[KI_CATEGORIES][KI_MAX_CARDS];
    PyObject *joker_action[KI_MAX_CARDS];
    PyObject *take_action;
    PyObject *draw_action;
    PyObject *challenge_action;
    PyObject *pass_action;
    PyObject *game_error;
    /* The greedy bot's own tables (GreedyBot._nr, ._plant_figures, ._truthful). */
    int greedy_nr[KI_CATEGORIES][KI_MAX_CARDS];
    double greedy_figures[KI_CATEGORIES][KI_MAX_CARDS];
    PyObject *greedy_truthful[KI_CATEGORIES][KI_MAX_CARDS];
    /* What the heuristic bot reads besides: the plants by printed figure, rising, with
       their figures (game.by_figure, game.sorted_figures), and where a shown card went
       (rules.BURNED, rules.NOT_SHOWN for one never shown). */
    unsigned char by_figure[KI_CATEGORIES][KI_MAX_CARDS];
    double sorted_figures[KI_CATEGORIES][KI_MAX_CARDS];
    int burned_mark;
    int not_shown;
    uint64_t plant_bits; /* the plants and the jokers as bits (ki_card_bits) */
    uint64_t joker_bits;
} KiRules;

/* ------------------------------------------------------------------ one game's state */

typedef struct {
    const KiRules *rules;
    ks_random *rng;
    int n;
    unsigned char hands[MAX_SEATS][KI_MAX_CARDS];
    int hand_len[MAX_SEATS];
    /* Kept as the cards come and go (ki_hand_add, ki_hand_remove; ki_index makes them from
       the lists): each hand as bits, and the sum of its plants' greedy_nr per category. */
    uint64_t hand_bits[MAX_SEATS];
    long nr_sum[MAX_SEATS][KI_CATEGORIES];
    /* nr_sum and the pile's bits below are kept only for a heuristic seat, which reads
       them (else they are made at the deal and left) */
    int keep_reads;
    unsigned char stock[KI_MAX_CARDS]; /* the top is the end */
    int stock_len;
    unsigned char pile[KI_MAX_CARDS];
    int pile_len;
    unsigned char burned[KI_MAX_CARDS];
    int burned_len;
    int claim_plant; /* the last claim on the pile */
    double claim_figure;
    /* every claim on the pile, aligned with it (state.claims: seat, plant, from_stock,
       figure) */
    unsigned char claim_seat[KI_MAX_CARDS];
    unsigned char claim_plant_at[KI_MAX_CARDS];
    unsigned char claim_from_stock[KI_MAX_CARDS];
    double claim_figure_at[KI_MAX_CARDS];
    /* the claims on the pile as bits of plants: all, all but the last, those drawn from the
       stock; and per seat the pile's cards it laid (kept by ki_lay, emptied with the pile) */
    uint64_t claimed, claimed_before_last, claimed_from_stock;
    uint64_t laid_by[MAX_SEATS];
    int last_shown[KI_MAX_CARDS]; /* state.last_shown: a seat, burned_mark or not_shown */
    uint64_t shown;               /* bit c: card c was shown (last_shown is not not_shown) */
    int category;
    double floor;
    unsigned char active[MAX_SEATS];
    int num_active;
    signed char next_active[MAX_SEATS]; /* the next active seat after each (-1: none) */
    int out_order[MAX_SEATS];
    int out_len;
    int phase;
    int player;
    int layer;
    int layer_emptied;
    int top3_claim;
    int lie_card;
    int lie_category;
    int finished;
    long long actions;
    long long turns;
    long counters[COUNTER_COUNT];
    int counter_order[COUNTER_COUNT]; /* counters in the order first counted, as a dict fills */
    int counted;
    long cards_played[KI_MAX_CARDS];
    const char *broken; /* set when the state is inconsistent: the game is abandoned */
} ki_game;

static void ki_count(ki_game *g, int counter) {
    if (g->counters[counter]++ == 0) g->counter_order[g->counted++] = counter;
}

static void ki_push(ki_game *g, unsigned char *cards, int *len, int card) {
    if (*len >= KI_MAX_CARDS) {
        g->broken = "a card list overflowed";
        return;
    }
    cards[(*len)++] = (unsigned char)card;
}

static void ki_extend(ki_game *g, unsigned char *cards, int *len, const unsigned char *more,
                      int count) {
    for (int i = 0; i < count; i++) ki_push(g, cards, len, more[i]);
}

/* ordering.remove_card: the first occurrence, the rest keeping their order. */
static void ki_remove_card(ki_game *g, unsigned char *cards, int *len, int card) {
    for (int i = 0; i < *len; i++) {
        if (cards[i] == card) { /* a few cards: no memmove call */
            for (int j = i + 1; j < *len; j++) cards[j - 1] = cards[j];
            (*len)--;
            return;
        }
    }
    g->broken = "a card to remove is not in its list";
}

/* The hand of `seat` gains `card` at its end. */
static inline __attribute__((always_inline)) void ki_hand_add(ki_game *g, int seat, int card) {
    ki_push(g, g->hands[seat], &g->hand_len[seat], card);
    g->hand_bits[seat] |= (uint64_t)1 << card;
    if (!g->keep_reads || g->rules->joker[card]) return;
    for (int c = 0; c < KI_CATEGORIES; c++) g->nr_sum[seat][c] += g->rules->greedy_nr[c][card];
}

static void ki_hand_extend(ki_game *g, int seat, const unsigned char *more, int count) {
    for (int i = 0; i < count; i++) ki_hand_add(g, seat, more[i]);
}

static inline __attribute__((always_inline)) void ki_hand_remove(ki_game *g, int seat, int card) {
    ki_remove_card(g, g->hands[seat], &g->hand_len[seat], card);
    g->hand_bits[seat] &= ~((uint64_t)1 << card);
    if (!g->keep_reads || g->rules->joker[card]) return;
    for (int c = 0; c < KI_CATEGORIES; c++) g->nr_sum[seat][c] -= g->rules->greedy_nr[c][card];
}

/* The pile is taken or burned: no card and no claim on it. */
static inline __attribute__((always_inline)) void ki_pile_clear(ki_game *g) {
    g->pile_len = 0;
    g->claim_plant = -1;
    if (!g->keep_reads) return;
    g->claimed = g->claimed_before_last = g->claimed_from_stock = 0;
    for (int seat = 0; seat < g->n; seat++) g->laid_by[seat] = 0;
}

/* next_active from active, after a seat went out (or a position was loaded). */
static void ki_seats_changed(ki_game *g) {
    for (int seat = 0; seat < g->n; seat++) {
        int next = -1;
        for (int step = 1; step <= g->n && next < 0; step++) {
            int other = (seat + step) % g->n;
            if (g->active[other]) next = other;
        }
        g->next_active[seat] = (signed char)next;
    }
}

/* What the game keeps besides its lists, made from them (a game dealt, a position loaded):
   the hands' bits and sums, the pile's claims as bits, the next active seats. */
static void ki_index(ki_game *g) {
    const KiRules *rules = g->rules;
    for (int seat = 0; seat < g->n; seat++) {
        const unsigned char *hand = g->hands[seat];
        g->hand_bits[seat] = 0;
        for (int c = 0; c < KI_CATEGORIES; c++) g->nr_sum[seat][c] = 0;
        for (int i = 0; i < g->hand_len[seat]; i++) {
            g->hand_bits[seat] |= (uint64_t)1 << hand[i];
            if (rules->joker[hand[i]]) continue;
            for (int c = 0; c < KI_CATEGORIES; c++) g->nr_sum[seat][c] += rules->greedy_nr[c][hand[i]];
        }
        g->laid_by[seat] = 0;
    }
    g->claimed = g->claimed_before_last = g->claimed_from_stock = 0;
    for (int i = 0; i < g->pile_len; i++) {
        uint64_t plant = (uint64_t)1 << g->claim_plant_at[i];
        g->claimed_before_last = g->claimed;
        g->claimed |= plant;
        if (g->claim_from_stock[i]) g->claimed_from_stock |= plant;
        g->laid_by[g->claim_seat[i]] |= (uint64_t)1 << g->pile[i];
    }
    ki_seats_changed(g);
}

static inline __attribute__((always_inline)) int ki_next_active(ki_game *g, int seat) {
    int next = g->next_active[seat];
    if (next >= 0) return next;
    g->broken = "no active seat";
    return 0;
}

/* KI-1: three plant cards each; the jokers are shuffled into the rest. */
static void ki_deal(ki_game *g) {
    const KiRules *rules = g->rules;
    double keys[KI_MAX_CARDS];
    unsigned char plants[KI_MAX_CARDS];
    for (int card = 0; card < rules->num_cards; card++) keys[card] = ks_random_double(g->rng);
    ks_sort_by_random_keys(keys, rules->plants, rules->num_plants, plants);
    int dealt = rules->parameters.hand_size * g->n;
    for (int round = 0; round < rules->parameters.hand_size; round++) {
        for (int seat = 0; seat < g->n; seat++) {
            ki_hand_add(g, seat, plants[round * g->n + seat]);
        }
    }
    for (int i = dealt; i < rules->num_plants; i++) ki_push(g, g->stock, &g->stock_len, plants[i]);
    for (int j = 0; j < rules->num_jokers; j++) {
        if (g->stock_len >= KI_MAX_CARDS) {
            g->broken = "the stock overflowed";
            return;
        }
        int at = (int)ks_randbelow(g->rng, (uint32_t)g->stock_len + 1);
        memmove(g->stock + at + 1, g->stock + at, (size_t)(g->stock_len - at));
        g->stock[at] = rules->jokers[j];
        g->stock_len++;
    }
}

static void ki_start(ki_game *g, const KiRules *rules, ks_random *rng, int keep_reads) {
    memset(g, 0, sizeof(*g));
    g->rules = rules;
    g->keep_reads = keep_reads;
    g->rng = rng;
    g->n = rules->num_players;
    g->claim_plant = -1;
    g->category = KI_NO_CATEGORY;
    g->floor = -1.0;
    for (int seat = 0; seat < g->n; seat++) g->active[seat] = 1;
    g->num_active = g->n;
    g->phase = PHASE_TURN;
    g->layer = -1;
    g->lie_card = -1;
    g->lie_category = KI_NO_CATEGORY;
    for (int card = 0; card < rules->num_cards; card++) g->last_shown[card] = rules->not_shown;
    ki_deal(g);
    ki_index(g);
}

static void ki_next_turn(ki_game *g, int seat) {
    g->phase = PHASE_TURN;
    g->lie_card = -1;
    g->lie_category = KI_NO_CATEGORY;
    g->player = seat;
    g->layer = -1;
    g->layer_emptied = 0;
    g->top3_claim = 0;
}

/* KI-5: seat starts a new pile (the pile is already taken or burned). */
static void ki_new_pile(ki_game *g, int seat) {
    ki_pile_clear(g);
    g->category = KI_NO_CATEGORY;
    g->floor = -1.0;
    ki_next_turn(g, seat);
}

static void ki_take_pile(ki_game *g, int seat) {
    ki_count(g, COUNTER_PILE_PICKUPS);
    ki_hand_extend(g, seat, g->pile, g->pile_len);
    ki_pile_clear(g);
}

/* KI-9: an empty hand with an empty stock, once the last claim stands. */
static void ki_go_out(ki_game *g, int seat) {
    g->active[seat] = 0;
    g->num_active--;
    if (g->out_len >= MAX_SEATS) {
        g->broken = "too many seats out";
        return;
    }
    g->out_order[g->out_len++] = seat;
    ki_seats_changed(g);
    if (g->num_active <= 1) {
        g->finished = 1;
        g->phase = PHASE_TURN;
        for (int s = 0; s < g->n; s++) {
            if (g->active[s]) {
                g->player = s;
                break;
            }
        }
    }
}

static void ki_draw_up(ki_game *g, int seat) {
    while (g->hand_len[seat] < g->rules->parameters.hand_size && g->stock_len > 0) {
        ki_hand_add(g, seat, g->stock[--g->stock_len]);
    }
}

/* KI-2, KI-3, KI-4b/c: a card goes face down under a claim; the window opens. */
static void ki_lay(ki_game *g, int seat, int card, int category, int plant, int from_stock,
                   int stated, long long figure) {
    const KiRules *rules = g->rules;
    if (!from_stock) ki_hand_remove(g, seat, card);
    ki_push(g, g->pile, &g->pile_len, card);
    if (g->keep_reads) {
        g->claimed_before_last = g->claimed;
        g->claimed |= (uint64_t)1 << plant;
        if (from_stock) g->claimed_from_stock |= (uint64_t)1 << plant;
        g->laid_by[seat] |= (uint64_t)1 << card;
    }
    int lie = stated ? 1 : card != plant;
    g->claim_plant = plant;
    g->claim_figure = stated ? (double)figure : rules->claim_figures[category][plant];
    g->category = category;
    g->floor = g->claim_figure;
    int at = g->pile_len - 1;
    if (at >= 0) {
        g->claim_seat[at] = (unsigned char)seat;
        g->claim_plant_at[at] = (unsigned char)plant;
        g->claim_from_stock[at] = (unsigned char)from_stock;
        g->claim_figure_at[at] = g->claim_figure;
    }
    int top3 = rules->top3[category][plant];
    ki_count(g, COUNTER_CLAIMS);
    g->cards_played[card]++;
    if (lie) {
        ki_count(g, COUNTER_LIES);
        if (stated) ki_count(g, COUNTER_FIGURE_LIES);
    }
    if (top3) ki_count(g, COUNTER_TOP3_CLAIMS);
    ki_draw_up(g, seat);
    g->layer = seat;
    g->layer_emptied = g->hand_len[seat] == 0;
    g->top3_claim = top3;
    g->phase = PHASE_CHALLENGE;
    g->player = ki_next_active(g, seat);
}

/* KI-7: the penalty, rng.sample(burned, k) as CPython 3.11's Random.sample draws it for
   k <= KI_MAX_SAMPLE (a larger k would grow its set-size threshold). */
static void ki_sample_burned(ki_game *g, int k, unsigned char *drawn) {
    int n = g->burned_len;
    if (n <= KI_SAMPLE_SETSIZE) {
        unsigned char pool[KI_MAX_CARDS];
        memcpy(pool, g->burned, (size_t)n);
        for (int i = 0; i < k; i++) {
            int j = (int)ks_randbelow(g->rng, (uint32_t)(n - i));
            drawn[i] = pool[j];
            pool[j] = pool[n - i - 1];
        }
        return;
    }
    unsigned char selected[KI_MAX_CARDS] = {0};
    for (int i = 0; i < k; i++) {
        int j = (int)ks_randbelow(g->rng, (uint32_t)n);
        while (selected[j]) j = (int)ks_randbelow(g->rng, (uint32_t)n);
        selected[j] = 1;
        drawn[i] = g->burned[j];
    }
}

/* rules.joker_costs (KI-7): laying a joker while holding joker_limit cards or fewer (the
   joker counted) costs the penalty. */
static int ki_joker_costs(const KiRules *rules, int held) {
    return held <= rules->parameters.joker_limit;
}

/* rules.penalty_size (KI-7): joker_penalty random burned cards, or as many as there are. */
static int ki_penalty_size(const KiRules *rules, int burned) {
    return burned < rules->parameters.joker_penalty ? burned : rules->parameters.joker_penalty;
}

/* rules.reaches (KI-3): a claim must be at least the previous claim's figure. */
static inline int ki_reaches(double figure, double floor) { return figure >= floor; }

/* rules.is_lie (KI-6): the card is not the plant named, or the figure not its printed one. */
static int ki_is_lie(const ki_game *g, int card) {
    return card != g->claim_plant ||
           g->claim_figure != g->rules->claim_figures[g->category][g->claim_plant];
}

/* KraftidiotenState._show: the card is shown, going to `destination` (a seat or burned). */
static inline void ki_show(ki_game *g, int card, int destination) {
    g->last_shown[card] = destination;
    if (destination != g->rules->not_shown) g->shown |= (uint64_t)1 << card;
    else g->shown &= ~((uint64_t)1 << card);
}

/* KI-7: shown, the pile burns, the same player lays again (penalty if <= 2 held). */
static void ki_joker(ki_game *g, int seat, int card, int penalty) {
    ki_show(g, card, g->rules->burned_mark);
    ki_extend(g, g->burned, &g->burned_len, g->pile, g->pile_len);
    ki_push(g, g->burned, &g->burned_len, card);
    ki_count(g, COUNTER_BURNS);
    ki_count(g, COUNTER_JOKER_BURNS);
    g->cards_played[card]++;
    ki_pile_clear(g);
    if (penalty) {
        /* Three random cards from all the burned cards, jokers included (this one too),
           or as many as there are. */
        unsigned char drawn[KI_MAX_CARDS];
        int k = ki_penalty_size(g->rules, g->burned_len);
        if (k == g->burned_len) {
            memcpy(drawn, g->burned, (size_t)k);
        } else {
            ki_sample_burned(g, k, drawn);
        }
        for (int i = 0; i < k; i++) ki_remove_card(g, g->burned, &g->burned_len, drawn[i]);
        ki_hand_extend(g, seat, drawn, k);
        ki_count(g, COUNTER_JOKER_PENALTIES);
    }
    ki_new_pile(g, seat);
}

/* KI-7 cannot go on: only jokers in hand and no plant among the burned cards. */
static int ki_jokers_only(const ki_game *g, int seat) {
    const unsigned char *joker = g->rules->joker;
    for (int i = 0; i < g->hand_len[seat]; i++) {
        if (!joker[g->hands[seat][i]]) return 0;
    }
    for (int i = 0; i < g->burned_len; i++) {
        if (!joker[g->burned[i]]) return 0;
    }
    return 1;
}

/* KI-4b: the top stock card is claimed truthfully, or it goes home with the pile. */
static void ki_draw_chance(ki_game *g, int seat) {
    if (g->stock_len == 0 || g->category == KI_NO_CATEGORY) {
        g->broken = "a stock draw without a stock or a claim to beat";
        return;
    }
    int card = g->stock[--g->stock_len];
    ki_count(g, COUNTER_STOCK_DRAWS);
    if (g->rules->joker[card]) {
        ki_joker(g, seat, card, 0);
        return;
    }
    if (ki_reaches(g->rules->claim_figures[g->category][card], g->floor)) {
        ki_lay(g, seat, card, g->category, card, 1, 0, 0);
        return;
    }
    ki_show(g, card, seat);
    ki_hand_add(g, seat, card);
    ki_take_pile(g, seat);
    ki_new_pile(g, ki_next_active(g, seat));
}

/* KI-6, KI-8: the card is shown; a lie goes home to the layer, else to the challenger. */
static void ki_challenge(ki_game *g) {
    int challenger = g->player;
    int layer = g->layer;
    if (g->pile_len == 0 || g->claim_plant < 0) {
        g->broken = "a challenge without a claim";
        return;
    }
    int card = g->pile[g->pile_len - 1];
    ki_count(g, COUNTER_CHALLENGES);
    if (ki_is_lie(g, card)) {
        ki_count(g, COUNTER_CHALLENGES_UPHELD);
        ki_show(g, card, layer);
        ki_take_pile(g, layer);
        ki_new_pile(g, challenger);
        return;
    }
    ki_count(g, COUNTER_CHALLENGES_GROUNDLESS);
    ki_show(g, card, challenger);
    ki_take_pile(g, challenger);
    if (g->layer_emptied) {
        ki_go_out(g, layer);
        if (g->finished) return;
        ki_new_pile(g, ki_next_active(g, layer));
    } else if (g->top3_claim) {
        ki_new_pile(g, layer);
    } else {
        ki_new_pile(g, ki_next_active(g, layer));
    }
}

static void ki_claim_stands(ki_game *g) {
    int layer = g->layer;
    int top3 = g->top3_claim;
    if (top3) {
        ki_count(g, COUNTER_BURNS);
        ki_count(g, COUNTER_TOP3_BURNS);
        ki_extend(g, g->burned, &g->burned_len, g->pile, g->pile_len);
        ki_pile_clear(g);
    }
    if (g->layer_emptied) {
        ki_go_out(g, layer);
        if (g->finished) return;
        if (top3) {
            ki_new_pile(g, ki_next_active(g, layer));
        } else {
            ki_next_turn(g, ki_next_active(g, layer));
        }
    } else if (top3) {
        ki_new_pile(g, layer);
    } else {
        ki_next_turn(g, ki_next_active(g, layer));
    }
}

/* A pass: the next seat is asked, or the claim stands once every other seat passed. */
static inline void ki_pass(ki_game *g) {
    int asker = ki_next_active(g, g->player);
    if (asker == g->layer) {
        ki_claim_stands(g);
    } else {
        g->player = asker;
    }
}

/* KraftidiotenState.apply for an action a bot chose from the legal ones. */
static int ki_apply(ki_game *g, const ki_action *action) {
    int seat = g->player;
    g->actions++;
    switch (action->kind) {
    case KI_PASS:
        ki_pass(g);
        break;
    case KI_CHALLENGE:
        ki_challenge(g);
        break;
    case KI_LAY:
        if (g->phase == PHASE_TURN) g->turns++;
        ki_lay(g, seat, action->card, action->category, action->plant, 0, 0, 0);
        break;
    case KI_LAY_FIGURE:
        if (action->figure < 0 || action->figure > g->rules->max_claim_figure) {
            PyErr_Format(g->rules->game_error,
                         "claim [%ld, %d, %d, %d, %lld]: a stated figure is a whole number "
                         "from 0 to %lld",
                         g->rules->kind_value[KI_LAY], action->card, action->category,
                         action->plant, action->figure, g->rules->max_claim_figure);
            return -1;
        }
        ki_lay(g, seat, action->card, action->category, action->plant, 0, 1, action->figure);
        break;
    case KI_LIE:
        g->turns++;
        g->phase = PHASE_CLAIM;
        g->lie_card = action->card;
        g->lie_category = action->category;
        break;
    case KI_JOKER: {
        g->turns++;
        int penalty = ki_joker_costs(g->rules, g->hand_len[seat]);
        ki_hand_remove(g, seat, action->card);
        ki_joker(g, seat, action->card, penalty);
        ki_draw_up(g, seat);
        if (penalty && ki_jokers_only(g, seat)) {
            /* The same jokers would come back for ever: the next player starts. */
            ki_new_pile(g, ki_next_active(g, seat));
        }
        break;
    }
    case KI_TAKE:
        g->turns++;
        ki_take_pile(g, seat);
        ki_new_pile(g, ki_next_active(g, seat));
        break;
    case KI_DRAW:
        g->turns++;
        ki_draw_chance(g, seat);
        break;
    default:
        g->broken = "an unknown action";
    }
    return 0;
}

/* ------------------------------------------------------------------ the bots */

static ki_action ki_listed(PyObject *tuple, int kind, int card, int category, int plant) {
    ki_action action = {tuple, kind, card, category, plant, 0};
    return action;
}

/* KraftidiotenState.legal_actions on a turn, in its order (the random bot picks by index). */
static int ki_turn_actions(const ki_game *g, ki_action *legal) {
    const KiRules *rules = g->rules;
    const unsigned char *hand = g->hands[g->player];
    int count = 0;
    int category = g->category;
    if (category == KI_NO_CATEGORY) {
        for (int i = 0; i < g->hand_len[g->player]; i++) {
            int card = hand[i];
            if (rules->joker[card]) continue;
            for (int c = 0; c < KI_CATEGORIES; c++) {
                legal[count++] = ki_listed(rules->truth_action[c][card], KI_LAY, card, c, card);
                legal[count++] = ki_listed(rules->lie_action[c][card], KI_LIE, card, c, -1);
            }
        }
    } else {
        const double *figures = rules->claim_figures[category];
        for (int i = 0; i < g->hand_len[g->player]; i++) {
            int card = hand[i];
            if (rules->joker[card]) continue;
            if (ki_reaches(figures[card], g->floor)) {
                legal[count++] =
                    ki_listed(rules->truth_action[category][card], KI_LAY, card, category, card);
            }
            /* a lie by figure beats any claim (KI-4c) */
            legal[count++] = ki_listed(rules->lie_action[category][card], KI_LIE, card, category, -1);
        }
        legal[count++] = ki_listed(rules->take_action, KI_TAKE, -1, -1, -1);
        if (g->stock_len > 0) legal[count++] = ki_listed(rules->draw_action, KI_DRAW, -1, -1, -1);
    }
    for (int i = 0; i < g->hand_len[g->player]; i++) {
        int card = hand[i];
        if (rules->joker[card]) {
            legal[count++] = ki_listed(rules->joker_action[card], KI_JOKER, card, -1, -1);
        }
    }
    return count;
}

/* rules.lowest_figure_lie (KI-4c): the lowest whole figure that reaches floor and is not
   printed. */
static long long ki_lowest_figure_lie(double floor, double printed) {
    double lowest = ceil(floor);
    if (lowest < 0.0) lowest = 0.0;
    return lowest == printed ? (long long)lowest + 1 : (long long)lowest;
}

/* The first of the card's false claims that reaches the floor (bisect_left, as
   rules.reaches allows an equal figure). */
static int ki_false_start(const KiRules *rules, int category, int card, double floor) {
    const double *figures = rules->false_figure[category][card];
    int low = 0, high = rules->false_count[category][card];
    while (low < high) {
        int middle = (low + high) / 2;
        if (!ki_reaches(figures[middle], floor)) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    return low;
}

/* RandomBot.act: legal[randrange(len(legal))], the legal list as the Python lists it. */
static int ki_random_act(ki_game *g, ks_random *rng, ki_action *chosen) {
    const KiRules *rules = g->rules;
    if (g->phase == PHASE_CHALLENGE) {
        if (ks_randbelow(rng, 2) == 0) {
            *chosen = ki_listed(rules->challenge_action, KI_CHALLENGE, -1, -1, -1);
        } else {
            *chosen = ki_listed(rules->pass_action, KI_PASS, -1, -1, -1);
        }
        return 0;
    }
    if (g->phase == PHASE_CLAIM) {
        /* false_claims[category][card][start:] + _figure_lies(card, category) */
        int card = g->lie_card, category = g->lie_category;
        int start = ki_false_start(rules, category, card, g->floor);
        int named = rules->false_count[category][card] - start;
        uint32_t index = ks_randbelow(rng, (uint32_t)(named + rules->num_plants));
        if ((int)index < named) {
            int at = start + (int)index;
            *chosen = ki_listed(rules->false_action[category][card][at], KI_LAY, card, category,
                                rules->false_plant[category][card][at]);
        } else {
            int plant = rules->plants[index - (uint32_t)named];
            *chosen = ki_listed(NULL, KI_LAY_FIGURE, card, category, plant);
            chosen->figure =
                ki_lowest_figure_lie(g->floor, rules->claim_figures[category][plant]);
        }
        return 0;
    }
    ki_action legal[KI_MAX_LEGAL];
    int count = ki_turn_actions(g, legal);
    if (count == 0) {
        PyErr_SetString(PyExc_RuntimeError, "kraftidioten native core: no legal action");
        return -1;
    }
    *chosen = legal[ks_randbelow(rng, (uint32_t)count)];
    return 0;
}

/* GreedyBot.act on a turn: the cheapest truthful claim; a joker, then the stock. It reads
   the state only, and in the same pass over the hand counts ki_distinct's moves into
   *distinct (the meter is told of the decision after it, as it would be before). */
static int ki_greedy_act(ki_game *g, ks_random *rng, ki_action *chosen, int *distinct) {
    const KiRules *rules = g->rules;
    const unsigned char *hand = g->hands[g->player];
    int len = g->hand_len[g->player];
    int category = g->category;
    if (category == KI_NO_CATEGORY) {
        /* int(random() * 3): the category is a coin toss, the card the cheapest */
        category = (int)(ks_random_double(rng) * 3);
        const int *ranks = rules->greedy_nr[category];
        int weakest = -1, weakest_nr = -1, plants = 0;
        for (int i = 0; i < len; i++) {
            int card = hand[i];
            if (rules->joker[card]) continue;
            plants++;
            if (ranks[card] > weakest_nr) {
                weakest_nr = ranks[card];
                weakest = card;
            }
        }
        /* the truth and a lie in each category per plant; the jokers, alike, one move */
        *distinct = 2 * KI_CATEGORIES * plants + (plants < len);
        if (weakest >= 0) {
            *chosen = ki_listed(rules->greedy_truthful[category][weakest], KI_LAY, weakest,
                                category, weakest);
            return 0;
        }
        if (len == 0) {
            PyErr_SetString(PyExc_ValueError, "min() arg is an empty sequence");
            return -1;
        }
        int lowest = hand[0];
        for (int i = 1; i < len; i++) {
            if (hand[i] < lowest) lowest = hand[i];
        }
        *chosen = ki_listed(rules->joker_action[lowest], KI_JOKER, lowest, -1, -1);
        return 0;
    }
    const double *figures = rules->greedy_figures[category];
    const double *claims = rules->claim_figures[category];
    int best = -1, moves = g->stock_len > 0 ? 2 : 1, jokers = 0; /* take, draw */
    double best_figure = INFINITY;
    for (int i = 0; i < len; i++) {
        int card = hand[i];
        double figure = figures[card];
        if (ki_reaches(figure, g->floor) && figure < best_figure) {
            best = card;
            best_figure = figure;
        }
        if (rules->joker[card]) jokers = 1; /* a lie for each plant, the truth if it reaches */
        else moves += ki_reaches(claims[card], g->floor) ? 2 : 1;
    }
    *distinct = moves + jokers;
    if (best >= 0) {
        *chosen = ki_listed(rules->greedy_truthful[category][best], KI_LAY, best, category, best);
        return 0;
    }
    if (!ki_joker_costs(rules, len)) { /* KI-7: a joker only while it costs nothing */
        int lowest_joker = -1;
        for (int i = 0; i < len; i++) {
            int card = hand[i];
            if (rules->joker[card] && (lowest_joker < 0 || card < lowest_joker)) {
                lowest_joker = card;
            }
        }
        if (lowest_joker >= 0) {
            *chosen = ki_listed(rules->joker_action[lowest_joker], KI_JOKER, lowest_joker, -1, -1);
            return 0;
        }
    }
    if (g->stock_len > 0) {
        *chosen = ki_listed(rules->draw_action, KI_DRAW, -1, -1, -1);
    } else {
        *chosen = ki_listed(rules->take_action, KI_TAKE, -1, -1, -1);
    }
    return 0;
}

/* HeuristicBot._plausible_claims: the first plant (lowest figure first) that reaches
   floor and that the seat to act cannot know to be elsewhere (its hand, `card`, a plant
   claimed on the pile, a card ever shown); -1 for none. */
static int ki_plausible_claim(const ki_game *g, int category, double floor, int card) {
    const KiRules *rules = g->rules;
    uint64_t ruled_out = /* KI_MAX_CARDS is 64 */
        g->shown | (uint64_t)1 << card | g->hand_bits[g->player] | g->claimed;
    const double *figures = rules->sorted_figures[category];
    int i = 0, high = rules->num_plants;
    while (i < high) { /* bisect_left */
        int middle = (i + high) / 2;
        if (figures[middle] < floor) i = middle + 1;
        else high = middle;
    }
    for (; i < rules->num_plants; i++) {
        int plant = rules->by_figure[category][i];
        if (!(ruled_out >> plant & 1U)) return plant;
    }
    return -1;
}

/* HeuristicBot._judge: challenge what the seat can refute, or suspects. */
static int ki_heuristic_judge(ki_game *g, const ki_heuristic *h, ks_random *rng) {
    const KiRules *rules = g->rules;
    int seat = g->player, last = g->pile_len - 1;
    if (last < 0) {
        g->broken = "a challenge without a claim";
        return 0;
    }
    if (g->claim_from_stock[last]) return 0; /* KI-4b: drawn cards are claimed truthfully */
    int plant = g->claim_plant_at[last], layer = g->claim_seat[last];
    uint64_t bit = (uint64_t)1 << plant;
    if (g->hand_bits[seat] & bit) return 1;
    int wrong_figure = g->claim_figure_at[last] != rules->claim_figures[g->category][plant];
    if (wrong_figure && ks_random_double(rng) < h->knowledge) return 1;
    /* two of _judge's checks at once (nothing is drawn between them, and both refute) */
    if (g->laid_by[seat] & bit) return 1; /* its own card */
    /* claimed before (the last claim is not from the stock, or it would not be judged) */
    if (g->claimed_from_stock & bit) return 1; /* that one was true, so this one is not */
    int suspicious = (g->claimed_before_last & bit) != 0;
    int holder = g->last_shown[plant];
    if (holder != rules->not_shown && holder != layer && holder != rules->burned_mark) {
        suspicious = 1; /* last shown going to another player */
    }
    if (suspicious && ks_random_double(rng) < h->knowledge) return 1;
    int last_card = g->hand_len[layer] == 0;
    if ((g->top3_claim || last_card) && ks_random_double(rng) < h->top3_challenge) return 1;
    return 0;
}

/* The first card of `cards` with the lowest figure (min(cards, key=figures.__getitem__)). */
static int ki_lowest(const unsigned char *cards, int len, const double *figures) {
    int best = -1;
    for (int i = 0; i < len; i++) {
        if (best < 0 || figures[cards[i]] < figures[best]) best = cards[i];
    }
    return best;
}

/* HeuristicBot._turn: truthful when it can, a plausible lie when stuck. */
static void ki_heuristic_turn(ki_game *g, const ki_heuristic *h, ks_random *rng,
                              ki_action *chosen) {
    const KiRules *rules = g->rules;
    const unsigned char *hand = g->hands[g->player];
    int len = g->hand_len[g->player];
    const unsigned char *joker = rules->joker;
    uint64_t jokers = g->hand_bits[g->player] & rules->joker_bits;
    int lowest_joker = jokers ? __builtin_ctzll(jokers) : -1;
    int has_plants = (g->hand_bits[g->player] & rules->plant_bits) != 0;
    int category = g->category;
    if (category == KI_NO_CATEGORY) {
        /* _opening_category: the lowest nr. sum, the first of equals; then the weakest card */
        long best_sum = 0;
        for (int c = 0; c < KI_CATEGORIES; c++) {
            long sum = g->nr_sum[g->player][c];
            if (c == 0 || sum < best_sum) {
                best_sum = sum;
                category = c;
            }
        }
        int weakest = -1, weakest_nr = -1;
        for (int i = 0; i < len; i++) {
            if (!joker[hand[i]] && rules->greedy_nr[category][hand[i]] > weakest_nr) {
                weakest_nr = rules->greedy_nr[category][hand[i]];
                weakest = hand[i];
            }
        }
        if (weakest >= 0) {
            *chosen = ki_listed(rules->truth_action[category][weakest], KI_LAY, weakest,
                                category, weakest);
        } else if (lowest_joker >= 0) {
            *chosen = ki_listed(rules->joker_action[lowest_joker], KI_JOKER, lowest_joker, -1, -1);
        } else {
            g->broken = "a turn with an empty hand";
        }
        return;
    }
    const double *figures = rules->claim_figures[category];
    unsigned char truthful[KI_MAX_CARDS], top[KI_MAX_CARDS];
    int num_truthful = 0, num_top = 0;
    for (int i = 0; i < len; i++) {
        int card = hand[i];
        if (joker[card] || !ki_reaches(figures[card], g->floor)) continue;
        truthful[num_truthful++] = (unsigned char)card;
        if (rules->top3[category][card]) top[num_top++] = (unsigned char)card;
    }
    int pile = g->pile_len;
    if (num_truthful) { /* a true top-3 claim burns a big pile */
        int card = num_top && pile >= 4 ? ki_lowest(top, num_top, figures)
                                        : ki_lowest(truthful, num_truthful, figures);
        *chosen = ki_listed(rules->truth_action[category][card], KI_LAY, card, category, card);
        return;
    }
    ki_action draw = ki_listed(rules->draw_action, KI_DRAW, -1, -1, -1);
    ki_action take = ki_listed(rules->take_action, KI_TAKE, -1, -1, -1);
    if (lowest_joker >= 0 && !ki_joker_costs(rules, len) && pile >= 2) {
        *chosen = ki_listed(rules->joker_action[lowest_joker], KI_JOKER, lowest_joker, -1, -1);
        return;
    }
    if (pile <= 1 || !has_plants) {
        *chosen = g->stock_len ? draw : take;
        return;
    }
    if (g->stock_len && ks_random_double(rng) >= h->bluff) {
        *chosen = draw;
        return;
    }
    int weakest = -1; /* the first plant of the lowest figure */
    for (int i = 0; i < len; i++) {
        if (!joker[hand[i]] && (weakest < 0 || figures[hand[i]] < figures[weakest])) weakest = hand[i];
    }
    if (ki_plausible_claim(g, category, g->floor, weakest) < 0) {
        *chosen = g->stock_len ? draw : take;
        return;
    }
    *chosen = ki_listed(rules->lie_action[category][weakest], KI_LIE, weakest, category, -1);
}

/* HeuristicBot.act */
static void ki_heuristic_act(ki_game *g, const ki_heuristic *h, ks_random *rng,
                             ki_action *chosen) {
    const KiRules *rules = g->rules;
    if (g->phase == PHASE_CHALLENGE) {
        *chosen = ki_heuristic_judge(g, h, rng)
                      ? ki_listed(rules->challenge_action, KI_CHALLENGE, -1, -1, -1)
                      : ki_listed(rules->pass_action, KI_PASS, -1, -1, -1);
        return;
    }
    if (g->phase != PHASE_CLAIM) {
        ki_heuristic_turn(g, h, rng, chosen);
        return;
    }
    /* naming the lie: the least conspicuous plant, else a lie by figure */
    int card = g->lie_card, category = g->lie_category;
    double low = g->pile_len ? g->floor : -1.0;
    int plant = ki_plausible_claim(g, category, low, card);
    if (plant >= 0 && ks_random_double(rng) < h->knowledge) {
        for (int j = 0; j < rules->false_count[category][card]; j++) {
            if (rules->false_plant[category][card][j] == plant) {
                *chosen = ki_listed(rules->false_action[category][card][j], KI_LAY, card,
                                    category, plant);
                return;
            }
        }
        g->broken = "a plausible claim is not among the card's false claims";
        return;
    }
    *chosen = ki_listed(NULL, KI_LAY_FIGURE, card, category, card);
    chosen->figure = ki_lowest_figure_lie(low, rules->claim_figures[category][card]);
}

/* ------------------------------------------------------------------ the rules object */

static void KiRules_dealloc(KiRules *self) {
    for (int c = 0; c < KI_CATEGORIES; c++) {
        for (int card = 0; card < KI_MAX_CARDS; card++) {
            Py_XDECREF(self->truth_action[c][card]);
            Py_XDECREF(self->lie_action[c][card]);
            Py_XDECREF(self->greedy_truthful[c][card]);
            for (int j = 0; j < KI_MAX_CARDS; j++) Py_XDECREF(self->false_action[c][card][j]);
        }
    }
    for (int card = 0; card < KI_MAX_CARDS; card++) Py_XDECREF(self->joker_action[card]);
    Py_XDECREF(self->take_action);
    Py_XDECREF(self->draw_action);
    Py_XDECREF(self->challenge_action);
    Py_XDECREF(self->pass_action);
    Py_XDECREF(self->game_error);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A sequence of exactly `length` items (a new reference to a list or tuple), or NULL. */
static PyObject *ki_sequence(PyObject *object, Py_ssize_t length, const char *what) {
    PyObject *items = PySequence_Fast(object, what);
    if (items == NULL) return NULL;
    if (length >= 0 && PySequence_Fast_GET_SIZE(items) != length) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items, expected %zd", what,
                     PySequence_Fast_GET_SIZE(items), length);
        Py_DECREF(items);
        return NULL;
    }
    return items;
}

static int ki_long(PyObject *object, long low, long high, const char *what, long *out) {
    long value = PyLong_AsLong(object);
    if (value == -1 && PyErr_Occurred()) return -1;
    if (value < low || value > high) {
        PyErr_Format(PyExc_ValueError, "%s: %ld is outside %ld..%ld", what, value, low, high);
        return -1;
    }
    *out = value;
    return 0;
}

/* Reads a [category][card] table of numbers: doubles (ints == NULL) or ints. */
static int ki_number_table(PyObject *object, int cards, double (*doubles)[KI_MAX_CARDS],
                           int (*ints)[KI_MAX_CARDS], const char *what) {
    PyObject *categories = ki_sequence(object, KI_CATEGORIES, what);
    if (categories == NULL) return -1;
    for (int c = 0; c < KI_CATEGORIES; c++) {
        PyObject *row = ki_sequence(PySequence_Fast_GET_ITEM(categories, c), cards, what);
        if (row == NULL) goto fail;
        for (int card = 0; card < cards; card++) {
            PyObject *item = PySequence_Fast_GET_ITEM(row, card);
            if (ints != NULL) {
                long value;
                if (ki_long(item, -1000000000L, 1000000000L, what, &value) < 0) {
                    Py_DECREF(row);
                    goto fail;
                }
                ints[c][card] = (int)value;
            } else {
                double value = PyFloat_AsDouble(item);
                if (value == -1.0 && PyErr_Occurred()) {
                    Py_DECREF(row);
                    goto fail;
                }
                doubles[c][card] = value;
            }
        }
        Py_DECREF(row);
    }
    Py_DECREF(categories);
    return 0;
fail:
    Py_DECREF(categories);
    return -1;
}

/* KiRules' plants and jokers as bits (a game keeps its hands as bits). */
static void ki_card_bits(KiRules *self) {
    self->plant_bits = self->joker_bits = 0;
    for (int card = 0; card < self->num_cards; card++) {
        if (self->joker[card]) self->joker_bits |= (uint64_t)1 << card;
        else self->plant_bits |= (uint64_t)1 << card;
    }
}

/* Whether `action` is the tuple (kind, fields...) of plain ints, so that the core's
   reading of an action is the Python one. */
static int ki_is_action(PyObject *action, long kind, int count, const long *fields) {
    if (!PyTuple_CheckExact(action) || PyTuple_GET_SIZE(action) != count + 1) return 0;
    for (int i = 0; i <= count; i++) {
        PyObject *item = PyTuple_GET_ITEM(action, i);
        if (!PyLong_CheckExact(item)) return 0;
        int overflow = 0;
        long value = PyLong_AsLongAndOverflow(item, &overflow);
        if (overflow || value != (i == 0 ? kind : fields[i - 1])) return 0;
    }
    return 1;
}

/* Stores a new reference to `action` in *slot after checking that it is the expected one. */
static int ki_keep_action(PyObject **slot, PyObject *action, long kind, int count,
                          const long *fields, const char *what) {
    if (!ki_is_action(action, kind, count, fields)) {
        PyErr_Format(PyExc_ValueError, "%s: unexpected action %R", what, action);
        return -1;
    }
    Py_INCREF(action);
    Py_XSETREF(*slot, action);
    return 0;
}

/* A [category][card] table of actions (kind, card, category[, card]). */
static int ki_action_table(PyObject *object, int cards, PyObject *(*slots)[KI_MAX_CARDS],
                           long kind, int with_plant, const char *what) {
    PyObject *categories = ki_sequence(object, KI_CATEGORIES, what);
    if (categories == NULL) return -1;
    for (int c = 0; c < KI_CATEGORIES; c++) {
        PyObject *row = ki_sequence(PySequence_Fast_GET_ITEM(categories, c), cards, what);
        if (row == NULL) goto fail;
        for (int card = 0; card < cards; card++) {
            long fields[3] = {card, c, card};
            if (ki_keep_action(&slots[c][card], PySequence_Fast_GET_ITEM(row, card), kind,
                               with_plant ? 3 : 2, fields, what) < 0) {
                Py_DECREF(row);
                goto fail;
            }
        }
        Py_DECREF(row);
    }
    Py_DECREF(categories);
    return 0;
fail:
    Py_DECREF(categories);
    return -1;
}

/* game.false_claims and game.false_figures: per category and card, rising. */
static int ki_false_tables(KiRules *self, PyObject *claims, PyObject *figures) {
    const char *what = "false_claims";
    int cards = self->num_cards;
    PyObject *claim_rows = ki_sequence(claims, KI_CATEGORIES, what);
    if (claim_rows == NULL) return -1;
    PyObject *figure_rows = ki_sequence(figures, KI_CATEGORIES, "false_figures");
    if (figure_rows == NULL) {
        Py_DECREF(claim_rows);
        return -1;
    }
    int status = -1;
    for (int c = 0; c < KI_CATEGORIES; c++) {
        PyObject *by_card = ki_sequence(PySequence_Fast_GET_ITEM(claim_rows, c), cards, what);
        PyObject *figures_by_card =
            ki_sequence(PySequence_Fast_GET_ITEM(figure_rows, c), cards, "false_figures");
        if (by_card == NULL || figures_by_card == NULL) {
            Py_XDECREF(by_card);
            Py_XDECREF(figures_by_card);
            goto done;
        }
        for (int card = 0; card < cards; card++) {
            PyObject *list = ki_sequence(PySequence_Fast_GET_ITEM(by_card, card), -1, what);
            if (list == NULL) goto row_failed;
            Py_ssize_t count = PySequence_Fast_GET_SIZE(list);
            PyObject *values = ki_sequence(PySequence_Fast_GET_ITEM(figures_by_card, card), count,
                                           "false_figures");
            if (values == NULL || count > KI_MAX_CARDS) {
                if (values != NULL) PyErr_SetString(PyExc_ValueError, "too many false claims");
                Py_DECREF(list);
                Py_XDECREF(values);
                goto row_failed;
            }
            for (Py_ssize_t j = 0; j < count; j++) {
                PyObject *action = PySequence_Fast_GET_ITEM(list, j);
                long plant = -1;
                if (PyTuple_CheckExact(action) && PyTuple_GET_SIZE(action) == 4) {
                    plant = PyLong_AsLong(PyTuple_GET_ITEM(action, 3));
                    if (plant == -1 && PyErr_Occurred()) PyErr_Clear();
                }
                long fields[3] = {card, c, plant};
                double figure = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(values, j));
                if ((figure == -1.0 && PyErr_Occurred()) || plant < 0 || plant >= cards ||
                    plant == card || self->joker[plant] ||
                    ki_keep_action(&self->false_action[c][card][j], action,
                                   self->kind_value[KI_LAY], 3, fields, what) < 0) {
                    if (!PyErr_Occurred()) {
                        PyErr_Format(PyExc_ValueError, "%s: unexpected action %R", what, action);
                    }
                    Py_DECREF(list);
                    Py_DECREF(values);
                    goto row_failed;
                }
                self->false_plant[c][card][j] = (unsigned char)plant;
                self->false_figure[c][card][j] = figure;
            }
            self->false_count[c][card] = (int)count;
            Py_DECREF(list);
            Py_DECREF(values);
        }
        Py_DECREF(by_card);
        Py_DECREF(figures_by_card);
        continue;
    row_failed:
        Py_DECREF(by_card);
        Py_DECREF(figures_by_card);
        goto done;
    }
    status = 0;
done:
    Py_DECREF(claim_rows);
    Py_DECREF(figure_rows);
    return status;
}

/* A list of card indices (plants or jokers) into `out`. */
static int ki_card_list(PyObject *object, int cards, unsigned char *out, int *count,
                        const char *what) {
    PyObject *items = ki_sequence(object, -1, what);
    if (items == NULL) return -1;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(items);
    if (size > cards) {
        PyErr_Format(PyExc_ValueError, "%s: more cards than the deck has", what);
        Py_DECREF(items);
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        long card;
        if (ki_long(PySequence_Fast_GET_ITEM(items, i), 0, cards - 1, what, &card) < 0) {
            Py_DECREF(items);
            return -1;
        }
        out[i] = (unsigned char)card;
    }
    *count = (int)size;
    Py_DECREF(items);
    return 0;
}

static PyObject *KiRules_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {
        "num_players",   "action_cap",    "parameters",     "max_claim_figure",
        "joker",         "plants",        "jokers",         "claim_figures",
        "top3",          "false_claims",  "false_figures",  "truth_actions",
        "lie_actions",   "joker_actions", "take_action",    "draw_action",
        "challenge_action", "pass_action", "greedy_nr",     "greedy_figures",
        "greedy_truthful", "game_error",  "by_figure",      "sorted_figures",
        "burned_mark",   "not_shown",     NULL,
    };
    int num_players;
    long long action_cap, max_claim_figure;
    PyObject *parameters, *joker, *plants, *jokers, *claim_figures, *top3, *false_claims,
        *false_figures, *truth_actions, *lie_actions, *joker_actions, *take_action,
        *draw_action, *challenge_action, *pass_action, *greedy_nr, *greedy_figures,
        *greedy_truthful, *game_error, *by_figure, *sorted_figures;
    int burned_mark, not_shown;
    if (!PyArg_ParseTupleAndKeywords(
            args, kwargs, "$iLOLOOOOOOOOOOOOOOOOOOOOii", keywords, &num_players, &action_cap,
            &parameters, &max_claim_figure, &joker, &plants, &jokers, &claim_figures, &top3,
            &false_claims, &false_figures, &truth_actions, &lie_actions, &joker_actions,
            &take_action, &draw_action, &challenge_action, &pass_action, &greedy_nr,
            &greedy_figures, &greedy_truthful, &game_error, &by_figure, &sorted_figures,
            &burned_mark, &not_shown)) {
        return NULL;
    }
    Rules read;
    if (ks_read_rules(parameters, &read) < 0) return NULL;
    if (num_players < MIN_SEATS || num_players > MAX_SEATS || action_cap < 1 ||
        read.hand_size < 1 || read.joker_penalty > KI_MAX_SAMPLE || max_claim_figure < 0) {
        PyErr_SetString(PyExc_ValueError, "kraftidioten native core: a setting out of range");
        return NULL;
    }
    if (!PyExceptionClass_Check(game_error)) {
        PyErr_SetString(PyExc_TypeError, "game_error must be an exception class");
        return NULL;
    }
    KiRules *self = (KiRules *)type->tp_alloc(type, 0);
    if (self == NULL) return NULL;
    self->num_players = num_players;
    self->action_cap = action_cap;
    self->parameters = read;
    self->max_claim_figure = max_claim_figure;
    Py_INCREF(game_error);
    self->game_error = game_error;
    static const long kinds[] = {
        [KI_LAY] = KIND_LAY,   [KI_LAY_FIGURE] = KIND_LAY, [KI_LIE] = KIND_LIE,
        [KI_JOKER] = KIND_JOKER, [KI_TAKE] = KIND_TAKE,   [KI_DRAW] = KIND_DRAW,
        [KI_CHALLENGE] = KIND_CHALLENGE, [KI_PASS] = KIND_PASS,
    };
    for (int k = 0; k <= KI_PASS; k++) self->kind_value[k] = kinds[k];

    PyObject *joker_items = ki_sequence(joker, -1, "joker");
    if (joker_items == NULL) goto fail;
    Py_ssize_t cards = PySequence_Fast_GET_SIZE(joker_items);
    if (cards < 1 || cards > KI_MAX_CARDS) {
        PyErr_Format(PyExc_ValueError, "kraftidioten native core: %zd cards (at most %d)", cards,
                     KI_MAX_CARDS);
        Py_DECREF(joker_items);
        goto fail;
    }
    self->num_cards = (int)cards;
    for (Py_ssize_t card = 0; card < cards; card++) {
        int truth = PyObject_IsTrue(PySequence_Fast_GET_ITEM(joker_items, card));
        if (truth < 0) {
            Py_DECREF(joker_items);
            goto fail;
        }
        self->joker[card] = (unsigned char)truth;
    }
    Py_DECREF(joker_items);
    int n = self->num_cards;

    if (ki_card_list(plants, n, self->plants, &self->num_plants, "plants") < 0 ||
        ki_card_list(jokers, n, self->jokers, &self->num_jokers, "jokers") < 0) {
        goto fail;
    }
    if (self->num_plants + self->num_jokers != n ||
        self->num_plants < read.hand_size * num_players) {
        PyErr_SetString(PyExc_ValueError, "kraftidioten native core: plants and jokers do not "
                                          "make up the deck");
        goto fail;
    }
    for (int i = 0; i < self->num_plants; i++) {
        if (self->joker[self->plants[i]] || (i > 0 && self->plants[i] <= self->plants[i - 1])) {
            PyErr_SetString(PyExc_ValueError, "plants: not the rising plant cards");
            goto fail;
        }
    }
    for (int i = 0; i < self->num_jokers; i++) {
        if (!self->joker[self->jokers[i]]) {
            PyErr_SetString(PyExc_ValueError, "jokers: not the jokers");
            goto fail;
        }
    }
    int top3_values[KI_CATEGORIES][KI_MAX_CARDS];
    if (ki_number_table(claim_figures, n, self->claim_figures, NULL, "claim_figures") < 0 ||
        ki_number_table(top3, n, NULL, top3_values, "top3") < 0 ||
        ki_number_table(greedy_nr, n, NULL, self->greedy_nr, "greedy_nr") < 0 ||
        ki_number_table(greedy_figures, n, self->greedy_figures, NULL, "greedy_figures") < 0) {
        goto fail;
    }
    for (int c = 0; c < KI_CATEGORIES; c++) {
        for (int card = 0; card < n; card++) self->top3[c][card] = top3_values[c][card] != 0;
    }
    if (burned_mark >= 0 || not_shown >= 0 || burned_mark == not_shown) {
        PyErr_SetString(PyExc_ValueError, "burned_mark and not_shown: two marks below the seats");
        goto fail;
    }
    self->burned_mark = burned_mark;
    self->not_shown = not_shown;
    PyObject *orders = ki_sequence(by_figure, KI_CATEGORIES, "by_figure");
    PyObject *order_figures = orders ? ki_sequence(sorted_figures, KI_CATEGORIES, "sorted_figures")
                                     : NULL;
    for (int c = 0; order_figures != NULL && c < KI_CATEGORIES; c++) {
        int count;
        unsigned char seen[KI_MAX_CARDS] = {0};
        PyObject *row = ki_sequence(PySequence_Fast_GET_ITEM(order_figures, c), self->num_plants,
                                    "sorted_figures");
        int failed = row == NULL ||
                     ki_card_list(PySequence_Fast_GET_ITEM(orders, c), n, self->by_figure[c],
                                  &count, "by_figure") < 0;
        if (!failed && count != self->num_plants) {
            PyErr_SetString(PyExc_ValueError, "by_figure: every plant once per category");
            failed = 1;
        }
        for (int i = 0; !failed && i < count; i++) {
            int card = self->by_figure[c][i];
            double figure = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(row, i));
            if ((figure == -1.0 && PyErr_Occurred()) || self->joker[card] || seen[card]++ ||
                (i > 0 && figure < self->sorted_figures[c][i - 1])) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_ValueError, "by_figure: the plants by rising figure");
                }
                failed = 1;
            }
            self->sorted_figures[c][i] = figure;
        }
        Py_XDECREF(row);
        if (failed) Py_CLEAR(order_figures);
    }
    Py_XDECREF(orders);
    if (order_figures == NULL) goto fail;
    Py_DECREF(order_figures);
    ki_card_bits(self);
    long lay = self->kind_value[KI_LAY];
    if (ki_action_table(truth_actions, n, self->truth_action, lay, 1, "truth_actions") < 0 ||
        ki_action_table(greedy_truthful, n, self->greedy_truthful, lay, 1, "greedy_truthful") <
            0 ||
        ki_action_table(lie_actions, n, self->lie_action, self->kind_value[KI_LIE], 0,
                        "lie_actions") < 0 ||
        ki_false_tables(self, false_claims, false_figures) < 0) {
        goto fail;
    }
    PyObject *joker_rows = ki_sequence(joker_actions, n, "joker_actions");
    if (joker_rows == NULL) goto fail;
    for (int card = 0; card < n; card++) {
        long fields[1] = {card};
        if (ki_keep_action(&self->joker_action[card], PySequence_Fast_GET_ITEM(joker_rows, card),
                           self->kind_value[KI_JOKER], 1, fields, "joker_actions") < 0) {
            Py_DECREF(joker_rows);
            goto fail;
        }
    }
    Py_DECREF(joker_rows);
    if (ki_keep_action(&self->take_action, take_action, self->kind_value[KI_TAKE], 0, NULL,
                       "take_action") < 0 ||
        ki_keep_action(&self->draw_action, draw_action, self->kind_value[KI_DRAW], 0, NULL,
                       "draw_action") < 0 ||
        ki_keep_action(&self->challenge_action, challenge_action, self->kind_value[KI_CHALLENGE],
                       0, NULL, "challenge_action") < 0 ||
        ki_keep_action(&self->pass_action, pass_action, self->kind_value[KI_PASS], 0, NULL,
                       "pass_action") < 0) {
        goto fail;
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

static PyTypeObject KiRulesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kraftstokk.games.kraftidioten._fastcore.Rules",
    .tp_doc = PyDoc_STR("A Kraftidioten game's tables for the native core (made by fast.py)."),
    .tp_basicsize = sizeof(KiRules),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = KiRules_new,
    .tp_dealloc = (destructor)KiRules_dealloc,
};

/* ------------------------------------------------------------------ the core object */

typedef struct {
    PyObject_HEAD
    KiRules *rules;
    int num_seats;
    int seat_bot[MAX_SEATS];
    int keep_reads; /* a seat is heuristic: its game keeps what only that bot reads */
    ki_heuristic heuristic[MAX_SEATS]; /* a heuristic seat's settings */
    ks_random game_rng;
    ks_random seat_rng[MAX_SEATS];
    ks_random *seat_draws[MAX_SEATS]; /* the generators the seats draw from: seat_rng's, or a
                                         chunk's seeded ahead */
    ki_game game;
    ki_action *log;
    Py_ssize_t log_capacity;
    int measure; /* a whole game (not a playout): the meter counts */
    int unlogged; /* a chunk's game: the actions are not logged */
    ks_meter meter;
    /* Making the result may run a finalizer that plays on this core: it must not reuse
       the state and log being read. */
    int busy;
} KiCore;

static int ki_enter(KiCore *self) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "kraftidioten native core: already playing");
        return -1;
    }
    self->busy = 1;
    return 0;
}

static int ki_seed_arg(PyObject *object, uint64_t *seed) {
    if (!PyLong_Check(object)) {
        PyErr_SetString(PyExc_TypeError, "the seed must be an int");
        return -1;
    }
    unsigned long long value = PyLong_AsUnsignedLongLong(object);
    if (value == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "the native core takes seeds from 0 to 2**64 - 1");
        return -1;
    }
    *seed = value;
    return 0;
}

static void KiCore_dealloc(KiCore *self) {
    Py_XDECREF(self->rules);
    PyMem_Free(self->log);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *KiCore_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"rules", "seat_bots", "heuristics", NULL};
    PyObject *rules, *seat_bots, *heuristics = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O|O", keywords, &KiRulesType, &rules,
                                     &seat_bots, &heuristics)) {
        return NULL;
    }
    KiRules *game_rules = (KiRules *)rules;
    PyObject *items = ki_sequence(seat_bots, game_rules->num_players, "seat_bots");
    if (items == NULL) return NULL;
    KiCore *self = (KiCore *)type->tp_alloc(type, 0);
    if (self == NULL) {
        Py_DECREF(items);
        return NULL;
    }
    Py_INCREF(rules);
    self->rules = game_rules;
    self->num_seats = game_rules->num_players;
    for (int seat = 0; seat < self->num_seats; seat++) {
        long bot;
        if (ki_long(PySequence_Fast_GET_ITEM(items, seat), KI_GREEDY, KI_HEURISTIC, "seat_bots",
                    &bot) < 0) {
            Py_DECREF(items);
            Py_DECREF(self);
            return NULL;
        }
        self->seat_bot[seat] = (int)bot;
        if (bot == KI_HEURISTIC) self->keep_reads = 1;
    }
    Py_DECREF(items);
    /* per seat None, or a heuristic seat's (knowledge, top3_challenge, bluff) */
    items = heuristics != NULL ? ki_sequence(heuristics, self->num_seats, "heuristics") : NULL;
    if (heuristics != NULL && items == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    for (int seat = 0; seat < self->num_seats; seat++) {
        PyObject *item = items != NULL ? PySequence_Fast_GET_ITEM(items, seat) : Py_None;
        int wanted = self->seat_bot[seat] == KI_HEURISTIC;
        ki_heuristic *h = &self->heuristic[seat];
        int failed = (item != Py_None) != wanted;
        if (failed) {
            PyErr_SetString(PyExc_ValueError, "heuristics: settings for the heuristic seats only");
        } else if (wanted) {
            failed = !PyArg_ParseTuple(item, "ddd:heuristics", &h->knowledge, &h->top3_challenge,
                                       &h->bluff);
            if (!failed && !(h->knowledge >= 0.0 && h->knowledge <= 1.0 &&
                             h->top3_challenge >= 0.0 && h->top3_challenge <= 1.0 &&
                             h->bluff >= 0.0 && h->bluff <= 1.0)) {
                PyErr_SetString(PyExc_ValueError, "heuristics: settings from 0 to 1");
                failed = 1;
            }
        }
        if (failed) {
            Py_XDECREF(items);
            Py_DECREF(self);
            return NULL;
        }
    }
    Py_XDECREF(items);
    return (PyObject *)self;
}

/* KraftidiotenState.distinct_moves: the legal actions counted without listing them; all
   are distinct but a joker's (the jokers are alike: laying one or another is one move). */
static int ki_distinct(const ki_game *g) {
    const KiRules *rules = g->rules;
    if (g->phase == PHASE_CHALLENGE) return 2;
    if (g->phase == PHASE_CLAIM) {
        int card = g->lie_card, category = g->lie_category;
        int start = ki_false_start(rules, category, card, g->floor);
        return rules->false_count[category][card] - start + rules->num_plants;
    }
    const unsigned char *hand = g->hands[g->player];
    int count = 0;
    int jokers = (g->hand_bits[g->player] & rules->joker_bits) != 0;
    if (g->category == KI_NO_CATEGORY) {
        for (int i = 0; i < g->hand_len[g->player]; i++) {
            if (!rules->joker[hand[i]]) count += 2 * KI_CATEGORIES; /* truth and lie in each */
        }
    } else {
        /* (card by card: a search of the figures as bits cost more, its branches mispredicted) */
        const double *figures = rules->claim_figures[g->category];
        for (int i = 0; i < g->hand_len[g->player]; i++) {
            int card = hand[i];
            if (!rules->joker[card]) count += ki_reaches(figures[card], g->floor) ? 2 : 1;
        }
        count += g->stock_len > 0 ? 2 : 1; /* take, draw */
    }
    return count + jokers;
}

/* Meter.moved with KraftidiotenState.progress (minus the cards in hand) and seats_out. */
static void ki_measure_position(KiCore *self) {
    const ki_game *g = &self->game;
    ks_meter *m = &self->meter;
    int changed = g->out_len != m->last_out;
    for (int seat = 0; seat < g->n; seat++)
        changed |= ks_meter_progress(m, seat, -(long)g->hand_len[seat]);
    if (changed) ks_meter_moved(m, g->out_len, g->actions);
}

static int ki_log(KiCore *self, Py_ssize_t at, const ki_action *action) {
    if (at >= self->log_capacity) {
        Py_ssize_t capacity = self->log_capacity ? self->log_capacity * 2 : 1024;
        ki_action *grown = PyMem_Realloc(self->log, (size_t)capacity * sizeof(ki_action));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        self->log = grown;
        self->log_capacity = capacity;
    }
    self->log[at] = *action;
    return 0;
}

static PyObject *ki_card_pylist(const unsigned char *cards, int count) {
    PyObject *list = PyList_New(count);
    if (list == NULL) return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *card = PyLong_FromLong(cards[i]);
        if (card == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, card);
    }
    return list;
}

static PyObject *ki_action_object(const KiRules *rules, const ki_action *action) {
    if (action->tuple != NULL) {
        Py_INCREF(action->tuple);
        return action->tuple;
    }
    return Py_BuildValue("(liiiL)", rules->kind_value[KI_LAY], action->card, action->category,
                         action->plant, action->figure);
}

static PyObject *ki_counters(const ki_game *g, PyObject *const *names) {
    PyObject *counters = PyDict_New();
    if (counters == NULL) return NULL;
    for (int i = 0; i < g->counted; i++) {
        int counter = g->counter_order[i];
        PyObject *value = PyLong_FromLong(g->counters[counter]);
        if (value == NULL || PyDict_SetItem(counters, names[counter], value) < 0) {
            Py_XDECREF(value);
            Py_DECREF(counters);
            return NULL;
        }
        Py_DECREF(value);
    }
    return counters;
}

static const char *const COUNTER_TEXT[COUNTER_COUNT] = COUNTER_NAMES;
static PyObject *COUNTER_KEYS[COUNTER_COUNT];

/* The loser of a finished game: the one seat still in it (-1 while the game runs). */
static int ki_loser(const ki_game *g) {
    for (int seat = 0; g->finished && seat < g->n; seat++) {
        if (g->active[seat]) return seat;
    }
    return -1;
}

/* (actions, finished, order, loser, rounds, counters, samples, cards_played, loser_cards) */
static PyObject *ki_run(KiCore *self, Py_ssize_t logged) {
    const KiRules *rules = self->rules;
    const ki_game *g = &self->game;
    PyObject *actions = PyList_New(logged);
    if (actions == NULL) return NULL;
    for (Py_ssize_t i = 0; i < logged; i++) {
        PyObject *action = ki_action_object(rules, &self->log[i]);
        if (action == NULL) {
            Py_DECREF(actions);
            return NULL;
        }
        PyList_SET_ITEM(actions, i, action);
    }
    const int loser = ki_loser(g);
    PyObject *order = PyList_New(g->out_len);
    PyObject *cards_played = PyList_New(rules->num_cards);
    PyObject *loser_cards = loser >= 0 ? ki_card_pylist(g->hands[loser], g->hand_len[loser])
                                       : PyList_New(0);
    PyObject *counters = ki_counters(g, COUNTER_KEYS);
    PyObject *samples = PyDict_New();
    PyObject *rounds = PyLong_FromLongLong((g->turns + g->n - 1) / g->n);
    PyObject *loser_object = loser >= 0 ? PyLong_FromLong(loser) : Py_NewRef(Py_None);
    long long cards_laid = 0;
    for (int card = 0; card < rules->num_cards; card++) cards_laid += g->cards_played[card];
    PyObject *figures = ks_meter_figures(&self->meter, g->finished,
                                         g->out_len ? g->out_order[0] : -1, loser, g->actions,
                                         cards_laid);
    PyObject *branching = ks_meter_branching(&self->meter);
    PyObject *result = NULL;
    if (order == NULL || cards_played == NULL || loser_cards == NULL || counters == NULL ||
        samples == NULL || rounds == NULL || loser_object == NULL || figures == NULL ||
        branching == NULL) {
        goto done;
    }
    for (int i = 0; i < g->out_len; i++) {
        PyObject *seat = PyLong_FromLong(g->out_order[i]);
        if (seat == NULL) goto done;
        PyList_SET_ITEM(order, i, seat);
    }
    for (int card = 0; card < rules->num_cards; card++) {
        PyObject *count = PyLong_FromLong(g->cards_played[card]);
        if (count == NULL) goto done;
        PyList_SET_ITEM(cards_played, card, count);
    }
    result = PyTuple_Pack(11, actions, g->finished ? Py_True : Py_False, order, loser_object,
                          rounds, counters, samples, cards_played, loser_cards, figures, branching);
done:
    Py_XDECREF(figures);
    Py_XDECREF(branching);
    Py_DECREF(actions);
    Py_XDECREF(order);
    Py_XDECREF(cards_played);
    Py_XDECREF(loser_cards);
    Py_XDECREF(counters);
    Py_XDECREF(samples);
    Py_XDECREF(rounds);
    Py_XDECREF(loser_object);
    return result;
}

/* KraftidiotenState.play_out's loop from the position in self->game; each seat's bot draws
   from self->seat_draws. Returns the number of actions played, or -1 with an exception. */
static Py_ssize_t ki_loop(KiCore *self) {
    const KiRules *rules = self->rules;
    ki_game *g = &self->game;
    ks_random *const *seats = self->seat_draws;
    Py_ssize_t logged = 0;
    while (!g->finished && g->actions < rules->action_cap && g->broken == NULL) {
        int seat = g->player;
        ks_random *rng = seats[seat];
        if (rng->pending) ks_random_seed_pending(seats, self->num_seats);
        if (g->phase == PHASE_CHALLENGE && self->seat_bot[seat] == KI_GREEDY) {
            /* most of a greedy game's actions: a greedy seat passes (two distinct moves, out
               of turn; no draw), and a pass moves no card (only a seat going out, when its
               last claim stands, changes the position) */
            if (self->measure) ks_meter_decision(&self->meter, 2, 1, seat, g->actions);
            ki_action pass = ki_listed(rules->pass_action, KI_PASS, -1, -1, -1);
            if (!self->unlogged && ki_log(self, logged, &pass) < 0) return -1;
            g->actions++;
            ki_pass(g);
            logged++;
            if (self->measure && g->out_len != self->meter.last_out) ki_measure_position(self);
            continue;
        }
        ki_action action;
        int status;
        int greedy_turn = self->seat_bot[seat] == KI_GREEDY && g->phase == PHASE_TURN;
        if (self->measure && !greedy_turn)
            ks_meter_decision(&self->meter, ki_distinct(g), g->phase == PHASE_CHALLENGE, seat,
                              g->actions);
        if (greedy_turn) {
            /* the bot counts the meter's distinct moves in its own pass over the hand; it
               only reads the state, so the decision is told after it as it would be before */
            int distinct;
            status = ki_greedy_act(g, rng, &action, &distinct);
            if (status == 0 && self->measure)
                ks_meter_decision(&self->meter, distinct, 0, seat, g->actions);
        } else if (self->seat_bot[seat] == KI_RANDOM) {
            status = ki_random_act(g, rng, &action);
        } else if (self->seat_bot[seat] == KI_HEURISTIC) {
            ki_heuristic_act(g, &self->heuristic[seat], rng, &action);
            status = 0;
            if (g->broken != NULL) break;
        } else if (g->phase == PHASE_CHALLENGE) {
            action = ki_listed(rules->pass_action, KI_PASS, -1, -1, -1);
            status = 0;
        } else {
            g->broken = "the greedy bot is asked to name a lie";
            break;
        }
        if (status < 0 || (!self->unlogged && ki_log(self, logged, &action) < 0) ||
            ki_apply(g, &action) < 0) {
            return -1;
        }
        logged++;
        /* A pass moves no card: only a seat going out (its last claim stood) can follow. */
        if (self->measure && (action.kind != KI_PASS || g->out_len != self->meter.last_out))
            ki_measure_position(self);
    }
    if (g->broken != NULL) {
        PyErr_Format(PyExc_RuntimeError, "kraftidioten native core: %s", g->broken);
        return -1;
    }
    return logged;
}

/* KraftidiotenState.play_out's loop from the deal by `game_rng`, with it and
   self->seat_draws seeded (or pending) as play_game seeds them. */
static Py_ssize_t ki_play_seeded(KiCore *self, ks_random *game_rng) {
    ki_start(&self->game, self->rules, game_rng, self->keep_reads);
    self->measure = 1;
    ks_meter_start(&self->meter, self->game.n);
    ki_measure_position(self);
    Py_ssize_t logged = ki_loop(self);
    self->measure = 0;
    return logged;
}

/* play_game: the game seeded with Random(seed), seat s's bot with LazyRandom(derive_seed(seed,
   s + 1)), and KraftidiotenState.play_out's loop. */
static Py_ssize_t ki_play_game(KiCore *self, uint64_t seed) {
    /* Every seat draws (the greedy bot for an opening's category, the random one at each
     * turn), seat 0 at the first action: it is seeded with the game's generator, and the
     * other seats together at the first draw of any of them. */
    ks_random_lazy(&self->game_rng, seed);
    for (int seat = 0; seat < self->num_seats; seat++) {
        ks_random_lazy(&self->seat_rng[seat], ks_derive_seed(seed, (uint64_t)seat + 1));
        self->seat_draws[seat] = &self->seat_rng[seat];
    }
    ks_random *first[2] = {&self->game_rng, &self->seat_rng[0]};
    ks_random_seed_pending(first, 2);
    return ki_play_seeded(self, &self->game_rng);
}

static PyObject *ki_play(KiCore *self, uint64_t seed) {
    Py_ssize_t logged = ki_play_game(self, seed);
    return logged < 0 ? NULL : ki_run(self, logged);
}

/* The game just played into the chunk's row and totals (ki_run's figures). */
static void ki_chunk_game(ks_chunk *c, const KiCore *self) {
    const ki_game *g = &self->game;
    const int loser = ki_loser(g);
    long long cards_laid = 0;
    for (int card = 0; card < self->rules->num_cards; card++) {
        cards_laid += g->cards_played[card];
        ks_chunk_played(c, card, g->cards_played[card]);
    }
    int64_t *row = ks_chunk_game(c, &self->meter, g->finished, g->actions,
                                 (g->turns + g->n - 1) / g->n,
                                 g->out_len ? g->out_order[0] : -1, loser, cards_laid);
    for (int i = 0; i < g->counted; i++) {
        int counter = g->counter_order[i];
        ks_chunk_counter(c, row, counter, g->counters[counter]);
    }
    if (loser >= 0)
        for (int k = 0; k < g->hand_len[loser]; k++) ks_chunk_left(c, g->hands[loser][k]);
}

/* ------------------------------------------------------------------ positions */

/* Reads the cards of `object` (distinct cards of the deck; `seen` marks those read so far)
   into `out`. */
static int ki_position_cards(const KiRules *rules, PyObject *object, unsigned char *out,
                             int *len, unsigned char *seen, const char *what) {
    if (ki_card_list(object, rules->num_cards, out, len, what) < 0) return -1;
    for (int i = 0; i < *len; i++) {
        if (seen[out[i]]++) {
            PyErr_Format(PyExc_ValueError, "%s: card %d is in two places", what, out[i]);
            return -1;
        }
    }
    return 0;
}

/* state.<name> as a new reference, or NULL with an exception. */
static PyObject *ki_field(PyObject *state, const char *name) {
    return PyObject_GetAttrString(state, name);
}

/* Reads the int (or bool) state.<name> from low to high into *out. */
static int ki_field_long(PyObject *state, const char *name, long low, long high, long *out) {
    PyObject *value = ki_field(state, name);
    if (value == NULL) return -1;
    int failed = !PyLong_Check(value);
    if (failed) PyErr_Format(PyExc_ValueError, "%s: not an int", name);
    failed = failed || ki_long(value, low, high, name, out) < 0;
    Py_DECREF(value);
    return failed ? -1 : 0;
}

static int ki_field_cards(const KiRules *rules, PyObject *state, const char *name,
                          unsigned char *out, int *len, unsigned char *seen) {
    PyObject *value = ki_field(state, name);
    if (value == NULL) return -1;
    int failed = ki_position_cards(rules, value, out, len, seen, name);
    Py_DECREF(value);
    return failed;
}

/* The position of a KraftidiotenState (its fields by name: the hands, stock, pile and
   burned cards in their order, the last claim, the phase, who is to act and who is out,
   the actions and turns so far), into self->game with the counters at zero. */
static int ki_load_position(KiCore *self, PyObject *state) {
    const KiRules *rules = self->rules;
    ki_game *g = &self->game;
    memset(g, 0, sizeof(*g));
    g->rules = rules;
    g->rng = &self->game_rng;
    g->n = rules->num_players;
    unsigned char seen[KI_MAX_CARDS] = {0};
    PyObject *hands = ki_field(state, "hands");
    if (hands == NULL) return -1;
    PyObject *rows = ki_sequence(hands, g->n, "hands");
    Py_DECREF(hands);
    if (rows == NULL) return -1;
    for (int seat = 0; seat < g->n; seat++) {
        if (ki_position_cards(rules, PySequence_Fast_GET_ITEM(rows, seat), g->hands[seat],
                              &g->hand_len[seat], seen, "hands") < 0) {
            Py_DECREF(rows);
            return -1;
        }
    }
    Py_DECREF(rows);
    if (ki_field_cards(rules, state, "stock", g->stock, &g->stock_len, seen) < 0 ||
        ki_field_cards(rules, state, "pile", g->pile, &g->pile_len, seen) < 0 ||
        ki_field_cards(rules, state, "burned", g->burned, &g->burned_len, seen) < 0) {
        return -1;
    }
    long category, phase, player, layer, emptied, top3, lie_card, lie_category, finished;
    long long actions, turns;
    if (ki_field_long(state, "category", KI_NO_CATEGORY, KI_CATEGORIES - 1, &category) < 0 ||
        ki_field_long(state, "phase", PHASE_TURN, PHASE_CLAIM, &phase) < 0 ||
        ki_field_long(state, "player", 0, g->n - 1, &player) < 0 ||
        ki_field_long(state, "layer", -1, g->n - 1, &layer) < 0 ||
        ki_field_long(state, "layer_emptied", 0, 1, &emptied) < 0 ||
        ki_field_long(state, "top3_claim", 0, 1, &top3) < 0 ||
        ki_field_long(state, "lie_card", -1, rules->num_cards - 1, &lie_card) < 0 ||
        ki_field_long(state, "lie_category", KI_NO_CATEGORY, KI_CATEGORIES - 1,
                      &lie_category) < 0 ||
        ki_field_long(state, "finished", 0, 1, &finished) < 0) {
        return -1;
    }
    PyObject *counts[2] = {ki_field(state, "actions"), ki_field(state, "turns")};
    long long *into[2] = {&actions, &turns};
    for (int i = 0; i < 2; i++) {
        if (counts[i] == NULL) {
            Py_XDECREF(counts[1 - i]);
            return -1;
        }
    }
    for (int i = 0; i < 2; i++) {
        *into[i] = PyLong_Check(counts[i]) ? PyLong_AsLongLong(counts[i]) : -1;
        if (*into[i] < 0 && !PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "actions and turns: counts from 0");
        }
    }
    Py_DECREF(counts[0]);
    Py_DECREF(counts[1]);
    if (PyErr_Occurred()) return -1;
    /* the claims on the pile, aligned with it (Claim: seat, plant, from_stock, figure) */
    PyObject *claims = ki_field(state, "claims");
    if (claims == NULL) return -1;
    PyObject *claim_list = ki_sequence(claims, g->pile_len, "claims (one per pile card)");
    Py_DECREF(claims);
    if (claim_list == NULL) return -1;
    g->claim_plant = -1;
    for (int i = 0; i < g->pile_len; i++) {
        PyObject *claim = PySequence_Fast_GET_ITEM(claim_list, i);
        PyObject *fields = ki_sequence(claim, 4, "claims");
        long seat = 0, plant = 0;
        int from_stock = -1;
        double figure = -1.0;
        int failed = fields == NULL ||
                     ki_long(PySequence_Fast_GET_ITEM(fields, 0), 0, g->n - 1, "claims", &seat) < 0 ||
                     ki_long(PySequence_Fast_GET_ITEM(fields, 1), 0, rules->num_cards - 1, "claims",
                             &plant) < 0 ||
                     (from_stock = PyObject_IsTrue(PySequence_Fast_GET_ITEM(fields, 2))) < 0;
        if (!failed) {
            figure = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fields, 3));
            failed = figure == -1.0 && PyErr_Occurred();
        }
        Py_XDECREF(fields);
        if (failed) {
            Py_DECREF(claim_list);
            return -1;
        }
        g->claim_seat[i] = (unsigned char)seat;
        g->claim_plant_at[i] = (unsigned char)plant;
        g->claim_from_stock[i] = (unsigned char)from_stock;
        g->claim_figure_at[i] = figure;
        g->claim_plant = (int)plant;
        g->claim_figure = figure;
    }
    Py_DECREF(claim_list);
    /* where each shown card went (state.last_shown) */
    PyObject *shown = ki_field(state, "last_shown");
    if (shown == NULL) return -1;
    PyObject *marks = ki_sequence(shown, rules->num_cards, "last_shown");
    Py_DECREF(shown);
    if (marks == NULL) return -1;
    g->shown = 0;
    for (int card = 0; card < rules->num_cards; card++) {
        long where;
        long lowest = rules->not_shown < rules->burned_mark ? rules->not_shown : rules->burned_mark;
        if (ki_long(PySequence_Fast_GET_ITEM(marks, card), lowest, g->n - 1, "last_shown", &where) <
            0) {
            Py_DECREF(marks);
            return -1;
        }
        if (where < 0 && where != rules->not_shown && where != rules->burned_mark) {
            PyErr_SetString(PyExc_ValueError, "last_shown: a seat, burned or never shown");
            Py_DECREF(marks);
            return -1;
        }
        ki_show(g, card, (int)where);
    }
    Py_DECREF(marks);
    PyObject *floor = ki_field(state, "floor");
    if (floor == NULL) return -1;
    g->floor = PyFloat_AsDouble(floor);
    Py_DECREF(floor);
    if (g->floor == -1.0 && PyErr_Occurred()) return -1;
    PyObject *active = ki_field(state, "active");
    if (active == NULL) return -1;
    PyObject *flags = ki_sequence(active, g->n, "active");
    Py_DECREF(active);
    if (flags == NULL) return -1;
    for (int seat = 0; seat < g->n; seat++) {
        int truth = PyObject_IsTrue(PySequence_Fast_GET_ITEM(flags, seat));
        if (truth < 0) {
            Py_DECREF(flags);
            return -1;
        }
        g->active[seat] = (unsigned char)truth;
        g->num_active += truth;
    }
    Py_DECREF(flags);
    PyObject *out = ki_field(state, "out_order");
    if (out == NULL) return -1;
    unsigned char out_seats[MAX_SEATS], went_out[MAX_SEATS] = {0};
    int failed = ki_card_list(out, g->n, out_seats, &g->out_len, "out_order") < 0;
    Py_DECREF(out);
    if (failed) return -1;
    for (int i = 0; i < g->out_len; i++) {
        g->out_order[i] = out_seats[i];
        if (g->active[out_seats[i]] || went_out[out_seats[i]]++) {
            PyErr_SetString(PyExc_ValueError, "out_order: a seat still active or out twice");
            return -1;
        }
    }
    g->category = (int)category;
    g->phase = (int)phase;
    g->player = (int)player;
    g->layer = (int)layer;
    g->layer_emptied = (int)emptied;
    g->top3_claim = (int)top3;
    g->lie_card = (int)lie_card;
    g->lie_category = (int)lie_category;
    g->finished = (int)finished;
    g->actions = actions;
    g->turns = turns;
    g->keep_reads = self->keep_reads;
    ki_index(g);
    int playing = !g->finished && g->actions < rules->action_cap;
    if (playing && (g->num_active < 2 || !g->active[g->player] ||
                    (g->phase == PHASE_CHALLENGE && (g->layer < 0 || g->pile_len == 0)) ||
                    (g->pile_len > 0 && (g->claim_plant < 0 || g->category < 0)) ||
                    (g->phase == PHASE_CLAIM && (g->lie_card < 0 || g->lie_category < 0)))) {
        PyErr_SetString(PyExc_ValueError, "not a position of a game in play");
        return -1;
    }
    if (playing && g->phase == PHASE_CLAIM && self->seat_bot[g->player] == KI_GREEDY) {
        PyErr_SetString(PyExc_ValueError, "the greedy bot never names a lie");
        return -1;
    }
    return 0;
}

/* (finished, order, loser, actions, rounds, the actions played or None, each seat's
   len(remaining_cards(seat)): the cards in its hand) */
static PyObject *ki_playout_result(KiCore *self, Py_ssize_t logged, int record) {
    const ki_game *g = &self->game;
    const int loser = ki_loser(g);
    PyObject *order = PyList_New(g->out_len);
    PyObject *played = record ? PyList_New(logged) : Py_NewRef(Py_None);
    PyObject *held = PyList_New(g->n);
    PyObject *result = NULL;
    if (order == NULL || played == NULL || held == NULL) goto done;
    for (int i = 0; i < g->out_len; i++) {
        PyObject *seat = PyLong_FromLong(g->out_order[i]);
        if (seat == NULL) goto done;
        PyList_SET_ITEM(order, i, seat);
    }
    for (int seat = 0; seat < g->n; seat++) {
        PyObject *count = PyLong_FromLong(g->hand_len[seat]);
        if (count == NULL) goto done;
        PyList_SET_ITEM(held, seat, count);
    }
    for (Py_ssize_t i = 0; record && i < logged; i++) {
        PyObject *action = ki_action_object(self->rules, &self->log[i]);
        if (action == NULL) goto done;
        PyList_SET_ITEM(played, i, action);
    }
    long long rounds = (g->turns + g->n - 1) / g->n;
    if (loser >= 0) {
        result = Py_BuildValue("(OOiLLOO)", Py_True, order, loser, g->actions, rounds, played,
                               held);
    } else {
        result = Py_BuildValue("(OOOLLOO)", g->finished ? Py_True : Py_False, order, Py_None,
                               g->actions, rounds, played, held);
    }
done:
    Py_XDECREF(order);
    Py_XDECREF(played);
    Py_XDECREF(held);
    return result;
}

/* The legal actions of the loaded position, as KraftidiotenState.legal_actions lists
   them (a claim's false claims from the floor up, then its lies by figure; the turn's
   from ki_turn_actions). Returns their count. */
static int ki_legal(const ki_game *g, ki_action *legal) {
    const KiRules *rules = g->rules;
    if (g->finished || g->actions >= rules->action_cap) return 0;
    if (g->phase == PHASE_CHALLENGE) {
        legal[0] = ki_listed(rules->challenge_action, KI_CHALLENGE, -1, -1, -1);
        legal[1] = ki_listed(rules->pass_action, KI_PASS, -1, -1, -1);
        return 2;
    }
    if (g->phase == PHASE_CLAIM) {
        int card = g->lie_card, category = g->lie_category, count = 0;
        int start = ki_false_start(rules, category, card, g->floor);
        for (int at = start; at < rules->false_count[category][card]; at++) {
            legal[count++] = ki_listed(rules->false_action[category][card][at], KI_LAY, card,
                                       category, rules->false_plant[category][card][at]);
        }
        for (int i = 0; i < rules->num_plants; i++) {
            int plant = rules->plants[i];
            legal[count] = ki_listed(NULL, KI_LAY_FIGURE, card, category, plant);
            legal[count++].figure =
                ki_lowest_figure_lie(g->floor, rules->claim_figures[category][plant]);
        }
        return count;
    }
    return ki_turn_actions(g, legal);
}

/* Applies first, one of the position's legal actions (a Python action), as
   KraftidiotenState.apply does, drawing from the game's generator; not logged. Returns -1
   with a Python exception set when it is not legal here. */
static int ki_first(KiCore *self, PyObject *first) {
    ki_game *g = &self->game;
    ki_action legal[KI_MAX_LEGAL + KI_MAX_CARDS];
    int count = ki_legal(g, legal);
    for (int i = 0; i < count; i++) {
        PyObject *action = ki_action_object(self->rules, &legal[i]);
        if (action == NULL) return -1;
        int same = PyObject_RichCompareBool(action, first, Py_EQ);
        Py_DECREF(action);
        if (same < 0) return -1;
        if (same) {
            if (ki_apply(g, &legal[i]) < 0) return -1;
            if (g->broken != NULL) {
                PyErr_Format(PyExc_RuntimeError, "kraftidioten native core: %s", g->broken);
                return -1;
            }
            return 0;
        }
    }
    PyErr_SetString(PyExc_ValueError, "first: not a legal action of the position");
    return -1;
}

/* playouts.python_playout: the state's chance draws from Random(seed) (first's included,
   applied here before the bots play on; the actions logged are those after it), seat s's
   bot from LazyRandom(derive_seed(seed, s + 1)). */
static PyObject *KiCore_playout(KiCore *self, PyObject *args) {
    PyObject *state, *seed_object, *first = Py_None;
    int record;
    uint64_t seed;
    if (!PyArg_ParseTuple(args, "OOp|O:playout", &state, &seed_object, &record, &first) ||
        ki_seed_arg(seed_object, &seed) < 0 || ki_enter(self) < 0) {
        return NULL;
    }
    PyObject *result = NULL;
    if (ki_load_position(self, state) == 0) {
        ks_random_lazy(&self->game_rng, seed);
        for (int seat = 0; seat < self->num_seats; seat++) {
            ks_random_lazy(&self->seat_rng[seat], ks_derive_seed(seed, (uint64_t)seat + 1));
            self->seat_draws[seat] = &self->seat_rng[seat];
        }
        /* first draws from Random(seed), as the Python engine's reseeded copy does */
        if (first == Py_None || ki_first(self, first) == 0) {
            Py_ssize_t logged = ki_loop(self);
            if (logged >= 0) result = ki_playout_result(self, logged, record);
        }
    }
    self->busy = 0;
    return result;
}

static PyObject *KiCore_play(KiCore *self, PyObject *seed_object) {
    uint64_t seed;
    if (ki_seed_arg(seed_object, &seed) < 0 || ki_enter(self) < 0) return NULL;
    PyObject *run = ki_play(self, seed);
    self->busy = 0;
    return run;
}

/* play_chunk(series, start, stop): games start .. stop - 1 of the series, game i played
   as play(derive_seed(series, i)) plays it, as a NativeChunk (ks_chunk.h). */
static PyObject *KiCore_play_chunk(KiCore *self, PyObject *args) {
    uint64_t series;
    long long start, stop;
    if (ks_chunk_args(args, &series, &start, &stop) < 0) return NULL;
    ks_chunk *chunk = ks_chunk_open((Py_ssize_t)(stop - start), self->rules->num_cards);
    if (chunk == NULL) return NULL;
    PyObject *result = NULL;
    /* Every seat may draw (ki_play_game): the game's generator and the seats', of several
     * games seeded side by side (those that drew in the last games, ks_chunk_seeds). */
    ks_chunk_seeds seeds = {0};
    if (ks_chunk_seeds_open(&seeds, (1U << self->num_seats) - 1U) < 0) goto done;
    if (ki_enter(self) < 0) goto done;
    self->unlogged = 1;
    for (long long index = start; index < stop; index += seeds.games) {
        int games = ks_chunk_seed_next(&seeds, series, index, stop);
        for (int g = 0; g < games; g++) {
            ks_random *dealt = ks_chunk_seeded(&seeds, g, -1);
            for (int seat = 0; seat < self->num_seats; seat++) {
                ks_random *r = ks_chunk_seeded(&seeds, g, seat);
                if (r == NULL) {
                    r = &self->seat_rng[seat];
                    ks_random_lazy(r, ks_derive_seed(dealt->seed, (uint64_t)seat + 1));
                }
                self->seat_draws[seat] = r;
            }
            if (ki_play_seeded(self, dealt) < 0) {
                self->busy = self->unlogged = 0;
                goto done;
            }
            ki_chunk_game(chunk, self);
            for (int seat = 0; seat < self->num_seats; seat++)
                ks_chunk_drawn(&seeds, seat, self->seat_draws[seat]);
        }
    }
    self->busy = self->unlogged = 0;
    result = ks_chunk_result(chunk, COUNTER_KEYS, NULL);
done:
    ks_chunk_seeds_close(&seeds);
    ks_chunk_close(chunk);
    return result;
}

/* game.new_initial_state(Random(seed)).card_locations() */
static PyObject *ki_dealt(KiCore *self, uint64_t seed) {
    ki_game *g = &self->game;
    ks_random_seed(&self->game_rng, seed);
    ki_start(g, self->rules, &self->game_rng, 0);
    if (g->broken != NULL) {
        PyErr_Format(PyExc_RuntimeError, "kraftidioten native core: %s", g->broken);
        return NULL;
    }
    PyObject *places = PyDict_New();
    if (places == NULL) return NULL;
    PyObject *stock = ki_card_pylist(g->stock, g->stock_len);
    if (stock == NULL || PyDict_SetItemString(places, "stock", stock) < 0) goto fail_with_stock;
    Py_DECREF(stock);
    PyObject *pile = ki_card_pylist(g->pile, g->pile_len);
    if (pile == NULL || PyDict_SetItemString(places, "pile", pile) < 0) {
        Py_XDECREF(pile);
        goto fail;
    }
    Py_DECREF(pile);
    for (int seat = 0; seat < g->n; seat++) {
        char key[16];
        PyOS_snprintf(key, sizeof(key), "hand:%d", seat);
        PyObject *hand = ki_card_pylist(g->hands[seat], g->hand_len[seat]);
        if (hand == NULL || PyDict_SetItemString(places, key, hand) < 0) {
            Py_XDECREF(hand);
            goto fail;
        }
        Py_DECREF(hand);
    }
    PyObject *burned = ki_card_pylist(g->burned, g->burned_len);
    if (burned == NULL || PyDict_SetItemString(places, "burned", burned) < 0) {
        Py_XDECREF(burned);
        goto fail;
    }
    Py_DECREF(burned);
    return places;
fail_with_stock:
    Py_XDECREF(stock);
fail:
    Py_DECREF(places);
    return NULL;
}

static PyObject *KiCore_deal(KiCore *self, PyObject *seed_object) {
    uint64_t seed;
    if (ki_seed_arg(seed_object, &seed) < 0 || ki_enter(self) < 0) return NULL;
    PyObject *places = ki_dealt(self, seed);
    self->busy = 0;
    return places;
}

static PyMethodDef KiCore_methods[] = {
    {"play", (PyCFunction)KiCore_play, METH_O,
     PyDoc_STR("play(seed) -> (actions, finished, order, loser, rounds, counters, samples, "
               "cards_played, loser_cards): play_game's game, played natively.")},
    {"deal", (PyCFunction)KiCore_deal, METH_O,
     PyDoc_STR("deal(seed) -> game.new_initial_state(Random(seed)).card_locations()")},
    {"play_chunk", (PyCFunction)KiCore_play_chunk, METH_VARARGS,
     PyDoc_STR("play_chunk(series, start, stop) -> NativeChunk: games start .. stop - 1 of "
               "the series, game i the one play(derive_seed(series, i)) plays, as the "
               "chunk's rows and sums.")},
    {"playout", (PyCFunction)KiCore_playout, METH_VARARGS,
     PyDoc_STR("playout(state, seed, record, first=None) -> (finished, order, loser, "
               "actions, rounds, played, held): the state played on as "
               "playouts.python_playout plays it.")},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject KiCoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kraftstokk.games.kraftidioten._fastcore.Core",
    .tp_doc = PyDoc_STR("Kraftidioten played natively for greedy, random and heuristic seats."),
    .tp_basicsize = sizeof(KiCore),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = KiCore_new,
    .tp_dealloc = (destructor)KiCore_dealloc,
    .tp_methods = KiCore_methods,
};

static struct PyModuleDef ki_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "kraftstokk.games.kraftidioten._fastcore",
    .m_doc = PyDoc_STR("Kraftidioten's native core (see fast.py)."),
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__fastcore(void) {
    if (PyType_Ready(&KiRulesType) < 0 || PyType_Ready(&KiCoreType) < 0) return NULL;
    for (int i = 0; i < COUNTER_COUNT; i++) {
        if (COUNTER_KEYS[i] == NULL) {
            COUNTER_KEYS[i] = PyUnicode_InternFromString(COUNTER_TEXT[i]);
            if (COUNTER_KEYS[i] == NULL) return NULL;
        }
    }
    PyObject *module = PyModule_Create(&ki_module);
    if (module == NULL) return NULL;
    if (PyModule_AddIntConstant(module, "GREEDY", KI_GREEDY) < 0 ||
        PyModule_AddIntConstant(module, "RANDOM", KI_RANDOM) < 0 ||
        PyModule_AddIntConstant(module, "HEURISTIC", KI_HEURISTIC) < 0 ||
        PyModule_AddIntConstant(module, "MAX_PENALTY", KI_MAX_SAMPLE) < 0 ||
        PyModule_AddIntConstant(module, "MAX_CARDS", KI_MAX_CARDS) < 0 ||
        PyModule_AddObjectRef(module, "Rules", (PyObject *)&KiRulesType) < 0 ||
        PyModule_AddObjectRef(module, "Core", (PyObject *)&KiCoreType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
