"""What a card prints, field by field: the ground truth of the reprint verdict.

Each face and the back is described by what the drawing code puts on it, in the values
it draws: the corner index, the fitted name, each figure as printed (with the deck's
rounding), its nr., its TOPP 3 / USYNLIG mark and its bar's step, the picture's type,
its drop, station and lake in whole steps of their scales, the place its skyline is
drawn for and the map's grid cell, the Strømkrig line, the small print, and the design
(colours and layout). Two faces with equal descriptions draw the same marks; the
reprint verdict (:mod:`kraftstokk.deck.reprint`) compares these, never the deck's data.
"""

from __future__ import annotations

from dataclasses import dataclass

from kraftstokk.design.face_text import (
    own_small_print,
    small_print_lines,
    special_use,
    unknown_parts,
)
from kraftstokk.design.fit import fit_name
from kraftstokk.design.layout import CardLayout, load_layout
from kraftstokk.design.map_frame import map_frame
from kraftstokk.design.numbers import deck_decimals, format_figure
from kraftstokk.design.palette import RGB, palette_from_style, palette_key
from kraftstokk.design.picture_plan import map_box, plan_picture
from kraftstokk.design.presets import deck_layout_name
from kraftstokk.design.scales import BAR_STEPS, deck_scales, step
from kraftstokk.models import CATEGORIES, Card, Category, Deck

#: A face or the back: field -> what is printed there, as text.
Printed = dict[str, str]

#: The face's fields, in the order a person reads them; ``kind`` groups them for reports.
FIELD_KINDS: dict[str, str] = {
    "card": "suit and value",
    "name": "name",
    **{category: "figures" for category in CATEGORIES},
    **{f"nr_{category}": "nr." for category in CATEGORIES},
    **{f"mark_{category}": "flags" for category in CATEGORIES},
    "special": "flags",
    **{f"bar_{category}": "bars" for category in CATEGORIES},
    "type": "picture",
    "drop": "picture",
    "station": "picture",
    "lake": "picture",
    "terrain": "picture",
    "map": "map",
    "small_print": "small print",
    "title": "title",
    "edition": "edition",
    "design": "design",
}


def deck_layout(deck: Deck, layout: CardLayout | None = None) -> CardLayout:
    """``layout``, else the one the deck is rendered in (its ``[print]`` preset's, else
    its ``[style] layout``)."""
    return layout or load_layout(deck_layout_name(deck))


@dataclass(frozen=True)
class FaceFacts:
    """What every face of one deck prints alike, as the face (``render/card.py``) gets it."""

    layout: CardLayout
    decimals: dict[Category, int]
    ranges: dict[Category, tuple[float, float]]
    small_print: tuple[str, ...]
    #: The colours and the layout: the key the face's forms are named by.
    design: str
    #: Card id -> its own small print (a place stated with its own source).
    own_small_print: dict[str, tuple[str, ...]]


def face_facts(deck: Deck, layout: CardLayout) -> FaceFacts:
    plants = deck.plant_cards
    return FaceFacts(
        layout=layout,
        decimals=deck_decimals(deck) if plants else dict.fromkeys(CATEGORIES, 0),
        ranges=deck_scales(deck),
        small_print=tuple(small_print_lines(deck, layout)),
        design=palette_key(palette_from_style(deck.style(), RGB)) + layout.tag,
        own_small_print=own_small_print(deck, layout),
    )


def printed_faces(deck: Deck, layout: CardLayout | None = None) -> dict[str, Printed]:
    """Every face of ``deck`` (card id -> what it prints), drawn in ``layout``."""
    ctx = face_facts(deck, deck_layout(deck, layout))
    return {card.id: printed_face(card, ctx) for card in deck.cards}


def printed_back(deck: Deck, layout: CardLayout | None = None) -> Printed:
    """What the back prints: the title, the edition, and the design."""
    facts = face_facts(deck, deck_layout(deck, layout))
    return {"title": deck.title, "edition": deck.edition, "design": facts.design}


_fitted: dict[tuple[str, str], str] = {}


def _name_lines(name: str, ctx: FaceFacts) -> str:
    """The name as it is set: its lines and size (fitting is pure, so it is kept)."""
    key = (ctx.design, name)
    if key not in _fitted:
        if len(_fitted) > 10_000:
            _fitted.clear()
        fit = fit_name(name, ctx.layout)
        lines = f"{' / '.join(fit.lines)} ({fit.font_size:g} pt)"
        _fitted[key] = lines if fit.fits else f"{name} (does not fit)"
    return _fitted[key]


def printed_face(card: Card, ctx: FaceFacts) -> Printed:
    """What one face prints."""
    small_print = ctx.own_small_print.get(card.id, ctx.small_print)
    out: Printed = {"design": ctx.design, "small_print": " / ".join(small_print)}
    if card.joker:
        out["card"] = "joker"
        return out
    out["card"] = f"{card.suit} {card.value}"
    out["name"] = _name_lines(card.name or "", ctx)
    out.update(_picture(card, ctx))
    for category in CATEGORIES:
        value = getattr(card, category)
        if value is None:
            out[category] = "?"
            continue
        out[category] = format_figure(value, category, ctx.decimals[category])
        nr = card.nr.get(category) if card.nr else None
        out[f"nr_{category}"] = f"nr. {nr if nr is not None else '?'}"
        top3, invisible = card.flags.top3.get(category), card.flags.invisible.get(category)
        out[f"mark_{category}"] = "TOPP 3" if top3 else "USYNLIG" if invisible else "none"
        out[f"bar_{category}"] = f"{step(value, ctx.ranges[category], BAR_STEPS)}/{BAR_STEPS}"
    out["special"] = special_use(card) or "none"
    unknown = unknown_parts(card)
    if unknown:
        out["small_print"] += f" / unknown: {unknown}"
    return out


def _picture(card: Card, ctx: FaceFacts) -> Printed:
    if card.head_m is None or card.mw is None or card.gwh is None:
        return {"type": card.type or "no type", "drop": "?", "map": "?"}
    plan = plan_picture(card, ctx.ranges, ctx.layout)
    where = "none"
    if card.lat is not None and card.lon is not None:
        frame = map_frame(map_box(ctx.layout))
        cell = frame.grid_point(card.lat, card.lon)
        where = "off the map" if cell is None else f"{cell[0]},{cell[1]}"
    terrain = "no place" if plan.place is None else f"{plan.place[0]:g} N {plan.place[1]:g} E"
    return {
        "type": card.type or "no type",
        "drop": "{}/{}".format(*plan.drop_steps),
        "station": "{}/{}".format(*plan.station_steps),
        "lake": "{}/{}".format(*plan.lake_steps),
        "terrain": terrain,
        "map": where,
    }
