"""Choose the deck's 52 plants from a snapshot, following the spec's selection table.

Order of the rule: pinned plants first; then, for each price area or county short of its
minimum, that group's highest plants; then the highest of the rest until there are 52.
"Highest" is by the selection figure (production by default), ties by the tie-break rule.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from kraftstokk.deck.rank import RankItem, sort_key
from kraftstokk.deck.spec import DeckSpec
from kraftstokk.errors import SpecError
from kraftstokk.models import DECK_SIZE, Plant
from kraftstokk.sources.plant_keys import key_clashes, plant_key


@dataclass
class SelectionResult:
    plants: list[Plant]
    eligible: int
    pinned: list[str] = field(default_factory=list)
    #: Excluded plant ids (names in the spec resolved).
    excluded: list[str] = field(default_factory=list)
    group_minimums: dict[str, int] = field(default_factory=dict)
    #: Plants left out although their selection figure equals the lowest one taken in.
    cut_ties: list[Plant] = field(default_factory=list)
    #: The spec's ``[names]`` resolved: plant id (as the snapshot spells it) to card name.
    names: dict[str, str] = field(default_factory=dict)


def rank_item(plant: Plant) -> RankItem:
    return RankItem(
        key=plant.id,
        plant_id=plant.id,
        figures={"mw": plant.mw, "gwh": plant.gwh, "head_m": plant.head_m},
    )


def unknown_plant(key: str, entry: str, by_id: Mapping[str, Plant]) -> SpecError:
    """'plant "Funa" is not in the snapshot; did you mean N101 (Funna)?'"""
    names = {plant.name.casefold(): plant for plant in by_id.values()}
    close_ids = difflib.get_close_matches(entry, list(by_id), n=1, cutoff=0.6)
    by_plant_key = {plant_key(plant.id): plant for plant in by_id.values()}
    close_ids = close_ids or [
        by_plant_key[k].id
        for k in difflib.get_close_matches(plant_key(entry), list(by_plant_key), n=1, cutoff=0.6)
    ]
    close_names = difflib.get_close_matches(entry.casefold(), list(names), n=1, cutoff=0.6)
    guess = by_id[close_ids[0]] if close_ids else names[close_names[0]] if close_names else None
    hint = f"; did you mean {guess.id} ({guess.name})?" if guess else ""
    return SpecError(f'{key}: plant "{entry}" is not in the snapshot{hint}')


def resolve_plant(key: str, entry: str, by_id: Mapping[str, Plant]) -> str:
    """The snapshot's id of the plant ``entry`` names: an id in either spelling (``N448``
    or ``448``: :func:`~kraftstokk.sources.plant_keys.plant_key`) or a plant name (refused
    when several plants share it)."""
    same = _same_key(entry, by_id)
    if same is not None:
        return same
    named = [plant for plant in by_id.values() if plant.name.casefold() == entry.casefold()]
    if len(named) == 1:
        return named[0].id
    if named:
        which = ", ".join(f"{plant.id} ({plant.name})" for plant in named)
        raise SpecError(f'{key}: "{entry}" names {len(named)} plants: {which}; give the id')
    raise unknown_plant(key, entry, by_id)


def select_plants(plants: Sequence[Plant], spec: DeckSpec) -> SelectionResult:
    """The 52 plants of the deck, highest selection figure first.

    Pinned and excluded plants may be given by id or by name; an unknown one is an error
    with the closest id or name suggested.
    """
    selection = spec.selection
    by_id: dict[str, Plant] = {}
    for plant in plants:
        if plant.id in by_id:
            raise SpecError(f'snapshot: plant id "{plant.id}" appears twice')
        by_id[plant.id] = plant
    for first, second in key_clashes(by_id)[:1]:
        raise SpecError(
            f'snapshot: plant ids "{first}" and "{second}" name one plant '
            f"(key {plant_key(first)}); keep one of them"
        )

    pinned = [resolve_plant("selection.pinned", entry, by_id) for entry in selection.pinned]
    from_pinned = set(pinned)
    if spec.policy.kind == "table":
        for entry in spec.policy.table.values():
            plant_id = plant_id_in("policy.table", entry, by_id)
            if plant_id not in pinned:
                pinned.append(plant_id)
    excluded = {resolve_plant("selection.excluded", entry, by_id) for entry in selection.excluded}
    for plant_id in pinned:
        key = "selection.pinned" if plant_id in from_pinned else "policy.table"
        if plant_id in excluded:
            raise SpecError(f'{key}: plant "{plant_id}" is also in selection.excluded')
    if len(set(pinned)) != len(pinned):
        dupes = sorted({p for p in pinned if pinned.count(p) > 1})
        raise SpecError(f'selection.pinned: plant "{dupes[0]}" is listed twice')
    if len(pinned) > DECK_SIZE:
        raise SpecError(f"selection.pinned: {len(pinned)} plants pinned, a deck has {DECK_SIZE}")
    names = {plant_id_in("names", entry, by_id): name for entry, name in spec.names.items()}

    eligible = [plant for plant in plants if plant.id not in excluded]
    if len(eligible) < DECK_SIZE:
        raise SpecError(
            f"selection: only {len(eligible)} eligible plants in the snapshot "
            f"(after {len(excluded)} excluded), a deck needs {DECK_SIZE}"
        )
    ordered = sorted(
        eligible, key=lambda plant: sort_key(rank_item(plant), selection.by, spec.tie_break)
    )
    chosen: list[Plant] = [by_id[plant_id] for plant_id in pinned]
    chosen_ids = set(pinned)
    minimums: dict[str, int] = {}

    for key, attribute, minimum in (
        ("selection.min_per_price_area", "price_area", selection.min_per_price_area),
        ("selection.min_per_county", "county", selection.min_per_county),
    ):
        if minimum == 0:
            continue
        groups = sorted({getattr(p, attribute) for p in eligible if getattr(p, attribute)})
        if not groups:
            raise SpecError(f"{key}: the snapshot has no {attribute.replace('_', ' ')} values")
        for group in groups:
            members = [p for p in ordered if getattr(p, attribute) == group]
            if len(members) < minimum:
                raise SpecError(
                    f"{key}: {group} has only {len(members)} eligible plants, {minimum} required"
                )
            have = sum(1 for p in chosen if getattr(p, attribute) == group)
            for plant in members:
                if have >= minimum:
                    break
                if plant.id not in chosen_ids:
                    chosen.append(plant)
                    chosen_ids.add(plant.id)
                    have += 1
            minimums[f"{attribute} {group}"] = have
        if len(chosen) > DECK_SIZE:
            raise SpecError(
                f"{key}: {minimum} per group across {len(groups)} groups (with pinned plants) "
                f"needs {len(chosen)} plants, a deck has {DECK_SIZE}"
            )

    filled: list[Plant] = []
    for plant in ordered:
        if len(chosen) >= DECK_SIZE:
            break
        if plant.id not in chosen_ids:
            chosen.append(plant)
            chosen_ids.add(plant.id)
            filled.append(plant)
    cut_ties: list[Plant] = []
    if filled:
        cut = filled[-1].figure(selection.by)
        cut_ties = [p for p in ordered if p.id not in chosen_ids and p.figure(selection.by) == cut]

    chosen.sort(key=lambda plant: sort_key(rank_item(plant), selection.by, spec.tie_break))
    return SelectionResult(
        plants=chosen,
        eligible=len(eligible),
        pinned=pinned,
        excluded=sorted(excluded),
        group_minimums=minimums,
        cut_ties=cut_ties,
        names=names,
    )


def _same_key(entry: str, by_id: Mapping[str, Plant]) -> str | None:
    """The snapshot's id of the plant whose id ``entry`` is in either spelling."""
    if entry in by_id:
        return entry
    wanted = plant_key(entry)
    return next((plant.id for plant in by_id.values() if plant_key(plant.id) == wanted), None)


def plant_id_in(key: str, entry: str, by_id: Mapping[str, Plant]) -> str:
    """An id-keyed spec table's entry (``[names]``, ``[figures]``, ``[policy] table``): the
    snapshot's id of the plant, the id given in either spelling (``N448`` or ``448``)."""
    same = _same_key(entry, by_id)
    if same is None:
        raise unknown_plant(key, entry, by_id)
    return same
