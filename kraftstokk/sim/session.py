"""One ``simulate`` run from deck files to output files: the library behind the command.

Loads and checks the deck(s), plays the games (with ``--compare``: both decks, chunk by
chunk, so their games pair up as they stream in), writes ``sim-<game>.json``, the
optional ``sim-<game>-compare.json`` and the ``sim-<game>.pdf`` report, each atomically.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from kraftstokk.atomic import write_text
from kraftstokk.games import registry
from kraftstokk.games.core import DeckTable
from kraftstokk.games.play_deck import PlayDeck, load_play_deck
from kraftstokk.sim.deck_names import deck_name, deck_names
from kraftstokk.sim.finding_rules import FindingRules
from kraftstokk.sim.runner import (
    SimOutcome,
    SimSettings,
    build_game,
    check_arguments,
    check_settings,
    run_paired,
    run_simulation,
)

if TYPE_CHECKING:
    from kraftstokk.models import Deck
    from kraftstokk.sim.compare import Comparison
    from kraftstokk.sim.runner import ChunkSums
    from kraftstokk.sim.stream import RunStats

ProgressFactory = Callable[[str], Callable[[int, int], None]]

#: The modules that summarize a run. They load numpy, which takes a short run's workers
#: as long to load as the games take to play: so they are imported (in the functions that
#: use them) once the workers are started, while those play (:func:`load_summary_code`).
SUMMARY_MODULES = (
    "kraftstokk.sim.metrics",
    "kraftstokk.sim.findings",
    "kraftstokk.sim.playability",
    "kraftstokk.sim.answers",
    "kraftstokk.sim.overall",
    "kraftstokk.sim.compare",
    "kraftstokk.sim.compare_answers",
    "kraftstokk.sim.verdict",
)


def load_summary_code() -> None:
    """Import the modules that summarize a run and read the findings' sentences (the
    runner calls this once its workers are started: done while they play, not after)."""
    for name in SUMMARY_MODULES:
        importlib.import_module(name)
    from kraftstokk.sim.findings import texts

    texts()


def load_deck(path: Path) -> Deck:
    """Read a deck (JSON, CSV or workbook) and refuse it when it fails validation (exit 1)."""
    from kraftstokk.deck.io import load_valid_deck

    return load_valid_deck(path)


class Titled(Protocol):
    """What a run's summary names a deck by: the model, or a deck read for play."""

    @property
    def title(self) -> str: ...

    @property
    def edition(self) -> str: ...


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
    #: The verdict on page 1's six answers ("B plays shorter and fairer than A; ...").
    purpose: str = ""
    table: str = ""
    html_path: Path | None = None
    skill_path: Path | None = None
    #: The skill gradients' sentences (one per deck) and, for two decks, their comparison.
    skill_sentences: list[str] = dataclasses.field(default_factory=list)
    #: Ctrl-C (or SIGTERM) stopped the skill gradient: the run's files have none.
    skill_interrupted: bool = False


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
    deck: Titled,
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
    deck: Titled,
    deck_path: Path | str,
    *,
    elapsed: float,
    workers: int,
    interrupted: bool,
    rules: FindingRules | None = None,
) -> dict[str, Any]:
    """The ``sim-<game>.json`` summary of a run's sums, with its findings in words."""
    from kraftstokk.sim.findings import run_findings
    from kraftstokk.sim.metrics import RunInfo, summarize
    from kraftstokk.sim.playability import measure

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
    pace = settings.time_model
    summary["pace"] = {
        "seconds": pace.seconds(),
        "pickups": list(pace.counted("pickup", settings.game)),
        "challenges": list(pace.counted("challenge", settings.game)),
        "assumptions": pace.describe(settings.game, stats.counter_names()),
    }
    loser = registry.get_spec(settings.game).objective == "not_loser"
    summary["playability"] = measure(stats, loser_stake=loser)
    set_answers(summary)
    return summary


def set_answers(summary: dict[str, Any]) -> None:
    """Page 1's answers of a summary, the findings of the poor ones, and the verdict on
    top of them (fair? fun? what to change)."""
    from kraftstokk.sim.answers import answers
    from kraftstokk.sim.findings import answer_findings
    from kraftstokk.sim.overall import overall

    summary["answers"] = answers(summary)
    summary["answer_findings"] = [item.as_dict() for item in answer_findings(summary["answers"])]
    summary["overall"] = overall(summary)


def add_skill(summary: dict[str, Any], gradient: dict[str, Any]) -> None:
    """Put a skill gradient (``SkillGradient.as_dict``) into a run's summary: its edge
    among the metrics, the gradient whole, and page 1's answers again."""
    from kraftstokk.sim.playability import skill_edge

    summary["playability"]["skill"] = skill_edge(gradient)
    summary["skill"] = gradient
    set_answers(summary)


def example_path(out_dir: Path, game: str, deck: str = "") -> Path:
    """Where an unfinished game of the run is written as a replay log."""
    return out_dir / f"sim-{game}-unfinished{deck}.json"


class Example:
    """The replay log of a run's first unfinished game, made as soon as the sums say which
    game that is (:func:`run_simulation`'s ``merged``: the sums grow in chunk order, so
    the first unfinished game they list stays the first), while the workers play on,
    rather than after the run; :func:`write_example` writes it."""

    def __init__(self, deck: PlayDeck, settings: SimSettings) -> None:
        self.deck, self.settings = deck, settings
        self.made: tuple[int, int, str] | None = None  # the game's number, seed, log

    def merged(self, sums: ChunkSums) -> None:
        listed = sums.runs[0].unfinished_games
        if self.made is None and listed:
            try:
                self.made = example_log(self.deck, self.settings, listed[0])
            except Exception:  # said where the log is written, after the run, as before
                self.made = (-1, 0, "")


def example_log(deck: PlayDeck, settings: SimSettings, index: int) -> tuple[int, int, str]:
    """Game ``index`` of the run played again, as its replay log's text (with its number
    and seed)."""
    from kraftstokk.games.core import derive_seed
    from kraftstokk.games.replay_data import replay_data, replay_text
    from kraftstokk.games.runner import play_game

    game = build_game(deck.table, settings)
    seed = derive_seed(settings.seed, index)
    record = play_game(game, registry.make_bots(game, settings.bots), seed)
    labels = bot_labels(settings.bots, settings.players)
    # What games/replay.py's make_replay and save_replay write, without pydantic
    # (tests/test_play_deck.py compares the two).
    log = replay_data(deck.data(), game, labels, seed, record.actions, record.result)
    return index, seed, replay_text(log)


def write_example(
    run: DeckRun,
    deck: PlayDeck,
    settings: SimSettings,
    path: Path,
    example: Example | None = None,
) -> None:
    """Play the run's first unfinished game again (unless ``example`` has it made) and
    write it as a replay log at ``path``, so that it can be watched move by move; the
    command goes into the summary (page 1 names it). Nothing is written when every game
    finished."""
    listed = run.stats.unfinished_games
    if not listed:
        return
    index = listed[0]
    made = example.made if example is not None else None
    if made is None or made[0] != index:
        made = example_log(deck, settings, index)
    _, seed, text = made
    write_text(path, text)
    run.summary["example_replay"] = {
        "index": index,
        "seed": seed,
        "path": str(path),
        "command": f"kraftstokk play --load {path} --replay",
    }
    set_answers(run.summary)


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
    html: bool = False,
    skill_games: int = 0,
    progress: ProgressFactory | None = None,
    skill_progress: ProgressFactory | None = None,
    rules: FindingRules | None = None,
) -> SimulationFiles:
    """Run the simulation (with ``compare_path``: both decks, game i against game i) and
    write its files under ``out_dir``: ``sim-GAME.json``, the report (PDF, and with
    ``html`` the same as a self-contained HTML file), a replay log of an unfinished game
    when a game reached the action cap, and with ``skill_games`` the skill gradient
    (that many games per level, each deck), whose answer goes into page 1."""
    check_arguments(settings)
    deck = load_play_deck(deck_path)
    other_deck = load_play_deck(compare_path) if compare_path is not None else None
    table = deck.table
    check_settings(table, settings)
    rules = rules or FindingRules()
    if other_deck is None or compare_path is None:
        label = deck_name({"title": deck.title, "edition": deck.edition})
        example = Example(deck, settings)
        outcome = run_simulation(
            table,
            settings,
            workers,
            progress(label) if progress else None,
            load_summary_code,
            example.merged,
        )
        main = _deck_run(outcome.stats, outcome, table, settings, deck, deck_path, rules)
        write_example(main, deck, settings, example_path(out_dir, settings.game), example)
        files = _skill(
            main, None, [deck_path], settings, out_dir, skill_games, workers, skill_progress
        )
        return _write(main, None, None, settings, out_dir, report, html, files)
    other_table = other_deck.table
    check_settings(other_table, settings)
    names = deck_names(
        {"title": deck.title, "edition": deck.edition, "path": str(deck_path)},
        {"title": other_deck.title, "edition": other_deck.edition, "path": str(compare_path)},
    )
    label = f"{names[0]} against {names[1]}"
    outcome = run_paired(
        table,
        other_table,
        settings,
        workers,
        progress(label) if progress else None,
        load_summary_code,
    )
    main = _deck_run(outcome.stats, outcome, table, settings, deck, deck_path, rules)
    if outcome.other is None or outcome.pair is None:
        raise AssertionError("a paired run gives both decks' sums")
    other = _deck_run(
        outcome.other, outcome, other_table, settings, other_deck, compare_path, rules
    )
    from kraftstokk.sim.compare import compare_runs

    comparison = compare_runs(outcome.stats, outcome.other, outcome.pair, rules.confidence)
    write_example(main, deck, settings, example_path(out_dir, settings.game))
    write_example(other, other_deck, settings, example_path(out_dir, settings.game, "-b"))
    files = _skill(
        main,
        other,
        [deck_path, compare_path],
        settings,
        out_dir,
        skill_games,
        workers,
        skill_progress,
    )
    return _write(main, other, comparison, settings, out_dir, report, html, files)


def _skill(
    main: DeckRun,
    other: DeckRun | None,
    deck_paths: list[Path],
    settings: SimSettings,
    out_dir: Path,
    games: int,
    workers: int | None,
    progress: ProgressFactory | None,
) -> SimulationFiles:
    """The skill gradient of each deck (``games`` per level; none for 0 or when Ctrl-C
    cut the run short) into the summaries, and its file and sentences."""
    files = SimulationFiles(main=main, json_path=None, other=other)
    if not games or main.interrupted or main.stats.games == 0:
        return files
    from kraftstokk.sim.skill import measure_decks

    try:
        gradients, compared, path = measure_decks(
            deck_paths, settings, out_dir, games=games, workers=workers, progress=progress
        )
    except KeyboardInterrupt:  # the run's own files are still written, without the skill
        files.skill_interrupted = True
        return files
    for run, gradient in zip((main, other), gradients, strict=False):
        if run is not None:
            add_skill(run.summary, gradient.as_dict())
    files.skill_path = path
    files.skill_sentences = [gradient.sentence() for gradient in gradients]
    if compared:
        files.skill_sentences.append(compared)
    return files


def _write(
    main: DeckRun,
    other: DeckRun | None,
    comparison: Comparison | None,
    settings: SimSettings,
    out_dir: Path,
    report: bool,
    html: bool,
    files: SimulationFiles,
) -> SimulationFiles:
    """Write sim-GAME.json, the comparison and the report, each atomically."""
    from kraftstokk.sim import compare_answers
    from kraftstokk.sim.compare import comparison_document, format_table
    from kraftstokk.sim.verdict import game_title, verdict

    if main.stats.games == 0:
        return files
    json_path = out_dir / f"sim-{settings.game}.json"
    write_text(json_path, _dump(main.summary))
    files.json_path, files.comparison = json_path, comparison
    if other is not None and comparison is not None:
        deck_a, deck_b = main.summary["deck"], other.summary["deck"]
        names = deck_names(deck_a, deck_b)
        files.verdict = verdict(settings.game, names, comparison)
        document = comparison_document(main.summary, other.summary, comparison, files.verdict)
        found = compare_answers.rows(main.summary, other.summary, comparison)
        files.purpose = compare_answers.verdict(found, game_title(settings.game), names)
        document["answers_verdict"] = files.purpose
        document["answers"] = [compare_answers.row_data(row) for row in found]
        files.compare_path = out_dir / f"sim-{settings.game}-compare.json"
        write_text(files.compare_path, _dump(document))
        legend = f"A = {names[0]} ({deck_a['path']}), B = {names[1]} ({deck_b['path']})"
        files.table = "\n".join(
            [files.purpose, files.verdict, legend, format_table(comparison, "A", "B")]
        )
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
    if html:
        from kraftstokk.sim.html_report import write_html

        files.html_path = out_dir / f"sim-{settings.game}.html"
        write_html(
            files.html_path,
            main.summary,
            comparison,
            other.summary if other is not None else None,
            files.verdict,
        )
    return files
