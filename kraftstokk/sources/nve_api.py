"""Fetch NVE's hydropower plants in operation from its public web API.

One GET per page with a timeout; connection errors, timeouts and 5xx answers are retried
with exponential backoff; a 4xx answer fails at once. Pages are followed through the
``Link: <...>; rel="next"`` header when the service sends one. The whole response is
validated before anything is written, and the snapshot, its provenance and the raw
response are then written together, so a failed fetch leaves the previous files alone.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urljoin

import requests
from pydantic import ValidationError

from kraftstokk.errors import FetchError
from kraftstokk.sources.normalize import Filters, normalize
from kraftstokk.sources.nve_schema import (
    NVE_ATTRIBUTION,
    NVE_ATTRIBUTION_NB,
    NVE_LICENCE,
    NvePlantRecord,
)
from kraftstokk.sources.readers import nve_record_to_raw, parse_nve_records, validation_reason
from kraftstokk.sources.snapshot import Provenance, Snapshot, write_snapshot

DEFAULT_URL = "https://api.nve.no/web/Powerplant/GetHydroPowerPlantsInOperation"
DEFAULT_TIMEOUT = 30.0
DEFAULT_RETRIES = 3
DEFAULT_BACKOFF = 1.0
MAX_PAGES = 1000
USER_AGENT = "kraftstokk (Kraft-stokken card deck builder)"


@dataclass
class FetchResult:
    """A validated response: the records, the raw JSON to keep, and when it was read."""

    url: str
    records: list[NvePlantRecord]
    raw: bytes
    pages: int
    retrieved: datetime


def _short_reason(exc: requests.RequestException) -> str:
    """The useful part of a requests error (``[Errno 111] Connection refused``)."""
    text = str(exc)
    match = re.search(r"\[Errno -?\d+\][^'\")]*", text)
    if match:
        return match.group(0).strip()
    return type(exc).__name__


def get_with_retries(
    session: requests.Session,
    url: str,
    timeout: float,
    retries: int,
    backoff: float,
    sleep: Callable[[float], None] = time.sleep,
) -> requests.Response:
    """GET ``url``; retry connection errors, timeouts and 5xx, fail at once on 4xx."""
    attempts = retries + 1
    problem = "no attempt made"
    for attempt in range(attempts):
        if attempt:
            sleep(backoff * 2 ** (attempt - 1))
        try:
            response = session.get(
                url,
                timeout=timeout,
                headers={"Accept": "application/json", "User-Agent": USER_AGENT},
            )
        except requests.Timeout:
            problem = f"timed out after {timeout:g} s"
            continue
        except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError) as exc:
            problem = f"connection failed ({_short_reason(exc)})"
            continue
        except requests.RequestException as exc:
            raise FetchError(url, f"cannot request: {exc}") from None
        if response.status_code >= 500:
            problem = f"server error HTTP {response.status_code} {response.reason or ''}".rstrip()
            continue
        if response.status_code >= 400:
            reason = f"HTTP {response.status_code} {response.reason or ''}".rstrip()
            raise FetchError(url, reason)
        return response
    tries = "attempt" if attempts == 1 else "attempts"
    raise FetchError(url, f"{problem} ({attempts} {tries})")


_JSON_KINDS = {
    "dict": "object",
    "str": "string",
    "int": "number",
    "float": "number",
    "bool": "boolean",
    "NoneType": "null",
}


def _decode_page(url: str, response: requests.Response) -> list[object]:
    try:
        data = json.loads(response.content.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise FetchError(url, "response is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise FetchError(
            url, f"response is not valid JSON (truncated? line {exc.lineno}: {exc.msg})"
        ) from None
    except RecursionError:
        raise FetchError(url, "response is not a list of plants (JSON nested too deeply)") from None
    if not isinstance(data, list):
        kind = _JSON_KINDS.get(type(data).__name__, type(data).__name__)
        raise FetchError(url, f"response is not a list of plants (got a JSON {kind})")
    return data


def fetch_nve(
    url: str = DEFAULT_URL,
    timeout: float = DEFAULT_TIMEOUT,
    retries: int = DEFAULT_RETRIES,
    backoff: float = DEFAULT_BACKOFF,
    sleep: Callable[[float], None] = time.sleep,
) -> FetchResult:
    """Read every page from ``url`` and validate the plants; nothing is written here."""
    if retries < 0 or timeout <= 0 or backoff < 0:
        raise FetchError(url, "timeout must be > 0, retries and backoff >= 0")
    items: list[object] = []
    raw_pages: list[bytes] = []
    seen: set[str] = set()
    next_url: str | None = url
    with requests.Session() as session:
        while next_url is not None:
            if next_url in seen or len(seen) >= MAX_PAGES:
                raise FetchError(url, f"pagination does not end (page {next_url})")
            seen.add(next_url)
            response = get_with_retries(session, next_url, timeout, retries, backoff, sleep)
            items.extend(_decode_page(next_url, response))
            raw_pages.append(response.content)
            link = response.links.get("next", {}).get("url")
            next_url = urljoin(next_url, link) if link else None
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
    return FetchResult(url=url, records=records, raw=raw, pages=len(raw_pages), retrieved=retrieved)


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
    normalized = normalize([nve_record_to_raw(record) for record in result.records], Filters())
    if not normalized.plants:
        raise FetchError(
            result.url,
            f"no plant with all three figures among {len(result.records)} records",
        )
    provenance = Provenance(
        source_kind="nve-api",
        sources=[result.url],
        created=result.retrieved.isoformat().replace("+00:00", "Z"),
        data_date=f"{result.retrieved:%Y-%m-%d}",
        licence=NVE_LICENCE,
        attribution=NVE_ATTRIBUTION,
        attribution_nb=NVE_ATTRIBUTION_NB,
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
) -> tuple[Path, Snapshot]:
    """Fetch, validate, normalize, then write snapshot + provenance + raw response.

    Returns the snapshot path and the snapshot. Nothing is written unless every step
    before the write succeeded; the three files are then moved into place together.
    """
    result = fetch_nve(url, timeout=timeout, retries=retries, backoff=backoff, sleep=sleep)
    path = Path(out) if out is not None else default_snapshot_path(result.retrieved)
    raw = raw_path(path)
    snapshot = snapshot_from_fetch(result, raw_file=raw.name)
    write_snapshot(snapshot, path, extra_files={raw: result.raw})
    return path, snapshot
