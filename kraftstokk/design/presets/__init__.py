"""Printer presets: what a printer (or a home printer) needs from a file, as data.

Each preset is one TOML file beside this module, validated by :class:`Preset`. ``render
--preset NAME`` makes files for it and ``preflight --preset NAME`` checks a PDF against
it. Adding a printer is adding a file; nothing in the drawing code names a printer.
"""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kraftstokk.errors import KraftstokkError


class PresetError(KraftstokkError):
    """A preset is unknown, or its file does not describe a preset."""


class Preset(BaseModel):
    """One printer's requirements; lengths in millimetres, ink in percent."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(description="The preset's name: its file name without .toml.")
    title: str = Field(description="One line saying what the preset is for.")
    made_for: str = Field(description="Who or what the preset was made for.")
    source: str = Field(default="", description="Where its figures come from.")
    layout: str | None = Field(
        default=None,
        description="The card layout (size) it prints; none: the deck's own layout.",
    )
    pages: Literal["sheets", "cards"] = Field(
        description="sheets: several cards per paper page; cards: one card per page."
    )
    paper: Literal["a4", "letter"] | None = Field(
        default=None, description="Paper size, for sheets."
    )
    bleed_mm: float = Field(ge=0, le=10, description="Bleed around every cut edge.")
    safe_mm: float = Field(ge=0, le=10, description="Safe margin inside the cut.")
    crop_marks: bool = Field(description="Whether crop marks are drawn.")
    mark_inset_mm: float = Field(
        default=0, ge=0, le=20, description="Crop marks end at least this far inside the paper."
    )
    page_order: Literal["alternate", "backs-first", "backs-last"] = Field(
        description="alternate: front, back, front, back; backs-first: each card's back "
        "then its front; backs-last: all fronts, then all backs."
    )
    colour: Literal["rgb", "cmyk"] = Field(description="Colour model of the file.")
    ink_limit_pct: float | None = Field(
        default=None, gt=0, le=400, description="Maximum total ink (C+M+Y+K)."
    )
    pdf_standard: Literal["none", "PDF/X-1a:2003", "PDF/X-4"] = "none"
    output_condition_identifier: str | None = Field(
        default=None, description="Registered characterization of the printing condition."
    )
    output_condition: str | None = Field(
        default=None, description="The printing condition in words."
    )
    registry_name: str = "http://www.color.org"
    min_text_pt: float = Field(ge=0, description="Smallest text size allowed.")
    min_reversed_text_pt: float = Field(
        ge=0, description="Smallest text size allowed for light text on a dark ground."
    )
    min_line_pt: float = Field(default=0.25, ge=0, description="Thinnest line allowed.")
    min_image_dpi: float = Field(default=300, ge=0, description="Lowest image resolution.")
    png_dpi: int = Field(default=300, ge=72, le=1200, description="Resolution of PNG exports.")

    @property
    def is_pdfx(self) -> bool:
        return self.pdf_standard != "none"

    def line(self) -> str:
        """One line for ``render --list-presets``."""
        return f"{self.name:<16} {self.title}"


def _preset_files() -> dict[str, str]:
    folder = resources.files(__package__)
    return {
        entry.name.removesuffix(".toml"): entry.read_text(encoding="utf-8")
        for entry in folder.iterdir()
        if entry.name.endswith(".toml")
    }


def preset_names() -> list[str]:
    return sorted(_preset_files())


@functools.cache
def load_preset(name: str) -> Preset:
    """The preset called ``name``; an unknown name is an error listing the known ones."""
    files = _preset_files()
    if name not in files:
        known = ", ".join(sorted(files))
        raise PresetError(f"unknown preset {name!r}; the presets are: {known}")
    try:
        data = tomllib.loads(files[name])
        return Preset.model_validate({"name": name, **data})
    except (tomllib.TOMLDecodeError, ValidationError) as exc:
        raise PresetError(f"preset {name}.toml is not valid: {exc}") from None


def all_presets() -> list[Preset]:
    return [load_preset(name) for name in preset_names()]
