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
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)

from kraftstokk.bounds import Range, range_of
from kraftstokk.design.colour_names import COLOUR_NAMES
from kraftstokk.design.fonts import SANS, SANS_BOLD
from kraftstokk.design.geometry import MM as MM_PT
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
#: A label's height from its lowest descender to its capitals' top, in ems (Vera Bold).
LABEL_EXTENT = 0.96
#: Vera's capital height, in ems.
CAP_HEIGHT = 0.73
#: The most lines of small print a face has: title and edition, the data credit in two,
#: and the note on a plant whose type or place is unknown; a Strømkrig line above them.
SMALL_PRINT_LINES = 4

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
    #: Inside the picture: the landscape, the map panel, the suit's disc, the type's name.
    scene: BoxSpec
    map: BoxSpec
    disc: BoxSpec
    type_label: BoxSpec
    rows: BoxSpec
    footer: BoxSpec


def _known_colour_name(value: str) -> str:
    if value not in COLOUR_NAMES:
        raise ValueError(f"{value!r} is not a colour name; choose from {', '.join(COLOUR_NAMES)}")
    return value


ColourName = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(_known_colour_name)]


class TextStyle(_Strict):
    font: Literal["sans"] = "sans"  # the embedded Bitstream Vera family (design/fonts.py)
    weight: Literal["regular", "bold"] = "regular"
    size: FontSize
    colour: ColourName
    align: Align = "left"
    leading: Annotated[float, Range(0.5, 3, "× size")] = 1.2  # line height / size

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
    type_label: TextStyle
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


Ratio = Annotated[float, Range(0, 10, "× ")]
Share = Annotated[float, Range(0, 1, "× ")]  # a part of a whole


def _tuples(value: Any) -> Any:
    """TOML's arrays as tuples (a layout is frozen, and hashed)."""
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


class PictureColours(_Strict):
    """Which palette colour paints each part of the picture."""

    sky: ColourName
    haze: ColourName
    ridge: ColourName
    snow: ColourName
    mountain: ColourName
    mountain_shade: ColourName
    water: ColourName
    lake: ColourName
    wave: ColourName
    dam: ColourName
    station: ColourName
    window: ColourName
    penstock: ColourName
    flow: ColourName
    disc: ColourName
    disc_ring: ColourName
    joker_bolt: ColourName


class PictureMeasures(_Strict):
    """The picture's measures (mm inside the scene box, from its lower-left corner, unless
    a unit says otherwise); ``design/picture_plan.py`` says what each one does."""

    water_level: Length
    drop_room: Length
    drop_steps: Annotated[int, Range(10, 10_000, "steps")]
    station_width: Length
    station_height: Length
    station_min: Length
    station_right: Offset
    lake_width: Length
    lake_depth: Length
    lake_min: Length
    lake_left: Offset
    river_depth: Length
    size_steps: Annotated[int, Range(10, 10_000, "steps")]
    bank: Offset
    dam_freeboard: Offset
    dam_crest: Length
    dam_batter: Ratio
    weir_height: Length
    lower_dam_gap: Offset
    lower_dam_rise: Length
    slope_run: Ratio
    slope_min_run: Offset
    penstock_width: LineWidth
    pipe_gap: Offset
    arrow_size: Length
    ridge_rise: Offset
    ridge_floor: Offset
    ridge_amplitude: Offset
    ridge_headroom: Offset
    range_foot: Offset
    range_amplitude: Offset
    shoulder_amplitude: Offset
    skyline: Annotated[
        tuple[tuple[Length, Ratio], ...],
        BeforeValidator(_tuples),
        Field(min_length=1, max_length=8),
    ]
    snow_south: Annotated[float, Range(0, 9000, "m")]
    snow_north: Annotated[float, Range(0, 9000, "m")]
    alpine_head: Annotated[float, Range(1, 5000, "m")]
    place_step: Annotated[float, Range(0.001, 1, "°")]
    wave_width: LineWidth
    wave_length: Length
    wave_amplitude: Offset
    snow_reach: Share
    roof_share: Share
    roof: Length
    window_share: Share
    windows: Length
    pane: Length
    pane_gap: Offset
    windowless_below: Offset
    pier_width: Length
    pier_height: Length
    weir_deck: Length
    chevron_step: Length
    chevron_share: Share
    disc_ring_width: LineWidth
    colours: PictureColours


class MapMeasures(_Strict):
    """The map panel: the outline's padding and the plant's mark."""

    padding: Offset
    mark_radius: Length
    halo: Offset
    ring_radius: Length
    ring_width: LineWidth
    coast_width: LineWidth


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
    game_gap: Annotated[float, Range(0, 1.5, "em")]


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
    map: MapMeasures
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
        for table in ("index", "picture", "map", "rows", "joker", "footer", "back"):
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
    scene: Box
    map: Box
    disc: Box
    type_label: Box
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
        if box_spec.within is not None and not _inside(box, parent):
            raise LayoutError(
                f"{file}: boxes.{box_name}: reaches outside boxes.{box_spec.within}, "
                "which it lies within"
            )
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
    resolved["index_rotated"] = index.rotated_180(spec.card.width, spec.card.height)
    inside = {name: _ancestors(name, specs) for name in resolved}
    _refuse_overlaps(file, resolved, inside)
    boxes = CardBoxes(**resolved)
    _refuse_misfit_picture(file, spec, boxes)
    _refuse_short_footer(file, spec, boxes.footer)
    return boxes


def _refuse_short_footer(file: str, spec: LayoutFile, footer: Box) -> None:
    """The footer holds the most small print a face has, and a Strømkrig line above it."""
    small, special, measures = spec.styles.small_print, spec.styles.special, spec.footer
    lines = SMALL_PRINT_LINES * small.size * small.leading / MM_PT
    need = measures.lift + lines + measures.special_lift + special.size * CAP_HEIGHT / MM_PT
    if need > footer.h + 0.05:
        raise LayoutError(
            f"{file}: boxes.footer: {footer.h:g} mm high; {SMALL_PRINT_LINES} lines of small "
            f"print and a Strømkrig line above them need {need:.2f} mm"
        )


def _ancestors(name: str, specs: dict[str, BoxSpec]) -> set[str]:
    """The boxes ``name`` lies within, directly or through others (its turned twin's, for
    the turned index)."""
    found: set[str] = set()
    current = specs.get("index" if name == "index_rotated" else name)
    while current is not None and current.within is not None and current.within not in found:
        found.add(current.within)
        current = specs.get(current.within)
    return found


def _refuse_overlaps(file: str, boxes: dict[str, Box], inside: dict[str, set[str]]) -> None:
    """No two boxes may share area unless one lies within the other (a square layout printed
    the type's name over the suit's disc, and nothing said so)."""
    names = list(boxes)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            if first in inside[second] or second in inside[first]:
                continue
            a, b = boxes[first], boxes[second]
            w = min(a.right, b.right) - max(a.x, b.x)
            h = min(a.top, b.top) - max(a.y, b.y)
            if w > SIZE_TOLERANCE and h > SIZE_TOLERANCE:
                raise LayoutError(
                    f"{file}: boxes.{first} and boxes.{second} overlap ({w:.2f} × {h:.2f} mm); "
                    "move one, or put it within the other"
                )


def _refuse_misfit_picture(file: str, spec: LayoutFile, boxes: CardBoxes) -> None:
    """The picture's largest parts fit its scene, and a line of the type's name its label
    box's height (its words, which the locale files hold, are fitted by the renderer:
    :func:`kraftstokk.design.word_fit.refuse_misfit_words`)."""
    picture, scene = spec.picture, boxes.scene
    style = spec.styles.type_label
    height = style.size * LABEL_EXTENT / MM_PT
    if height > boxes.type_label.h + SIZE_TOLERANCE:
        raise LayoutError(
            f"{file}: boxes.type_label: {style.size:g} pt text needs {height:.1f} mm of "
            f"height, the box has {boxes.type_label.h:g}"
        )
    if boxes.type_label.top > scene.y + picture.water_level + SIZE_TOLERANCE:
        raise LayoutError(
            f"{file}: boxes.type_label: reaches above the water (picture.water_level "
            f"{picture.water_level:g} mm): the type's name is printed on the water"
        )
    dam = picture.dam_crest + (picture.lake_depth + picture.dam_freeboard) * picture.dam_batter
    need = (
        picture.lake_left
        + picture.lake_width
        + dam
        + picture.slope_min_run
        + picture.station_width
        + picture.station_right
    )
    if need > scene.w + SIZE_TOLERANCE:
        raise LayoutError(
            f"{file}: picture: the largest lake, dam and station need {need:.1f} mm side by side "
            f"(lake_left + lake_width + the dam + slope_min_run + station_width + station_right); "
            f"boxes.scene is {scene.w:g} mm wide"
        )
    if picture.water_level + picture.drop_room + picture.dam_freeboard > scene.h:
        raise LayoutError(
            f"{file}: picture: water_level + drop_room + dam_freeboard "
            f"({picture.water_level + picture.drop_room + picture.dam_freeboard:g} mm) is more "
            f"than boxes.scene's height ({scene.h:g} mm)"
        )
    station = Box(
        scene.right - picture.station_right - picture.station_width,
        scene.y + picture.water_level,
        picture.station_width,
        picture.station_height,
    )
    disc = boxes.disc
    if (
        min(station.right, disc.right) - max(station.x, disc.x) > SIZE_TOLERANCE
        and min(station.top, disc.top) - max(station.y, disc.y) > SIZE_TOLERANCE
    ):
        raise LayoutError(
            f"{file}: picture: the largest station (station_width × station_height at "
            f"station_right) would stand in boxes.disc"
        )


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
