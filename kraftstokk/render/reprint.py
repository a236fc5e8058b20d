"""``render --only-changed OLD``: the print files of only the faces to reprint.

The faces are drawn in the size and for the printer of the cards they replace: the
layout and preset OLD's print files were rendered with (``kraftstokk-render.json``
beside OLD; without one, the layout OLD itself is rendered in). A reprint in another
size could not go into the printed decks, so it is refused. The verdict is
:func:`kraftstokk.deck.reprint.deck_verdict`'s, the one ``diff`` and ``repair`` give.
"""

from __future__ import annotations

from pathlib import Path

from kraftstokk.deck.render_record import RECORD_NAME, printed_with
from kraftstokk.deck.reprint import ReprintVerdict, deck_verdict
from kraftstokk.design.presets import deck_layout_name
from kraftstokk.errors import RenderError
from kraftstokk.models import Deck
from kraftstokk.render.outputs import (
    RenderOptions,
    Reprint,
    remove_stale_reprint,
)


def _size(width: float, height: float) -> str:
    return f"{width:g} x {height:g} mm"


def check_same_print(old_path: Path, old: Deck, deck: Deck, options: RenderOptions) -> None:
    """Refuse a reprint in another card layout (size) or for another printer than the
    cards of ``old`` were printed in."""
    layout = options.card_layout(deck)
    found = printed_with(old_path, old)
    if found is None:
        printed, source = deck_layout_name(old), f"{old_path}'s own (no {RECORD_NAME} beside it)"
        if printed != layout.name:
            raise RenderError(
                f"--only-changed {old_path}: its cards are in the {printed} layout ({source}); "
                f"this render draws {layout.name} ({_size(layout.width, layout.height)}): a "
                f"reprint must be the cards it replaces. Give --layout {printed}, or render "
                "the whole deck without --only-changed"
            )
        return
    record, name, entry = found
    if entry.layout != layout.name or entry.card_mm != (layout.width, layout.height):
        same_size = entry.card_mm == (layout.width, layout.height)
        must = "look like" if same_size else "be the size of"
        size = "the same size, another design" if same_size else _size(layout.width, layout.height)
        raise RenderError(
            f"--only-changed {old_path}: its cards were printed in the {entry.layout} layout, "
            f"{_size(*entry.card_mm)} ({name}, {record}); this render draws {layout.name}, "
            f"{size}: a reprint must {must} the cards it replaces. Give --layout "
            f"{entry.layout}, or render the whole deck without --only-changed"
        )
    shop = options.shop_preset(deck).name
    if name.endswith(".pdf") and "printshop" in options.outputs(deck) and entry.preset != shop:
        raise RenderError(
            f"--only-changed {old_path}: its cards were printed for the {entry.preset} preset "
            f"({name}, {record}); this render makes the {shop} print-shop file: a reprint goes "
            f"to the printer of the cards it replaces. Give --preset {entry.preset}, or render "
            "the whole deck without --only-changed"
        )


def plan_reprint(
    old_path: Path, old: Deck, deck: Deck, options: RenderOptions
) -> tuple[Reprint, ReprintVerdict]:
    """What reprinting ``old`` (printed from the file ``old_path``) as ``deck`` prints."""
    check_same_print(old_path, old, deck, options)
    verdict = deck_verdict(old_path, old, deck)
    report = "\n".join([*verdict.lines(), verdict.summary]) + "\n"
    return Reprint(faces=tuple(verdict.faces), back=verdict.back, report=report), verdict


def nothing_to_reprint(out_dir: Path) -> list[Path]:
    """A reprint of nothing writes nothing, and removes the files of an earlier reprint
    (its print files and reprint.txt: they no longer belong to the deck); the removed."""
    return remove_stale_reprint(out_dir, keep=set())
