"""``kraftstokk serve`` started as a process of its own, as the tests and benchmarks run it.

The server gets a free 127.0.0.1 port and its own folders (its save key and card cache
under ``folder``), so it touches nothing of the user's and several can run at once.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def serve_process(
    deck_file: Path,
    folder: Path,
    *options: str,
    env: dict[str, str] | None = None,
    **popen: Any,
) -> tuple[subprocess.Popen[Any], int]:
    """``kraftstokk serve deck_file --port <free> *options`` in its own process.

    Its key lives in ``folder/data`` and its card images in ``folder/cache``; ``env``
    adds to (or, with an empty value, removes from) the environment it inherits;
    ``popen`` goes to :class:`subprocess.Popen` (``stdout``, ``text``, ...).
    Returns the process and its port.
    """
    port = free_port()
    settings = {
        **os.environ,
        "KRAFTSTOKK_DATA_DIR": str(folder / "data"),
        "KRAFTSTOKK_CACHE_DIR": str(folder / "cache"),
    }
    for name, value in (env or {}).items():
        if value:
            settings[name] = value
        else:
            settings.pop(name, None)
    command = [sys.executable, "-c", "from kraftstokk.cli import main; main()", "serve"]
    command += [str(deck_file), "--port", str(port), *options]
    return subprocess.Popen(command, env=settings, **popen), port
