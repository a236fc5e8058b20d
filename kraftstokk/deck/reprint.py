"""The reprint verdict: which faces, and whether the back, print differently, and why.

It compares what is printed (:mod:`kraftstokk.design.printed`: every field drawn on a
face and on the back), not the deck's data, so it counts what a print shop would see:
an edition printed on every face and the back, a data credit, a figure whose rounding
changes on every card, a bar that moves a step. Then, for every change between the two
decks — the edition, the title, the data credit, the design, a plant leaving and the one
that takes its card, plants dealt other cards, a revised figure, name, place or type — it
says what that change alone would reprint (the old deck with only that change, nr. and
flags recomputed as ``build`` does) and the way out the deck maker has, if any.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, computed_field

from kraftstokk.deck.assign import ladder_breaks
from kraftstokk.deck.derive import derived_cards, tie_break_of
from kraftstokk.deck.reprint_why import FigureEdit, why_many
from kraftstokk.errors import listed
from kraftstokk.models import CATEGORIES, CATEGORY_UNITS, Card, Deck, Suit
from kraftstokk.sources.plant_keys import plant_key
from kraftstokk.sources.snapshot import format_number

if TYPE_CHECKING:  # the renderer loads only when a verdict is made
    from kraftstokk.design.layout import CardLayout

#: Cards a line names before it counts the rest.
NAMED = 12
#: Changes printed on the back as well as on every face.
DECK_WIDE = ("edition", "title", "design")


class Cause(BaseModel):
    """One change between the decks, and what it alone would reprint."""

    model_config = ConfigDict(extra="forbid")

    kind: str
    says: str
    #: Faces this change alone prints differently (card ids), and whether the back.
    faces: list[str]
    back: bool = False
    #: What changes on those faces, by kind: "nr." -> card ids.
    by_kind: dict[str, list[str]] = {}
    #: Why it changes many faces (a figure's rounding, a bar's scale), with the figures.
    why: list[str] = []
    way_out: str | None = None


class ReprintVerdict(BaseModel):
    """Which faces and whether the back must be reprinted, with every cause."""

    model_config = ConfigDict(extra="forbid")

    #: Card ids whose face prints differently, in the new deck's order.
    faces: list[str]
    back: bool
    #: Faces in the new deck (55).
    total: int
    #: Card id -> the printed fields that change on it.
    fields: dict[str, list[str]]
    causes: list[Cause]
    #: The warning lines of kept places whose value no longer follows production (D-6).
    ladder: list[str] = []
    #: What to keep ("edition 2024-01") to reprint fewer faces and not the back, and how
    #: many faces that reprints; when that helps.
    keep_edition: str | None = None
    keep_edition_faces: int | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> str:
        """One line: the faces and the back to reprint, and why."""
        if not self.faces and not self.back:
            return "no card must be reprinted: every face and the back print as before"
        counts = ", ".join(f"{kind} on {len(ids)}" for kind, ids in self.by_kind().items())
        if self.back:
            whole = "all " if len(self.faces) == self.total else ""
            line = f"{whole}{len(self.faces)} faces and the back must be reprinted"
            on_back = next((c for c in self.causes if c.back and c.kind in DECK_WIDE), None)
            if on_back is None:
                return f"{line}: {counts}{self._why()}"
            line += f": the {on_back.kind} is printed on every face and the back"
            if self.keep_edition_faces is not None and on_back.kind in ("edition", "title"):
                line += (
                    f"; or keep {self.keep_edition} to reprint "
                    f"{faces_text(self.keep_edition_faces)} and not the back"
                )
            return line
        reprinted = f"{faces_text(len(self.faces))} of {self.total} must be reprinted"
        return f"{reprinted} (the back stays): {counts}{self._why()}"

    def _why(self) -> str:
        """``; head now printed with one decimal: ...; or ...``: why one change costs
        every face it costs, when one does."""
        cause = next((c for c in self.causes if c.why and set(c.faces) >= set(self.faces)), None)
        if cause is None:
            return ""
        way_out = f"; or {cause.way_out}" if cause.way_out else ""
        return f"; {'; '.join(cause.why)}{way_out}"

    def by_kind(self) -> dict[str, list[str]]:
        """What changes -> the faces it changes on (a face under each kind it has)."""
        return _group(self.fields, self.faces)

    def lines(self) -> list[str]:
        out: list[str] = []
        if self.causes:
            out.append("reprint by cause (what each change alone would reprint):")
        for cause in self.causes:
            back = " and the back" if cause.back else ""
            out.append(f"  {cause.says}: {faces_text(len(cause.faces))}{back}")
            out.extend(
                f"    {kind} on {len(ids)}: {listed(ids, first=NAMED)}"
                for kind, ids in cause.by_kind.items()
            )
            out.extend(f"    why: {why}" for why in cause.why)
            if cause.way_out:
                out.append(f"    way out: {cause.way_out}")
        out.extend(self.ladder)
        if self.faces:
            which = "all" if len(self.faces) == self.total else ", ".join(self.faces)
            out.append(f"faces to reprint ({len(self.faces)}): {which}")
            out.append(
                "the back changes: reprint it with every face"
                if self.back
                else "the back stays the same: the reprinted faces take the old back"
            )
        return out


def faces_text(count: int) -> str:
    """``no face``, ``1 face``, ``41 faces``."""
    if count == 0:
        return "no face"
    return f"{count} face{'' if count == 1 else 's'}"


def _group(fields: dict[str, list[str]], order: Sequence[str]) -> dict[str, list[str]]:
    from kraftstokk.design.printed import FIELD_KINDS

    kinds = list(dict.fromkeys(FIELD_KINDS.values()))
    grouped: dict[str, list[str]] = {kind: [] for kind in kinds}
    for card in order:
        for kind in dict.fromkeys(FIELD_KINDS.get(f, f) for f in fields.get(card, [])):
            grouped.setdefault(kind, []).append(card)
    return {kind: ids for kind, ids in grouped.items() if ids}


@dataclass
class _Change:
    kind: str
    says: str
    #: The old deck with only this change (before nr. and flags are recomputed).
    apply: Callable[[], Deck]
    #: Plant changes recompute nr. and flags; a deck-wide one (edition) does not.
    derive: bool = True
    way_out: str | None = None
    #: A revised figure: which, for saying why it reprints many faces.
    edit: FigureEdit | None = None


def reprint_verdict(
    old: Deck,
    new: Deck,
    layout: CardLayout | None = None,
    new_snapshot: set[str] | None = None,
    keep_from: str = "OLD",
    causes: bool = True,
) -> ReprintVerdict:
    """What reprinting ``old`` as ``new`` prints differently, and why.

    Both decks are drawn in ``layout`` (each in its own when none is given).
    ``new_snapshot``, the plant keys of the snapshot ``new`` was built from when known,
    tells a plant that left the snapshot from one that fell below the cut. ``keep_from``
    names the old deck in the way-out commands. Without ``causes``, only the faces and
    the back (no change's cost alone).
    """
    from kraftstokk.design.printed import printed_back, printed_faces

    old_faces, new_faces = printed_faces(old, layout), printed_faces(new, layout)
    old_back, new_back = printed_back(old, layout), printed_back(new, layout)
    order = [card.id for card in new.cards] + [c.id for c in old.cards if c.id not in new_faces]
    fields = {
        card: _differing(old_faces.get(card, {}), new_faces.get(card, {}))
        for card in order
        if old_faces.get(card) != new_faces.get(card)
    }
    baseline = _rederived(old) or old
    base_faces = printed_faces(baseline, layout)

    def cost(deck: Deck, derive: bool) -> tuple[dict[str, list[str]], bool]:
        if derive:
            again = _rederived(deck)
            deck = again if again is not None else deck
        faces = printed_faces(deck, layout)
        start = base_faces if derive else old_faces
        changed = {
            card: _differing(start.get(card, {}), faces.get(card, {}))
            for card in order
            if start.get(card) != faces.get(card)
        }
        return changed, printed_back(deck, layout) != old_back

    found: list[Cause] = []
    for change in _changes(old, new, new_snapshot, keep_from) if causes else []:
        changed, back = cost(change.apply(), change.derive)
        ids = [card for card in order if card in changed]
        whys = [] if change.edit is None else why_many(baseline, change.apply(), change.edit)
        way_out = change.way_out
        for why in whys:
            if why.nearest is not None and change.edit is not None and way_out is None:
                edit = change.edit
                cheaper, back_too = cost(
                    _edit(old, old.card(edit.card), {edit.category: why.nearest})(), True
                )
                if len(cheaper) < len(ids):
                    way_out = (
                        f"{edit.category} {format_number(why.nearest)} "
                        f"{CATEGORY_UNITS[edit.category]} (printed as {why.nearest_printed}) "
                        f"reprints {faces_text(len(cheaper))}{' and the back' if back_too else ''}"
                    )
        found.append(
            Cause(
                kind=change.kind,
                says=change.says,
                faces=ids,
                back=back,
                by_kind=_group(changed, ids),
                why=[why.says for why in whys],
                way_out=way_out,
            )
        )
    verdict = ReprintVerdict(
        faces=list(fields),
        back=old_back != new_back,
        total=len(new.cards),
        fields=fields,
        causes=found,
        ladder=ladder_breaks(new).lines(_kept_or_entered(old, new)),
    )
    kept_words = [
        f"{what} {before}"
        for what, before, after in (
            ("title", old.title, new.title),
            ("edition", old.edition, new.edition),
        )
        if before != after
    ]
    if verdict.back and kept_words:
        kept = new.model_copy(update={"edition": old.edition, "title": old.title})
        kept_faces = printed_faces(kept, layout)
        fewer = sum(1 for card in order if kept_faces.get(card) != old_faces.get(card))
        if printed_back(kept, layout) == old_back and fewer < len(verdict.faces):
            verdict.keep_edition = " and ".join(kept_words)
            verdict.keep_edition_faces = fewer
            for cause in found:
                if cause.kind in ("title", "edition"):
                    cause.way_out = f"keep {verdict.keep_edition} to reprint {faces_text(fewer)}"
    return verdict


def printed_layout(old_path: Path, old: Deck) -> CardLayout | None:
    """The layout the cards of the deck at ``old_path`` were printed in, from the render
    record beside it; None without one (each deck is then drawn in its own)."""
    from kraftstokk.deck.render_record import printed_with
    from kraftstokk.design.layout import load_layout

    found = printed_with(old_path, old)
    return None if found is None else load_layout(found[2].layout)


def deck_verdict(
    old_path: Path, old: Deck, new: Deck, new_snapshot: set[str] | None = None
) -> ReprintVerdict:
    """The reprint verdict every command gives (diff, repair, render --only-changed,
    proof): ``old`` (the deck printed, from ``old_path``) against ``new``, drawn in the
    layout the old cards were printed in."""
    return reprint_verdict(
        old, new, printed_layout(old_path, old), new_snapshot, keep_from=str(old_path)
    )


def _differing(before: dict[str, str], after: dict[str, str]) -> list[str]:
    return [f for f in dict.fromkeys([*before, *after]) if before.get(f) != after.get(f)]


def _rederived(deck: Deck) -> Deck | None:
    """``deck`` with nr., flags and war partners recomputed; None when a figure is missing."""
    placed: list[tuple[Suit, int, Card]] = []
    for card in deck.plant_cards:
        if card.suit is None or card.value is None:
            return None
        if any(getattr(card, category) is None for category in CATEGORIES):
            return None
        placed.append((card.suit, card.value, card))
    return deck.model_copy(update={"cards": derived_cards(placed, tie_break_of(deck))})


def _kept_or_entered(old: Deck, new: Deck) -> set[str]:
    """Cards of ``new`` that kept their plant from ``old``, or took an entering plant:
    where keeping places can leave the ladder (a new deal follows it)."""
    held = {_key(c): c.id for c in old.plant_cards if c.plant_id}
    return {c.id for c in new.plant_cards if held.get(_key(c), c.id) == c.id}


# The changes between two decks ---------------------------------------------------------


def _changes(old: Deck, new: Deck, new_snapshot: set[str] | None, keep_from: str) -> list[_Change]:
    changes = _deck_changes(old, new)
    changes.extend(_placement_changes(old, new, new_snapshot, keep_from))
    changes.extend(_plant_changes(old, new))
    return changes


def _deck_changes(old: Deck, new: Deck) -> list[_Change]:
    changes: list[_Change] = []
    for field in ("edition", "title"):
        before, after = getattr(old, field), getattr(new, field)
        if before != after:
            changes.append(
                _Change(
                    field,
                    f"{field} {before or '(none)'} -> {after}, printed on every face and the back",
                    _deck_with(old, {field: after}),
                    derive=False,
                )
            )
    if _credit(old) != _credit(new):
        changes.append(
            _Change(
                "credit",
                f"data credit {_credit(old) or '(none)'!r} -> {_credit(new) or '(none)'!r}, "
                "printed on every face (a source's licence asks for it)",
                _deck_with(old, {"snapshot": new.snapshot}),
                derive=False,
            )
        )
    if old.style() != new.style():
        changes.append(
            _Change(
                "design",
                "the spec's [style] (colours, layout) changed: every face and the back",
                _deck_with(old, {"spec": {**old.spec, "style": new.style()}}),
                derive=False,
                way_out="keep the [style] of the old deck",
            )
        )
    return changes


def _deck_with(old: Deck, update: Mapping[str, object]) -> Callable[[], Deck]:
    return lambda: old.model_copy(update=dict(update))


def _credit(deck: Deck) -> str | None:
    snap = deck.snapshot
    return snap.attribution_nb or snap.attribution or snap.source


def _who(card: Card) -> str:
    return f"{card.name} ({card.plant_id})"


def _key(card: Card) -> str:
    return plant_key(card.plant_id or "")


def _placement_changes(
    old: Deck, new: Deck, new_snapshot: set[str] | None, keep_from: str
) -> list[_Change]:
    """Cards whose plant changed, in groups that can change alone: a freed card and the
    plant that takes it, or the cards a new deal moved plants between."""
    old_at = {c.id: c for c in old.plant_cards if c.plant_id}
    new_at = {c.id: c for c in new.plant_cards if c.plant_id}
    old_card_of = {_key(c): c.id for c in old_at.values()}
    new_card_of = {_key(c): c.id for c in new_at.values()}
    moved = [c for c in old_at if c in new_at and _key(old_at[c]) != _key(new_at[c])]
    # Union the cards a staying plant moves between: each group can change on its own.
    parent = {card: card for card in moved}

    def root(card: str) -> str:
        while parent[card] != card:
            parent[card] = parent[parent[card]]
            card = parent[card]
        return card

    for card in moved:
        there = new_card_of.get(_key(old_at[card]))
        if there in parent:
            parent[root(card)] = root(there)
    groups: dict[str, list[str]] = {}
    for card in moved:
        groups.setdefault(root(card), []).append(card)
    old_data = {_key(c): c for c in old_at.values()}
    changes: list[_Change] = []
    for cards in groups.values():

        def apply(cards: list[str] = cards) -> Deck:
            holders = {card: old_data.get(_key(new_at[card]), new_at[card]) for card in cards}
            return _with_holders(old, holders)

        leaving = [old_at[c] for c in cards if _key(old_at[c]) not in new_card_of]
        entering = [new_at[c] for c in cards if _key(new_at[c]) not in old_card_of]
        if len(cards) == 1 and leaving and entering:
            says, way_out = _replacement(cards[0], leaving[0], entering[0], new_snapshot, keep_from)
            changes.append(_Change("placement", says, apply, way_out=way_out))
            continue
        staying = len(cards) - len(leaving)
        says = f"{staying} plants dealt other cards ({listed(cards, first=NAMED)})"
        if leaving:
            says += f", {len(leaving)} leave ({listed([_who(c) for c in leaving], first=3)})"
        if entering:
            says += f", {len(entering)} enter"
        way_out = f"build --keep-from {keep_from} keeps the suit and value of every staying plant"
        changes.append(_Change("placement", says, apply, way_out=way_out))
    return changes


def _replacement(
    card: str, gone: Card, comes: Card, new_snapshot: set[str] | None, keep_from: str
) -> tuple[str, str | None]:
    """What one freed card says, and the way out when the plant that left could stay."""
    still = new_snapshot is not None and _key(gone) in new_snapshot
    why = (
        "" if new_snapshot is None
        else " (still in the snapshot, below the cut)" if still
        else " (not in the new snapshot)"
    )  # fmt: skip
    says = f"{_who(gone)} leaves {card}{why}; {_who(comes)} takes it"
    if new_snapshot is not None and not still:
        return says, None
    return says, (
        f"build --keep-from {keep_from} --pin {gone.plant_id} keeps {gone.name} on {card} "
        "(the lowest plant not pinned leaves instead)"
    )


def _with_holders(old: Deck, holders: dict[str, Card]) -> Deck:
    """``old`` with the plants of ``holders`` (card id -> plant card) on those cards."""
    cards = [
        card
        if card.id not in holders
        else holders[card.id].model_copy(
            update={"id": card.id, "suit": card.suit, "value": card.value}
        )
        for card in old.cards
    ]
    return old.model_copy(update={"cards": cards})


def _plant_changes(old: Deck, new: Deck) -> list[_Change]:
    """A revised figure, name, place or type of a plant in both decks."""
    new_by_key = {plant_key(c.plant_id): c for c in new.plant_cards if c.plant_id}
    figures = new.spec.get("figures") if isinstance(new.spec, dict) else None
    corrected = {plant_key(str(k)): v for k, v in (figures or {}).items()}
    changes: list[_Change] = []
    for before in old.plant_cards:
        after = new_by_key.get(plant_key(before.plant_id or ""))
        if after is None or before.plant_id is None:
            continue
        key = plant_key(before.plant_id)
        for category in CATEGORIES:
            was, now = getattr(before, category), getattr(after, category)
            if was == now or was is None or now is None:
                continue
            unit = CATEGORY_UNITS[category]
            says = f"{_who(after)} {category} {format_number(was)} -> {format_number(now)} {unit}"
            entry = corrected.get(key)
            if isinstance(entry, dict) and entry.get(category) == now:
                says += f" (hand correction: {entry.get('reason', '')})"
            edit = FigureEdit(before.id, category, now)
            changes.append(_Change("figure", says, _edit(old, before, {category: now}), edit=edit))
        if before.name != after.name:
            says = f"{after.plant_id} name {before.name} -> {after.name}"
            changes.append(_Change("name", says, _edit(old, before, {"name": after.name})))
        if (before.lat, before.lon) != (after.lat, after.lon):
            place = {"lat": after.lat, "lon": after.lon}
            says = f"{_who(after)} place {_place(before)} -> {_place(after)}"
            changes.append(_Change("place", says, _edit(old, before, place)))
        if before.type != after.type:
            says = f"{_who(after)} type {before.type or 'none'} -> {after.type or 'none'}"
            changes.append(_Change("type", says, _edit(old, before, {"type": after.type})))
    return changes


def _place(card: Card) -> str:
    if card.lat is None or card.lon is None:
        return "none"
    return f"{card.lat:.4f}, {card.lon:.4f}"


def _edit(old: Deck, card: Card, update: Mapping[str, object]) -> Callable[[], Deck]:
    def apply() -> Deck:
        cards = [c.model_copy(update=update) if c.id == card.id else c for c in old.cards]
        return old.model_copy(update={"cards": cards})

    return apply
