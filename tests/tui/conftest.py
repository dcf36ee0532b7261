"""A pseudo-terminal driver for ``unotable play``: the ``term`` fixture starts the command in a real
pty (so it is a terminal, with a controlling tty for Ctrl-C) and reads its screen with timeouts."""

from __future__ import annotations

import contextlib
import os
import pty
import re
import select
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Term:
    """``python -m unotable.cli ARGS`` in a pseudo-terminal."""

    def __init__(self, args: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
        full_env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(cwd),
            "TERM": "xterm",
            "LANG": "C.UTF-8",
            "PYTHONIOENCODING": "utf-8",
            "PYTHONPATH": str(ROOT),
            "UNOTABLE_DATA_DIR": str(cwd / "data"),
        }
        full_env.update(env or {})
        pid, fd = pty.fork()
        if pid == 0:  # the child: exec at once
            try:
                # as from a shell: Ctrl-C at its default, whatever an earlier test left in this
                # process (an ignored SIGINT survives exec, and Python then keeps ignoring it)
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                os.chdir(cwd)
                os.execve(sys.executable, [sys.executable, "-m", "unotable.cli", *args], full_env)
            finally:
                os._exit(127)
        self.pid = pid
        self.fd = fd
        self.raw = b""
        self.seen = 0  # how much of the screen the last expect() consumed
        self.status: int | None = None

    def wait_reading(self, timeout: float = 10.0) -> None:
        """Wait until the program sleeps in a read (its state ``S`` in /proc five polls in a row,
        50 ms apart): the prompt is written before read() is entered, and a signal that lands in
        between is only seen when read() returns. A person is never that fast; a loaded machine
        can be, so the tests wait for the read itself rather than a fixed time."""
        deadline = time.monotonic() + timeout
        asleep = 0
        while asleep < 5 and time.monotonic() < deadline:
            try:
                stat = Path(f"/proc/{self.pid}/stat").read_text()
            except OSError:  # no /proc (not Linux): wait like a person
                time.sleep(0.3)
                return
            state = stat[stat.rindex(")") + 2]
            asleep = asleep + 1 if state == "S" else 0
            time.sleep(0.05)

    @property
    def screen(self) -> str:
        """Everything written so far, without carriage returns."""
        return self.raw.decode("utf-8", "replace").replace("\r", "")

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            return False
        if not chunk:
            return False
        self.raw += chunk
        return True

    def expect(self, pattern: str, timeout: float = 10.0) -> re.Match[str]:
        """Wait until ``pattern`` (a regex) appears after what was consumed last; consume up to it."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            match = regex.search(self.screen, self.seen)
            if match:
                self.seen = match.end()
                return match
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {pattern!r}; screen ends with:\n"
                                     f"{self.screen[-3000:]}")
            if not self._read(min(left, 0.5)) and not regex.search(self.screen, self.seen):
                raise AssertionError(f"the program ended before {pattern!r}; screen ends with:\n"
                                     f"{self.screen[-3000:]}")

    def send(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")

    def send_raw(self, data: bytes) -> None:
        os.write(self.fd, data)

    def wait(self, timeout: float = 10.0) -> int:
        """Read to the end of the output and return the exit status (a signal gives -N)."""
        deadline = time.monotonic() + timeout
        while self.status is None:
            self._read(0.05)
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                while self._read(0.05) and select.select([self.fd], [], [], 0)[0]:
                    pass
                self.status = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"the program did not exit; screen ends with:\n{self.screen[-3000:]}")
        return self.status

    def kill(self) -> None:
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            self.status = -9

    def close(self) -> None:
        self.kill()
        with contextlib.suppress(OSError):
            os.close(self.fd)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Records kept by the tests go to a temporary data directory, never the user's."""
    path = tmp_path / "data"
    monkeypatch.setenv("UNOTABLE_DATA_DIR", str(path))
    return path


@pytest.fixture
def term(tmp_path: Path) -> Iterator[Callable[..., Term]]:
    """Start ``unotable ARGS`` in a pty, in a fresh directory; every one started is killed at the end."""
    started: list[Term] = []

    def start(*args: str, env: dict[str, str] | None = None) -> Term:
        t = Term(list(args), tmp_path, env)
        started.append(t)
        return t

    yield start
    for t in started:
        t.close()


@pytest.fixture
def playing_table() -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """A 4-seat game (seed 11) in play, as a server tells it: the game, the views' static part and
    the table's info (seat 0 a person, Ann; seats 1-3 bots)."""
    from unotable.game import Game

    game = Game.new(4, seed=11)
    names = ["Ann", "Bot 1", "Bot 2", "Bot 3"]
    seats = [{"seat": i, "kind": "human" if i == 0 else "bot", "name": n, "level": None if i == 0 else "x",
              "connected": True, "autopilot": False} for i, n in enumerate(names)]
    info = {"table": "abc", "status": "playing", "settings": {"preset": "official"}, "seats": seats,
            "spectators": 0, "turn_deadline": None}
    return game, game.table_info(names).to_dict(), info
