"""Minutes at a table: how long a game takes for people, from a time model kept as data.

The model (``pace.toml``) gives a pace in seconds to each thing that happens in a game: the
deal, each card laid, each decision with a real choice and each forced move on one's own
turn, each answer out of turn, each pile picked up and each challenge. A game's time is
their sum, so it is a linear function of the figures a run keeps per game, and its mean,
interval, median and 90th percentile come from the same sums as every other metric
(:func:`weights`: the pace of each column, in milliseconds so that the sums stay whole).
A person changes the pace with ``simulate --pace choice=8,card=3``, with ``--pace FILE``
(a TOML file with a ``[time]`` table) or with a ``[time]`` table in a sweep file.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from kraftstokk.errors import InputFileError, SimulationError
from kraftstokk.sim import stream

#: Longest pace a step may have (an hour): anything above is a typo.
MOST_SECONDS = 3600.0


@dataclass(frozen=True)
class Pace:
    """Seconds per thing that happens at the table, and which counters each game counts
    as pile pick-ups and as challenges."""

    deal: float
    card: float
    choice: float
    forced: float
    answer: float
    pickup: float
    challenge: float
    #: (game, counters) pairs; the game "" is every game not named.
    pickups: tuple[tuple[str, tuple[str, ...]], ...] = (("", ("pile_pickups",)),)
    challenges: tuple[tuple[str, tuple[str, ...]], ...] = (("", ("challenges",)),)

    def counted(self, kind: str, game: str) -> tuple[str, ...]:
        """The counters of ``game`` that are ``kind`` (``pickup`` or ``challenge``)."""
        table = dict(self.pickups if kind == "pickup" else self.challenges)
        return table.get(game, table.get("", ()))

    def seconds(self) -> dict[str, float]:
        """The paces by name, as the report states them."""
        return {name: getattr(self, name) for name in STEPS}

    def weights(self, columns: Sequence[str], game: str) -> np.ndarray:
        """Per column of a run, its milliseconds in a game's time (:func:`weights`)."""
        return weights(self, columns, game)

    def describe(self, game: str, counters: Iterable[str] = ()) -> str:
        """The model in one sentence (the report's statement of its assumptions); a step
        counted from counters none of which the run kept (``counters``) is left out."""
        kept = set(counters)
        parts = [
            f"{_s(self.deal)} to shuffle and deal",
            f"{_s(self.card)} per card laid",
            f"{_s(self.choice)} per decision with a real choice",
            f"{_s(self.forced)} per forced move",
            f"{_s(self.answer)} per answer out of turn",
        ]
        if kept & set(self.counted("pickup", game)):
            parts.append(f"{_s(self.pickup)} per pile picked up")
        if kept & set(self.counted("challenge", game)):
            parts.append(f"{_s(self.challenge)} per challenge")
        return "; ".join(parts)


def _s(seconds: float) -> str:
    return f"{seconds:g} s"


#: The paces a person may set, in the order the model lists them.
STEPS: tuple[str, ...] = tuple(
    f.name for f in fields(Pace) if f.name not in ("pickups", "challenges")
)


Counted = tuple[tuple[str, tuple[str, ...]], ...]


def _counted(table: Any, where: str) -> tuple[Counted, Counted]:
    """``[counted]``: the pick-ups' and the challenges' (game, counters) pairs, the game
    "" for the default list."""
    if not isinstance(table, dict):
        raise SimulationError(f"{where}: [counted] must be a table")
    found: dict[str, list[tuple[str, tuple[str, ...]]]] = {"pickup": [], "challenge": []}
    for key, value in table.items():
        if key in found:
            found[key].append(("", _names(value, f"{where}: counted.{key}")))
        elif isinstance(value, dict):
            for kind, names in value.items():
                if kind not in found:
                    raise SimulationError(f"{where}: counted.{key}.{kind}: no such kind")
                found[kind].append((key, _names(names, f"{where}: counted.{key}.{kind}")))
        else:
            raise SimulationError(f"{where}: counted.{key}: neither a kind nor a game")
    return tuple(found["pickup"]), tuple(found["challenge"])


def _names(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SimulationError(f"{where}: a list of counter names")
    return tuple(value)


def _second(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SimulationError(f"{where}: seconds as a number, not {value!r}")
    seconds = float(value)
    if not math.isfinite(seconds) or not 0 <= seconds <= MOST_SECONDS:
        raise SimulationError(f"{where}: seconds from 0 to {MOST_SECONDS:g}, not {value!r}")
    return seconds


def with_times(base: Pace, table: Mapping[str, Any], where: str) -> Pace:
    """``base`` with the paces of a ``[time]`` table (only the keys it names)."""
    unknown = sorted(set(table) - set(STEPS))
    if unknown:
        raise SimulationError(
            f"{where}: no pace {', '.join(unknown)} (the paces: {', '.join(STEPS)})"
        )
    seconds = base.seconds()
    seconds.update({key: _second(value, f"{where}: {key}") for key, value in table.items()})
    return _made(seconds, base.pickups, base.challenges)


def _made(seconds: Mapping[str, float], pickups: Counted, challenges: Counted) -> Pace:
    return Pace(
        deal=seconds["deal"],
        card=seconds["card"],
        choice=seconds["choice"],
        forced=seconds["forced"],
        answer=seconds["answer"],
        pickup=seconds["pickup"],
        challenge=seconds["challenge"],
        pickups=pickups,
        challenges=challenges,
    )


@cache
def default_pace() -> Pace:
    """The model of ``pace.toml``."""
    source = resources.files("kraftstokk.sim").joinpath("pace.toml")
    data = tomllib.loads(source.read_text(encoding="utf-8"))
    times = data["time"]
    pickups, challenges = _counted(data.get("counted", {}), "pace.toml")
    return _made(
        {key: _second(times[key], f"pace.toml: {key}") for key in STEPS}, pickups, challenges
    )


def parse_pace(spec: str, base: Pace | None = None) -> Pace:
    """``--pace``: ``key=seconds`` pairs (``choice=8,card=3``) or a TOML file with a
    ``[time]`` table (and optionally ``[counted]``)."""
    base = base or default_pace()
    text = spec.strip()
    if "=" in text and not Path(text).exists():
        pairs: dict[str, float] = {}
        for part in text.split(","):
            key, sign, value = part.partition("=")
            try:
                number = float(value)
            except ValueError:
                raise SimulationError(f"--pace {part.strip()!r}: KEY=SECONDS") from None
            if not sign or not key.strip():
                raise SimulationError(f"--pace {part.strip()!r}: KEY=SECONDS")
            pairs[key.strip()] = number
        return with_times(base, pairs, "--pace")
    path = Path(text)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputFileError(path, "no such file (--pace takes KEY=SECONDS or a file)") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputFileError(path, f"cannot be read: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise InputFileError(path, f"not TOML: {error}") from None
    return pace_of(data, base, str(path))


def pace_of(data: Mapping[str, Any], base: Pace, where: str) -> Pace:
    """The pace of a document with a ``[time]`` table (and optionally ``[counted]``)."""
    times = data.get("time")
    if not isinstance(times, dict):
        raise SimulationError(f"{where}: no [time] table of seconds")
    pace = with_times(base, times, f"{where}: time")
    if "counted" in data:
        pickups, challenges = _counted(data["counted"], where)
        pace = replace(pace, pickups=pickups or pace.pickups, challenges=challenges)
    return pace


def weights(pace: Pace, columns: Sequence[str], game: str) -> np.ndarray:
    """Per column of a run, its milliseconds in a game's time (see ``docs/metrics.md``):
    a game's time is ``values @ weights`` of its row."""
    ms = {step: round(1000 * seconds) for step, seconds in pace.seconds().items()}
    by_column: dict[str, int] = {
        stream.GAMES: ms["deal"],
        stream.ACTIONS: ms["forced"],
        stream.CARDS_LAID: ms["card"],
        stream.play_column("choices"): ms["choice"] - ms["forced"],
        stream.play_column("answers"): ms["answer"] - ms["forced"],
        stream.play_column("answer_choices"): ms["forced"] - ms["choice"],
    }
    for kind, step in (("pickup", "pickup"), ("challenge", "challenge")):
        for name in _unique(pace.counted(kind, game)):
            column = stream.counter(name)
            by_column[column] = by_column.get(column, 0) + ms[step]
    return np.array([by_column.get(column, 0) for column in columns], dtype=np.int64)


def _unique(names: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(names))
