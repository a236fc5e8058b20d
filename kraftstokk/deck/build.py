"""Build a deck from a snapshot's plants and a deck spec."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kraftstokk.deck.assign import KeepReport, assign_suits_and_values, keep_previous, suit_totals
from kraftstokk.deck.flags import joker_flags, plant_flags, war_partners
from kraftstokk.deck.rank import Tie, rank_all, tie_break_words
from kraftstokk.deck.select import SelectionResult, rank_item, select_plants
from kraftstokk.deck.spec import DeckSpec, load_spec
from kraftstokk.models import (
    CATEGORY_LABELS,
    CATEGORY_UNITS,
    JOKERS,
    SUITS,
    Card,
    Deck,
    Plant,
    Ranks,
    SnapshotInfo,
    Suit,
    card_id,
)


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
    #: Problems with the input that did not stop the build (a snapshot without provenance).
    warnings: list[str] = field(default_factory=list)

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
        if self.keep is not None:
            out.extend(self.keep.lines())
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


def card_order(suit: Suit, value: int) -> tuple[int, int]:
    return SUITS.index(suit), value


def build_deck(
    plants: Sequence[Plant],
    spec: DeckSpec,
    snapshot_info: SnapshotInfo,
    previous: Deck | None = None,
) -> BuildResult:
    """The 55-card deck: selection, suits and values, nr. per category and flags.

    With ``previous`` (``policy.keep``), plants of the previous deck keep their cards.
    """
    selection = select_plants(plants, spec)
    chosen = selection.plants
    ranking = rank_all([rank_item(plant) for plant in chosen], spec.tie_break)
    by_production = sorted(chosen, key=lambda plant: ranking.nr["gwh"][plant.id])
    keep_report: KeepReport | None = None
    if previous is None:
        assignment = assign_suits_and_values(chosen, by_production, spec)
    else:
        held = {
            card.plant_id: (card.suit, card.value)
            for card in previous.plant_cards
            if card.plant_id and card.suit and card.value
        }
        assignment, entering, _ = keep_previous(by_production, held, spec)
        keep_report = _keep_report(previous, plants, spec, selection, assignment, entering)

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
                name=spec.names.get(plant.id, plant.name),
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
        snapshot=snapshot_info,
        spec=spec.model_dump(mode="json"),
        cards=cards,
    )
    plant_card = {card.plant_id: card for card in cards if card.plant_id}
    report = BuildReport(
        snapshot_path=snapshot_info.path,
        snapshot_plants=len(plants),
        eligible=selection.eligible,
        policy=spec.policy.kind,
        tie_break=spec.tie_break,
        pinned=selection.pinned,
        group_minimums=selection.group_minimums,
        lowest_selected={"name": by_production[-1].name, "gwh": by_production[-1].gwh},
        suit_production={s: round(t, 3) for s, t in suit_totals(chosen, assignment).items()},
        ties=[_tie_note(tie, plant_card) for tie in ranking.ties],
        renamed={p: n for p, n in spec.names.items() if p in plant_card},
        cut_tie=_cut_tie(selection.cut_ties, chosen, spec),
        keep=keep_report,
    )
    return BuildResult(deck=deck, report=report)


def _keep_report(
    previous: Deck,
    plants: Sequence[Plant],
    spec: DeckSpec,
    selection: SelectionResult,
    assignment: dict[str, tuple[Suit, int]],
    entering: Sequence[Plant],
) -> KeepReport:
    in_snapshot = {plant.id for plant in plants}
    in_deck = {plant.id for plant in selection.plants}
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
        if not card.plant_id or card.plant_id in in_deck:
            continue
        if card.plant_id not in in_snapshot:
            why = "no longer in the snapshot"
        elif card.plant_id in selection.excluded:
            why = "excluded in the spec"
        else:
            why = f"no longer among the {len(selection.plants)} highest by {by}{first}"
        report.left.append((card.id, card.name or "", card.plant_id, why))
    for plant in entering:
        place = card_id(*assignment[plant.id])
        before = holder.get(place)
        who = f"{before.name} ({before.plant_id})" if before else "no card of the previous deck"
        report.entered.append((place, spec.names.get(plant.id, plant.name), plant.id, who))
    return report


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


def snapshot_path_for(spec_path: Path, spec: DeckSpec) -> Path:
    """The spec's snapshot, relative to the spec file's folder."""
    snapshot = Path(spec.snapshot)
    return snapshot if snapshot.is_absolute() else spec_path.parent / snapshot


def build_from_spec_file(
    spec_path: str | Path,
    snapshot_override: str | Path | None = None,
    keep_from: str | Path | None = None,
    out_dir: str | Path | None = None,
) -> BuildResult:
    """Read the spec and its snapshot, and build the deck.

    ``keep_from`` (``build --keep-from``) overrides the spec's ``policy.keep``; a path in
    the spec is relative to the spec file, one given here to the working folder. With
    ``out_dir``, refuse to build a deck whose files would overwrite the spec or the
    snapshot it is built from (the previous deck may be overwritten: it is read first).
    """
    from kraftstokk.atomic import refuse_overwriting
    from kraftstokk.deck.io import deck_files, load_deck
    from kraftstokk.deck.snapshot_info import read_plants
    from kraftstokk.sources.snapshot import provenance_path

    spec_path = Path(spec_path)
    spec = load_spec(spec_path)
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
        previous_path = Path(spec.policy.keep)
        if not previous_path.is_absolute():
            previous_path = spec_path.parent / previous_path
    previous = load_deck(previous_path) if previous_path is not None else None
    plants, info, warnings = read_plants(snapshot_path)
    result = build_deck(plants, spec, info, previous)
    result.report.warnings.extend(warnings)
    return result
