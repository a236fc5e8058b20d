"""TOML text from plain data, for tests that change a data file's values and write it back.

Tables become ``[a.b]`` headers, strings and keys JSON-quoted (a JSON string is a TOML
basic string), numbers as TOML writes them (``inf``, ``nan``), lists inline.
"""

from __future__ import annotations

import json
import math
from typing import Any


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML for {type(value).__name__}")


def toml_text(data: dict[str, Any], prefix: str = "") -> str:
    plain = {k: v for k, v in data.items() if not isinstance(v, dict)}
    tables = {k: v for k, v in data.items() if isinstance(v, dict)}
    lines = [
        f"{json.dumps(key, ensure_ascii=False)} = {_value(value)}" for key, value in plain.items()
    ]
    for key, table in tables.items():
        name = (
            f"{prefix}.{json.dumps(key, ensure_ascii=False)}"
            if prefix
            else json.dumps(key, ensure_ascii=False)
        )
        lines.append(f"\n[{name}]")
        lines.append(toml_text(table, name))
    return "\n".join(lines) + "\n"
