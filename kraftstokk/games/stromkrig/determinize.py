"""Strømkrig positions consistent with what one seat has seen, for the expert's playouts.

Every card but the hands and the stock lies face up, so what a seat has not seen is the
other hands and the stock: those cards are dealt at random into them, as many as each
holds. A war in progress is left to the playout policy (``None``): its queue of seats
still to be asked is not part of an observation.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from kraftstokk.games.core import Action, Game, State
from kraftstokk.games.ordering import sort_by
from kraftstokk.games.stromkrig.actions import CHOOSE, PLAY, StromkrigPhase
from kraftstokk.games.stromkrig.observation import StromkrigObservation
from kraftstokk.games.stromkrig.state import StromkrigGame, StromkrigState

_PHASES = {StromkrigPhase.PLAY: PLAY, StromkrigPhase.CHOOSE: CHOOSE}


def determinize(
    game: Game, observation: StromkrigObservation, legal: Sequence[Action], rng: random.Random
) -> State | None:
    """A turn (or a chance card's choice) the seat cannot tell from the true one."""
    phase = _PHASES.get(observation.phase)
    if phase is None or not isinstance(game, StromkrigGame):
        return None
    obs = observation
    seen = set(obs.hand)
    seen.update(obs.pile)
    seen.update(obs.beside)
    seen.update(obs.burned)
    if obs.chance_card >= 0:
        seen.add(obs.chance_card)
    unseen = [card for card in range(game.table.size) if card not in seen]
    rng.shuffle(unseen)
    hands: list[list[int]] = []
    taken = 0
    for seat, count in enumerate(obs.hand_counts):
        if seat == obs.seat:
            hands.append(list(obs.hand))
            continue
        hand = unseen[taken : taken + count]
        taken += count
        sort_by(hand, game.hand_order)
        hands.append(hand)
    stock = unseen[taken:]
    state = StromkrigState(
        game, random.Random(rng.getrandbits(32)), hands, stock, obs.current_player
    )
    state.pile = list(obs.pile)
    state.beside = list(obs.beside)
    state.burned = list(obs.burned)
    state.top = obs.top
    state.top_owner = obs.top_owner
    state.chance_card = obs.chance_card
    state.phase = phase
    state.out = list(obs.out)
    # The order the seats went out in is not shown; the playout needs only who is out.
    state.order = [seat for seat, out in enumerate(obs.out) if out]
    return state
