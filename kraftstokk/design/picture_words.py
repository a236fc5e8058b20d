"""The words a plant's picture prints (its type, named on the water) and what the small
print says when the deck does not know a plant's type or place. Card text is bokmål.
"""

from __future__ import annotations

from kraftstokk.models import PlantType

#: What each type is called on the card.
TYPE_LABELS: dict[PlantType, str] = {
    "reservoir": "Magasinkraftverk",
    "run-of-river": "Elvekraftverk",
    "pumped-storage": "Pumpekraftverk",
}

#: The small print's note on a plant whose type, place or both the deck does not know.
UNKNOWN_NOTES: dict[tuple[bool, bool], str] = {
    (True, False): "type ukjent",
    (False, True): "sted ukjent",
    (True, True): "type og sted ukjent",
}


def unknown_note(type_known: bool, place_known: bool) -> str | None:
    """``type ukjent``, ``sted ukjent``, ``type og sted ukjent``, or None when both are known."""
    return UNKNOWN_NOTES.get((not type_known, not place_known))
