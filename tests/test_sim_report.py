"""The report PDF: its headings, charts and explanations, and byte-identical output."""

from __future__ import annotations

from pathlib import Path

import pypdfium2
import pytest
from pypdf import PdfReader

from kraftstokk.games import registry
from kraftstokk.games.core import DeckTable
from kraftstokk.models import Deck
from kraftstokk.sim import compare_answers
from kraftstokk.sim.report import write_report
from kraftstokk.sim.runner import SimSettings
from kraftstokk.sim.session import simulate, simulate_deck
from tests.test_sim_toy import TOY_SPEC

SETTINGS = SimSettings(game="toy", players=3, games=40, seed=3, bots="greedy,random,random")


@pytest.fixture(autouse=True)
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.REGISTERED, "toy", TOY_SPEC)


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def test_report_has_every_chart_with_heading_and_explanation(deck, tmp_path):
    run = simulate_deck(deck, Path("deck.json"), SETTINGS, workers=1)
    path = tmp_path / "sim-toy.pdf"
    write_report(path, run.summary)
    text = pdf_text(path)
    for heading, explanation, axis in [
        ("Game length", "How many actions each finished game took", "actions per finished game"),
        ("Rounds per game", "How many rounds (turns around", "rounds per finished game"),
        ("Wins and losses by seat", "Share of finished games each seat won", "fair share 1/3"),
        ("Special cards and events", "Average number of times each counted", "times per game"),
        ("Cards played", "How often each card is played", "times played per game"),
        ("Cards left with the loser", "still with the loser", "share of finished games"),
        ("Burn sizes", "Distribution of burn sizes", "size (how many times)"),
    ]:
        assert heading in text
        assert explanation in " ".join(text.split())
        assert axis in text
    assert "Simulation report: toy" in text  # the game is called by its name (a toy has no texts)
    assert "Success rates" in text and "chance draws played rate" in text
    assert "Deck comparison" not in text
    # Per-card bars carry the card's name and suit; seats are labelled from 1.
    assert "(spar 1)" in text
    assert "seat 3" in text


def test_report_pages_are_drawn(deck, tmp_path):
    run = simulate_deck(deck, Path("deck.json"), SETTINGS, workers=1)
    path = tmp_path / "sim-toy.pdf"
    write_report(path, run.summary)
    document = pypdfium2.PdfDocument(path)
    assert len(document) >= 3
    for index in range(len(document)):
        image = document[index].render(scale=0.5).to_pil().convert("L")
        darkest, _ = image.getextrema()
        assert darkest < 100, f"page {index + 1} is blank"
    document.close()


def test_report_is_byte_identical_for_the_same_summary(deck, tmp_path):
    run = simulate_deck(deck, Path("deck.json"), SETTINGS, workers=1)
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    write_report(first, run.summary)
    write_report(second, run.summary)
    assert first.read_bytes() == second.read_bytes()


def compared(deck: Deck, other: Deck, folder: Path, name: str = "a.json"):
    first, second = folder / name, folder / "b.json"
    first.write_text(deck.model_dump_json(), encoding="utf-8")
    second.write_text(other.model_dump_json(), encoding="utf-8")
    return simulate(first, SETTINGS, folder / "out", workers=1, compare_path=second)


def page_texts(path: Path) -> list[str]:
    return [" ".join(page.extract_text().split()) for page in PdfReader(path).pages]


def test_report_with_comparison_opens_with_its_verdict_chart_and_table(deck, tmp_path):
    # The same cards in reverse order: the toy deals the first 12 plant cards, now values
    # 2-4 instead of aces and court cards, so nothing burns.
    reverse = deck.model_copy(deep=True)
    reverse.cards = [*reversed(reverse.plant_cards), *reverse.jokers]
    reverse.title, reverse.edition = "Stokket", "2026"
    files = compared(deck, reverse, tmp_path)
    first, second, third, fourth = page_texts(files.report_path)[:4]
    assert first.startswith("Deck comparison: toy")
    assert "Verdict" in first and "Six answers side by side" in first
    assert files.purpose.startswith("In toy, Stokket (2026) plays ")
    on_page = compare_answers.verdict(
        compare_answers.rows(files.main.summary, files.other.summary, files.comparison),
        "toy",
        ("A", "B"),
    )
    assert " ".join(on_page.split()) in first
    assert files.verdict.startswith("In toy, Stokket (2026) has ")
    assert " ".join(f"Over every metric compared: {files.verdict}".split()) in first
    assert "Paired differences, B − A" in second
    assert "burns per game" in second and "Holm's correction" in second
    assert "The metrics compared" in third and "win rate seat 1" in third
    assert fourth.startswith("Simulation report: toy, deck A")


def test_report_of_decks_that_play_the_same_games_says_so_without_a_chart(deck, tmp_path):
    same = deck.model_copy(deep=True)
    same.title = "Stokket"
    files = compared(deck, same, tmp_path)
    first, second = page_texts(files.report_path)[:2]
    assert "play alike in toy (the same games: every game gave the same figures" in first
    assert "play alike: none of the six answers differs" in first
    assert "there is no chart" in second and "Paired differences" not in second


def test_table_cards_in_summary_match_the_deck(deck):
    run = simulate_deck(deck, Path("deck.json"), SETTINGS, workers=1)
    table = DeckTable.from_deck(deck)
    # The toy game deals 12 cards; the others are not in play and not reported.
    assert list(run.summary["cards"]) == list(table.ids[:12])


def test_deck_paths_with_markup_characters_are_printed_as_they_are(deck, tmp_path):
    files = compared(deck, deck, tmp_path, "R&D <test>.json")
    text = " ".join(pdf_text(files.report_path).split())
    assert f"({tmp_path / 'R&D <test>.json'}); B = " in text


def test_report_names_unfinished_games_to_replay(deck, tmp_path):
    capped = SimSettings(game="toy", players=3, games=20, seed=3, bots="random", action_cap=25)
    run = simulate_deck(deck, Path("deck.json"), capped, workers=1)
    assert run.summary["unfinished"] > 0
    first = run.summary["unfinished_games"][0]
    path = tmp_path / "sim-toy.pdf"
    write_report(path, run.summary)
    text = " ".join(pdf_text(path).split())
    command = (
        "kraftstokk simulate deck.json --game toy -p 3 -b random --action-cap 25 -s 3 "
        f"--first-game {first['index']} -n 1 -w 1 --out output/replay"
    )
    assert command in text
    # The command plays exactly that game again: unfinished, with the same seed.
    again = simulate_deck(
        deck,
        Path("deck.json"),
        SimSettings(
            game="toy",
            players=3,
            games=1,
            seed=3,
            bots="random",
            action_cap=25,
            first=first["index"],
        ),
        workers=1,
    )
    assert again.summary["unfinished_games"] == [first]


def test_a_report_says_when_its_medians_are_read_from_buckets(deck, tmp_path):
    long = SimSettings(game="toy", players=3, games=6, seed=3, bots="random", action_cap=3000)
    run = simulate_deck(deck, Path("deck.json"), long, workers=1)
    exact = tmp_path / "exact.pdf"
    write_report(exact, run.summary)
    assert "counted in buckets" not in " ".join(pdf_text(exact).split())
    bucketed = tmp_path / "bucketed.pdf"
    write_report(bucketed, {**run.summary, "quantiles_exact": False})
    text = " ".join(pdf_text(bucketed).split())
    assert "Lengths of 2,048 and more are counted in buckets" in text
    assert "within 0.05 % of the exact ones" in text
