"""One card face: corner indices, name, picture, the three category rows, small print.

Drawing happens in card coordinates (points, origin at the lower-left cut corner); the
public functions move and scale there and clip to the cut or the bleed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from kraftstokk.errors import RenderError
from kraftstokk.models import (
    CATEGORIES,
    CATEGORY_LABELS,
    VALUE_INDEX,
    Card,
    Category,
    Deck,
)
from kraftstokk.render.back import draw_card_back
from kraftstokk.render.fit import LEADING, NameFit, fit_name
from kraftstokk.render.fonts import SANS, SANS_BOLD, register_fonts, text_width
from kraftstokk.render.geometry import CARD, Box, mm
from kraftstokk.render.numbers import deck_decimals, format_figure
from kraftstokk.render.palette import WHITE, Palette, mix, palette_from_style
from kraftstokk.render.parts import PILL_ICON, PILL_W, Parts, pill_icon_x, place
from kraftstokk.render.plant_picture import draw_plant_picture
from kraftstokk.render.suits import BOLT, draw_shape
from kraftstokk.render.textlayer import TextLayer

__all__ = ["FaceContext", "draw_card_back", "draw_card_face", "draw_face_local", "face_context"]

CAP_HEIGHT = 0.73  # Vera's capital height, in em
Extent = tuple[float, float, float, float]  # bleed in mm: left, bottom, right, top

JOKER_RULES = (
    ("Kraftidioten", "brenner bunken; legg et nytt kort og velg kategori."),
    ("Strømkrig", "brenner bunken. Lavest i krig."),
    ("Idiot", "tas ut av stokken."),
)


@dataclass(frozen=True)
class FaceContext:
    """What every face of one deck shares: colours, rounding, ranges, small print."""

    palette: Palette
    decimals: dict[Category, int]
    ranges: dict[Category, tuple[float, float]]
    small_print: tuple[str, ...]
    parts: Parts


_cache: list[tuple[Deck, FaceContext]] = []


def face_context(deck: Deck) -> FaceContext:
    """The shared drawing data of ``deck`` (cached for the last deck drawn)."""
    if _cache and _cache[0][0] is deck:
        return _cache[0][1]
    register_fonts()
    plants = deck.plant_cards
    ranges: dict[Category, tuple[float, float]] = {}
    for c in CATEGORIES:
        figures = [card.figure(c) for card in plants] or [0.0, 1.0]
        ranges[c] = (min(figures), max(figures))
    palette = palette_from_style(deck.style())
    ctx = FaceContext(
        palette=palette,
        decimals=deck_decimals(deck) if plants else dict.fromkeys(CATEGORIES, 0),
        ranges=ranges,
        small_print=tuple(small_print_lines(deck)),
        parts=Parts(palette),
    )
    _cache[:] = [(deck, ctx)]
    return ctx


def draw_card_face(
    canvas: Canvas,
    card: Card,
    deck: Deck,
    x: float,
    y: float,
    scale: float = 1.0,
    bleed: bool = False,
) -> None:
    """Draw ``card`` with its lower-left cut corner at (x, y) points, ``scale`` times size.

    With ``bleed`` the background runs 3 mm past the cut on every side; without, the
    face is clipped at the cut line.
    """
    b = CARD.bleed if bleed else 0.0
    canvas.saveState()
    canvas.translate(x, y)
    if scale != 1.0:
        canvas.scale(scale, scale)
    draw_face_local(canvas, card, face_context(deck), (b, b, b, b))
    canvas.restoreState()


def clip_to(canvas: Canvas, box: Box) -> None:
    path = canvas.beginPath()
    path.rect(*box.pt())
    canvas.clipPath(path, stroke=0, fill=0)


def draw_face_local(canvas: Canvas, card: Card, ctx: FaceContext, extent: Extent) -> None:
    """The face in card coordinates, clipped to the cut plus ``extent`` of bleed."""
    left, bottom, right, top = extent
    area = Box(-left, -bottom, CARD.width + left + right, CARD.height + bottom + top)
    canvas.saveState()
    clip_to(canvas, area)
    pal = ctx.palette
    canvas.setFillColor(pal.paper)
    canvas.rect(*area.pt(), stroke=0, fill=1)
    text = TextLayer()
    _draw_base(canvas, card, ctx)
    _draw_index_pair(canvas, card, ctx)
    _draw_name(canvas, card, ctx, text)
    _draw_art(canvas, card, ctx)
    if card.joker:
        _draw_joker_rules(ctx, text)
    else:
        for row, category in enumerate(CATEGORIES):
            _draw_row(canvas, card, ctx, category, row, text)
    _draw_footer(canvas, card, ctx, text)
    text.draw(canvas)
    canvas.restoreState()


def _row_top(row: int) -> float:
    """Top of category row ``row`` (mm)."""
    rows = CARD.rows
    return rows.top - row * rows.h / len(CATEGORIES)


def _draw_base(canvas: Canvas, card: Card, ctx: FaceContext) -> None:
    """What every plant card (or every joker) has in the same place, as one form.

    Forms hold shapes only: text stays in the page's own content, where every PDF
    reader finds it at its place.
    """
    pal = ctx.palette

    def draw(c: Canvas) -> None:
        ctx.parts.draw_name_panel(c)
        ctx.parts.draw_art_sky(c)
        if card.joker:
            return
        x0, x1 = mm(CARD.rows.x), mm(CARD.rows.right)
        c.setStrokeColor(pal.track)
        c.setLineWidth(0.4)
        for row in range(1, len(CATEGORIES)):
            c.line(x0, mm(_row_top(row)), x1, mm(_row_top(row)))

    name = ctx.parts.name("BaseJoker" if card.joker else "BasePlant")
    place(canvas, name, (0, 0, mm(CARD.width), mm(CARD.height)), draw, 0, 0)


# Corner indices -------------------------------------------------------------------------


def _draw_index_pair(canvas: Canvas, card: Card, ctx: FaceContext) -> None:
    _draw_index(canvas, card, ctx)
    canvas.saveState()
    canvas.translate(mm(CARD.width), mm(CARD.height))
    canvas.rotate(180)
    _draw_index(canvas, card, ctx)
    canvas.restoreState()


def _draw_index(canvas: Canvas, card: Card, ctx: FaceContext) -> None:
    box = CARD.index
    cx = mm(box.x + box.w / 2)
    top = mm(box.top)
    text = TextLayer()
    if card.joker:
        size = 6.6
        for i, letter in enumerate("JOKER"):
            y = top - size * CAP_HEIGHT - i * size * 1.08
            text.add(letter, SANS_BOLD, size, ctx.palette.accent_dark, cx, y, "centre")
        text.draw(canvas)
        return
    if card.suit is None or card.value is None:
        raise RenderError(f"card {card.id}: a plant card needs a suit and a value")
    size = 14.5
    value = VALUE_INDEX.get(card.value, str(card.value))
    width = text_width(value, SANS_BOLD, size)
    squeeze = min(100.0, 100.0 * mm(box.w) / width)  # "10" is narrowed, keeping its height
    colour = ctx.palette.suit_colour(card.suit)
    text.add(value, SANS_BOLD, size, colour, cx, top - size * CAP_HEIGHT, "centre", squeeze)
    text.draw(canvas)
    ctx.parts.index_pip(canvas, card.suit, cx, top - size * CAP_HEIGHT - mm(1.4) - mm(2.3))


# Name -----------------------------------------------------------------------------------


def card_name_fit(card: Card) -> NameFit:
    if card.joker:
        return fit_name("Joker")
    fit = fit_name(card.name or "")
    if not fit.fits:
        raise RenderError(f"card {card.id} ({card.name}): {fit.reason}")
    return fit


def _draw_name(canvas: Canvas, card: Card, ctx: FaceContext, text: TextLayer) -> None:
    fit = card_name_fit(card)
    box = CARD.name_text
    size = fit.font_size
    lead = size * LEADING
    block = (len(fit.lines) - 1) * lead + size * CAP_HEIGHT
    baseline = mm(box.y + box.h / 2) + block / 2 - size * CAP_HEIGHT
    for line in fit.lines:
        text.add(line, SANS_BOLD, size, WHITE, mm(box.x), baseline)
        baseline -= lead


# Picture --------------------------------------------------------------------------------


def _fraction(ctx: FaceContext, category: Category, value: float) -> float:
    low, high = ctx.ranges[category]
    if high <= low:
        return 1.0
    return max(0.0, min(1.0, (value - low) / (high - low)))


def _draw_art(canvas: Canvas, card: Card, ctx: FaceContext) -> None:
    """A fjord landscape whose peak rises with the plant's head, and the suit in a disc.

    A plant card shows its own plant instead: its type and where it lies (plant_picture).
    """
    if not card.joker:
        head = _fraction(ctx, "head_m", card.figure("head_m"))
        draw_plant_picture(canvas, CARD.art, card, head, ctx.palette, ctx.parts)
        return
    pal = ctx.palette
    x, y, w, h = CARD.art.pt()
    head = 0.5
    water = y + h * 0.2
    peak = water + h * (0.36 + 0.36 * head)
    canvas.setFillColor(mix(pal.accent_light, pal.paper, 0.35))
    _polygon(
        canvas,
        [
            (x, water),
            (x, water + h * 0.28),
            (x + w * 0.12, water + h * 0.46),
            (x + w * 0.27, water + h * 0.3),
            (x + w * 0.4, water + h * 0.52),
            (x + w * 0.52, water + h * 0.36),
            (x + w * 0.78, peak),
            (x + w * 0.92, water + h * 0.42),
            (x + w, water + h * 0.48),
            (x + w, water),
        ],
    )
    canvas.setFillColor(pal.accent_light)
    _polygon(
        canvas,
        [
            (x, water),
            (x + w * 0.1, water + h * 0.16),
            (x + w * 0.22, water + h * 0.06),
            (x + w * 0.62, water + h * 0.1),
            (x + w * 0.7, water + (peak - water) * 0.55),
            (x + w * 0.86, water + h * 0.14),
            (x + w, water + h * 0.08),
            (x + w, water),
        ],
    )
    # Penstock: from a lake below the peak down to the power station by the fjord.
    lake_x, lake_y = x + w * 0.72, water + (peak - water) * 0.72
    station_x = x + w * 0.9
    canvas.setStrokeColor(pal.accent_dark)
    canvas.setLineWidth(0.9)
    canvas.line(lake_x, lake_y, station_x, water + mm(1.1))
    canvas.setFillColor(pal.accent)
    canvas.ellipse(lake_x - mm(2.2), lake_y - mm(0.6), lake_x + mm(2.2), lake_y + mm(0.6), 0, 1)
    canvas.setFillColor(pal.accent_dark)
    canvas.rect(station_x - mm(1.1), water, mm(2.4), mm(1.6), stroke=0, fill=1)
    ctx.parts.art_water(canvas, water - y)
    ctx.parts.disc(canvas, None if card.joker else card.suit, x + w * 0.3, y + h * 0.52)


def _polygon(canvas: Canvas, points: list[tuple[float, float]]) -> None:
    path = canvas.beginPath()
    path.moveTo(*points[0])
    for px, py in points[1:]:
        path.lineTo(px, py)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)


# Category rows --------------------------------------------------------------------------

ROW_LABEL_SIZE = 7.0
ROW_BASELINE = 4.6  # mm below the row's top
FIGURE_SIZE = 11.0
NR_SIZE = 7.4
TAG_SIZE = 5.6


def _draw_row(
    canvas: Canvas, card: Card, ctx: FaceContext, category: Category, row: int, text: TextLayer
) -> None:
    pal = ctx.palette
    rows = CARD.rows
    top = _row_top(row)
    x0, x1 = mm(rows.x), mm(rows.right)
    if card.nr is None:
        raise RenderError(f"card {card.id}: a plant card needs nr. in every category")
    nr = card.nr.get(category)
    top3 = card.flags.top3.get(category)
    invisible = card.flags.invisible.get(category)
    baseline = mm(top - ROW_BASELINE)
    label = CATEGORY_LABELS[category]
    text.add(label, SANS_BOLD, ROW_LABEL_SIZE, pal.muted, x0, baseline)
    # Figure, right-aligned before the nr. pill; smaller if it would reach the label
    pill_x = x1 - mm(PILL_W)
    figure_right = pill_x - mm(1.8)
    figure = format_figure(card.figure(category), category, ctx.decimals[category])
    room = figure_right - x0 - text_width(label, SANS_BOLD, ROW_LABEL_SIZE) - mm(1.5)
    figure_size = min(FIGURE_SIZE, FIGURE_SIZE * room / text_width(figure, SANS_BOLD, FIGURE_SIZE))
    text.add(figure, SANS_BOLD, figure_size, pal.ink, figure_right, baseline, "right")
    # nr. pill, with the mark of a top-3 or an invisible card
    marked = top3 or invisible
    pill_y = baseline - mm(1.4)
    kind = "top3" if top3 else "invisible" if invisible else "plain"
    ctx.parts.pill(canvas, kind, pill_x, pill_y)
    nr_text = f"nr.\u00a0{nr}"
    if marked:
        left = pill_x + pill_icon_x() + mm(PILL_ICON) / 2
        text_x = (left + pill_x + mm(PILL_W) - text_width(nr_text, SANS_BOLD, NR_SIZE)) / 2
    else:
        text_x = pill_x + (mm(PILL_W) - text_width(nr_text, SANS_BOLD, NR_SIZE)) / 2
    text.add(nr_text, SANS_BOLD, NR_SIZE, pal.ink, text_x, baseline)
    # Bar: the figure against the deck's range; the mark's word at its end
    bar_h = mm(1.5)
    bar_mid = mm(top - 7.7) + bar_h / 2
    bar_end = figure_right
    if marked:
        tag = "TOPP 3" if top3 else "USYNLIG"
        colour = pal.gold_ink if top3 else pal.ink
        text.add(
            tag,
            SANS_BOLD,
            TAG_SIZE,
            colour,
            figure_right,
            bar_mid - TAG_SIZE * CAP_HEIGHT / 2,
            "right",
        )
        bar_end = figure_right - text_width(tag, SANS_BOLD, TAG_SIZE) - mm(1.5)
    bar_w = bar_end - x0
    share = _fraction(ctx, category, card.figure(category))
    canvas.setLineCap(1)
    canvas.setLineWidth(bar_h)
    canvas.setStrokeColor(pal.track)
    canvas.line(x0 + bar_h / 2, bar_mid, x0 + bar_w - bar_h / 2, bar_mid)
    canvas.setStrokeColor(pal.gold if top3 else pal.muted if invisible else pal.accent)
    filled = max(bar_h, bar_w * share)
    canvas.line(x0 + bar_h / 2, bar_mid, x0 + filled - bar_h / 2 + 0.01, bar_mid)
    canvas.setLineCap(0)


# Jokers ---------------------------------------------------------------------------------


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap to ``width`` points."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and text_width(trial, font, size) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def _draw_joker_rules(ctx: FaceContext, text: TextLayer) -> None:
    pal = ctx.palette
    rows = CARD.rows
    x0, width = mm(rows.x), mm(rows.w)
    y = mm(rows.top) - mm(3.6)
    size = 7.2
    for game, rule in JOKER_RULES:
        text.add(game, SANS_BOLD, size, pal.accent_dark, x0, y)
        y -= size * 1.3
        for line in wrap(rule, SANS, size, width):
            text.add(line, SANS, size, pal.ink, x0, y)
            y -= size * 1.25
        y -= size * 0.45


# Small print ----------------------------------------------------------------------------


def _special_text(card: Card) -> str | None:
    if card.joker:
        return None
    if card.flags.burn and card.flags.reset:
        return "Strømkrig: brenner eller nullstiller"
    if card.flags.burn:
        return "Strømkrig: brenner bunken"
    if card.flags.reset:
        return "Strømkrig: nullstiller"
    return None


SMALL_SIZE = 5.0
DATA_LINES = 2


def small_print_lines(deck: Deck) -> list[str]:
    """Title and edition, then the data attribution in at most two lines.

    A long attribution loses its parenthesised parts first; whatever still does not fit
    ends in an ellipsis (the booklet carries it in full).
    """
    width = mm(CARD.footer.w)
    lines = [f"{deck.title} · {deck.edition}"]
    snap = deck.snapshot
    data = snap.attribution_nb or snap.attribution or snap.source
    if not data:
        return lines
    for candidate in (data, re.sub(r"\s*\([^)]*\)", "", data)):
        wrapped = wrap(f"Data: {candidate}", SANS, SMALL_SIZE, width)
        if len(wrapped) <= DATA_LINES:
            return lines + wrapped
    kept = wrapped[:DATA_LINES]
    last = kept[-1]
    while last and text_width(last + " …", SANS, SMALL_SIZE) > width:
        last = last.rsplit(" ", 1)[0] if " " in last else last[:-1]
    return [*lines, *kept[:-1], f"{last} …"]


def _draw_footer(canvas: Canvas, card: Card, ctx: FaceContext, text: TextLayer) -> None:
    pal = ctx.palette
    box = CARD.footer
    x = mm(box.x)
    size = SMALL_SIZE
    y = mm(box.y) + mm(0.3)
    for line in reversed(ctx.small_print):
        text.add(line, SANS, size, pal.muted, x, y)
        y += size * 1.2
    special = _special_text(card)
    if special:
        canvas.setFillColor(pal.accent_dark)
        draw_shape(canvas, BOLT, x + mm(1.2), y + mm(1.9), mm(3.2))
        text.add(special, SANS_BOLD, 6.2, pal.accent_dark, x + mm(2.8), y + mm(1.1))
