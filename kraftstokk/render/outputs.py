"""Every print output of a deck: sheets PDF, print-shop PDF, PNG images and the tuck box.

A printer preset (:mod:`kraftstokk.design.presets`) decides how each is made. Without
one, the sheets are made for ``home-<paper>`` and the print-shop file for ``offset``;
``--preset NAME`` (or ``[print] preset`` in the deck spec) makes that preset's file:
the sheets for a sheets preset, ``kraftstokk-NAME.pdf`` for a one-card-per-page preset.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from kraftstokk.atomic import replaced_directory, write_files
from kraftstokk.deck.render_record import (
    RECORD_NAME,
    RenderedOutput,
    digest_of,
    merged,
    output_entry,
    stale_outputs,
)
from kraftstokk.design.layout import CardLayout, layout_name_of, load_layout
from kraftstokk.design.presets import Preset, load_preset, preset_of_deck
from kraftstokk.design.presets.fit import layout_problems
from kraftstokk.errors import RenderError
from kraftstokk.models import Deck
from kraftstokk.progress import Counter, ProgressFactory, step
from kraftstokk.render.box import BoxOptions, dieline_pdf, shop_box_pdf, tuck_box_pdf
from kraftstokk.render.preview import is_preview_file, upload_size, write_previews
from kraftstokk.render.printshop import (
    DEFAULT_PRESET,
    PRINTSHOP_ORDERS,
    PrintshopOrder,
    printshop_pdf,
)
from kraftstokk.render.profiles import read_output_profile
from kraftstokk.render.sheet_layout import DUPLEX_MODES, PAPERS, Duplex
from kraftstokk.render.sheets import sheets_pdf

Output = Literal["sheets", "printshop", "png", "box", "tabletop"]
OUTPUTS: tuple[Output, ...] = ("sheets", "printshop", "png", "box", "tabletop")
DEFAULT_OUTPUTS: tuple[Output, ...] = ("sheets", "printshop", "png")
PRINTSHOP_FILE = "kraftstokk-printshop.pdf"
BOX_FILE = "kraftstokk-box.pdf"


def shop_box_files(preset: str) -> tuple[str, str]:
    """The print-shop box and its die lines: ``kraftstokk-box-offset.pdf`` and
    ``kraftstokk-box-offset-dieline.pdf``."""
    return f"kraftstokk-box-{preset}.pdf", f"kraftstokk-box-{preset}-dieline.pdf"


PNG_DIR = "png"
MAX_BLEED = 10.0  # mm


#: What ``render --only-changed`` adds to each file and folder name, so that a reprint's
#: files never replace the whole deck's.
REPRINT_SUFFIX = "-reprint"
REPRINT_REPORT = "reprint.txt"
BOX_IS_NO_CARD = (
    "--only box --only-changed: the tuck box is not a card; render it with --only box "
    "alone (it prints the title, edition and data credit)"
)
TABLETOP_IS_WHOLE = (
    "--only tabletop --only-changed: a virtual tabletop loads the deck whole; render it "
    "with --only tabletop alone"
)


def sheets_file(paper: str, suffix: str = "") -> str:
    """``kraftstokk-a4.pdf`` or ``kraftstokk-letter.pdf`` (``-reprint`` before ``.pdf``)."""
    return f"kraftstokk-{paper}{suffix}.pdf"


@dataclass(frozen=True)
class Reprint:
    """Only these faces (card ids), and the back only when it changed (``render
    --only-changed``): the print files of a reprint."""

    faces: tuple[str, ...]
    back: bool
    #: The verdict in words, written beside the files as reprint.txt.
    report: str = ""


@dataclass(frozen=True)
class RenderOptions:
    paper: str = "a4"
    duplex: Duplex = "long"
    bleed: float | None = None  # None: the preset's
    printshop_order: PrintshopOrder | None = None  # None: the preset's
    only: tuple[Output, ...] | None = None  # None: the outputs the preset makes
    layout: str | None = None  # None: the preset's, else the deck's [style] layout
    preset: str | None = None  # None: the deck's [print] preset, else home + offset
    box: BoxOptions = field(default_factory=BoxOptions)
    reprint: Reprint | None = None  # None: every card
    tabletop_url: str | None = None  # where the tabletop folder will be on the web

    @property
    def suffix(self) -> str:
        return "" if self.reprint is None else REPRINT_SUFFIX

    @property
    def only_cards(self) -> frozenset[str] | None:
        return None if self.reprint is None else frozenset(self.reprint.faces)

    def chosen_preset(self, deck: Deck) -> Preset | None:
        name = self.preset or preset_of_deck(deck)
        return load_preset(name) if name else None

    def sheets_preset(self, deck: Deck) -> Preset:
        chosen = self.chosen_preset(deck)
        if chosen is not None and chosen.pages == "sheets":
            return chosen
        return load_preset(f"home-{self.paper}")

    def shop_preset(self, deck: Deck) -> Preset:
        chosen = self.chosen_preset(deck)
        preset = chosen if chosen is not None and chosen.pages == "cards" else None
        preset = preset or load_preset(DEFAULT_PRESET)
        if self.bleed is not None and self.bleed != preset.bleed_mm:
            preset = preset.model_copy(update={"bleed_mm": self.bleed})
        return preset

    def box_options(self, deck: Deck) -> BoxOptions:
        """The tuck box's options: a sheets preset's paper (``--preset home-letter``) is the
        paper the home box is printed on."""
        chosen = self.chosen_preset(deck)
        if chosen is not None and chosen.pages == "sheets" and chosen.paper:
            return replace(self.box, paper=chosen.paper)
        return self.box

    def shop_file(self, deck: Deck) -> str:
        chosen = self.chosen_preset(deck)
        if chosen is not None and chosen.pages == "cards":
            return f"kraftstokk-{chosen.name}{self.suffix}.pdf"
        return PRINTSHOP_FILE.replace(".pdf", f"{self.suffix}.pdf")

    def outputs(self, deck: Deck) -> tuple[Output, ...]:
        if self.only is not None:
            return self.only
        chosen = self.chosen_preset(deck)
        if chosen is None:
            return DEFAULT_OUTPUTS
        return ("sheets", "png") if chosen.pages == "sheets" else ("printshop", "png")

    def card_layout(self, deck: Deck) -> CardLayout:
        """The layout these options choose for ``deck``."""
        chosen = self.chosen_preset(deck)
        preset_layout = chosen.layout if chosen is not None else None
        return load_layout(self.layout or preset_layout or layout_name_of(deck.style()))

    def check(self) -> None:
        """Raise RenderError for an option no output can honour."""
        if self.paper not in PAPERS:
            raise RenderError(f"--paper {self.paper}: choose one of {', '.join(PAPERS)}")
        if self.duplex not in DUPLEX_MODES:
            raise RenderError(f"--duplex {self.duplex}: choose long or short")
        if self.printshop_order is not None and self.printshop_order not in PRINTSHOP_ORDERS:
            raise RenderError(
                f"--printshop-order {self.printshop_order}: choose {', '.join(PRINTSHOP_ORDERS)}"
            )
        if self.bleed is not None and not 0 <= self.bleed <= MAX_BLEED:
            raise RenderError(f"--bleed {self.bleed:g}: must be between 0 and {MAX_BLEED:g} mm")
        if self.only is not None:
            unknown = [o for o in self.only if o not in OUTPUTS]
            if unknown or not self.only:
                raise RenderError(f"--only: choose from {', '.join(OUTPUTS)}")
        if self.reprint is not None and self.only is not None and "box" in self.only:
            raise RenderError(BOX_IS_NO_CARD)
        if self.reprint is not None and self.only is not None and "tabletop" in self.only:
            raise RenderError(TABLETOP_IS_WHOLE)
        self.box.check()


def check_upload_size(preset: Preset, layout: CardLayout) -> None:
    """A print-on-demand preset's uploads come out at the pixel size it claims, or not at
    all: its bleed and the card's size must give that size at its resolution."""
    if preset.upload_px is None:
        return
    made = upload_size(layout, preset.bleed_mm, preset.png_dpi)
    claimed = (preset.upload_px[0], preset.upload_px[1])
    if made != claimed:
        raise RenderError(
            f"preset {preset.name}: its uploads must be {claimed[0]} × {claimed[1]} px "
            f"({preset.upload_source or 'upload_px'}); a {layout.width:g} × {layout.height:g} mm "
            f"card with {preset.bleed_mm:g} mm bleed at {preset.png_dpi} dpi is "
            f"{made[0]} × {made[1]} px"
        )


@dataclass
class RenderResult:
    files: list[Path] = field(default_factory=list)
    #: Print files in the folder rendered from another build, left as they were.
    stale: list[Path] = field(default_factory=list)
    stale_build: str = ""

    @property
    def png_count(self) -> int:
        return sum(1 for f in self.files if f.suffix == ".png")


def render_deck(
    deck: Deck,
    out_dir: Path,
    options: RenderOptions | None = None,
    progress: ProgressFactory | None = None,
) -> RenderResult:
    """Write the chosen outputs under ``out_dir`` (each file atomically); ``progress``
    hears of each part (sheets, print-shop pages, PNGs, box files) as it is made."""
    options = options or RenderOptions()
    options.check()
    layout = options.card_layout(deck)
    outputs = options.outputs(deck)
    used = [options.sheets_preset(deck)] if "sheets" in outputs else []
    used += [options.shop_preset(deck)] if "printshop" in outputs else []
    problems = [problem for preset in used for problem in layout_problems(layout, preset)]
    if problems:
        raise RenderError("; ".join(problems))
    shop_files = "printshop" in outputs or "box" in outputs
    if shop_files and options.shop_preset(deck).output_profile:
        read_output_profile(options.shop_preset(deck))  # a wrong profile: refused before drawing
    result = RenderResult()
    # Every PDF is made before any is written, and they are written together after the
    # previews (with a reprint's report): a render that fails or is stopped leaves the
    # previous set as it was.
    pdfs: dict[Path, bytes] = {}
    only = options.only_cards
    if "sheets" in outputs:
        preset = options.sheets_preset(deck)
        paper = preset.paper or options.paper
        bleed = options.bleed if options.bleed is not None else preset.bleed_mm
        path = out_dir / sheets_file(paper, options.suffix)
        pdfs[path] = sheets_pdf(
            deck, layout, paper, options.duplex, bleed, only, step(progress, path.name, "sheets")
        )
    shop = options.shop_preset(deck)
    if "printshop" in outputs:
        path = out_dir / options.shop_file(deck)
        pdfs[path] = printshop_pdf(
            deck, layout, shop, options.printshop_order, only, step(progress, path.name, "pages")
        )
    boxes: dict[Path, bytes] = {}
    if "box" in outputs:
        box_file, die_file = shop_box_files(shop.name)
        count = Counter(3, step(progress, "tuck box", "files"))
        box_options = options.box_options(deck)
        boxes[out_dir / BOX_FILE] = tuck_box_pdf(deck, layout, box_options)
        count.one()
        boxes[out_dir / box_file] = shop_box_pdf(deck, layout, shop, box_options)
        count.one()
        boxes[out_dir / die_file] = dieline_pdf(deck, layout, shop, box_options)
        count.one()
    result.files.extend(pdfs)
    if "png" in outputs:
        # The folder is replaced whole, so a run stopped halfway leaves the old previews.
        target = out_dir / f"{PNG_DIR}{options.suffix}"
        upload = (shop.bleed_mm, shop.png_dpi)
        check_upload_size(shop, layout)
        back = options.reprint is None or options.reprint.back
        with replaced_directory(target, carry_over=lambda name: not is_preview_file(name)) as new:
            written = write_previews(
                deck,
                new,
                layout=layout,
                upload=upload,
                only=only,
                back=back,
                progress=step(progress, f"{target.name}/", "PNGs"),
            )
        result.files.extend(target / path.name for path in written)
    if "tabletop" in outputs:
        from kraftstokk.render.tabletop import write_tabletop

        tabletop = step(progress, "tabletop/", "images")
        result.files.extend(write_tabletop(deck, out_dir, layout, options.tabletop_url, tabletop))
    record = None if options.reprint is not None else _record(deck, out_dir, options, layout, pdfs)
    if record is not None:
        made = {path.name for path in pdfs} | ({PNG_DIR} if "png" in outputs else set())
        before, stale = stale_outputs(out_dir, deck, made)
        result.stale, result.stale_build = [out_dir / name for name in stale], before.build or ""
    pdfs.update(boxes)
    result.files.extend(boxes)
    if options.reprint is not None and options.reprint.report:
        pdfs[out_dir / REPRINT_REPORT] = options.reprint.report.encode("utf-8")
        result.files.append(out_dir / REPRINT_REPORT)
    if record is not None:
        pdfs[out_dir / RECORD_NAME] = record
    write_files(pdfs)
    if options.reprint is not None:
        remove_stale_reprint(out_dir, keep=set(result.files))
    return result


def _record(
    deck: Deck, out_dir: Path, options: RenderOptions, layout: CardLayout, pdfs: dict[Path, bytes]
) -> bytes | None:
    """The render record after this render (:mod:`kraftstokk.deck.render_record`); None
    when it made no card (a tuck box alone)."""
    shop = options.shop_preset(deck)
    entries: dict[str, RenderedOutput] = {}
    for path, data in pdfs.items():
        if path.name == options.shop_file(deck):
            entries[path.name] = output_entry(layout, shop.name, shop.bleed_mm, data)
        else:
            sheets = options.sheets_preset(deck)
            bleed = options.bleed if options.bleed is not None else sheets.bleed_mm
            entries[path.name] = output_entry(layout, sheets.name, bleed, data)
    png = out_dir / PNG_DIR
    if "png" in options.outputs(deck) and png.is_dir():
        entry = output_entry(layout, shop.name, shop.bleed_mm)
        entries[PNG_DIR] = entry.model_copy(update={"sha256": digest_of(png)})
    return merged(out_dir, deck, entries) if entries else None


def reprint_files(out_dir: Path) -> list[Path]:
    """The files and folders of a reprint in ``out_dir`` (``render --only-changed``)."""
    try:
        entries = sorted(out_dir.iterdir())
    except OSError:
        return []
    return [
        entry
        for entry in entries
        if entry.name == REPRINT_REPORT
        or (entry.name.startswith("kraftstokk-") and entry.name.endswith(f"{REPRINT_SUFFIX}.pdf"))
        or (entry.name == f"{PNG_DIR}{REPRINT_SUFFIX}" and entry.is_dir())
    ]


def remove_stale_reprint(out_dir: Path, keep: set[Path]) -> list[Path]:
    """Remove the reprint files of an earlier run that this one did not write (a print
    file beside a verdict it does not follow would go to the print shop); the removed."""
    written = {path if path.parent == out_dir else path.parent for path in keep}
    removed = [entry for entry in reprint_files(out_dir) if entry not in written]
    for entry in removed:
        if entry.is_dir():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
    return removed
