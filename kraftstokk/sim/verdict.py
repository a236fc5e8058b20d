"""The verdict of a comparison in one sentence: whether and how two decks play apart.

Per game, one sentence names both decks by title and edition and says either that they
give the same games (and why), that no metric differs once the correction for testing
them all is made, or which difference is the largest of those that hold, by how much
and with its interval. The sentences are data (``findings.toml``, ``[verdict]``).
"""

from __future__ import annotations

from kraftstokk.sim.compare import Comparison, Difference
from kraftstokk.sim.deck_names import deck_name as deck_name  # re-exported
from kraftstokk.sim.deck_names import deck_names as deck_names  # re-exported
from kraftstokk.sim.findings import texts


def game_title(name: str) -> str:
    """The game's title as its spec gives it (the name for a game that is not known)."""
    from kraftstokk.games.registry import known_spec

    spec = known_spec(name)
    return spec.title_en if spec is not None else name


def _number(value: float) -> str:
    size = abs(value)
    return f"{value:.0f}" if size >= 100 else f"{value:.1f}" if size >= 1 else f"{value:.2f}"


def _words(metric: str) -> str:
    if metric == "unfinished_rate":
        return "share of unfinished games"
    for label in ("win_rate_seat_", "loser_rate_seat_"):
        if metric.startswith(label):
            return f"{label[:-6].replace('_', ' ')} for seat {metric.removeprefix(label)}"
    return metric.removesuffix("_per_game").removesuffix("_mean").replace("_", " ")


def change(item: Difference) -> str:
    """The difference in words: ``8.7 more wars per game``, ``a 2.1 percentage points
    higher win rate for seat 1``, ``a 0.30 larger mean war sizes``."""
    up = item.difference > 0
    if item.kind == "rate":
        points = f"{100 * abs(item.difference):.1f}"
        return f"a {points} percentage points {'higher' if up else 'lower'} {_words(item.metric)}"
    if item.kind == "mean":
        size = _number(abs(item.difference))
        return f"a {size} {'larger' if up else 'smaller'} mean {_words(item.metric)}"
    size = _number(abs(item.difference))
    return f"{size} {'more' if up else 'fewer'} {_words(item.metric)} per game"


def interval(item: Difference) -> tuple[str, str]:
    """The interval's ends as the verdict prints them (rates in percentage points)."""
    low, high = item.ci95
    if item.kind == "rate":
        return f"{100 * low:+z.1f}", f"{100 * high:+z.1f} points"
    return f"{low:+z.2f}", f"{high:+z.2f}"


def largest(found: list[Difference]) -> Difference | None:
    """The largest difference in units of its game-to-game spread."""
    best: Difference | None = None
    for item in found:  # the first of equals
        if best is None or item.effect > best.effect:
            best = item
    return best


def verdict(
    game: str,
    names: tuple[str, str],
    comparison: Comparison,
    *,
    context: str = "",
    differing: tuple[int, int] | None = None,
) -> str:
    """One sentence: how deck B (``names[1]``) plays against deck A in ``game``.

    ``context`` says where the named difference was found (``, with 4 players``);
    ``differing`` (configurations that differ, configurations compared) replaces the
    count of other differing metrics in a sweep.
    """
    words = texts()["verdict"]
    title = game_title(game)
    a, b = names
    if comparison.games == 0:
        return str(words["nothing"]).format(a=a, b=b, game=title)
    if comparison.same_games:
        reasons = texts()["same_games_reason"]
        return str(words["same_games"]).format(
            a=a, b=b, game=title, reason=reasons.get(game, reasons["default"])
        )
    held = comparison.significant
    named = largest(held)
    if named is None:
        biggest = largest(comparison.differences)
        shown = "none" if biggest is None else f"{change(biggest)} in {b}"
        return str(words["alike"]).format(
            a=a, b=b, game=title, family=comparison.family, context=context, largest=shown
        )
    if differing is not None:
        others = str(words["configurations"]).format(differing=differing[0], pairs=differing[1])
    elif len(held) == 2:
        others = str(words["others_one"])
    elif len(held) > 2:
        others = str(words["others_many"]).format(count=len(held) - 1)
    else:
        others = ""
    low, high = interval(named)
    return str(words["differs"]).format(
        a=a,
        b=b,
        game=title,
        change=change(named),
        context=context,
        low=low,
        high=high,
        family=comparison.family,
        others=others,
    )
