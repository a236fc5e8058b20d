"""Packaging metadata that keeps the install quiet and correct."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def test_the_licence_is_an_spdx_string_so_setuptools_prints_no_deprecation_banner():
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"
    requires = project["build-system"]["requires"]
    assert "setuptools>=77" in requires  # the first setuptools that reads SPDX strings


def test_the_console_script_is_the_head_start_then_the_command():
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    script = project["project"]["scripts"]["kraftstokk"]
    assert script == "kraftstokk.console:run"  # sim/head_start.py: before typer loads
    module, name = script.split(":")
    assert callable(getattr(importlib.import_module(module), name))
