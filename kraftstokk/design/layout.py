"""Card layouts as data: ``design/layouts/<name>.toml`` loaded into a typed :class:`CardLayout`.

A layout is the card's size, bleed and safe area, its named boxes, the text styles and the
measures of the parts drawn inside the boxes. A variant names another layout in
``extends`` and gives only what differs (the idea of Squib's YAML layouts). Every drawing
module and the validator's name-fit check take a layout; the card's sizes, boxes, type and
offsets come from it, and the picture is drawn in proportion to its box.
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from kraftstokk.bounds import Range, range_of
from kraftstokk.design.colour_names import COLOUR_NAMES
from kraftstokk.design.fonts import SANS, SANS_BOLD
from kraftstokk.design.geometry import Box
from kraftstokk.errors import LayoutError, clip, listed
from kraftstokk.plain import reason, where
from kraftstokk.textfile import load_each, read_data_file, toml_names, toml_table

DEFAULT_LAYOUT = "poker"
LAYOUT_PACKAGE = "kraftstokk.design.layouts"
#: A variant of a variant of ...: a longer chain of ``extends`` is refused.
MAX_EXTENDS = 8
#: A layout file is a few kB.
MAX_LAYOUT_BYTES = 256 * 1024
SIZE_TOLERANCE = 1e-6

Align = Literal["left", "centre", "right"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)  # a "3" is no number


# Physical ranges (kraftstokk.bounds): a card is 25-300 mm a side, and what is drawn on
# it is measured within the largest card; a measure on the card that must not vanish is
# at least 0.1 mm. Fonts are 1-72 pt, lines 0.05-10 pt.
CardSide = Annotated[float, Range(25, 300, "mm")]
Offset = Annotated[float, Range(0, 300, "mm")]  # a gap, an inset, a radius: may be 0
Length = Annotated[float, Range(0.1, 300, "mm")]  # a size that must not vanish
FontSize = Annotated[float, Range(1, 72, "pt")]
LineWidth = Annotated[float, Range(0.05, 10, "pt")]


class CardSize(_Strict):
    width: CardSide
    height: CardSide
    bleed: Annotated[float, Range(0, 10, "mm")]
    safe: Annotated[float, Range(0, 20, "mm")]
    corner_radius: Annotated[float, Range(0, 10, "mm")]
    #: One card's thickness (caliper): how deep the tuck box is made.
    thickness: Annotated[float, Range(0.1, 1.0, "mm")] = 0.32


class BoxSpec(_Strict):
    """A box by two of left/right/width and two of bottom/top/height (mm, inward)."""

    within: str | None = Field(None, max_length=40)
    left: Offset | None = None
    right: Offset | None = None
    width: Length | None = None
    bottom: Offset | None = None
    top: Offset | None = None
    height: Length | None = None

    @model_validator(mode="after")
    def _two_per_axis(self) -> BoxSpec:
        for axis in (("left", "right", "width"), ("bottom", "top", "height")):
            given = [name for name in axis if getattr(self, name) is not None]
            if len(given) != 2:
                raise ValueError(f"give exactly two of {', '.join(axis)} (found {len(given)})")
        return self

    def resolve(self, parent: Box) -> Box:
        x0, w = _span(parent.x, parent.right, self.left, self.right, self.width)
        y0, h = _span(parent.y, parent.top, self.bottom, self.top, self.height)
        return Box(x0, y0, w, h)


def _span(
    low: float, high: float, start: float | None, end: float | None, size: float | None
) -> tuple[float, float]:
    """Origin and size along one axis; the far edge is computed from its own side first."""
    if start is not None and end is not None:
        origin = low + start
        return origin, high - origin - end
    if start is not None and size is not None:
        return low + start, size
    assert end is not None and size is not None
    return high - end - size, size


class Boxes(_Strict):
    index: BoxSpec
    name: BoxSpec
    name_text: BoxSpec
    picture: BoxSpec
    rows: BoxSpec
    footer: BoxSpec


class TextStyle(_Strict):
    font: Literal["sans"] = "sans"  # the embedded Bitstream Vera family (design/fonts.py)
    weight: Literal["regular", "bold"] = "regular"
    size: FontSize
    colour: str = Field(min_length=1, max_length=40)
    align: Align = "left"
    leading: Annotated[float, Range(0.5, 3, "× size")] = 1.2  # line height / size

    @field_validator("colour")
    @classmethod
    def _known_colour(cls, value: str) -> str:
        if value not in COLOUR_NAMES:
            raise ValueError(
                f"{value!r} is not a colour name; choose from {', '.join(COLOUR_NAMES)}"
            )
        return value

    @property
    def face(self) -> str:
        """The registered font name."""
        return SANS_BOLD if self.weight == "bold" else SANS


class Styles(_Strict):
    index_value: TextStyle
    index_joker: TextStyle
    name: TextStyle
    row_label: TextStyle
    figure: TextStyle
    nr: TextStyle
    tag: TextStyle
    joker_game: TextStyle
    joker_rule: TextStyle
    small_print: TextStyle
    special: TextStyle
    back_title: TextStyle
    back_edition: TextStyle


class IndexMeasures(_Strict):
    pip_size: Length
    pip_gap: Offset


class NameFitMeasures(_Strict):
    one_line_min: FontSize
    two_line_max: FontSize
    two_line_min: FontSize
    step: Annotated[float, Range(0.1, 4, "pt")]  # (a smaller step is thousands of tries)


class PictureMeasures(_Strict):
    disc_radius: Length


class RowMeasures(_Strict):
    label_baseline: Length
    bar_centre: Length
    bar_height: Length
    pill_width: Length
    pill_height: Length
    pill_icon: Length
    pill_icon_inset: Offset
    pill_drop: Offset
    figure_gap: Offset
    label_gap: Offset
    tag_gap: Offset
    rule_width: LineWidth


class JokerMeasures(_Strict):
    rules_top: Length
    game_gap: Annotated[float, Range(0, 5, "em")]


class FooterMeasures(_Strict):
    lift: Offset
    special_indent: Length
    special_lift: Offset
    bolt_size: Length
    bolt_centre: Offset
    bolt_lift: Offset


class BackMeasures(_Strict):
    frame_inset: Length
    frame_radius: Offset
    frame_width: LineWidth
    inner_frame_inset: Length
    inner_frame_radius: Offset
    inner_frame_width: LineWidth
    emblem_radius: Length
    emblem_inner_radius: Length
    bolt_size: Length
    lattice_step: Annotated[float, Range(1, 300, "mm")]  # (each step is four lines)
    title_margin: Offset
    title_min_size: FontSize
    plate_offset: Offset
    plate_height: Length
    plate_padding: Offset
    plate_radius: Offset
    title_baseline: Offset
    edition_baseline: Offset


class LayoutFile(_Strict):
    """One layout file after its ``extends`` chain is merged."""

    description: str = Field(min_length=1, max_length=200)
    card: CardSize
    boxes: Boxes
    styles: Styles
    index: IndexMeasures
    name_fit: NameFitMeasures
    picture: PictureMeasures
    rows: RowMeasures
    joker: JokerMeasures
    footer: FooterMeasures
    back: BackMeasures

    @model_validator(mode="after")
    def _sizes_in_order(self) -> LayoutFile:
        fit, name = self.name_fit, self.styles.name
        if not fit.two_line_min <= fit.two_line_max <= name.size:
            raise ValueError(
                "name_fit: need two_line_min <= two_line_max <= styles.name.size "
                f"({fit.two_line_min:g}, {fit.two_line_max:g}, {name.size:g})"
            )
        if not fit.one_line_min <= name.size:
            raise ValueError("name_fit: one_line_min must not exceed styles.name.size")
        if self.back.emblem_inner_radius >= self.back.emblem_radius:
            raise ValueError("back: emblem_inner_radius must be smaller than emblem_radius")
        self._measures_on_the_card()
        return self

    def _measures_on_the_card(self) -> None:
        """Every millimetre measure of the parts fits on this card (its longer side)."""
        side = max(self.card.width, self.card.height)
        for table in ("index", "picture", "rows", "joker", "footer", "back"):
            part = getattr(self, table)
            for key, field in type(part).model_fields.items():
                bounds = range_of(field)
                value = getattr(part, key)
                if bounds is not None and bounds.unit == "mm" and value > side:
                    raise ValueError(
                        f"{table}.{key}: {value:g} mm is more than the card's side ({side:g} mm)"
                    )


class CardBoxes(BaseModel):
    """The named boxes in card millimetres (origin at the cut line's lower-left corner)."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    index: Box
    index_rotated: Box
    name: Box
    name_text: Box
    picture: Box
    rows: Box
    footer: Box


class CardLayout(BaseModel):
    """A loaded, checked layout: what the drawing code and the validator are given."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    name: str
    spec: LayoutFile
    boxes: CardBoxes

    @property
    def description(self) -> str:
        return self.spec.description

    @property
    def width(self) -> float:
        return self.spec.card.width

    @property
    def thickness(self) -> float:
        return self.spec.card.thickness

    @property
    def height(self) -> float:
        return self.spec.card.height

    @property
    def bleed(self) -> float:
        return self.spec.card.bleed

    @property
    def styles(self) -> Styles:
        return self.spec.styles

    @cached_property
    def cut(self) -> Box:
        return Box(0.0, 0.0, self.width, self.height)

    @cached_property
    def bleed_box(self) -> Box:
        return self.cut.inset(-self.bleed)

    @cached_property
    def safe(self) -> Box:
        return self.cut.inset(self.spec.card.safe)

    @cached_property
    def tag(self) -> str:
        """A short stable fingerprint: forms drawn for one layout never serve another."""
        import hashlib

        return hashlib.sha1(self.spec.model_dump_json().encode()).hexdigest()[:6]


# --- Loading ---------------------------------------------------------------------------


Folder = Traversable | Path


def _folder(folder: Folder | None) -> Folder:
    return resources.files(LAYOUT_PACKAGE) if folder is None else folder


def layout_names(folder: Folder | None = None) -> list[str]:
    """The layouts that exist: the TOML files in ``design/layouts`` (or ``folder``)."""
    return toml_names(_folder(folder))


def _file(name: str, folder: Folder | None = None) -> str:
    if folder is None:
        return f"kraftstokk/design/layouts/{name}.toml"
    return str(Path(str(folder)) / f"{name}.toml")


def _read(name: str, folder: Folder | None) -> dict[str, Any]:
    names = layout_names(folder)
    if name not in names:
        raise LayoutError(
            f"layout {clip(name, 40)!r}: no such layout; choose from {', '.join(names)}"
        )
    file = _file(name, folder)

    def refuse(reason: str) -> LayoutError:
        return LayoutError(f"{file}: {reason}")

    entry = _folder(folder).joinpath(f"{name}.toml")
    return toml_table(
        read_data_file(entry, "layout file", MAX_LAYOUT_BYTES, refuse), "layout", refuse
    )


def _merge(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """``child`` over ``parent``: tables merge key by key, except that a box is replaced."""
    merged = dict(parent)
    for key, value in child.items():
        old = merged.get(key)
        if key == "boxes" and isinstance(old, dict) and isinstance(value, dict):
            merged[key] = {**old, **value}
        elif isinstance(old, dict) and isinstance(value, dict):
            merged[key] = _merge(old, value)
        else:
            merged[key] = value
    return merged


def _resolved_raw(name: str, folder: Folder | None) -> dict[str, Any]:
    chain = [name]
    raw = _read(name, folder)
    layers = [raw]
    while "extends" in raw:
        parent = raw["extends"]
        if not isinstance(parent, str):
            raise LayoutError(f"{_file(name, folder)}: extends must be a layout name")
        if parent in chain:
            loop = " -> ".join([*chain, parent])
            raise LayoutError(f"{_file(chain[0], folder)}: extends forms a loop ({loop})")
        if len(chain) > MAX_EXTENDS:
            shown = " -> ".join([*chain[:3], "…", *chain[-2:], parent, "…"])
            raise LayoutError(
                f"{_file(chain[0], folder)}: extends chains more than {MAX_EXTENDS} layouts "
                f"({shown}); at most {MAX_EXTENDS} may extend one another"
            )
        chain.append(parent)
        name, raw = parent, _read(parent, folder)
        layers.append(raw)
    merged: dict[str, Any] = {}
    for layer in reversed(layers):
        merged = _merge(merged, {k: v for k, v in layer.items() if k != "extends"})
    return merged


@lru_cache(maxsize=16)
def load_layout(name: str = DEFAULT_LAYOUT, folder: Path | None = None) -> CardLayout:
    """Load, merge and check layout ``name``; a LayoutError names the file and the reason.

    ``folder`` holds the layout files (default: the package's ``design/layouts``).
    """
    raw = _resolved_raw(name, folder)
    file = _file(name, folder)
    try:
        spec = LayoutFile.model_validate(raw)
    except ValidationError as exc:
        problems = [f"{clip(where(error), 60)}: {reason(error)}" for error in exc.errors()]
        raise LayoutError(f"{file}: {listed(problems, '; ')}") from None
    return CardLayout(name=name, spec=spec, boxes=_boxes(file, spec))


def layout_listing(folder: Path | None = None) -> tuple[list[CardLayout], list[str]]:
    """Every layout that loads, and for each file that does not, the line saying why."""
    return load_each(layout_names(folder), lambda name: load_layout(name, folder))


def _boxes(file: str, spec: LayoutFile) -> CardBoxes:
    cut = Box(0.0, 0.0, spec.card.width, spec.card.height)
    safe = cut.inset(spec.card.safe)
    specs: dict[str, BoxSpec] = dict(spec.boxes)
    resolved: dict[str, Box] = {}

    def resolve(box_name: str, seen: tuple[str, ...]) -> Box:
        if box_name in resolved:
            return resolved[box_name]
        box_spec = specs[box_name]
        parent = cut
        if box_spec.within is not None:
            if box_spec.within not in specs or box_spec.within in seen:
                raise LayoutError(
                    f"{file}: boxes.{box_name}: within {box_spec.within!r} must name "
                    f"another box ({', '.join(specs)}) without a loop"
                )
            parent = resolve(box_spec.within, (*seen, box_name))
        box = box_spec.resolve(parent)
        if box.w <= 0 or box.h <= 0:
            raise LayoutError(f"{file}: boxes.{box_name}: has no area ({box.w:g} × {box.h:g} mm)")
        if not _inside(box, safe):
            raise LayoutError(
                f"{file}: boxes.{box_name}: reaches outside the safe area "
                f"({spec.card.safe:g} mm inside the cut)"
            )
        resolved[box_name] = box
        return box

    for box_name in specs:
        resolve(box_name, ())
    index = resolved["index"]
    return CardBoxes(index_rotated=index.rotated_180(spec.card.width, spec.card.height), **resolved)


def _inside(box: Box, outer: Box) -> bool:
    t = SIZE_TOLERANCE
    return (
        box.x >= outer.x - t
        and box.y >= outer.y - t
        and box.right <= outer.right + t
        and box.top <= outer.top + t
    )


def layout_name_of(style: dict[str, Any]) -> str:
    """The layout a deck's style table chooses (``[style] layout``), else the default."""
    chosen = style.get("layout")
    return chosen if isinstance(chosen, str) and chosen else DEFAULT_LAYOUT
