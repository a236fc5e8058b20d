"""The words a face prints besides the plant's name and figures, from the locale files: the
rows' labels (``[words.categories]``), the nr. pill, the TOPP 3 and USYNLIG marks and a
joker's corner (``[card]``), the type's name on the picture's water (``[card.types]``),
the small print's note on what the deck does not know of a plant (``[card.unknown]``) and
a Strømkrig card's special use (``[games.stromkrig.card]``, after the game's title), each
checked against the layout's boxes before a face is drawn
(:func:`kraftstokk.design.word_fit.refuse_misfit_words`).
"""

from __future__ import annotations

from dataclasses import dataclass

from kraftstokk import locales
from kraftstokk.design.face_text import special_use, unknown_parts
from kraftstokk.design.layout import CardLayout
from kraftstokk.design.word_fit import refuse_misfit_words
from kraftstokk.models import CATEGORIES, PLANT_TYPES, Card, Category, PlantType

#: The language the faces print in: their labels, the credit and the Strømkrig lines are
#: bokmål, and so are the joker's rules (``[games.<name>] joker`` of its words.toml).
FACE_LANGUAGE = "nb"

UNKNOWN_KEYS = ("type", "place", "type_and_place")
SPECIAL_USES = ("burn", "reset", "burn_or_reset")
SPECIAL_GAME = "stromkrig"
#: The widest nr. a pill holds: a deck of 52 plants has two-digit nr. (the digits are
#: all one width).
NR_WIDEST = 88


@dataclass(frozen=True)
class FaceWords:
    """One language's words for a face, by what they say."""

    language: str
    #: Each row's label: the category's word with a capital first letter ("Effekt").
    row_labels: dict[Category, str]
    #: The mark at the end of a top-3 card's bar, and of an invisible card's.
    top3: str
    invisible: str
    #: A joker's corner index, a letter a line.
    index_joker: str
    #: Each plant type's name, as the picture writes it on the water.
    type_labels: dict[PlantType, str]
    #: ``type``, ``place``, ``type_and_place`` -> the small print's note.
    notes: dict[str, str]
    #: ``burn``, ``reset``, ``burn_or_reset`` -> the whole line ("Strømkrig: brenner bunken").
    special_lines: dict[str, str]

    def nr(self, nr: int | None) -> str:
        """The nr. pill's text ("nr. 3" with a no-break space; "?" for a card without one)."""
        return locales.text(self.language, "words", "card.nr", nr="?" if nr is None else nr)

    def type_label(self, kind: PlantType | None) -> str | None:
        return None if kind is None else self.type_labels[kind]

    def note(self, card: Card) -> str | None:
        """What the small print says ``card``'s picture could not show, if anything."""
        unknown = unknown_parts(card)
        return None if unknown is None else self.notes[unknown]

    def special_line(self, card: Card) -> str | None:
        """The Strømkrig line ``card`` prints above its small print, if any."""
        use = special_use(card)
        return None if use is None else self.special_lines[use]


def face_words(layout: CardLayout, language: str = FACE_LANGUAGE) -> FaceWords:
    """``language``'s face words, refused (one line naming the layout, the box, the text
    and its key) when one does not fit ``layout``."""

    def word(key: str) -> str:
        return locales.text(language, "words", key)

    title = word(f"games.{SPECIAL_GAME}.title")
    found = FaceWords(
        language=language,
        row_labels={c: _capital(word(f"words.categories.{c}")) for c in CATEGORIES},
        top3=word("card.top3"),
        invisible=word("card.invisible"),
        index_joker=word("card.index_joker"),
        type_labels={kind: word(f"card.types.{kind}") for kind in PLANT_TYPES},
        notes={key: word(f"card.unknown.{key}") for key in UNKNOWN_KEYS},
        special_lines={
            use: f"{title}: {word(f'games.{SPECIAL_GAME}.card.{use}')}" for use in SPECIAL_USES
        },
    )
    refuse_misfit_words(
        layout,
        found.nr(NR_WIDEST),
        found.index_joker,
        found.type_labels,
        {f"card.unknown.{key}": text for key, text in found.notes.items()},
        {f"games.{SPECIAL_GAME}.card.{use}": text for use, text in found.special_lines.items()},
        f"locales/{language}/words.toml",
    )
    return found


def _capital(word: str) -> str:
    return word[:1].upper() + word[1:]
