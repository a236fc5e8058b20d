"""Every sentence a person reads, per language: ``kraftstokk/locales/<code>/*.toml``.

A language is a folder, and the languages are the folders there are: adding one is
adding a folder of files. Each folder holds one file per part:

- ``words.toml``: what every part shares: the language's name, the suits, values and
  categories, the games' titles and their variants' descriptions;
- ``booklet.toml``: the rules booklet (its file names, grammar and every sentence, each
  game's chapter under the game's name);
- ``events.toml``: what the table says in ``play`` and the web app: what happened (an
  event's sentence by its game and class), the moves, a seat's view;
- ``web.toml``: the browser game's page;
- ``cli.toml``: what ``kraftstokk play`` says around the game.

:func:`load` reads every language and checks them against each other
(:mod:`kraftstokk.locales.loader`); each part's reader checks what it fills in.
"""

from kraftstokk.locales.loader import (
    PARTS,
    Locale,
    add_root,
    check_all,
    drop_root,
    generation,
    in_every_language,
    languages,
    load,
    reset,
    text,
)

__all__ = [
    "PARTS",
    "Locale",
    "add_root",
    "check_all",
    "drop_root",
    "generation",
    "in_every_language",
    "languages",
    "load",
    "reset",
    "text",
]
