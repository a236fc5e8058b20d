"""``kraftstokk export-web``: the folder it writes, its refusals, and the engine it carries.

The folder is checked without a browser here (``test_web_static.py`` plays it in Chromium):
every file the page, the service worker and the manifest name is there, the runtime
files are named by content or version, the same deck gives the same bytes, a re-export
keeps the host's own files, and the engine's archive alone plays every game in a plain
Python with no pydantic and no locale part the page does not use.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.models import Deck
from kraftstokk.web.export import (
    MARKER,
    PACKED,
    PYODIDE_SETTING,
    PYODIDE_VERSION,
    RUNTIME_FILES,
    RuntimeMissing,
    boot_bytecode,
    export_web,
    find_runtime,
    left_out,
)
from tests.conftest import synthetic_deck

ROOT = Path(__file__).resolve().parent.parent
BUDGET_BYTES = 16_000_000  # the bundle budget on disk: 16 MB
cli = CliRunner()


def runtime_or_fail() -> Path:
    """Pyodide as ``make pyodide`` installs it (``make test`` does): without npm the
    export cannot be made, which is the one reason to skip."""
    import shutil

    try:
        return find_runtime()
    except RuntimeMissing as exc:
        if shutil.which("npm") is None:
            pytest.skip(f"no npm on the PATH to install Pyodide ({exc.message})")
        raise


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("card-cache")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, cache: Path) -> Path:
    runtime_or_fail()
    folder = tmp_path_factory.mktemp("export") / "site"
    export_web(synthetic_deck(), folder, cache=cache)
    return folder


def _files(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_every_file_the_page_names_is_there(site: Path) -> None:
    files = _files(site)
    html = files["index.html"].decode()
    root = re.search(r"<html ([^>]*)>", html)
    assert root is not None
    settings = dict(re.findall(r'data-(\w+)="([^"]*)"', root.group(1)))
    assert settings["table"] == "worker"
    app_folder = re.search(r'src="(app-[0-9a-f]{12}/)app.js"', html)
    assert app_folder is not None
    app_dir = app_folder.group(1)
    for name in ("app.js", "table.js", "worker.js", "app.css", "setup.json", "deck.json"):
        assert f"{app_dir}{name}" in files
    assert f"{app_dir}{settings['engine']}" in files
    assert re.fullmatch(r"cards-[0-9a-f]{12}/", settings["cards"])
    assert re.fullmatch(
        rf"pyodide-{re.escape(PYODIDE_VERSION)}-[0-9a-f]{{12}}/", settings["runtime"]
    )
    for name in RUNTIME_FILES:
        assert f"{settings['runtime']}{name}{'.gz' if name in PACKED else ''}" in files
    setup = json.loads(files[f"{app_dir}setup.json"])
    for card in [*setup["cards"], {"id": "back"}]:
        assert f"{settings['cards']}{card['id']}.webp" in files
    for language in setup["languages"]:
        assert f"{app_dir}rules-{language}.json" in files
    # Nothing from the network: no absolute URL in what the page runs.
    for name, data in files.items():
        if (
            name.endswith((".html", ".js", ".css", ".json", ".webmanifest"))
            and "pyodide-" not in name
        ):
            text = data.decode()
            assert "http://" not in text and "https://" not in text, name


def test_the_big_runtime_files_are_packed_and_the_page_unpacks_those(site: Path) -> None:
    """The runtime's big files lie gzip'd (a host that sends files as they are then sends
    about 6 MB, not 13), each unpacking to Pyodide's own file byte for byte, none of them
    also as it is; the page's loader (runtime.js) unpacks the same names."""
    files = _files(site)
    runtime = runtime_or_fail()
    (folder,) = {name.split("/")[0] for name in files if name.startswith("pyodide-")}
    for name in PACKED:
        assert f"{folder}/{name}" not in files
        packed = files[f"{folder}/{name}.gz"]
        assert packed[:2] == b"\x1f\x8b" and len(packed) < len((runtime / name).read_bytes()) / 2
        assert gzip.decompress(packed) == (runtime / name).read_bytes()
    script = next(data for name, data in files.items() if name.endswith("/runtime.js"))
    listed = re.search(rb"export const PACKED = (\[.*?\]);", script)
    assert listed is not None and json.loads(listed.group(1)) == list(PACKED)
    transferred = sum(len(data) for name, data in files.items() if name.startswith(folder))
    assert transferred < 7_000_000, f"{transferred / 1e6:.1f} MB of runtime"


def test_the_service_worker_keeps_every_file_and_names_the_version(site: Path) -> None:
    files = _files(site)
    worker = files["sw.js"].decode()
    listed = json.loads(re.search(r"const FILES = (\[.*?\]);", worker, re.S).group(1))  # type: ignore[union-attr]
    marker = json.loads(files[MARKER])
    assert f'const VERSION = "{marker["version"]}"' in worker
    assert "./" in listed and "index.html" not in listed  # the page is kept as "./"
    expected = set(files) - {"index.html", "sw.js", MARKER}
    assert set(listed) - {"./"} == expected
    manifest = json.loads(files["manifest.webmanifest"])
    assert manifest["start_url"] == "./" and manifest["display"] == "standalone"
    assert {icon["src"] for icon in manifest["icons"]} <= set(files)
    assert sorted(marker["files"]) == sorted(files)


def test_runtime_folders_are_named_by_their_content(site: Path) -> None:
    """A host may cache app-*/, cards-*/ and pyodide-*/ for long: their names change with
    any byte (the runtime's standard library is this kraftstokk's cut of Pyodide's)."""
    files = _files(site)
    for prefix in ("app-", "cards-", f"pyodide-{PYODIDE_VERSION}-"):
        folders = {name.split("/")[0] for name in files if name.startswith(prefix)}
        assert len(folders) == 1
        (folder,) = folders
        digest = hashlib.sha256()
        for name, data in sorted(files.items()):
            if name.startswith(f"{folder}/"):
                digest.update(name.removeprefix(f"{folder}/").encode())
                digest.update(hashlib.sha256(data).digest())
        assert folder == f"{prefix}{digest.hexdigest()[:12]}"


def test_the_bundle_is_within_its_budget(site: Path) -> None:
    size = sum(len(data) for data in _files(site).values())
    assert size <= BUDGET_BYTES, f"{size / 1e6:.1f} MB on disk"


def test_the_same_deck_gives_the_same_folder_byte_for_byte(
    site: Path, tmp_path: Path, cache: Path
) -> None:
    again = tmp_path / "again"
    export_web(synthetic_deck(), again, cache=cache)
    assert _files(again) == _files(site)


def test_the_engine_alone_plays_every_game_without_pydantic(site: Path, tmp_path: Path) -> None:
    """The archive the worker unpacks, alone in a Python without site-packages (so no
    pydantic, nothing of the project but these files), plays a game of each to the end;
    it holds the page's three locale parts of each language and nothing of the booklet."""
    archive = next(site.glob("app-*/engine.zip"))
    with zipfile.ZipFile(archive) as bundle:
        names = bundle.namelist()
        bundle.extractall(tmp_path / "engine")
    assert not [n for n in names if n.endswith(("booklet.toml", "cli.toml", ".c", ".so"))]
    assert not [n for n in names if n.endswith(("chapter.py", "/replay.py", "fast.py"))]
    deck = next(site.glob("app-*/deck.json"))
    script = f"""
import json, random, sys
sys.path.insert(0, {str(tmp_path / "engine")!r})
from kraftstokk.web.inpage import open_table
text = open({str(deck)!r}, encoding="utf-8").read()
plants = {{c["id"]: c.get("plant_id") or c["id"] for c in json.loads(text)["cards"]}}
table = open_table(text)
rng = random.Random(2)
done = []
for game in ("idiot", "kraftidioten", "stromkrig"):
    body = json.loads(table.call("new", json.dumps(
        {{"game": game, "opponents": 3, "bots": "heuristic", "seed": 6}})))["body"]
    while body["over"] is None:
        moves, request = body["moves"], {{"id": body["id"], "turn": body["turn"]}}
        if moves["list"] and (not moves["claim"] or rng.random() < 0.3):
            request["move"] = rng.choice(moves["list"])["i"]
        else:
            card = moves["claim"]["fixed_card"] or rng.choice(moves["claim"]["cards"])
            request["claim"] = {{"card": card, "plant_id": plants[card],
                                "category": rng.choice(moves["claim"]["categories"])}}
        answer = json.loads(table.call("move", json.dumps(request)))
        if answer["status"] == 422 and "claim" in request:
            continue
        assert answer["status"] == 200, answer
        body = answer["body"]
    done.append(game)
print(json.dumps({{"done": done, "pydantic": [m for m in sys.modules if "pydantic" in m],
                  "modules": sorted(sys.modules)}}))
"""
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", script],
        capture_output=True,
        text=True,
        timeout=600,
        env={"KRAFTSTOKK_PURE_PYTHON": "1"},
    )
    assert run.returncode == 0, run.stderr[-3000:]
    found = json.loads(run.stdout)
    assert found["done"] == ["idiot", "kraftidioten", "stromkrig"]
    assert found["pydantic"] == []
    # Nothing it imports is cut from the page's standard library (export.STDLIB_LEFT_OUT).
    assert [m for m in found["modules"] if left_out(m)] == []


def test_the_page_standard_library_leaves_out_only_what_nothing_imports(site: Path) -> None:
    """The page's python_stdlib.zip is Pyodide's without STDLIB_LEFT_OUT, keeps what
    Pyodide's own start imports (its sys.modules after loadPyodide), and holds that start's
    modules as the bytecode ``make pyodide`` compiled (no page compiles them again)."""
    (stdlib,) = site.glob("pyodide-*/python_stdlib.zip")
    runtime = runtime_or_fail()
    compiled = boot_bytecode(runtime)
    assert "_pyodide/_base.pyc" in compiled and "asyncio/base_events.pyc" in compiled
    with (
        zipfile.ZipFile(stdlib) as cut,
        zipfile.ZipFile(runtime / "python_stdlib.zip") as whole,
    ):
        kept = {info.filename: cut.read(info) for info in cut.infolist()}
        every = set(whole.namelist())
    modules = {n.split(".py")[0].removesuffix("/__init__").replace("/", ".") for n in kept}
    for started in (
        "_pyodide._base",
        "pyodide.ffi",
        "asyncio",
        "inspect",
        "ssl",
        "tokenize",
        "encodings.utf_8",
        "encodings.cp437",
        "json",
        "tomllib",
        "hmac",
        "secrets",
    ):
        assert started in modules, started
    assert not [m for m in modules if left_out(m)]
    for name, bytecode in compiled.items():  # in place of the source
        assert kept[name] == bytecode and name[:-1] not in kept and name[:-1] in every
    assert len(stdlib.read_bytes()) < len((runtime / "python_stdlib.zip").read_bytes())


def test_the_makefile_installs_the_pinned_pyodide() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert f"PYODIDE_VERSION := {PYODIDE_VERSION}\n" in makefile


# -- the command ------------------------------------------------------------------------


def export(*args: str | Path, env: dict[str, str] | None = None) -> Any:
    return cli.invoke(app, ["export-web", *map(str, args)], env=env)


@pytest.fixture
def deck_file(deck: Deck, tmp_path: Path) -> Path:
    path = tmp_path / "deck.json"
    path.write_text(deck.model_dump_json(), encoding="utf-8")
    return path


@pytest.fixture
def card_cache(cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KRAFTSTOKK_CACHE_DIR", str(cache))
    return cache


def test_a_re_export_replaces_the_folder_and_keeps_the_hosts_own_files(
    deck_file: Path, tmp_path: Path, card_cache: Path
) -> None:
    runtime_or_fail()
    folder = tmp_path / "site"
    first = export(deck_file, folder)
    assert first.exit_code == 0, first.output
    assert "python -m http.server" in first.output
    (folder / "CNAME").write_text("cards.example.org\n", encoding="utf-8")
    old_app = next(folder.glob("app-*"))
    (old_app / "stale.js").write_text("// from before\n", encoding="utf-8")
    again = export(deck_file, folder)
    assert again.exit_code == 0, again.output
    assert (folder / "CNAME").read_text(encoding="utf-8") == "cards.example.org\n"
    assert not list(folder.glob("app-*/stale.js"))
    assert not (folder / ".kraftstokk.lock").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no leftovers


def test_a_folder_of_other_files_is_refused_and_left_alone(
    deck_file: Path, tmp_path: Path, card_cache: Path
) -> None:
    runtime_or_fail()
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "holiday.jpg").write_bytes(b"\xff\xd8")
    result = export(deck_file, folder)
    assert result.exit_code == 2
    assert "photos" in result.output and "no earlier export" in result.output
    assert sorted(p.name for p in folder.iterdir()) == ["holiday.jpg"]
    a_file = tmp_path / "file"
    a_file.write_text("x", encoding="utf-8")
    result = export(deck_file, a_file)
    assert result.exit_code == 2 and "file" in result.output


def test_missing_pyodide_names_what_to_run(deck_file: Path, tmp_path: Path) -> None:
    result = export(deck_file, tmp_path / "site", "--pyodide", tmp_path / "nowhere")
    assert result.exit_code == 2
    assert "make pyodide" in result.output and "Traceback" not in result.output
    other = tmp_path / "old-pyodide"
    other.mkdir()
    (other / "package.json").write_text('{"version": "0.26.0"}', encoding="utf-8")
    result = export(deck_file, tmp_path / "site", env={PYODIDE_SETTING: str(other)})
    assert result.exit_code == 2
    assert "0.26.0" in result.output and PYODIDE_VERSION in result.output
    assert not (tmp_path / "site").exists()


def test_a_deck_that_fails_validation_is_refused_with_exit_1(deck: Deck, tmp_path: Path) -> None:
    data = deck.model_dump(mode="json")
    data["cards"][0]["nr"]["gwh"] = data["cards"][1]["nr"]["gwh"]  # a duplicate nr.
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = export(path, tmp_path / "site")
    assert result.exit_code == 1 and "problem" in result.output
    assert not (tmp_path / "site").exists()


def test_the_arguments_are_deck_then_folder(tmp_path: Path) -> None:
    result = export(tmp_path / "a", tmp_path / "b", tmp_path / "c")
    assert result.exit_code == 2 and "[DECK] DEPLOY-DIR" in result.output
    missing = export(tmp_path / "nope.json", tmp_path / "site")
    assert missing.exit_code == 2 and "nope.json" in missing.output
    help_text = cli.invoke(app, ["export-web", "--help"]).output
    assert "[DECK] DEPLOY-DIR" in help_text and "--pyodide" in help_text
