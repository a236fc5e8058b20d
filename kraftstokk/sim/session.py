"""One ``simulate`` run from deck files to output files: the library behind the command.

Loads and checks the deck(s), plays the games, writes ``sim-<game>.json``, the optional
``sim-<game>-compare.json`` and the ``sim-<game>.pdf`` report, each atomically.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kraftstokk.atomic import write_text
from kraftstokk.games import registry
from kraftstokk.games.core import DeckTable
from kraftstokk.models import Deck
from kraftstokk.sim.compare import Difference, compare_tallies, comparison_document, format_table
from kraftstokk.sim.findings import FindingRules, run_findings
from kraftstokk.sim.metrics import RunInfo, Tally, summarize
from kraftstokk.sim.runner import (
    SimSettings,
    build_game,
    check_arguments,
    check_settings,
    run_simulation,
)

ProgressFactory = Callable[[str], Callable[[int, int], None]]


def load_deck(path: Path) -> Deck:
    """Read a deck (JSON, CSV or workbook) and refuse it when it fails validation (exit 1)."""
    from kraftstokk.deck.io import load_valid_deck

    return load_valid_deck(path)


def bot_labels(spec: str, players: int) -> list[str]:
    """One readable bot per seat: ``greedy`` or ``heuristic:knowledge=0.5``."""
    labels = []
    for kind, settings in registry.parse_bot_spec(spec, players):
        extra = "".join(f":{key}={value}" for key, value in settings.items())
        labels.append(kind + extra)
    return labels


def cards_in_play(table: DeckTable, settings: SimSettings) -> tuple[int, ...]:
    """The card indices the game deals (Idiot leaves the jokers out)."""
    state = build_game(table, settings).new_initial_state(random.Random(0))
    return tuple(sorted(state.cards_in_play()))


@dataclass
class DeckRun:
    """One deck's run: its tally and its ``sim-<game>.json`` summary."""

    tally: Tally
    summary: dict[str, Any]
    interrupted: bool


@dataclass
class SimulationFiles:
    """What a ``simulate`` call produced."""

    main: DeckRun
    json_path: Path | None  # None when Ctrl-C came before any game was played
    report_path: Path | None = None
    compare_path: Path | None = None
    other: DeckRun | None = None
    differences: list[Difference] = field(default_factory=list)
    table: str = ""


def simulate_deck(
    deck: Deck,
    deck_path: Path,
    settings: SimSettings,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    rules: FindingRules | None = None,
) -> DeckRun:
    """Play the games of ``settings`` with ``deck`` and summarize them."""
    table = DeckTable.from_deck(deck)
    outcome = run_simulation(table, settings, workers, progress)
    summary = describe_run(
        outcome.tally,
        table,
        settings,
        deck,
        deck_path,
        elapsed=outcome.elapsed,
        workers=outcome.workers,
        interrupted=outcome.interrupted,
        rules=rules,
    )
    return DeckRun(outcome.tally, summary, outcome.interrupted)


def describe_run(
    tally: Tally,
    table: DeckTable,
    settings: SimSettings,
    deck: Deck,
    deck_path: Path | str,
    *,
    elapsed: float,
    workers: int,
    interrupted: bool,
    rules: FindingRules | None = None,
) -> dict[str, Any]:
    """The ``sim-<game>.json`` summary of a tally, with its findings in words."""
    in_play = cards_in_play(table, settings)
    info = RunInfo(
        game=settings.game,
        players=settings.players,
        bots=bot_labels(settings.bots, settings.players),
        seed=settings.seed,
        games_requested=settings.games,
        variants=sorted(settings.variants),
        action_cap=settings.action_cap,
        deck_path=str(deck_path),
        deck_title=deck.title,
        deck_edition=deck.edition,
        card_ids=table.ids,
        card_names=table.names,
        cards_in_play=in_play,
    )
    summary = summarize(tally, info, elapsed=elapsed, workers=workers, interrupted=interrupted)
    findings = run_findings(
        tally,
        game=settings.game,
        players=settings.players,
        action_cap=settings.action_cap,
        card_labels={card: table.describe(card) for card in in_play},
        rules=rules,
    )
    summary["findings"] = [finding.as_dict() for finding in findings]
    summary["confidence"] = (rules or FindingRules()).confidence
    return summary


def _dump(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def simulate(
    deck_path: Path,
    settings: SimSettings,
    out_dir: Path,
    *,
    workers: int | None = None,
    compare_path: Path | None = None,
    report: bool = True,
    progress: ProgressFactory | None = None,
    rules: FindingRules | None = None,
) -> SimulationFiles:
    """Run the simulation (and the comparison) and write its files under ``out_dir``."""
    check_arguments(settings)
    deck = load_deck(deck_path)
    other_deck = load_deck(compare_path) if compare_path is not None else None
    check_settings(DeckTable.from_deck(deck), settings)
    if other_deck is not None:
        check_settings(DeckTable.from_deck(other_deck), settings)

    main = simulate_deck(
        deck,
        deck_path,
        settings,
        workers,
        progress(deck_path.name) if progress else None,
        rules,
    )
    if main.tally.games == 0:
        return SimulationFiles(main=main, json_path=None)
    json_path = out_dir / f"sim-{settings.game}.json"
    write_text(json_path, _dump(main.summary))
    files = SimulationFiles(main=main, json_path=json_path)

    if other_deck is not None and compare_path is not None and not main.interrupted:
        other = simulate_deck(
            other_deck,
            compare_path,
            settings,
            workers,
            progress(compare_path.name) if progress else None,
            rules,
        )
        files.other = other
        if not other.interrupted:
            files.differences = compare_tallies(main.tally, other.tally, settings.players)
            document = comparison_document(main.summary, other.summary, files.differences)
            files.compare_path = out_dir / f"sim-{settings.game}-compare.json"
            write_text(files.compare_path, _dump(document))
            legend = f"A = {deck_path}, B = {compare_path} (same seeds)"
            files.table = legend + "\n" + format_table(files.differences, "A", "B")

    if report:
        from kraftstokk.sim.report import write_report

        files.report_path = out_dir / f"sim-{settings.game}.pdf"
        labels = (str(deck_path), str(compare_path))
        write_report(files.report_path, main.summary, files.differences or None, labels)
    return files
