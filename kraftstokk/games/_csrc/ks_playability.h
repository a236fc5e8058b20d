/* A game's choice and drama, counted as a core plays it: games/playability.py's Meter in C.
 *
 * Include after ks_game.h, which names the figures (PLAY_CHOICES ... PLAY_FIGURE_COUNT,
 * in the order of playability.FIGURES), MAX_SEATS and LOSER_STAKE (1 in a game played
 * not to be the loser: spec.objective "not_loser"). A core tells the meter of every
 * decision (the distinct moves the seat has, and whether it answers out of turn) and of
 * every position after an action (each seat's progress, the game's own measure, as its
 * State.progress gives it), exactly where the Python engine's play_out loop tells its
 * Meter, and returns the figures and the branching counts as Python lists. The module
 * docstring of games/playability.py says what each figure is; the code below follows
 * Meter's methods line for line.
 */
#ifndef KS_PLAYABILITY_H
#define KS_PLAYABILITY_H

#include <Python.h>
#include <stdint.h>

/* More distinct moves than any core lists (each core checks its MAX_LEGAL against it). */
#define KS_MAX_BRANCHING 2049

typedef struct {
    int players;
    long long answers, answer_choices, lead_changes;
    int leader;
    long long settled;
    long long decided;
    uint8_t behind[MAX_SEATS];
    /* which seats have had a turn since the last comparison, and whose turn it is */
    uint8_t had_turn[MAX_SEATS];
    int turn_seat;
    /* the position measured last (each seat's progress, the seats out; -1: none yet) */
    long progress[MAX_SEATS];
    int last_out;
    /* branching[d]: decisions with d distinct moves (d >= 2); entries above top are not
     * used yet and are zeroed as top grows, so a meter on the stack needs no wide memset */
    int top;
    uint32_t branching[KS_MAX_BRANCHING];
} ks_meter;

/* Meter.__init__ */
static inline void ks_meter_start(ks_meter *m, int players) {
    m->players = players;
    m->answers = m->answer_choices = m->lead_changes = 0;
    m->leader = -1;
    m->settled = 0;
    m->decided = -1;
    for (int seat = 0; seat < MAX_SEATS; seat++) m->behind[seat] = 0;
    for (int seat = 0; seat < MAX_SEATS; seat++) m->had_turn[seat] = 0;
    m->turn_seat = -1;
    for (int seat = 0; seat < MAX_SEATS; seat++) m->progress[seat] = 0;
    m->last_out = -1; /* the deal is always measured */
    m->top = 1; /* as Python's list: index 0 and 1 hold nothing */
    m->branching[0] = m->branching[1] = 0;
}

/* Meter._compare: the standings at a round end (the position measured last, m->progress,
 * after `actions` actions): who is behind, and whether the lead changed. */
static void ks_meter_compare(ks_meter *m, long long actions) {
    int seats = m->players;
    long best = 0;
    int on_top = 0, top = -1;
    for (int seat = 0; seat < seats; seat++) {
        long value = LOSER_STAKE ? -m->progress[seat] : m->progress[seat];
        if (top < 0 || value > best) {
            best = value;
            on_top = 1;
            top = seat;
        } else if (value == best) {
            on_top++;
        }
    }
    for (int seat = 0; seat < seats; seat++) {
        long value = LOSER_STAKE ? -m->progress[seat] : m->progress[seat];
        if (value < best) m->behind[seat] = 1;
    }
    if (on_top == 1 && top != m->leader) {
        if (m->leader >= 0) m->lead_changes++;
        m->leader = top;
        m->settled = actions;
    }
}

/* Meter._turn: `seat` begins a turn after `actions` actions; a round has ended if it has
 * had one since the last comparison. */
static void ks_meter_turn(ks_meter *m, int seat, long long actions) {
    m->turn_seat = seat;
    if (m->had_turn[seat]) {
        ks_meter_compare(m, actions);
        for (int other = 0; other < m->players; other++) m->had_turn[other] = 0;
    }
    m->had_turn[seat] = 1;
}

/* Meter.decision: `seat` to act with `distinct` distinct moves after `actions` actions;
 * `answer`: out of turn. A core tells every decision, forced ones too (they are turns).
 * (The choices and their options are the branching counts added up, at the end.) */
static inline void ks_meter_decision(ks_meter *m, int distinct, int answer, int seat,
                                     long long actions) {
    if (answer) {
        m->answers++;
    } else if (seat != m->turn_seat) {
        ks_meter_turn(m, seat, actions);
    }
    if (distinct < 2) return;
    if (answer) m->answer_choices++;
    if (distinct >= KS_MAX_BRANCHING) distinct = KS_MAX_BRANCHING - 1; /* never: MAX_LEGAL */
    while (m->top < distinct) m->branching[++m->top] = 0;
    m->branching[distinct]++;
}

/* Meter.moved for the position after `actions` actions, whose progress the core has put
 * in m->progress[seat] (as State.progress gives it; ks_meter_progress below) with `out`
 * seats gone out (State.seats_out); the standings are compared at the next round end
 * (ks_meter_turn). A position whose progress and seats out are those of the last one
 * changes nothing, so the core may skip the call then. */
static void ks_meter_moved(ks_meter *m, int out, long long actions) {
    m->last_out = out;
    if (m->decided < 0 && !LOSER_STAKE && out > 0) m->decided = actions;
}

/* A seat's progress in the position to measure; returns whether it differs from the last
 * position's (a core sets every seat's, then calls ks_meter_moved when any differed or
 * the seats out did). */
static inline int ks_meter_progress(ks_meter *m, int seat, long progress) {
    if (m->progress[seat] == progress) return 0;
    m->progress[seat] = progress;
    return 1;
}

/* Meter.figures: the game's figures (PLAY_FIGURE_COUNT of them, in FIGURES' order) into
 * `values`, once it has ended (or the action cap stopped it); `first_out`: the winner (-1:
 * nobody went out), `loser`: -1 unless the game finished with one, `cards_laid`: its
 * cards_played added up. */
static void ks_meter_values(const ks_meter *m, int finished, int first_out, int loser,
                            long long actions, long long cards_laid, int64_t *values) {
    int target;
    long long decided;
    if (LOSER_STAKE) {
        target = finished ? loser : -1;
        decided = finished ? actions : 0;
    } else {
        target = first_out;
        decided = m->decided > 0 ? m->decided : 0;
    }
    long long choices = 0, options = 0;
    for (int d = 2; d <= m->top; d++) {
        choices += m->branching[d];
        options += (long long)d * m->branching[d];
    }
    values[PLAY_CHOICES] = choices;
    values[PLAY_OPTIONS] = options;
    values[PLAY_ANSWERS] = m->answers;
    values[PLAY_ANSWER_CHOICES] = m->answer_choices;
    values[PLAY_LEAD_CHANGES] = m->lead_changes;
    values[PLAY_COMEBACK] = finished && target >= 0 && m->behind[target];
    values[PLAY_SETTLED] = m->settled;
    values[PLAY_DECIDED] = decided;
    values[PLAY_CARDS_LAID] = cards_laid;
}

/* ks_meter_values as a Python list; NULL with an exception set on failure. */
static PyObject *ks_meter_figures(const ks_meter *m, int finished, int first_out, int loser,
                                  long long actions, long long cards_laid) {
    int64_t values[PLAY_FIGURE_COUNT];
    ks_meter_values(m, finished, first_out, loser, actions, cards_laid, values);
    PyObject *list = PyList_New(PLAY_FIGURE_COUNT);
    if (list == NULL) return NULL;
    for (int i = 0; i < PLAY_FIGURE_COUNT; i++) {
        PyObject *value = PyLong_FromLongLong(values[i]);
        if (value == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, value);
    }
    return list;
}

/* Meter.branching: a pair (distinct moves, decisions) per count of distinct moves that
 * occurred, rising, as the bytes of an array("q") (native int64); empty when no decision
 * was a real choice. */
static PyObject *ks_meter_branching(const ks_meter *m) {
    Py_ssize_t pairs = 0;
    for (int d = 2; d <= m->top; d++) pairs += m->branching[d] != 0;
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, 2 * pairs * (Py_ssize_t)sizeof(int64_t));
    if (bytes == NULL) return NULL;
    int64_t *out = (int64_t *)PyBytes_AS_STRING(bytes);
    for (int d = 2; d <= m->top; d++) {
        if (m->branching[d]) {
            *out++ = d;
            *out++ = m->branching[d];
        }
    }
    return bytes;
}

#endif /* KS_PLAYABILITY_H */
