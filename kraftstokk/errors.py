"""One error hierarchy for the whole tool.

Every failure a user can cause (a bad file, an unreachable server, an invalid deck)
is raised as a subclass of :class:`KraftstokkError`. Third-party errors are translated
where they enter the program, so the CLI only has to know this module. ``exit_code``
follows DESIGN.md: 2 for input that could not be used, 1 for input that was read but
fails validation.
"""

from __future__ import annotations


class KraftstokkError(Exception):
    """Base class: a message for the user and the exit code the CLI returns."""

    exit_code: int = 2

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class InputFileError(KraftstokkError):
    """A file is missing, unreadable, empty, binary or in the wrong format."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason


class InputProblems(InputFileError):
    """A file read to its end whose content is unusable in several places; ``problems``
    lists every one, so a person fixes them all in one go rather than one per run.

    The message names the first few (it is the one error line); the CLI prints them all
    above it when there are more.
    """

    def __init__(self, path: object, problems: list[str]) -> None:
        summary = problems[0] if len(problems) == 1 else f"{len(problems)} problems: "
        super().__init__(path, summary if len(problems) == 1 else summary + listed(problems, "; "))
        self.problems = problems


class FetchError(KraftstokkError):
    """A URL could not be fetched, or its response is not usable."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"{url}: {reason}")
        self.url = url
        self.reason = reason


class SpecError(KraftstokkError):
    """The deck spec is invalid (unknown key, impossible selection or policy)."""


class DeckBuildError(KraftstokkError):
    """A deck cannot be built from the snapshot and spec."""


class ValidationFailed(KraftstokkError):
    """A deck was read but fails validation; ``problems`` lists every error found."""

    exit_code = 1

    def __init__(self, source: object, problems: list[str]) -> None:
        count = len(problems)
        noun = "problem" if count == 1 else "problems"
        super().__init__(f"{source}: {count} {noun} found")
        self.source = str(source)
        self.problems = problems


class RenderError(KraftstokkError):
    """A deck cannot be drawn (for example a name that cannot be fitted)."""


class LayoutError(RenderError):
    """A card layout file is missing, unknown or invalid (names the file and the reason)."""


class LocaleError(KraftstokkError):
    """A booklet language that has no locale file, or a locale file that is malformed."""


class GameError(KraftstokkError):
    """An illegal game setup or action, or a replay log that does not replay."""


class SimulationError(KraftstokkError):
    """Bad simulation arguments (unknown game or bot, player count out of range)."""


class OutputError(KraftstokkError):
    """An output file could not be written."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = str(path)


class RequestRefused(KraftstokkError):
    """A web request the server refuses (``kraftstokk serve``); ``status`` is its 4xx.

    ``said`` is the refusal in each language the page speaks, for one a person can meet
    while playing (a claim below the last one, a save of another deck); the message
    stays English, for scripts and logs.
    """

    status: int = 400

    def __init__(self, message: str, said: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.said = said or {}


class ReadNote(UserWarning):
    """A file was read otherwise than it is written (a decimal comma in an English-style
    deck.csv), or is not as kraftstokk wrote it (a deck.json changed by hand): the reader
    goes on and says so with :func:`warnings.warn`; the CLI prints
    it as a ``note:`` line on stderr (a Python caller sees a warning)."""


#: Error lines stay readable: a value quoted in one is cut to this many characters.
MAX_QUOTED = 80
#: A list of problems in one line names this many and counts the rest.
MAX_LISTED = 5
#: No error line is longer than this, whatever it quotes.
MAX_LINE = 1000


def clip(text: str, limit: int = MAX_QUOTED) -> str:
    """``text`` cut to ``limit`` characters, saying how many were left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit} more characters)"


def listed(items: list[str], separator: str = ", ", first: int = MAX_LISTED) -> str:
    """The first few ``items`` joined, and how many more there are."""
    shown = separator.join(items[:first])
    rest = len(items) - first
    return f"{shown}{separator}and {rest} more" if rest > 0 else shown
