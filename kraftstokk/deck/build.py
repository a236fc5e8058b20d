"""Build a deck from a snapshot's plants and a deck spec."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kraftstokk.deck.assign import assign_suits_and_values, suit_totals
from kraftstokk.deck.flags import joker_flags, plant_flags, war_partners
from kraftstokk.deck.rank import Tie, rank_all
from kraftstokk.deck.select import rank_item, select_plants
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
    excluded_not_in_snapshot: list[str] = field(default_factory=list)
    group_minimums: dict[str, int] = field(default_factory=dict)
    lowest_selected: dict[str, Any] = field(default_factory=dict)
    suit_production: dict[str, float] = field(default_factory=dict)
    ties: list[TieNote] = field(default_factory=list)
    renamed: dict[str, str] = field(default_factory=dict)
    #: The last plant taken in and the plants left out with the same selection figure.
    cut_tie: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [
            f"snapshot {self.snapshot_path}: {self.snapshot_plants} plants, "
            f"{self.eligible} eligible, 52 selected"
            + (f" ({len(self.pinned)} pinned)" if self.pinned else ""),
            f"lowest selected: {self.lowest_selected.get('name')} "
            f"({_number(self.lowest_selected.get('gwh', 0))} GWh)",
            f"policy {self.policy}; production per suit: "
            + ", ".join(f"{s} {_number(t)} GWh" for s, t in self.suit_production.items()),
            f"tie-break rule {self.tie_break}: {len(self.ties)} ties broken",
        ]
        out.extend(f"  {tie.line()}" for tie in self.ties)
        if self.cut_tie:
            out.append(
                f"tie at the selection cut: {self.cut_tie[0]} is in, "
                f"{', '.join(self.cut_tie[1:])} left out with the same figure (tie-break rule)"
            )
        for group, count in self.group_minimums.items():
            out.append(f"minimum met: {group}: {count}")
        if self.excluded_not_in_snapshot:
            out.append(
                "note: excluded plants not in this snapshot: "
                + ", ".join(self.excluded_not_in_snapshot)
            )
        if self.renamed:
            out.append(f"display names from the spec: {len(self.renamed)}")
        return out


@dataclass
class BuildResult:
    deck: Deck
    report: BuildReport


def _number(value: float) -> str:
    return f"{value:,.0f}" if value == int(value) else f"{value:,.1f}"


def card_order(suit: Suit, value: int) -> tuple[int, int]:
    return SUITS.index(suit), value


def build_deck(plants: Sequence[Plant], spec: DeckSpec, snapshot_info: SnapshotInfo) -> BuildResult:
    """The 55-card deck: selection, suits and values, nr. per category and flags."""
    selection = select_plants(plants, spec)
    chosen = selection.plants
    ranking = rank_all([rank_item(plant) for plant in chosen], spec.tie_break)
    by_production = sorted(chosen, key=lambda plant: ranking.nr["gwh"][plant.id])
    assignment = assign_suits_and_values(chosen, by_production, spec)

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
        excluded_not_in_snapshot=selection.excluded_missing,
        group_minimums=selection.group_minimums,
        lowest_selected={"name": by_production[-1].name, "gwh": by_production[-1].gwh},
        suit_production={s: round(t, 3) for s, t in suit_totals(chosen, assignment).items()},
        ties=[_tie_note(tie, plant_card) for tie in ranking.ties],
        renamed={p: n for p, n in spec.names.items() if p in plant_card},
        cut_tie=_cut_tie(selection.cut_ties, chosen, spec),
    )
    return BuildResult(deck=deck, report=report)


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
    out_dir: str | Path | None = None,
) -> BuildResult:
    """Read the spec and its snapshot, and build the deck.

    With ``out_dir``, refuse to build a deck whose files would overwrite the spec or the
    snapshot it is built from.
    """
    from kraftstokk.atomic import refuse_overwriting
    from kraftstokk.deck.snapshot_info import read_plants
    from kraftstokk.sources.snapshot import provenance_path

    spec_path = Path(spec_path)
    spec = load_spec(spec_path)
    snapshot_path = (
        Path(snapshot_override) if snapshot_override else snapshot_path_for(spec_path, spec)
    )
    if out_dir is not None:
        inputs = (spec_path, snapshot_path, provenance_path(snapshot_path))
        refuse_overwriting(inputs, [Path(out_dir) / "deck.json", Path(out_dir) / "deck.csv"])
    plants, info = read_plants(snapshot_path)
    return build_deck(plants, spec, info)
