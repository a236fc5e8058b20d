"""When a figure of a run becomes a finding: the confidence and the designer's thresholds.

Apart from ``sim/findings.py`` (which re-exports FindingRules), so that ``simulate`` can take its
``--confidence`` before the findings' code, and numpy with it, is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RULE_BOUNDS", "FindingRules"]


@dataclass(frozen=True)
class FindingRules:
    """When a figure becomes a finding: the confidence and the designer's thresholds.

    Plain (no pydantic: ``simulate`` starts without it); a sweep file's ``[findings]``
    table is read by ``sim/sweep/model.py``'s model of it, with the same bounds."""

    #: Confidence of every test (0.95: a 5 % chance of a false alarm).
    confidence: float = 0.95
    #: Games that reach the action cap: a finding above this share.
    unfinished_share: float = 0.01
    #: A finished game is long when it takes this many times the median.
    long_game_factor: float = 3.0
    #: Long games: a finding above this share of finished games.
    long_game_share: float = 0.05
    #: A special is almost never seen below this share of games.
    rare_share: float = 0.05
    #: A special happens too often above this share of all actions.
    often_share: float = 0.20
    #: A card stays with the loser far more often at this many times the average card's
    #: rate.
    loser_card_factor: float = 1.5

    def __post_init__(self) -> None:
        for name, (low, high, low_included) in RULE_BOUNDS.items():
            value = getattr(self, name)
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise TypeError(f"{name}: {value!r} is not a number")
            above = value >= low if low_included else value > low
            if not above or (high is not None and value >= high):
                raise ValueError(f"{name}: {value} is out of bounds")


#: Each rule's bounds: (low, high or None, whether low itself is allowed); high never is.
RULE_BOUNDS: dict[str, tuple[float, float | None, bool]] = {
    "confidence": (0.5, 1.0, False),
    "unfinished_share": (0.0, 1.0, True),
    "long_game_factor": (1.0, None, False),
    "long_game_share": (0.0, 1.0, True),
    "rare_share": (0.0, 1.0, False),
    "often_share": (0.0, 1.0, False),
    "loser_card_factor": (1.0, None, False),
}
