"""A sweep's files: ``sweep.csv`` and ``sweep.json`` (one row per configuration, and
every comparison's metrics), each configuration's ``sim-<game>.json`` as ``simulate``
writes it, and ``sweep.pdf``.

Everything but the ``run`` block of ``sweep.json`` (backend, timing) depends only on the
games, so the same sweep gives the same files on any backend and worker count.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from pathlib import Path
from typing import Any

from kraftstokk.atomic import write_text
from kraftstokk.sim.compare import CORRECTION
from kraftstokk.sim.sweep.grid import PARAMETERS
from kraftstokk.sim.sweep.results import SweepResults
from kraftstokk.sim.sweep.run import ConfigurationRun

CONFIG_DIR = "configurations"


def configuration_dir(run: ConfigurationRun) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", run.configuration.label.lower()).strip("-")
    return f"{run.configuration.number:02d}-{slug[:60].rstrip('-')}"


def summary_path(run: ConfigurationRun) -> str:
    """Where the configuration's ``sim-<game>.json`` goes, relative to ``--out``."""
    game = run.configuration.settings.game
    return f"{CONFIG_DIR}/{configuration_dir(run)}/sim-{game}.json"


def metrics_row(run: ConfigurationRun) -> dict[str, Any]:
    """The flat figures of one configuration (what the table and the charts show)."""
    summary = run.summary
    row: dict[str, Any] = {
        "games": summary["games"],
        "finished": summary["finished"],
        "unfinished_rate": summary["unfinished_rate"],
        "actions_mean": summary["actions"]["mean"],
        "actions_p95": summary["actions"]["p95"],
        "rounds_mean": summary["rounds"]["mean"],
    }
    for seat, rate in enumerate(summary["win_rate_by_seat"]):
        row[f"win_rate_seat_{seat + 1}"] = rate
    for seat, rate in enumerate(summary["loser_rate_by_seat"]):
        row[f"loser_rate_seat_{seat + 1}"] = rate
    for name, counter in summary["counters"].items():
        row[f"{name}_per_game"] = counter["per_game"]
    for name, rate in summary["rates"].items():
        row[name] = rate["rate"]
    return row


def _dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def csv_text(runs: list[ConfigurationRun]) -> str:
    rows = [metrics_row(run) for run in runs]
    metric_names: list[str] = []
    for row in rows:
        metric_names += [name for name in row if name not in metric_names]
    columns = ["configuration", *PARAMETERS, "complete", *metric_names]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for run, row in zip(runs, rows, strict=True):
        values = [run.configuration.number, *(run.configuration.value(p) for p in PARAMETERS)]
        values.append("yes" if run.complete else "no")
        values += ["" if row.get(name) is None else row[name] for name in metric_names]
        writer.writerow(values)
    return buffer.getvalue()


def sweep_document(results: SweepResults) -> dict[str, Any]:
    run = results.run
    sweep = run.sweep
    return {
        "title": sweep.title,
        "games": sweep.games,
        "seed": sweep.seed,
        "chunk": sweep.chunk,
        "action_cap": sweep.action_cap,
        "findings_rules": sweep.findings.model_dump(),
        "varied": results.varied,
        "complete": all(r.complete for r in run.runs) and len(run.runs) > 0 and not run.interrupted,
        "configurations": [
            {
                "configuration": r.configuration.number,
                "key": r.configuration.key,
                **{p: r.configuration.value(p) for p in PARAMETERS},
                "deck_path": r.configuration.deck_path,
                "complete": r.complete,
                "summary": summary_path(r),
                "metrics": metrics_row(r),
                "findings": r.summary["findings"],
            }
            for r in run.runs
        ],
        "decks": {
            label: {"title": d.deck.title, "edition": d.deck.edition, "path": d.path}
            for label, d in run.decks.items()
        },
        "baseline": {p: results.baseline_value(p) for p in run.baseline},
        "verdicts": [
            {"game": v.game, "deck_a": v.deck_a, "deck_b": v.deck_b, "verdict": v.sentence}
            for v in results.verdicts
        ],
        "findings": [finding.as_dict() for finding in results.comparison_findings],
        "correction": CORRECTION,
        "metrics_compared": results.family,
        "comparisons_planned": run.planned_pairs,
        "comparisons": [item for pair in results.comparisons for item in pair.as_dicts()],
        "run": {
            "backend": run.backend,
            "chunks": run.chunks_total,
            "chunks_found_stored": run.chunks_stored,
            "chunks_played": run.chunks_played,
            "interrupted": run.interrupted,
            "elapsed_seconds": round(run.elapsed, 3),
            "games_per_second": round(run.games_played / run.elapsed, 1) if run.elapsed else 0.0,
        },
    }


def write_outputs(results: SweepResults, out_dir: Path, report: bool = True) -> list[Path]:
    """Write every output atomically; returns the paths written."""
    written = []
    for r in results.run.runs:
        path = out_dir / summary_path(r)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text(path, _dump(r.summary))
    table = out_dir / "sweep.csv"
    write_text(table, csv_text(results.run.runs))
    document = out_dir / "sweep.json"
    write_text(document, _dump(sweep_document(results)))
    written += [table, document]
    pdf = out_dir / "sweep.pdf"
    if report:
        from kraftstokk.sim.sweep.report import write_sweep_report  # reportlab: only for the PDF

        write_sweep_report(pdf, results)
        written.append(pdf)
    if not results.run.interrupted:
        folders = {summary_path(r).split("/")[1] for r in results.run.runs}
        remove_stale(out_dir, folders, None if report else pdf)
    return written


def remove_stale(out_dir: Path, configurations: set[str], pdf: Path | None) -> list[Path]:
    """Remove what an earlier sweep into ``out_dir`` left that this one did not write (it
    would be read as this sweep's): the folders of configurations it does not have, and
    ``pdf`` (sweep.pdf, when this one wrote none). An interrupted sweep removes nothing:
    it is resumed. Returns what was removed."""
    folder = out_dir / CONFIG_DIR
    entries = sorted(folder.iterdir()) if folder.is_dir() else []
    stale = [entry for entry in entries if entry.name not in configurations]
    if pdf is not None and pdf.exists():
        stale.append(pdf)
    for entry in stale:
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
    return stale
