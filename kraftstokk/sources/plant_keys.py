"""One plant, one key, whatever a source calls it.

NVE numbers its hydropower plants (``VannKraftverkID`` 448 is Tonstad); the JRC database
writes the same number with an ``N`` in front (``N448``) for its Norwegian rows. A plant
key is that number without the prefix or leading zeros, so ``N448``, ``448`` and
``0448`` are one plant. Any other id (a hand-made snapshot's ``S001``) is its own key.

Everything that matches plants across files compares keys: a spec's ``[names]``,
``[figures]``, ``[selection] pinned``/``excluded`` and ``[policy] table``, a kept
previous deck, ``diff`` and ``repair``. The plant's own ``id`` stays as its source
spells it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Protocol, TypeVar

_NUMBERED = re.compile(r"^[Nn]?0*(\d+)$")


def plant_key(plant_id: str) -> str:
    """``"N448"`` -> ``"448"``, ``"448"`` -> ``"448"``; any other id as it is (trimmed)."""
    text = plant_id.strip()
    match = _NUMBERED.match(text)
    if match is None:
        return text
    return match.group(1).lstrip("0") or "0"


def same_plant(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and plant_key(a) == plant_key(b)


class _HasId(Protocol):
    @property
    def id(self) -> str: ...


Item = TypeVar("Item", bound=_HasId)


def by_key(items: Iterable[Item]) -> dict[str, Item]:
    """``items`` by plant key; the first of two with one key wins (see :func:`key_clashes`)."""
    result: dict[str, Item] = {}
    for item in items:
        result.setdefault(plant_key(item.id), item)
    return result


def key_clashes(ids: Iterable[str]) -> list[tuple[str, str]]:
    """Pairs of different ids that name one plant (``N448`` and ``448``)."""
    first: dict[str, str] = {}
    clashes: list[tuple[str, str]] = []
    for plant_id in ids:
        key = plant_key(plant_id)
        if key in first and first[key] != plant_id:
            clashes.append((first[key], plant_id))
        first.setdefault(key, plant_id)
    return clashes


Value = TypeVar("Value")


def keyed(mapping: Mapping[str, Value]) -> dict[str, Value]:
    """A mapping from plant ids (either spelling) re-keyed by plant key."""
    return {plant_key(plant_id): value for plant_id, value in mapping.items()}
