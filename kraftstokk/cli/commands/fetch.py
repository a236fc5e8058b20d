"""``kraftstokk fetch``: NVE's live hydropower API to a new dated snapshot."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kraftstokk.cli.app import app, handle_errors
from kraftstokk.cli.options import out_option

DEFAULT_URL = "https://api.nve.no/web/Powerplant/GetHydroPowerPlantsInOperation"


@app.command()
@handle_errors
def fetch(
    url: Annotated[str, typer.Option("--url", help="NVE hydropower API URL.")] = DEFAULT_URL,
    out: Annotated[
        Path | None,
        out_option(
            "Snapshot CSV to write; the provenance (<stem>.provenance.json) and the raw "
            "response (<stem>.raw.json) go beside it. Default: sources/nve-<today>.csv.",
            metavar="PATH",
        ),
    ] = None,
    timeout: Annotated[
        float, typer.Option("--timeout", help="Seconds to wait for each request.")
    ] = 30.0,
    retries: Annotated[
        int,
        typer.Option("--retries", help="Retries after a connection error, timeout or 5xx."),
    ] = 3,
    backoff: Annotated[
        float,
        typer.Option("--backoff", help="Seconds before the first retry; doubles each time."),
    ] = 1.0,
) -> None:
    """Download NVE's hydropower plants in operation and write a new snapshot.

    The response is validated before anything is written; the snapshot, its provenance
    (URL, time, record counts, licence NLOD, attribution to NVE) and the raw response are
    written together, so a failed fetch leaves any previous snapshot untouched.

    Example:

    \b
        kraftstokk fetch --out sources/nve-latest.csv --timeout 20 --retries 2
    """
    from kraftstokk.sources.nve_api import fetch_to_snapshot

    path, snapshot = fetch_to_snapshot(
        url, out=out, timeout=timeout, retries=retries, backoff=backoff
    )
    for line in snapshot.provenance.quality.lines():
        typer.echo(line)
    typer.echo(f"wrote {path} ({len(snapshot.plants)} plants), its provenance and raw response")
