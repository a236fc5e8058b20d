"""``kraftstokk serve``: the command's refusals, and the deck it needs."""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.models import Deck
from kraftstokk.web import server, workers

cli = CliRunner()


def serve(*args: str | Path):
    return cli.invoke(app, ["serve", *map(str, args)])


def test_missing_deck_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = serve(tmp_path / "nope.json")
    assert result.exit_code == 2
    assert "nope.json" in result.output
    assert "Traceback" not in result.output


def test_invalid_deck_is_refused_with_exit_1(deck: Deck, tmp_path: Path) -> None:
    data = deck.model_dump(mode="json")
    data["cards"][0]["nr"]["gwh"] = data["cards"][1]["nr"]["gwh"]  # a duplicate nr.
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = serve(path)
    assert result.exit_code == 1
    assert "problem" in result.output


def test_bad_port_is_refused(deck: Deck, tmp_path: Path) -> None:
    path = tmp_path / "deck.json"
    path.write_text(deck.model_dump_json(), encoding="utf-8")
    result = serve(path, "--port", "70000")
    assert result.exit_code == 2
    assert "--port 70000" in result.output


def test_a_public_url_with_a_path_is_refused(deck: Deck, tmp_path: Path) -> None:
    path = tmp_path / "deck.json"
    path.write_text(deck.model_dump_json(), encoding="utf-8")
    result = serve(path, "--public-url", "https://cards.example.org", "--public-url", "x.org/y")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "--public-url 'x.org/y'" in result.output and len(result.output.splitlines()) == 1


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1"])
def test_loopback_needs_no_warning(host: str) -> None:
    assert server.exposure_warning(host) is None


def test_other_hosts_get_a_warning() -> None:
    warning = server.exposure_warning("0.0.0.0")
    assert warning is not None and "0.0.0.0" in warning and "127.0.0.1" in warning


def test_serve_is_listed_in_help() -> None:
    result = cli.invoke(app, ["--help"])
    assert "serve" in result.output


def test_a_port_in_use_is_one_line(deck: Deck, tmp_path: Path) -> None:
    import socket

    path = tmp_path / "deck.json"
    path.write_text(deck.model_dump_json(), encoding="utf-8")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = serve(path, "--port", str(port))
    assert result.exit_code == 2
    assert f"127.0.0.1:{port}: cannot listen" in result.output


@pytest.mark.parametrize(
    ("option", "value"), [("--workers", "0"), ("--workers", "33"), ("--max-games", "0")]
)
def test_absurd_workers_or_games_are_refused(
    deck: Deck, tmp_path: Path, option: str, value: str
) -> None:
    path = tmp_path / "deck.json"
    path.write_text(deck.model_dump_json(), encoding="utf-8")
    result = serve(path, option, value)
    assert result.exit_code == 2
    assert f"{option} {value}" in result.output and "Traceback" not in result.output


def test_two_worker_processes_serve_one_game_and_stop_on_ctrl_c(deck: Deck, tmp_path: Path) -> None:
    """``--workers 2``: every request on a new connection (either process may answer);
    the page's way (404 or 409: send the save with the move) plays the game on."""
    import random
    import signal

    import httpx

    from tests.test_web_guard import _wait_listening
    from tests.web_helpers import next_request, serve_process

    serving, port = serve_process(deck, tmp_path, "--workers", "2", "--max-games", "5")
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_listening(port)

        def post(url: str, body: dict[str, object]) -> httpx.Response:
            for _ in range(50):  # the second process may still be starting
                try:
                    return httpx.post(base + url, json=body, headers={"Origin": base}, timeout=30)
                except httpx.TransportError:
                    time.sleep(0.1)
            raise AssertionError(f"no answer from {base}{url}")

        cards = {c["id"]: c for c in httpx.get(f"{base}/api/setup").json()["cards"]}
        body = {"game": "kraftidioten", "opponents": 2, "bots": "greedy", "seed": 3}
        snapshot = post("/api/games", body).json()
        for _ in range(12):
            if snapshot["over"] is not None:
                break
            move = next_request(snapshot, cards, random.Random(snapshot["turn"]))
            answer = post(f"/api/games/{snapshot['id']}/moves", move)
            if answer.status_code in (404, 409):  # as the page does: the save and the move
                answer = post("/api/games/resume", {"save": snapshot["save"], "then": move})
            assert answer.status_code == 200, answer.text
            assert answer.json()["turn"] > snapshot["turn"]
            snapshot = answer.json()
        serving.send_signal(signal.SIGINT)
        rest, _ = serving.communicate(timeout=60)
    finally:
        if serving.poll() is None:
            serving.kill()
            serving.wait()
    assert serving.returncode == 0, rest
    assert "2 processes" in rest and "stopped" in rest and "Traceback" not in rest, rest


def _both_workers(parent: int, port: int) -> set[int]:
    """The two workers of a ``serve --workers 2`` listening on ``port``, once both are up."""
    from tests.test_web_guard import _wait_listening

    _wait_listening(port)
    deadline = time.monotonic() + 30
    while len(_children(parent)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    found = _children(parent)
    assert len(found) == 2
    return found


def _running(pid: int) -> bool:
    """Whether process ``pid`` is there and not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2 :].split()[1]) == pid:
                found.add(int(entry.name))
    return found


@pytest.mark.skipif(not workers.can_fork(), reason="workers are forked on Linux only")
def test_workers_are_forked_from_the_made_app_and_one_that_dies_is_made_again(
    deck: Deck, tmp_path: Path
) -> None:
    """``--workers 2`` on Linux: two children of the parent, running the parent's program
    (forked, not a fresh interpreter); a killed one is forked again and the server serves
    on; Ctrl-C stops them all."""
    import signal

    import httpx

    from tests.web_helpers import serve_process

    serving, port = serve_process(deck, tmp_path, "--workers", "2")
    try:
        first = _both_workers(serving.pid, port)
        deadline = time.monotonic() + 30
        own = Path(f"/proc/{serving.pid}/cmdline").read_bytes()
        assert all(Path(f"/proc/{pid}/cmdline").read_bytes() == own for pid in first)
        os.kill(min(first), signal.SIGKILL)
        while (len(_children(serving.pid)) < 2 or _children(serving.pid) == first) and (
            time.monotonic() < deadline
        ):
            time.sleep(0.1)
        assert len(_children(serving.pid)) == 2 and _children(serving.pid) != first
        base = f"http://127.0.0.1:{port}"
        for _ in range(4):  # on new connections: either worker answers
            assert httpx.get(f"{base}/api/setup", timeout=30).status_code == 200
        serving.send_signal(signal.SIGINT)
        rest, _ = serving.communicate(timeout=60)
    finally:
        if serving.poll() is None:
            serving.kill()
            serving.wait()
    assert serving.returncode == 0 and "stopped" in rest and "Traceback" not in rest, rest
    assert not _children(serving.pid)


@pytest.mark.skipif(not workers.can_fork(), reason="workers are forked on Linux only")
def test_a_killed_parents_workers_stop_serving_and_free_the_port(
    deck: Deck, tmp_path: Path
) -> None:
    """``serve --workers 2`` killed outright (SIGKILL, the OOM killer): its workers stop
    (they served on for ever) and the port is free for a new ``serve``."""
    import signal
    import socket

    from tests.web_helpers import serve_process

    serving, port = serve_process(deck, tmp_path, "--workers", "2")
    first: set[int] = set()
    try:
        first = _both_workers(serving.pid, port)
        serving.send_signal(signal.SIGKILL)
        serving.wait(timeout=30)
        deadline = time.monotonic() + 30
        while any(_running(pid) for pid in first) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = {pid for pid in first if _running(pid)}
        assert not left, f"workers {sorted(left)} outlived their parent"
        with socket.socket() as again:  # nobody listens: a new serve may bind the port
            again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            again.bind(("127.0.0.1", port))
    finally:
        for pid in first:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if serving.poll() is None:
            serving.kill()
            serving.wait()
