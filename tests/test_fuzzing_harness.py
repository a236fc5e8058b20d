"""The fuzzing harness measures a command's own peak memory, whatever the size of the
pytest process that starts it (tests/fuzzing.py)."""

from __future__ import annotations

from pathlib import Path

from tests.fuzzing import MAX_RSS, run_command

MB = 2**20


def test_a_commands_peak_is_its_own_not_the_test_processes(tmp_path: Path):
    ballast = bytearray(600 * MB)  # this process far above MAX_RSS, every page touched
    ballast[::4096] = b"\1" * len(ballast[::4096])
    small = run_command(["--version"], tmp_path)
    assert small.returncode == 0, small.stderr
    assert small.peak_rss < MAX_RSS // 2, small.peak_rss // MB
    # A command that really uses memory is still seen using it.
    grown = run_command(["--version"], tmp_path, setup="held = bytearray(300 * 2**20)")
    assert grown.returncode == 0, grown.stderr
    assert grown.peak_rss > small.peak_rss + 250 * MB, (grown.peak_rss // MB, small.peak_rss // MB)
    del ballast


def test_the_address_space_cap_still_holds(tmp_path: Path):
    refused = run_command(["--version"], tmp_path, setup="held = bytearray(2 * 2**30)")
    assert refused.returncode == 1 and "MemoryError" in refused.stderr
