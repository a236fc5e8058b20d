"""One ``simulate`` run from deck files to output files: the library behind the command.

Loads and checks the deck(s), plays the games (with ``--compare``: both decks, chunk by
chunk, so their games pair up as they stream in), writes ``sim-<game>.json``, the
optional ``sim-<game>-compare.json`` and the ``sim-<game>.pdf`` report, each atomically.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kraftstokk.atomic import write_text
from kraftstokk.games import registry
from kraftstokk.games.core import DeckTable
from kraftstokk.models import Deck
from kraftstokk.sim.compare import Comparison, compare_runs, comparison_document, format_table
from kraftstokk.sim.findings import FindingRules, run_findings
from kraftstokk.sim.metrics import RunInfo, summarize
from kraftstokk.sim.runner import (
    SimOutcome,
    SimSettings,
    build_game,
    check_arguments,
    check_settings,
    run_paired,
    run_simulation,
)
from kraftstokk.sim.stream import RunStats
from kraftstokk.sim.verdict import deck_name, deck_names, verdict

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
    rules = dataclasses.replace(settings, games=1, seed=0, bots="", first=0)
    return _cards_in_play(table, rules)


@functools.lru_cache(maxsize=256)
def _cards_in_play(table: DeckTable, rules: SimSettings) -> tuple[int, ...]:
    # Building the game costs milliseconds (Kraftidioten's claim tables): a sweep asks
    # once per configuration, for few decks and rules.
    state = build_game(table, rules).new_initial_state(random.Random(0))
    return tuple(sorted(state.cards_in_play()))


@dataclass
class DeckRun:
    """One deck's run: its sums and its ``sim-<game>.json`` summary."""

    stats: RunStats
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
    comparison: Comparison | None = None
    verdict: str = ""
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
    return _deck_run(outcome.stats, outcome, table, settings, deck, deck_path, rules)


def _deck_run(
    stats: RunStats,
    outcome: SimOutcome,
    table: DeckTable,
    settings: SimSettings,
    deck: Deck,
    deck_path: Path,
    rules: FindingRules | None,
) -> DeckRun:
    summary = describe_run(
        stats,
        table,
        settings,
        deck,
        deck_path,
        elapsed=outcome.elapsed,
        workers=outcome.workers,
        interrupted=outcome.interrupted,
        rules=rules,
    )
    return DeckRun(stats, summary, outcome.interrupted)


def describe_run(
    stats: RunStats,
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
    """The ``sim-<game>.json`` summary of a run's sums, with its findings in words."""
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
    summary = summarize(stats, info, elapsed=elapsed, workers=workers, interrupted=interrupted)
    findings = run_findings(
        stats,
        game=settings.game,
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
    """Run the simulation (with ``compare_path``: both decks, game i against game i) and
    write its files under ``out_dir``."""
    check_arguments(settings)
    deck = load_deck(deck_path)
    other_deck = load_deck(compare_path) if compare_path is not None else None
    table = DeckTable.from_deck(deck)
    check_settings(table, settings)
    rules = rules or FindingRules()
    if other_deck is None or compare_path is None:
        label = deck_name({"title": deck.title, "edition": deck.edition})
        outcome = run_simulation(table, settings, workers, progress(label) if progress else None)
        main = _deck_run(outcome.stats, outcome, table, settings, deck, deck_path, rules)
        return _write(main, None, None, settings, out_dir, report)
    other_table = DeckTable.from_deck(other_deck)
    check_settings(other_table, settings)
    names = deck_names(
        {"title": deck.title, "edition": deck.edition, "path": str(deck_path)},
        {"title": other_deck.title, "edition": other_deck.edition, "path": str(compare_path)},
    )
    label = f"{names[0]} against {names[1]}"
    outcome = run_paired(
        table, other_table, settings, workers, progress(label) if progress else None
    )
    main = _deck_run(outcome.stats, outcome, table, settings, deck, deck_path, rules)
    if outcome.other is None or outcome.pair is None:
        raise AssertionError("a paired run gives both decks' sums")
    other = _deck_run(
        outcome.other, outcome, other_table, settings, other_deck, compare_path, rules
    )
    comparison = compare_runs(outcome.stats, outcome.other, outcome.pair, rules.confidence)
    return _write(main, other, comparison, settings, out_dir, report)


def _write(
    main: DeckRun,
    other: DeckRun | None,
    comparison: Comparison | None,
    settings: SimSettings,
    out_dir: Path,
    report: bool,
) -> SimulationFiles:
    """Write sim-GAME.json, the comparison and the report, each atomically."""
    if main.stats.games == 0:
        return SimulationFiles(main=main, json_path=None, other=other)
    json_path = out_dir / f"sim-{settings.game}.json"
    write_text(json_path, _dump(main.summary))
    files = SimulationFiles(main=main, json_path=json_path, other=other, comparison=comparison)
    if other is not None and comparison is not None:
        deck_a, deck_b = main.summary["deck"], other.summary["deck"]
        names = deck_names(deck_a, deck_b)
        files.verdict = verdict(settings.game, names, comparison)
        document = comparison_document(main.summary, other.summary, comparison, files.verdict)
        files.compare_path = out_dir / f"sim-{settings.game}-compare.json"
        write_text(files.compare_path, _dump(document))
        legend = f"A = {names[0]} ({deck_a['path']}), B = {names[1]} ({deck_b['path']})"
        files.table = "\n".join([files.verdict, legend, format_table(comparison, "A", "B")])
    if report:
        from kraftstokk.sim.report import write_report

        files.report_path = out_dir / f"sim-{settings.game}.pdf"
        write_report(
            files.report_path,
            main.summary,
            comparison,
            other.summary if other is not None else None,
            files.verdict,
        )
    return files
