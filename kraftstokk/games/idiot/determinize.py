"""Idiot positions consistent with what one seat has seen, for the expert's playouts.

A seat sees its hand, every face-up row, the pile, the cards it saw go into the other
hands (picked up with the pile, swapped in from a face-up row: ``known_in_hand``) and the
counts of everything else. Those known cards stay in their hands; the cards it has not
seen (the rest of the other hands, every face-down row, its own included, the stock and
the burned cards) are dealt at random into those places, as many as each holds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from kraftstokk.games.core import Action, Game, State
from kraftstokk.games.idiot.actions import IdiotPhase
from kraftstokk.games.idiot.observation import IdiotObservation
from kraftstokk.games.idiot.state import IdiotGame, IdiotState


def determinize(
    game: Game, observation: IdiotObservation, legal: Sequence[Action], rng: random.Random
) -> State | None:
    """A play-phase position the seat cannot tell from the true one; None while swapping."""
    if observation.phase != IdiotPhase.PLAYING or not isinstance(game, IdiotGame):
        return None
    obs = observation
    seen = set(obs.hand)
    seen.update(obs.pile)
    for face_up in obs.face_up_rows:
        seen.update(face_up)
    for known in obs.known_in_hand:
        seen.update(known)
    unseen = [card for card in game.plant_cards if card not in seen]
    rng.shuffle(unseen)
    taken = 0

    def deal(count: int) -> list[int]:
        nonlocal taken
        cards = unseen[taken : taken + count]
        taken += count
        return cards

    slots = game.parameters.hand_size
    hands: list[list[int]] = []
    face_down: list[list[int]] = []
    for seat in range(obs.num_players):
        if seat == obs.seat:
            hands.append(list(obs.hand))
        else:
            known = obs.known_in_hand[seat]
            hands.append([*known, *deal(obs.hand_counts[seat] - len(known))])
        row = [-1] * slots
        if seat == obs.seat:
            for slot, card in zip(obs.face_down_slots, deal(len(obs.face_down_slots)), strict=True):
                row[slot] = card
        else:
            for slot, card in enumerate(deal(obs.face_down_counts[seat])):
                row[slot] = card
        face_down.append(row)
    stock = deal(obs.stock_count)
    state = IdiotState.from_position(
        game,
        hands=hands,
        face_up=[list(row) for row in obs.face_up_rows],
        face_down=face_down,
        stock=stock,
        pile=obs.pile,
        player=obs.current_player,
        seed=rng.getrandbits(32),
    )
    # What the position's own fields say and a play-phase setup cannot: the rank to
    # reach (after a 2 or a burn), a run in progress, the order the seats went out in.
    state._need = obs.need
    state._run = obs.run_rank
    state._order = list(obs.out)
    state._known = [list(known) for known in obs.known_in_hand]
    return state
