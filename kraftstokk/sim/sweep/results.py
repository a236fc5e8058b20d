"""What a sweep's outputs and report are made from: its runs, the comparisons between
them and the findings and verdicts those give (:func:`analyse`)."""

from __future__ import annotations

from dataclasses import dataclass

from kraftstokk.sim.findings import Finding
from kraftstokk.sim.sweep.compare import (
    DeckVerdict,
    PairComparison,
    compare_pairs,
    deck_verdicts,
    family,
    parameter_findings,
)
from kraftstokk.sim.sweep.grid import baseline_text, varied_parameters
from kraftstokk.sim.sweep.run import SweepRun


@dataclass
class SweepResults:
    """What the outputs and the report are made from."""

    run: SweepRun
    comparisons: list[PairComparison]
    comparison_findings: list[Finding]
    varied: list[str]
    verdicts: list[DeckVerdict]

    @property
    def family(self) -> int:
        return family(self.comparisons)

    def baseline_value(self, parameter: str, game: str = "") -> str:
        """The baseline of ``parameter`` as configurations show it (bots by name for a
        game; ``default`` without one)."""
        raw = self.run.baseline.get(parameter, "")
        if parameter == "bots" and raw == "default" and not game:
            return "default"
        if parameter == "game":
            return ""
        return baseline_text(parameter, raw, game)


def analyse(run: SweepRun) -> SweepResults:
    comparisons = compare_pairs(run.pairs, run.sweep.findings.confidence)
    varied = varied_parameters([r.configuration for r in run.runs])
    findings = parameter_findings(comparisons, varied)
    return SweepResults(run, comparisons, findings, varied, deck_verdicts(comparisons, varied))
