"""What a reprint changes: compare two decks, or the decks two snapshots give.

Cards are matched by plant id. A plant that enters or leaves the deck, a figure that
changes, a nr. that moves and a plant that moves to another suit or value are each one
row, so that a user refreshing plant data sees every card that will print differently.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, computed_field

from kraftstokk.errors import InputFileError
from kraftstokk.models import CATEGORIES, CATEGORY_UNITS, Card, Deck

ChangeKind = Literal["entered", "left", "changed"]


class FieldChange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    field: str
    old: str
    new: str


class PlantChange(BaseModel):
    """One plant whose card is new, gone or different."""

    model_config = ConfigDict(extra="forbid")

    kind: ChangeKind
    plant_id: str
    name: str
    old_card: str | None = None
    new_card: str | None = None
    changes: list[FieldChange] = []


class DeckDiff(BaseModel):
    model_config = ConfigDict(extra="forbid")

    old: str
    new: str
    deck_changes: list[FieldChange] = []
    entered: list[PlantChange] = []
    left: list[PlantChange] = []
    changed: list[PlantChange] = []
    unchanged: int = 0

    @property
    def empty(self) -> bool:
        return not (self.deck_changes or self.entered or self.left or self.changed)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def reprint(self) -> int:
        """Cards that print differently: every changed card and every entering plant's."""
        return len(self.changed) + len(self.entered)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> str:
        """One line: how many cards must be reprinted and why."""
        if not self.reprint:
            return "no card must be reprinted" + (
                " (only the deck's details change)" if self.deck_changes else ""
            )
        reasons = {kind: 0 for kind in REASONS}
        for plant in self.changed:
            for kind in {_reason(change.field) for change in plant.changes}:
                reasons[kind] += 1
        why = [f"{REASONS[kind]} on {count}" for kind, count in reasons.items() if count]
        if self.entered:
            why.append(f"{len(self.entered)} new plant{'s' if len(self.entered) > 1 else ''}")
        noun = "card" if self.reprint == 1 else "cards"
        return f"{self.reprint} {noun} must be reprinted: {', '.join(why)}"

    def lines(self) -> list[str]:
        out = [f"reprint: {self.old} -> {self.new}"]
        for change in self.deck_changes:
            out.append(f"  deck {change.field}: {change.old} -> {change.new}")
        out.append(f"plants entering the deck: {len(self.entered)}")
        out.extend(f"  + {_who(p, p.new_card)}  {_figures(p)}" for p in self.entered)
        out.append(f"plants leaving the deck: {len(self.left)}")
        out.extend(f"  - {_who(p, p.old_card)}  {_figures(p)}" for p in self.left)
        out.append(f"cards that change: {len(self.changed)} (unchanged: {self.unchanged})")
        if self.changed:
            rows = [
                (p.old_card or "", p.name, c.field, c.old, c.new)
                for p in self.changed
                for c in p.changes
            ]
            header = ("card", "plant", "field", "old", "new")
            widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
            for row in [header, *rows]:
                out.append("  " + "  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)))
        if self.empty:
            out.append("no changes: a reprint would print the same cards")
        out.append(self.summary)
        return out


#: Why a card must be reprinted, by the kind of field that changed (in this order).
REASONS = {
    "card": "suit or value",
    "name": "name",
    "figures": "figures",
    "nr": "nr.",
    "flags": "flags",
}


def _reason(field: str) -> str:
    if field in ("card", "name"):
        return field
    if field in CATEGORIES:
        return "figures"
    if field.startswith("nr_"):
        return "nr"
    return "flags"


def _who(change: PlantChange, card: str | None) -> str:
    return f"{card} {change.name} ({change.plant_id})"


def _figures(change: PlantChange) -> str:
    return ", ".join(f"{c.field} {c.new or c.old}" for c in change.changes)


def _text(value: object) -> str:
    """A value as deck.json and deck.csv write it (``false``, not Python's ``False``)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return str(value)


def _figure_fields(card: Card, side: Literal["old", "new"]) -> list[FieldChange]:
    result = []
    for category in CATEGORIES:
        text = f"{_text(getattr(card, category))} {CATEGORY_UNITS[category]}"
        result.append(
            FieldChange(
                field=category, old=text if side == "old" else "", new=text if side == "new" else ""
            )
        )
    return result


def _card_changes(old: Card, new: Card) -> list[FieldChange]:
    changes: list[FieldChange] = []

    def note(field: str, before: object, after: object) -> None:
        if before != after:
            changes.append(FieldChange(field=field, old=_text(before), new=_text(after)))

    note("card", old.id, new.id)
    note("name", old.name, new.name)
    # The picture shows where the plant lies and what kind it is.
    for field in ("lat", "lon", "type"):
        note(field, getattr(old, field), getattr(new, field))
    for category in CATEGORIES:
        note(category, old.figure(category) if getattr(old, category) is not None else None,
             new.figure(category) if getattr(new, category) is not None else None)  # fmt: skip
    for category in CATEGORIES:
        note(
            f"nr_{category}",
            old.nr.get(category) if old.nr else None,
            new.nr.get(category) if new.nr else None,
        )
    old_flags = old.flags.model_dump(exclude={"war_partners"})
    new_flags = new.flags.model_dump(exclude={"war_partners"})
    for flag, value in old_flags.items():
        if isinstance(value, dict):
            for category, on in value.items():
                note(f"{flag}_{category}", on, new_flags[flag][category])
        else:
            note(flag, value, new_flags[flag])
    return changes


def diff_decks(old: Deck, new: Deck, old_name: str = "old", new_name: str = "new") -> DeckDiff:
    """Every difference a reprint from ``old`` to ``new`` makes on the plant cards."""
    # deck.csv carries no title, edition or snapshot: only compare what both sides have.
    deck_changes = [
        FieldChange(field=field, old=_text(before), new=_text(after))
        for field, before, after in (
            ("title", old.title, new.title),
            ("edition", old.edition, new.edition),
            ("snapshot", old.snapshot.path, new.snapshot.path),
            ("snapshot date", old.snapshot.date, new.snapshot.date),
        )
        if before != after and before and after
    ]
    old_cards = {c.plant_id: c for c in old.plant_cards if c.plant_id}
    new_cards = {c.plant_id: c for c in new.plant_cards if c.plant_id}
    entered = [
        PlantChange(
            kind="entered",
            plant_id=pid,
            name=card.name or "",
            new_card=card.id,
            changes=_figure_fields(card, "new"),
        )
        for pid, card in new_cards.items()
        if pid not in old_cards
    ]
    left = [
        PlantChange(
            kind="left",
            plant_id=pid,
            name=card.name or "",
            old_card=card.id,
            changes=_figure_fields(card, "old"),
        )
        for pid, card in old_cards.items()
        if pid not in new_cards
    ]
    changed: list[PlantChange] = []
    unchanged = 0
    for pid, before in old_cards.items():
        after = new_cards.get(pid)
        if after is None:
            continue
        changes = _card_changes(before, after)
        if changes:
            changed.append(
                PlantChange(
                    kind="changed",
                    plant_id=pid,
                    name=after.name or "",
                    old_card=before.id,
                    new_card=after.id,
                    changes=changes,
                )
            )
        else:
            unchanged += 1
    return DeckDiff(
        old=old_name,
        new=new_name,
        deck_changes=deck_changes,
        entered=entered,
        left=left,
        changed=changed,
        unchanged=unchanged,
    )


def is_snapshot_csv(path: Path) -> bool:
    """A CSV with plant columns and no nr. columns is a snapshot, not a deck."""
    if path.suffix.lower() != ".csv":
        return False
    from kraftstokk.textfile import read_input_bytes

    try:  # bounded and regular files only: a FIFO or /dev/zero must not hang the diff
        first_line = read_input_bytes(path, "deck or snapshot CSV").split(b"\n", 1)[0]
        header = next(csv.reader(io.StringIO(first_line.decode("utf-8-sig"))), [])
    except (InputFileError, UnicodeDecodeError):
        return False
    columns = {name.strip() for name in header}
    return {"id", "mw", "gwh", "head_m"} <= columns and "nr_mw" not in columns


def load_for_diff(path: str | Path, spec_path: str | Path) -> Deck:
    """A deck file as it is, or the deck the spec builds from a snapshot."""
    from kraftstokk.deck.build import build_from_spec_file
    from kraftstokk.deck.io import load_deck

    path = Path(path)
    if not path.exists():
        raise InputFileError(path, "no such file")
    if is_snapshot_csv(path):
        return build_from_spec_file(spec_path, snapshot_override=path).deck
    try:
        return load_deck(path)
    except InputFileError as exc:
        if not exc.reason.startswith("not a deck table"):
            raise
        raise InputFileError(
            path,
            "neither a deck CSV (columns id, joker, suit, value, nr_mw, ...) nor a snapshot "
            "CSV (columns id, name, mw, gwh, head_m, ...); make a snapshot with "
            "'kraftstokk ingest' first",
        ) from None


def diff_files(old: str | Path, new: str | Path, spec_path: str | Path) -> DeckDiff:
    return diff_decks(
        load_for_diff(old, spec_path), load_for_diff(new, spec_path), str(old), str(new)
    )
