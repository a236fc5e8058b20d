"""One card face, drawn in one pass from top to bottom.

The pass (:func:`draw_face_local`): the paper and the panels every face shares, the corner
index and its copy turned into the opposite corner, the plant's name, the picture
(``picture.py``), the three category rows (a joker: its rules), and the small print.
Each part is drawn here, in that order, with its own pieces: the suit pip, the nr. pills
and the panels are forms (``forms.py`` names and places them), and the text of the name,
the rows and the small print is written together at the end of the pass as one text
object on top of the shapes (``textlayer.py``).

Drawing happens in card coordinates (points, origin at the lower-left cut corner); the
public functions move and scale there and clip to the cut or the bleed. What the texts
say and how large they are comes from the layout (``design/layouts``); the colours from
the palette.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from kraftstokk import locales
from kraftstokk.design.face_text import (
    own_small_print,
    small_print_lines,
)
from kraftstokk.design.fit import NameFit, fit_name, wrap
from kraftstokk.design.fonts import register_fonts, text_width
from kraftstokk.design.geometry import Box, mm
from kraftstokk.design.layout import CardLayout, TextStyle
from kraftstokk.design.numbers import deck_decimals, format_figure
from kraftstokk.design.palette import RGB, Palette, PrintColour, palette_from_style
from kraftstokk.design.picture_plan import PicturePlan, plan_picture
from kraftstokk.design.scales import bar_share, deck_scales
from kraftstokk.errors import RenderError
from kraftstokk.models import CATEGORIES, VALUE_INDEX, Card, Category, Deck
from kraftstokk.render.face_words import FACE_LANGUAGE, FaceWords, face_words
from kraftstokk.render.forms import FormNames, ascii_name, place, square
from kraftstokk.render.picture import draw_picture
from kraftstokk.render.suits import BOLT, STAR, draw_eye_slash, draw_shape, draw_suit
from kraftstokk.render.textlayer import TextLayer

__all__ = ["FaceContext", "draw_card_face", "draw_face_local", "face_context"]

CAP_HEIGHT = 0.73  # Vera's capital height, in em
Extent = tuple[float, float, float, float]  # bleed in mm: left, bottom, right, top

#: A line of the joker's rules: its text, style, size (pt) and baseline below the rows' top (pt).
JokerLine = tuple[str, TextStyle, float, float]


@dataclass(frozen=True)
class FaceContext:
    """What every face of one deck shares: layout, colours, rounding, scales, small print."""

    layout: CardLayout
    palette: Palette
    decimals: dict[Category, int]
    ranges: dict[Category, tuple[float, float]]
    small_print: tuple[str, ...]
    forms: FormNames
    #: Card id -> its own small print (a place stated with its own source).
    own_small_print: dict[str, tuple[str, ...]]
    #: The type's names, the small print's notes and the Strømkrig lines, fitted.
    words: FaceWords
    #: What a joker prints where a plant has its rows: each game's title and rule, set.
    joker_lines: tuple[JokerLine, ...] = ()


_cache: list[tuple[Deck, CardLayout, tuple[PrintColour, int], FaceContext]] = []


def face_context(deck: Deck, layout: CardLayout, colour: PrintColour = RGB) -> FaceContext:
    """The shared drawing data of ``deck`` in ``layout`` and ``colour``'s model.

    Cached for the last one drawn.
    """
    # the words are the locale files' (a test may edit them)
    key = (colour, locales.generation())
    if _cache and _cache[0][0] is deck and _cache[0][1] is layout and _cache[0][2] == key:
        return _cache[0][3]
    register_fonts()
    plants = deck.plant_cards
    palette = palette_from_style(deck.style(), colour)
    ctx = FaceContext(
        layout=layout,
        palette=palette,
        decimals=deck_decimals(deck) if plants else dict.fromkeys(CATEGORIES, 0),
        ranges=deck_scales(deck),
        small_print=tuple(small_print_lines(deck, layout)),
        forms=FormNames.of(palette, layout),
        own_small_print=own_small_print(deck, layout),
        words=face_words(layout),
        joker_lines=tuple(fitted_joker_lines(joker_rules(FACE_LANGUAGE), layout))
        if deck.jokers
        else (),
    )
    _cache[:] = [(deck, layout, key, ctx)]
    return ctx


def draw_card_face(
    canvas: Canvas,
    card: Card,
    deck: Deck,
    x: float,
    y: float,
    layout: CardLayout,
    scale: float = 1.0,
    bleed: bool = False,
) -> None:
    """Draw ``card`` with its lower-left cut corner at (x, y) points, ``scale`` times size.

    With ``bleed`` the background runs the layout's bleed past the cut on every side;
    without, the face is clipped at the cut line.
    """
    b = layout.bleed if bleed else 0.0
    canvas.saveState()
    canvas.translate(x, y)
    if scale != 1.0:
        canvas.scale(scale, scale)
    draw_face_local(canvas, card, face_context(deck, layout), (b, b, b, b))
    canvas.restoreState()


def draw_face_local(canvas: Canvas, card: Card, ctx: FaceContext, extent: Extent) -> None:
    """The face in card coordinates, clipped to the cut plus ``extent`` of bleed."""
    left, bottom, right, top = extent
    layout = ctx.layout
    area = Box(-left, -bottom, layout.width + left + right, layout.height + bottom + top)
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(*area.pt())
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.setFillColor(ctx.palette.paper)
    canvas.rect(*area.pt(), stroke=0, fill=1)
    text = TextLayer()
    _draw_panels(canvas, card, ctx)
    _draw_index(canvas, card, ctx)
    canvas.saveState()
    canvas.translate(mm(layout.width), mm(layout.height))
    canvas.rotate(180)
    _draw_index(canvas, card, ctx)
    canvas.restoreState()
    _draw_name(card, ctx, text)
    plan: PicturePlan | None = None if card.joker else plan_picture(card, ctx.ranges, layout)
    label = None if plan is None else ctx.words.type_label(plan.kind)
    draw_picture(canvas, card, plan, label, layout, ctx.palette, ctx.forms)
    if card.joker:
        _draw_joker_rules(ctx, text)
    else:
        for row, category in enumerate(CATEGORIES):
            _draw_row(canvas, card, ctx, category, row, text)
    _draw_small_print(canvas, card, ctx, text)
    text.draw(canvas)
    canvas.restoreState()


def _add_text(
    text: TextLayer,
    line: str,
    style: TextStyle,
    colour: Color,
    x: float,
    y: float,
    size: float | None = None,
    squeeze: float = 100.0,
) -> None:
    """Queue ``line`` in ``style`` (its font, size unless given, and alignment)."""
    size = style.size if size is None else size
    text.add(line, style.face, size, colour, x, y, style.align, squeeze)


# The panels -----------------------------------------------------------------------------


def _row_top(layout: CardLayout, row: int) -> float:
    """Top of category row ``row`` (mm)."""
    rows = layout.boxes.rows
    return rows.top - row * rows.h / len(CATEGORIES)


def _draw_panels(canvas: Canvas, card: Card, ctx: FaceContext) -> None:
    """The name panel, the picture's sky and the rules between the rows: what every plant
    card (or every joker) has in the same place, as one form.

    Forms hold shapes only: text stays in the page's own content, where every PDF
    reader finds it at its place.
    """
    pal = ctx.palette
    layout = ctx.layout
    radius = mm(layout.spec.card.corner_radius)

    def draw(c: Canvas) -> None:
        c.setFillColor(pal.accent)
        c.roundRect(*layout.boxes.name.pt(), radius=radius, stroke=0, fill=1)
        c.setFillColor(pal.accent_pale)
        c.roundRect(*layout.boxes.picture.pt(), radius=radius, stroke=0, fill=1)
        if card.joker:
            return
        x0, x1 = mm(layout.boxes.rows.x), mm(layout.boxes.rows.right)
        c.setStrokeColor(pal.track)
        c.setLineWidth(layout.spec.rows.rule_width)
        for row in range(1, len(CATEGORIES)):
            c.line(x0, mm(_row_top(layout, row)), x1, mm(_row_top(layout, row)))

    name = ctx.forms("BaseJoker" if card.joker else "BasePlant")
    place(canvas, name, (0, 0, mm(layout.width), mm(layout.height)), draw, 0, 0)


# The corner index -----------------------------------------------------------------------


def _draw_index(canvas: Canvas, card: Card, ctx: FaceContext) -> None:
    """The value over the suit pip in the top-left corner (a joker: JOKER, downwards)."""
    layout = ctx.layout
    box = layout.boxes.index
    cx = mm(box.x + box.w / 2)
    top = mm(box.top)
    text = TextLayer()
    if card.joker:
        style = layout.styles.index_joker
        size = style.size
        colour = ctx.palette.named(style.colour)
        for i, letter in enumerate(ctx.words.index_joker):
            y = top - size * CAP_HEIGHT - i * size * style.leading
            _add_text(text, letter, style, colour, cx, y)
        text.draw(canvas)
        return
    if card.suit is None or card.value is None:
        raise RenderError(f"card {card.id}: a plant card needs a suit and a value")
    suit = card.suit
    style = layout.styles.index_value
    size = style.size
    value = VALUE_INDEX.get(card.value, str(card.value))
    width = text_width(value, style.face, size)
    squeeze = min(100.0, 100.0 * mm(box.w) / width)  # "10" is narrowed, keeping its height
    colour = ctx.palette.named(style.colour, suit)
    _add_text(text, value, style, colour, cx, top - size * CAP_HEIGHT, squeeze=squeeze)
    text.draw(canvas)
    measures = layout.spec.index
    pip_y = top - size * CAP_HEIGHT - mm(measures.pip_gap) - mm(measures.pip_size / 2)
    pip = mm(measures.pip_size)

    def draw_pip(c: Canvas) -> None:
        c.setFillColor(ctx.palette.suit_colour(suit))
        draw_suit(c, suit, 0, 0, pip)

    place(canvas, ctx.forms(f"Pip{ascii_name(suit)}"), square(pip), draw_pip, cx, pip_y)


# The name -------------------------------------------------------------------------------


def card_name_fit(card: Card, layout: CardLayout) -> NameFit:
    """The plant's name shrunk or wrapped into the name box; one that cannot fit is an error
    (the validator reports it first, with the same fitting)."""
    if card.joker:
        return fit_name("Joker", layout)
    fit = fit_name(card.name or "", layout)
    if not fit.fits:
        raise RenderError(f"card {card.id} ({card.name}): {fit.reason}")
    return fit


def _draw_name(card: Card, ctx: FaceContext, text: TextLayer) -> None:
    """The name's lines centred as a block on the name panel."""
    layout = ctx.layout
    fit = card_name_fit(card, layout)
    box = layout.boxes.name_text
    style = layout.styles.name
    colour = ctx.palette.named(style.colour)
    size = fit.font_size
    lead = size * style.leading
    block = (len(fit.lines) - 1) * lead + size * CAP_HEIGHT
    baseline = mm(box.y + box.h / 2) + block / 2 - size * CAP_HEIGHT
    x = {"left": mm(box.x), "centre": mm(box.x + box.w / 2), "right": mm(box.right)}[style.align]
    for line in fit.lines:
        _add_text(text, line, style, colour, x, baseline, size=size)
        baseline -= lead


# The category rows ----------------------------------------------------------------------


def _draw_row(
    canvas: Canvas, card: Card, ctx: FaceContext, category: Category, row: int, text: TextLayer
) -> None:
    """Label, figure and nr. pill on one line; below, a bar of the figure against the
    deck's range, with TOPP 3 or USYNLIG at its end on a marked card."""
    pal = ctx.palette
    layout = ctx.layout
    styles = layout.styles
    measures = layout.spec.rows
    rows = layout.boxes.rows
    top = _row_top(layout, row)
    x0, x1 = mm(rows.x), mm(rows.right)
    if card.nr is None:
        raise RenderError(f"card {card.id}: a plant card needs nr. in every category")
    nr = card.nr.get(category)
    top3 = card.flags.top3.get(category)
    invisible = card.flags.invisible.get(category)
    baseline = mm(top - measures.label_baseline)
    label = ctx.words.row_labels[category]
    label_style = styles.row_label
    _add_text(text, label, label_style, pal.named(label_style.colour), x0, baseline)
    # Figure, right-aligned before the nr. pill; smaller if it would reach the label
    pill_w = mm(measures.pill_width)
    pill_x = x1 - pill_w
    figure_right = pill_x - mm(measures.figure_gap)
    figure = format_figure(card.figure(category), category, ctx.decimals[category])
    label_w = text_width(label, label_style.face, label_style.size)
    room = figure_right - x0 - label_w - mm(measures.label_gap)
    fig_style = styles.figure
    full = fig_style.size
    figure_size = min(full, full * room / text_width(figure, fig_style.face, full))
    colour = pal.named(fig_style.colour)
    _add_text(text, figure, fig_style, colour, figure_right, baseline, figure_size)
    # nr. pill, with the mark of a top-3 or an invisible card
    marked = top3 or invisible
    pill_y = baseline - mm(measures.pill_drop)
    kind = "top3" if top3 else "invisible" if invisible else "plain"
    _draw_pill(canvas, ctx, kind, pill_x, pill_y)
    nr_text = ctx.words.nr(nr)
    nr_style = styles.nr
    nr_w = text_width(nr_text, nr_style.face, nr_style.size)
    if marked:
        left = pill_x + _pill_icon_x(layout) + mm(measures.pill_icon) / 2
        text_x = (left + pill_x + pill_w - nr_w) / 2
    else:
        text_x = pill_x + (pill_w - nr_w) / 2
    _add_text(text, nr_text, nr_style, pal.named(nr_style.colour), text_x, baseline)
    # Bar: the figure against the deck's range; the mark's word at its end
    bar_h = mm(measures.bar_height)
    bar_mid = mm(top - measures.bar_centre) + bar_h / 2
    bar_end = figure_right
    if marked:
        tag = ctx.words.top3 if top3 else ctx.words.invisible
        tag_style = styles.tag
        colour = pal.named(tag_style.colour)  # 6 pt: black alone, register-safe
        tag_y = bar_mid - tag_style.size * CAP_HEIGHT / 2
        _add_text(text, tag, tag_style, colour, figure_right, tag_y)
        tag_w = text_width(tag, tag_style.face, tag_style.size)
        bar_end = figure_right - tag_w - mm(measures.tag_gap)
    bar_w = bar_end - x0
    share = bar_share(card.figure(category), ctx.ranges[category])
    canvas.setLineCap(1)
    canvas.setLineWidth(bar_h)
    canvas.setStrokeColor(pal.track)
    canvas.line(x0 + bar_h / 2, bar_mid, x0 + bar_w - bar_h / 2, bar_mid)
    canvas.setStrokeColor(pal.gold if top3 else pal.muted if invisible else pal.accent)
    filled = max(bar_h, bar_w * share)
    canvas.line(x0 + bar_h / 2, bar_mid, x0 + filled - bar_h / 2 + 0.01, bar_mid)
    canvas.setLineCap(0)


def _pill_icon_x(layout: CardLayout) -> float:
    """Centre of the mark inside a pill, from the pill's left edge (points)."""
    rows = layout.spec.rows
    return mm(rows.pill_icon_inset) + mm(rows.pill_icon) / 2


def _draw_pill(canvas: Canvas, ctx: FaceContext, kind: str, x: float, y: float) -> None:
    """An nr. pill: kind 'plain', 'top3' (gold, star) or 'invisible' (dashed, eye)."""
    pal = ctx.palette
    rows = ctx.layout.spec.rows
    w, h = mm(rows.pill_width), mm(rows.pill_height)
    icon = mm(rows.pill_icon)
    icon_x = _pill_icon_x(ctx.layout)
    radius = h / 2

    def draw(c: Canvas) -> None:
        if kind == "top3":
            c.setFillColor(pal.gold_pale)
            c.setStrokeColor(pal.gold)
            c.setLineWidth(1.0)
            c.roundRect(0, 0, w, h, radius, stroke=1, fill=1)
            c.setFillColor(pal.gold)
            draw_shape(c, STAR, icon_x, h / 2, icon)
        elif kind == "invisible":
            c.setFillColor(pal.white)
            c.setStrokeColor(pal.ink)
            c.setLineWidth(0.8)
            c.setDash(1.6, 1.1)
            c.roundRect(0, 0, w, h, radius, stroke=1, fill=1)
            c.setDash()
            draw_eye_slash(c, icon_x, h / 2, icon, 0.6)
        else:
            c.setFillColor(pal.pill)
            c.roundRect(0, 0, w, h, radius, stroke=0, fill=1)

    place(canvas, ctx.forms(f"Pill{kind}"), (-1, -1, w + 1, h + 1), draw, x, y)


# A joker's rules ------------------------------------------------------------------------


def joker_rules(language: str) -> tuple[tuple[str, str], ...]:
    """What a joker does in each game whose words say (``[games.<name>] joker`` of the
    language's words.toml), in the order of the menus: (the game's title, its rule)."""
    from kraftstokk.games.registry import specs

    games = locales.load(language).part("words").get("games", {})
    found = []
    for name, spec in specs().items():
        rule = games.get(name, {}).get("joker")
        if isinstance(rule, str):
            found.append((spec.title(language), rule))
    return tuple(found)


def _joker_lines(
    rules: tuple[tuple[str, str], ...], layout: CardLayout, scale: float = 1.0
) -> list[JokerLine]:
    """Each line of the joker's rules with its style, its size (the style's times
    ``scale``) and its baseline in points below the rows box's top: a game's title, then
    its rule wrapped to the box's width."""
    game_style, rule_style = layout.styles.joker_game, layout.styles.joker_rule
    game_size, rule_size = game_style.size * scale, rule_style.size * scale
    width = mm(layout.boxes.rows.w)
    lines = []
    y = -mm(layout.spec.joker.rules_top)
    for game, rule in rules:
        lines.append((game, game_style, game_size, y))
        y -= game_size * game_style.leading
        for line in wrap(rule, rule_style.face, rule_size, width):
            lines.append((line, rule_style, rule_size, y))
            y -= rule_size * rule_style.leading
        y -= rule_size * layout.spec.joker.game_gap
    return lines


def fitted_joker_lines(rules: tuple[tuple[str, str], ...], layout: CardLayout) -> list[JokerLine]:
    """The joker's rules at their styles' sizes, or smaller as far as the small print's
    size where more games' rules need the room, so the last line stays inside the rows
    box; a RenderError where they do not fit even so."""
    styles = layout.styles
    floor = styles.small_print.size / max(styles.joker_game.size, styles.joker_rule.size)
    height = mm(layout.boxes.rows.h)
    scale = 1.0
    while True:
        lines = _joker_lines(rules, layout, scale)
        if not lines or -lines[-1][3] <= height:
            return lines
        if scale <= floor:
            break
        scale = max(floor, scale - 0.02)
    raise RenderError(
        f"layout {layout.name}: the joker's rules of {len(rules)} games ([games.<name>] joker "
        f"in words.toml) need {-lines[-1][3] / mm(1):.1f} mm at {lines[-1][2]:g} pt, the "
        f"smallest print; the rows box is {layout.boxes.rows.h:.1f} mm high: shorten a rule"
    )


def _draw_joker_rules(ctx: FaceContext, text: TextLayer) -> None:
    """Where the rows are on a plant card: what a joker does in each game."""
    rows = ctx.layout.boxes.rows
    x0, top = mm(rows.x), mm(rows.top)
    for line, style, size, y in ctx.joker_lines:
        _add_text(text, line, style, ctx.palette.named(style.colour), x0, top + y, size)


# The small print ------------------------------------------------------------------------


def _draw_small_print(canvas: Canvas, card: Card, ctx: FaceContext, text: TextLayer) -> None:
    """The deck's small print at the foot, and above it a Strømkrig card's special use."""
    pal = ctx.palette
    layout = ctx.layout
    box = layout.boxes.footer
    style = layout.styles.small_print
    measures = layout.spec.footer
    x = mm(box.x)
    size = style.size
    y = mm(box.y) + mm(measures.lift)
    note = ctx.words.note(card)
    small_print = ctx.own_small_print.get(card.id, ctx.small_print)
    for line in reversed((*([note] if note else []), *small_print)):
        _add_text(text, line, style, pal.named(style.colour), x, y)
        y += size * style.leading
    special = ctx.words.special_line(card)
    if special:
        special_style = layout.styles.special
        canvas.setFillColor(pal.accent_dark)
        bolt_x, bolt_y = x + mm(measures.bolt_centre), y + mm(measures.bolt_lift)
        draw_shape(canvas, BOLT, bolt_x, bolt_y, mm(measures.bolt_size))
        colour = pal.named(special_style.colour)
        text_x, text_y = x + mm(measures.special_indent), y + mm(measures.special_lift)
        _add_text(text, special, special_style, colour, text_x, text_y)
