"""Check a deck before it goes to print: every problem at once, each naming its card.

An error makes the deck unprintable (exit 1); a warning is worth a look (ties, odd
figures, repeated names, a production the card prints in another ten than its war ten).
Rules are designed so that one wrong cell gives one problem: a nr. is checked against
the nr. the figures give, flags against the nr. and values the figures give, and when a
card's id disagrees with its suit or value the side that collides with another card is
the one reported.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, computed_field

from kraftstokk.deck.flags import (
    gwh_tens,
    is_burn,
    is_invisible,
    is_reset,
    is_top3,
    joker_flags,
)
from kraftstokk.deck.rank import (
    DEFAULT_TIE_BREAK,
    TIE_BREAK_RULES,
    RankItem,
    nr_bounds,
    rank_category,
    tie_break_words,
)
from kraftstokk.errors import InputFileError, ValidationFailed, clip
from kraftstokk.limits import FIGURE_LIMITS
from kraftstokk.models import (
    CATEGORIES,
    CATEGORY_LABELS,
    CATEGORY_UNITS,
    DECK_SIZE,
    JOKERS,
    SUITS,
    Card,
    CardFlags,
    Category,
    CategoryFlags,
    Deck,
    card_id,
)
from kraftstokk.sources.plant_keys import plant_key

if TYPE_CHECKING:
    from kraftstokk.design.layout import CardLayout

#: Figures above these are reported as implausible (warnings, not errors).
PLAUSIBLE_MAX: dict[Category, float] = {"mw": 2000.0, "gwh": 10000.0, "head_m": 1200.0}
HOURS_PER_YEAR = 8760.0
#: Printed texts beside the names: the small print's first line is "title · edition".
MAX_TITLE_LENGTH = 60
MAX_EDITION_LENGTH = 30
#: Source, licence and attribution are printed in the booklet in full.
MAX_CREDIT_LENGTH = 1000
#: A problem's message quotes at most this much of what it found.
MAX_MESSAGE = 400

Severity = Literal["error", "warning"]
Key = tuple[str, int]


class Problem(BaseModel):
    """One finding: which card, which field, what it is and what it should be."""

    model_config = ConfigDict(extra="forbid")

    rule: str
    severity: Severity
    card: str | None = None
    suit: str | None = None
    value: int | None = None
    plant: str | None = None
    field: str
    found: str
    expected: str
    message: str

    def line(self) -> str:
        where = self.card or "deck"
        if self.card and self.plant:
            where = f"{self.card} ({self.plant})"
        return (
            f"{self.severity}: {where}: {self.field}: {self.message} "
            f"[found {self.found}; expected {self.expected}]"
        )


class ValidationReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    source: str = ""
    cards: int = 0
    errors: list[Problem] = []
    warnings: list[Problem] = []
    #: The problems counted by kind, and what fixes them (one sentence).
    summary: str = ""
    #: How ties are broken, in words ("tie-break rule other-figures-then-id (...)").
    tie_break: str = ""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def ok(self) -> bool:
        return not self.errors

    def lines(self) -> list[str]:
        """One line per problem for people; a tie the rule broke is one short line (as
        ``build`` prints it) and the rule is said once, after the last."""
        broken = f" (broken by the {self.tie_break})"
        lines, ties = [], 0
        for problem in [*self.errors, *self.warnings]:
            if problem.rule == "tie" and problem.message.endswith(broken):
                ties += 1
                lines.append(f"{problem.severity}: {problem.message.removesuffix(broken)}")
            else:
                lines.append(problem.line())
        if ties:
            lines.append(f"{_count(ties, 'tie is', 'ties are')} broken by the {self.tie_break}")
        return lines

    def problems(self, rule: str | None = None) -> list[Problem]:
        found = [*self.errors, *self.warnings]
        return [p for p in found if rule is None or p.rule == rule]


def _fmt(value: float | int | None) -> str:
    if value is None:
        return "empty"
    if isinstance(value, float) and (
        not math.isfinite(value) or abs(value) >= 1e15 or 0 < abs(value) < 1e-3
    ):
        return f"{value:g}"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(round(value, 3)) if isinstance(value, float) else str(value)


def _label(key: Key | None) -> str:
    return f"{key[0]} {key[1]}" if key else "?"


@dataclass
class _Context:
    deck: Deck
    errors: list[Problem]
    warnings: list[Problem]

    def add(
        self,
        severity: Severity,
        rule: str,
        card: Card | None,
        field: str,
        found: object,
        expected: object,
        message: str,
    ) -> None:
        problem = Problem(
            rule=rule,
            severity=severity,
            card=card.id if card else None,
            suit=card.suit if card else None,
            value=card.value if card else None,
            plant=clip(card.name or card.plant_id or "") or None if card else None,
            field=field,
            found=clip(str(found)),
            expected=clip(str(expected)),
            message=clip(message, MAX_MESSAGE),
        )
        (self.errors if severity == "error" else self.warnings).append(problem)

    def error(self, rule: str, card: Card | None, field: str, found: object, expected: object,
              message: str) -> None:  # fmt: skip
        self.add("error", rule, card, field, found, expected, message)

    def warn(self, rule: str, card: Card | None, field: str, found: object, expected: object,
             message: str) -> None:  # fmt: skip
        self.add("warning", rule, card, field, found, expected, message)


def _parse_id(text: str) -> Key | None:
    suit, _, value = text.rpartition("-")
    if suit in SUITS and value.isdigit() and 1 <= int(value) <= 13:
        return suit, int(value)
    return None


def _field_key(card: Card) -> Key | None:
    if card.suit in SUITS and card.value is not None and 1 <= card.value <= 13:
        return card.suit, card.value
    return None


def _check_counts(ctx: _Context, plants: Sequence[Card], jokers: Sequence[Card]) -> None:
    total = len(ctx.deck.cards)
    if total != DECK_SIZE + JOKERS or len(plants) != DECK_SIZE or len(jokers) != JOKERS:
        ctx.error(
            "card_count", None, "cards",
            f"{total} cards ({len(plants)} plants, {len(jokers)} jokers)",
            f"{DECK_SIZE + JOKERS} cards ({DECK_SIZE} plants, {JOKERS} jokers)",
            "the deck must have 52 plant cards and 3 jokers",
        )  # fmt: skip


def _resolve_keys(ctx: _Context, plants: Sequence[Card]) -> dict[int, Key]:
    """Each plant card's true (suit, value), reporting ids, suits and values that disagree."""
    resolved: dict[int, Key] = {}
    pending: list[tuple[int, Card, Key | None, Key | None]] = []
    for index, card in enumerate(plants):
        id_key, field_key = _parse_id(card.id), _field_key(card)
        if id_key is not None and id_key == field_key:
            resolved[index] = id_key
        else:
            pending.append((index, card, id_key, field_key))
    taken = {key: index for index, key in resolved.items()}
    for index, card, id_key, field_key in pending:
        id_free = id_key is not None and id_key not in taken
        field_free = field_key is not None and field_key not in taken
        if id_key is not None and id_free and not field_free:
            resolved[index] = id_key
            taken[id_key] = index
            for name, found, expected in (
                ("suit", card.suit, id_key[0]),
                ("value", card.value, id_key[1]),
            ):
                if found != expected:
                    ctx.error(
                        "suit_value", card, name, "empty" if found is None else found,
                        expected,
                        f"card {card.id} must be {_label(id_key)}"
                        + (f"; {_label(field_key)} is another card" if field_key else ""),
                    )  # fmt: skip
        elif field_key is not None and field_free and not id_free:
            resolved[index] = field_key
            taken[field_key] = index
            ctx.error(
                "card_id", card, "id", card.id, card_id(*field_key),
                f"the id must be suit-value of the card ({_label(field_key)})",
            )  # fmt: skip
        else:
            key = field_key or id_key
            ctx.error(
                "card_id", card, "id/suit/value",
                f"id {card.id}, suit {card.suit or 'empty'}, value {_fmt(card.value)}",
                "an id equal to suit-value, a suit and a value 1-13",
                "the card id does not match the card's suit and value",
            )  # fmt: skip
            if key is not None:
                resolved[index] = key
                taken.setdefault(key, index)
    return resolved


def _check_coverage(ctx: _Context, plants: Sequence[Card], keys: dict[int, Key]) -> None:
    holders: dict[Key, list[Card]] = {}
    for index, key in keys.items():
        holders.setdefault(key, []).append(plants[index])
    for suit in SUITS:
        for value in range(1, 14):
            cards = holders.get((suit, value), [])
            if len(cards) > 1:
                for card in cards[1:]:
                    ctx.error(
                        "suit_value", card, "suit/value", _label((suit, value)),
                        "a suit and value no other card has",
                        f"{_label((suit, value))} is on {len(cards)} cards: "
                        + ", ".join(c.name or c.id for c in cards),
                    )  # fmt: skip
            elif not cards:
                ctx.error(
                    "suit_value", None, "suit/value", "no card", _label((suit, value)),
                    f"no card is {_label((suit, value))}: each suit needs the values 1-13 once",
                )  # fmt: skip


def _check_jokers(ctx: _Context, jokers: Sequence[Card]) -> None:
    expected_ids = [f"joker-{n}" for n in range(1, JOKERS + 1)]
    seen: set[str] = set()
    for card in jokers:
        if card.id not in expected_ids or card.id in seen:
            free = [i for i in expected_ids if i not in seen and i not in {j.id for j in jokers}]
            ctx.error(
                "joker", card, "id", card.id, free[0] if free else "joker-1..3",
                "jokers are joker-1, joker-2 and joker-3, once each",
            )  # fmt: skip
        seen.add(card.id)
        for name in (
            "suit", "value", "plant_id", "name", "mw", "gwh", "head_m", "lat", "lon", "type", "nr"
        ):  # fmt: skip
            if getattr(card, name) is not None:
                ctx.error(
                    "joker", card, name, getattr(card, name), "empty",
                    "a joker carries no plant, suit, value, figures or nr. (D-5)",
                )  # fmt: skip
        _compare_flags(ctx, card, card.flags, joker_flags(), with_partners=True)


def _check_identity(ctx: _Context, plants: Sequence[Card]) -> None:
    by_plant: dict[str, list[Card]] = {}
    by_name: dict[str, list[Card]] = {}
    for card in plants:
        if not card.plant_id:
            ctx.error("plant_id", card, "plant_id", "empty", "the plant's id",
                      "a plant card must name its plant")  # fmt: skip
        else:  # by plant key: N448 and 448 are one plant
            by_plant.setdefault(plant_key(card.plant_id), []).append(card)
        if not card.name or not card.name.strip():
            ctx.error("name", card, "name", "empty", "the plant's name",
                      "a plant card must show a name")  # fmt: skip
        else:
            by_name.setdefault(" ".join(card.name.lower().split()), []).append(card)
    for cards in by_plant.values():
        plant_id = cards[0].plant_id
        for card in cards[1:]:
            ctx.error(
                "duplicate_plant", card, "plant_id", card.plant_id, "a plant not on another card",
                f"plant {plant_id} is on {len(cards)} cards: "
                + ", ".join(f"{c.id} ({c.plant_id})" if c.plant_id != plant_id else c.id
                            for c in cards),
            )  # fmt: skip
    for cards in by_name.values():
        if len(cards) > 1 and len({plant_key(c.plant_id or "") for c in cards}) > 1:
            ctx.warn(
                "duplicate_name", cards[1], "name", cards[1].name, "a name no other card has",
                "different plants share this name ("
                + ", ".join(f"{c.id} {c.plant_id}" for c in cards)
                + "); players claim plants by name, consider a display name in the spec",
            )  # fmt: skip


def _check_print_texts(ctx: _Context, layout: CardLayout | None) -> None:
    """Title and edition share the small print's first line; credits go in the booklet.

    Lengths and glyphs are checked always; the line's width in ``layout`` when there is one.
    """
    from kraftstokk.design.fonts import SANS, missing_glyphs, text_width
    from kraftstokk.design.geometry import mm

    deck = ctx.deck
    texts = (("title", deck.title, MAX_TITLE_LENGTH), ("edition", deck.edition, MAX_EDITION_LENGTH))
    for name, text, limit in texts:
        if len(text) > limit:
            ctx.error("print_text", None, name, f"{len(text)} characters",
                      f"at most {limit}", f"the {name} is too long to print")  # fmt: skip
        elif missing := missing_glyphs(text, SANS):
            shown = ", ".join(repr(ch) for ch in missing)
            ctx.error("print_text", None, name, shown, "characters the card font has",
                      f"the card font cannot print the {name}")  # fmt: skip
    if layout is not None and all(len(text) <= limit for _, text, limit in texts):
        style = layout.styles.small_print
        line = f"{deck.title} · {deck.edition}"
        width, room = text_width(line, style.face, style.size), mm(layout.boxes.footer.w)
        if width > room:
            ctx.error(
                "print_text", None, "title/edition", f"{width / mm(1):.1f} mm",
                f"at most {room / mm(1):.1f} mm",
                f'"title · edition" does not fit the small print line at {style.size:g} pt; '
                "shorten the title or the edition",
            )  # fmt: skip
    snapshot = deck.snapshot
    _check_credit_fits(ctx, layout)
    for name in ("source", "licence", "attribution", "date"):
        text = getattr(snapshot, name) or ""
        if len(text) > MAX_CREDIT_LENGTH:
            ctx.error("print_text", None, f"snapshot.{name}", f"{len(text)} characters",
                      f"at most {MAX_CREDIT_LENGTH}",
                      f"the snapshot's {name} is too long to print")  # fmt: skip
        elif missing := missing_glyphs(text, SANS):
            shown = ", ".join(repr(ch) for ch in missing)
            ctx.error("print_text", None, f"snapshot.{name}", shown,
                      "characters the card font has",
                      f"the card font cannot print the snapshot's {name}")  # fmt: skip


def _check_credit_fits(ctx: _Context, layout: CardLayout | None) -> None:
    """The data credit goes on every card whole or in its short form, never cut."""
    from kraftstokk.design.face_text import card_credit, credit_lines, credit_problem, credit_text

    data = credit_text(ctx.deck)
    if layout is None or not data or len(data) > MAX_CREDIT_LENGTH:
        return
    if credit_lines(data, layout) is None:
        ctx.error("print_text", None, "snapshot.attribution", f"{len(data)} characters",
                  "a credit whose short form fits the small print",
                  credit_problem(data, layout))  # fmt: skip
    for card in ctx.deck.plant_cards:
        own = card_credit(ctx.deck, card)
        if own and (len(own) > MAX_CREDIT_LENGTH or credit_lines(own, layout) is None):
            problem = f"{credit_problem(own, layout)}; or shorten the place's --source"
            ctx.error("print_text", card, "snapshot.card_credits", f"{len(own)} characters",
                      "a credit whose short form fits the small print", problem)  # fmt: skip


def _check_names_fit(ctx: _Context, plants: Sequence[Card], layout: CardLayout) -> None:
    from kraftstokk.design.fit import fit_name

    for card in plants:
        if card.name and card.name.strip():
            fit = fit_name(card.name, layout)
            if not fit.fits:
                ctx.error("name_fit", card, "name", card.name, "a name that fits the name box",
                          fit.reason or "name too long for the card")  # fmt: skip


def _check_places(ctx: _Context, plants: Sequence[Card]) -> None:
    """Warn where a card will show no mark on its map although the deck gives a place."""
    from kraftstokk.design.norway_outline import on_the_map

    for card in plants:
        if card.lat is None and card.lon is None:
            continue
        if card.lat is None or card.lon is None:
            missing = "lat" if card.lat is None else "lon"
            ctx.warn(
                "place", card, missing, "empty", "both lat and lon",
                "half a location: the card shows its picture without a map",
            )  # fmt: skip
        elif not on_the_map(card.lat, card.lon):
            ctx.warn(
                "place", card, "lat/lon", f"{card.lat}, {card.lon}", "a place in mainland Norway",
                "outside the card's map of Norway: the map shows no mark",
            )  # fmt: skip


def _deck_layout(ctx: _Context) -> CardLayout | None:
    """The layout the deck is rendered in (its ``[print]`` preset's, else its ``[style]
    layout``); an unknown preset or layout is a problem of the deck."""
    from kraftstokk.design.layout import layout_names, load_layout
    from kraftstokk.design.presets import (
        PresetError,
        deck_layout_name,
        preset_names,
        preset_of_deck,
    )
    from kraftstokk.errors import LayoutError

    try:
        name = deck_layout_name(ctx.deck)
    except PresetError as exc:
        ctx.error("layout", None, "spec.print.preset", preset_of_deck(ctx.deck) or "",
                  f"one of {', '.join(preset_names())}", exc.message)  # fmt: skip
        return None
    try:
        return load_layout(name)
    except LayoutError as exc:
        ctx.error("layout", None, "spec.style.layout", name,
                  f"one of {', '.join(layout_names())}", exc.message)  # fmt: skip
        return None


def _check_figures(ctx: _Context, plants: Sequence[Card]) -> set[Category]:
    """Report missing, non-positive and implausible figures; return the rankable categories."""
    rankable: set[Category] = set(CATEGORIES)
    for card in plants:
        for category in CATEGORIES:
            value = getattr(card, category)
            unit = CATEGORY_UNITS[category]
            low, high = FIGURE_LIMITS[category]
            if value is None or not math.isfinite(value) or value <= 0:
                rankable.discard(category)
                ctx.error(
                    "figure", card, category, _fmt(value), f"a positive figure in {unit}",
                    f"{CATEGORY_LABELS[category]} must be present and positive (D-2)",
                )  # fmt: skip
            elif not low <= value <= high:
                rankable.discard(category)
                ctx.error(
                    "figure_range", card, category, f"{_fmt(value)} {unit}",
                    f"{_fmt(low)} to {_fmt(high)} {unit}",
                    f"{CATEGORY_LABELS[category]} is outside what any plant has "
                    "(it could not be printed right)",
                )  # fmt: skip
            elif value > PLAUSIBLE_MAX[category]:
                ctx.warn(
                    "implausible", card, category, f"{_fmt(value)} {unit}",
                    f"at most {_fmt(PLAUSIBLE_MAX[category])} {unit}",
                    f"{CATEGORY_LABELS[category]} is implausibly high; check the source",
                )  # fmt: skip
        if (
            card.mw is not None and card.gwh is not None and card.mw > 0
            and math.isfinite(card.gwh) and card.gwh > card.mw * HOURS_PER_YEAR / 1000
        ):  # fmt: skip
            ceiling = card.mw * HOURS_PER_YEAR / 1000
            ctx.warn(
                "implausible", card, "gwh", f"{_fmt(card.gwh)} GWh",
                f"at most {ceiling:.0f} GWh ({_fmt(card.mw)} MW all year)",
                "production is more than the capacity can give running all year",
            )  # fmt: skip
    return rankable


def _tie_break(deck: Deck) -> str:
    rule = deck.spec.get("tie_break", DEFAULT_TIE_BREAK)
    return rule if rule in TIE_BREAK_RULES else DEFAULT_TIE_BREAK


def _check_nr(
    ctx: _Context, plants: Sequence[Card], rankable: set[Category]
) -> dict[Category, dict[int, int]]:
    """Check nr. against the figures; return each card's trusted nr. per category."""
    trusted: dict[Category, dict[int, int]] = {c: {} for c in CATEGORIES}
    for card in plants:
        if card.nr is None:
            ctx.error("nr", card, "nr", "empty", "nr. per category",
                      "a plant card must carry its nr. in each category (D-3)")  # fmt: skip
    full = len(plants) == DECK_SIZE
    for category in CATEGORIES:
        field = f"nr_{category}"
        found = {i: card.nr.get(category) for i, card in enumerate(plants) if card.nr}
        if full and category in rankable and len(found) == len(plants):
            items = [
                RankItem(str(i), card.plant_id or "", _rank_figures(card, rankable))
                for i, card in enumerate(plants)
            ]
            _check_category(ctx, plants, category, items, found, trusted[category])
        else:
            _check_permutation(ctx, plants, category, field, found, trusted[category])
    return trusted


def _rank_figures(card: Card, rankable: set[Category]) -> dict[Category, float]:
    """Figures for ranking; an unusable figure counts as 0 (it only breaks ties)."""
    return {c: card.figure(c) if c in rankable else 0.0 for c in CATEGORIES}


def _check_category(
    ctx: _Context,
    plants: Sequence[Card],
    category: Category,
    items: list[RankItem],
    found: dict[int, int],
    trusted: dict[int, int],
) -> None:
    expected, ties = rank_category(items, category, _tie_break(ctx.deck))
    bounds = nr_bounds(items, category)
    holders: dict[int, list[int]] = {}
    for index, nr in found.items():
        holders.setdefault(nr, []).append(index)
    groups: dict[tuple[int, int], list[int]] = {}
    for index in range(len(plants)):
        groups.setdefault(bounds[str(index)], []).append(index)
    label, unit = CATEGORY_LABELS[category], CATEGORY_UNITS[category]
    for (low, high), members in groups.items():
        if sorted(found[i] for i in members) == list(range(low, high + 1)):
            for i in members:
                trusted[i] = found[i]
            continue
        for i in members:
            right = expected[str(i)]
            trusted[i] = right
            if found[i] == right:
                continue
            card = plants[i]
            others = [plants[j].id for j in holders.get(found[i], []) if j != i]
            message = (
                f"nr. in {label} is {found[i]}, but {_fmt(card.figure(category))} {unit} "
                f"is nr. {right} of the deck"
            )
            if high > low:
                message += f" (tied with {high - low} other cards for nr. {low}-{high})"
            if others:
                message += f"; nr. {found[i]} is also on {', '.join(others)}"
            ctx.error("nr", card, f"nr_{category}", found[i], right, message)
    rule = _tie_break(ctx.deck)
    for tie in ties:
        tied = [int(key) for key in tie.keys]
        if [found[i] for i in tied] == list(tie.nrs):
            how = f"broken by the {tie_break_words(rule)}"
        else:  # any order agrees with the figures, but the documented rule gives this one
            how = f"not in the order of the {tie_break_words(rule)}, which gives " + ", ".join(
                f"{plants[i].id} nr. {nr}" for i, nr in zip(tied, tie.nrs, strict=True)
            )
        ctx.warn(
            "tie", plants[tied[0]], category,
            f"{len(tied)} cards at {_fmt(tie.figure)} {unit}", "distinct figures",
            f"tie in {label} at {_fmt(tie.figure)} {unit}: "
            + ", ".join(f"nr. {found[i]} {plants[i].id} ({plants[i].name})" for i in tied)
            + f" ({how})",
        )  # fmt: skip


def _check_permutation(
    ctx: _Context,
    plants: Sequence[Card],
    category: Category,
    field: str,
    found: dict[int, int],
    trusted: dict[int, int],
) -> None:
    holders: dict[int, list[int]] = {}
    for index, nr in found.items():
        if not 1 <= nr <= DECK_SIZE:
            ctx.error("nr", plants[index], field, nr, f"1-{DECK_SIZE}",
                      f"nr. must be between 1 and {DECK_SIZE}")  # fmt: skip
        else:
            holders.setdefault(nr, []).append(index)
            trusted[index] = nr
    for nr, indexes in sorted(holders.items()):
        for index in indexes[1:]:
            ctx.error(
                "nr", plants[index], field, nr, "a nr. no other card has",
                f"nr. {nr} in {CATEGORY_LABELS[category]} is on "
                + ", ".join(plants[i].id for i in indexes),
            )  # fmt: skip
    if len(plants) == DECK_SIZE and len(found) == DECK_SIZE:
        missing = [nr for nr in range(1, DECK_SIZE + 1) if nr not in holders]
        if missing:
            ctx.error(
                "nr", None, field, "no card", ", ".join(map(str, missing)),
                f"nr. {', '.join(map(str, missing))} in {CATEGORY_LABELS[category]} "
                "is on no card: each category's nr. must be 1-52 once each",
            )  # fmt: skip


def _compare_flags(
    ctx: _Context, card: Card, found: CardFlags, expected: CardFlags, with_partners: bool
) -> None:
    pairs: list[tuple[str, object, object]] = []
    for category in CATEGORIES:
        pairs.append((f"invisible_{category}", found.invisible.get(category),
                      expected.invisible.get(category)))  # fmt: skip
        pairs.append((f"top3_{category}", found.top3.get(category), expected.top3.get(category)))
    pairs += [
        ("burn", found.burn, expected.burn),
        ("reset", found.reset, expected.reset),
        ("gwh_tens", found.gwh_tens, expected.gwh_tens),
    ]
    if with_partners:
        pairs.append(("war_partners", sorted(found.war_partners), sorted(expected.war_partners)))
    for name, have, want in pairs:
        if have != want:
            ctx.error("flags", card, name, _flag_text(have), _flag_text(want),
                      _FLAG_RULES[name.split("_")[0]])  # fmt: skip


_FLAG_RULES = {
    "invisible": "invisible (D-4) must be true exactly for nr. 50-52 in that category",
    "top3": "top3 (KI-8) must be true exactly for nr. 1-3 in that category",
    "burn": "burn (SK-10) must be true exactly for the jokers and kløver 1-4",
    "reset": "reset (SK-11) must be true exactly for the four 2s",
    "gwh": "gwh_tens (SK-6) must be the production rounded down to tens",
    "war": "war_partners (SK-6) must list the other cards with the same gwh_tens",
}


def _flag_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return " ".join(str(v) for v in value) or "none"
    return _fmt(value) if isinstance(value, (int, float)) or value is None else str(value)


def _check_flags(
    ctx: _Context,
    plants: Sequence[Card],
    keys: dict[int, Key],
    trusted: dict[Category, dict[int, int]],
) -> None:
    computed: dict[int, int] = {}
    partner_tens: dict[int, int] = {}
    for index, card in enumerate(plants):
        if card.gwh is not None and math.isfinite(card.gwh) and card.gwh > 0:
            computed[index] = partner_tens[index] = gwh_tens(card.gwh)
        elif card.flags.gwh_tens is not None:
            # Production itself is reported; keep its partners' lists checkable.
            partner_tens[index] = card.flags.gwh_tens
    true_ids = {i: card_id(*keys[i]) if i in keys else plants[i].id for i in range(len(plants))}
    for index, card in enumerate(plants):
        suit, value = keys.get(index) or (card.suit, card.value)
        known = {c: trusted[c][index] for c in CATEGORIES if index in trusted[c]}
        recorded = card.flags
        expected = CardFlags(
            invisible=CategoryFlags(**{
                c: is_invisible(known[c]) if c in known else recorded.invisible.get(c)
                for c in CATEGORIES
            }),
            top3=CategoryFlags(**{
                c: is_top3(known[c]) if c in known else recorded.top3.get(c) for c in CATEGORIES
            }),
            burn=is_burn(suit, value),
            reset=is_reset(value),
            gwh_tens=computed.get(index, recorded.gwh_tens),
        )  # fmt: skip
        with_partners = index in partner_tens
        if with_partners:
            expected.war_partners = [
                true_ids[j]
                for j in partner_tens
                if j != index and partner_tens[j] == partner_tens[index]
            ]
        _compare_flags(ctx, card, recorded, expected, with_partners)


def _check_ladder(
    ctx: _Context, plants: Sequence[Card], keys: dict[int, Key], production_nr: dict[int, int]
) -> None:
    """A deck whose spec deals by the production ladder (D-6): warn on a value off its rung.

    The policy is the spec's choice, so this only applies to a deck.json that records it;
    a value left over from before a figure was edited is the usual cause.
    """
    from kraftstokk.deck.assign import LADDER_VALUES

    policy = ctx.deck.spec.get("policy")
    if not isinstance(policy, dict) or policy.get("kind") != "production-ladder":
        return
    if policy.get("keep"):
        return  # a reprint keeps the previous deck's values, whatever the figures now say
    if len(plants) != DECK_SIZE or len(production_nr) != DECK_SIZE:
        return
    for index, card in enumerate(plants):
        nr = production_nr[index]
        expected = LADDER_VALUES[(nr - 1) // 4]
        value = keys[index][1] if index in keys else card.value
        if value != expected:
            ctx.warn(
                "ladder", card, "value", _fmt(value), expected,
                f"the spec deals by the production ladder (D-6): production nr. {nr} "
                f"gets value {expected}; rebuild the deck after changing figures",
            )  # fmt: skip


def validate_deck(
    deck: Deck, source: str = "", layout: CardLayout | None = None
) -> ValidationReport:
    """Check everything that makes the deck printable and playable; collect all problems.

    Names are fitted in ``layout``, by default the one the deck's ``[style] layout`` chooses.
    """
    ctx = _Context(deck=deck, errors=[], warnings=[])
    layout = layout or _deck_layout(ctx)
    plants = [card for card in deck.cards if not card.joker]
    jokers = [card for card in deck.cards if card.joker]
    _check_counts(ctx, plants, jokers)
    keys = _resolve_keys(ctx, plants)
    _check_coverage(ctx, plants, keys)
    _check_jokers(ctx, jokers)
    _check_identity(ctx, plants)
    _check_print_texts(ctx, layout)
    if layout is not None:
        _check_names_fit(ctx, plants, layout)
    _check_places(ctx, plants)
    rankable = _check_figures(ctx, plants)
    trusted = _check_nr(ctx, plants, rankable)
    _check_flags(ctx, plants, keys, trusted)
    _check_ladder(ctx, plants, keys, trusted["gwh"])
    return ValidationReport(
        source=source,
        cards=len(deck.cards),
        errors=ctx.errors,
        warnings=ctx.warnings,
        summary=summarize(ctx, plants, source),
        tie_break=tie_break_words(_tie_break(deck)),
    )


def _out_of_place(plants: Sequence[Card]) -> int:
    """The fewest cards whose figure disagrees with its nr., over the categories.

    In nr. order the figures must fall; the cards off the longest falling run are the
    ones whose figure (or nr.) was changed by hand: one edited figure gives 1, however
    many nr. it shifts.
    """
    import bisect

    moved = 0
    for category in CATEGORIES:
        pairs = [
            (card.nr.get(category), card.figure(category))
            for card in plants
            if card.nr is not None
            and getattr(card, category) is not None
            and math.isfinite(card.figure(category))
        ]
        run: list[float] = []  # longest non-increasing run of figures, as rising -figure
        for _, figure in sorted(pairs):
            position = bisect.bisect_right(run, -figure)
            if position == len(run):
                run.append(-figure)
            else:
                run[position] = -figure
        moved += len(pairs) - len(run)
    return moved


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


#: Rules whose errors a person must fix by hand (repair cannot decide them).
BY_HAND = {
    "figure": ("figure is missing or not positive", "figures are missing or not positive"),
    "figure_range": (
        "figure is outside what any plant has",
        "figures are outside what any plant has",
    ),
    "suit_value": ("suit and value problem", "suit and value problems"),
    "card_count": ("card count is wrong", "card counts are wrong"),
    "plant_id": ("plant id is missing", "plant ids are missing"),
    "duplicate_plant": ("plant is on two cards", "plants are on two cards"),
    "name": ("name is missing", "names are missing"),
    "name_fit": ("name does not fit its card", "names do not fit their cards"),
}


def summarize(ctx: _Context, plants: Sequence[Card], source: str) -> str:
    """One sentence: how many problems of each kind, and what fixes them."""
    if not ctx.errors:
        return "no errors" + (
            f"; {_count(len(ctx.warnings), 'warning', 'warnings')} worth a look"
            if ctx.warnings
            else ""
        )
    by_rule: dict[str, set[str]] = {}
    for problem in ctx.errors:
        by_rule.setdefault(problem.rule, set()).add(f"{problem.card}|{problem.field}")
    nr_errors = len(by_rule.get("nr", ()))
    repairable: list[str] = []
    if nr_errors:
        moved = min(_out_of_place(plants), nr_errors) or 1
        its = "its" if moved == 1 else "their"
        repairable.append(
            _count(moved, f"figure differs from {its} nr.", f"figures differ from {its} nr.")
        )
        if nr_errors > moved:
            repairable.append(
                f"{nr_errors - moved} nr. follow from {'it' if moved == 1 else 'them'}"
            )
    if "flags" in by_rule:
        flags = len(by_rule["flags"])
        repairable.append(f"{flags} flag{'s' if flags != 1 else ''} follow from the nr. and values")
    if "card_id" in by_rule:
        repairable.append(_count(len(by_rule["card_id"]), "card id differs from its suit and value",
                                 "card ids differ from their suit and value"))  # fmt: skip
    if "joker" in by_rule:
        repairable.append(_count(len(by_rule["joker"]), "joker is not a plain joker",
                                 "jokers are not plain jokers"))  # fmt: skip
    by_hand = [
        _count(len(keys), *BY_HAND[rule]) for rule, keys in by_rule.items() if rule in BY_HAND
    ]
    parts = []
    if repairable:
        parts.append(
            "; ".join(repairable) + f" — `kraftstokk repair {source or 'DECK'}` recomputes them"
        )
    if by_hand:
        parts.append("; ".join(by_hand) + " — fix these by hand" + (" first" if repairable else ""))
    return "; ".join(parts)


def require_figures_in_range(deck: Deck, source: str) -> None:
    """Refuse (one line, exit 2) a deck with a figure no plant has (``1e28`` m): no
    reprint verdict, repair or proof can be made of it, since it cannot be printed."""
    found: list[str] = []
    for card in deck.plant_cards:
        for category in CATEGORIES:
            value = getattr(card, category)
            low, high = FIGURE_LIMITS[category]
            if value is not None and not (math.isfinite(value) and low <= value <= high):
                unit = CATEGORY_UNITS[category]
                found.append(
                    f"{card.id} ({clip(card.name or '', 40)}) {category} {value:g} {unit} is "
                    f"outside what any plant has ({_fmt(low)} to {_fmt(high)} {unit})"
                )
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise InputFileError(
            source,
            f"{found[0]}{more}: it cannot be printed, so no verdict or repair can be made "
            "of it; fix the figure",
        )


def require_valid(deck: Deck, source: str, layout: CardLayout | None = None) -> None:
    """Raise ValidationFailed (exit 1) listing every error when the deck is not printable."""
    report = validate_deck(deck, source, layout)
    if not report.ok:
        raise ValidationFailed(source, [problem.line() for problem in report.errors])
