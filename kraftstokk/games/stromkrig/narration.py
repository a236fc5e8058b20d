"""What a Strømkrig table says: the values of its events, moves and views.

Every card in Strømkrig is laid face up, so every event is told in full to every seat;
figures are told as the cards print them (production unless a war names another
category). The words are ``[stromkrig.*]`` of ``events.toml``.
"""

from __future__ import annotations

from kraftstokk.errors import GameError
from kraftstokk.games.core import GWH, Action
from kraftstokk.games.events import Event
from kraftstokk.games.narration import Narrator, Values
from kraftstokk.games.stromkrig.actions import (
    BURN,
    CHANCE,
    INVISIBLE,
    JOIN,
    LAY,
    NAME,
    RESET,
    RUN,
    STAY_OUT,
    TAKE,
    WAR_LAY,
    StromkrigPhase,
)
from kraftstokk.games.stromkrig.events import (
    Burned,
    ChanceDrawn,
    Laid,
    LaidBeside,
    PileTaken,
    Reset,
    RunLaid,
    WarAnswered,
    WarCardLaid,
    WarLost,
    WarNamed,
    WarStarted,
    WarTied,
)
from kraftstokk.games.stromkrig.observation import StromkrigObservation
from kraftstokk.games.stromkrig.rules import WarReason

_PHASES = {
    StromkrigPhase.PLAY: "play",
    StromkrigPhase.CHOOSE: "choose",
    StromkrigPhase.ASK: "ask",
    StromkrigPhase.NAMING: "naming",
    StromkrigPhase.WAR: "war",
    StromkrigPhase.OVER: "over",
}


def laid(n: Narrator, card: int, category: int = GWH) -> str:
    """'Tonstad (spar 7) · 4 357 GWh'; a joker has no figure; a war not yet named (category
    -1) shows all three."""
    if n.table.joker[card]:
        return n.card(card)
    if category < 0:
        separator = n.say("stromkrig.words.all_figures")
        figure = separator.join(n.figure(k, card) for k in range(3))
    else:
        figure = n.figure(category, card)
    return n.say("stromkrig.words.laid", card=n.card(card), figure=figure)


def _reasons(n: Narrator, reasons: tuple[WarReason, ...], tens: int) -> str:
    words = [
        n.say("stromkrig.words.club_on_club")
        if reason is WarReason.CLUB_ON_CLUB
        else n.say("stromkrig.words.same_ten", ten=n.amount(GWH, tens))
        for reason in reasons
    ]
    return n.say("table.words.and").join(words)


def _seats(n: Narrator, seats: tuple[int, ...]) -> str:
    return n.joined([n.seat(seat) for seat in seats])


def event_values(event: Event, n: Narrator) -> Values | None:
    """The values of a Strømkrig event's sentence (the seat is added by the narrator)."""
    if isinstance(event, Laid):
        return {"card": laid(n, event.card), "from_chance": event.from_chance}
    if isinstance(event, RunLaid):
        return {
            "length": len(event.cards),
            "cards": n.listing([laid(n, card) for card in event.cards]),
        }
    if isinstance(event, PileTaken):
        has_card = event.chance_card >= 0
        return {
            "size": event.size,
            "also": "card" if has_card else "none",
            "chance_card": n.card(event.chance_card) if has_card else "",
        }
    if isinstance(event, Burned):
        return {
            "card": n.card(event.card),
            "from_chance": event.from_chance,
            "size": event.size,
            "again": event.again,
        }
    if isinstance(event, Reset):
        under = event.under >= 0
        return {
            "card": n.card(event.card),
            "from_chance": event.from_chance,
            "zero": "card" if under else "none",
            "under": n.table.names[event.under] if under else "",
        }
    if isinstance(event, LaidBeside):
        nr = n.table.nr
        why = [
            n.say("stromkrig.words.invisible_in", nr=nr[c][event.card], category=n.category(c))
            for c in event.categories
        ]
        return {"card": n.card(event.card), "from_chance": event.from_chance, "why": n.listing(why)}
    if isinstance(event, ChanceDrawn):
        return {"card": laid(n, event.card), "played": event.played}
    if isinstance(event, WarStarted):
        return {
            "card": laid(n, event.card),
            "under": laid(n, event.under),
            "reasons": _reasons(n, event.reasons, event.tens),
            "defender": n.person(event.defender),
        }
    if isinstance(event, WarAnswered):
        return {"joined": event.joined}
    if isinstance(event, WarNamed):
        return {"category": n.category(event.category), "players": _seats(n, event.players)}
    if isinstance(event, WarCardLaid):
        return {"card": laid(n, event.card, event.category)}
    if isinstance(event, WarTied):
        return {"category": n.category(event.category), "players": _seats(n, event.players)}
    if isinstance(event, WarLost):
        return {
            "why": "none" if event.card < 0 else "card",
            "category": n.category(event.category),
            "size": event.size,
        }
    return None


def action_text(action: Action, n: Narrator, war_category: int, pile_size: int) -> str:
    """The action in words for the player choosing it, figures as the cards print them."""
    kind = action[0]
    if kind == LAY:
        return n.say("stromkrig.moves.lay", card=laid(n, action[1]))
    if kind == RUN:
        return n.say("stromkrig.moves.run", cards=n.listing([laid(n, c) for c in action[1:]]))
    named = {BURN: "burn", RESET: "reset", INVISIBLE: "invisible"}
    if kind in named:
        return n.say(f"stromkrig.moves.{named[kind]}", card=n.card(action[1]))
    if kind == TAKE:
        return n.say("stromkrig.moves.take", size=pile_size)
    if kind == NAME:
        return n.say("stromkrig.moves.name", category=n.category(action[1]))
    if kind == WAR_LAY:
        category = war_category if war_category >= 0 else GWH
        return n.say("stromkrig.moves.war_lay", card=laid(n, action[1], category))
    plain = {CHANCE: "chance", JOIN: "join", STAY_OUT: "stay_out"}
    if kind in plain:
        return n.say(f"stromkrig.moves.{plain[kind]}")
    raise GameError(f"stromkrig: unknown action {list(action)}")


def view_lines(obs: StromkrigObservation, n: Narrator) -> list[str]:
    """The seat's view in words: its hand, the pile, the card to beat, the war."""
    war = obs.war
    category = war.category if war else GWH
    phase = n.say(f"stromkrig.words.phases.{_PHASES[obs.phase]}")
    lines = [
        n.say(
            "stromkrig.view.you", number=obs.seat + 1, turn=n.seat(obs.current_player), phase=phase
        )
    ]
    hand = n.listing([laid(n, card, category) for card in obs.hand]) if obs.hand else n.cards(())
    lines.append(n.say("stromkrig.view.hand", cards=hand))
    if obs.pile:
        lines.append(n.say("stromkrig.view.pile", size=len(obs.pile), card=laid(n, obs.pile[-1])))
    else:
        lines.append(n.say("stromkrig.view.empty_pile"))
    if obs.beside:
        beside = n.listing([laid(n, card) for card in obs.beside])
        lines.append(n.say("stromkrig.view.beside", cards=beside))
    if war is None:
        if obs.top >= 0:
            lines.append(n.say("stromkrig.view.to_beat", card=laid(n, obs.top)))
        elif obs.pile:
            lines.append(n.say("stromkrig.view.reset_pile"))
    if obs.chance_card >= 0:
        lines.append(n.say("stromkrig.view.chance_card", card=laid(n, obs.chance_card)))
    counts = n.listing(
        [
            n.say(
                "stromkrig.view.seat_count",
                seat=n.person(seat),
                count="out" if obs.out[seat] else "in",
                hand=count,
            )
            for seat, count in enumerate(obs.hand_counts)
        ]
    )
    lines.append(n.say("stromkrig.view.counts", counts=counts, stock=obs.stock_count))
    if war is not None:
        named = war.category >= 0
        lines.append(
            n.say(
                "stromkrig.view.war",
                category="named" if named else "none",
                name=n.category(war.category) if named else "",
                players=n.listing([n.seat(seat) for seat in war.players]),
                challenger=n.seat(war.challenger),
            )
        )
        for seat, war_card in war.laid:
            card = laid(n, war_card, war.category)
            lines.append(f"  {n.say('stromkrig.view.war_seat', seat=n.person(seat), card=card)}")
    return lines
