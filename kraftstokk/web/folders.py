"""Where ``kraftstokk serve`` keeps files between runs.

- the user's data folder: the key that seals the browser's saves (``seal.py``); losing it
  only makes the saves of unfinished games unreadable, so it is data, not cache;
- the user's cache folder: the card images, by deck digest (``cards.py``).

Both are the platform's usual places (``~/.local/share/kraftstokk`` and
``~/.cache/kraftstokk`` on Linux); ``KRAFTSTOKK_DATA_DIR`` and ``KRAFTSTOKK_CACHE_DIR``
put them elsewhere (a test, a kiosk, a second profile).
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "kraftstokk"
DATA_ENV = "KRAFTSTOKK_DATA_DIR"
CACHE_ENV = "KRAFTSTOKK_CACHE_DIR"


def data_dir() -> Path:
    chosen = os.environ.get(DATA_ENV)
    return Path(chosen) if chosen else platformdirs.user_data_path(APP, appauthor=False)


def cache_dir() -> Path:
    chosen = os.environ.get(CACHE_ENV)
    return Path(chosen) if chosen else platformdirs.user_cache_path(APP, appauthor=False)
