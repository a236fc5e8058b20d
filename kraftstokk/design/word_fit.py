"""Whether a face's words fit the layout's boxes: the nr. pill, a joker's corner, the type's
name on the water, the small print's note on what the deck does not know, a Strømkrig
card's line above the small print.

The words are the locale files' (the renderer reads them, :mod:`kraftstokk.render.face_words`);
the layout loader checks the boxes alone, so a layout and a language are checked together
here, before any face is drawn.
"""

from __future__ import annotations

from collections.abc import Mapping

from kraftstokk.design.fonts import text_width
from kraftstokk.design.geometry import MM as MM_PT
from kraftstokk.design.layout import CAP_HEIGHT, SIZE_TOLERANCE, CardLayout, TextStyle
from kraftstokk.errors import LayoutError
from kraftstokk.models import PlantType


def refuse_misfit_words(
    layout: CardLayout,
    widest_nr: str,
    index_joker: str,
    type_labels: Mapping[PlantType, str],
    notes: Mapping[str, str],
    special_lines: Mapping[str, str],
    source: str,
) -> None:
    """Raise :class:`LayoutError` naming the layout, the box, the text and its key in
    ``source`` (the locale file) when a word does not fit: the widest nr. in its pill beside
    a mark's icon, a joker's corner a letter a line in ``boxes.index``, each type's name (by
    type) in ``boxes.type_label`` and clear of a pumped-storage plant's lower dam, each note
    in the footer's width, each Strømkrig line beside its bolt (these two by their locale
    keys). A row's label or mark is not refused: the figure is drawn smaller and the bar
    shorter, as they are for a long figure."""
    boxes, styles, picture = layout.boxes, layout.styles, layout.spec.picture
    rows = layout.spec.rows
    beside_icon = rows.pill_width - rows.pill_icon_inset - rows.pill_icon
    _refuse_wide(layout, "rows.pill_width", widest_nr, styles.nr, beside_icon, source, "card.nr")
    joker = styles.index_joker
    letters = len(index_joker)
    height = (joker.size * CAP_HEIGHT + (letters - 1) * joker.size * joker.leading) / MM_PT
    if height > boxes.index.h + SIZE_TOLERANCE:
        raise LayoutError(
            f"layout {layout.name}: boxes.index: {index_joker!r}, a letter a line at "
            f"{joker.size:g} pt, is {height:.1f} mm high, the box {boxes.index.h:g} mm "
            f"({source}: card.index_joker)"
        )
    label = boxes.type_label
    for kind, text in type_labels.items():
        key = f"card.types.{kind}"
        _refuse_wide(layout, "boxes.type_label", text, styles.type_label, label.w, source, key)
    pumped = type_labels.get("pumped-storage")
    if pumped is not None:
        scene = boxes.scene
        label_end = label.x + _width(pumped, styles.type_label)
        lower_dam = scene.right - picture.station_right
        lower_dam += min(picture.lower_dam_gap, picture.station_right / 2)
        if lower_dam < label_end - SIZE_TOLERANCE:
            raise LayoutError(
                f"layout {layout.name}: picture: a pumped-storage plant's lower dam "
                f"({lower_dam - scene.x:.1f} mm into the scene: station_right, lower_dam_gap) "
                f"would stand in {pumped!r} (to {label_end - scene.x:.1f} mm; {source}: "
                "card.types.pumped-storage)"
            )
    footer = boxes.footer
    for key, text in notes.items():
        _refuse_wide(layout, "boxes.footer", text, styles.small_print, footer.w, source, key)
    room = footer.w - layout.spec.footer.special_indent
    for key, text in special_lines.items():
        _refuse_wide(layout, "boxes.footer", text, styles.special, room, source, key)


def _width(text: str, style: TextStyle) -> float:
    return text_width(text, style.face, style.size) / MM_PT


def _refuse_wide(
    layout: CardLayout, box: str, text: str, style: TextStyle, room: float, source: str, key: str
) -> None:
    width = _width(text, style)
    if width > room + SIZE_TOLERANCE:
        raise LayoutError(
            f"layout {layout.name}: {box}: {_shown(text)} at {style.size:g} pt is "
            f"{width:.1f} mm wide, the box {room:.1f} mm ({source}: {key})"
        )


def _shown(text: str) -> str:
    """``text`` quoted, a no-break space shown as a space."""
    return repr(text.replace("\u00a0", " "))
