"""``kraftstokk ingest``: plant files (NVE JSON/CSV/XLSX, JRC CSV) to a normalized snapshot."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from kraftstokk.cli.app import app, handle_errors, writes_into
from kraftstokk.cli.options import (
    SNAPSHOT_FOLDER,
    created_option,
    data_date_option,
    number,
    out_option,
)
from kraftstokk.limits import FIGURE_LIMITS
from kraftstokk.sources import formats


def minimum(category: str, unit: str) -> Any:
    """Parser of ``--min-<category>``: a figure from 0 up to the highest a plant may have."""
    option = f"--min-{category.replace('_', '-')}"
    return number(option, float, 0.0, FIGURE_LIMITS[category][1], unit=unit)


@app.command()
@handle_errors
@writes_into(lambda a: a["out"].parent if a["out"] is not None else SNAPSHOT_FOLDER)
def ingest(
    sources: Annotated[
        list[Path],
        typer.Argument(
            metavar="SOURCE",
            help="Plant files: NVE API JSON, NVE CSV or Excel (.xlsx) export, "
            "or the JRC database CSV.",
        ),
    ],
    format: Annotated[
        str,
        typer.Option("--format", metavar="FORMAT", help=formats.help_text()),
    ] = "auto",
    out: Annotated[
        Path | None,
        out_option(
            "Snapshot CSV to write (provenance goes beside it as <stem>.provenance.json). "
            "Default: sources/<format>-<date>.csv.",
            metavar="PATH",
        ),
    ] = None,
    min_mw: Annotated[
        float | None,
        typer.Option(
            "--min-mw",
            metavar="MW",
            parser=minimum("mw", "MW"),
            help="Keep plants of at least this many MW.",
        ),
    ] = None,
    min_gwh: Annotated[
        float | None,
        typer.Option(
            "--min-gwh",
            metavar="GWH",
            parser=minimum("gwh", "GWh"),
            help="Keep plants producing at least this many GWh a year.",
        ),
    ] = None,
    min_head_m: Annotated[
        float | None,
        typer.Option(
            "--min-head-m",
            metavar="M",
            parser=minimum("head_m", "m"),
            help="Keep plants with at least this gross head (m).",
        ),
    ] = None,
    minimal: Annotated[
        bool,
        typer.Option(
            "--minimal",
            help="Keep only the columns a deck needs (id, name, mw, gwh, head_m, lat, lon, "
            "type, source, source_id); county, municipality, owner, year and price area "
            "stay empty.",
        ),
    ] = False,
    data_date: Annotated[str | None, data_date_option("the figures")] = None,
    created: Annotated[str | None, created_option()] = None,
) -> None:
    """Read plant files, normalize them and write a snapshot with its quality report.

    Plants missing a figure (MW, GWh, gross head), or with zero, negative or unreadable
    figures, are dropped and counted; different plants with the same name stay apart.
    Several files are normalized together into one snapshot.

    Example:

    \b
        kraftstokk ingest ../shared/data/jrc-hydro-power-plant-database.csv \\
            --min-mw 20 --data-date 2024-01 --created 2026-11-29 \\
            --out sources/jrc-2024-01.csv
    """
    from kraftstokk.atomic import refuse_overwriting
    from kraftstokk.sources.ingest import ingest_files
    from kraftstokk.sources.normalize import Filters
    from kraftstokk.sources.snapshot import provenance_path, write_snapshot

    if out is not None:
        refuse_overwriting(sources, [out, provenance_path(out)])
    snapshot = ingest_files(
        sources,
        fmt=format,
        filters=Filters(min_mw=min_mw, min_gwh=min_gwh, min_head_m=min_head_m),
        created=created,
        data_date=data_date,
        minimal=minimal,
    )
    provenance = snapshot.provenance
    if out is None:
        stamp = provenance.data_date or provenance.created[:10]
        out = SNAPSHOT_FOLDER / f"{provenance.source_kind}-{stamp}.csv"
        refuse_overwriting(sources, [out, provenance_path(out)])
    meta = write_snapshot(snapshot, out)
    for line in provenance.quality.lines():
        typer.echo(line)
    typer.echo(f"wrote {out} ({len(snapshot.plants)} plants) and {meta}")
