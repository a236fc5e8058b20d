"""The game packages there are, found by convention without loading any engine module.

A game package is a subpackage of ``kraftstokk.games`` holding a ``spec.py``; its name is
the game's (``--game idiot``), which the registry checks when it reads the specs. The
command line's help texts list them from here, so that ``kraftstokk --help`` loads no
engine.
"""

from __future__ import annotations

import pkgutil
from pathlib import Path

GAMES_DIR = Path(__file__).resolve().parent
SPEC_MODULE = "spec"


def package_names() -> list[str]:
    """The game packages: subpackages of ``kraftstokk.games`` holding a ``spec.py``."""
    return sorted(
        info.name
        for info in pkgutil.iter_modules([str(GAMES_DIR)])
        if info.ispkg and (GAMES_DIR / info.name / f"{SPEC_MODULE}.py").is_file()
    )


#: Letters a game's name may be typed with, as the registry spells them.
_ASCII = str.maketrans({"ø": "o", "å": "a", "æ": "ae"})


def typed_name(typed: str) -> str:
    """A game's name as a person types it (``Strømkrig``, ``Kraft-idioten``) as the
    registry spells it (``stromkrig``, ``kraftidioten``)."""
    return typed.strip().lower().translate(_ASCII).replace(" ", "").replace("-", "")


def choices(names: list[str], last: str = "or") -> str:
    """'idiot, kraftidioten or stromkrig': names for a help text or an error line."""
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} {last} {names[-1]}"


__all__ = ["GAMES_DIR", "SPEC_MODULE", "choices", "package_names", "typed_name"]
