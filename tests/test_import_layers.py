"""Imports run downwards, as DESIGN.md's package layout draws them: a contract in the
spirit of import-linter's ``layers`` contract, checked on the source with ``ast``.

Every ``import`` of every module under ``kraftstokk/`` is an arrow — at the top, inside a
function, or under ``TYPE_CHECKING`` (a type is a dependency too). An arrow may point
into its own group or into a layer below; groups that share a layer stay independent.
Within a group too the modules import downwards: no module reaches itself by its arrows
(a loop is named, arrow by arrow, with the line of each import).
A second check imports modules in a fresh interpreter and looks at what Python really
loaded, which also sees what a package's ``__init__`` pulls in.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest

PACKAGE_DIR = Path(__file__).resolve().parent.parent / "kraftstokk"

#: Top to bottom. A name is a group: a subpackage or a module of ``kraftstokk``, and
#: ``games.rules`` for every game's ``rules`` module (the rules' pure predicates and tables,
#: which the deck's flags use) with the base of their parameters (``games.parameters``),
#: apart from the rest of the engine.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("console",),  # the console script: a head start for simulate, then the cli
    ("cli",),
    ("web", "sim"),
    ("render",),
    ("games",),
    ("deck",),
    ("design", "games.rules", "sources", "locales"),
    ("workbook",),  # the one bounded .xlsx reader, for sources and the deck loader alike
    ("base",),
)
#: The modules everything may use (one group: they import each other).
BASE = (
    "models",
    "cardfacts",
    "errors",
    "limits",
    "bounds",
    "atomic",
    "folderlock",
    "orphans",
    "plain",
    "textfile",
    "terminal",
    "progress",
)

LAYER_OF = {group: depth for depth, groups in enumerate(LAYERS) for group in groups}


@dataclass(frozen=True)
class Arrow:
    source: str
    target: str
    line: int

    def __str__(self) -> str:
        return f"{self.source} -> {self.target} (line {self.line})"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE_DIR.rglob("*.py"))}


def group(module: str) -> str:
    """The group a ``kraftstokk`` module belongs to."""
    parts = module.split(".")[1:]
    if not parts or parts[0] in BASE:
        return "base"
    if parts[0] == "games" and len(parts) == 3 and parts[2] == "rules":
        return "games.rules"
    if parts == ["games", "parameters"]:
        return "games.rules"
    return parts[0]


def _imported(node: ast.Import | ast.ImportFrom, source: str, is_package: bool) -> Iterator[str]:
    """The ``kraftstokk`` modules one import statement names."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    if node.level:  # relative: from the module's own package upwards
        package = source.split(".") if is_package else source.split(".")[:-1]
        base = ".".join(package[: len(package) - node.level + 1])
        base = f"{base}.{node.module}" if node.module else base
    else:
        base = node.module or ""
    for alias in node.names:
        submodule = f"{base}.{alias.name}"
        yield submodule if submodule in modules() else base


@cache
def arrows() -> tuple[Arrow, ...]:
    found = []
    for source, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for target in _imported(node, source, path.name == "__init__.py"):
                    if target == "kraftstokk" or target.startswith("kraftstokk."):
                        found.append(Arrow(source, target, node.lineno))
    return tuple(found)


def upward_or_sideways(arrow: Arrow) -> bool:
    source, target = group(arrow.source), group(arrow.target)
    return source != target and LAYER_OF[target] <= LAYER_OF[source]


def test_every_module_belongs_to_a_layer():
    unplaced = sorted({m for m in modules() if group(m) not in LAYER_OF})
    assert not unplaced, f"put these in LAYERS (tests/test_import_layers.py): {unplaced}"


def test_the_graph_is_read_from_the_imports():
    """The check sees imports at the top, in functions, relative ones, and under TYPE_CHECKING."""
    found = {(a.source, a.target) for a in arrows()}
    assert ("kraftstokk.render.card", "kraftstokk.design.layout") in found  # top
    assert ("kraftstokk.deck.validate", "kraftstokk.design.fit") in found  # in a function
    assert ("kraftstokk.render.sheet_layout", "kraftstokk.design.layout") in found  # TYPE_CHECKING
    assert ("kraftstokk.deck.flags", "kraftstokk.games.stromkrig.rules") in found
    relative = [
        target
        for node in ast.parse("from .rules import beats\nfrom .. import core").body
        if isinstance(node, ast.ImportFrom)
        for target in _imported(node, "kraftstokk.games.stromkrig.state", False)
    ]
    assert relative == ["kraftstokk.games.stromkrig.rules", "kraftstokk.games.core"]
    assert group("kraftstokk.games.stromkrig.rules") == "games.rules"
    assert group("kraftstokk.games.stromkrig.state") == "games"
    assert upward_or_sideways(Arrow("kraftstokk.games.core", "kraftstokk.render.card", 1))
    assert upward_or_sideways(Arrow("kraftstokk.web.app", "kraftstokk.sim.runner", 1))
    assert not upward_or_sideways(Arrow("kraftstokk.render.card", "kraftstokk.design.fit", 1))


def test_imports_only_run_downwards():
    wrong = [str(arrow) for arrow in arrows() if upward_or_sideways(arrow)]
    assert not wrong, "imports that run up or sideways:\n" + "\n".join(wrong)


def loops(found: Iterable[Arrow]) -> list[list[Arrow]]:
    """One shortest loop of arrows per set of modules that import each other in a circle
    (a strongly connected component), through the set's first module by name."""
    first_arrow: dict[tuple[str, str], Arrow] = {}
    for arrow in found:
        if arrow.source != arrow.target:
            first_arrow.setdefault((arrow.source, arrow.target), arrow)
    targets: dict[str, list[str]] = {}
    for source, target in sorted(first_arrow):
        targets.setdefault(source, []).append(target)

    def paths_from(start: str) -> dict[str, str]:
        """Every module ``start`` reaches, each with the module it is first reached from."""
        reached: dict[str, str] = {}
        queue = deque([start])
        while queue:
            module = queue.popleft()
            for target in targets.get(module, []):
                if target not in reached:
                    reached[target] = module
                    queue.append(target)
        return reached

    found_loops, seen = [], set()
    for start in sorted(targets):
        reached = paths_from(start)
        if start in seen or start not in reached:
            continue
        seen.update(m for m in reached if start in paths_from(m))
        back, module = [], reached[start]
        while module != start:
            back.append(module)
            module = reached[module]
        hops = [start, *reversed(back), start]
        found_loops.append([first_arrow[pair] for pair in pairwise(hops)])
    return found_loops


def test_no_modules_import_each_other_in_a_loop():
    found = ["; ".join(map(str, loop)) for loop in loops(arrows())]
    assert not found, "modules that import each other in a loop (untie each):\n" + "\n".join(found)


def test_a_loop_is_found_and_named_arrow_by_arrow():
    planted = [
        Arrow("kraftstokk.a", "kraftstokk.b", 3),
        Arrow("kraftstokk.b", "kraftstokk.c", 5),
        Arrow("kraftstokk.b", "kraftstokk.d", 6),
        Arrow("kraftstokk.c", "kraftstokk.a", 7),
        Arrow("kraftstokk.c", "kraftstokk.a", 9),  # a second import: the first is named
        Arrow("kraftstokk.d", "kraftstokk.e", 1),
        Arrow("kraftstokk.e", "kraftstokk.d", 2),
        Arrow("kraftstokk.f", "kraftstokk.f", 1),  # a module naming itself is no loop
    ]
    assert ["; ".join(map(str, loop)) for loop in loops(planted)] == [
        "kraftstokk.a -> kraftstokk.b (line 3); kraftstokk.b -> kraftstokk.c (line 5); "
        "kraftstokk.c -> kraftstokk.a (line 7)",
        "kraftstokk.d -> kraftstokk.e (line 1); kraftstokk.e -> kraftstokk.d (line 2)",
    ]
    assert loops(planted[:3] + planted[5:6]) == []


@pytest.mark.parametrize("layer", ["games", "deck", "design"])
def test_no_arrow_leaves_for_the_layers_above(layer):
    """The issue's own words: games/ and deck/ import nothing of render/, sim/, web/ or
    cli/; design/ nothing above it (so not deck/ or games/ either)."""
    above = {"render", "sim", "web", "cli"} | (
        {"deck", "games", "games.rules"} if layer == "design" else set()
    )
    wrong = [str(a) for a in arrows() if group(a.source) == layer and group(a.target) in above]
    assert not wrong


def test_deck_takes_only_the_games_rules_modules():
    targets = {
        a.target
        for a in arrows()
        if group(a.source) == "deck" and a.target.startswith("kraftstokk.games")
    }
    assert targets and all(group(target) == "games.rules" for target in targets), sorted(targets)


def test_a_rules_module_is_pure():
    """What a game's rules module imports: the base, design, and other games' rules."""
    for arrow in arrows():
        if group(arrow.source) == "games.rules":
            assert group(arrow.target) in {"base", "design", "games.rules"}, str(arrow)


# What Python loads ------------------------------------------------------------------------


def loaded_after(statement: str) -> set[str]:
    """The ``kraftstokk`` modules a fresh interpreter has loaded after ``statement``."""
    code = (
        f"import json, sys\n{statement}\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('kraftstokk'))))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=PACKAGE_DIR.parent,
    )
    return set(json.loads(run.stdout))


#: What importing a game's rules module may load of the engine: the packages on the way
#: (``kraftstokk.games`` runs its check that a compiled build is current, games/native.py).
ENGINE_ON_THE_WAY = {"kraftstokk.games", "kraftstokk.games.native"}


def test_loading_the_deck_loads_no_layer_above_it_and_no_engine():
    deck_modules = sorted(m for m in modules() if group(m) == "deck")
    loaded = loaded_after("\n".join(f"import {m}" for m in deck_modules))
    above = {m for m in loaded if group(m) in {"cli", "web", "sim", "render"}}
    packages = {m for m, path in modules().items() if path.name == "__init__.py"}
    # A module with no source of its own is the compiled build's shared library.
    engine = {
        m
        for m in loaded
        if group(m) == "games" and m in modules() and m not in ENGINE_ON_THE_WAY | packages
    }
    assert not above and not engine, sorted(above | engine)
    assert "kraftstokk.games.stromkrig.rules" in loaded  # the deck's flags use it


def test_loading_design_loads_only_the_base():
    design_modules = sorted(m for m in modules() if group(m) == "design")
    loaded = loaded_after("\n".join(f"import {m}" for m in design_modules))
    assert {group(m) for m in loaded} == {"base", "design"}


def test_the_engine_api_loads_on_first_use():
    loaded = loaded_after(
        "import kraftstokk.games as games\n"
        "assert 'kraftstokk.games.core' not in sys.modules\n"
        "names = [getattr(games, name).__name__ for name in games.__all__]"
    )
    assert {"kraftstokk.games.core", "kraftstokk.games.registry"} <= loaded
