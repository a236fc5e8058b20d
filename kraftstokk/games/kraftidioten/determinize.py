"""Kraftidioten positions consistent with what one seat has seen, for the expert's playouts.

What a seat has not seen: the cards under the other seats' claims, the other hands, the
stock and the burned cards. They are dealt from the seat's beliefs:

* A claim drawn from the stock is true by rule (KI-4b); a claim of a figure the named
  plant does not print is a lie (KI-4c), made, as a person stuck for a card does, with
  the card of that plant itself when it may be.
* Any other claim is true with the chance that its layer held the plant rather than
  lied: the chance that one of its cards could beat the claim before it (the share of
  the unseen plants that do, over the cards it held), against the chance that it lied
  rather than drew (``OPPONENT_BLUFF``), raised to ``SEEN_THERE`` when the plant was
  last shown going to that layer. (A plant shown going to another seat says little:
  piles change hands unseen, and a careful liar names no plant that was shown.) A lie
  is laid with an unseen card that could not beat the claim.
* A card shown going to a seat (a pile taken, a challenge lost) is in that seat's hand
  while it has room, a card shown burning among the burned cards; the rest is random.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from kraftstokk.games.core import Action, Game, State
from kraftstokk.games.kraftidioten.actions import PHASE_CLAIM
from kraftstokk.games.kraftidioten.observation import Claim, KraftidiotenObservation
from kraftstokk.games.kraftidioten.rules import BURNED, NO_CATEGORY, is_lie
from kraftstokk.games.kraftidioten.state import KraftidiotenGame, KraftidiotenState

#: How often a stuck opponent lies rather than draws (the heuristic bot's default).
OPPONENT_BLUFF = 0.7
SEEN_THERE = 0.95
#: Tries at drawing an unseen card that could not have beaten a claim, before any card.
_LIE_CARD_TRIES = 8


def truth_belief(
    game: KraftidiotenGame,
    observation: KraftidiotenObservation,
    index: int,
    unseen_plants: Sequence[int],
) -> float:
    """The chance that the claim at ``index`` on the pile is true, as the seat sees it."""
    obs = observation
    claim = obs.claims[index]
    where = obs.last_shown[claim.plant]
    if where == claim.seat:
        return SEEN_THERE
    floor = obs.claims[index - 1].figure if index else -1.0
    figures = game.claim_figures[obs.category]
    beating = sum(1 for card in unseen_plants if figures[card] >= floor)
    share = beating / len(unseen_plants) if unseen_plants else 0.0
    held = obs.hand_counts[claim.seat] + (0 if obs.stock_count else 1)
    could = 1.0 - (1.0 - share) ** max(1, held)
    return could / (could + (1.0 - could) * OPPONENT_BLUFF) if could else 0.0


def determinize(
    game: Game,
    observation: KraftidiotenObservation,
    legal: Sequence[Action],
    rng: random.Random,
) -> State | None:
    """A position drawn from the seat's beliefs, the seat to act as in the true one."""
    if not isinstance(game, KraftidiotenGame):
        return None
    obs = observation
    joker = game.table.joker
    claims = obs.claims
    pile = [-1] * len(claims)
    for index, card in obs.own_cards_on_pile:
        pile[index] = card
    for index, claim in enumerate(claims):
        if claim.from_stock:
            pile[index] = claim.plant
    known = set(obs.hand)
    known.update(card for card in pile if card >= 0)
    unseen = [card for card in range(game.table.size) if card not in known]
    pool = set(unseen)
    unseen_plants = [card for card in unseen if not joker[card]]
    for index, claim in enumerate(claims):
        if pile[index] < 0:
            pile[index] = _card_under(game, obs, index, claim, pool, unseen_plants, rng)
            pool.discard(pile[index])
    hands, burned, stock = _deal_rest(obs, sorted(pool), rng)
    state = KraftidiotenState(game, random.Random(rng.getrandbits(32)), deal=False)
    state.hands = hands
    state.stock = stock
    state.pile = pile
    state.claims = list(claims)
    state.burned = burned
    state.shown = obs.shown
    state.last_shown = obs.last_shown
    state.category = obs.category
    state.floor = obs.floor if obs.floor is not None else -1.0
    state.active = list(obs.active)
    state.num_active = sum(obs.active)
    state.out_order = list(obs.out_order)
    state.active_view = obs.active
    state.out_view = obs.out_order
    state.phase = int(obs.phase)
    state.player = obs.to_act
    state.layer = obs.layer
    state.layer_emptied = obs.layer >= 0 and obs.hand_counts[obs.layer] == 0
    state.top3_claim = obs.claim_is_top3
    if state.phase == PHASE_CLAIM:
        state.lie_card = obs.lie_card
        state.lie_category = legal[0][2]
    else:
        state.lie_category = NO_CATEGORY
    return state


def _card_under(
    game: KraftidiotenGame,
    obs: KraftidiotenObservation,
    index: int,
    claim: Claim,
    pool: set[int],
    unseen_plants: Sequence[int],
    rng: random.Random,
) -> int:
    """The card under another seat's claim, drawn from the seat's beliefs."""
    plant = claim.plant
    figures = game.claim_figures[obs.category]
    open_lie = is_lie(plant, plant, claim.figure, figures)
    if plant in pool and (open_lie or rng.random() < truth_belief(game, obs, index, unseen_plants)):
        return plant
    floor = obs.claims[index - 1].figure if index else -1.0
    joker = game.table.joker
    choices = [card for card in pool if not joker[card] and card != plant]
    if not choices:  # the beliefs leave no card: any plant the seat has not placed
        choices = [card for card in pool if not joker[card]] or sorted(pool)
    choices.sort()
    card = choices[0]
    for _ in range(_LIE_CARD_TRIES):
        card = choices[int(rng.random() * len(choices))]
        if figures[card] < floor:
            break
    return card


def _deal_rest(
    obs: KraftidiotenObservation, pool: list[int], rng: random.Random
) -> tuple[list[list[int]], list[int], list[int]]:
    """The other hands, the burned cards and the stock, from the cards left unplaced."""
    room = [0 if seat == obs.seat else count for seat, count in enumerate(obs.hand_counts)]
    hands: list[list[int]] = [[] for _ in range(obs.num_players)]
    burned: list[int] = []
    rest: list[int] = []
    for card in pool:
        where = obs.last_shown[card]
        if where >= 0 and len(hands[where]) < room[where]:
            hands[where].append(card)
        elif where == BURNED and len(burned) < obs.burned_count:
            burned.append(card)
        else:
            rest.append(card)
    rng.shuffle(rest)
    taken = 0
    for seat, hand in enumerate(hands):
        need = room[seat] - len(hand)
        hand.extend(rest[taken : taken + need])
        taken += need
    need = obs.burned_count - len(burned)
    burned.extend(rest[taken : taken + need])
    stock = rest[taken + need :]
    hands[obs.seat] = list(obs.hand)
    return hands, burned, stock
