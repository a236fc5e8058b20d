"""Random input to the commands, each run as its own process under a memory limit.

Random bytes, JSON and CSV go to ``ingest``; random changes of a valid deck to
``validate`` (and what it accepts to ``render``); random changes of a real save to
``play --load``. Every run must end (a generous time bound catches a hang) with exit 0,
1 or 2, print no traceback, stay within the memory limits (tests/fuzzing.py), and leave
the output files of an earlier run as they were when it fails. Examples are derandomized
(the same on every run) and few, so the suite stays quick; ``make fuzz`` runs many.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kraftstokk.deck.io import deck_json_text
from tests.conftest import synthetic_deck
from tests.fuzzing import assert_well_behaved, examples, run_command, snapshot_of

FIXTURES = Path(__file__).parent / "fixtures" / "sources"
NVE_JSON = (FIXTURES / "nve-plants.json").read_bytes()
NVE_CSV = (FIXTURES / "nve-export-semicolon.csv").read_bytes()
EXAMPLES = examples(6)


# --- ingest -----------------------------------------------------------------------------


def _mutated(data: bytes) -> st.SearchStrategy[bytes]:
    """``data`` with a few bytes changed, inserted or cut."""

    def apply(edits: list[tuple[int, int, bytes]]) -> bytes:
        out = bytearray(data)
        for position, cut, insert in edits:
            at = position % (len(out) + 1)
            out[at : at + cut] = insert
        return bytes(out)

    edit = st.tuples(st.integers(0, 10**6), st.integers(0, 8), st.binary(max_size=8))
    return st.lists(edit, min_size=1, max_size=6).map(apply)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
figure_texts = st.sampled_from(
    ["3,960", "12,5", "1.234,5", "3.960", "1e308", "-4", "", "nan", " 7 "]
)
nve_records = st.lists(
    st.fixed_dictionaries(
        {
            "VannKraftverkID": st.integers(0, 10**6) | st.text(max_size=6) | st.none(),
            "Navn": st.text(max_size=30) | st.none(),
            "MaksYtelse": json_values | figure_texts,
            "MidProd_91_20": json_values | figure_texts,
            "BruttoFallhoyde_M": json_values | figure_texts,
        }
    ),
    max_size=8,
)
csv_cells = (
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
    | figure_texts
)
csv_files = st.tuples(
    st.sampled_from([";", ",", "\t"]),
    st.sampled_from(
        [
            ["VannKraftverkID", "Navn", "MaksYtelse", "MidProd_91_20", "BruttoFallhoyde_M"],
            [
                "id",
                "name",
                "installed_capacity_MW",
                "avg_annual_generation_GWh",
                "dam_height_m",
                "country_code",
            ],
        ]
    ),
    st.lists(st.lists(csv_cells, min_size=0, max_size=7), max_size=8),
    st.sampled_from(["utf-8", "cp1252", "utf-16"]),
).map(
    lambda spec: "\n".join(spec[0].join(row) for row in [spec[1], *spec[2]]).encode(
        spec[3], errors="replace"
    )
)
ingest_inputs = st.one_of(
    st.binary(max_size=600),
    _mutated(NVE_JSON),
    _mutated(NVE_CSV),
    json_values.map(lambda value: json.dumps(value).encode()),
    nve_records.map(lambda records: json.dumps(records).encode()),
    csv_files,
)


@pytest.fixture(scope="module")
def ingest_place(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with a good snapshot in out/, made once: failed runs must leave it alone."""
    place = tmp_path_factory.mktemp("ingest")
    (place / "out").mkdir()
    result = run_command(
        ["ingest", str(FIXTURES / "nve-plants.json"), "--out", "out/snap.csv"], place
    )
    assert result.returncode == 0, result.stderr
    return place


@EXAMPLES
@given(data=ingest_inputs, suffix=st.sampled_from([".json", ".csv", ".xlsx", ".txt"]))
def test_ingest_survives_random_files(ingest_place: Path, data: bytes, suffix: str):
    source = ingest_place / f"random{suffix}"
    source.write_bytes(data)
    before = snapshot_of(ingest_place / "out")
    result = run_command(["ingest", source.name, "--out", "out/snap.csv"], ingest_place)
    assert_well_behaved(result)
    if result.returncode != 0:
        assert snapshot_of(ingest_place / "out") == before


# --- validate and render ----------------------------------------------------------------

FIGURES = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([1e308, 1e-300, 0.04])
NAMES = st.text(max_size=40) | st.text(alphabet="abcæøå -", min_size=1, max_size=200)
card_changes = st.one_of(
    st.tuples(st.just("mw"), FIGURES),
    st.tuples(st.just("gwh"), FIGURES),
    st.tuples(st.just("head_m"), FIGURES),
    st.tuples(st.just("name"), NAMES),
    st.tuples(st.just("value"), st.integers(-5, 200)),
    st.tuples(st.just("suit"), st.sampled_from(["spar", "ruter", "kløver", "stein"])),
)
#: The highest figure raised, or the lowest lowered, keeps every nr. right: such a deck
#: passes every other check, so only the figure's own bounds can refuse it.
extremes = st.one_of(
    st.tuples(
        st.just("top"),
        st.sampled_from(["mw", "gwh", "head_m"]),
        st.sampled_from([1e308, 1e30, 5e4]),
    ),
    st.tuples(
        st.just("bottom"), st.sampled_from(["mw", "gwh", "head_m"]), st.sampled_from([1e-300, 1e-5])
    ),
)
deck_changes = st.lists(
    st.one_of(
        extremes,
        st.tuples(st.integers(0, 54), card_changes),
        st.tuples(st.just("title"), st.text(max_size=120)),
        st.tuples(st.just("edition"), st.text(max_size=40)),
    ),
    max_size=3,
)


def changed_deck(changes: list[tuple[object, object]]) -> str:
    data = json.loads(deck_json_text(synthetic_deck()))
    for where, change, *rest in changes:
        if where in ("top", "bottom"):
            category = str(change)
            cards = [card for card in data["cards"] if not card["joker"]]
            nr = 1 if where == "top" else 52
            target = next(card for card in cards if card["nr"][category] == nr)
            target[category] = rest[0]
        elif where in ("title", "edition"):
            data[where] = change
        else:
            key, value = change  # type: ignore[misc]
            data["cards"][where][key] = value
    return json.dumps(data, ensure_ascii=False)  # NaN and Infinity as Python writes them


@pytest.fixture(scope="module")
def render_place(tmp_path_factory: pytest.TempPathFactory) -> Path:
    place = tmp_path_factory.mktemp("render")
    (place / "out").mkdir()
    (place / "out" / "kraftstokk-a4.pdf").write_bytes(b"%PDF- an earlier render")
    return place


@EXAMPLES
@example(changes=[("top", "mw", 1e308)])  # validated, then crashed the number formatter
@example(changes=[("bottom", "gwh", 1e-300)])  # validated, then printed "0 GWh"
@example(changes=[("title", "K" * 240)])  # validated, then ran over the corner index
@given(changes=deck_changes)
def test_what_validate_accepts_renders(render_place: Path, changes):
    (render_place / "deck.json").write_text(changed_deck(changes), encoding="utf-8")
    checked = run_command(["validate", "deck.json"], render_place)
    assert_well_behaved(checked)
    before = snapshot_of(render_place / "out")
    rendered = run_command(
        ["render", "deck.json", "--out", "out", "--only", "sheets"], render_place
    )
    assert_well_behaved(rendered)
    assert (rendered.returncode == 0) == (checked.returncode == 0), rendered.stderr[-2000:]
    if rendered.returncode != 0:
        assert snapshot_of(render_place / "out") == before


# --- play --load ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def save_place(tmp_path_factory: pytest.TempPathFactory) -> Path:
    place = tmp_path_factory.mktemp("play")
    (place / "deck.json").write_text(deck_json_text(synthetic_deck()), encoding="utf-8")
    args = ["play", "--game", "idiot", "--players", "2", "--deck", "deck.json", "--seed", "5"]
    result = run_command(
        [*args, "--bots", "greedy", "--seat", "1", "--save", "good.json"], place, "2\n"
    )
    assert result.returncode == 0, result.stderr
    return place


save_changes = st.lists(
    st.one_of(
        st.tuples(
            st.just("actions"), st.lists(st.lists(st.integers(-3, 80), max_size=4), max_size=6)
        ),
        st.tuples(st.just("seed"), st.integers(-(2**70), 2**70)),
        st.tuples(
            st.just("bots"), st.lists(st.sampled_from(["person", "greedy", "x", ""]), max_size=4)
        ),
        st.tuples(st.just("rules"), json_values),
        st.tuples(st.just("result"), json_values),
        st.tuples(st.just("deck"), deck_changes.map(lambda c: json.loads(changed_deck(c)))),
        st.tuples(st.just("format"), json_values),
    ),
    min_size=1,
    max_size=3,
)


NESTED = "nested 100 000 deep"


@EXAMPLES
@example(changes=[("deck", json.loads(changed_deck([("top", "mw", float("nan"))])))])
@example(changes=[("rules", NESTED)])  # a RecursionError traceback once
@given(changes=save_changes)
def test_play_load_survives_random_saves(save_place: Path, changes):
    data = json.loads((save_place / "good.json").read_text(encoding="utf-8"))
    for key, value in changes:
        data[key] = value
    text = json.dumps(data).replace(json.dumps(NESTED), "[" * 100_000 + "]" * 100_000)
    (save_place / "random.json").write_text(text, encoding="utf-8")
    (save_place / "out.json").write_text("an earlier save", encoding="utf-8")
    result = run_command(["play", "--load", "random.json", "--save", "out.json"], save_place)
    assert_well_behaved(result)
    if result.returncode != 0:
        assert (save_place / "out.json").read_text(encoding="utf-8") == "an earlier save"
