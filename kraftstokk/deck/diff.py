"""What a reprint changes: compare two decks, or the decks two snapshots give.

Cards are matched by plant key (JRC ``N448`` is NVE ``448``). A plant that enters or
leaves the deck, a figure that changes, a nr. that moves and a plant that moves to another
suit or value are each one row; a hand correction added or dropped is listed too. The
count of what to reprint is the reprint verdict (:mod:`kraftstokk.deck.reprint`): what
is printed on every face and the back, by cause.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, computed_field

from kraftstokk.deck.reprint import ReprintVerdict, reprint_verdict
from kraftstokk.errors import InputFileError
from kraftstokk.models import CATEGORIES, CATEGORY_UNITS, Card, Deck
from kraftstokk.sources.compare import SourceChanges, source_changes
from kraftstokk.sources.plant_keys import plant_key

if TYPE_CHECKING:  # the drawing code loads only when a verdict is made
    from kraftstokk.design.layout import CardLayout

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
    #: Hand corrections ([figures]) added, changed or dropped: field is the plant key.
    corrections: list[FieldChange] = []
    entered: list[PlantChange] = []
    left: list[PlantChange] = []
    changed: list[PlantChange] = []
    unchanged: int = 0
    verdict: ReprintVerdict
    #: Two snapshots compared: what changed in the source, deck or not.
    source: SourceChanges | None = None
    #: How decks were made of snapshots ("dealt afresh", or the deck kept).
    dealt: str | None = None

    @property
    def empty(self) -> bool:
        return not (self.deck_changes or self.entered or self.left or self.changed)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def reprint(self) -> int:
        """Faces that print differently (the reprint verdict)."""
        return len(self.verdict.faces)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def reprint_back(self) -> bool:
        """Whether the back prints differently."""
        return self.verdict.back

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> str:
        """One line: how many faces, and whether the back, must be reprinted, and why."""
        return self.verdict.summary

    def lines(self) -> list[str]:
        out = [f"reprint: {self.old} -> {self.new}"]
        if self.dealt:
            out.append(f"  {self.dealt}")
        if self.source is not None:
            out.extend(f"  {line}" for line in self.source.lines())
        for change in self.deck_changes:
            out.append(f"  deck {change.field}: {change.old} -> {change.new}")
        for change in self.corrections:
            out.append(
                f"  hand correction of {change.field}: {change.old or '(none)'} -> "
                f"{change.new or '(none)'}"
            )
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
        if self.empty and not self.verdict.faces:
            out.append("no changes: a reprint would print the same cards")
        out.extend(self.verdict.lines())
        out.append(self.summary)
        return out


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


def diff_decks(
    old: Deck,
    new: Deck,
    old_name: str = "old",
    new_name: str = "new",
    new_snapshot: set[str] | None = None,
    keep_from: str | None = None,
    layout: CardLayout | None = None,
) -> DeckDiff:
    """Every difference a reprint from ``old`` to ``new`` makes, and the reprint verdict.

    ``new_snapshot`` (the plant keys of the snapshot ``new`` was built from, when known)
    lets the verdict tell a plant that left the snapshot from one below the cut;
    ``keep_from`` is the old deck's name in its way-out commands (``old_name`` by default);
    ``layout`` the one both are drawn in (None: each its own).
    """
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
    old_cards = {plant_key(c.plant_id): c for c in old.plant_cards if c.plant_id}
    new_cards = {plant_key(c.plant_id): c for c in new.plant_cards if c.plant_id}
    entered = [
        PlantChange(
            kind="entered",
            plant_id=card.plant_id or key,
            name=card.name or "",
            new_card=card.id,
            changes=_figure_fields(card, "new"),
        )
        for key, card in new_cards.items()
        if key not in old_cards
    ]
    left = [
        PlantChange(
            kind="left",
            plant_id=card.plant_id or key,
            name=card.name or "",
            old_card=card.id,
            changes=_figure_fields(card, "old"),
        )
        for key, card in old_cards.items()
        if key not in new_cards
    ]
    changed: list[PlantChange] = []
    unchanged = 0
    for key, before in old_cards.items():
        after = new_cards.get(key)
        if after is None:
            continue
        changes = _card_changes(before, after)
        if changes:
            changed.append(
                PlantChange(
                    kind="changed",
                    plant_id=after.plant_id or key,
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
        corrections=_correction_changes(old, new),
        entered=entered,
        left=left,
        changed=changed,
        unchanged=unchanged,
        verdict=reprint_verdict(
            old, new, layout, new_snapshot=new_snapshot, keep_from=keep_from or old_name
        ),
    )


def _corrections(deck: Deck) -> dict[str, str]:
    """Plant key -> the deck's hand correction of it, as one line."""
    table = deck.spec.get("figures") if isinstance(deck.spec, dict) else None
    if not isinstance(table, dict):
        return {}
    result = {}
    for plant_id, entry in table.items():
        if not isinstance(entry, dict):
            continue
        figures = ", ".join(f"{c} {_text(entry[c])}" for c in CATEGORIES if c in entry)
        result[plant_key(str(plant_id))] = f"{figures or 'no figure'}: {entry.get('reason', '')}"
    return result


def _correction_changes(old: Deck, new: Deck) -> list[FieldChange]:
    before, after = _corrections(old), _corrections(new)
    return [
        FieldChange(field=key, old=before.get(key, ""), new=after.get(key, ""))
        for key in dict.fromkeys([*before, *after])
        if before.get(key) != after.get(key)
    ]


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


def load_for_diff(
    path: str | Path, spec_path: str | Path, keep_from: Path | None = None
) -> tuple[Deck, set[str] | None]:
    """A deck file as it is, or the deck the spec builds from a snapshot (keeping the
    places of ``keep_from`` when given); and the plant keys of the snapshot it was built
    from, when that can be read."""
    from kraftstokk.deck.build import build_from_spec_file
    from kraftstokk.deck.io import load_deck
    from kraftstokk.deck.validate import require_figures_in_range

    path = Path(path)
    if not path.exists():
        raise InputFileError(path, "no such file")
    if is_snapshot_csv(path):
        result = build_from_spec_file(spec_path, snapshot_override=path, keep_from=keep_from)
        return result.deck, _snapshot_keys(path)
    try:
        deck = load_deck(path)
    except InputFileError as exc:
        if not exc.reason.startswith("not a deck table"):
            raise
        raise InputFileError(
            path,
            "neither a deck CSV (columns id, joker, suit, value, nr_mw, ...) nor a snapshot "
            "CSV (columns id, name, mw, gwh, head_m, ...); make a snapshot with "
            "'kraftstokk ingest' first",
        ) from None
    require_figures_in_range(deck, str(path))
    snapshot = Path(deck.snapshot.path) if deck.snapshot.path else None
    candidates = [] if snapshot is None else [snapshot, path.parent / snapshot]
    keys = next((k for c in candidates if (k := _snapshot_keys(c)) is not None), None)
    return deck, keys


def _snapshot_keys(path: Path) -> set[str] | None:
    """The plant keys of a snapshot, or None when it cannot be read (it is only a hint)."""
    from kraftstokk.sources.snapshot import read_snapshot_plants

    try:
        return {plant_key(plant.id) for plant in read_snapshot_plants(path)}
    except (InputFileError, OSError):
        return None


def diff_files(
    old: str | Path, new: str | Path, spec_path: str | Path, keep_from: str | Path | None = None
) -> DeckDiff:
    """The diff of two deck files or snapshots; the verdict is drawn in the layout the
    old deck's cards were printed in (its render record), as every command draws it.

    Two snapshots are built with the spec, dealt afresh, or keeping the places of the
    deck ``keep_from`` (as ``build --keep-from`` does); and what changed in the source
    outside the deck is said too."""
    from kraftstokk.deck.reprint import printed_layout

    old, new = Path(old), Path(new)
    snapshots = is_snapshot_csv(old) and is_snapshot_csv(new)
    kept_deck = Path(keep_from) if keep_from is not None else None
    if kept_deck is not None and not snapshots:
        raise InputFileError(
            kept_deck, "--keep-from goes with two snapshots (two decks are compared as they are)"
        )
    old_deck, _ = load_for_diff(old, spec_path, kept_deck)
    new_deck, new_snapshot = load_for_diff(new, spec_path, kept_deck)
    snapshot = is_snapshot_csv(old)
    kept = f"DECK (the deck.json printed from {old})" if snapshot else str(old)
    kept = str(kept_deck) if kept_deck is not None else kept
    layout = None if snapshot else printed_layout(old, old_deck)
    result = diff_decks(old_deck, new_deck, str(old), str(new), new_snapshot, kept, layout)
    if snapshots:
        result.source = _source_changes(old, old_deck, new, new_deck)
        result.dealt = (
            f"both snapshots built with the spec keeping the places of {kept_deck}"
            if kept_deck is not None
            else "both snapshots dealt afresh by the spec's policy (give --keep-from DECK, the "
            "deck printed, to keep its places, as build --keep-from does)"
        )
    return result


def _source_changes(old: Path, old_deck: Deck, new: Path, new_deck: Deck) -> SourceChanges:
    from kraftstokk.sources.snapshot import read_snapshot_plants

    def keys(deck: Deck) -> set[str]:
        return {plant_key(card.plant_id) for card in deck.plant_cards if card.plant_id}

    return source_changes(
        str(old),
        read_snapshot_plants(old),
        str(new),
        read_snapshot_plants(new),
        keys(old_deck),
        keys(new_deck),
    )
