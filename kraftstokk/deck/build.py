"""Build a deck from a snapshot's plants and a deck spec."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kraftstokk.deck.assign import (
    KeepReport,
    LadderCheck,
    assign_suits_and_values,
    keep_previous,
    ladder_breaks,
    suit_totals,
)
from kraftstokk.deck.carry import (
    CarryReport,
    PlaceSource,
    carry_places,
    credited,
    deck_places,
    file_places,
)
from kraftstokk.deck.corrections import CorrectionReport, apply_corrections
from kraftstokk.deck.derive import card_order
from kraftstokk.deck.flags import joker_flags, plant_flags, war_partners
from kraftstokk.deck.rank import Tie, rank_all, tie_break_words
from kraftstokk.deck.select import SelectionResult, rank_item, select_plants
from kraftstokk.deck.spec import DeckSpec, load_spec
from kraftstokk.errors import InputFileError
from kraftstokk.models import (
    CATEGORY_LABELS,
    CATEGORY_UNITS,
    DECK_SIZE,
    JOKERS,
    Card,
    Deck,
    Plant,
    Ranks,
    SnapshotInfo,
    Suit,
    card_id,
)
from kraftstokk.sources.plant_keys import plant_key


@dataclass
class TieNote:
    """A tie the rule broke: which cards, which figure, which nr. each got."""

    category: str
    figure: float
    cards: list[str]
    names: list[str]
    nrs: list[int]

    def line(self) -> str:
        unit = CATEGORY_UNITS.get(self.category, "")  # type: ignore[call-overload]
        label = CATEGORY_LABELS.get(self.category, self.category)  # type: ignore[call-overload]
        who = ", ".join(
            f"nr. {nr} {card} ({name})"
            for nr, card, name in zip(self.nrs, self.cards, self.names, strict=True)
        )
        return f"tie in {label} at {_number(self.figure)} {unit}: {who}"


@dataclass
class BuildReport:
    snapshot_path: str
    snapshot_plants: int
    eligible: int
    policy: str
    tie_break: str
    pinned: list[str] = field(default_factory=list)
    group_minimums: dict[str, int] = field(default_factory=dict)
    lowest_selected: dict[str, Any] = field(default_factory=dict)
    suit_production: dict[str, float] = field(default_factory=dict)
    ties: list[TieNote] = field(default_factory=list)
    renamed: dict[str, str] = field(default_factory=dict)
    #: The last plant taken in and the plants left out with the same selection figure.
    cut_tie: list[str] = field(default_factory=list)
    #: With policy.keep: what stayed, left and entered.
    keep: KeepReport | None = None
    #: Places and types carried from the previous deck or the spec's carry_from.
    carried: CarryReport = field(default_factory=CarryReport)
    #: Hand corrections of figures applied (the spec's [figures], the previous deck's).
    corrections: CorrectionReport = field(default_factory=CorrectionReport)
    #: Where kept places left the production ladder (RULES.md D-6), and what a new deal
    #: would reprint instead of this build: (faces without keep, faces with it).
    ladder: LadderCheck = field(default_factory=LadderCheck)
    ladder_cost: tuple[int, int] | None = None
    #: Problems with the input that did not stop the build (a snapshot without provenance).
    warnings: list[str] = field(default_factory=list)
    #: Figures of a kept deck.csv or deck.xlsx that differ from its deck.json (edited by
    #: hand, not repaired): read as hand corrections, as repair would record them.
    unrepaired: list[str] = field(default_factory=list)
    unrepaired_from: str = ""
    #: What those figures differ from.
    unrepaired_against: str = "the deck.json beside it"

    def lines(self) -> list[str]:
        out = [
            f"snapshot {self.snapshot_path}: {self.snapshot_plants} plants, "
            f"{self.eligible} eligible, 52 selected"
            + (f" ({len(self.pinned)} pinned)" if self.pinned else ""),
            f"lowest selected: {self.lowest_selected.get('name')} "
            f"({_number(self.lowest_selected.get('gwh', 0))} GWh)",
            f"policy {self.policy}{'' if self.keep is None else ' (keeping a previous deck)'}; "
            "production per suit: "
            + ", ".join(f"{s} {_number(t)} GWh" for s, t in self.suit_production.items()),
            f"{tie_break_words(self.tie_break)}: {len(self.ties)} ties broken",
        ]
        out.extend(f"  {tie.line()}" for tie in self.ties)
        if self.unrepaired:
            out.append(
                f"warning: {self.unrepaired_from} holds {len(self.unrepaired)} figure(s) edited "
                f"by hand and not repaired (they differ from {self.unrepaired_against}); read as "
                f"hand corrections, as `kraftstokk repair {self.unrepaired_from}` records them:"
            )
            out.extend(f"  {line}" for line in self.unrepaired)
        out.extend(self.corrections.lines())
        if self.keep is not None:
            out.extend(self.keep.lines())
        out.extend(self.ladder.lines())
        if self.ladder_cost is not None:
            anew, kept = self.ladder_cost
            out.append(
                f"  a build without --keep-from deals the ladder anew, every value following "
                f"production: it reprints {anew} faces, this build {kept}"
            )
        out.extend(self.carried.lines())
        if self.cut_tie:
            out.append(
                f"tie at the selection cut: {self.cut_tie[0]} is in, "
                f"{', '.join(self.cut_tie[1:])} left out with the same figure (tie-break rule)"
            )
        for group, count in self.group_minimums.items():
            out.append(f"minimum met: {group}: {count}")
        if self.renamed:
            out.append(f"display names from the spec: {len(self.renamed)}")
        out.extend(f"warning: {warning}" for warning in self.warnings)
        return out


@dataclass
class BuildResult:
    deck: Deck
    report: BuildReport


def _number(value: float) -> str:
    return f"{value:,.0f}" if value == int(value) else f"{value:,.1f}"


def build_deck(
    plants: Sequence[Plant],
    spec: DeckSpec,
    snapshot_info: SnapshotInfo,
    previous: Deck | None = None,
    place_sources: Sequence[PlaceSource] = (),
    previous_label: str | None = None,
) -> BuildResult:
    """The 55-card deck: selection, suits and values, nr. per category and flags.

    Hand corrections (the spec's ``[figures]``) are applied first. With ``previous``
    (``policy.keep``), plants of the previous deck keep their cards (matched by plant
    key), its recorded corrections are carried, and its places and types fill what the
    snapshot lacks, before ``place_sources`` (the spec's ``carry_from``).
    """
    label = previous_label or spec.policy.keep or "the previous deck"
    plants, corrections, recorded = apply_corrections(plants, spec, previous, label)
    selection = select_plants(plants, spec)
    sources = [deck_places(previous, label), *place_sources] if previous else list(place_sources)
    chosen, carried, used = carry_places(selection.plants, sources)
    selection.plants = chosen
    deck_info = credited(snapshot_info, used, carried)
    ranking = rank_all([rank_item(plant) for plant in chosen], spec.tie_break)
    by_production = sorted(chosen, key=lambda plant: ranking.nr["gwh"][plant.id])
    keep_report: KeepReport | None = None
    if previous is None:
        assignment = assign_suits_and_values(chosen, by_production, spec)
    else:
        held = {
            plant_key(card.plant_id): (card.suit, card.value)
            for card in previous.plant_cards
            if card.plant_id and card.suit and card.value
        }
        assignment, entering, _ = keep_previous(by_production, held, spec)
        keep_report = _keep_report(previous, plants, spec, selection, assignment, entering)
        keep_report.previous = label

    ordered = sorted(chosen, key=lambda plant: card_order(*assignment[plant.id]))
    cards: list[Card] = []
    for plant in ordered:
        suit, value = assignment[plant.id]
        ranks = ranking.ranks_of(plant.id)
        cards.append(
            Card(
                id=card_id(suit, value),
                joker=False,
                suit=suit,
                value=value,
                plant_id=plant.id,
                name=selection.names.get(plant.id, plant.name),
                mw=plant.mw,
                gwh=plant.gwh,
                head_m=plant.head_m,
                lat=plant.lat,
                lon=plant.lon,
                type=plant.type,
                nr=Ranks(**ranks),
                flags=plant_flags(suit, value, ranks, plant.gwh),
            )
        )
    partners = war_partners([(card.id, card.flags.gwh_tens or 0) for card in cards])
    for card in cards:
        card.flags.war_partners = partners[card.id]
    cards.extend(
        Card(id=f"joker-{n}", joker=True, flags=joker_flags()) for n in range(1, JOKERS + 1)
    )

    deck = Deck(
        title=spec.title,
        edition=spec.edition,
        snapshot=deck_info,
        spec={**spec.model_dump(mode="json"), "figures": recorded},
        cards=cards,
    )
    plant_card = {card.plant_id: card for card in cards if card.plant_id}
    report = BuildReport(
        snapshot_path=deck_info.path,
        snapshot_plants=len(plants),
        eligible=selection.eligible,
        policy=spec.policy.kind,
        tie_break=spec.tie_break,
        pinned=selection.pinned,
        group_minimums=selection.group_minimums,
        lowest_selected={"name": by_production[-1].name, "gwh": by_production[-1].gwh},
        suit_production={s: round(t, 3) for s, t in suit_totals(chosen, assignment).items()},
        ties=[_tie_note(tie, plant_card) for tie in ranking.ties],
        renamed={p: n for p, n in selection.names.items() if p in plant_card},
        cut_tie=_cut_tie(selection.cut_ties, chosen, spec),
        keep=keep_report,
        carried=carried,
        corrections=corrections,
    )
    if previous is not None:
        report.ladder = ladder_breaks(deck)
        if report.ladder.breaks:
            report.ladder_cost = _cost_of_a_new_deal(
                previous, deck, plants, spec, snapshot_info, sources
            )
    return BuildResult(deck=deck, report=report)


def _cost_of_a_new_deal(
    previous: Deck,
    kept: Deck,
    plants: Sequence[Plant],
    spec: DeckSpec,
    info: SnapshotInfo,
    sources: Sequence[PlaceSource],
) -> tuple[int, int]:
    """Faces to reprint from ``previous`` by a new deal (no keep), and by ``kept``.

    ``plants`` are already corrected; the new deal carries the same places."""
    from kraftstokk.deck.reprint import reprint_verdict

    fresh_spec = spec.model_copy(
        update={"figures": {}, "policy": spec.policy.model_copy(update={"keep": None})}
    )
    fresh = build_deck(plants, fresh_spec, info, None, sources).deck
    anew = reprint_verdict(previous, fresh, causes=False)
    with_keep = reprint_verdict(previous, kept, causes=False)
    return len(anew.faces), len(with_keep.faces)


def _keep_report(
    previous: Deck,
    plants: Sequence[Plant],
    spec: DeckSpec,
    selection: SelectionResult,
    assignment: dict[str, tuple[Suit, int]],
    entering: Sequence[Plant],
) -> KeepReport:
    in_snapshot = {plant_key(plant.id) for plant in plants}
    in_deck = {plant_key(plant.id) for plant in selection.plants}
    excluded = {plant_key(plant_id) for plant_id in selection.excluded}
    by = {"gwh": "production", "mw": "capacity", "head_m": "head"}[spec.selection.by]
    first = (
        " after the pinned plants and group minimums"
        if (selection.pinned or selection.group_minimums)
        else ""
    )
    report = KeepReport(
        previous=spec.policy.keep or "the previous deck",
        kept=len(in_deck) - len(entering),
        how="by the production ladder among the freed places"
        if spec.policy.kind == "production-ladder"
        else f"dealt at random (seed {spec.policy.seed}) among the freed places",
    )
    holder = {card.id: card for card in previous.plant_cards}
    for card in previous.plant_cards:
        if not card.plant_id or plant_key(card.plant_id) in in_deck:
            continue
        if plant_key(card.plant_id) not in in_snapshot:
            why = "no longer in the snapshot"
        elif plant_key(card.plant_id) in excluded:
            why = "excluded in the spec"
        else:
            why = f"no longer among the {len(selection.plants)} highest by {by}{first}"
        report.left.append((card.id, card.name or "", card.plant_id, why))
    for plant in entering:
        place = card_id(*assignment[plant.id])
        before = holder.get(place)
        who = f"{before.name} ({before.plant_id})" if before else "no card of the previous deck"
        report.entered.append((place, selection.names.get(plant.id, plant.name), plant.id, who))
    if len(report.left) > DECK_SIZE // 2:
        report.alarm = _why_most_left(previous, plants, spec, report)
    return report


def _why_most_left(
    previous: Deck, plants: Sequence[Plant], spec: DeckSpec, report: KeepReport
) -> str:
    """The likely cause when most of a kept deck leaves: ids, selection or the snapshot."""
    gone = [entry for entry in report.left if entry[3] == "no longer in the snapshot"]
    if len(gone) > len(report.left) // 2:
        names = {plant.name.casefold(): plant for plant in plants}
        by_name = [names[name.casefold()] for _, name, _, _ in gone if name.casefold() in names]
        old_ids = ", ".join(entry[2] for entry in gone[:3])
        if len(by_name) > len(gone) // 2:
            new_ids = ", ".join(plant.id for plant in by_name[:3])
            return (
                f"{len(by_name)} of the {len(gone)} plants no longer in the snapshot are in it "
                f"by name, under other ids (previous deck: {old_ids}; snapshot: {new_ids}): "
                "the snapshot numbers its plants differently from the previous deck's source"
            )
        return (
            f"{len(gone)} of its plants ({old_ids}, ...) are not in the snapshot at all: is it "
            "filtered (ingest --min-mw), or from another source than the previous deck?"
        )
    previous_by = previous.spec.get("selection", {}).get("by") if previous.spec else None
    if previous_by and previous_by != spec.selection.by:
        return (
            f"the spec selects by {spec.selection.by}, the previous deck was selected by "
            f"{previous_by}: a kept deck needs the same [selection] by"
        )
    return (
        "their plants are in the snapshot but no longer among the highest: did the figures' "
        "unit or column change (MW against kW, another period of production)?"
    )


def _cut_tie(left_out: Sequence[Plant], chosen: Sequence[Plant], spec: DeckSpec) -> list[str]:
    if not left_out:
        return []
    figure = left_out[0].figure(spec.selection.by)
    taken = [p for p in chosen if p.figure(spec.selection.by) == figure]
    return [f"{p.name} ({p.id})" for p in [*taken[-1:], *left_out]]


def _tie_note(tie: Tie, plant_card: dict[str, Card]) -> TieNote:
    return TieNote(
        category=tie.category,
        figure=tie.figure,
        cards=[plant_card[key].id for key in tie.keys],
        names=[plant_card[key].name or "" for key in tie.keys],
        nrs=list(tie.nrs),
    )


def spec_relative(spec_path: Path, path: str) -> Path:
    """A path of the spec (snapshot, keep, carry_from), relative to the spec file's folder."""
    given = Path(path)
    return given if given.is_absolute() else spec_path.parent / given


def snapshot_path_for(spec_path: Path, spec: DeckSpec) -> Path:
    """The spec's snapshot, relative to the spec file's folder."""
    return spec_relative(spec_path, spec.snapshot)


def _carry_source(spec_path: Path, entry: str) -> PlaceSource:
    path = spec_relative(spec_path, entry)
    if not path.exists():
        raise InputFileError(
            path, f"no such file (carry_from in {spec_path}; paths are relative to the spec)"
        )
    return file_places(path)


def with_pins(spec: DeckSpec, pins: Sequence[str]) -> DeckSpec:
    """The spec with ``pins`` (``build --pin``) added to ``[selection] pinned``."""
    if not pins:
        return spec
    pinned = list(spec.selection.pinned)
    pinned.extend(pin for pin in pins if pin not in pinned)
    selection = spec.selection.model_copy(update={"pinned": pinned})
    return spec.model_copy(update={"selection": selection})


def build_from_spec_file(
    spec_path: str | Path,
    snapshot_override: str | Path | None = None,
    keep_from: str | Path | None = None,
    out_dir: str | Path | None = None,
    pins: Sequence[str] = (),
) -> BuildResult:
    """Read the spec and its snapshot, and build the deck.

    ``keep_from`` (``build --keep-from``) overrides the spec's ``policy.keep``; a path in
    the spec is relative to the spec file, one given here to the working folder. ``pins``
    (``build --pin``) are added to the spec's pinned plants. With ``out_dir``, refuse to
    build a deck whose files would overwrite the spec or the snapshot it is built from
    (the previous deck may be overwritten: it is read first).
    """
    from kraftstokk.atomic import refuse_overwriting
    from kraftstokk.deck.io import deck_files, load_deck
    from kraftstokk.deck.snapshot_info import read_plants
    from kraftstokk.sources.snapshot import provenance_path

    spec_path = Path(spec_path)
    spec = with_pins(load_spec(spec_path), pins)
    snapshot_path = (
        Path(snapshot_override) if snapshot_override else snapshot_path_for(spec_path, spec)
    )
    if out_dir is not None:
        inputs = (spec_path, snapshot_path, provenance_path(snapshot_path))
        refuse_overwriting(inputs, deck_files(out_dir).all())
    previous_path: Path | None = None
    if keep_from is not None:
        previous_path = Path(keep_from)
        policy = spec.policy.model_copy(update={"keep": previous_path.as_posix()})
        spec = spec.model_copy(update={"policy": policy})
    elif spec.policy.keep:
        previous_path = spec_relative(spec_path, spec.policy.keep)
    previous = load_deck(previous_path) if previous_path is not None else None
    unrepaired: list[str] = []
    against = ""
    if previous is not None and previous_path is not None:
        previous, unrepaired, against = _with_hand_edits(previous, previous_path)
    plants, info, warnings = read_plants(snapshot_path)
    places = [_carry_source(spec_path, path) for path in spec.carry_from]
    label = previous_path.as_posix() if previous_path is not None else None
    result = build_deck(plants, spec, info, previous, places, label)
    result.report.warnings.extend(warnings)
    if unrepaired and label is not None:
        result.report.unrepaired, result.report.unrepaired_from = unrepaired, label
        result.report.unrepaired_against = against
    return result


def _with_hand_edits(previous: Deck, path: Path) -> tuple[Deck, list[str], str]:
    """A kept deck.csv or deck.xlsx with the figures edited in it (against the deck.json
    beside it) recorded as hand corrections, as ``repair`` records them, so that a build
    never puts the source's figure back without a word; likewise a kept deck.json changed
    by hand after it was written (against the deck.csv written with it). A line for each,
    and what they were measured against."""
    from kraftstokk.deck.corrections import record_hand_edits
    from kraftstokk.deck.io import deck_json_beside, load_deck_json_file, require_as_written

    if path.suffix.lower() == ".json":
        written = require_as_written(path)
        if written is None:
            return previous, [], ""
        original, table = written
        against = f"the {table.name} written with it"
    else:
        beside = deck_json_beside(path) if path.suffix.lower() in (".csv", ".xlsx") else None
        if beside is None:
            return previous, [], ""
        original, against = load_deck_json_file(beside), "the deck.json beside it"
    spec, recorded = record_hand_edits(previous, original, str(path))
    return previous.model_copy(update={"spec": spec}), recorded, against
