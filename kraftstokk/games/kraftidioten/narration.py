"""What a Kraftidioten table says: the values of its events, moves and views.

A card laid face down under a claim is a value only for its layer (and in a replay read
afterwards): to anyone else a claim is what was said, never what lies under it, until a
challenge shows the card. The words are ``[kraftidioten.*]`` of ``events.toml``.
"""

from __future__ import annotations

from kraftstokk.errors import GameError
from kraftstokk.games.core import Action
from kraftstokk.games.events import Event
from kraftstokk.games.kraftidioten.actions import (
    CHALLENGE,
    DRAW,
    JOKER,
    LAY,
    LIE,
    PASS,
    TAKE,
)
from kraftstokk.games.kraftidioten.events import (
    Challenged,
    Claimed,
    DrawOutcome,
    JokerLaid,
    JokersOnly,
    PenaltyDrawn,
    PileStarted,
    PileTaken,
    StockDrawn,
    TakeReason,
    TopBurned,
)
from kraftstokk.games.kraftidioten.observation import (
    Claim,
    KraftidiotenObservation,
    KraftidiotenTurnView,
)
from kraftstokk.games.kraftidioten.rules import NO_CATEGORY
from kraftstokk.games.narration import Narrator, Values

_OUTCOMES = {
    DrawOutcome.CLAIMED: "claimed",
    DrawOutcome.TOO_LOW: "too_low",
    DrawOutcome.JOKER: "joker",
}
_REASONS = {
    TakeReason.CHOSE: "chose",
    TakeReason.LIE_EXPOSED: "lie_exposed",
    TakeReason.GROUNDLESS: "groundless",
    TakeReason.DRAWN_LOW: "drawn_low",
}


def claim_text(n: Narrator, category: int, plant: int, stated: float | None) -> str:
    """'Tonstad, 4 405 GWh': the plant named and the figure stated (None: its printed one)."""
    figure = n.figure(category, plant) if stated is None else n.amount(category, stated)
    return n.say("kraftidioten.words.claim", plant=n.table.names[plant], figure=figure)


def event_values(event: Event, n: Narrator) -> Values | None:
    """The values of a Kraftidioten event's sentence (the seat is added by the narrator)."""
    if isinstance(event, Claimed):
        values: Values = {
            "from_stock": event.from_stock,
            "claim": claim_text(n, event.category, event.plant, event.stated),
            "top3": event.top3,
            "truth": "unseen",
        }
        if n.sees(event.seat) and not event.from_stock:
            values["truth"] = "lie" if event.lie else "true"
            if event.lie:
                values["card"] = n.card(event.card)
        return values
    if isinstance(event, StockDrawn):
        return {"outcome": _OUTCOMES[event.outcome], "card": n.card(event.card)}
    if isinstance(event, Challenged):
        return {"layer": n.person(event.layer), "card": n.card(event.card), "upheld": event.upheld}
    if isinstance(event, PileTaken):
        return {"size": event.size, "reason": _REASONS[event.reason]}
    if isinstance(event, TopBurned):
        return {"size": event.size}
    if isinstance(event, JokerLaid):
        return {"penalty": event.penalty, "size": event.size}
    if isinstance(event, PenaltyDrawn):
        values = {"count": len(event.cards), "seen": n.sees(event.seat)}
        if n.sees(event.seat):
            values["cards"] = n.cards(event.cards)
        return values
    if isinstance(event, JokersOnly | PileStarted):
        return {}
    return None


def action_text(action: Action, n: Narrator, pile_size: int, printed: float | None) -> str:
    """The action in words for the player choosing it (their own card is named).

    ``printed`` is the claimed plant's printed figure for a ``LAY``, to tell a stated
    figure from the printed one; ``pile_size`` the cards a ``TAKE`` takes.
    """
    kind = action[0] if action else -1
    if kind == LAY and len(action) in (4, 5):
        card, category, plant = action[1:4]
        stated = float(action[4]) if len(action) == 5 else None
        if stated is not None and stated == printed:
            stated = None
        claim = claim_text(n, category, plant, stated)
        return n.say("kraftidioten.moves.lay", card=n.card(card), claim=claim)
    if kind == LIE and len(action) == 3:
        card, category = action[1:3]
        return n.say("kraftidioten.moves.lie", card=n.card(card), category=n.category(category))
    if kind == JOKER and len(action) == 2:
        return n.say("kraftidioten.moves.joker")
    if kind == TAKE:
        return n.say("kraftidioten.moves.take", size=pile_size)
    words = {DRAW: "draw", CHALLENGE: "challenge", PASS: "pass"}
    if kind in words:
        return n.say(f"kraftidioten.moves.{words[kind]}")
    raise GameError(f"kraftidioten: unknown action {list(action)}")


def unseen_lay_text(n: Narrator, category: int, plant: int, stated: float | None) -> str:
    """A claim as the other seats see it: a card laid face down, and what was said."""
    return n.say("kraftidioten.moves.lay_unseen", claim=claim_text(n, category, plant, stated))


def typed_hint(n: Narrator) -> str:
    """What a person may type at a claim besides a move's number (KI-4c)."""
    return n.say("kraftidioten.moves.typed")


def _stated(n: Narrator, category: int, claim: Claim) -> float | None:
    """The claim's figure when it is not the one the plant's card prints, else None."""
    printed = n.table.printed[category][claim.plant]
    return None if claim.figure == printed else claim.figure


def view_lines(obs: KraftidiotenObservation | KraftidiotenTurnView, n: Narrator) -> list[str]:
    """The seat's view in words: the claims, the counts, its own hand with its figures."""
    if isinstance(obs, KraftidiotenTurnView):
        return [n.say("kraftidioten.view.hand", cards=n.cards(obs.hand))]
    table = n.table
    category = obs.category
    lines = [n.say("kraftidioten.view.you", number=obs.seat + 1)]
    if obs.claims:
        lines.append(
            n.say("kraftidioten.view.pile", size=obs.pile_count, category=n.category(category))
        )
        for claim in obs.claims[-5:]:
            said = claim_text(n, category, claim.plant, _stated(n, category, claim))
            line = n.say(
                "kraftidioten.view.claim",
                seat=n.person(claim.seat),
                claim=said,
                nr=table.nr[category][claim.plant],
                from_stock=claim.from_stock,
            )
            lines.append(f"  {line}")
    else:
        lines.append(n.say("kraftidioten.view.empty_pile"))
    lines.append(n.say("table.view.counts", stock=obs.stock_count, burned=obs.burned_count))
    for seat in range(obs.num_players):
        status = "in" if obs.active[seat] else "out"
        line = n.say(
            "kraftidioten.view.seat",
            seat=n.person(seat),
            status=status,
            hand=obs.hand_counts[seat],
        )
        lines.append(f"  {line}")
    categories = (category,) if category != NO_CATEGORY else (0, 1, 2)
    lines.append(n.say("kraftidioten.view.hand_heading"))
    for card in sorted(obs.hand):
        if table.joker[card]:
            lines.append(f"  {n.card(card)}")
            continue
        figures = n.listing(
            [
                n.say("kraftidioten.view.figure", figure=n.figure(c, card), nr=table.nr[c][card])
                for c in categories
            ]
        )
        lines.append(
            f"  {n.say('kraftidioten.view.hand_card', card=n.card(card), figures=figures)}"
        )
    if obs.challenge_pending and obs.claims:
        claim = obs.claims[-1]
        said = claim_text(n, category, claim.plant, _stated(n, category, claim))
        lines.append(
            n.say(
                "kraftidioten.view.challenge",
                seat=n.person(claim.seat),
                claim=said,
                top3=obs.claim_is_top3,
            )
        )
    return lines
