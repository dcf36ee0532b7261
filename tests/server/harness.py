"""The server tests' harness: a real server process, real websocket clients, scripted people.

Every test under tests/server/ that talks to a running server uses it (the scenario files, the
cluster's test_cluster.py, and the smaller ones: test_ready.py, test_welcome.py...):

- :class:`ServerProc`: ``python -m unotable.server.run`` on a free loopback port, against SQLite or
  a fresh PostgreSQL database (:func:`database`); it can be killed (``kill9``), stopped with
  SIGTERM, signalled, restarted on the same database, and its JSON log read (``events``).
  conftest.py's ``server`` (one per module and backend) and ``own_server`` (one per test) fixtures
  start one;
- :class:`Client`: one websocket connection of the ``websockets`` library, a reader task that
  keeps every frame (each checked by frames.py's ``check_frame``) in a :class:`Stream` per seat, and
  waits on the frame a test expects (``wait_for``, ``request``, ``ping``);
- :func:`seat_people` creates a table and seats scripted people, through one server or through
  several cluster nodes; :func:`play_person` plays a seat from its views (legal actions, UNO calls,
  catches) until a condition holds.

Bounds: a wait here is on the frame or the state a test expects, with a bound that only catches a
hang (``STEP_S`` for a frame, ``HANG_S`` for a state reached through many frames); no test asserts
how long something took (that is for benchmarks/). The frame-by-frame check of everything a seat
received against the replayed record is leak_scan.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

websockets = pytest.importorskip("websockets")  # the dev extra; CI installs it
from databases import fresh_postgres  # noqa: E402
from frames import check_frame  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

SERVER_START_S = 20.0
STEP_S = 60.0  # the longest a client waits for a frame that must come: a bound that catches a hang
HANG_S = 60.0  # the longest a test waits for a state many frames away (a table to get going...)
BOT_PAUSE = 0.01
ROUND_PAUSE = 0.05
GRACE = 3.0  # an absent seat goes on autopilot after this: longer than a reconnect takes here
BACKENDS = ("sqlite", "postgres")

# -------------------------------------------------------------------------------------------------
# the server process


@dataclass
class ServerProc:
    """``python -m unotable.server.run`` in a subprocess, started in ``workdir`` against ``db``;
    ``options`` go on its command line after the ones every test server has (a cluster node's
    ``--redis`` and ``--node-id``, test_cluster.py), and its log is ``workdir/<name>.log``."""

    db: str
    workdir: Path
    name: str = "server"
    options: tuple[str, ...] = ()
    grace: float = GRACE
    proc: subprocess.Popen[str] | None = None
    url: str = ""
    starts: int = 0
    log_path: Path = field(init=False)

    def __post_init__(self) -> None:
        self.log_path = self.workdir / f"{self.name}.log"

    @property
    def ws_base(self) -> str:
        return self.url.replace("http", "ws", 1)

    def start(self, on_address: Callable[[str], None] | None = None) -> None:
        """Start the process; ``on_address`` is called with its URL the moment it prints it."""
        self.starts += 1
        command = [
            sys.executable, "-m", "unotable.server.run", "--host", "127.0.0.1", "--port", "0",
            "--db", self.db, "--data-dir", str(self.workdir), "--bot-pause", str(BOT_PAUSE),
            "--round-pause", str(ROUND_PAUSE), "--grace", str(self.grace), *self.options,
        ]  # fmt: skip
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        other = os.environ.get("UNOTABLE_TEST_SERVER_TREE")  # a server from another checkout (an
        if other:  # older one: a test written for a fix must fail against it)
            env["PYTHONPATH"] = other
        with self.log_path.open("a") as log:
            self.proc = subprocess.Popen(
                command, cwd=self.workdir, stdout=subprocess.PIPE, stderr=log, text=True, env=env
            )
        assert self.proc.stdout is not None
        line = read_line(self.proc, SERVER_START_S)
        found = re.search(r"serving at (http://127\.0\.0\.1:(\d+))", line)
        assert found, f"{self.name}'s first line names its address, not {line!r}; log: {self.log()}"
        self.url = found.group(1)
        if on_address is not None:
            on_address(self.url)
        wait_healthy(self.url, self.proc, self.log)

    def signal(self, sig: int) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)

    def kill9(self) -> None:
        self.signal(signal.SIGKILL)
        assert self.proc is not None
        self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM (a graceful stop; a stopped process is continued first), then SIGKILL."""
        if self.proc is None or self.proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGCONT)
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)

    def log(self) -> str:
        return self.log_path.read_text()[-4000:] if self.log_path.exists() else ""

    def events(self, name: str) -> list[dict[str, Any]]:
        """The JSON lines of the log whose ``event`` is ``name`` (a cluster node's "owner"...)."""
        found = []
        for line in self.log_path.read_text().splitlines() if self.log_path.exists() else []:
            with contextlib.suppress(ValueError):
                doc = json.loads(line)
                if isinstance(doc, dict) and doc.get("event") == name:
                    found.append(doc)
        return found


def wait_healthy(url: str, proc: subprocess.Popen[str], log: Callable[[], str]) -> None:
    """Until the server at ``url`` answers /healthz (it fails the test if ``proc`` ends first)."""
    deadline = time.monotonic() + SERVER_START_S
    while True:
        try:
            status, body = http("GET", f"{url}/healthz")
            if status == 200 and body["ok"] is True:
                return
        except OSError:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            pytest.fail(f"the server at {url} did not answer /healthz; log: {log()}")
        time.sleep(0.05)


def read_line(proc: subprocess.Popen[str], timeout: float) -> str:
    """The first line the process prints (the pipe is read in a thread, so a hang times out)."""
    got: list[str] = []

    def reader() -> None:
        assert proc.stdout is not None
        got.append(proc.stdout.readline())

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    thread.join(timeout)
    return got[0] if got else ""


def http(method: str, url: str, body: Any = None, raw: bytes | None = None) -> tuple[int, Any]:
    """One HTTP request (stdlib): the status and the decoded JSON body (or the text)."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status, text = response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        status, text = exc.code, exc.read().decode()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


async def ahttp(method: str, url: str, body: Any = None) -> tuple[int, Any]:
    return await asyncio.to_thread(http, method, url, body)


@contextlib.contextmanager
def database(kind: str, workdir: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh database of ``kind``: an SQLite file in ``workdir``, or a new PostgreSQL database
    (on the cluster of conftest's ``postgres_admin_url``, which starts it or fails), dropped after."""
    if kind == "sqlite":
        yield f"sqlite:///{workdir / 'tables.db'}"
        return
    with fresh_postgres(str(request.getfixturevalue("postgres_admin_url")), "unotable_app") as url:
        yield url


# -------------------------------------------------------------------------------------------------
# websocket clients


class Stream:
    """Everything one seat (or one spectator) received, over all its connections, in order."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.connections: list[list[dict[str, Any]]] = []
        self.sent: list[str] = []  # the action texts this seat sent (their cards are its own)

    def sent_cards(self) -> list[str]:
        return [a.split(":")[0].split(">")[0].rstrip("!") for a in self.sent]


class Client:
    """One websocket connection: a reader task keeps every frame; helpers wait for the ones needed."""

    def __init__(self, server: ServerProc, table: str, stream: Stream) -> None:
        self.server = server
        self.table = table
        self.stream = stream
        self.frames: list[dict[str, Any]] = []
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.changed = asyncio.Event()
        self.closed_code: int | None = None
        self.seat: int | None = None
        self.token: str | None = None
        self.host_token: str | None = None
        self.view: dict[str, Any] | None = None
        self.info: dict[str, Any] | None = None
        self.seq = -1
        self.welcome: dict[str, Any] | None = None

    @classmethod
    async def open(
        cls,
        server: ServerProc,
        table: str,
        stream: Stream,
        *,
        token: str | None = None,
        host_token: str | None = None,
        last_seq: int | None = None,
    ) -> Client:
        client = cls(server, table, stream)
        client.token, client.host_token = token, host_token
        stream.connections.append(client.frames)
        client.ws = await connect(f"{server.ws_base}/ws/{table}", max_size=2**22, open_timeout=STEP_S)
        client.reader = asyncio.create_task(client._read())
        hello: dict[str, Any] = {"type": "hello"}
        if token is not None:
            hello["token"] = token
        if host_token is not None:
            hello["host_token"] = host_token
        if last_seq is not None:
            hello["last_seq"] = last_seq
        await client.send(hello)
        client.welcome = await client.wait_for(lambda m: m["type"] == "welcome")
        client.seat = client.welcome["you"]["seat"]
        return client

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                msg = check_frame(raw)  # every frame is one of the declared server messages
                self.frames.append(msg)
                if isinstance(msg.get("seq"), int):
                    self.seq = max(self.seq, msg["seq"])
                if msg.get("view") is not None:
                    self.view = msg["view"]
                if msg.get("table") is not None and msg["type"] in ("update", "welcome", "presence"):
                    self.info = msg["table"]
                if msg["type"] == "token":
                    self.token, self.seat = msg["token"], msg["seat"]
                self.changed.set()
        except ConnectionClosed:
            pass
        finally:
            self.closed_code = self.ws.close_code if self.ws.close_code is not None else -1
            self.changed.set()

    async def send(self, msg: dict[str, Any] | str | bytes) -> None:
        assert self.ws is not None
        if isinstance(msg, dict):
            if msg.get("type") == "act":
                self.stream.sent.append(str(msg.get("action")))
            msg = json.dumps(msg)
        await self.ws.send(msg)

    async def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = STEP_S, start: int | None = None
    ) -> dict[str, Any]:
        """The first frame from index ``start`` (default: the frames not yet looked at... all of
        them when ``start`` is None) that satisfies ``predicate``."""
        index = 0 if start is None else start
        deadline = time.monotonic() + timeout
        while True:
            while index < len(self.frames):
                msg = self.frames[index]
                index += 1
                if predicate(msg):
                    return msg
            if self.closed_code is not None:
                raise AssertionError(
                    f"connection closed ({self.closed_code}) while waiting; last: {self.tail()}"
                )
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such frame within {timeout}s; last frames: {self.tail()}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(left):  # (3.11's wait_for can lose a cancellation)
                    await self.changed.wait()

    async def request(
        self,
        msg: dict[str, Any],
        timeout: float = STEP_S,
        answer: Callable[[dict[str, Any]], bool] | None = None,
        flush: bool = False,
    ) -> dict[str, Any]:
        """Send ``msg`` and return the first frame after it that ``answer`` accepts (by default an
        update, a chat, a token, a pong or an error: the caller makes sure that no one else's
        command is in flight, or passes ``answer``)."""
        if flush:  # every frame already on its way has arrived: the next ones follow ``msg``
            await self.ping()
        start = len(self.frames)
        await self.send(msg)
        if answer is None:
            return await self.wait_for(
                lambda m: m["type"] in ("update", "error", "chat", "token", "pong"), timeout, start
            )
        return await self.wait_for(answer, timeout, start)

    async def ping(self) -> dict[str, Any]:
        """A round trip: every frame the server queued before the pong has arrived (a ping over
        the message rate limit is tried again a little later)."""
        for _ in range(20):
            start = len(self.frames)
            await self.send({"type": "ping"})
            answer = await self.wait_for(
                lambda m: m["type"] == "pong" or m.get("code") == "rate_limited", STEP_S, start
            )
            if answer["type"] == "pong":
                return answer
            await asyncio.sleep(0.25)
        raise AssertionError("pings rate limited for 5 s")

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await self.reader

    async def drop(self) -> None:
        """Cut the connection without a closing handshake (a lost network)."""
        assert self.ws is not None
        self.ws.transport.abort()
        if self.reader is not None:
            await self.reader

    def tail(self) -> list[dict[str, Any]]:
        return [short(m) for m in self.frames[-3:]]

    @property
    def status(self) -> str | None:
        return None if self.info is None else self.info["status"]


def short(msg: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in msg.items() if k not in ("view", "static", "table", "events")}
    if msg.get("view"):
        v = msg["view"]
        out["view"] = {k: v.get(k) for k in ("seq", "phase", "active", "legal", "hand")}
    return out


def options_for(preset: str) -> dict[str, Any]:
    """Short matches: a low target under every preset."""
    return {"target_score": {"official": 150, "house": 60}.get(preset, 150)}


async def create_table(server: ServerProc, **body: Any) -> dict[str, Any]:
    body.setdefault("bot_pause", BOT_PAUSE)
    body.setdefault("round_pause", ROUND_PAUSE)
    status, doc = await ahttp("POST", f"{server.url}/api/tables", body)
    assert status == 201, doc
    assert set(doc) == {"table", "url", "host_token", "ws"}
    assert doc["url"] == f"{server.url}/t/{doc['table']}"
    return doc


@dataclass
class Match:
    """A table with its people: seat streams, the host's client, a spectator."""

    server: ServerProc
    table: str
    host_token: str
    humans: dict[int, Client]
    streams: dict[int | None, Stream]
    spectator: Client | None = None
    spectator_stream: Stream | None = None
    errors: list[dict[str, Any]] = field(default_factory=list)


async def seat_people(
    server: ServerProc,
    preset: str,
    *,
    humans: tuple[int, ...] = (0, 1),
    bots: list[str | None] | None = None,
    spectator: bool = True,
    start: bool = True,
    via: Mapping[int | None, ServerProc] | None = None,
    **body: Any,
) -> Match:
    """Create a table, seat scripted people (seat ``humans[0]`` holds the host token), add a
    spectator before the deal, and start. ``via`` names, per seat (``None``: the spectator), the
    server it connects to (a cluster's nodes); by default every client connects to ``server``."""
    seats = body.pop("seats", 4)
    if bots is None:
        bots = [None if i in humans else ("heuristic" if i % 2 == 0 else "random") for i in range(seats)]
    created = await create_table(server, preset=preset, seats=seats, bots=bots, **body)
    table, host = created["table"], created["host_token"]
    route = via or {}
    clients: dict[int, Client] = {}
    streams: dict[int | None, Stream] = {}
    for n, seat in enumerate(humans):
        stream = streams[seat] = Stream(seat)
        client = await Client.open(
            route.get(seat, server), table, stream, host_token=host if n == 0 else None
        )
        assert client.welcome is not None and client.welcome["you"] == {"seat": None, "host": n == 0}
        answer = await client.request({"type": "sit", "seat": seat, "name": f"P{seat}"}, flush=True)
        assert answer["type"] == "token" and answer["seat"] == seat, answer
        assert len(answer["token"]) >= 22  # 128 bits at least, URL-safe
        await client.wait_for(lambda m: m["type"] == "update")
        clients[seat] = client
    match = Match(server, table, host, clients, streams)
    if spectator:
        match.spectator_stream = Stream(None)
        match.spectator = await Client.open(route.get(None, server), table, match.spectator_stream)
    if start:
        host_client = clients[humans[0]]
        answer = await host_client.request({"type": "start"}, flush=True)
        assert answer["type"] == "update" and answer["view"] is not None, answer
    return match


# -------------------------------------------------------------------------------------------------
# scripted people


TURN_PHASES = ("play", "play_drawn", "choose_color", "respond")


def choose(view: dict[str, Any], rng: random.Random) -> str | None:
    """A scripted person's action from its view: catch when it can, call UNO most of the time,
    play a card rather than draw."""
    legal: list[str] = view["legal"]
    if not legal:
        return None
    catches = [a for a in legal if a.startswith("catch:")]
    if catches:
        return rng.choice(catches)
    mine = view["active"] == view["seat"] and view["phase"] in TURN_PHASES
    if not mine:
        return "uno" if "uno" in legal and rng.random() < 0.7 else None
    turn = [a for a in legal if a != "uno"]
    if not turn:
        return "uno"
    plays = [
        a for a in turn if a not in ("draw", "pass", "accept", "challenge") and not a.startswith("color:")
    ]
    if plays and rng.random() < 0.9:
        # hands swapped and passed (7-0) keep a round going: mostly, something else first
        calm = [a for a in plays if ">" not in a and not a.startswith(("R0", "Y0", "G0", "B0"))]
        pick = rng.choice(calm if calm and rng.random() < 0.8 else plays)
        base = pick.rstrip("!")
        if base + "!" in plays:  # UNO with the play, most of the time (else a catch may follow)
            pick = base + "!" if rng.random() < 0.75 else base
        return pick
    return rng.choice(turn)


def over(client: Client) -> bool:
    view = client.view
    return client.status == "match_over" or (view is not None and view["phase"] == "match_over")


async def play_person(
    client: Client,
    rng: random.Random,
    *,
    until: Callable[[Client], bool] = over,
    timeout: float = 60.0,
    errors: list[dict[str, Any]] | None = None,
    stop: asyncio.Event | None = None,
    tolerate: tuple[str, ...] = (),
) -> None:
    """Play from the client's views until ``until`` (or ``stop`` is set); each action waits for its
    answer before the next decision, so every decision is made on the newest view."""
    deadline = time.monotonic() + timeout
    while not until(client) and not (stop is not None and stop.is_set()):
        if time.monotonic() > deadline:
            raise AssertionError(f"seat {client.seat}: not over after {timeout}s; {client.tail()}")
        index = len(client.frames)
        view = client.view
        action = None if view is None else choose(view, rng)
        if action is not None:
            answer = await client.request({"type": "act", "action": action})
            if answer["type"] == "error":
                # a race lost (a catch taken first, the turn gone on): refused, coded, harmless;
                # or faster than the limit (bots at 0.01 s keep a person busy): wait a little
                assert answer["code"] in ("illegal", "not_your_turn", "rate_limited", *tolerate), answer
                if errors is not None:
                    errors.append({**answer, "action": action, "view": view})
                if answer["code"] == "rate_limited":
                    await asyncio.sleep(0.25)
            continue
        wait = deadline - time.monotonic() if stop is None else min(0.1, deadline - time.monotonic())
        try:
            await client.wait_for(lambda m: m["type"] in ("update", "reconnect"), max(wait, 0.0), index)
        except AssertionError:
            if client.closed_code is not None or stop is None:
                raise


def is_turn_of(seat: int) -> Callable[[Client], bool]:
    def check(client: Client) -> bool:
        v = client.view
        return over(client) or (v is not None and v["active"] == seat and v["phase"] in TURN_PHASES)

    return check
