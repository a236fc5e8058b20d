"""``kraftstokk fetch``: NVE's live hydropower API to a new dated snapshot."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kraftstokk.cli.app import app, handle_errors, writes_into
from kraftstokk.cli.options import SNAPSHOT_FOLDER, count, out_option, seconds

DEFAULT_URL = "https://api.nve.no/web/Powerplant/GetHydroPowerPlantsInOperation"
MAX_TIMEOUT = 3600.0
MAX_RETRIES = 20
MAX_BACKOFF = 600.0
MAX_TOTAL = 24 * 3600.0


@app.command()
@handle_errors
@writes_into(lambda a: a["out"].parent if a["out"] is not None else SNAPSHOT_FOLDER)
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
        float,
        typer.Option(
            "--timeout",
            metavar="S",
            parser=seconds("--timeout", MAX_TIMEOUT),
            help="Seconds each request may take in all: headers, redirects and body.",
        ),
    ] = 30.0,
    retries: Annotated[
        int,
        typer.Option(
            "--retries",
            metavar="N",
            parser=count("--retries", 0, MAX_RETRIES),
            help="Retries after a connection error, timeout, 429 or 5xx.",
        ),
    ] = 3,
    backoff: Annotated[
        float,
        typer.Option(
            "--backoff",
            metavar="S",
            parser=seconds("--backoff", MAX_BACKOFF, above=False),
            help="Seconds before the first retry; doubles each time (a longer Retry-After "
            "from the server, up to 60 s, wins).",
        ),
    ] = 1.0,
    max_time: Annotated[
        float,
        typer.Option(
            "--max-time",
            metavar="S",
            parser=seconds("--max-time", MAX_TOTAL),
            help="Seconds the whole fetch may take: every page, retry and wait.",
        ),
    ] = 300.0,
) -> None:
    """Download NVE's hydropower plants in operation and write a new snapshot.

    The response is validated before anything is written; the snapshot, its provenance
    (URL, time, record counts, licence NLOD, attribution to NVE) and the raw response are
    written together, so a failed fetch leaves any previous snapshot untouched.

    Example:

    \b
        kraftstokk fetch --out sources/nve-latest.csv --timeout 20 --retries 2
    """
    from kraftstokk.cli.progress import Display
    from kraftstokk.sources.nve_api import fetch_to_snapshot

    with Display() as display:
        path, snapshot = fetch_to_snapshot(
            url,
            out=out,
            timeout=timeout,
            retries=retries,
            backoff=backoff,
            max_time=max_time,
            progress=display.factory("kB", keep=False),
        )
    for line in snapshot.provenance.quality.lines():
        typer.echo(line)
    typer.echo(f"wrote {path} ({len(snapshot.plants)} plants), its provenance and raw response")
