"""What an Idiot table says: the values of its events, moves and views (words: events.toml).

Every card Idiot lays is face up, so its events tell every card to every seat; a seat's
own hand is told only in its own view.
"""

from __future__ import annotations

from kraftstokk.errors import GameError
from kraftstokk.games.core import Action
from kraftstokk.games.events import Event
from kraftstokk.games.idiot.actions import (
    CHANCE,
    END_RUN,
    FACE_DOWN,
    PASS,
    PLAY,
    READY,
    SNEAK,
    SWAP,
    TAKE,
    IdiotPhase,
)
from kraftstokk.games.idiot.events import (
    BurnCause,
    Burned,
    ChanceDrawn,
    FaceDownTurned,
    Laid,
    Passed,
    PileTaken,
    Reset,
    RunEnded,
    SneakedUnder,
    Starts,
    Swapped,
    SwapsDone,
)
from kraftstokk.games.idiot.observation import IdiotObservation
from kraftstokk.games.idiot.rules import TWO, rank_name
from kraftstokk.games.narration import Narrator, Values

_CAUSES = {BurnCause.TEN: "ten", BurnCause.SAME_RANK: "same_rank"}
_PHASES = {
    IdiotPhase.SWAPPING: "swapping",
    IdiotPhase.PLAYING: "playing",
    IdiotPhase.OVER: "over",
}


def event_values(event: Event, n: Narrator) -> Values | None:
    """The values of an Idiot event's sentence (the seat is added by the narrator)."""
    if isinstance(event, Swapped):
        return {"hand_card": n.card(event.hand_card), "face_up_card": n.card(event.face_up_card)}
    if isinstance(event, Laid):
        return {"cards": n.cards(event.cards), "from_face_up": event.from_face_up}
    if isinstance(event, SneakedUnder):
        return {"cards": n.cards(event.cards)}
    if isinstance(event, FaceDownTurned | ChanceDrawn):
        return {"card": n.card(event.card), "played": event.played}
    if isinstance(event, PileTaken):
        taken = "pile" if event.size else "card"
        return {"taken": taken, "size": event.size, "with_card": event.with_card}
    if isinstance(event, Burned):
        return {
            "cause": _CAUSES[event.cause],
            "stacked": event.stacked,
            "size": event.size,
            "again": event.again,
        }
    if isinstance(event, Reset):
        return {"same_player": event.same_player}
    if isinstance(event, SwapsDone | Starts | RunEnded | Passed):
        return {}
    return None


def action_text(
    action: Action, n: Narrator, ranks: tuple[int, ...], from_face_up: bool, pile_size: int
) -> str:
    """The action in words for the player choosing it (their own cards are named)."""
    kind = action[0]
    if kind in (PLAY, SNEAK):
        cards = action[1:]
        return n.say(
            f"idiot.moves.{'sneak' if kind == SNEAK else 'play'}",
            count="many" if len(cards) > 1 else "one",
            number=len(cards),
            rank=rank_name(ranks[cards[0]]),
            from_face_up=from_face_up,
            cards=n.cards(cards),
        )
    if kind == FACE_DOWN:
        return n.say("idiot.moves.face_down", slot=action[1] + 1)
    if kind == TAKE:
        return n.say("idiot.moves.take", size=pile_size)
    if kind == SWAP:
        return n.say(
            "idiot.moves.swap", hand_card=n.card(action[1]), face_up_card=n.card(action[2])
        )
    words = {CHANCE: "chance", READY: "ready", END_RUN: "end_run", PASS: "pass"}
    if kind in words:
        return n.say(f"idiot.moves.{words[kind]}")
    raise GameError(f"idiot: unknown action {list(action)}")


def view_lines(obs: IdiotObservation, n: Narrator) -> list[str]:
    """The seat's view in words (its own hand, the table, everyone's counts)."""
    ranks = obs.ranks

    def cards(seq: tuple[int, ...]) -> str:
        if not seq:
            return n.cards(seq)
        return n.listing(
            [
                n.say("idiot.words.ranked_card", rank=rank_name(ranks[c]), card=n.card(c))
                for c in seq
            ]
        )

    phase = n.say(f"idiot.words.phases.{_PHASES[obs.phase]}")
    lines = [n.say("idiot.view.you", number=obs.seat + 1, phase=phase)]
    if obs.pile:
        top = obs.pile[-1]
        lines.append(
            n.say(
                "idiot.view.pile",
                size=len(obs.pile),
                rank=rank_name(ranks[top]),
                card=n.card(top),
                stacked="more" if obs.top_count > 1 else "one",
                count=obs.top_count,
                reset=ranks[top] == TWO,
            )
        )
    else:
        lines.append(n.say("idiot.view.empty_pile"))
    lines.append(n.say("table.view.counts", stock=obs.stock_count, burned=obs.burned_count))
    for seat in range(obs.num_players):
        seat_line = n.say(
            "idiot.view.seat",
            seat=n.person(seat),
            out=seat in obs.out,
            hand=obs.hand_counts[seat],
            face_down=obs.face_down_counts[seat],
            face_up=cards(obs.face_up_rows[seat]),
        )
        lines.append(f"  {seat_line}")
    lines.append(n.say("idiot.view.hand", cards=cards(obs.hand)))
    if obs.run_rank:
        lines.append(n.say("idiot.view.run", rank=rank_name(obs.run_rank)))
    return lines
