"""`make bench`: run every benchmarks/bench_*.py and print its figures.

Each module prints lines of the form ``<what>: <figure> <unit> (target ...)``. Timings
are taken here, never in tests. Each runs in an interpreter of its own, as it runs alone:
in one shared process the modules the earlier ones loaded stayed, and a later one's
figures carried them (``bench_sim``'s peak memory of a run read 173 MB after the others,
63 MB alone).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    failed = []
    for path in sorted(HERE.glob("bench_*.py")):
        print(f"== {path.stem}", flush=True)
        if subprocess.run([sys.executable, str(path)], cwd=HERE.parent).returncode:
            failed.append(path.stem)
    if failed:
        print(f"make bench: failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
