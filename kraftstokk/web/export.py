"""``kraftstokk export-web``: the games as a folder of static files any web host serves.

The folder holds the page (``index.html``, the same template and scripts as ``serve``'s
page), the deck's card faces, the rules panel's text, the page's words, the engine (the
game packages' Python, :data:`ENGINE_FILES`) and Pyodide's runtime from the npm registry,
pinned to :data:`PYODIDE_VERSION` and copied in (no CDN). The page's Web Worker runs the
engine on Pyodide (``static/worker.js``, ``inpage.py``); a service worker keeps every file
for offline play after the first visit (``sw.js``, written here with the bundle's file
list), and a web app manifest lets a phone install it.

Runtime files are named by what they hold: ``app-<digest>/`` (the page's scripts, styles,
words, rules, deck and engine), ``cards-<digest>/`` (the faces) and
``pyodide-<version>/``, so a host may let browsers cache them for a year; ``index.html``,
``sw.js`` and the manifest keep their names and should be served fresh.

The same deck and the same sources give the same folder, byte for byte. The folder is
written aside and takes the place of ``DIR`` whole; ``DIR`` may be new, empty or an
earlier export (whose files not written by the export, a ``CNAME`` say, are kept).
"""

from __future__ import annotations

import ast
import copy
import gzip
import hashlib
import io
import json
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from jinja2 import Environment, FileSystemLoader, select_autoescape
from PIL import Image

from kraftstokk import locales
from kraftstokk.atomic import replaced_directory
from kraftstokk.errors import InputFileError, KraftstokkError, OutputError
from kraftstokk.folderlock import LOCK_NAME
from kraftstokk.models import Deck
from kraftstokk.web.cards import BACK, CardImages
from kraftstokk.web.catalogue import setup_payload
from kraftstokk.web.inpage import ENGINE_PARTS
from kraftstokk.web.rules import rules_panel
from kraftstokk.web.seal import SaveKey
from kraftstokk.web.sessions import GameStore

#: Pyodide from the npm registry, the version the Makefile installs (``make pyodide``).
PYODIDE_VERSION: Final = "314.0.8"
PYODIDE_SETTING: Final = "KRAFTSTOKK_PYODIDE"  # another folder holding the npm package
#: Where ``make pyodide`` installs it, relative to the project (tried from the working
#: folder and from the installed package's project).
PYODIDE_PLACES: Final = (Path(".venv/npm/node_modules/pyodide"), Path("node_modules/pyodide"))
#: What the page loads of Pyodide (the rest of the npm package is for Node and consoles).
RUNTIME_FILES: Final = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
#: The runtime's files the folder holds gzip'd, as ``<name>.gz`` (10.8 of its 12.9 MB as
#: they are, 3.8 packed): a host that sends files as they lie on disk (Python's
#: http.server, many a web space) then sends a first visit about 6 MB instead of 13, as a
#: host that compresses would. The page unpacks them (``static/runtime.js``, which lists
#: the same names) and the service worker keeps them unpacked. ``python_stdlib.zip`` is a
#: deflated ZIP already (gzip takes 1 % off) and stays as it is.
PACKED: Final = ("pyodide.asm.wasm", "pyodide.asm.mjs")
LOCK_FILE: Final = "pyodide-lock.json"  # written with no package: nothing else can load
STDLIB: Final = "python_stdlib.zip"
#: Python's start compiled ahead (``make pyodide`` runs ``scripts/pyodide_boot.mjs``): the
#: bytecode of the standard library's modules Pyodide's start imports, put in place of
#: their sources, so that no page compiles them again at every start.
BOOT_BYTECODE: Final = "kraftstokk-boot-pyc.zip"
#: Packages and modules of Python's standard library that neither Pyodide's start nor the
#: engine imports (mail, the web's protocols, XML, tests, debuggers, profilers, databases,
#: the REPL, command lines): left out of the page's ``python_stdlib.zip``, 1.1 of its 2.5
#: MB, which a first visit at 20 Mbit/s spends 0.45 s fetching. What Pyodide's start
#: imports was read from its ``sys.modules`` (asyncio, inspect, ssl, tokenize, ... stay);
#: the engine's imports are checked against this by tests/test_web_export.py.
STDLIB_LEFT_OUT: Final = (
    "__phello__", "_pydatetime", "_pydecimal", "_pyio", "_pylong", "_pyrepl", "argparse",
    "calendar", "cgi", "cgitb", "code", "colorsys", "compileall", "cProfile", "csv", "ctypes",
    "curses", "dbm", "difflib", "doctest", "email", "ensurepip", "filecmp", "fileinput",
    "ftplib", "getopt", "getpass", "gettext", "graphlib", "html", "http", "idlelib", "imaplib",
    "imghdr", "lib2to3", "mailbox", "mailcap", "mimetypes", "modulefinder",
    "multiprocessing", "netrc", "nntplib", "nturl2path", "optparse", "pdb", "pickle",
    "pickletools", "plistlib", "poplib", "profile", "pstats", "pty", "py_compile", "pyclbr",
    "pydoc", "pydoc_data", "runpy", "sched", "shelve", "shlex", "smtpd", "smtplib", "sndhdr",
    "socketserver", "sqlite3", "statistics", "symtable", "tabnanny", "tarfile", "telnetlib",
    "this", "timeit", "tkinter", "trace", "tracemalloc", "tty", "turtle", "turtledemo",
    "unittest", "uuid", "venv", "webbrowser", "wsgiref", "xml", "xmlrpc",
    "zipapp", "zoneinfo",
)  # fmt: skip

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent
STATIC = HERE / "static"
PAGE_SCRIPTS: Final = ("app.js", "table.js", "worker.js", "runtime.js", "app.css")
#: The engine the page runs: the modules ``web/inpage.py`` imports (followed through every
#: ``import`` in their sources, at any depth, but type checks), and every module of the
#: game packages (the registry loads them by name), less what the play never imports (the
#: booklet's chapters, the native cores' glue and build, the terminal game, replay logs'
#: pydantic reader). ``tests/test_web_export.py`` plays every game with only these files,
#: in a Python without pydantic.
ENGINE_ROOTS: Final = ("web/inpage.py", "games/**/*.py")
ENGINE_LEAVES: Final = (
    "chapter.py",
    "fast.py",
    "cheader.py",
    "play_session.py",
    "replay.py",
)
#: The page's words that the static edition says differently: ``[static]`` of web.toml.
STATIC_WORDS: Final = {
    ("ui", "save_note"): "save_note",
    ("ui", "keep_save_help"): "keep_save_help",
    ("ui", "upload_help"): "upload_help",
    ("bot_help", "expert"): "expert_help",
}
MARKER: Final = "kraftstokk-export.json"  # what an export wrote (to replace it next time)
ICON_SIZES: Final = (192, 512)
THEME: Final = "#0f4c5c"  # the table's felt (app.css --felt)
BACKGROUND: Final = "#f4f1ea"  # the page (app.css --paper)
ZIP_TIME: Final = (2020, 1, 1, 0, 0, 0)  # every file of the engine's archive: same bytes


class RuntimeMissing(KraftstokkError):
    """Pyodide is not installed where the export looks (exit 2)."""


@dataclass(frozen=True)
class Exported:
    folder: Path
    files: int
    size: int  # bytes on disk, all files
    version: str  # the bundle's digest (sw.js's cache name)


def find_runtime(chosen: Path | None = None) -> Path:
    """Pyodide's npm package folder: ``chosen``, ``$KRAFTSTOKK_PYODIDE``, or where
    ``make pyodide`` installs it; RuntimeMissing with what to run when it is not there or
    is another version."""
    import os

    candidates = [chosen] if chosen else []
    setting = os.environ.get(PYODIDE_SETTING)
    if not chosen and setting:
        candidates.append(Path(setting))
    if not candidates:
        project = PACKAGE.parent
        candidates = [
            place for base in (Path.cwd(), project) for place in (base / p for p in PYODIDE_PLACES)
        ]
    for folder in candidates:
        package = folder / "package.json"
        if not package.is_file():
            continue
        try:
            version = json.loads(package.read_text(encoding="utf-8")).get("version")
        except (OSError, ValueError):
            version = None
        if version != PYODIDE_VERSION:
            raise RuntimeMissing(
                f"{folder}: Pyodide {version or '(unknown version)'}, but this kraftstokk "
                f"needs {PYODIDE_VERSION}: make pyodide (npm install pyodide@{PYODIDE_VERSION})"
            )
        missing = [name for name in (*RUNTIME_FILES, LOCK_FILE) if not (folder / name).is_file()]
        if missing:
            raise RuntimeMissing(f"{folder}: Pyodide is incomplete (no {', '.join(missing)})")
        return folder
    where = ", ".join(str(c) for c in candidates)
    raise RuntimeMissing(
        f"Pyodide {PYODIDE_VERSION} not found ({where}): run make pyodide "
        f"(npm install pyodide@{PYODIDE_VERSION}), or name its folder with --pyodide"
    )


def engine_sources() -> list[Path]:
    """The engine's Python files (:data:`ENGINE_ROOTS` and what they import)."""
    queue = [
        path
        for pattern in ENGINE_ROOTS
        for path in sorted(PACKAGE.glob(pattern))
        if path.name not in ENGINE_LEAVES and "__pycache__" not in path.parts
    ]
    found: set[Path] = set()
    while queue:
        path = queue.pop()
        if path in found:
            continue
        found.add(path)
        for name in _imports(path):
            queue.extend(_module_files(name))
    return sorted(found)


def _imports(path: Path) -> Iterator[str]:
    """The ``kraftstokk`` modules a source imports, wherever (not under TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    checking = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        if id(node) in checking:
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def _module_files(name: str) -> list[Path]:
    """A ``kraftstokk`` module's file and its packages' ``__init__.py`` (none for a name
    that is no module: an attribute imported from one)."""
    parts = name.split(".")
    if parts[0] != "kraftstokk":
        return []
    files = [PACKAGE / "__init__.py"]
    for depth in range(1, len(parts)):
        folder = PACKAGE.joinpath(*parts[1 : depth + 1])
        if (folder / "__init__.py").is_file():
            files.append(folder / "__init__.py")
        elif folder.with_suffix(".py").is_file() and depth == len(parts) - 1:
            files.append(folder.with_suffix(".py"))
    return files


def left_out(module: str) -> bool:
    """Whether ``module`` (a dotted name) is of :data:`STDLIB_LEFT_OUT`."""
    return any(module == name or module.startswith(f"{name}.") for name in STDLIB_LEFT_OUT)


def trimmed_stdlib(data: bytes, compiled: dict[str, bytes] | None = None) -> bytes:
    """Pyodide's ``python_stdlib.zip`` without :data:`STDLIB_LEFT_OUT`, and with a module's
    bytecode in place of its source where ``compiled`` has it (by ``<path>.pyc``); the same
    input gives the same bytes."""
    compiled = compiled or {}
    buffer = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(data)) as source,
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive,
    ):
        for info in source.infolist():
            module = info.filename.removesuffix(".py").removesuffix("/__init__").rstrip("/")
            if left_out(module.replace("/", ".")):
                continue
            bytecode = compiled.get(f"{info.filename}c")
            if bytecode is None:
                archive.writestr(info, source.read(info), zipfile.ZIP_DEFLATED, 9)
            else:
                entry = zipfile.ZipInfo(f"{info.filename}c", info.date_time)
                entry.external_attr = info.external_attr
                archive.writestr(entry, bytecode, zipfile.ZIP_DEFLATED, 9)
    return buffer.getvalue()


def boot_bytecode(runtime: Path) -> dict[str, bytes]:
    """The bytecode ``make pyodide`` compiled for Python's start (:data:`BOOT_BYTECODE`), by
    path; nothing when there is none or it is another Pyodide's (the page then compiles the
    sources itself, as Pyodide does)."""
    try:
        with zipfile.ZipFile(runtime / BOOT_BYTECODE) as archive:
            if archive.comment != f"pyodide {PYODIDE_VERSION}".encode():
                return {}
            return {name: archive.read(name) for name in archive.namelist()}
    except (OSError, zipfile.BadZipFile):
        return {}


def engine_archive() -> bytes:
    """The engine's Python and the page's locale parts as one ZIP, byte for byte the same
    for the same sources."""
    files: dict[str, bytes] = {
        f"kraftstokk/{path.relative_to(PACKAGE).as_posix()}": path.read_bytes()
        for path in engine_sources()
    }
    for code in locales.languages():
        for part in ENGINE_PARTS:
            path = PACKAGE / "locales" / code / f"{part}.toml"
            files[f"kraftstokk/locales/{code}/{part}.toml"] = path.read_bytes()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name])
    return buffer.getvalue()


def static_setup(store: GameStore) -> dict[str, Any]:
    """The start page's setup, with the static edition's own words where it differs."""
    # The words are the catalogue's cached tables: changed in a copy, or every later
    # setup of this process would carry the static edition's words.
    setup = copy.deepcopy(setup_payload(store))
    for texts in setup["texts"].values():
        own = texts.get("static", {})
        for (table, key), word in STATIC_WORDS.items():
            texts[table][key] = own[word]
    return setup


def _digest(files: Iterable[tuple[str, bytes]]) -> str:
    digest = hashlib.sha256()
    for name, data in sorted(files):
        digest.update(name.encode())
        digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()[:12]


def _json(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


def _icon(back: bytes, size: int) -> bytes:
    """The app's icon: the deck's card back on the page's paper, square (256 colours)."""
    card = Image.open(io.BytesIO(back)).convert("RGB")
    height = round(size * 0.86)
    width = round(card.width * height / card.height)
    card = card.resize((width, height), Image.Resampling.LANCZOS)
    icon = Image.new("RGB", (size, size), BACKGROUND)
    icon.paste(card, ((size - width) // 2, (size - height) // 2))
    out = io.BytesIO()
    icon.quantize(256, dither=Image.Dither.NONE).save(out, format="PNG", optimize=True)
    return out.getvalue()


def bundle(deck: Deck, runtime: Path, cache: Path | None = None) -> dict[str, bytes]:
    """Every file of the static site for ``deck``, by its path in the folder."""
    store = GameStore(deck, SaveKey(bytes(32)))  # the setup's facts; this key seals nothing
    images = CardImages(deck, cache)
    images.prepare()
    faces = {name: images.image(name) or b"" for name in [c.id for c in deck.cards] + [BACK]}
    webps = {f"{name}.webp": data for name, data in faces.items()}
    cards_folder = f"cards-{_digest(webps.items())}/"
    app: dict[str, bytes] = {name: (STATIC / name).read_bytes() for name in PAGE_SCRIPTS}
    app["setup.json"] = _json(static_setup(store))
    app["deck.json"] = _json(store.deck_json)
    app["engine.zip"] = engine_archive()
    for code in locales.languages():
        app[f"rules-{code}.json"] = _json(rules_panel(deck, code))
    app_folder = f"app-{_digest(app.items())}/"
    lock = json.loads((runtime / LOCK_FILE).read_text(encoding="utf-8"))
    python = {name: (runtime / name).read_bytes() for name in RUNTIME_FILES}
    python[STDLIB] = trimmed_stdlib(python[STDLIB], boot_bytecode(runtime))
    python[LOCK_FILE] = _json({"info": lock["info"], "packages": {}})
    for name in PACKED:
        python[f"{name}.gz"] = gzip.compress(python.pop(name), 9, mtime=0)
    # Named by version and content: the standard library is this kraftstokk's cut of it.
    runtime_folder = f"pyodide-{PYODIDE_VERSION}-{_digest(python.items())}/"
    files: dict[str, bytes] = {f"{app_folder}{name}": data for name, data in app.items()}
    files.update({f"{cards_folder}{name}": data for name, data in webps.items()})
    files.update({f"{runtime_folder}{name}": data for name, data in python.items()})
    for size in ICON_SIZES:
        files[f"icon-{size}.png"] = _icon(faces[BACK], size)
    first = deck.language() if deck.language() in locales.languages() else locales.languages()[0]
    files["manifest.webmanifest"] = _json(
        {
            "name": deck.title,
            "short_name": deck.title[:12],
            "lang": first,
            "start_url": "./",
            "scope": "./",
            "display": "standalone",
            "background_color": BACKGROUND,
            "theme_color": THEME,
            "icons": [
                {"src": f"icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png"}
                for size in ICON_SIZES
            ],
        }
    )
    files["index.html"] = _page(deck, first, app_folder, cards_folder, runtime_folder)
    version = _digest(files.items())
    offline = ["./", *sorted(name for name in files if name != "index.html")]
    files["sw.js"] = _service_worker(version, offline, (app_folder, cards_folder, runtime_folder))
    files[MARKER] = _json(
        {
            "format": "kraftstokk-export",
            "version": version,
            "deck": {"title": deck.title, "edition": deck.edition},
            "pyodide": PYODIDE_VERSION,
            "files": sorted([*files, MARKER]),
        }
    )
    return files


def _page(deck: Deck, language: str, app: str, cards: str, runtime: str) -> bytes:
    templates = Environment(
        loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"])
    )
    html = templates.get_template("index.html").render(
        title=deck.title,
        edition=deck.edition,
        language=language,
        assets=app,
        table={"table": "worker", "cards": cards, "runtime": runtime, "engine": "engine.zip"},
        manifest="manifest.webmanifest",
        theme=THEME,
    )
    return html.encode()


def _service_worker(version: str, files: list[str], long_lived: tuple[str, ...]) -> bytes:
    template = (STATIC / "sw.js").read_text(encoding="utf-8")
    filled = (
        template.replace('"__VERSION__"', json.dumps(version))
        .replace('["__FILES__"]', json.dumps(files, indent=0))
        .replace('["__LONG_LIVED__"]', json.dumps(list(long_lived)))
    )
    return filled.encode()


def _earlier_export(folder: Path) -> set[str] | None:
    """The top-level names an earlier export wrote into ``folder`` (None: not one)."""
    marker = folder / MARKER
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
        files = data["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return {str(name).split("/")[0] for name in files} | {LOCK_NAME}


def export_web(
    deck: Deck,
    folder: Path,
    *,
    runtime: Path | None = None,
    cache: Path | None = None,
    progress: Callable[[str], Any] | None = None,
) -> Exported:
    """Write the static site for ``deck`` into ``folder`` (replaced whole)."""
    found = find_runtime(runtime)
    folder = Path(folder)
    ours: set[str] = set()
    if folder.exists():
        if not folder.is_dir():
            raise OutputError(folder, "is a file, not a folder")
        entries = {entry.name for entry in folder.iterdir()} - {LOCK_NAME}
        earlier = _earlier_export(folder)
        if entries and earlier is None:
            raise OutputError(
                folder,
                "holds other files and no earlier export; choose a new or empty folder "
                "(export-web replaces the folder whole)",
            )
        ours = earlier or set()
    if progress:
        progress("drawing the card faces and bundling the engine ...")
    try:
        files = bundle(deck, found, cache)
    except OSError as exc:
        raise InputFileError(found, f"cannot read: {exc.strerror or exc}") from None
    size = sum(len(data) for data in files.values())
    # Files not the export's own (a CNAME a host needs) stay, and so does the lock.
    keep: Callable[[str], bool] = lambda name: name == LOCK_NAME or name not in ours  # noqa: E731
    with replaced_directory(folder, carry_over=keep) as staging:
        for name, data in sorted(files.items()):
            path = staging / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    version = json.loads(files[MARKER])["version"]
    return Exported(folder, len(files), size, version)
