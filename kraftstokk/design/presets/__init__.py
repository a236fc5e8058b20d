"""Printer presets: what a printer (or a home printer) needs from a file, as data.

Each preset is one TOML file beside this module, validated by :class:`Preset`. ``render
--preset NAME`` makes files for it and ``preflight --preset NAME`` checks a PDF against
it. Adding a printer is adding a file; nothing in the drawing code names a printer.
"""

from __future__ import annotations

import functools
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kraftstokk.bounds import Range
from kraftstokk.design.layout import layout_name_of
from kraftstokk.errors import KraftstokkError, clip, listed
from kraftstokk.models import Deck
from kraftstokk.plain import reason, where
from kraftstokk.textfile import load_each, read_data_file, toml_names, toml_table

#: A preset file is a few kB.
MAX_PRESET_BYTES = 64 * 1024
#: Physical ranges of a preset's measures (kraftstokk.bounds).
Millimetres = Annotated[float, Range(0, 20, "mm")]
TextSize = Annotated[float, Range(0, 72, "pt")]


class PresetError(KraftstokkError):
    """A preset is unknown, or its file does not describe a preset."""


class Preset(BaseModel):
    """One printer's requirements; lengths in millimetres, ink in percent."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)  # a "3" is no number

    name: str = Field(description="The preset's name: its file name without .toml.")
    title: str = Field(
        min_length=1, max_length=120, description="One line saying what the preset is for."
    )
    made_for: str = Field(max_length=300, description="Who or what the preset was made for.")
    source: str = Field(default="", max_length=500, description="Where its figures come from.")
    layout: str | None = Field(
        default=None,
        max_length=40,
        description="The card layout (size) it prints; none: the deck's own layout.",
    )
    pages: Literal["sheets", "cards"] = Field(
        description="sheets: several cards per paper page; cards: one card per page."
    )
    paper: Literal["a4", "letter"] | None = Field(
        default=None, description="Paper size, for sheets."
    )
    bleed_mm: Annotated[float, Range(0, 10, "mm")] = Field(
        description="Bleed around every cut edge."
    )
    safe_mm: Annotated[float, Range(0, 10, "mm")] = Field(description="Safe margin inside the cut.")
    crop_marks: bool = Field(description="Whether crop marks are drawn.")
    mark_inset_mm: Millimetres = Field(
        default=0, description="Crop marks end at least this far inside the paper."
    )
    page_order: Literal["alternate", "backs-first", "backs-last"] = Field(
        description="alternate: front, back, front, back; backs-first: each card's back "
        "then its front; backs-last: all fronts, then all backs."
    )
    colour: Literal["rgb", "cmyk"] = Field(description="Colour model of the file.")
    ink_limit_pct: Annotated[float, Range(100, 400, "%")] | None = Field(
        default=None, description="Maximum total ink (C+M+Y+K)."
    )
    pdf_standard: Literal["none", "PDF/X-1a:2003", "PDF/X-4"] = "none"
    output_condition_identifier: str | None = Field(
        default=None,
        max_length=100,
        description="Registered characterization of the printing condition.",
    )
    output_condition: str | None = Field(
        default=None, max_length=200, description="The printing condition in words."
    )
    registry_name: str = Field("http://www.color.org", max_length=200)
    output_profile: str | None = Field(
        default=None,
        max_length=100,
        pattern=r"^[A-Za-z0-9][A-Za-z0-9._ -]*\.(icc|icm|ICC|ICM)$",
        description="The CMYK output profile a PDF/X-4 file embeds: a file name, found in "
        "KRAFTSTOKK_PROFILES or the system's colour folders (see render/profiles.py).",
    )
    output_profile_descriptions: list[Annotated[str, Field(min_length=1, max_length=120)]] = Field(
        default_factory=list,
        max_length=20,
        description="The descriptions (an ICC profile's own 'desc' tag) of the profiles "
        "that characterize the output condition: output_profile must carry one of them "
        "(or name the condition's identifier), so a profile for another press is refused.",
    )
    min_text_pt: TextSize = Field(description="Smallest text size allowed.")
    min_reversed_text_pt: TextSize = Field(
        description="Smallest text size allowed for light text on a dark ground."
    )
    min_line_pt: Annotated[float, Range(0, 10, "pt")] = Field(
        default=0.25, description="Thinnest line allowed."
    )
    min_image_dpi: Annotated[float, Range(0, 2400, "dpi")] = Field(
        default=300, description="Lowest image resolution."
    )
    png_dpi: int = Field(default=300, ge=72, le=1200, description="Resolution of PNG exports.")
    upload_px: list[Annotated[int, Range(100, 20_000, "px")]] | None = Field(
        default=None,
        min_length=2,
        max_length=2,
        description="Print on demand: the pixel size (width, height) the shop asks of each "
        "face's image, bleed included, at png_dpi; render writes the NN-<card>-bleed.png "
        "uploads at exactly this size (the bleed must agree, see upload_size).",
    )
    upload_source: str = Field(
        default="", max_length=500, description="Where the shop states upload_px."
    )

    @property
    def is_pdfx(self) -> bool:
        return self.pdf_standard != "none"

    def line(self) -> str:
        """One line for ``render --list-presets``."""
        return f"{self.name:<16} {self.title}"


Folder = Traversable | Path


def _folder(folder: Folder | None) -> Folder:
    return resources.files(__package__) if folder is None else folder


def preset_names(folder: Folder | None = None) -> list[str]:
    """The presets that exist: the TOML files beside this module (or in ``folder``)."""
    return toml_names(_folder(folder))


def _file(name: str, folder: Folder | None) -> str:
    if folder is None:
        return f"kraftstokk/design/presets/{name}.toml"
    return str(Path(str(folder)) / f"{name}.toml")


@functools.cache
def load_preset(name: str, folder: Path | None = None) -> Preset:
    """The preset called ``name``; an unknown name is an error listing the known ones, a
    bad file one line naming the file, the key and the reason."""
    names = preset_names(folder)
    if name not in names:
        known = ", ".join(names)
        raise PresetError(f"unknown preset {clip(name, 40)!r}; the presets are: {known}")
    file = _file(name, folder)

    def refuse(reason: str) -> PresetError:
        return PresetError(f"{file}: {reason}")

    entry = _folder(folder).joinpath(f"{name}.toml")
    data = toml_table(
        read_data_file(entry, "preset file", MAX_PRESET_BYTES, refuse), "preset", refuse
    )
    if "name" in data:
        raise refuse("name: unknown key (a preset's name is its file name)")
    try:
        return Preset.model_validate({"name": name, **data})
    except ValidationError as exc:
        problems = [f"{clip(where(error), 60)}: {reason(error)}" for error in exc.errors()]
        raise refuse(listed(problems, "; ")) from None


def preset_listing(folder: Path | None = None) -> tuple[list[Preset], list[str]]:
    """Every preset that loads, and for each file that does not, the line saying why."""
    return load_each(preset_names(folder), lambda name: load_preset(name, folder))


def preset_of_deck(deck: Deck) -> str | None:
    """The ``[print] preset`` the deck's spec names, if any."""
    table = deck.spec.get("print") if isinstance(deck.spec, dict) else None
    name = table.get("preset") if isinstance(table, dict) else None
    return name if isinstance(name, str) and name else None


def deck_layout_name(deck: Deck) -> str:
    """The layout the deck is rendered in: its ``[print]`` preset's, else its ``[style]
    layout``, else the default (``render --layout`` aside). An unknown preset raises
    :class:`PresetError`."""
    chosen = preset_of_deck(deck)
    preset_layout = load_preset(chosen).layout if chosen else None
    return preset_layout or layout_name_of(deck.style())


def all_presets() -> list[Preset]:
    return [load_preset(name) for name in preset_names()]
