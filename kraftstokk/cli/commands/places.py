"""``kraftstokk places``: a table of plant places and types, for builds from NVE's API."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from kraftstokk.cli.app import app, fail, handle_errors, writes_into
from kraftstokk.cli.commands.ingest import minimum
from kraftstokk.cli.options import created_option, data_date_option, number, out_option
from kraftstokk.sources import formats

DEFAULT_PLACES = Path("sources/plant-places.csv")


class TypeChoice(StrEnum):
    reservoir = "reservoir"
    run_of_river = "run-of-river"
    pumped_storage = "pumped-storage"


@app.command()
@handle_errors
@writes_into(lambda a: a["out"].parent)
def places(
    sources: Annotated[
        list[Path] | None,
        typer.Argument(
            metavar="[SOURCE]...",
            help="Plant files with places or types: the JRC database CSV (both), or an NVE "
            "export (types; its coordinates only with --source). None with --add.",
        ),
    ] = None,
    format: Annotated[
        str, typer.Option("--format", metavar="FORMAT", help=formats.help_text())
    ] = "auto",
    out: Annotated[
        Path,
        out_option(
            "Place table to write (with --add: to add to); its provenance goes beside it as "
            "<stem>.provenance.json.",
            metavar="PATH",
        ),
    ] = DEFAULT_PLACES,
    min_mw: Annotated[
        float | None,
        typer.Option(
            "--min-mw",
            metavar="MW",
            parser=minimum("mw", "MW"),
            help="List only plants of at least this many MW (rows without a capacity too "
            "are left out).",
        ),
    ] = None,
    data_date: Annotated[str | None, data_date_option("the data")] = None,
    created: Annotated[str | None, created_option()] = None,
    add: Annotated[
        str | None,
        typer.Option(
            "--add",
            metavar="PLANT",
            help="Add (or replace) one plant's place in the table --out names, with --lat, "
            "--lon, --type and --source: a new plant no source has a place for.",
        ),
    ] = None,
    lat: Annotated[
        float | None,
        typer.Option(
            "--lat", parser=number("--lat", float, -90.0, 90.0, unit="degrees"), help="Latitude."
        ),
    ] = None,
    lon: Annotated[
        float | None,
        typer.Option(
            "--lon",
            parser=number("--lon", float, -180.0, 180.0, unit="degrees"),
            help="Longitude.",
        ),
    ] = None,
    kind: Annotated[
        TypeChoice | None, typer.Option("--type", help="What kind of plant it is.")
    ] = None,
    source: Annotated[
        str | None,
        typer.Option(
            "--source",
            metavar="TEXT",
            help="Who measured the places (and its licence), e.g. 'Kartverket, CC BY 4.0': "
            "printed on the cards of those plants as their map's credit. Needed with --add, "
            "and for the coordinates of an NVE file (NVE publishes none).",
        ),
    ] = None,
) -> None:
    """Write the place table: each plant's key, lat, lon and type, from its sources.

    NVE's API has no coordinates and does not say reservoir or run-of-river; build
    carries both from this table (the spec's carry_from) for plants whose snapshot lacks
    them, and credits the table's source on the cards. Rows without a place or a type
    are counted and left out; a plant is listed once, by its plant key (JRC N448 and
    NVE 448 are one plant). With --add, one plant's place is added to the table, stating
    its own source, which that plant's card credits for its map (the other cards keep
    theirs, so no other face changes).

    Example:

    \b
        kraftstokk places ../shared/data/jrc-hydro-power-plant-database.csv \\
            --min-mw 20 --data-date 2024-01 --created 2026-12-01 \\
            --out sources/plant-places.csv
        kraftstokk places --add 7311 --lat 60.40 --lon 6.20 --type reservoir \\
            --source "Kartverket, CC BY 4.0" --out sources/plant-places.csv
    """
    from kraftstokk.atomic import refuse_overwriting
    from kraftstokk.sources.places import places_from_files, write_places
    from kraftstokk.sources.snapshot import provenance_path

    source = " ".join(source.split()) if source is not None else None
    if add is not None:
        if sources:
            raise fail("--add adds one plant to the table --out names: give no SOURCE files")
        _add(add, lat, lon, kind, source, out, created)
        return
    if not sources:
        raise fail("give the SOURCE files to read places from, or --add PLANT")
    if lat is not None or lon is not None or kind is not None:
        raise fail("--lat, --lon and --type go with --add PLANT")
    refuse_overwriting(sources, [out, provenance_path(out)])
    table = places_from_files(
        sources, fmt=format, created=created, data_date=data_date, min_mw=min_mw, source=source
    )
    meta = write_places(table, out)
    for line in table.provenance.quality.lines():
        if not line.startswith("repeated names"):
            typer.echo(line)
    if table.unsourced:
        typer.echo(
            f"left out the coordinates of {table.unsourced} plants (their types kept): their "
            "file's source publishes none (NVE does not), so they come from elsewhere; give "
            "--source 'who measured them' to keep them, credited so on their cards"
        )
    with_place = sum(1 for place in table.places.values() if place.has_place)
    with_type = sum(1 for place in table.places.values() if place.type is not None)
    typer.echo(
        f"wrote {out} ({len(table.places)} plants: {with_place} with a place, "
        f"{with_type} with a type) and {meta}"
    )


def _add(
    plant: str,
    lat: float | None,
    lon: float | None,
    kind: TypeChoice | None,
    source: str | None,
    out: Path,
    created: str | None,
) -> None:
    from kraftstokk.models import PLANT_TYPES
    from kraftstokk.sources.places import MAX_SOURCE, Place, added_place, write_places
    from kraftstokk.sources.plant_keys import plant_key

    if not plant_key(plant):
        raise fail("--add: give the plant's id (7311 or N7311)")
    if (lat is None) != (lon is None):
        raise fail("--add: a place needs both --lat and --lon")
    if lat is None and kind is None:
        raise fail("--add: give the place (--lat and --lon), the --type, or both")
    if not source:
        raise fail(
            "--add: give --source, who measured the place (e.g. 'Kartverket, CC BY 4.0'): "
            "the plant's card credits it"
        )
    if len(source) > MAX_SOURCE:
        raise fail(f"--source has {len(source)} characters (at most {MAX_SOURCE})")
    chosen = next((t for t in PLANT_TYPES if kind is not None and t == kind.value), None)
    place = Place(lat=lat, lon=lon, type=chosen, source=source)
    table, before = added_place(out, plant, place, created)
    meta = write_places(table, out)
    done = "replaced" if before is not None else "added"
    typer.echo(
        f"{done} plant {plant_key(plant)} in {out} ({len(table.places)} plants), its source "
        f"{source!r}; wrote {out} and {meta}"
    )
