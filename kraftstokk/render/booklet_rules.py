"""The rules booklet's structure: the front matter, the deck's chapter, the games', the appendix.

One structure serves every language; the words come from a :class:`RulesText` (``[text]`` of
``locales/<code>/booklet.toml``, read by :mod:`locale`). A text with ``{field}`` in it is a
template that :meth:`str.format` fills with the deck's own cards and figures, so each
language orders the filled-in parts as its grammar wants. Each game's chapter comes from
its package (``games/<game>/chapter.py``, found through its spec), in the registry's order,
under the game's title; the booklet itself names no game. The deck's special cards are the
ones its flags mark (the games' rules set them when the deck was built).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kraftstokk.design.blocks import (
    Block,
    Bullets,
    CardRow,
    CardTable,
    Contents,
    Grid,
    Heading,
    IfRoom,
    Para,
    QuickReference,
    TitlePage,
    WholeSheets,
    Words,
    burn_cards,
    by_production,
    card_name,
    date_in_words,
    escape,
    figure,
    gallery,
    invisible_cards,
    number,
    paras,
    plant,
    reset_cards,
    snapshot_name,
    tens,
    top_cards,
    war_groups,
    war_partner_line,
)
from kraftstokk.models import CATEGORIES, Deck

Paras = tuple[str, ...]

#: Joins the games' titles on the title page.
TITLES_JOIN = " · "


@dataclass(frozen=True)
class RulesText:
    """Every sentence of the booklet in one language, in the order the booklet uses them.

    A ``str`` is one paragraph or title, a ``tuple`` a list of bullets or of paragraphs.
    Braces mark the fields of a template (see the module docstring), so a text never holds
    a literal brace.
    """

    # Front matter
    subtitle: str
    edition: str
    contents: str
    # The deck and its special cards
    deck_heading: str
    deck_intro: Paras
    card_heading: str
    card_corners: str
    card_figures: Paras
    card_marks_intro: str
    card_marks: Paras
    nr_heading: str
    nr_meaning: str
    nr_example: str
    special_heading: str
    special_intro: str
    special_invisible: str
    special_top: str
    special_jokers: str
    joker_caption: str
    special_twos: str
    war_partners: str
    war_partners_some: str
    war_partners_none: str
    war_partner_caption: str
    words_heading: str
    words: Paras
    # Appendix
    cards_heading: str
    cards_intro: str
    cards_headings: Paras
    figures_heading: str
    figures_intro: str
    source_line: str
    licence_line: str
    snapshot_line: str
    not_given: str
    date_unknown: str
    # The pages that bring the booklet to whole sheets, and the back cover
    notes_heading: str
    games_title: str
    games_headings: Paras
    players_range: str
    # How many cards are left to draw after the deal, by the number of players
    players_title: str
    players_intro: str
    players_column: str
    players_fits: str
    players_none: str


#: The fields the booklet fills in each template of a :class:`RulesText`; a text not named
#: here is used as it is. A locale file is checked against this when it is loaded.
TEMPLATE_FIELDS: dict[str, frozenset[str]] = {
    name: frozenset(names.split())
    for name, names in {
        "edition": "edition",
        "deck_intro": "title",
        "nr_example": "plant nr figure more less mw_nr head_nr",
        "special_jokers": "count",
        "joker_caption": "count",
        "war_partner_caption": "figure ten",
        "source_line": "attribution",
        "licence_line": "licence",
        "snapshot_line": "name date",
        "players_range": "low high",
    }.items()
}

#: The fields filled with a count (:meth:`Words.count`): only these may name a plural,
#: ``{more:plants_produce}``.
COUNT_FIELDS: dict[str, frozenset[str]] = {
    "nr_example": frozenset({"more", "less"}),
    "special_jokers": frozenset({"count"}),
    "joker_caption": frozenset({"count"}),
}


@dataclass(frozen=True)
class Chapter:
    """One game's chapter: its title, its blocks (from the game's package, the house
    rules and the quick reference last), and how many may play (the game's spec)."""

    title: str
    blocks: tuple[Block, ...]
    players: tuple[int, int] = (2, 2)
    #: The cards left in the stock after the game's own deal, for each number of players
    #: it takes (None: a game without a stock).
    stock: tuple[tuple[int, int | None], ...] = ()

    @property
    def quick(self) -> QuickReference | None:
        """The chapter's quick reference (the game's page for the table), if it has one."""
        return next((b for b in self.blocks if isinstance(b, QuickReference)), None)


def rules_blocks(
    deck: Deck,
    w: Words,
    t: RulesText,
    chapters: Sequence[Chapter] = (),
    credit: str = "nb",
) -> list[Block]:
    """The whole booklet for ``deck`` with the words ``w``, the sentences ``t`` and the
    games' ``chapters``; ``credit`` picks the snapshot's credit line ("nb" or "en")."""
    return [
        *_front(deck, t, chapters),
        *_deck_chapter(deck, w, t),
        *_games_table(t, chapters),
        *(block for chapter in chapters for block in (Heading(chapter.title), *chapter.blocks)),
        *_appendix(deck, w, t, credit),
        WholeSheets(t.notes_heading),
    ]


def _games_table(t: RulesText, chapters: Sequence[Chapter]) -> list[Block]:
    """Every game at a glance, at the end of the deck's chapter: how many play, which
    cards, the deal."""
    rows = tuple(
        (
            f"<b>{escape(chapter.title)}</b>",
            t.players_range.format(low=chapter.players[0], high=chapter.players[1]),
            quick.cards,
            quick.deal,
        )
        for chapter in chapters
        if (quick := chapter.quick) is not None
    )
    if not rows:
        return []
    return [Heading(t.games_title, 2), Grid(t.games_headings, rows), *_player_counts(t, chapters)]


#: The player counts table: the count's column, then the games' (shares of the text width).
COUNT_COLUMN = 0.19


def _player_counts(t: RulesText, chapters: Sequence[Chapter]) -> list[Block]:
    """For each number of players, the cards each game leaves in the stock after its deal
    (how long the drawing lasts), or a dash where the game is not for that many."""
    games = [chapter for chapter in chapters if chapter.stock]
    if not games:
        return []
    counts = range(min(c.players[0] for c in games), max(c.players[1] for c in games) + 1)
    by_game = [dict(chapter.stock) for chapter in games]

    def cell(stock: dict[int, int | None], count: int) -> str:
        if count not in stock:
            return t.players_none
        left = stock[count]
        return t.players_fits if left is None else str(left)

    rows = tuple((f"<b>{n}</b>", *(cell(stock, n) for stock in by_game)) for n in counts)
    share = (1 - COUNT_COLUMN) / len(games)
    headings = (t.players_column, *(escape(chapter.title) for chapter in games))
    table = Grid(headings, rows, shares=(COUNT_COLUMN, *(share,) * len(games)), figures=True)
    # It fills the foot of the page the deck's chapter ends on; a deck whose chapter runs
    # longer has no foot to fill, and the games table above already says who may play.
    return [IfRoom((Heading(t.players_title, 2), Para(t.players_intro), table))]


def _front(deck: Deck, t: RulesText, chapters: Sequence[Chapter]) -> list[Block]:
    faces = by_production(deck)
    shown = tuple(faces[:1] + faces[len(faces) // 2 : len(faces) // 2 + 1] + deck.jokers[:1])
    games = TITLES_JOIN.join(chapter.title for chapter in chapters)
    return [
        TitlePage(
            title=escape(deck.title),
            subtitle=t.subtitle,
            lines=(games, t.edition.format(edition=escape(deck.edition))),
            cards=shown,
        ),
        Contents(t.contents),
    ]


def _deck_chapter(deck: Deck, w: Words, t: RulesText) -> list[Block]:
    cards = by_production(deck)
    sample = cards[len(cards) // 3]
    nr = sample.nr.gwh if sample.nr else 0
    return [
        Heading(t.deck_heading),
        *paras(tuple(text.format(title=escape(deck.title)) for text in t.deck_intro)),
        Heading(t.card_heading, 2),
        CardRow((sample,), ()),
        Para(t.card_corners),
        Bullets(t.card_figures),
        Para(t.card_marks_intro),
        Bullets(t.card_marks),
        Heading(t.nr_heading, 2),
        Para(t.nr_meaning),
        Para(
            t.nr_example.format(
                plant=plant(sample, w),
                nr=nr,
                figure=figure(sample, "gwh", w),
                more=w.count(nr - 1),
                less=w.count(52 - nr),
                mw_nr=sample.nr.mw if sample.nr else 0,
                head_nr=sample.nr.head_m if sample.nr else 0,
            )
        ),
        *_special_cards(deck, w, t),
        Heading(t.words_heading, 2),
        Bullets(t.words),
    ]


def _special_cards(deck: Deck, w: Words, t: RulesText) -> list[Block]:
    out: list[Block] = [
        Heading(t.special_heading, 2),
        Para(t.special_intro),
        Para(t.special_invisible),
    ]
    out += gallery([(category, invisible_cards(deck, category)) for category in CATEGORIES], w)
    out.append(Para(t.special_top))
    out += gallery([(category, top_cards(deck, category)) for category in CATEGORIES], w)
    jokers = deck.jokers
    burns = burn_cards(deck)
    twos = reset_cards(deck)
    out += [
        Para(t.special_jokers.format(count=w.count(len(jokers)))),
        CardRow(
            (*jokers[:1], *burns),
            (t.joker_caption.format(count=w.count(len(jokers))), *(card_name(c, w) for c in burns)),
        ),
        Para(t.special_twos),
        CardRow(tuple(twos), tuple(card_name(c, w) for c in twos)),
    ]
    groups = war_groups(deck)
    out.append(Para(t.war_partners + (t.war_partners_some if groups else t.war_partners_none)))
    if groups:
        out.append(Bullets(tuple(war_partner_line(group, w) for group in groups)))
        first = groups[0]
        captions = tuple(
            t.war_partner_caption.format(figure=figure(c, "gwh", w), ten=number(tens(c), w))
            for c in first
        )
        out.append(CardRow(tuple(first), captions))
    return out


# --- Appendix ----------------------------------------------------------------------------


def _appendix(deck: Deck, w: Words, t: RulesText, credit: str) -> list[Block]:
    snap = deck.snapshot
    # The credit in the booklet's language where the snapshot has it (the cards' bokmål
    # one), else the one it has; the snapshot by its name and date, never by its place
    # on the machine that built the deck.
    attribution = snap.attribution_nb if credit == "nb" else None
    attribution = attribution or snap.attribution
    facts = [
        t.source_line.format(attribution=escape(attribution.rstrip(". "))) if attribution else "",
        t.licence_line.format(licence=escape(snap.licence or t.not_given)),
        t.snapshot_line.format(
            name=escape(snapshot_name(snap.path) or t.not_given),
            date=date_in_words(snap.date, w) if snap.date else t.date_unknown,
        ),
    ]
    return [
        Heading(t.cards_heading),
        Para(t.cards_intro),
        CardTable(headings=t.cards_headings, joker_label=w.joker),
        Heading(t.figures_heading, 2),
        Para(t.figures_intro),
        Bullets(tuple(fact for fact in facts if fact)),
    ]


__all__ = ["COUNT_FIELDS", "TEMPLATE_FIELDS", "Chapter", "RulesText", "rules_blocks"]
