"""Packaging metadata that keeps the install quiet and correct."""

from __future__ import annotations

import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def test_the_licence_is_an_spdx_string_so_setuptools_prints_no_deprecation_banner():
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"
    requires = project["build-system"]["requires"]
    assert "setuptools>=77" in requires  # the first setuptools that reads SPDX strings
    assert project["project"]["scripts"]["kraftstokk"] == "kraftstokk.cli:main"
