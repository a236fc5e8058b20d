"""The reprint verdict against the print itself: render both print-shop files and compare
every page as a picture (scripts/compare_pdf_pixels.py).

The faces the verdict names must be exactly the front pages that differ, and it must say
the back changes exactly when a back page differs; every deck here is the embedded JRC
deck with one kind of yearly change, rebuilt keeping the old deck's places.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from kraftstokk.deck.build import BuildResult, build_deck
from kraftstokk.deck.reprint import ReprintVerdict, reprint_verdict
from kraftstokk.deck.snapshot_info import read_plants
from kraftstokk.deck.spec import DeckSpec, load_spec
from kraftstokk.design.layout import load_layout
from kraftstokk.models import Deck, Plant
from kraftstokk.render.printshop import printshop_pdf
from scripts.compare_pdf_pixels import differing_pages

SOURCES = Path(__file__).resolve().parents[1] / "sources"
DPI = 100  # a bar's step is 0.8 px, the map's grid 0.4 px: both show as changed pixels
LAYOUT = load_layout("poker")

Change = Callable[[list[Plant], DeckSpec], tuple[list[Plant], DeckSpec]]


def _build(plants: list[Plant], spec: DeckSpec, previous: Deck | None = None) -> BuildResult:
    _, info, _ = read_plants(SOURCES / "jrc-2024-01.csv")
    return build_deck(plants, spec, info, previous, previous_label="print-2024/deck.json")


@pytest.fixture(scope="module")
def printed() -> tuple[list[Plant], DeckSpec, Deck, bytes]:
    plants, _, _ = read_plants(SOURCES / "jrc-2024-01.csv")
    spec = load_spec(SOURCES / "deck.toml")
    old = _build(plants, spec).deck
    return plants, spec, old, printshop_pdf(old, LAYOUT)


def _top(plants: list[Plant], rank: int) -> Plant:
    return sorted(plants, key=lambda p: -p.gwh)[rank]


def figure_revised(plants: list[Plant], spec: DeckSpec) -> tuple[list[Plant], DeckSpec]:
    """A mid-table plant's production revised past four others (nr. shift, bar step)."""
    moved = _top(plants, 30)
    target = _top(plants, 26).gwh + 1
    return [p.model_copy(update={"gwh": target}) if p.id == moved.id else p for p in plants], spec


def plant_retired(plants: list[Plant], spec: DeckSpec) -> tuple[list[Plant], DeckSpec]:
    """The third-largest producer leaves the snapshot; the 53rd takes its card."""
    gone = _top(plants, 2)
    return [p for p in plants if p.id != gone.id], spec


def edition_and_name(plants: list[Plant], spec: DeckSpec) -> tuple[list[Plant], DeckSpec]:
    """A new edition (every face and the back) and a card name from [names]."""
    names = {**spec.names, _top(plants, 5).id: "Nytt Navn"}
    return plants, spec.model_copy(update={"edition": "2026-11", "names": names})


def place_and_type(plants: list[Plant], spec: DeckSpec) -> tuple[list[Plant], DeckSpec]:
    """One plant's place corrected by 0.3 degrees north, another's type."""
    a, b = _top(plants, 10), _top(plants, 40)
    update = {a.id: {"lat": (a.lat or 60) + 0.3}, b.id: {"type": "run-of-river"}}
    return [p.model_copy(update=update.get(p.id, {})) for p in plants], spec


def nothing(plants: list[Plant], spec: DeckSpec) -> tuple[list[Plant], DeckSpec]:
    return plants, spec


@pytest.mark.parametrize(
    "change", [nothing, figure_revised, plant_retired, edition_and_name, place_and_type]
)
def test_the_verdict_names_exactly_the_pages_that_print_differently(printed, change: Change):
    plants, spec, old, old_pdf = printed
    new_plants, new_spec = change(plants, spec)
    new = _build(new_plants, new_spec, previous=old).deck
    verdict = reprint_verdict(old, new, LAYOUT)
    assert [c.id for c in new.cards] == [c.id for c in old.cards]  # places kept: same pages
    pages = {d.page for d in differing_pages(old_pdf, printshop_pdf(new, LAYOUT), DPI)}
    # The offset preset alternates: page 2i + 1 is card i's face, page 2i + 2 its back.
    fronts = {old.cards[(page - 1) // 2].id for page in pages if page % 2 == 1}
    backs = {page for page in pages if page % 2 == 0}
    assert set(verdict.faces) == fronts
    assert verdict.back == bool(backs)
    _check_causes(change, verdict)


def _check_causes(change: Change, verdict: ReprintVerdict) -> None:
    kinds = [cause.kind for cause in verdict.causes]
    if change is nothing:
        assert not verdict.faces and not verdict.back and kinds == []
    elif change is figure_revised:
        assert kinds == ["figure"] and not verdict.back
        assert {"figures", "nr."} <= set(verdict.by_kind())
    elif change is plant_retired:
        assert kinds == ["placement"] and not verdict.back
        cause = verdict.causes[0]
        assert "leaves" in cause.says and "takes it" in cause.says
        assert len(cause.faces) == len(verdict.faces) > 10  # a nr. 3 leaving moves many nr.
    elif change is edition_and_name:
        assert kinds == ["edition", "name"] and verdict.back and len(verdict.faces) == 55
        assert verdict.keep_edition == "edition 2024-01" and verdict.keep_edition_faces == 1
    else:
        assert sorted(kinds) == ["place", "type"] and len(verdict.faces) == 2
