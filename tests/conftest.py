"""Shared fixtures: a synthetic but complete 55-card deck for tests of later stages."""

from __future__ import annotations

import os
import random
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kraftstokk.models import (
    CATEGORIES,
    SUITS,
    Card,
    CardFlags,
    CategoryFlags,
    Deck,
    Plant,
    Ranks,
    SnapshotInfo,
)

#: The loopback HTTP server fixture ``server`` (tests/loopback.py), for every fetch test.
pytest_plugins = ["tests.loopback"]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """``make fuzz`` (the long fuzzing profile): each reader's runs, times and memory."""
    from tests import fuzzing

    if fuzzing.LONG and fuzzing.RUNS:
        terminalreporter.write_sep("-", "fuzzed readers (tests/fuzzing.py)")
        for line in fuzzing.summary():
            terminalreporter.write_line(line)


def pytest_configure(config: pytest.Config) -> None:
    """Compile what of the game engine is older than its sources before any test imports
    it (tests/native_build.py), so that the tests test the sources as they are."""
    from tests.native_build import compile_stale_engine

    # The cache of validated decks (kraftstokk/games/play_deck.py): one of the test run's
    # own, not the user's, for in-process runs and the commands the tests start alike.
    os.environ["KRAFTSTOKK_CACHE_DIR"] = tempfile.mkdtemp(prefix="kraftstokk-test-cache-")
    said = compile_stale_engine()
    if said:
        print(said, file=sys.stderr)


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(os.environ.get("KRAFTSTOKK_CACHE_DIR", ""), ignore_errors=True)


NAMES = (
    "Tonstad",
    "Kvilldal",
    "Sima",
    "Aurland I",
    "Saurdal",
    "Tokke",
    "Rana",
    "Svartisen",
    "Mauranger",
    "Nedre Røssåga",
    "Kobbelv",
    "Brokke",
    "Tyin",
    "Sy-Sima",
    "Holen",
    "Vinje",
    "Lang-Sima",
    "Mår",
    "Skjomen",
    "Jostedal",
    "Øvre Vinstra",
    "Hol I",
    "Nes",
    "Aura",
    "Tjodan",
    "Ulla-Førre",
    "Blåsjø",
    "Duge",
    "Songa",
    "Sønnå Høy",
    "Hylen",
    "Lysebotn II",
    "Bratsberg",
    "Grytten",
    "Trollheim",
    "Fortun",
    "Leirdøla",
    "Naddvik",
    "Svelgen",
    "Usma",
    "Straumsmo",
    "Innset",
    "Bardufoss",
    "Kvænangsbotn",
    "Adamselv",
    "Alta",
    "Porsa",
    "Skibotn",
    "Nygård",
    "Båtsvatn",
    "Sildvik",
    "Nore I",
)


def _by_figure(plants: list[dict[str, Any]], category: str) -> list[dict[str, Any]]:
    return sorted(plants, key=lambda plant: -float(plant[category]))


def synthetic_deck(seed: int = 7) -> Deck:
    """52 plants with distinct figures (some sharing production tens) and 3 jokers.

    Figures are random but reproducible; nr. and flags are computed directly here so
    that tests of rendering, games and simulation do not depend on the deck builder.
    """
    rng = random.Random(seed)
    plants: list[dict[str, Any]] = []
    for i, name in enumerate(NAMES[:52]):
        plants.append(
            {
                "plant_id": f"N{100 + i}",
                "name": name,
                "mw": round(rng.uniform(20, 1500), 1) + i / 100,
                "gwh": float(4405 - i * 81 + (80 if i % 9 == 1 else 0)),
                "head_m": float(round(rng.uniform(30, 1100)) + i / 10),
            }
        )
    by_gwh = sorted(plants, key=lambda p: -p["gwh"])
    values = [1, *range(13, 1, -1)]
    cards: list[Card] = []
    for position, plant in enumerate(by_gwh):
        suit = SUITS[position % 4]
        value = values[position // 4]
        ranks = {c: 1 + _by_figure(plants, c).index(plant) for c in CATEGORIES}
        cards.append(
            Card(
                id=f"{suit}-{value}",
                joker=False,
                suit=suit,
                value=value,
                nr=Ranks(**ranks),
                flags=CardFlags(
                    invisible=CategoryFlags(**{c: r >= 50 for c, r in ranks.items()}),
                    top3=CategoryFlags(**{c: r <= 3 for c, r in ranks.items()}),
                    burn=suit == "kløver" and value <= 4,
                    reset=value == 2,
                    gwh_tens=int(plant["gwh"] // 10 * 10),
                ),
                **plant,
            )
        )
    for card in cards:
        card.flags.war_partners = [
            other.id
            for other in cards
            if other is not card and other.flags.gwh_tens == card.flags.gwh_tens
        ]
    for j in (1, 2, 3):
        cards.append(Card(id=f"joker-{j}", joker=True, flags=CardFlags(burn=True)))
    return Deck(
        title="Kraft-stokken",
        edition="test",
        snapshot=SnapshotInfo(
            path="synthetic",
            date="2026-01-01",
            source="synthetic test data",
            licence="CC BY 4.0",
            attribution="test",
        ),
        spec={},
        cards=cards,
    )


def synthetic_plants(count: int = 60, seed: int = 3) -> list[Plant]:
    """Plants with distinct, plausible figures (no ties, production below capacity x 8760 h).

    For deck-builder tests; names come from NAMES (a number added past the 52nd).
    """
    rng = random.Random(seed)
    mws = [tenths / 10 for tenths in rng.sample(range(200, 12000), count)]
    heads = [tenths / 10 for tenths in rng.sample(range(200, 11000), count)]
    gwhs: list[float] = []
    for mw in mws:
        gwh = round(mw * rng.uniform(2.0, 6.0), 1)
        while gwh in gwhs:
            gwh = round(gwh + 0.1, 1)
        gwhs.append(gwh)
    return [
        Plant(
            id=f"S{i:03d}",
            name=NAMES[i % 52] if i < 52 else f"{NAMES[i % 52]} {i // 52 + 1}",
            mw=mws[i],
            gwh=gwhs[i],
            head_m=heads[i],
            source="synthetic",
            source_id=f"S{i:03d}",
        )
        for i in range(count)
    ]


@pytest.fixture
def deck() -> Deck:
    return synthetic_deck()


@pytest.fixture
def deck_file(deck: Deck, tmp_path: Path) -> Path:
    """The synthetic deck written as ``tmp_path/deck.json`` (a test file may define its own)."""
    path = tmp_path / "deck.json"
    path.write_text(deck.model_dump_json(indent=1), encoding="utf-8")
    return path


@pytest.fixture
def locale_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the locale folders that the loader reads instead (edit it in a test)."""
    from kraftstokk import locales
    from kraftstokk.locales import loader

    original = Path(loader.__file__).resolve().parent
    copy = tmp_path / "locales"
    for code in locales.languages():
        shutil.copytree(original / code, copy / code)
    monkeypatch.setattr(loader, "_folder", lambda: copy)
    locales.reset()
    yield copy
    monkeypatch.undo()
    locales.reset()
