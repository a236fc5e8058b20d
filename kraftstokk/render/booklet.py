"""The rules booklet: A5 pages laid out with reportlab platypus, styled like the cards.

:func:`build_booklet` turns a deck into PDF bytes in one language; :func:`write_booklet`
writes ``regler.pdf`` / ``rules-en.pdf`` and, on request, the A4 saddle-stitch file.
Content comes from :mod:`booklet_content` (blocks of :mod:`kraftstokk.design.blocks`); this
module only decides how they look.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from reportlab.lib.colors import Color
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A5
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    KeepInFrame,
    KeepTogether,
    ListFlowable,
    ListItem,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.doctemplate import LayoutError as ReportlabLayoutError
from reportlab.platypus.tableofcontents import TableOfContents

from kraftstokk.atomic import write_files
from kraftstokk.design.blocks import (
    Block,
    Bullets,
    CardRow,
    CardTable,
    Contents,
    Example,
    Grid,
    Heading,
    IfRoom,
    Language,
    Numbered,
    Para,
    QuickReference,
    TitlePage,
    WholeSheets,
    Words,
    escape,
    figure,
)
from kraftstokk.design.fonts import SANS, SANS_BOLD, register_fonts
from kraftstokk.design.geometry import Box, mm
from kraftstokk.design.layout import CardLayout, load_layout
from kraftstokk.design.palette import (
    RGB,
    Palette,
    PrintColour,
    colour_enforcer,
    palette_from_style,
)
from kraftstokk.design.presets import deck_layout_name
from kraftstokk.errors import RenderError, clip
from kraftstokk.models import CATEGORIES, VALUE_INDEX, Card, Deck
from kraftstokk.progress import PERMILLE, Progress, ProgressFactory, Steps, step
from kraftstokk.render.booklet_content import booklet_blocks
from kraftstokk.render.booklet_styles import load_styles
from kraftstokk.render.suits import draw_suit

PAGE_WIDTH, PAGE_HEIGHT = A5
MARGIN_X = mm(14)
MARGIN_TOP = mm(15)
MARGIN_BOTTOM = mm(17)
CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X
FRAME_HEIGHT = PAGE_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
#: The smallest a one-page block is drawn to fit its page: its 7.5 pt table text at 6 pt.
ONE_PAGE_SCALE = 0.8
#: The table of the games: game, players, cards, deal (shares of the text width).
GAMES_COLUMNS = (0.24, 0.14, 0.2, 0.42)
CARD_GAP = mm(3.5)
SMALL_CARD_SCALE = 0.36
SINGLE_CARD_SCALE = 0.62
#: A row of card pictures that does not fit what is left of a page is drawn this much
#: smaller, the largest that fits, rather than leaving the rest of the page empty.
PICTURE_SHRINKS = (0.92, 0.84, 0.76)
TITLE_CARD_SCALE = 0.5


def table_style(commands: Sequence[tuple[Any, ...]]) -> TableStyle:
    """A table style in the booklet font (reportlab's default would be Helvetica)."""
    return TableStyle([("FONT", (0, 0), (-1, -1), SANS, 9), *commands])


# --- Flowables ---------------------------------------------------------------------------


def deck_layout(deck: Deck) -> CardLayout:
    """The card layout the deck is rendered in: the booklet shows the cards as printed."""
    return load_layout(deck_layout_name(deck))


class CardPicture(Flowable):  # type: ignore[misc]
    """One card of the deck, drawn by the card renderer at ``scale``."""

    def __init__(self, card: Card, deck: Deck, scale: float, colour: PrintColour = RGB) -> None:
        super().__init__()
        self.colour = colour
        self.card = card
        self.deck = deck
        self.scale = scale
        self.layout = deck_layout(deck)
        self.width = mm(self.layout.width) * scale
        self.height = mm(self.layout.height) * scale

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        from kraftstokk.render.miniature import draw_miniature

        # A picture of the card, not the card's vector drawing scaled down: scaled, its
        # text would be 1.7 pt and its lines 0.13 pt, too fine to print.
        draw_miniature(
            self.canv, self.deck, self.layout, self.card, self.width, self.height, self.colour
        )


class CardBackPicture(Flowable):  # type: ignore[misc]
    """The deck's card back, drawn by the card renderer at ``scale``."""

    def __init__(self, deck: Deck, scale: float, colour: PrintColour = RGB) -> None:
        super().__init__()
        self.colour = colour
        self.deck = deck
        self.scale = scale
        self.layout = deck_layout(deck)
        self.width = mm(self.layout.width) * scale
        self.height = mm(self.layout.height) * scale

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        from kraftstokk.render.miniature import draw_miniature

        draw_miniature(
            self.canv, self.deck, self.layout, None, self.width, self.height, self.colour
        )


class SuitIndex(Flowable):  # type: ignore[misc]
    """The card column of the appendix: the suit drawn as a vector shape, then the index."""

    def __init__(self, card: Card, palette: Palette, size: float = 8.0) -> None:
        super().__init__()
        self.card = card
        self.palette = palette
        self.size = size
        self.width = size * 2.6
        self.height = size * 1.1

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        canvas = self.canv
        canvas.setFillColor(self.palette.suit_colour(self.card.suit))
        draw_suit(canvas, self.card.suit or "spar", self.size * 0.45, self.size * 0.45, self.size)
        value = self.card.value or 0
        canvas.setFont(SANS_BOLD, self.size)
        canvas.drawString(self.size * 1.05, self.size * 0.1, VALUE_INDEX.get(value, str(value)))


class BookmarkedHeading(Paragraph):  # type: ignore[misc]
    """A heading that enters the table of contents and the PDF outline."""

    def __init__(self, text: str, style: ParagraphStyle, level: int, key: str) -> None:
        super().__init__(text, style)
        self.toc_level = level
        self.bookmark_key = key

    def split(self, avail_width: float, avail_height: float) -> list[Any]:
        """A heading is never split: it moves to the next page whole."""
        return []


class BookletDoc(BaseDocTemplate):  # type: ignore[misc]
    """A5 pages: a plain title page, then pages with a running footer and page number."""

    def __init__(
        self,
        target: io.BytesIO,
        deck: Deck,
        words: Words,
        palette: Palette,
        colour: PrintColour = RGB,
        subject: str = "",
    ) -> None:
        super().__init__(
            target,
            enforceColorSpace=colour_enforcer(colour),
            pagesize=A5,
            leftMargin=MARGIN_X,
            rightMargin=MARGIN_X,
            topMargin=MARGIN_TOP,
            bottomMargin=MARGIN_BOTTOM,
            title=words.document_title.format(title=deck.title),
            author="kraftstokk",
            subject=subject,
            creator="kraftstokk",
            invariant=1,
            lang=words.code,
            # Without this every page would name (not use) an unembedded Helvetica.
            initialFontName=SANS,
        )
        self.deck = deck
        self.palette = palette
        self.words = words
        frame = Frame(
            MARGIN_X,
            MARGIN_BOTTOM,
            CONTENT_WIDTH,
            PAGE_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM,
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
            id="body",
        )
        self.addPageTemplates(
            [
                PageTemplate(id="title", frames=[frame], onPage=self._title_page),
                PageTemplate(id="body", frames=[frame], onPage=self._body_page),
                PageTemplate(id="notes", frames=[frame], onPage=self._notes_page),
            ]
        )
        self.notes_heading = ""

    def _title_page(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        # The bands run BOOKLET_BLEED past the page: the bleed of the print-shop file.
        canvas.saveState()
        canvas.setFillColor(self.palette.accent)
        b = mm(BOOKLET_BLEED)
        width = PAGE_WIDTH + 2 * b
        canvas.rect(-b, PAGE_HEIGHT - mm(9), width, mm(9) + b, stroke=0, fill=1)
        canvas.rect(-b, -b, width, mm(9) + b, stroke=0, fill=1)
        canvas.restoreState()

    def _body_page(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        canvas.saveState()
        page = canvas.getPageNumber()
        y = mm(9)
        canvas.setStrokeColor(self.palette.accent_light)
        canvas.setLineWidth(0.6)
        canvas.line(MARGIN_X, y + mm(4.5), PAGE_WIDTH - MARGIN_X, y + mm(4.5))
        canvas.setFillColor(self.palette.fine_muted)
        canvas.setFont(SANS, 7.5)
        title = self.deck.title
        if page % 2 == 0:
            canvas.drawString(MARGIN_X, y, str(page))
            canvas.drawRightString(PAGE_WIDTH - MARGIN_X, y, title)
        else:
            canvas.drawString(MARGIN_X, y, title)
            canvas.drawRightString(PAGE_WIDTH - MARGIN_X, y, str(page))
        canvas.restoreState()

    def _notes_page(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        """A page that brings the booklet to whole sheets: a heading and faint lines."""
        self._body_page(canvas, doc)
        canvas.saveState()
        top = PAGE_HEIGHT - MARGIN_TOP
        canvas.setFillColor(self.palette.accent_dark)
        canvas.setFont(SANS_BOLD, 15)
        canvas.drawString(MARGIN_X, top - 15, self.notes_heading)
        canvas.setStrokeColor(self.palette.track)
        canvas.setLineWidth(0.5)
        y = top - mm(14)
        while y > MARGIN_BOTTOM + mm(2):
            canvas.line(MARGIN_X, y, PAGE_WIDTH - MARGIN_X, y)
            y -= mm(8)
        canvas.restoreState()

    def handle_flowable(self, flowables: list[Flowable]) -> None:
        if flowables and isinstance(flowables[0], IfRoomGroup):
            group = flowables.pop(0).content
            frame = getattr(self, "frame", None)
            if frame is not None and not frame._atTop and _fits(frame, group, self.canv):
                flowables[:0] = group
            return
        if flowables and isinstance(flowables[0], ExampleBox):
            self._let_text_pass(flowables)
        if flowables:
            self._shrink_pictures(flowables)
        if flowables and isinstance(flowables[0], PadToSheets):
            marker = flowables.pop(0)
            self.notes_heading = marker.notes_heading
            used = self.page - (1 if self.frame._atTop else 0)
            breaks: list[Flowable] = []
            for _ in range(-used % 4):  # the spacer begins the page the break asks for
                breaks += [NextPageTemplate("notes"), PageBreak(), Spacer(1, 1)]
            flowables[:0] = breaks
            return
        super().handle_flowable(flowables)

    def _let_text_pass(self, flowables: list[Flowable]) -> None:
        """An example kept whole that does not fit on what is left of the page waits for
        the next page's top, and the text after it (up to the next chapter or example)
        fills this page first, one piece at a time while pieces fit, so the page before it
        is not left part empty. A section's heading passes only together with the start
        of its text."""
        frame = self.frame
        if getattr(frame, "_atTop", True) or _fits(frame, flowables[:1], self.canv):
            return
        group = _passing_group(flowables[1:])
        if group and _fits(frame, group, self.canv):
            del flowables[1 : 1 + len(group)]
            flowables[:0] = group

    def _shrink_pictures(self, flowables: list[Flowable]) -> None:
        """A row of card pictures (with the text that introduces it) that does not fit on
        what is left of the page is drawn smaller, the largest of PICTURE_SHRINKS that
        fits, rather than moving to the next page and leaving this one part empty."""
        frame = getattr(self, "frame", None)
        first = flowables[0]
        kept = isinstance(first, KeepTogether)
        parts: list[Flowable] = list(first._content) if kept else [first]
        if not any(isinstance(part, PictureRow) for part in parts):
            return
        if frame is None or getattr(frame, "_atTop", True) or _fits(frame, [first], self.canv):
            return
        for shrink in PICTURE_SHRINKS:
            trial = [p.smaller(shrink) if isinstance(p, PictureRow) else p for p in parts]
            if _fits(frame, trial, self.canv):
                flowables[0] = KeepTogether(trial) if kept else trial[0]
                return

    def afterFlowable(self, flowable: Flowable) -> None:
        if isinstance(flowable, OnePage):
            flowable = flowable.heading
        if isinstance(flowable, BookmarkedHeading):
            text = flowable.getPlainText()
            key = flowable.bookmark_key
            self.canv.bookmarkPage(key)
            self.canv.addOutlineEntry(text, key, level=flowable.toc_level, closed=False)
            self.notify("TOCEntry", (flowable.toc_level, text, self.page, key))


class ExampleBox(Table):  # type: ignore[misc]
    """A worked example: a shaded box that is never split over two pages."""


class PictureRow(Table):  # type: ignore[misc]
    """A row of card pictures with their captions, never split; ``smaller`` makes the same
    row with its pictures drawn smaller (see :meth:`BookletDoc._shrink_pictures`)."""

    def __init__(self, *args: Any, smaller: Callable[[float], PictureRow], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._smaller = smaller

    def smaller(self, shrink: float) -> PictureRow:
        return self._smaller(shrink)


def _fits(frame: Frame, flowables: Sequence[Flowable], canvas: Canvas) -> bool:
    """Whether ``flowables`` fit whole, one after the other, on what is left of
    ``frame`` (measured as ``Frame.add`` measures: the first one's space before counts
    unless the frame is at its top)."""
    unwrapped = _unwrapped(flowables)
    measured = [f for f in unwrapped if not isinstance(f, CondPageBreak)]
    first = measured[0]
    # The space after the text before overlaps the first one's space before, unless a
    # section's CondPageBreak comes between (the frame adds it, with no space after).
    before = 0.0 if isinstance(unwrapped[0], CondPageBreak) else frame._prevASpace
    space = 0.0 if frame._atTop else max(first.getSpaceBefore() - before, 0)
    height = frame._y - frame._y1p - space
    if height <= 0:
        return False
    width = frame._getAvailableWidth()
    needed = 0.0
    for i, flowable in enumerate(measured):
        flowable.canv = canvas
        if i:
            needed += flowable.getSpaceBefore()
        needed += flowable.wrap(width, height)[1] + flowable.getSpaceAfter()
    return bool(needed - measured[-1].getSpaceAfter() <= height + 1e-6)


def _unwrapped(flowables: Sequence[Flowable]) -> list[Flowable]:
    """``flowables`` with each KeepTogether replaced by what it keeps together (its own
    ``wrap`` asks for more than any page, to make the frame split it)."""
    out: list[Flowable] = []
    for flowable in flowables:
        if isinstance(flowable, KeepTogether):
            out += _unwrapped(flowable._content)
        else:
            out.append(flowable)
    return out


def _passing_group(following: list[Flowable]) -> list[Flowable]:
    """What may go before an example that waits for the next page: the next block of
    running text (a paragraph, or a whole list: a list is never split around an
    example), or a section's heading with its first block; nothing when a chapter, a
    page break, another example or a one-page block comes next."""
    if not following:
        return []
    first = following[0]
    if isinstance(first, CondPageBreak) and len(following) >= 3:
        heading = following[1]
        if isinstance(heading, BookmarkedHeading) and heading.toc_level > 0:
            block = _first_block(following[2:])
            return [first, heading, *block] if block else []
        return []
    return _first_block(following)


def _first_block(following: list[Flowable]) -> list[Flowable]:
    """The block of running text ``following`` starts with: one paragraph, or every item
    of a list; empty when it starts with anything else."""
    first = following[0] if following else None
    if isinstance(first, BookmarkedHeading) or first is None:
        return []
    if _is_list(first):
        run = 0
        while run < len(following) and _is_list(following[run]):
            run += 1
        return following[:run]
    return [first] if isinstance(first, Paragraph | KeepTogether) else []


def _is_list(flowable: Flowable) -> bool:
    """A list item, or list items kept together."""
    if isinstance(flowable, KeepTogether):
        return all(_is_list(part) for part in flowable._content)
    return isinstance(flowable, ListFlowable)


class OnePage(Flowable):  # type: ignore[misc]
    """Content that stays on one page: on the page it falls on if it fits what is left,
    else whole on the next, never a page that runs over. Taller than a page (long plant
    names in its table, say) it is drawn smaller, down to :data:`ONE_PAGE_SCALE` (its
    smallest text then still prints at 6 pt); beyond that it is an error naming it.
    ``heading`` enters the contents and the outline."""

    def __init__(self, content: list[Flowable], heading: BookmarkedHeading) -> None:
        super().__init__()
        self.heading = heading
        self.content = content
        self.inner = KeepInFrame(CONTENT_WIDTH, FRAME_HEIGHT, content, mode="shrink")

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        canvas = getattr(self, "canv", None)
        natural = sum(
            part.wrapOn(canvas, available_width, FRAME_HEIGHT)[1] for part in self.content
        )
        if natural * ONE_PAGE_SCALE > FRAME_HEIGHT:
            raise RenderError(
                f"{self.heading.getPlainText()!r} does not fit one page even drawn at "
                f"{ONE_PAGE_SCALE:.0%} of its size ({natural:.0f} of {FRAME_HEIGHT:.0f} pt): "
                "its texts, or this deck's plant names in its table, are too long"
            )
        self.inner.canv = canvas
        width, height = self.inner.wrap(available_width, FRAME_HEIGHT)
        self.width, self.height = width, height
        return width, height

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        return []  # never split: the frame moves it whole to the next page

    def draw(self) -> None:
        self.inner.drawOn(self.canv, 0, 0)


class _Marker(Flowable):  # type: ignore[misc]
    """A flowable that takes no room and draws nothing: :class:`BookletDoc` acts on it."""

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return 0, 0

    def draw(self) -> None:
        pass


class IfRoomGroup(_Marker):
    """An :class:`IfRoom` block: :class:`BookletDoc` puts its content on the page when it
    fits whole on what is left of it, else leaves it out."""

    def __init__(self, content: list[Flowable]) -> None:
        super().__init__()
        self.content = content


class PadToSheets(_Marker):
    """The booklet's end: :class:`BookletDoc` adds notes pages after it, so that the
    booklet fills whole sheets (a multiple of four pages), on screen as in print, and
    the saddle-stitch file needs no blank page of its own."""

    def __init__(self, notes_heading: str) -> None:
        super().__init__()
        self.notes_heading = notes_heading


# --- Blocks to flowables -----------------------------------------------------------------


class StoryBuilder:
    """Turns blocks into platypus flowables for one deck and language."""

    def __init__(
        self, deck: Deck, words: Words, palette: Palette, colour: PrintColour = RGB
    ) -> None:
        self.colour = colour
        self.deck = deck
        self.card_layout = deck_layout(deck)
        self.words = words
        self.palette = palette
        self.styles = load_styles(palette)
        self.heading_count = 0

    def story(self, blocks: Sequence[Block]) -> list[Flowable]:
        story: list[Flowable] = []
        for i, block in enumerate(blocks):
            flowables = self.block(block)
            previous = blocks[i - 1] if i > 0 else None
            introduced = isinstance(previous, Para | Bullets) and (
                isinstance(block, CardRow)
                or (
                    isinstance(block, Bullets)
                    and isinstance(previous, Para)
                    and previous.text.endswith(":")
                )
            )
            if introduced and story:
                # Pictures and lists start on the page of the text that introduces them.
                # One level of keeping: a KeepTogether inside another asks for more than
                # any page (its wrap forces a split), which broke the page before every
                # picture row introduced by a list's last two items, however much room
                # was left.
                before = story[-1]
                kept = list(before._content) if isinstance(before, KeepTogether) else [before]
                story[-1] = KeepTogether([*kept, flowables[0]])
                story.extend(flowables[1:])
                continue
            story.extend(flowables)
        return story

    def block(self, block: Block) -> list[Flowable]:
        if isinstance(block, Heading):
            return self.heading(block)
        if isinstance(block, Para):
            return [Paragraph(block.text, self.styles.body)]
        if isinstance(block, Bullets):
            return self.bullets(block.items)
        if isinstance(block, CardRow):
            return [self.card_row(block.cards, block.captions, face_down=block.face_down)]
        if isinstance(block, Example):
            return self.example(block)
        if isinstance(block, Contents):
            return self.contents(block)
        if isinstance(block, CardTable):
            return [self.card_table(block)]
        if isinstance(block, Numbered):
            return [self.steps(block.items, self.styles.body)]
        if isinstance(block, Grid):
            shares = block.shares or GAMES_COLUMNS
            return [self.grid(block, [CONTENT_WIDTH * share for share in shares])]
        if isinstance(block, QuickReference):
            return self.quick_reference(block)
        if isinstance(block, WholeSheets):
            return [PadToSheets(block.heading)]
        if isinstance(block, IfRoom):
            return [IfRoomGroup([f for part in block.blocks for f in self.block(part)])]
        return self.title_page(block)

    def heading(self, block: Heading) -> list[Flowable]:
        self.heading_count += 1
        key = f"h{self.heading_count}"
        level = 0 if block.level == 1 else 1
        style = self.styles.h1 if block.level == 1 else self.styles.h2
        paragraph = BookmarkedHeading(block.text, style, level, key)
        paragraph.keepWithNext = 1
        if block.level == 1:
            rule = Table([[""]], colWidths=[CONTENT_WIDTH], rowHeights=[2.2])
            rule.setStyle(table_style([("BACKGROUND", (0, 0), (-1, -1), self.palette.accent)]))
            return [PageBreak(), paragraph, rule, Spacer(1, 8)]
        # Keep a section heading with the start of its text.
        return [CondPageBreak(mm(16)), paragraph]

    def bullets(self, items: Sequence[str]) -> list[Flowable]:
        """One list per item, so that a page may break between items but not inside one.

        The last two items stay together: a list never ends with one item alone on a page.
        """
        lists: list[Flowable] = [
            ListFlowable(
                [ListItem(Paragraph(item, self.styles.bullet), leftIndent=11)],
                bulletType="bullet",
                start="\u2022",
                bulletFontName=SANS_BOLD,
                bulletFontSize=8,
                bulletColor=self.palette.accent,
                leftIndent=11,
                spaceAfter=4 if i == len(items) - 1 else 0,
            )
            for i, item in enumerate(items)
        ]
        if len(lists) >= 3:
            lists[-2:] = [KeepTogether(lists[-2:])]
        return lists

    def card_row(
        self,
        cards: Sequence[Card],
        captions: Sequence[str],
        width: float = CONTENT_WIDTH,
        face_down: frozenset[int] = frozenset(),
        shrink: float = 1.0,
    ) -> Flowable:
        if not cards:
            return Spacer(1, 0)
        scale = SINGLE_CARD_SCALE if len(cards) == 1 and not captions else SMALL_CARD_SCALE
        card_width = mm(self.card_layout.width) * scale
        fit = (width - CARD_GAP * (len(cards) - 1)) / (len(cards) * mm(self.card_layout.width))
        scale = min(scale, fit) * shrink
        card_width = mm(self.card_layout.width) * scale
        pictures: list[Any] = [
            CardBackPicture(self.deck, scale, self.colour)
            if i in face_down
            else CardPicture(card, self.deck, scale, self.colour)
            for i, card in enumerate(cards)
        ]
        rows: list[list[Any]] = [pictures]
        if captions:
            rows.append([Paragraph(escape(text), self.styles.caption) for text in captions])
        widths = [card_width + CARD_GAP] * len(cards)

        def smaller(factor: float) -> PictureRow:
            row = self.card_row(cards, captions, width, face_down, shrink * factor)
            assert isinstance(row, PictureRow)
            return row

        table = PictureRow(rows, colWidths=widths, hAlign="CENTER", smaller=smaller)
        table.setStyle(
            table_style(
                [
                    ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("NOSPLIT", (0, 0), (-1, -1)),
                    ("LEFTPADDING", (0, 0), (-1, -1), CARD_GAP / 2),
                    ("RIGHTPADDING", (0, 0), (-1, -1), CARD_GAP / 2),
                    ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
                ]
            )
        )
        table.spaceAfter = 6
        return table

    def example(self, block: Example) -> list[Flowable]:
        """A shaded box, one table row per part, kept whole on one page: one that does
        not fit where it falls waits for the next page while the text after it fills
        this one (:meth:`BookletDoc._let_text_pass`)."""
        inner_width = CONTENT_WIDTH - 2 * mm(3)
        rows: list[list[Any]] = [[Paragraph(block.title, self.styles.example_title)]]
        for part in block.body:
            if isinstance(part, CardRow):
                rows.append([self.card_row(part.cards, part.captions, inner_width, part.face_down)])
            elif isinstance(part, Bullets):
                rows.append([self.bullets(part.items)])
            else:
                rows.append([Paragraph(part.text, self.styles.body)])
        last = len(rows) - 1
        box = ExampleBox(rows, colWidths=[CONTENT_WIDTH])
        box.setStyle(
            table_style(
                [
                    ("BACKGROUND", (0, 0), (-1, -1), _ground_of_small_text(self.palette)),
                    ("LINEBEFORE", (0, 0), (0, -1), 2.5, self.palette.accent),
                    ("LEFTPADDING", (0, 0), (-1, -1), mm(3)),
                    ("RIGHTPADDING", (0, 0), (-1, -1), mm(3)),
                    # Inside a table the paragraphs' own spacing is lost: pad each row.
                    ("TOPPADDING", (0, 0), (-1, -1), 0),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
                    ("TOPPADDING", (0, 0), (-1, 0), mm(2.5)),
                    ("BOTTOMPADDING", (0, last), (-1, last), mm(2)),
                    ("NOSPLIT", (0, 0), (0, last)),
                ]
            )
        )
        box.spaceBefore = 4
        box.spaceAfter = 8
        return [box]

    def steps(self, items: Sequence[str], style: ParagraphStyle) -> Flowable:
        """A numbered list: the steps of a turn."""
        return ListFlowable(
            [ListItem(Paragraph(item, style), leftIndent=13) for item in items],
            bulletType="1",
            bulletFormat="%s.",
            bulletFontName=SANS_BOLD,
            bulletFontSize=style.fontSize,
            bulletColor=self.palette.accent,
            leftIndent=13,
            spaceAfter=2,
        )

    def grid(self, block: Grid, widths: Sequence[float] | None = None) -> Table:
        """A small table of text: the heading row on the accent, pale stripes below."""
        styles = self.styles
        cell, head = styles.grid_cell, styles.grid_head
        if block.figures:  # counts read down a column
            cell, head = styles.grid_figure, styles.grid_head_figure
        rows: list[list[Any]] = [[Paragraph(text, head) for text in block.headings]]
        rows += [[Paragraph(text, cell) for text in row] for row in block.rows]
        if widths is None:
            share = CONTENT_WIDTH / max(len(block.headings), 1)
            widths = [share] * len(block.headings)
        table = Table(rows, colWidths=list(widths), repeatRows=1)
        commands: list[tuple[Any, ...]] = [
            ("BACKGROUND", (0, 0), (-1, 0), self.palette.accent),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("TOPPADDING", (0, 0), (-1, -1), 2.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ("LEFTPADDING", (0, 0), (-1, -1), 3),
            ("RIGHTPADDING", (0, 0), (-1, -1), 3),
            ("LINEBELOW", (0, 1), (-1, -1), 0.5, self.palette.track),  # register-safe
        ]
        stripe = _ground_of_small_text(self.palette)
        for row in range(2, len(rows), 2):
            commands.append(("BACKGROUND", (0, row), (-1, row), stripe))
        table.setStyle(table_style(commands))
        return table

    def quick_reference(self, block: QuickReference) -> list[Flowable]:
        """The game on one page, boxed, in the contents: after the chapter's last text
        when it fits there, else on the next page."""
        styles = self.styles
        self.heading_count += 1
        title = BookmarkedHeading(block.title, styles.quick_title, 1, f"h{self.heading_count}")
        inner = CONTENT_WIDTH - 2 * mm(4)
        rows: list[list[Any]] = [[title]]
        for section in block.sections:
            part: list[Flowable] = [Paragraph(section.heading, styles.quick_heading)]
            body = section.body
            if isinstance(body, Numbered):
                part.append(self.steps(body.items, styles.quick_body))
            elif isinstance(body, Grid):
                part.append(self.grid(body, [inner * 0.46, inner * 0.54]))
            else:
                part.append(Paragraph(body.text, styles.quick_body))
            rows.append([part])
        box = Table(rows, colWidths=[CONTENT_WIDTH])
        box.setStyle(
            table_style(
                [
                    ("BOX", (0, 0), (-1, -1), 1.2, self.palette.accent),
                    ("LINEBELOW", (0, 0), (-1, 0), 1.2, self.palette.accent),
                    ("LEFTPADDING", (0, 0), (-1, -1), mm(4)),
                    ("RIGHTPADDING", (0, 0), (-1, -1), mm(4)),
                    ("TOPPADDING", (0, 0), (-1, -1), 3),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
                    ("TOPPADDING", (0, 0), (-1, 0), mm(3)),
                    ("BOTTOMPADDING", (0, 0), (-1, 0), mm(1.5)),
                    ("BOTTOMPADDING", (0, -1), (-1, -1), mm(3.5)),
                ]
            )
        )
        page = OnePage([box], title)
        page.spaceBefore = 10
        return [page]

    def contents(self, block: Contents) -> list[Flowable]:
        toc = TableOfContents(
            levelStyles=[self.styles.toc1, self.styles.toc2],
            dotsMinLevel=0,
            rightColumnWidth=mm(10),
            tableStyle=table_style(
                [
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 0.4),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 0.4),
                ]
            ),
        )
        return [
            NextPageTemplate("body"),
            PageBreak(),
            Paragraph(block.title, self.styles.contents_title),
            toc,
        ]

    def title_page(self, block: TitlePage) -> list[Flowable]:
        styles = self.styles
        flowables: list[Flowable] = [
            Spacer(1, mm(14)),
            Paragraph(block.title, styles.title),
            Paragraph(block.subtitle, styles.subtitle),
        ]
        if block.cards:
            pictures: list[Flowable] = [
                CardPicture(c, self.deck, 0, self.colour) for c in block.cards
            ]
            if block.back:
                pictures.insert(0, CardBackPicture(self.deck, 0, self.colour))
            count = len(pictures)
            fit = (CONTENT_WIDTH - CARD_GAP * (count - 1)) / (count * mm(self.card_layout.width))
            scale = min(TITLE_CARD_SCALE, fit)
            width = mm(self.card_layout.width) * scale + CARD_GAP
            for picture in pictures:
                picture.scale = scale
                picture.width = mm(self.card_layout.width) * scale
                picture.height = mm(self.card_layout.height) * scale
            row = Table(
                [pictures],
                colWidths=[width] * count,
                hAlign="CENTER",
            )
            row.setStyle(
                table_style(
                    [
                        ("LEFTPADDING", (0, 0), (-1, -1), CARD_GAP / 2),
                        ("RIGHTPADDING", (0, 0), (-1, -1), CARD_GAP / 2),
                    ]
                )
            )
            flowables += [Spacer(1, mm(8)), row, Spacer(1, mm(10))]
        flowables += [Paragraph(line, styles.title_line) for line in block.lines]
        return flowables

    def card_table(self, block: CardTable) -> Table:
        styles = self.styles
        header = [
            Paragraph(text, styles.cell_head if i < 2 else _right(styles.cell_head))
            for i, text in enumerate(block.headings)
        ]
        rows: list[list[Any]] = [header]
        plant_cards = sorted(self.deck.plant_cards, key=lambda c: c.nr.gwh if c.nr else 0)
        for card in plant_cards:
            cells: list[Any] = [
                SuitIndex(card, self.palette),
                Paragraph(f"<b>{escape(card.name or '')}</b>", styles.cell),
            ]
            for category in CATEGORIES:
                amount = figure(card, category, self.words).rsplit("\u00a0", 1)[0]
                cells.append(Paragraph(amount, styles.cell_right))
                cells.append(
                    Paragraph(str(card.nr.get(category) if card.nr else ""), styles.cell_nr)
                )
            rows.append(cells)
        for joker in self.deck.jokers:
            label = f"{block.joker_label} {joker.id.rsplit('-', 1)[-1]}"
            rows.append(
                [Paragraph(label, styles.cell), Paragraph("\u2013", styles.cell)]
                + [Paragraph("", styles.cell)] * 6
            )
        number_width = mm(13)
        nr_width = mm(7.5)
        name_width = CONTENT_WIDTH - mm(11) - 3 * (number_width + nr_width)
        widths = [mm(11), name_width] + [number_width, nr_width] * 3
        table = Table(rows, colWidths=widths, repeatRows=1)
        commands: list[tuple[Any, ...]] = [
            ("BACKGROUND", (0, 0), (-1, 0), self.palette.accent),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), 1.6),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1.6),
            ("LEFTPADDING", (0, 0), (-1, -1), 2.5),
            ("RIGHTPADDING", (0, 0), (-1, -1), 2.5),
            ("LINEBELOW", (0, 1), (-1, -1), 0.5, self.palette.track),  # register-safe
        ]
        stripe = _ground_of_small_text(self.palette)
        for row in range(2, len(rows), 2):
            commands.append(("BACKGROUND", (0, row), (-1, row), stripe))
        table.setStyle(table_style(commands))
        return table


def _ground_of_small_text(palette: Palette) -> Color:
    """The tint behind the tables' and examples' small black text: the pale accent, and in
    a print file a grey of black ink alone, since 6-7 pt black text knocks out of a tint
    of colour inks (a gap a plate off register shows) but not of black."""
    return palette.pill if palette.model == "cmyk" else palette.accent_pale


def _merged(spans: Sequence[tuple[int, int]], last: int) -> list[tuple[int, int]]:
    """Row spans that share a row joined into one, clipped to rows 0..``last``.

    reportlab keeps only one NOSPLIT range per cell, so overlapping ranges must be merged
    for rows (0, 1) and (1, 2) to stay together as (0, 2).
    """
    merged: list[tuple[int, int]] = []
    for first, second in sorted((max(a, 0), min(b, last)) for a, b in spans):
        if first >= second:
            continue
        if merged and first <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], second))
        else:
            merged.append((first, second))
    return merged


def _right(style: ParagraphStyle) -> ParagraphStyle:
    return ParagraphStyle(f"{style.name}_right", parent=style, alignment=TA_RIGHT)


# --- Public API --------------------------------------------------------------------------


def build_booklet(
    deck: Deck, language: Language = "nb", colour: PrintColour = RGB, steps: Steps | None = None
) -> bytes:
    """The booklet in ``language`` as A5 PDF bytes (the same bytes for the same deck).

    In ``colour``'s model: RGB for screens and home printers, CMYK for a print shop.
    ``steps`` hears of each layout pass.
    """
    from kraftstokk.render.locale import load_locale

    register_fonts()
    locale = load_locale(language)
    words = locale.words.for_deck(deck)
    palette = palette_from_style(deck.style(), colour)
    builder = StoryBuilder(deck, words, palette, colour)
    story = builder.story(booklet_blocks(deck, language))
    buffer = io.BytesIO()
    subject = ", ".join(game.title for game in locale.games)
    doc = BookletDoc(buffer, deck, words, palette, colour, subject)
    if steps is not None:
        doc.setProgressCallBack(steps.reportlab)
    try:
        doc.multiBuild(story)
    except ReportlabLayoutError as exc:  # a block taller than a page: a text is too long
        block = " ".join(str(exc).split())
        raise RenderError(
            f"the booklet in {language!r} does not fit its pages: a block of its text is "
            f"taller than a page ({clip(block, 160)}); shorten that text in "
            f"locales/{language}/booklet.toml"
        ) from None
    return buffer.getvalue()


def booklet_name(language: Language) -> str:
    """File name of the A5 booklet: ``regler.pdf``, ``rules-en.pdf`` (from the locale file)."""
    from kraftstokk.render.locale import load_locale

    return load_locale(language).booklet_file


BOOKLET_BLEED = 3.0  # mm
#: Layout passes reportlab makes for the table of contents (a third makes it longer).
LAYOUT_PASSES = 2


def booklet_with_bleed(
    pdf: bytes, bleed: float = BOOKLET_BLEED, slug: float = 0.0, marks: Color | None = None
) -> bytes:
    """The booklet's pages grown by ``bleed`` mm all round (BleedBox; TrimBox = A5), and by
    ``slug`` mm more with crop marks in it in the colour ``marks`` (MediaBox), without
    links: a print file.

    The pages already draw their full-bleed parts (the cover's bands) that far past the
    page edge; the screen file's MediaBox hides them, this file shows them. The links of
    the table of contents stay in the screen file (PDF/X allows no annotation inside the
    BleedBox, and paper none at all).
    """
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import RectangleObject

    from kraftstokk.render.print_hints import drop_annotations

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    drop_annotations(writer)
    b, margin = mm(bleed), mm(bleed + slug)
    mark_page = None
    for page in writer.pages:
        x0, y0 = float(page.mediabox.left), float(page.mediabox.bottom)
        x1, y1 = float(page.mediabox.right), float(page.mediabox.top)
        page.trimbox = RectangleObject((x0, y0, x1, y1))
        page.bleedbox = RectangleObject((x0 - b, y0 - b, x1 + b, y1 + b))
        grown = RectangleObject((x0 - margin, y0 - margin, x1 + margin, y1 + margin))
        page.mediabox = grown
        page.cropbox = grown
        if slug and marks is not None:
            mark_page = mark_page or _crop_mark_page(x1 - x0, y1 - y0, bleed, slug, marks)
            page.merge_translated_page(mark_page, x0 - margin, y0 - margin)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _crop_mark_page(width: float, height: float, bleed: float, slug: float, ink: Color) -> Any:
    """A page of ``width`` × ``height`` points plus bleed and slug, with only crop marks
    in ``ink`` at the trim's corners."""
    from pypdf import PdfReader

    from kraftstokk.render.printshop import draw_crop_marks

    margin = bleed + slug
    trim = Box(margin, margin, width / mm(1), height / mm(1))
    page = Box(0.0, 0.0, trim.w + 2 * margin, trim.h + 2 * margin)
    buffer = io.BytesIO()
    register_fonts()  # reportlab names its initial font on every page: one that is embedded
    canvas = Canvas(
        buffer,
        pagesize=(mm(page.w), mm(page.h)),
        invariant=1,
        pageCompression=1,
        initialFontName=SANS,
    )
    canvas.setStrokeColor(ink)
    draw_crop_marks(canvas, trim, page, bleed)
    canvas.showPage()
    canvas.save()
    return PdfReader(io.BytesIO(buffer.getvalue())).pages[0]


def printshop_name(language: Language) -> str:
    """File name of the print-shop booklet: ``regler-printshop.pdf``, ``rules-en-printshop.pdf``."""
    from kraftstokk.render.locale import load_locale, output_files

    locale = load_locale(language)
    return output_files(locale.booklet_file, locale.imposed_file)["printshop"]


#: The printer preset the print-shop booklet is made for.
BOOKLET_PRESET = "offset"


def printshop_booklet(
    deck: Deck, language: Language = "nb", progress: Progress | None = None
) -> bytes:
    """The booklet for a print shop: CMYK within the offset preset's ink limit, 3 mm bleed
    with TrimBox and BleedBox on every page, crop marks outside the bleed, no links,
    PDF/X-1a keys. ``progress`` hears of its steps: two layout passes, bleed, PDF/X."""
    from kraftstokk.design.presets import load_preset
    from kraftstokk.render.pdfx import make_pdfx
    from kraftstokk.render.printshop import slug_of

    preset = load_preset(BOOKLET_PRESET)
    colour = PrintColour(preset.colour, preset.ink_limit_pct)
    steps = Steps(LAYOUT_PASSES + 2, progress)
    booklet = build_booklet(deck, language, colour, steps)
    marks = palette_from_style(deck.style(), colour).rule
    pdf = booklet_with_bleed(booklet, preset.bleed_mm, slug_of(preset), marks)
    steps.next()
    from kraftstokk.render.locale import load_locale

    words = load_locale(language).words
    title = f"{words.document_title.format(title=deck.title)} ({preset.name})"
    pdfx = make_pdfx(pdf, preset, title)
    steps.next()
    return pdfx


def imposed_name(language: Language) -> str:
    """File name of the A4 saddle-stitch file: ``regler-a4-hefte.pdf`` and so on."""
    from kraftstokk.render.locale import load_locale

    return load_locale(language).imposed_file


def write_booklet(
    deck: Deck,
    out_dir: str | Path,
    language: Language = "nb",
    imposed: bool = False,
    printshop: bool = False,
    progress: ProgressFactory | None = None,
) -> list[Path]:
    """Write the booklet, with ``imposed`` its A4 saddle-stitch file and with ``printshop``
    its print-shop file (CMYK PDF/X-1a with bleed); return the paths. ``progress`` hears
    of each file's making."""
    from kraftstokk.render.imposition import impose_saddle_stitch

    out = Path(out_dir)
    name = booklet_name(language)
    pdf = build_booklet(deck, language, steps=Steps(LAYOUT_PASSES, step(progress, name, PERMILLE)))
    files = {out / name: pdf}
    if imposed:
        name = imposed_name(language)
        imposing = Steps(1, step(progress, name, PERMILLE))
        files[out / name] = impose_saddle_stitch(pdf)
        imposing.next()
    if printshop:
        name = printshop_name(language)
        files[out / name] = printshop_booklet(deck, language, step(progress, name, PERMILLE))
    write_files(files)  # all or none: the imposed and print-shop files are this booklet's
    return list(files)


__all__ = [
    "booklet_name",
    "booklet_with_bleed",
    "build_booklet",
    "imposed_name",
    "printshop_booklet",
    "printshop_name",
    "write_booklet",
]
