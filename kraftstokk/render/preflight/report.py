"""What preflight found: one result per check, each failure with its page, object,
value and limit, and the table ``kraftstokk preflight`` prints."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

#: Failures listed per check; the rest are counted.
MAX_LISTED = 12

CHECKS: tuple[tuple[str, str], ...] = (
    ("boxes", "page boxes (TrimBox, BleedBox) on every page, with the preset's sizes"),
    ("colour", "colour spaces allowed by the preset"),
    ("ink", "total ink coverage under the preset's limit"),
    ("black", "black text and hairlines in black ink only (100 % K)"),
    ("fonts", "every font embedded"),
    ("text", "text at least the preset's minimum size"),
    ("lines", "lines at least the preset's minimum width"),
    ("images", "images at least the preset's minimum resolution"),
    ("transparency", "no transparency where the standard forbids it"),
    ("pdfx", "PDF/X keys: version, output intent, trapping, title, dates, file id"),
    ("safe", "text and artwork on the card inside the safe area of each card page"),
    ("sheet", "sheets: marks inside the printable area, bleed past the outer cut lines"),
    ("register", "text under 8 pt and lines under 0.5 pt in one ink at full strength"),
    ("overprint", "no white set to overprint; black text under 8 pt on colour overprints"),
    ("annotations", "no annotation inside the BleedBox"),
    ("subsets", "a distinct tag for each font subset"),
)


@dataclass(frozen=True)
class Failure:
    page: int  # 1-based; 0 for the document as a whole
    what: str  # the object: "text 'Tonstad' (BitstreamVeraSans-Roman)", "TrimBox"
    value: str
    limit: str

    def line(self) -> str:
        where = f"page {self.page}" if self.page else "document"
        return f"{where}: {self.what}: {self.value} (limit: {self.limit})"


@dataclass
class CheckResult:
    name: str
    description: str
    applies: bool = True
    summary: str = ""
    failures: list[Failure] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures

    @property
    def status(self) -> str:
        if not self.applies:
            return "n/a"
        return "pass" if self.passed else "FAIL"


@dataclass
class PreflightReport:
    path: str
    preset: str
    pages: int
    checks: list[CheckResult]

    @property
    def passed(self) -> bool:
        return all(check.passed for check in self.checks)

    @property
    def failures(self) -> list[Failure]:
        return [failure for check in self.checks for failure in check.failures]

    def lines(self) -> list[str]:
        rows = [f"{self.path}: {self.pages} pages, preset {self.preset}"]
        width = max(len(check.name) for check in self.checks)
        for check in self.checks:
            rows.append(f"  {check.name:<{width}}  {check.status:<4}  {check.summary}")
        for check in self.checks:
            if check.failures:
                rows.append(f"{check.name}: {len(check.failures)} failures")
                rows.extend(f"  {failure.line()}" for failure in check.failures[:MAX_LISTED])
                hidden = len(check.failures) - MAX_LISTED
                if hidden > 0:
                    rows.append(f"  … and {hidden} more")
        verdict = "passes" if self.passed else f"FAILS ({len(self.failures)} failures)"
        rows.append(f"{self.path}: {verdict} preflight for {self.preset}")
        return rows

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.path,
            "preset": self.preset,
            "pages": self.pages,
            "passed": self.passed,
            "checks": [
                {
                    "name": check.name,
                    "description": check.description,
                    "status": check.status,
                    "summary": check.summary,
                    "failures": [asdict(failure) for failure in check.failures],
                }
                for check in self.checks
            ],
        }
