"""``kraftstokk places``: a table of plant places and types, for builds from NVE's API."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kraftstokk.cli.app import app, handle_errors, writes_into
from kraftstokk.cli.commands.ingest import minimum
from kraftstokk.cli.options import created_option, data_date_option, out_option
from kraftstokk.sources import formats

DEFAULT_PLACES = Path("sources/plant-places.csv")


@app.command()
@handle_errors
@writes_into(lambda a: a["out"].parent)
def places(
    sources: Annotated[
        list[Path],
        typer.Argument(
            metavar="SOURCE",
            help="Plant files with places or types: the JRC database CSV (both), or an NVE "
            "export (types).",
        ),
    ],
    format: Annotated[
        str, typer.Option("--format", metavar="FORMAT", help=formats.help_text())
    ] = "auto",
    out: Annotated[
        Path,
        out_option(
            "Place table to write; its provenance goes beside it as <stem>.provenance.json.",
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
) -> None:
    """Write the place table: each plant's key, lat, lon and type, from its sources.

    NVE's API has no coordinates and does not say reservoir or run-of-river; build
    carries both from this table (the spec's carry_from) for plants whose snapshot lacks
    them, and credits the table's source on the cards. Rows without a place or a type
    are counted and left out; a plant is listed once, by its plant key (JRC N448 and
    NVE 448 are one plant).

    Example:

    \b
        kraftstokk places ../shared/data/jrc-hydro-power-plant-database.csv \\
            --min-mw 20 --data-date 2024-01 --created 2026-12-01 \\
            --out sources/plant-places.csv
    """
    from kraftstokk.atomic import refuse_overwriting
    from kraftstokk.sources.places import places_from_files, write_places
    from kraftstokk.sources.snapshot import provenance_path

    refuse_overwriting(sources, [out, provenance_path(out)])
    table = places_from_files(
        sources, fmt=format, created=created, data_date=data_date, min_mw=min_mw
    )
    meta = write_places(table, out)
    for line in table.provenance.quality.lines():
        if not line.startswith("repeated names"):
            typer.echo(line)
    with_place = sum(1 for place in table.places.values() if place.has_place)
    with_type = sum(1 for place in table.places.values() if place.type is not None)
    typer.echo(
        f"wrote {out} ({len(table.places)} plants: {with_place} with a place, "
        f"{with_type} with a type) and {meta}"
    )
