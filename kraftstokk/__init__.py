"""kraftstokk: from Norwegian hydropower plant data to a print-ready card deck."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
