"""The booklet at the table (issue 38), read back from the PDF of every language.

Every rule the seeds are silent on is printed, found by its rule id in the locale files;
the bokmål and nynorsk booklets hold no English, no booklet prints a file path; every
worked example and every game's quick reference is on one page; claims are said as a
player says them.
"""

from __future__ import annotations

import html
import re

import pypdfium2
import pytest

from kraftstokk.design import blocks as bt
from kraftstokk.models import Deck
from kraftstokk.render.booklet import build_booklet
from kraftstokk.render.booklet_content import booklet_blocks
from kraftstokk.render.locale import available_languages, load_locale
from kraftstokk.sources.formats.origins import JRC
from tests.conftest import synthetic_deck

#: Issue 38 item 1: each rule the booklet must print, by its id in RULES.md and where its
#: words are in a locale file: (game, "rules" or "house_rules", key).
RULES_TO_PRINT: dict[str, tuple[str, str, str]] = {
    "KI-7 a penalty that leaves only jokers passes the turn": (
        "kraftidioten",
        "rules",
        "KI-7_jokers_only",
    ),
    "KI-7 the joker is one of the last two cards": ("kraftidioten", "rules", "KI-7_last_two"),
    "KI-4 a joker drawn as a chance costs no penalty": (
        "kraftidioten",
        "rules",
        "KI-4_chance_joker",
    ),
    "KI-8 naming a top-3 plant is a top-3 claim": ("kraftidioten", "rules", "KI-8_named_plant"),
    "KI-4 the card list during play, a choice (item 6)": (
        "kraftidioten",
        "rules",
        "KI-4_card_list",
    ),
    "SK-6 a card on one's own card starts no war": ("stromkrig", "rules", "SK-6_own_card"),
    "SK-6 a player's last card starts no war": ("stromkrig", "rules", "SK-6_last_card"),
    "SK-5 a run's first card can start a war": ("stromkrig", "rules", "SK-5_run_war"),
    "SK-14 burning with the last card on an empty stock puts one out": (
        "stromkrig",
        "rules",
        "SK-14_burn_out",
    ),
    "SK-11 a 2 starts no war": ("stromkrig", "rules", "SK-11_no_war"),
    "SK-7 a war fought again keeps its category": ("stromkrig", "rules", "SK-7_same_category"),
    "SK-12 cards beside the pile go with the pile": ("stromkrig", "rules", "SK-12_with_pile"),
    "SK-1 which way play goes": ("stromkrig", "rules", "SK-1_direction"),
    "ID-13 sequences: draw after each card, go on with it, stop at will": (
        "idiot",
        "house_rules",
        "sequences",
    ),
    "ID-13 sneak_three: the turn and the top card": ("idiot", "house_rules", "sneak_three"),
}

#: Words of English that are no Norwegian words (whole words, any case).
ENGLISH = frozenset(
    {
        *("the", "and", "of", "from", "with", "which", "this", "that", "you", "your"),
        *("when", "then", "originally", "figures", "source", "licence", "snapshot", "read"),
        *("card", "cards", "player", "players", "pile", "stock"),
    }
)
PATH = "/home/builder/kraft/sources/jrc-2024-01.csv"


@pytest.fixture(scope="module")
def deck() -> Deck:
    """The synthetic deck with a real snapshot's small print, read from a build machine's
    folder (the path must never reach the page)."""
    deck = synthetic_deck()
    snapshot = deck.snapshot.model_copy(
        update={
            "path": PATH,
            "date": "2024-01",
            "source": "jrc-csv, jrc-hydro-power-plant-database.csv",
            "licence": JRC.licence,
            "attribution": JRC.attribution,
            "attribution_nb": JRC.attribution_nb,
        }
    )
    return deck.model_copy(update={"snapshot": snapshot})


@pytest.fixture(scope="module")
def pages(deck: Deck) -> dict[str, list[str]]:
    """Each language's booklet, as the text of each page."""
    out = {}
    for code in available_languages():
        document = pypdfium2.PdfDocument(build_booklet(deck, code))
        texts = [document[i].get_textpage().get_text_range() for i in range(len(document))]
        title = re.escape(deck.title)
        # Without each page's running foot (its number and the deck's title), so that a
        # paragraph that runs on to the next page reads as one.
        out[code] = [
            re.sub(rf"^(?:{n} {title}|{title} {n})\r?\n", "", text)
            for n, text in enumerate(texts, 1)
        ]
    return out


def squashed(text: str) -> str:
    """Text without markup and without any space, to find a paragraph however it wraps."""
    return re.sub(r"\s+", "", html.unescape(re.sub(r"<[^>]+>", "", text)))


def page_of(texts: list[str], *parts: str) -> list[int]:
    """The pages (1-based) that hold every one of ``parts`` whole."""
    wanted = [squashed(part) for part in parts]
    return [i for i, text in enumerate(texts, 1) if all(w in squashed(text) for w in wanted)]


@pytest.mark.parametrize("code", available_languages())
@pytest.mark.parametrize("rule", sorted(RULES_TO_PRINT))
def test_each_rule_is_printed_by_its_id(code: str, rule: str, pages) -> None:
    game, table, key = RULES_TO_PRINT[rule]
    locale = load_locale(code)
    chapter = next(g for g in locale.games if g.game == game)
    texts = chapter.text.rules if table == "rules" else dict(chapter.house_rules)
    assert key.split("_")[0] == rule.split()[0] or table == "house_rules", rule
    words = texts[key]
    assert len(squashed(words)) > 30, (code, key)
    assert squashed(words) in squashed("".join(pages[code])), (code, rule)


@pytest.mark.parametrize("code", ["nb", "nn"])
def test_no_english_in_the_norwegian_booklets(code: str, pages) -> None:
    words = {word.lower() for text in pages[code] for word in re.findall(r"\w+", text)}
    assert not words & ENGLISH, sorted(words & ENGLISH)
    # The credit is the snapshot's bokmål one, as on the cards, never its English one.
    assert squashed(JRC.attribution_nb.rstrip(".")) in squashed("".join(pages[code]))


@pytest.mark.parametrize("code", available_languages())
def test_no_file_path_and_the_snapshot_by_name_and_date(code: str, pages) -> None:
    whole = "\n".join(pages[code])
    assert "/home" not in whole and "builder" not in whole and "sources/" not in whole
    assert ".csv" not in whole and not re.search(r"(?:^|\s)(?:/[\w.-]+){2,}", whole)
    date = {"en": "January 2024"}.get(code, "januar 2024")
    assert f"jrc-2024-01 ({date})" in whole


@pytest.mark.parametrize("code", available_languages())
def test_every_example_and_quick_reference_is_on_one_page(code: str, deck: Deck, pages) -> None:
    blocks = booklet_blocks(deck, code)
    examples = [b for b in blocks if isinstance(b, bt.Example)]
    assert len(examples) >= 9
    for example in examples:
        last = example.body[-1]
        assert isinstance(last, bt.Para)
        assert page_of(pages[code], example.title, last.text), (code, example.title)
    quick = [b for b in blocks if isinstance(b, bt.QuickReference)]
    assert len(quick) == len(load_locale(code).games)
    for reference in quick:
        end = reference.sections[-1].body
        assert isinstance(end, bt.Para)
        assert page_of(pages[code], reference.title, end.text), (code, reference.title)


@pytest.mark.parametrize("code", available_languages())
def test_claims_are_said_as_a_player_says_them(code: str, pages) -> None:
    whole = " ".join(pages[code]).replace("\u00a0", " ")
    quoted = re.findall(r"[«“]([^»”]*)[»”]", whole)
    claims = [q for q in quoted if re.search(r"\d", q)]
    assert len(claims) >= 4, claims
    for claim in claims:  # "840 megawatt", never a printed "840,0 MW"
        assert not re.search(r"\d\s*(MW|GWh|m)\b", claim), claim
        assert not re.search(r"\d[.,]0\b", claim), claim


@pytest.mark.parametrize("code", available_languages())
def test_the_lie_example_shows_which_cards_stay_face_down(code: str, deck: Deck) -> None:
    kraftidioten = next(g for g in load_locale(code).games if g.game == "kraftidioten")
    blocks = booklet_blocks(deck, code)
    lie = next(
        b
        for b in blocks
        if isinstance(b, bt.Example) and b.title == (kraftidioten.text.claims_title)
    )
    row = next(part for part in lie.body if isinstance(part, bt.CardRow))
    assert row.face_down == frozenset({0, 1}) and len(row.cards) == 3


def test_the_games_table_matches_each_games_spec(deck: Deck, pages) -> None:
    locale = load_locale("nb")
    grid = next(b for b in booklet_blocks(deck, "nb") if isinstance(b, bt.Grid))
    assert len(grid.rows) == len(locale.games)
    for row, game in zip(grid.rows, locale.games, strict=True):
        assert game.title in row[0]
        assert row[1] == f"{game.spec.min_players}–{game.spec.max_players}"
    assert page_of(pages["nb"], locale.text.games_title, grid.rows[-1][-1])


#: Cards each game deals per player from the cards it plays with (RULES.md): Idiot three
#: face down, three face up and three in hand from the 52 plant cards; Kraftidioten and
#: Strømkrig three in hand from all 55 (Kraftidioten shuffles the jokers into the stock).
DEALT = {"idiot": (52, 9), "kraftidioten": (55, 3), "stromkrig": (55, 3)}


@pytest.mark.parametrize("code", available_languages())
def test_the_player_counts_table_gives_each_games_stock_after_the_deal(
    code: str, deck: Deck, pages
) -> None:
    """Issue 38 item 3: a table of player counts and cards, read down by how many play."""
    locale = load_locale(code)
    spare = [b for b in booklet_blocks(deck, code) if isinstance(b, bt.IfRoom)]
    grid = next(b for b in spare[0].blocks if isinstance(b, bt.Grid))
    assert grid.headings[1:] == tuple(game.title for game in locale.games)
    counts = [int(squashed(row[0])) for row in grid.rows]
    assert counts == list(range(2, 11))  # from the fewest any game takes to the most
    for column, game in enumerate(locale.games, start=1):
        cards, each = DEALT[game.game]
        for count, row in zip(counts, grid.rows, strict=True):
            fits = game.spec.min_players <= count <= game.spec.max_players
            expected = str(cards - each * count) if fits else locale.text.players_none
            assert row[column] == expected, (code, game.game, count)
    # Printed where the page with the games at a glance has room for it, never elsewhere.
    text = locale.text
    printed = page_of(pages[code], text.players_title, text.players_intro)
    assert printed in ([], page_of(pages[code], text.games_title)), printed


def _spare_room_booklet(monkeypatch, lines: int) -> list[str]:
    """A chapter: a section of ``lines`` lines, a spare part (IfRoom), a last section;
    the text of each page."""
    filler = " ".join(f"Linje {i} av teksten på siden." for i in range(lines * 2))
    blocks = [
        bt.Heading("Kapittel"),
        bt.Heading("Alfa", 2),
        bt.Para(filler),
        bt.IfRoom((bt.Heading("Bravo", 2), bt.Para(" ".join(["Tekst som fyller opp."] * 20)))),
        bt.Heading("Charlie", 2),
        bt.Para("Siste avsnitt."),
    ]
    monkeypatch.setattr("kraftstokk.render.booklet.booklet_blocks", lambda deck, code: blocks)
    document = pypdfium2.PdfDocument(build_booklet(synthetic_deck(), "nb"))
    return [document[i].get_textpage().get_text_range() for i in range(len(document))]


def test_a_spare_part_is_printed_only_where_the_page_has_room_for_it(monkeypatch) -> None:
    roomy = _spare_room_booklet(monkeypatch, 10)
    assert page_of(roomy, "Alfa", "Bravo", "Charlie") == [2]
    full = _spare_room_booklet(monkeypatch, 36)  # the spare part would run over the page
    assert page_of(full, "Bravo") == []
    assert page_of(full, "Alfa", "Linje 71 av", "Charlie") == [2] and len(full) == 2


def _named(deck: Deck, suffix: str) -> Deck:
    cards = [
        c if c.joker else c.model_copy(update={"name": f"{c.name}{suffix}"}) for c in deck.cards
    ]
    return deck.model_copy(update={"cards": cards})


def test_a_quick_reference_with_long_plant_names_is_drawn_smaller_not_over_two_pages() -> None:
    deck = _named(synthetic_deck(), "-Fossumfoss øvre")  # every name 16 letters longer
    document = pypdfium2.PdfDocument(build_booklet(deck, "nn"))
    texts = [document[i].get_textpage().get_text_range() for i in range(len(document))]
    for reference in (b for b in booklet_blocks(deck, "nn") if isinstance(b, bt.QuickReference)):
        end = reference.sections[-1].body
        assert isinstance(end, bt.Para)
        assert page_of(texts, reference.title, end.text), reference.title
    # Its content is not whole sheets: notes pages after the appendix make them whole.
    notes = [n for n, text in enumerate(texts, 1) if text.rstrip().endswith("Notat")]
    assert len(texts) % 4 == 0 and 1 <= len(notes) <= 3
    assert notes == list(range(len(texts) - len(notes) + 1, len(texts) + 1))


def test_a_quick_reference_that_cannot_fit_one_page_is_an_error_naming_it(monkeypatch) -> None:
    from kraftstokk.errors import RenderError
    from kraftstokk.render import booklet

    # Card names are bounded by the card (two lines at 7 pt), so no deck's names can make
    # a quick reference too tall at 80 %: at full size alone these ones do.
    monkeypatch.setattr(booklet, "ONE_PAGE_SCALE", 1.0)
    deck = _named(synthetic_deck(), "-Fossumfoss øvre")
    with pytest.raises(RenderError, match=r"kort fortalt' does not fit one page even drawn"):
        build_booklet(deck, "nb")
