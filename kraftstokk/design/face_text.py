"""What a face prints besides the plant's name and figures: the small print at its foot
(the deck's title, edition and data credit), and which of a language's words it prints for
what the deck does not know of a plant and for a Strømkrig card's special use (the words
are the locale files', read by ``render/face_words.py``). The face (``render/card.py``)
draws them; the reprint verdict (``design/printed.py``) compares them.
"""

from __future__ import annotations

import re

from kraftstokk.design.fonts import text_width
from kraftstokk.design.geometry import mm
from kraftstokk.design.layout import CardLayout, layout_listing
from kraftstokk.errors import RenderError, clip
from kraftstokk.models import Card, Deck

DATA_LINES = 2  # the small print's data attribution, at most


def small_print_lines(deck: Deck, layout: CardLayout, card: Card | None = None) -> list[str]:
    """Title and edition, then the data credit in at most two lines (``card``'s own,
    when its place was stated with its own source).

    The credit is printed whole, or in a shorter form (see :func:`credit_forms`), never
    cut; a credit none of whose forms fits is refused (``validate`` says so before any
    card is drawn, and drawing it anyway raises :class:`RenderError`).
    """
    lines = [f"{deck.title} · {deck.edition}"]
    data = credit_text(deck, card)
    if not data:
        return lines
    credit = credit_lines(data, layout)
    if credit is None:
        raise RenderError(credit_problem(data, layout))
    return lines + credit


def credit_text(deck: Deck, card: Card | None = None) -> str:
    """The data credit the cards print (bokmål where the snapshot has it); with ``card``,
    that card's own when it has one (a place stated with its own source)."""
    snap = deck.snapshot
    own = card_credit(deck, card)
    return own or snap.attribution_nb or snap.attribution or snap.source or ""


def card_credit(deck: Deck, card: Card | None) -> str | None:
    """The credit ``card`` prints instead of the deck's, if it has its own."""
    if card is None or not card.plant_id or not deck.snapshot.card_credits:
        return None
    return deck.snapshot.card_credits.get(card.plant_id)


def own_small_print(deck: Deck, layout: CardLayout) -> dict[str, tuple[str, ...]]:
    """Card id -> its small print, for the cards that print their own credit."""
    return {
        card.id: tuple(small_print_lines(deck, layout, card))
        for card in deck.plant_cards
        if card_credit(deck, card)
    }


def credit_forms(data: str) -> list[str]:
    """The credit whole, then without its parenthesised parts, then in its short form: each
    clause (between semicolons) from its first acronym on, so each source keeps its name
    and licence and loses only the words that describe it ("norske tall opprinnelig fra
    NVE, NLOD" becomes "NVE, NLOD")."""
    plain = " ".join(re.sub(r"\s*\([^)]*\)", "", data).split())
    clauses = [clause.strip() for clause in plain.split(";")]
    short = "; ".join(_from_first_acronym(clause) for clause in clauses if clause)
    forms: list[str] = []
    for form in (data, plain, short):
        if form and form not in forms:
            forms.append(form)
    return forms


def _from_first_acronym(clause: str) -> str:
    words = clause.split()
    for index, word in enumerate(words):
        if _ACRONYM.match(word):
            return " ".join(words[index:])
    return clause


_ACRONYM = re.compile(r"^[A-ZÆØÅ]{2,}")


def credit_lines(data: str, layout: CardLayout) -> list[str] | None:
    """The deck's one wording of ``data`` (:func:`credit_wording`) in ``layout``'s footer,
    wrapped into at most DATA_LINES lines; None when it does not fit."""
    wording = credit_wording(data, layout)
    return None if wording is None else _footer_lines(wording, layout)


def credit_wording(data: str, layout: CardLayout) -> str | None:
    """The one wording of the data credit a deck prints, whatever its layout: the first form
    of ``data`` that fits the small print of every layout there is (and of ``layout``), so
    the faces of each card size and the tuck box all say the same; None when none does."""
    layouts = [*_known_layouts(), layout]
    for form in credit_forms(data):
        if all(_footer_lines(form, each) is not None for each in layouts):
            return form
    return None


def _known_layouts() -> list[CardLayout]:
    return layout_listing()[0]


def _footer_lines(form: str, layout: CardLayout) -> list[str] | None:
    style = layout.styles.small_print
    width = mm(layout.boxes.footer.w)
    wrapped = _wrap_keeping_licences(f"Data: {form}", style.face, style.size, width)
    if len(wrapped) <= DATA_LINES and all(
        text_width(line, style.face, style.size) <= width for line in wrapped
    ):
        return wrapped
    return None


def _wrap_keeping_licences(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap that never breaks inside a licence name such as "CC BY 4.0"."""
    words = _LICENCE.sub(lambda found: found.group(0).replace(" ", _GLUE), text).split()
    lines: list[str] = []
    for word in (w.replace(_GLUE, " ") for w in words):
        trial = f"{lines[-1]} {word}" if lines else word
        if lines and text_width(trial, font, size) <= width:
            lines[-1] = trial
        else:
            lines.append(word)
    return lines


#: Creative Commons licence names ("CC BY 4.0", "CC BY-SA 3.0"), kept on one line.
_LICENCE = re.compile(r"\bCC(?: [A-Z-]+)+ \d+\.\d+")
_GLUE = "\x00"  # stands for a space inside a licence name until the words are split


def credit_problem(data: str, layout: CardLayout) -> str:
    """Why ``data`` cannot be printed in ``layout``'s small print (or in some layout's: every
    layout prints one wording)."""
    shortest = credit_forms(data)[-1]
    narrow = next(
        (each for each in [layout, *_known_layouts()] if _footer_lines(shortest, each) is None),
        layout,
    )
    style = narrow.styles.small_print
    return (
        f"layout {narrow.name}: the data credit does not fit the small print in "
        f"{DATA_LINES} lines at {style.size:g} pt, not even as {clip(shortest, 80)!r}; shorten the "
        "snapshot's attribution (the booklet prints it in full)"
    )


def unknown_parts(card: Card) -> str | None:
    """What the small print must say a plant's picture could not show (its picture is drawn
    from its figures all the same): ``type``, ``place`` or ``type_and_place`` (the keys of
    ``[card.unknown]`` in a language's words.toml), or None when the deck knows both."""
    if card.joker:
        return None
    type_known = card.type is not None
    place_known = card.lat is not None and card.lon is not None
    return _UNKNOWN.get((not type_known, not place_known))


_UNKNOWN: dict[tuple[bool, bool], str] = {
    (True, False): "type",
    (False, True): "place",
    (True, True): "type_and_place",
}


def special_use(card: Card) -> str | None:
    """The Strømkrig use a burn or reset card prints in its footer: ``burn``, ``reset`` or
    ``burn_or_reset`` (the keys of ``[games.stromkrig.card]`` in a language's words.toml)."""
    if card.joker:
        return None
    if card.flags.burn and card.flags.reset:
        return "burn_or_reset"
    if card.flags.burn:
        return "burn"
    if card.flags.reset:
        return "reset"
    return None
