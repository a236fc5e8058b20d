"""`make bench`: run every benchmarks/bench_*.py and print its figures.

Each module has a ``main() -> None`` that prints lines of the form
``<what>: <figure> <unit> (target ...)``. Timings are taken here, never in tests.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    sys.path[:0] = [str(HERE), str(HERE.parent)]  # the benchmarks' _common, the repo
    for path in sorted(HERE.glob("bench_*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        print(f"== {path.stem}", flush=True)
        module.main()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
