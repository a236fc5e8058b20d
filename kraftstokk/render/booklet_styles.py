"""The rules booklet's paragraph styles, read from ``booklet_styles.toml`` (data a
designer changes, like the card layouts): each style a table of what differs from the
style it ``extends``, its colours named from the deck's palette."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from importlib import resources
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle

from kraftstokk.design.fonts import SANS, SANS_BOLD
from kraftstokk.design.palette import Palette
from kraftstokk.errors import LayoutError
from kraftstokk.plain import first_problem
from kraftstokk.textfile import toml_table

STYLES_FILE = "booklet_styles.toml"
#: White text on the accent's inks stays register-safe from this size (the print spec).
KNOCKOUT_MIN_SIZE = 8.0
FONTS = {"sans": SANS, "sans_bold": SANS_BOLD}
ALIGNMENTS = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT}
#: The keys of a style's table taken as they are, by reportlab's names for them.
REPORTLAB_NAMES = {
    "size": "fontSize",
    "leading": "leading",
    "space_before": "spaceBefore",
    "space_after": "spaceAfter",
    "left_indent": "leftIndent",
}
Points = Annotated[float, Field(ge=0, le=72)]


class StyleEntry(BaseModel):
    """One table of the styles file."""

    model_config = ConfigDict(extra="forbid")

    extends: str | None = None
    font: Literal["sans", "sans_bold"] | None = None
    size: Annotated[float, Field(ge=4, le=72)] | None = None
    leading: Annotated[float, Field(ge=4, le=90)] | None = None
    colour: str | None = None
    align: Literal["left", "center", "right"] | None = None
    space_before: Points | None = None
    space_after: Points | None = None
    left_indent: Points | None = None


@dataclass(frozen=True)
class Styles:
    """The booklet's paragraph styles, one field per table of the styles file."""

    body: ParagraphStyle
    bullet: ParagraphStyle
    h1: ParagraphStyle
    h2: ParagraphStyle
    example_title: ParagraphStyle
    caption: ParagraphStyle
    cell: ParagraphStyle
    cell_right: ParagraphStyle
    cell_nr: ParagraphStyle
    cell_head: ParagraphStyle
    grid_cell: ParagraphStyle
    grid_figure: ParagraphStyle
    grid_head: ParagraphStyle
    grid_head_figure: ParagraphStyle
    title: ParagraphStyle
    subtitle: ParagraphStyle
    title_line: ParagraphStyle
    contents_title: ParagraphStyle
    toc1: ParagraphStyle
    toc2: ParagraphStyle
    quick_title: ParagraphStyle
    quick_heading: ParagraphStyle
    quick_body: ParagraphStyle


NAMES = tuple(field.name for field in dataclasses.fields(Styles))


def read_entries(data: bytes, source: str = STYLES_FILE) -> dict[str, StyleEntry]:
    """The styles file's tables, checked: every style the booklet uses and no other, each
    ``extends`` a style of the file without a loop, the table head large enough."""
    raw = toml_table(data, "booklet styles", lambda why: LayoutError(f"{source}: {why}"))
    missing = [name for name in NAMES if name not in raw]
    unknown = [name for name in raw if name not in NAMES]
    if missing or unknown:
        said = [f"missing {', '.join(missing)}"] if missing else []
        said += [f"unknown {', '.join(unknown)} (a misspelt name?)"] if unknown else []
        raise LayoutError(f"{source}: {'; '.join(said)}")
    entries: dict[str, StyleEntry] = {}
    for name, table in raw.items():
        if not isinstance(table, dict):
            raise LayoutError(f"{source}: [{name}] must be a table")
        try:
            entries[name] = StyleEntry.model_validate(table)
        except ValidationError as exc:
            raise LayoutError(f"{source}: [{name}] {first_problem(exc)}") from None
    for name in entries:
        chain = [name]
        while (parent := entries[chain[-1]].extends) is not None:
            if parent not in entries:
                raise LayoutError(f"{source}: [{chain[-1]}] extends {parent!r}, not a style")
            if parent in chain:
                raise LayoutError(f"{source}: extends forms a loop ({' -> '.join(chain)})")
            chain.append(parent)
    head = _resolved(entries, "cell_head", "size")
    if head is None or head < KNOCKOUT_MIN_SIZE:
        raise LayoutError(
            f"{source}: [cell_head] size {head} pt: white on the accent needs at least "
            f"{KNOCKOUT_MIN_SIZE:g} pt to stay register-safe"
        )
    return entries


def _resolved(entries: dict[str, StyleEntry], name: str, key: str) -> Any:
    """A key's value for a style, from the style or the nearest it extends."""
    entry: StyleEntry | None = entries[name]
    while entry is not None:
        value = getattr(entry, key)
        if value is not None:
            return value
        entry = entries[entry.extends] if entry.extends else None
    return None


def _paragraph_style(
    name: str, entry: StyleEntry, parent: ParagraphStyle | None, palette: Palette, source: str
) -> ParagraphStyle:
    given: dict[str, Any] = {
        REPORTLAB_NAMES[key]: value
        for key, value in entry.model_dump(include=set(REPORTLAB_NAMES), exclude_none=True).items()
    }
    if entry.font is not None:
        given["fontName"] = FONTS[entry.font]
    if entry.align is not None:
        given["alignment"] = ALIGNMENTS[entry.align]
    if entry.colour is not None:
        if entry.colour not in {field.name for field in dataclasses.fields(Palette)}:
            raise LayoutError(f"{source}: [{name}] colour {entry.colour!r} is not in the palette")
        given["textColor"] = getattr(palette, entry.colour)
    return ParagraphStyle(name, parent=parent, **given)


def build_styles(
    entries: dict[str, StyleEntry], palette: Palette, source: str = STYLES_FILE
) -> Styles:
    """The styles in the palette's colours (each made after the one it extends)."""
    made: dict[str, ParagraphStyle] = {}

    def make(name: str) -> ParagraphStyle:
        if name not in made:
            parent = entries[name].extends
            made[name] = _paragraph_style(
                name, entries[name], make(parent) if parent else None, palette, source
            )
        return made[name]

    return Styles(**{name: make(name) for name in NAMES})


def load_styles(palette: Palette) -> Styles:
    """The shipped styles file's styles in ``palette``'s colours."""
    data = resources.files("kraftstokk.render").joinpath(STYLES_FILE).read_bytes()
    return build_styles(read_entries(data), palette)
