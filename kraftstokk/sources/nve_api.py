"""Fetch NVE's hydropower plants in operation from its public web API.

One GET per page (:mod:`kraftstokk.sources.http`: the timeout bounds each request whole,
the inflated body has a size limit, ``max_time`` bounds everything); connection errors,
timeouts, 429 and 5xx answers are retried with exponential backoff or the server's
``Retry-After`` (capped); any other 4xx answer fails at once. Pages are followed through the
``Link: <...>; rel="next"`` header when the service sends one. The whole response is
validated before anything is written, and the snapshot, its provenance and the raw
response are then written together, so a failed fetch leaves the previous files alone.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urljoin

from pydantic import ValidationError

from kraftstokk.errors import FetchError, InputFileError, clip
from kraftstokk.progress import ProgressFactory
from kraftstokk.sources.formats.origins import NVE
from kraftstokk.sources.http import MAX_BODY_BYTES, Fetcher, Limits
from kraftstokk.sources.normalize import Filters, OnePlantTwice, normalize
from kraftstokk.sources.nve_schema import NVE_ATTRIBUTION, NVE_LICENCE, NvePlantRecord
from kraftstokk.sources.readers import nve_records_to_raw, parse_nve_records, validation_reason
from kraftstokk.sources.snapshot import Provenance, Snapshot, write_snapshot
from kraftstokk.textfile import parse_json_text

DEFAULT_URL = "https://api.nve.no/web/Powerplant/GetHydroPowerPlantsInOperation"
DEFAULT_TIMEOUT = 30.0
DEFAULT_RETRIES = 3
DEFAULT_BACKOFF = 1.0
DEFAULT_MAX_TIME = 300.0
MAX_PAGES = 1000
#: NVE lists about 1 700 plants in operation; far more is not its register.
MAX_RECORDS = 100_000


@dataclass
class FetchResult:
    """A validated response: the records, the raw JSON to keep, and when it was read."""

    url: str
    records: list[NvePlantRecord]
    raw: bytes
    pages: int
    retrieved: datetime
    #: Every URL read, in order: redirects and ``Link`` pages included.
    urls: list[str] = field(default_factory=list)


_JSON_KINDS = {
    "dict": "object",
    "str": "string",
    "int": "number",
    "float": "number",
    "bool": "boolean",
    "NoneType": "null",
}


def _decode_page(url: str, body: bytes) -> list[object]:
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FetchError(url, "response is not UTF-8 text") from None
    try:
        data = parse_json_text(url, text, "list of plants")
    except InputFileError as exc:
        reason = exc.reason
        if reason.startswith("not valid JSON (line"):
            reason = reason.replace("not valid JSON (", "not valid JSON (truncated? ", 1)
        raise FetchError(url, f"response is {reason}") from None
    if not isinstance(data, list):
        kind = _JSON_KINDS.get(type(data).__name__, type(data).__name__)
        raise FetchError(url, f"response is not a list of plants (got a JSON {kind})")
    return data


def check_limits(timeout: float, retries: int, backoff: float, max_time: float) -> None:
    """Refuse settings no fetch can honour (the CLI checks them the same way)."""
    for name, value in (("timeout", timeout), ("backoff", backoff), ("max-time", max_time)):
        if not math.isfinite(value):
            raise FetchError("fetch", f"--{name} must be a finite number of seconds")
    if retries < 0 or timeout <= 0 or backoff < 0 or max_time <= 0:
        raise FetchError("fetch", "timeout and max-time must be > 0, retries and backoff >= 0")


def fetch_nve(
    url: str = DEFAULT_URL,
    timeout: float = DEFAULT_TIMEOUT,
    retries: int = DEFAULT_RETRIES,
    backoff: float = DEFAULT_BACKOFF,
    sleep: Callable[[float], None] = time.sleep,
    max_time: float = DEFAULT_MAX_TIME,
    progress: ProgressFactory | None = None,
) -> FetchResult:
    """Read every page from ``url`` and validate the plants; nothing is written here.

    ``timeout`` bounds each request whole (headers, redirects, body); ``max_time`` bounds
    the fetch whole (every page, retry and wait); ``progress`` hears of each body read.
    """
    try:
        check_limits(timeout, retries, backoff, max_time)
    except FetchError as exc:
        raise FetchError(url, exc.reason) from None
    items: list[object] = []
    raw_pages: list[bytes] = []
    urls: list[str] = []
    seen: set[str] = set()
    size = 0
    next_url: str | None = url
    limits = Limits(timeout=timeout, retries=retries, backoff=backoff, max_time=max_time)
    with Fetcher(limits, sleep=sleep, progress=progress) as fetcher:
        while next_url is not None:
            if next_url in seen or len(seen) >= MAX_PAGES:
                raise FetchError(url, f"pagination does not end (page {clip(next_url)})")
            seen.add(next_url)
            fetcher.limits.max_body = MAX_BODY_BYTES - size
            answer = fetcher.get(next_url)
            size += len(answer.body)
            urls.extend(u for u in answer.urls if u not in urls)
            items.extend(_decode_page(answer.url, answer.body))
            if len(items) > MAX_RECORDS:
                raise FetchError(url, f"more than {MAX_RECORDS} records")
            raw_pages.append(answer.body)
            link = answer.links.get("next", {}).get("url")
            next_url = urljoin(answer.url, link) if link else None
    retrieved = datetime.now(UTC).replace(microsecond=0)
    if not items:
        raise FetchError(url, "response holds no plants (empty list)")
    try:
        records = parse_nve_records(items)
    except ValidationError as exc:
        raise FetchError(
            url, f"response is not a list of NVE plants: {validation_reason(exc)}"
        ) from None
    raw = raw_pages[0] if len(raw_pages) == 1 else _joined(items)
    return FetchResult(
        url=url, records=records, raw=raw, pages=len(raw_pages), retrieved=retrieved, urls=urls
    )


def _joined(items: list[object]) -> bytes:
    return (json.dumps(items, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def raw_path(snapshot_path: str | Path) -> Path:
    """``sources/nve-2026-11-29.csv`` -> ``sources/nve-2026-11-29.raw.json``."""
    path = Path(snapshot_path)
    return path.with_name(f"{path.stem}.raw.json")


def default_snapshot_path(retrieved: datetime, folder: Path = Path("sources")) -> Path:
    return folder / f"nve-{retrieved:%Y-%m-%d}.csv"


def snapshot_from_fetch(result: FetchResult, raw_file: str | None = None) -> Snapshot:
    """Normalize fetched records into a snapshot with NVE provenance."""
    records = nve_records_to_raw(result.records)
    for number, record in enumerate(records, start=1):
        record.where = f"record {number} of the response"
    try:
        normalized = normalize(records, Filters())
    except OnePlantTwice as exc:
        raise FetchError(result.url, f"{exc.rows}: the answer holds one plant twice") from None
    if not normalized.plants:
        raise FetchError(
            result.url,
            f"no plant with all three figures among {len(result.records)} records",
        )
    provenance = Provenance(
        source_kind="nve-api",
        sources=result.urls or [result.url],
        created=result.retrieved.isoformat().replace("+00:00", "Z"),
        data_date=f"{result.retrieved:%Y-%m-%d}",
        licence=NVE_LICENCE,
        attribution=NVE_ATTRIBUTION,
        attribution_nb=NVE.attribution_nb,
        raw_file=raw_file,
        quality=normalized.quality,
    )
    return Snapshot(plants=normalized.plants, provenance=provenance)


def fetch_to_snapshot(
    url: str = DEFAULT_URL,
    out: str | Path | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    retries: int = DEFAULT_RETRIES,
    backoff: float = DEFAULT_BACKOFF,
    sleep: Callable[[float], None] = time.sleep,
    max_time: float = DEFAULT_MAX_TIME,
    progress: ProgressFactory | None = None,
) -> tuple[Path, Snapshot]:
    """Fetch, validate, normalize, then write snapshot + provenance + raw response.

    Returns the snapshot path and the snapshot. Nothing is written unless every step
    before the write succeeded; the three files are then moved into place together.
    """
    result = fetch_nve(
        url,
        timeout=timeout,
        retries=retries,
        backoff=backoff,
        sleep=sleep,
        max_time=max_time,
        progress=progress,
    )
    path = Path(out) if out is not None else default_snapshot_path(result.retrieved)
    raw = raw_path(path)
    snapshot = snapshot_from_fetch(result, raw_file=raw.name)
    write_snapshot(snapshot, path, extra_files={raw: result.raw})
    return path, snapshot
