"""Every print output of a deck: sheets PDF, print-shop PDF, PNG previews and the tuck box."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from kraftstokk.atomic import replaced_directory, write_files
from kraftstokk.errors import RenderError
from kraftstokk.models import Deck
from kraftstokk.render.box import BoxOptions, tuck_box_pdf
from kraftstokk.render.geometry import DUPLEX_MODES, PAPERS, Duplex
from kraftstokk.render.layout import CardLayout, layout_name_of, load_layout
from kraftstokk.render.preview import is_preview_file, write_previews
from kraftstokk.render.printshop import PRINTSHOP_ORDERS, PrintshopOrder, printshop_pdf
from kraftstokk.render.sheets import sheets_pdf

Output = Literal["sheets", "printshop", "png", "box"]
OUTPUTS: tuple[Output, ...] = ("sheets", "printshop", "png", "box")
DEFAULT_OUTPUTS: tuple[Output, ...] = ("sheets", "printshop", "png")
PRINTSHOP_FILE = "kraftstokk-printshop.pdf"
BOX_FILE = "kraftstokk-box.pdf"
PNG_DIR = "png"
MAX_BLEED = 10.0  # mm


def sheets_file(paper: str) -> str:
    """``kraftstokk-a4.pdf`` or ``kraftstokk-letter.pdf``."""
    return f"kraftstokk-{paper}.pdf"


@dataclass(frozen=True)
class RenderOptions:
    paper: str = "a4"
    duplex: Duplex = "long"
    bleed: float = 3.0
    printshop_order: PrintshopOrder = "alternate"
    only: tuple[Output, ...] = DEFAULT_OUTPUTS
    layout: str | None = None  # None: the deck's [style] layout, else poker
    box: BoxOptions = field(default_factory=BoxOptions)

    def card_layout(self, deck: Deck) -> CardLayout:
        """The layout these options choose for ``deck``."""
        return load_layout(self.layout or layout_name_of(deck.style()))

    def check(self) -> None:
        """Raise RenderError for an option no output can honour."""
        if self.paper not in PAPERS:
            raise RenderError(f"--paper {self.paper}: choose one of {', '.join(PAPERS)}")
        if self.duplex not in DUPLEX_MODES:
            raise RenderError(f"--duplex {self.duplex}: choose long or short")
        if self.printshop_order not in PRINTSHOP_ORDERS:
            raise RenderError(
                f"--printshop-order {self.printshop_order}: choose {' or '.join(PRINTSHOP_ORDERS)}"
            )
        if not 0 <= self.bleed <= MAX_BLEED:
            raise RenderError(f"--bleed {self.bleed:g}: must be between 0 and {MAX_BLEED:g} mm")
        unknown = [o for o in self.only if o not in OUTPUTS]
        if unknown or not self.only:
            raise RenderError(f"--only: choose from {', '.join(OUTPUTS)}")
        self.box.check()


@dataclass
class RenderResult:
    files: list[Path] = field(default_factory=list)

    @property
    def png_count(self) -> int:
        return sum(1 for f in self.files if f.suffix == ".png")


def render_deck(deck: Deck, out_dir: Path, options: RenderOptions | None = None) -> RenderResult:
    """Write the chosen outputs under ``out_dir`` (each file atomically)."""
    options = options or RenderOptions()
    options.check()
    layout = options.card_layout(deck)
    result = RenderResult()
    # Every PDF is made before any is written, and they are written together after the
    # previews: a render that fails or is stopped leaves the previous set as it was.
    pdfs: dict[Path, bytes] = {}
    if "sheets" in options.only:
        path = out_dir / sheets_file(options.paper)
        pdfs[path] = sheets_pdf(deck, layout, options.paper, options.duplex, options.bleed)
    if "printshop" in options.only:
        path = out_dir / PRINTSHOP_FILE
        pdfs[path] = printshop_pdf(deck, layout, options.bleed, options.printshop_order)
    if "box" in options.only:
        pdfs[out_dir / BOX_FILE] = tuck_box_pdf(deck, layout, options.box)
    result.files.extend(path for path in pdfs if path.name != BOX_FILE)
    if "png" in options.only:
        # The folder is replaced whole, so a run stopped halfway leaves the old previews.
        target = out_dir / PNG_DIR
        with replaced_directory(target, carry_over=lambda name: not is_preview_file(name)) as new:
            written = write_previews(deck, new, layout=layout)
        result.files.extend(target / path.name for path in written)
    if "box" in options.only:
        result.files.append(out_dir / BOX_FILE)
    write_files(pdfs)
    return result
