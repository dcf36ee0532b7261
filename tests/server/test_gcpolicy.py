"""The server's garbage-collector policy (unotable.server.gcpolicy): what it freezes and when it
walks everything again, on the real collector of this process (restored after each test)."""

from __future__ import annotations

import gc
import re
import subprocess
import sys
import urllib.request
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from unotable.server.gcpolicy import GcPolicy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import SERVER_START_S, http, read_line, wait_healthy


class Node:
    """An object that can sit in a reference cycle and be watched by a weak reference."""

    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> tuple[Node, weakref.ref[Node]]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a, weakref.ref(b)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Iterator[Clock]:
    yield Clock()
    gc.unfreeze()


def test_installing_freezes_what_is_alive_and_uninstalling_gives_it_back(clock: Clock) -> None:
    policy = GcPolicy(60.0, clock=clock)
    policy.install()
    try:
        assert gc.get_freeze_count() > 1000  # the imports, at least
        assert policy._callback in gc.callbacks
        with pytest.raises(RuntimeError, match="already installed"):
            policy.install()
    finally:
        policy.uninstall()
    assert gc.get_freeze_count() == 0
    assert policy._callback not in gc.callbacks


def test_a_full_collection_freezes_its_survivors(clock: Clock) -> None:
    policy = GcPolicy(60.0, clock=clock)
    policy.install()
    try:
        before = gc.get_freeze_count()
        kept = [[i] for i in range(5000)]  # tracked containers that stay alive
        gc.collect()
        assert gc.get_freeze_count() >= before + 5000
        assert policy.full_collections == 0  # only what came since was walked
        del kept
    finally:
        policy.uninstall()


def test_a_cycle_among_frozen_objects_is_freed_at_the_next_complete_walk(clock: Clock) -> None:
    policy = GcPolicy(60.0, clock=clock)
    policy.install()
    try:
        head, watch = cycle()
        gc.collect()  # survives: frozen
        del head  # now garbage, but only a walk of the frozen objects can find it
        gc.collect()
        assert watch() is not None
        assert policy.full_collections == 0
        clock.now += 59.0
        gc.collect()
        assert watch() is not None  # not yet due
        clock.now += 1.0
        gc.collect()  # due: this walk is complete
        assert watch() is None
        assert policy.full_collections == 1
        assert gc.get_freeze_count() > 1000  # and what survived it is frozen again
        head2, watch2 = cycle()
        gc.collect()
        del head2
        gc.collect()
        assert watch2() is not None  # the next complete walk is full_every away again
        pauses = policy.drain()
        assert policy.drain() == []
    finally:
        policy.uninstall()
    assert any(g == 2 and n >= 2 for g, _, n in pauses)  # the complete walk's pause, kept
    assert all(s >= 0 for _, s, _ in pauses)


def test_only_the_last_pauses_are_kept(clock: Clock) -> None:
    policy = GcPolicy(60.0, clock=clock, keep=3)
    policy.install()
    try:
        for _ in range(5):
            gc.collect()
        pauses = policy.drain()
    finally:
        policy.uninstall()
    assert len(pauses) == 3 and pauses[-1][0] == 2


def test_a_cycle_of_young_objects_is_freed_as_usual(clock: Clock) -> None:
    policy = GcPolicy(60.0, clock=clock)
    policy.install()
    try:
        head, watch = cycle()
        del head
        gc.collect(0)  # the youngest generation, never frozen
        assert watch() is None
    finally:
        policy.uninstall()


@pytest.mark.parametrize("every", [0, -1.0, float("nan")])
def test_full_every_must_be_positive(every: float) -> None:
    with pytest.raises(ValueError, match="full_every"):
        GcPolicy(every)


def _serve(tmp_path: Path, *flags: str) -> tuple[subprocess.Popen[str], str]:
    log = tmp_path / "server.log"
    with log.open("w") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "unotable.server.run", "--port", "0", "--data-dir", str(tmp_path),
             *flags],
            cwd=tmp_path, stdout=subprocess.PIPE, stderr=err, text=True,
        )  # fmt: skip
    found = re.search(r"serving at (http://127\.0\.0\.1:\d+)", read_line(proc, SERVER_START_S))
    assert found, log.read_text()
    wait_healthy(found.group(1), proc, log.read_text)
    return proc, found.group(1)


def _gc_pauses(metrics: str) -> dict[str, float]:
    return {m.group(1): float(m.group(2)) for m in
            re.finditer(r'^unotable_gc_pause_seconds_count\{generation="(\d)"\} (\S+)$', metrics, re.M)}


@pytest.mark.parametrize("flags", [(), ("--gc-full-every", "0")], ids=["policy", "cpython"])
def test_the_server_counts_its_collectors_pauses_in_metrics(tmp_path: Path, flags: tuple[str, ...]) -> None:
    proc, url = _serve(tmp_path, *flags)
    try:
        for _ in range(30):  # enough allocation for the young generation to be collected
            bots = [None, "heuristic", "heuristic", "heuristic"]
            status, _ = http("POST", f"{url}/api/tables", {"seats": 4, "bots": bots})
            assert status == 201
        with urllib.request.urlopen(f"{url}/metrics", timeout=10) as resp:
            metrics = resp.read().decode()
    finally:
        proc.terminate()
        proc.wait(10)
    pauses = _gc_pauses(metrics)
    if flags:
        assert pauses == {}  # CPython's own policy: no hook, nothing counted
    else:
        assert pauses.get("0", 0) > 0, metrics


def test_a_negative_gc_full_every_is_refused(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "unotable.server.run", "--port", "0", "--gc-full-every", "-1"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode != 0
    assert "--gc-full-every cannot be negative" in done.stderr
