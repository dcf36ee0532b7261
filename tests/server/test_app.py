"""The online server for real: a server process on a free loopback port, real websocket clients.

``python -m unotable.server.run --port 0`` runs as a subprocess (against SQLite and against a fresh
PostgreSQL database); the clients are the ``websockets`` library's. Nothing is mocked. What is
checked (issue 9, "Tests (real server, real sockets)"):

- whole 4-seat matches to their target under ``official``, ``house`` and ``no-mercy``, two seats
  played by scripted clients (legal actions from their views, UNO calls, catches) and two by bots;
  the record published at ``/t/{id}/record`` (409 before the match is over) replays to the same
  scores;
- every frame of every seat and of a spectator, checked against the record replayed afterwards:
  each view is the engine's view of that seat at that point, the events are exactly the seat's
  (``events_since``), and nothing carries the seed, the RNG state, a hand or the draw pile;
- reconnecting mid-turn and mid-prompt with ``last_seq`` (the missed events, in order); a second
  tab on a seat (the first is told to reconnect and closed with 4001);
- ``kill -9`` in the middle of three tables, a restart on the same database, every client back
  with its token, nothing acknowledged lost, the matches played to the end;
- malformed, oversized, stale, replayed and unauthorised messages (and hypothesis' fuzz): a coded
  error, the state unchanged, the connection open, the other clients still served;
- chat limits; bots' pause; the turn timer and autopilot; the host leaving, a player leaving
  mid-prompt and everyone disconnecting while the round still ends;
- and around them: a graceful SIGTERM, PostgreSQL dropping the server's connections while bots
  play, the waiting room's commands, the handshake, the create body's checks.

The helpers (``Client``, ``play_person``, ``check_streams``...) are shared with test_cluster.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import re
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

websockets = pytest.importorskip("websockets")  # the dev extra; CI installs it
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from unotable import Card, Game, Record  # noqa: E402
from unotable.server.protocol import CloseCode, ReconnectReason  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from frames import check_frame  # noqa: E402

SERVER_START_S = 20.0
STEP_S = 10.0  # the longest a client waits for a frame that must come
BOT_PAUSE = 0.01
ROUND_PAUSE = 0.05
GRACE = 3.0  # an absent seat goes on autopilot after this: longer than a reconnect takes here
BACKENDS = ("sqlite", "postgres")

# -------------------------------------------------------------------------------------------------
# the server process


@dataclass
class ServerProc:
    """``python -m unotable.server.run`` in a subprocess, started in ``workdir`` against ``db``."""

    db: str
    workdir: Path
    proc: subprocess.Popen[str] | None = None
    url: str = ""
    starts: int = 0
    log_path: Path = field(init=False)

    def __post_init__(self) -> None:
        self.log_path = self.workdir / "server.log"

    @property
    def ws_base(self) -> str:
        return self.url.replace("http", "ws", 1)

    def start(self, on_address: Callable[[str], None] | None = None) -> None:
        """Start the process; ``on_address`` is called with its URL the moment it prints it."""
        self.starts += 1
        command = [
            sys.executable, "-m", "unotable.server.run", "--host", "127.0.0.1", "--port", "0",
            "--db", self.db, "--data-dir", str(self.workdir), "--bot-pause", str(BOT_PAUSE),
            "--round-pause", str(ROUND_PAUSE), "--grace", str(GRACE),
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
        line = _read_line(self.proc, SERVER_START_S)
        found = re.search(r"serving at (http://127\.0\.0\.1:(\d+))", line)
        assert found, f"the server's first line names its address, not {line!r}; log: {self.log()}"
        self.url = found.group(1)
        if on_address is not None:
            on_address(self.url)
        wait_healthy(self.url, self.proc, self.log)

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)

    def log(self) -> str:
        return self.log_path.read_text()[-4000:] if self.log_path.exists() else ""


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


def _read_line(proc: subprocess.Popen[str], timeout: float) -> str:
    """The first line the process prints (the pipe is read in a thread, so a hang times out)."""
    import threading

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


async def _admin(url: str, statement: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url, timeout=10)
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


@contextlib.contextmanager
def database(kind: str, workdir: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh database of ``kind``: an SQLite file in ``workdir``, or a new PostgreSQL database
    (on the cluster of conftest's ``postgres_admin_url``, which starts it or fails), dropped after."""
    if kind == "sqlite":
        yield f"sqlite:///{workdir / 'tables.db'}"
        return
    admin = str(request.getfixturevalue("postgres_admin_url"))
    name = f"unotable_app_{secrets.token_hex(6)}"
    asyncio.run(_admin(admin, f"CREATE DATABASE {name}"))
    try:
        yield f"{admin.rpartition('/')[0]}/{name}"
    finally:
        asyncio.run(_admin(admin, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


@pytest.fixture(scope="module", params=BACKENDS)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    """One server per backend for the module's tests that do not restart it."""
    workdir = tmp_path_factory.mktemp(f"server-{request.param}")
    with database(request.param, workdir, request) as db:
        proc = ServerProc(db, workdir)
        proc.start()
        try:
            yield proc
        finally:
            proc.stop()


@pytest.fixture(params=BACKENDS)
def own_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ServerProc]:
    """A server of this test's own (it may kill and restart it), per backend."""
    with database(request.param, tmp_path, request) as db:
        proc = ServerProc(db, tmp_path)
        proc.start()
        try:
            yield proc
        finally:
            proc.stop()


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
        return [_short(m) for m in self.frames[-3:]]

    @property
    def status(self) -> str | None:
        return None if self.info is None else self.info["status"]


def _short(msg: dict[str, Any]) -> dict[str, Any]:
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
    **body: Any,
) -> Match:
    """Create a table, seat scripted people (seat ``humans[0]`` holds the host token), add a
    spectator before the deal, and start."""
    seats = body.pop("seats", 4)
    if bots is None:
        bots = [None if i in humans else ("heuristic" if i % 2 == 0 else "random") for i in range(seats)]
    created = await create_table(server, preset=preset, seats=seats, bots=bots, **body)
    table, host = created["table"], created["host_token"]
    clients: dict[int, Client] = {}
    streams: dict[int | None, Stream] = {}
    for n, seat in enumerate(humans):
        stream = streams[seat] = Stream(seat)
        client = await Client.open(server, table, stream, host_token=host if n == 0 else None)
        assert client.welcome is not None and client.welcome["you"] == {"seat": None, "host": n == 0}
        answer = await client.request({"type": "sit", "seat": seat, "name": f"P{seat}"}, flush=True)
        assert answer["type"] == "token" and answer["seat"] == seat, answer
        assert len(answer["token"]) >= 22  # 128 bits at least, URL-safe
        await client.wait_for(lambda m: m["type"] == "update")
        clients[seat] = client
    match = Match(server, table, host, clients, streams)
    if spectator:
        match.spectator_stream = Stream(None)
        match.spectator = await Client.open(server, table, match.spectator_stream)
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


# -------------------------------------------------------------------------------------------------
# checking every frame against the record


CARD_WORD = re.compile(r"^[A-Z][A-Z0-9]{0,3}$")
SECRET_KEYS = {"hands", "draw", "draw_pile", "seed", "rng", "token_hash", "host_hash", "host_token"}


def is_card(value: Any) -> bool:
    if not isinstance(value, str) or not CARD_WORD.match(value):
        return False
    try:
        Card.parse(value)
    except ValueError:
        return False
    return True


def card_strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [c for v in value.values() for c in card_strings(v)]
    if isinstance(value, list):
        return [c for v in value for c in card_strings(v)]
    return [value] if is_card(value) else []


def keys_in(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_in(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_in(v)}
    return set()


@dataclass
class Replayed:
    """The game of a record, replayed: every seat's view and the spectator's at each event number,
    every seat's events, the secrets (seed, RNG words) of every position it went through."""

    game: Game
    views: dict[int, list[dict[int | None, dict[str, Any]]]]
    events: dict[int | None, list[dict[str, Any]]]
    secret_ints: set[int]
    seed_text: str
    salt_text: str = ""
    """The salt of the match's seed commitment (secret, as the seed, until the match is over)."""


def replay_views(record: Record, salt: str = "") -> Replayed:
    assert record.seed is not None
    game = Game.new(record.seats, record.ruleset, record.seed)
    views: dict[int, list[dict[int | None, dict[str, Any]]]] = {}
    secrets_seen: set[int] = {record.seed}

    def snap() -> None:
        at: dict[int | None, dict[str, Any]] = {s: game.view(s).to_dict() for s in range(game.seats)}
        at[None] = game.spectator_view().to_dict()
        views.setdefault(game.last_seq, []).append(at)
        secrets_seen.update(w for w in game.to_position()["rng"] if w > 1_000_000)

    snap()
    for seat, action in record.actions:
        game.play(action, seat)
        snap()
    events = {s: [e.to_dict() for e in game.events_for(s)] for s in [*range(game.seats), None]}
    return Replayed(game, views, events, secrets_seen, str(record.seed), salt)


def fetch_record(server: ServerProc, table: str) -> Record:
    return Record.from_dict(fetch_record_doc(server, table))


def fetch_record_doc(server: ServerProc, table: str) -> dict[str, Any]:
    """The finished match's record as served: with its seed commitment and the reveal."""
    status, body = http("GET", f"{server.url}/t/{table}/record")
    assert status == 200, body
    assert isinstance(body, dict)
    return body


def check_streams(rep: Replayed, streams: list[Stream], complete: bool = True) -> None:
    """Every frame of every stream against the replayed game (NET-5, NET-6); ``complete``: the
    streams were followed to the game's last event (else only the events up to the last view)."""
    for stream in streams:
        seat = stream.seat
        mine = rep.events[seat]
        by_seq = {e["seq"]: e for e in mine}
        order = {e["seq"]: i for i, e in enumerate(mine)}
        delivered: set[int] = set()
        seen_cards: set[str] = set(card_strings(stream.sent_cards()))
        public_cards: set[str] = set()
        for frames in stream.connections:
            last_seq = -1
            next_index: int | None = None  # the index in ``mine`` of the next event this connection gets
            for msg in frames:
                assert isinstance(msg.get("seq"), int) and msg["seq"] >= last_seq, msg
                last_seq = msg["seq"]
                check_secrets(rep, msg, seat)
                view = msg.get("view")
                events = msg.get("events") or []
                for e in msg.get("history") or []:  # a welcome's round log: the seat's own events
                    assert by_seq.get(e["seq"]) == e, f"seat {seat}: a history event not its own: {e}"
                    seen_cards.update(card_strings(e))
                for e in events:
                    assert e["seq"] in by_seq, f"seat {seat} got an event that is not its own: {e}"
                    assert e == by_seq[e["seq"]], f"seat {seat}: {e} != {by_seq[e['seq']]}"
                    if next_index is not None:  # in order, nothing skipped
                        assert order[e["seq"]] == next_index, f"seat {seat}: event {e['seq']} out of order"
                    next_index = order[e["seq"]] + 1
                    delivered.add(e["seq"])
                    seen_cards.update(card_strings(e))
                if view is not None:
                    candidates = [at[seat] for at in rep.views.get(view["seq"], [])]
                    assert view in candidates, (
                        f"seat {seat}'s view at event {view['seq']} is not the engine's: {_short(msg)}"
                    )
                    # after a view, the connection holds every event of its seat up to that view
                    later = [i for i, e in enumerate(mine) if e["seq"] > view["seq"]]
                    upto = later[0] if later else len(mine)
                    if next_index is None:
                        next_index = upto
                    assert next_index == upto, f"seat {seat}: events missing before view {view['seq']}"
                    if seat is None:
                        assert "hand" not in view and "legal" not in view
                    else:
                        assert view["seat"] == seat
                        seen_cards.update(card_strings([view["hand"], view["drawn_card"], view["legal"]]))
                    public_cards.update(card_strings([view["discard_pile"], view["top_card"]]))
                if msg["type"] == "error":
                    words = {w for w in re.findall(r"[A-Z][A-Z0-9]*", msg["message"]) if is_card(w)}
                    hidden = words - seen_cards - public_cards
                    assert not hidden, f"seat {seat} was told of {hidden}: {msg}"
        # every event this seat may see reached it (over all its connections)
        expected = set(by_seq) if complete else {q for q in by_seq if q <= max(delivered, default=0)}
        assert delivered == expected, f"seat {seat} missed events {sorted(expected - delivered)[:10]}"


def without_reveal(msg: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """``msg`` without the seed and salt a finished match's table reveals (its commitment stays,
    scanned with the rest); a reveal before the match is over fails."""
    table = msg.get("table")
    deal = table.get("deal") if isinstance(table, dict) else None
    if not isinstance(table, dict) or not isinstance(deal, dict):
        return msg
    assert isinstance(deal.get("commitment"), str), f"seat {seat}: a deal proof without its commitment"
    if deal.get("seed") is None and deal.get("salt") is None:
        return msg
    assert table["status"] == "match_over", f"seat {seat}: the seed was revealed during the match: {deal}"
    public = {k: v for k, v in deal.items() if k not in ("seed", "salt")}
    return {**msg, "table": {**table, "deal": public}}


def check_secrets(rep: Replayed, msg: dict[str, Any], seat: int | None) -> None:
    msg = without_reveal(msg, seat)
    text = json.dumps(msg)
    assert rep.seed_text not in text, f"the seed reached seat {seat}"
    assert not rep.salt_text or rep.salt_text not in text, f"the commitment's salt reached seat {seat}"
    leaked = {int(x) for x in re.findall(r"\d+", text)} & rep.secret_ints
    assert not leaked, f"RNG state reached seat {seat}: {leaked}"
    keys = keys_in({k: v for k, v in msg.items() if k != "view"})
    assert not keys & (SECRET_KEYS | {"hand"}), f"seat {seat}: secret fields {keys & SECRET_KEYS}"
    view = msg.get("view")
    if view is not None:
        assert not keys_in(view) & SECRET_KEYS
    # outside the view, the events and the history (checked against the engine), and the chat's
    # free text, no card at all
    rest = {k: v for k, v in msg.items() if k not in ("view", "events", "history", "text", "message", "chat")}
    assert not card_strings(rest), f"seat {seat}: cards outside the view: {card_strings(rest)}"


async def record_from_log(server: ServerProc, table_id: str) -> Record:
    """The game so far as the server's log rebuilds it (the record endpoint waits for the end):
    the log read from the database, replayed by the table actor, the engine's record of it."""
    from unotable.server.entries import entry_from_dict
    from unotable.server.store import open_store
    from unotable.server.table import TableActor

    store = open_store(server.db)
    await store.open()
    try:
        stored = await store.load(table_id)
    finally:
        await store.close()
    assert stored is not None
    table = TableActor(table_id, stored.doc)
    table.replay([entry_from_dict(e) for e in stored.entries], time.time())
    assert table.game is not None
    return Record.from_game(table.game)


async def finish_and_check(match: Match, results: list[Any]) -> Replayed:
    """The match is over: fetch the record, replay it, check the scores and every frame."""
    doc = await asyncio.to_thread(fetch_record_doc, match.server, match.table)
    record = Record.from_dict(doc)
    rep = replay_views(record, doc["reveal"]["salt"])
    assert rep.game.is_over()
    some = next(iter(match.humans.values()))
    await some.ping()
    assert some.view is not None and some.view["phase"] == "match_over"
    assert list(rep.game.scores) == some.view["scores"]
    assert some.view["outcome"] is not None
    assert max(rep.game.scores) >= rep.game.ruleset.target_score or rep.game.outcome() is not None
    if match.spectator is not None:
        await match.spectator.ping()
    streams = list(match.streams.values())
    if match.spectator_stream is not None:
        streams.append(match.spectator_stream)
    check_streams(rep, streams)
    return rep


# -------------------------------------------------------------------------------------------------
# 1-3: whole matches, the record, the leak scan


@pytest.mark.parametrize("preset", ["official", "house", "no-mercy"])
def test_a_whole_match_with_people_and_bots_replays_and_leaks_nothing(
    server: ServerProc, preset: str
) -> None:
    async def main() -> None:
        match = await seat_people(server, preset, options=options_for(preset))
        status, body = await ahttp("GET", f"{server.url}/t/{match.table}/record")
        assert status == 409 and body["code"] == "forbidden", (status, body)
        status, info = await ahttp("GET", f"{server.url}/api/tables/{match.table}")
        assert status == 200 and info["status"] == "playing" and info["table"] == match.table
        rng = random.Random(preset)
        await asyncio.gather(
            *(play_person(c, random.Random(rng.random()), errors=match.errors) for c in match.humans.values())
        )
        rep = await finish_and_check(match, [])
        assert rep.game.round_no >= 1
        status, info = await ahttp("GET", f"{server.url}/api/tables/{match.table}")
        assert info["status"] == "match_over"
        status, metrics = await ahttp("GET", f"{server.url}/metrics")
        assert status == 200 and isinstance(metrics, str)
        assert re.search(r"^unotable_tables \d", metrics, re.M)
        assert re.search(r'^unotable_actions_total\{kind="act"\} [1-9]', metrics, re.M)
        assert "unotable_action_latency_seconds_bucket" in metrics
        for c in [*match.humans.values(), match.spectator]:
            assert c is not None
            await c.close()

    asyncio.run(main())


def test_the_leak_scan_catches_a_leak(server: ServerProc) -> None:
    """The checker itself: a frame given another seat's card, the seed or an event of another
    seat fails it (so a pass above means something)."""

    async def main() -> None:
        match = await seat_people(server, "official", options={"target_score": 30})
        await asyncio.gather(*(play_person(c, random.Random(s)) for s, c in match.humans.items()))
        doc = await asyncio.to_thread(fetch_record_doc, server, match.table)
        rep = replay_views(Record.from_dict(doc), doc["reveal"]["salt"])
        streams = [*match.streams.values(), match.spectator_stream]
        check_streams(rep, [s for s in streams if s is not None])
        frames = match.streams[0].connections[0]
        at = next(
            i for i, m in enumerate(frames) if m.get("view") and m["view"]["hand"] and m["view"]["seq"] > 10
        )
        view = frames[at]["view"]
        other = next(at_[1]["hand"] for at_ in rep.views[view["seq"]] if at_[1]["hand"])
        foreign = next(c for c in other if c not in view["hand"]) if set(other) - set(view["hand"]) else None
        tampered: list[tuple[str, dict[str, Any]]] = [
            (
                "another seat's event",
                {**frames[at], "events": [e for e in rep.events[1] if e["type"] == "hand_dealt"]},
            ),
            ("the seed", {**frames[at], "seed_note": rep.seed_text}),
            ("the salt", {**frames[at], "salt_note": rep.salt_text}),
            (
                "a reveal during the match",
                {**frames[at], "table": {"status": "playing", "deal": {"commitment": "sha256:0", "seed": 1}}},
            ),
            ("a hand outside the view", {**frames[at], "table": {"hands": [other]}}),
        ]
        if foreign is not None:
            tampered.append(
                ("another seat's card", {**frames[at], "view": {**view, "hand": [*view["hand"], foreign]}})
            )
        for what, frame in tampered:
            stream = Stream(0)
            stream.connections = [[*frames[:at], frame, *frames[at + 1 :]]]
            with pytest.raises(AssertionError):
                check_streams(rep, [stream])
                raise RuntimeError(f"the leak scan missed {what}")

        # a rematch keeps the seats: a new game, dealt from the start, its events numbered anew
        host, guest = match.humans[0], match.humans[1]
        await guest.ping()
        refused = await guest.request({"type": "rematch"}, flush=True)
        assert refused["type"] == "error" and refused["code"] == "forbidden"
        again = await host.request({"type": "rematch"}, flush=True)
        assert again["type"] == "update" and again["static"] is not None, again
        assert again["table"]["status"] == "playing"
        assert [s["name"] for s in again["table"]["seats"]] == ["P0", "P1", "Bot 2", "Bot 3"]
        assert again["view"]["round_no"] == 1 and again["view"]["scores"] == [0, 0, 0, 0]
        assert again["events"][0]["seq"] == 1 and again["events"][0]["type"] == "dealer_chosen"
        for c in [*match.humans.values(), match.spectator]:
            assert c is not None
            await c.close()

    asyncio.run(main())


# -------------------------------------------------------------------------------------------------
# 4: reconnecting, and a second tab


def is_turn_of(seat: int) -> Callable[[Client], bool]:
    def check(client: Client) -> bool:
        v = client.view
        return over(client) or (v is not None and v["active"] == seat and v["phase"] in TURN_PHASES)

    return check


def missed(rep: Replayed, seat: int, after: int, upto: int) -> list[dict[str, Any]]:
    return [e for e in rep.events[seat] if after < e["seq"] <= upto]


def test_reconnect_mid_turn_mid_prompt_and_a_second_tab(server: ServerProc) -> None:
    async def main() -> None:
        match = await seat_people(server, "official", options={"target_score": 5000})
        a, b = match.humans[0], match.humans[1]
        rng = random.Random(4)
        resumes: list[tuple[int, int, dict[str, Any]]] = []  # (seat, game seq it had seen, welcome)

        # mid-turn: A's connection is lost while others play; A comes back on its own turn
        await play_person(a, rng, until=lambda c: c.view is not None and c.view["active"] != 0)
        seen_seq, seen_game = a.seq, a.view["seq"] if a.view else 0
        await a.drop()
        await b.ping()  # B's view is at least as new as A's last one (else it may still show A to act)
        await play_person(b, rng, until=is_turn_of(0))
        assert not over(b)
        a = await Client.open(
            server,
            match.table,
            match.streams[0],
            token=a.token,
            host_token=match.host_token,
            last_seq=seen_seq,
        )
        assert a.welcome is not None and a.welcome["you"] == {"seat": 0, "host": True}
        view = a.welcome["view"]
        assert not a.welcome["table"]["seats"][0]["autopilot"], "away past the grace period"
        assert view["active"] == 0 and view["phase"] in TURN_PHASES and view["legal"], (
            _short(a.welcome),
            a.welcome["events"][-4:],
            b.tail(),
        )
        assert a.welcome["events"], "A missed events while away"
        assert a.welcome["events"][0]["seq"] > seen_game
        resumes.append((0, seen_game, a.welcome))
        match.humans[0] = a

        # mid-prompt: A draws and its connection dies before the answer; it comes back to the
        # prompt (play the drawn card or keep it), with the draw among the missed events
        b_stop = asyncio.Event()
        b_plays = asyncio.create_task(play_person(b, random.Random(6), stop=b_stop))
        prompt = None
        for _attempt in range(30):
            await play_person(
                a,
                rng,
                until=lambda c: (
                    over(c)
                    or (
                        c.view is not None
                        and c.view["active"] == 0
                        and c.view["phase"] == "play"
                        and "draw" in c.view["legal"]
                    )
                ),
            )
            assert not over(a), "the match ended before a prompt came up"
            seen_seq, seen_game = a.seq, a.view["seq"] if a.view else 0
            await a.send({"type": "act", "action": "draw"})
            await a.drop()
            a = await Client.open(
                server,
                match.table,
                match.streams[0],
                token=a.token,
                host_token=match.host_token,
                last_seq=seen_seq,
            )
            assert a.welcome is not None
            resumes.append((0, seen_game, a.welcome))
            match.humans[0] = a
            drew = [e for e in a.welcome["events"] if e["type"] == "drew_cards" and e["seat"] == 0]
            assert drew and drew[0]["cards"], a.welcome["events"]
            view = a.welcome["view"]
            if view["phase"] == "play_drawn" and view["active"] == 0:
                prompt = view
                break
        b_stop.set()
        await b_plays
        assert prompt is not None, "no prompt in 30 draws"
        assert prompt["drawn_card"] == drew[-1]["cards"][-1] and "pass" in prompt["legal"]

        # two tabs on B's seat: the first is told to reconnect and closed with 4001
        first = b
        second = await Client.open(server, match.table, match.streams[1], token=b.token, last_seq=b.seq)
        assert second.welcome is not None and second.welcome["you"]["seat"] == 1
        notice = await first.wait_for(lambda m: m["type"] == "reconnect")
        assert notice["seq"] >= 0 and notice["reason"] == ReconnectReason.TAKEN_OVER
        for _ in range(100):
            if first.closed_code is not None:
                break
            await asyncio.sleep(0.05)
        assert first.closed_code == 4001
        with pytest.raises(ConnectionClosed):
            await first.send({"type": "ping"})
        await second.ping()  # (the first tab's end has reached the table by now)
        _, info = await ahttp("GET", f"{server.url}/api/tables/{match.table}")
        assert info["seats"][1]["connected"] is True, "the seat's second tab is connected"
        match.humans[1] = second
        resumes.append((1, b.view["seq"] if b.view else 0, second.welcome))

        # the second tab plays on (a dozen more commands), then every frame is checked against the
        # game as the server's log rebuilds it
        target = second.seq + 12
        await asyncio.gather(
            *(
                play_person(c, random.Random(c.seq), until=lambda c: over(c) or c.seq >= target)
                for c in (a, second)
            )
        )
        for c in (a, second, match.spectator):  # no frame after this: the log is read after
            assert c is not None
            await c.close()
        rep = replay_views(await record_from_log(server, match.table))
        streams = [*match.streams.values(), match.spectator_stream]
        check_streams(rep, [s for s in streams if s is not None], complete=False)
        for seat, after, welcome in resumes:
            got = welcome["events"]
            assert got == missed(rep, seat, after, welcome["view"]["seq"]), "missed events, in order"

    asyncio.run(main())


# -------------------------------------------------------------------------------------------------
# 5: kill -9 in the middle of three tables


def test_kill_9_in_the_middle_of_three_tables_loses_nothing_acknowledged(own_server: ServerProc) -> None:
    server = own_server

    async def main() -> None:
        matches = [
            await seat_people(server, preset, options=options_for(preset))
            for preset in ("official", "no-mercy", "official")  # (house rounds run long)
        ]
        rng = random.Random(9)
        players = {(i, seat): c for i, m in enumerate(matches) for seat, c in m.humans.items()}
        tasks = [
            asyncio.create_task(play_person(c, random.Random(rng.random()), timeout=120))
            for c in players.values()
        ]
        # let every table get going, then kill the server with actions in flight
        deadline = time.monotonic() + 20
        while any(c.seq < 14 for c in players.values()):  # (no round ends that soon)
            assert time.monotonic() < deadline, "the tables did not get going"
            await asyncio.sleep(0.02)
        assert not any(over(c) for c in players.values()), "the kill comes in the middle of play"
        server.kill9()
        await asyncio.gather(*tasks, return_exceptions=True)  # they fail on the closed sockets
        spectators = [m.spectator for m in matches]
        for c in [*players.values(), *spectators]:
            assert c is not None
            await c.close()
            assert c.closed_code is not None
        acknowledged = {key: (c.seq, c.view["seq"] if c.view else 0) for key, c in players.items()}

        server.start()  # the same database; a new port
        assert server.starts == 2
        status, health = await ahttp("GET", f"{server.url}/healthz")
        assert status == 200 and health["tables"] >= 3
        resumed: dict[tuple[int, int], Client] = {}
        for (i, seat), old in players.items():
            m = matches[i]
            host = m.host_token if seat == 0 else None
            c = await Client.open(
                server, m.table, m.streams[seat], token=old.token, host_token=host, last_seq=old.seq
            )
            assert c.welcome is not None and c.welcome["you"] == {"seat": seat, "host": seat == 0}
            seq, game_seq = acknowledged[(i, seat)]
            assert c.welcome["seq"] >= seq, "the table went back in time"
            assert c.welcome["view"]["seq"] >= game_seq
            resumed[(i, seat)] = c
            m.humans[seat] = c
        for m, old_spectator in zip(matches, spectators, strict=True):
            assert m.spectator_stream is not None and old_spectator is not None
            m.spectator = await Client.open(server, m.table, m.spectator_stream, last_seq=old_spectator.seq)
        await asyncio.gather(
            *(play_person(c, random.Random(rng.random()), timeout=120) for c in resumed.values())
        )
        for (i, seat), c in resumed.items():
            assert over(c), (i, seat)
        for i, m in enumerate(matches):
            rep = await finish_and_check(m, [])
            # what each seat saw before the crash is in the record: its views at those points are
            # the replay's (check_streams), and the resumed welcome carried exactly what it missed
            for seat in m.humans:
                _, game_seq = acknowledged[(i, seat)]
                welcome = resumed[(i, seat)].welcome
                assert welcome is not None
                assert welcome["events"] == missed(rep, seat, game_seq, welcome["view"]["seq"])
        for c in [*resumed.values(), *(m.spectator for m in matches)]:
            assert c is not None
            await c.close()

    asyncio.run(main())


def test_sigterm_tells_every_client_to_reconnect_and_keeps_the_table(own_server: ServerProc) -> None:
    server = own_server

    async def main() -> None:
        match = await seat_people(server, "official", options={"target_score": 60})
        people = list(match.humans.values())
        halt = asyncio.Event()
        tasks = [
            asyncio.create_task(play_person(c, random.Random(s), timeout=60, stop=halt))
            for s, c in match.humans.items()
        ]
        deadline = time.monotonic() + 20
        while any(c.seq < 12 and not over(c) for c in people):
            assert time.monotonic() < deadline
            await asyncio.sleep(0.02)
        halt.set()
        await asyncio.gather(*tasks)
        assert not any(over(c) for c in people), "the shutdown comes in the middle of the match"
        server.stop()  # SIGTERM: a graceful shutdown
        # uvicorn shuts down gracefully, then lets the signal end the process as it would have
        assert server.proc is not None and server.proc.returncode in (0, -signal.SIGTERM), server.log()
        everyone = [*people, match.spectator]
        for c in everyone:
            assert c is not None
            notice = await c.wait_for(lambda m: m["type"] == "reconnect")
            assert notice["reason"] == ReconnectReason.RESTART and notice["message"]
            await c.close()
            assert c.closed_code == CloseCode.RESTART, c.closed_code
        server.start()
        for seat, old in list(match.humans.items()):
            c = await Client.open(
                server,
                match.table,
                match.streams[seat],
                token=old.token,
                host_token=match.host_token if seat == 0 else None,
                last_seq=old.seq,
            )
            assert c.welcome is not None and c.welcome["seq"] >= old.seq
            match.humans[seat] = c
        assert match.spectator_stream is not None and match.spectator is not None
        match.spectator = await Client.open(
            server, match.table, match.spectator_stream, last_seq=match.spectator.seq
        )
        await asyncio.gather(*(play_person(c, random.Random(7)) for c in match.humans.values()))
        await finish_and_check(match, [])
        for c in [*match.humans.values(), match.spectator]:
            await c.close()

    asyncio.run(main())


# -------------------------------------------------------------------------------------------------
# 6: malformed, oversized, stale, replayed and unauthorised messages, fuzzed


class LoopThread:
    """An event loop in a thread, so that hypothesis' (synchronous) examples can drive clients
    that stay connected across examples."""

    def __init__(self) -> None:
        import threading

        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro: Awaitable[Any], timeout: float = 60.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)  # type: ignore[arg-type]

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


CODES = {
    "not_your_turn",
    "illegal",
    "invalid",
    "stale",
    "malformed",
    "too_large",
    "rate_limited",
    "forbidden",
}
TYPES = [
    "hello",
    "sit",
    "act",
    "chat",
    "ping",
    "leave",
    "start",
    "next_round",
    "rematch",
    "add_bot",
    "remove_bot",
    "kick",
    "settings",
]
HOST_ONLY = ["start", "next_round", "rematch", "add_bot", "remove_bot", "kick", "settings"]

json_leaf = (
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def bad_messages(draw: st.DrawFn) -> tuple[str, str | bytes, set[str]]:
    """(who sends it: seat, other or spectator; the frame; the codes it may get)."""
    kind = draw(
        st.sampled_from(
            [
                "garbage",
                "json",
                "shape",
                "oversized",
                "binary",
                "host",
                "spectator",
                "not_your_turn",
                "stale",
                "replayed",
                "hello",
                "sit",
                "bad_action",
            ]
        )
    )
    who = draw(st.sampled_from(["other", "spectator"]))
    if kind == "garbage":
        text = draw(st.text(max_size=200))
        try:
            json.loads(text)
            return "other", "{" + text, {"malformed"}
        except ValueError:
            return who, text, {"malformed"}
    if kind == "json":  # any JSON that is not an object of a known type
        value = draw(json_values)
        if isinstance(value, dict) and value.get("type") in TYPES:
            value["type"] = "nonsense"
        return who, json.dumps(value), {"malformed"}
    if kind == "shape":  # a known type with fields of the wrong name or type
        fields = draw(
            st.dictionaries(
                st.sampled_from(
                    [
                        "seat",
                        "name",
                        "action",
                        "text",
                        "seq",
                        "level",
                        "token",
                        "extra",
                        "last_seq",
                        "options",
                    ]
                ),
                json_leaf | st.lists(json_leaf, max_size=2),
                min_size=1,
                max_size=3,
            )
        )
        msg_type = draw(st.sampled_from(TYPES))
        msg = {"type": msg_type, **fields}
        from unotable.server.protocol import ProtocolError, parse_client

        try:
            parse_client(json.dumps(msg))
        except ProtocolError:
            return who, json.dumps(msg), {"malformed"}
        msg["surplus"] = 1  # extra fields are refused too
        return who, json.dumps(msg), {"malformed"}
    if kind == "oversized":
        filler = draw(st.integers(4097, 9000))
        msg = {"type": "chat", "text": "x" * filler}
        return who, json.dumps(msg), {"too_large"}
    if kind == "binary":
        return who, draw(st.binary(min_size=1, max_size=64)), {"malformed"}
    if kind == "host":  # a host command without the host token
        msg_type = draw(st.sampled_from(HOST_ONLY))
        msg = {"type": msg_type}
        if msg_type in ("add_bot", "remove_bot", "kick"):
            msg["seat"] = draw(st.integers(0, 3))
        return draw(st.sampled_from(["guest", "spectator"])), json.dumps(msg), {"forbidden"}
    if kind == "spectator":
        msg = draw(
            st.sampled_from(
                [{"type": "act", "action": "draw"}, {"type": "chat", "text": "hi"}, {"type": "leave"}]
            )
        )
        return "spectator", json.dumps(msg), {"forbidden"}
    if kind == "not_your_turn":
        return (
            "other",
            json.dumps({"type": "act", "action": draw(st.sampled_from(["draw", "pass", "R5"]))}),
            {"not_your_turn", "illegal"},
        )
    if kind == "stale":
        return "active", json.dumps({"type": "act", "action": "@legal", "seq": "@stale"}), {"stale"}
    if kind == "replayed":
        return "active", "@replayed", {"stale"}
    if kind == "hello":
        return who, json.dumps({"type": "hello"}), {"malformed"}
    if kind == "sit":
        return who, json.dumps({"type": "sit", "seat": draw(st.integers(0, 3)), "name": "Zed"}), {"forbidden"}
    # bad_action: notation that is no action of this game, from the seat to act
    text = draw(st.sampled_from(["R10", "X7", "W4", "W4:Q", "color:", "catch:9", "catch:x", "!!", "R7>9"]))
    return "active", json.dumps({"type": "act", "action": text}), {"invalid", "illegal", "malformed"}


@dataclass
class FuzzTable:
    server: ServerProc
    match: Match
    last_act: dict[int, str] = field(default_factory=dict)  # per seat, its last accepted act (with seq)

    def clients(self) -> list[Client]:
        spectator = self.match.spectator
        assert spectator is not None
        return [*self.match.humans.values(), spectator]

    def active(self) -> tuple[Client, Client]:
        """The client of the seat to act and the other one."""
        a, b = self.match.humans[0], self.match.humans[1]
        assert a.view is not None
        return (a, b) if a.view["active"] == 0 else (b, a)

    async def quiet(self) -> None:
        """Until one of the two people must act in phase play (no timer, no bot: nothing moves)."""
        deadline = time.monotonic() + STEP_S
        while True:
            views = [c.view for c in self.clients()]  # both seats and the spectator, at one point
            seqs = {v["seq"] for v in views if v is not None}
            first = views[0]
            if None not in views and len(seqs) == 1 and first is not None and first["phase"] in TURN_PHASES:
                return
            assert time.monotonic() < deadline, "the table did not settle"
            await asyncio.sleep(0.01)

    async def move(self) -> None:
        """The seat to act plays a legal action, with the table's seq: the table keeps serving."""
        await self.quiet()
        active, _ = self.active()
        assert active.view is not None and active.seat is not None
        legal = [a for a in active.view["legal"] if a not in ("uno",) and not a.startswith("catch")]
        action = next((a for a in legal if a not in ("draw", "pass")), legal[0])
        msg = {"type": "act", "action": action, "seq": active.seq}
        answer = await active.request(msg)
        assert answer["type"] == "update", answer
        self.last_act[active.seat] = json.dumps(msg)

    async def refuse(self, who: str, frame: str | bytes, codes: set[str]) -> None:
        await self.quiet()
        active, other = self.active()
        guest = self.match.humans[1]  # seat 0 holds the host token, seat 1 does not
        sender = {"active": active, "other": other, "guest": guest, "spectator": self.match.spectator}[who]
        assert sender is not None
        if frame == "@replayed":
            previous = self.last_act.get(sender.seat)  # type: ignore[arg-type]
            if previous is None:
                return
            frame = previous
        if isinstance(frame, str) and "@legal" in frame:
            assert sender.view is not None
            doc = json.loads(frame)
            doc["action"] = sender.view["legal"][0]
            doc["seq"] = sender.seq - 1 if sender.seq > 0 else sender.seq + 5
            frame = json.dumps(doc)
        before = {id(c): (len(c.frames), c.view, c.seq) for c in self.clients()}
        start = len(sender.frames)
        await sender.send(frame)
        answer = await sender.wait_for(lambda m: m["type"] != "chat", STEP_S, start)
        assert answer["type"] == "error", (frame, answer)
        assert answer["code"] in CODES and answer["message"]
        if answer["code"] != "rate_limited":
            assert answer["code"] in codes, (frame, answer)
        # nothing changed: the same seq for everyone, no update anywhere, the connection open
        for c in self.clients():
            if c is not sender:
                await c.ping()
            n, view, _ = before[id(c)]
            assert c.closed_code is None
            assert c.view == view
            assert not [m for m in c.frames[n:] if m["type"] not in ("pong", "error")], c.tail()
        assert answer["seq"] == before[id(sender)][2]


def test_bad_messages_get_coded_errors_and_change_nothing(server: ServerProc) -> None:
    lt = LoopThread()
    match = lt.run(
        seat_people(
            server, "official", humans=(0, 1), bots=[None, None], seats=2, options={"target_score": 5000}
        )
    )
    try:
        fuzz = FuzzTable(server, match)
        lt.run(fuzz.move())

        # the cases by hand first, then hypothesis' mix
        big = json.dumps({"type": "chat", "text": "x" * 5000})
        for who, frame, codes in [
            ("other", "not json", {"malformed"}),
            ("other", big, {"too_large"}),
            ("other", b"\x00\x01", {"malformed"}),
            ("guest", json.dumps({"type": "start"}), {"forbidden"}),
            ("guest", json.dumps({"type": "kick", "seat": 0}), {"forbidden"}),
            ("spectator", json.dumps({"type": "act", "action": "draw"}), {"forbidden"}),
            ("spectator", json.dumps({"type": "kick", "seat": 0}), {"forbidden"}),
            ("active", json.dumps({"type": "act", "action": "@legal", "seq": "@stale"}), {"stale"}),
            ("active", "@replayed", {"stale"}),
            ("other", json.dumps({"type": "act", "action": "draw"}), {"not_your_turn"}),
        ]:
            lt.run(fuzz.refuse(who, frame, codes))
            lt.run(fuzz.move())

        @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        @given(case=bad_messages(), move=st.booleans())
        def one(case: tuple[str, str | bytes, set[str]], move: bool) -> None:
            lt.run(fuzz.refuse(*case))
            if move:
                lt.run(fuzz.move())
            time.sleep(0.05)  # under the message rate limit, mostly

        one()
    finally:
        for c in [*match.humans.values(), match.spectator]:
            if c is not None:
                with contextlib.suppress(Exception):
                    lt.run(c.close(), 10)
        lt.close()


# -------------------------------------------------------------------------------------------------
# 7: chat


def test_chat_is_limited_stored_and_echoed_as_plain_text(server: ServerProc) -> None:
    from unotable.server.protocol import LIMITS
    from unotable.server.store import open_store

    async def main() -> None:
        match = await seat_people(
            server,
            "official",
            bots=[None, None, "heuristic"],
            seats=3,
            options={"target_score": 5000},
            bot_pause=30,
        )
        a, b = match.humans[0], match.humans[1]
        spectator = match.spectator
        assert spectator is not None
        line = "<b>hi</b> & <script>alert('x')</script>   \\u0041  &amp;"

        def mine(seat: int) -> Callable[[dict[str, Any]], bool]:
            return lambda m: m["type"] == "error" or (m["type"] == "chat" and m["seat"] == seat)

        echo = await a.request({"type": "chat", "text": line}, answer=mine(0))
        assert echo["type"] == "chat", echo
        plain = " ".join(line.split())  # runs of spaces fold; nothing is escaped or rendered
        assert echo["text"] == plain and echo["seat"] == 0 and echo["name"] == "P0"
        for other in (b, spectator):
            got = await other.wait_for(lambda m: m["type"] == "chat" and m["seq"] == echo["seq"])
            assert got == echo
        # limits: the length (the longest line passes, one more character is refused) ...
        longest = await b.request({"type": "chat", "text": "y" * LIMITS.chat_length}, answer=mine(1))
        assert longest["type"] == "chat" and longest["text"] == "y" * LIMITS.chat_length
        refused = await b.request({"type": "chat", "text": "y" * (LIMITS.chat_length + 1)}, answer=mine(1))
        assert refused["type"] == "error" and refused["code"] == "malformed"
        blank = await b.request({"type": "chat", "text": "   "}, answer=mine(1))
        assert blank["type"] == "error" and blank["code"] == "invalid"
        control = await b.request({"type": "chat", "text": "bell\u0007 nul\u0000"}, answer=mine(1))
        assert control["type"] == "error" and control["code"] == "invalid"
        # ... the rate (a burst, then rate_limited) ...
        codes = []
        for i in range(LIMITS.chat_burst + 3):
            answer = await a.request({"type": "chat", "text": f"line {i}"}, answer=mine(0))
            codes.append(answer["type"] if answer["type"] == "chat" else answer["code"])
        assert "rate_limited" in codes and codes[0] == "chat"
        assert codes.count("chat") <= LIMITS.chat_burst + 1
        # ... and a spectator does not chat
        denied = await spectator.request(
            {"type": "chat", "text": "hello"}, answer=lambda m: m["type"] == "error"
        )
        assert denied["type"] == "error" and denied["code"] == "forbidden"
        # the table serves on: a refused chat changed nothing for the game
        await b.ping()
        assert b.view is not None and a.view is not None and b.view["seq"] == a.view["seq"]

        store = open_store(server.db)
        await store.open()
        try:
            stored = await store.load(match.table)
        finally:
            await store.close()
        assert stored is not None
        chats = [e for e in stored.entries if e["k"] == "chat"]
        assert chats[0]["text"] == plain and chats[0]["seat"] == 0
        assert [c["text"] for c in chats][:2] == [plain, "y" * LIMITS.chat_length]
        assert len(chats) == 2 + codes.count("chat")
        for c in [a, b, spectator]:
            await c.close()

    asyncio.run(main())


# -------------------------------------------------------------------------------------------------
# 8: bots' pause, the turn timer, autopilot, the host leaving, everyone gone


def seat_info(client: Client, seat: int) -> dict[str, Any]:
    assert client.info is not None
    return client.info["seats"][seat]


def test_bots_wait_their_pause(server: ServerProc) -> None:
    pause = 0.3

    async def main() -> None:
        match = await seat_people(
            server,
            "official",
            humans=(0,),
            bots=[None, "random", "random"],
            seats=3,
            options={"target_score": 5000},
            bot_pause=pause,
            spectator=False,
        )
        a = match.humans[0]
        stamps: list[tuple[float, dict[str, Any]]] = []
        rng = random.Random(1)
        for _ in range(40):
            index = len(a.frames)
            view = a.view
            assert view is not None
            action = choose(view, rng) if view["active"] == 0 or view["legal"] else None
            if action is not None:
                await a.request({"type": "act", "action": action})
            else:
                msg = await a.wait_for(lambda m: m["type"] == "update", STEP_S, index)
                stamps.append((time.monotonic(), msg))
            if len(stamps) >= 6:
                break
        # every bot action came at least the pause after the one before it
        bot_gaps = sorted(t2 - t1 for (t1, _), (t2, _) in itertools.pairwise(stamps))
        # (measured where the frames arrive: a late first frame shortens a gap a little)
        assert bot_gaps and bot_gaps[0] >= pause * 0.7 and bot_gaps[len(bot_gaps) // 2] >= pause * 0.95, (
            bot_gaps
        )
        await a.close()

    asyncio.run(main())


def test_who_is_connected_and_the_turn_clock_reach_every_client(server: ServerProc) -> None:
    """A connection coming or going is told to the others at once (a presence frame, no command
    counted); every update carries the seconds left to the timed seat, counted from its turn's
    start, not reset by other frames."""

    async def main() -> None:
        match = await seat_people(
            server, "official", bots=[None, None, "random", "random"], spectator=False, start=False,
            turn_seconds=30, options={"target_score": 5000},
        )
        host, other = match.humans[0], match.humans[1]
        seq = (await host.ping())["seq"]  # (the table's answer comes after every earlier frame)

        told: list[dict[str, Any]] = []
        start = len(host.frames)

        async def presence(check: Callable[[dict[str, Any]], bool]) -> None:
            """The next presence frame the host gets satisfies ``check``."""
            at = host.frames.index(told[-1]) + 1 if told else start
            told.append(await host.wait_for(lambda m: m["type"] == "presence", STEP_S, at))
            assert check(told[-1]["table"]), told[-1]

        watcher = await Client.open(server, match.table, Stream(None))
        await presence(lambda t: t["spectators"] == 1)
        await watcher.close()
        await presence(lambda t: t["spectators"] == 0)
        token = other.token
        await other.drop()
        await presence(lambda t: t["seats"][1]["connected"] is False)
        again = await Client.open(server, match.table, Stream(1), token=token)
        await presence(lambda t: t["seats"][1]["connected"] is True)
        assert [m["seq"] for m in told] == [seq] * 4  # nothing was accepted: the seq is unchanged

        started = await host.request({"type": "start"}, flush=True)
        assert started["type"] == "update"
        rng = random.Random(5)
        for _ in range(60):  # until seat 0 has a turn: its clock starts near 30 s
            if is_turn_of(0)(host) or over(host):
                break
            target = host.seq  # seat 1's copy of the host's last update may still be on its way
            await again.wait_for(lambda m, t=target: isinstance(m.get("seq"), int) and m["seq"] >= t, STEP_S)
            view = again.view
            if view is not None and view["active"] == 1 and view["phase"] in TURN_PHASES:
                action = choose(view, rng)
                if action is not None:
                    await again.request({"type": "act", "action": action})
                    continue
            await host.wait_for(lambda m: m["type"] == "update", STEP_S, len(host.frames))
        assert is_turn_of(0)(host), host.tail()
        updates = [m for m in host.frames if m["type"] == "update"]
        assert all("turn_deadline" in m for m in updates)
        first = updates[-1]["turn_deadline"]
        assert isinstance(first, float) and 25 < first <= 30, first
        await asyncio.sleep(1.2)
        # a welcome (seat 1 comes back once more) says what is left of the same turn
        late = await Client.open(server, match.table, Stream(1), token=token)
        assert late.welcome is not None
        left = late.welcome["table"]["turn_deadline"]
        assert isinstance(left, float) and left <= first - 1.0, (first, left)
        for c in (host, again, late):
            await c.close()

    asyncio.run(main())


def test_a_silent_seat_times_out_then_autopilot_and_the_round_ends(server: ServerProc) -> None:
    async def main() -> None:
        match = await seat_people(
            server,
            "official",
            bots=[None, None, "random", "heuristic"],
            options={"target_score": 60},
            start=False,
        )
        host, silent = match.humans[0], match.humans[1]
        changed = await host.request({"type": "settings", "turn_seconds": 0.3}, flush=True)
        assert changed["type"] == "update" and changed["table"]["settings"]["turn_seconds"] == 0.3
        start = await host.request({"type": "start"}, flush=True)
        assert start["type"] == "update" and start["view"]["phase"] in TURN_PHASES

        def autopilot(on: bool) -> Callable[[dict[str, Any]], bool]:
            return lambda m: bool(m.get("table")) and m["table"]["seats"][1]["autopilot"] is on

        host_plays = asyncio.create_task(play_person(host, random.Random(2), timeout=60))
        # the silent seat: two turns run out (the server plays its default actions), then a bot
        # of the host's level plays it; the seat is still connected
        began = time.monotonic()
        on = await silent.wait_for(autopilot(True), 30)
        assert time.monotonic() - began >= 0.5  # two turns of 0.3 s (the first may have begun before)
        assert on["table"]["seats"][1]["connected"] is True
        # every client was told whose time ran out, with the default action's events
        await host.wait_for(autopilot(True), STEP_S, 0)
        for c in (host, silent):
            late = [m for m in c.frames if m.get("timed_out") is not None]
            assert [m["timed_out"] for m in late] == [1, 1], [_short(m) for m in late]
            assert all(m["events"] for m in late)
        # the player comes back by acting: the seat is its own again, and it plays to the end
        await play_person(
            silent,
            random.Random(3),
            until=lambda c: over(c) or (c.info is not None and c.info["seats"][1]["autopilot"] is False),
            timeout=30,
        )
        if not over(silent):
            assert silent.info is not None and silent.info["seats"][1]["autopilot"] is False
            await play_person(silent, random.Random(4), timeout=60)
        await host_plays
        rep = await finish_and_check(match, [])
        # seat 1's first two actions were the engine's default actions for it, made by the timer
        game = Game.new(rep.game.seats, rep.game.ruleset, rep.game.seed)
        defaults = []
        for seat, action in rep.game.actions:
            if seat == 1 and len(defaults) < 2:
                defaults.append((action, game.default_action(1)))
            game.play(action, seat)
        assert len(defaults) == 2 and all(a == d for a, d in defaults), defaults
        for c in [host, silent, match.spectator]:
            assert c is not None
            await c.close()

    asyncio.run(main())


def test_the_host_leaving_and_everyone_disconnecting_the_round_still_ends(server: ServerProc) -> None:
    async def main() -> None:
        match = await seat_people(
            server,
            "official",
            bots=[None, None, "random", "random"],
            options={"target_score": 5000},
            spectator=False,
        )
        host, guest = match.humans[0], match.humans[1]
        await asyncio.gather(
            *(
                play_person(
                    c, random.Random(3), until=lambda c: (c.view or {}).get("seq", 0) > 12, timeout=20
                )
                for c in (host, guest)
            )
        )
        left = await host.request({"type": "leave"})
        assert left["type"] == "update", left
        assert left["table"]["seats"][0]["kind"] == "bot"  # a bot takes the host's seat over
        await host.close()
        round_no = guest.view["round_no"] if guest.view else 1
        await guest.close()
        # nobody is connected; the guest's seat goes on autopilot after the grace period and the
        # bots play the round to its end
        deadline = time.monotonic() + 30
        while True:
            status, info = await ahttp("GET", f"{server.url}/api/tables/{match.table}")
            assert status == 200
            if info["status"] in ("round_over", "match_over"):
                break
            assert time.monotonic() < deadline, info
            await asyncio.sleep(0.1)
        assert info["seats"][1]["autopilot"] is True and info["seats"][1]["connected"] is False
        # the guest comes back with its token: the round is over, its seat is still its own
        back = await Client.open(server, match.table, match.streams[1], token=guest.token)
        assert back.welcome is not None and back.welcome["you"]["seat"] == 1
        view = back.welcome["view"]
        assert view["round_no"] == round_no or view["phase"] in ("round_over", "match_over")
        # with someone here again, the next round is dealt after the pause
        dealt = await back.wait_for(lambda m: (m.get("view") or {}).get("round_no", 0) > round_no)
        assert dealt["view"]["phase"] in TURN_PHASES
        await back.close()

    asyncio.run(main())


# -------------------------------------------------------------------------------------------------
# the waiting room over real sockets


def test_the_waiting_room_over_sockets(server: ServerProc) -> None:
    async def main() -> None:
        created = await create_table(server, preset="official", seats=4, options={"target_score": 5000})
        table, host_token = created["table"], created["host_token"]
        streams = {i: Stream(i) for i in range(4)}
        host = await Client.open(server, table, streams[0], host_token=host_token)
        guest = await Client.open(server, table, streams[1])
        late = await Client.open(server, table, streams[2])
        assert (await host.request({"type": "sit", "seat": 0, "name": "  Ann   Lee "}, flush=True))[
            "type"
        ] == "token"
        named = await host.wait_for(lambda m: m["type"] == "update" and m.get("table") is not None)
        assert named["table"]["seats"][0] == {
            "seat": 0,
            "kind": "human",
            "name": "Ann Lee",
            "level": None,
            "connected": True,
            "autopilot": False,
        }
        await guest.ping()  # the host's update has reached the guest: what comes next answers it
        twice = await host.request({"type": "sit", "seat": 3, "name": "Ann again"}, flush=True)
        assert twice["type"] == "error" and twice["code"] == "forbidden"  # one seat per connection
        taken = await guest.request({"type": "sit", "seat": 0, "name": "Bob"}, flush=True)
        assert taken["type"] == "error" and taken["code"] == "forbidden"
        nowhere = await guest.request({"type": "sit", "seat": 7, "name": "Bob"}, flush=True)
        assert nowhere["type"] == "error" and nowhere["code"] == "invalid"
        # a name the store cannot keep (U+0000) is refused, and the seat stays free
        odd = await guest.request({"type": "sit", "seat": 1, "name": "Bo\u0000b"}, flush=True)
        assert odd["type"] == "error" and odd["code"] in ("invalid", "malformed"), odd
        still_spectator = await guest.request({"type": "leave"}, flush=True)
        assert still_spectator["type"] == "error" and still_spectator["code"] == "forbidden"
        assert (await guest.request({"type": "sit", "seat": 1, "name": "Bob"}, flush=True))["type"] == "token"
        await late.ping()
        assert (await late.request({"type": "sit", "seat": 2, "name": "Cy"}, flush=True))["type"] == "token"
        await host.ping()
        await guest.ping()
        # host commands: settings (the update carries the new settings), bots, a kick
        changed = await host.request(
            {"type": "settings", "turn_seconds": 12, "bot_level": "random"}, flush=True
        )
        assert changed["type"] == "update" and changed.get("table"), changed
        assert changed["table"]["settings"]["turn_seconds"] == 12
        assert changed["table"]["settings"]["bot_level"] == "random"
        added = await host.request({"type": "add_bot", "seat": 3, "level": "heuristic"}, flush=True)
        assert (
            added["table"]["seats"][3]["kind"] == "bot" and added["table"]["seats"][3]["level"] == "heuristic"
        )
        await guest.ping()
        forbidden = await guest.request({"type": "remove_bot", "seat": 3}, flush=True)
        assert forbidden["type"] == "error" and forbidden["code"] == "forbidden"
        removed = await host.request({"type": "remove_bot", "seat": 3}, flush=True)
        assert removed["table"]["seats"][3]["kind"] == "empty"
        kicked = await host.request({"type": "kick", "seat": 2}, flush=True)
        assert kicked["type"] == "update" and kicked["table"]["seats"][2]["kind"] == "empty"
        await late.ping()
        # the kicked connection watches now: it holds no seat and cannot act for one
        gone = await late.request({"type": "leave"}, flush=True)
        assert gone["type"] == "error" and gone["code"] == "forbidden"
        # two seats filled: the host starts; the empty seats are played by bots, seats keep numbers
        started = await host.request({"type": "start"}, flush=True)
        assert started["type"] == "update" and started["view"]["seat"] == 0
        assert [s["kind"] for s in started["table"]["seats"]] == ["human", "human", "bot", "bot"]
        await guest.ping()
        assert guest.view is not None and guest.view["seat"] == 1 and guest.view["hand"]
        await late.ping()
        assert late.view is not None and "hand" not in late.view  # a spectator's view
        # the bots play on meanwhile: their updates may come first, so wait for the answer itself
        sit_late = await late.request(
            {"type": "sit", "seat": 2, "name": "Cy"}, answer=lambda m: m["type"] in ("error", "token")
        )
        assert sit_late["type"] == "error" and sit_late["code"] == "forbidden"
        for c in (host, guest, late):
            await c.close()

    asyncio.run(main())


def test_a_player_leaving_mid_prompt_is_replaced_and_the_round_ends(server: ServerProc) -> None:
    async def main() -> None:
        match = await seat_people(
            server, "official", bots=[None, None, "random", "random"], options={"target_score": 5000}
        )
        leaver, stayer = match.humans[0], match.humans[1]
        rng = random.Random(8)

        left_in: list[int] = []  # the round the leaver left in

        def round_ended(c: Client) -> bool:
            v = c.view
            return (
                bool(left_in)
                and v is not None
                and (v["phase"] in ("round_over", "match_over") or v["round_no"] > left_in[0])
            )

        stays = asyncio.create_task(play_person(stayer, random.Random(9), until=round_ended, timeout=60))
        # the leaver draws on its turns until the drawn card is playable: a prompt (play it or keep
        # it); rounds may end meanwhile, the next is dealt
        prompt = None
        for _ in range(80):
            await play_person(leaver, rng, until=is_turn_of(0), timeout=30)
            view = leaver.view
            assert view is not None and not over(leaver)
            if view["phase"] in ("play_drawn", "choose_color", "respond"):
                prompt = view
                break
            answer = await leaver.request({"type": "act", "action": "draw"})
            assert answer["type"] in ("update", "error"), answer
        assert prompt is not None, "no prompt came up for the leaver in its turns"
        left_in.append(prompt["round_no"])
        left = await leaver.request({"type": "leave"}, answer=lambda m: m["type"] == "error" or "table" in m)
        assert left["type"] == "update", left
        assert left["table"]["seats"][0]["kind"] == "bot"
        # the leaver's connection watches now: it cannot act for the seat any more
        await leaver.wait_for(lambda m: m["type"] == "welcome" and m["you"]["seat"] is None)
        denied = await leaver.request(
            {"type": "act", "action": "pass"}, answer=lambda m: m["type"] == "error"
        )
        assert denied["code"] == "forbidden"
        # a bot answers the prompt for the seat, and the round plays on to its end
        await stays
        assert round_ended(stayer), "the round did not end after the player left"
        for c in [leaver, stayer, match.spectator]:
            assert c is not None
            await c.close()

    asyncio.run(main())


# -------------------------------------------------------------------------------------------------
# the database failing under a table


def test_a_table_outlives_its_database_connections_dropping(
    server: ServerProc, request: pytest.FixtureRequest
) -> None:
    """PostgreSQL drops every connection of the server (a failover, an admin) while bots play:
    the commands in flight fail with a coded error, and the table goes on once the pool reconnects."""
    if not server.db.startswith("postgresql"):
        pytest.skip("dropping the connections is PostgreSQL's (SQLite has none)")
    admin = str(request.getfixturevalue("postgres_admin_url"))
    database = server.db.rpartition("/")[2]

    async def drop_connections() -> int:
        import asyncpg

        conn = await asyncpg.connect(admin, timeout=10)
        try:
            rows = await conn.fetch(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = $1 AND pid <> pg_backend_pid()",
                database,
            )
        finally:
            await conn.close()
        return len(rows)

    async def main() -> None:
        match = await seat_people(
            server,
            "official",
            humans=(0,),
            bots=[None, "random", "random", "random"],
            options={"target_score": 5000},
            spectator=False,
        )
        a = match.humans[0]
        halt = asyncio.Event()
        errors: list[dict[str, Any]] = []
        plays = asyncio.create_task(
            play_person(a, random.Random(1), stop=halt, errors=errors, tolerate=("invalid",), timeout=60)
        )
        for _ in range(3):
            seen = a.seq
            await a.wait_for(lambda m, seen=seen: m["type"] == "update" and m["seq"] > seen + 5, STEP_S)
            assert await drop_connections() >= 1
        # the table goes on: bots (on the timer) and the person keep being served
        mark = a.seq
        deadline = time.monotonic() + 15
        while a.seq < mark + 30 and not over(a):
            assert time.monotonic() < deadline, f"the table stopped at {a.seq}; {a.tail()}"
            await asyncio.sleep(0.05)
        halt.set()
        await plays
        assert all(e["code"] != "invalid" or "could not" in e["message"] for e in errors)
        await a.close()

    asyncio.run(main())


def test_the_handshake(server: ServerProc) -> None:
    """No such table (4004); a first message that is no hello (malformed, closed); a token that
    holds no seat (forbidden, then a spectator's welcome); a hello twice (malformed, still open)."""

    async def main() -> None:
        created = await create_table(server, preset="official", seats=2, bots=[None, "random"])
        table = created["table"]
        async with connect(f"{server.ws_base}/ws/{'x' * 16}") as ws:
            first = check_frame(await ws.recv())  # (said at once, before any hello)
            assert first["type"] == "error" and first["code"] == "invalid"
            with pytest.raises(ConnectionClosed):
                await ws.recv()
            assert ws.close_code == 4004
        async with connect(f"{server.ws_base}/ws/{table}") as ws:
            await ws.send(json.dumps({"type": "ping"}))
            first = check_frame(await ws.recv())
            assert first["type"] == "error" and first["code"] == "malformed"
            with pytest.raises(ConnectionClosed):
                await ws.recv()
        for path in (f"/t/{'x' * 16}/record", "/t/short/record", f"/api/tables/{'x' * 16}"):
            status, body = await ahttp("GET", f"{server.url}{path}")
            assert status == 404 and body["code"] == "invalid", (path, status, body)
        stream = Stream(None)
        stranger = await Client.open(server, table, stream, token="not-a-token-" + "x" * 20)
        assert stream.connections[0][0]["type"] == "error" and stream.connections[0][0]["code"] == "forbidden"
        assert stranger.welcome is not None and stranger.welcome["you"] == {"seat": None, "host": False}
        again = await stranger.request({"type": "hello"})
        assert again["type"] == "error" and again["code"] == "malformed"
        await stranger.ping()
        assert stranger.closed_code is None
        fake_host = await Client.open(server, table, Stream(None), host_token="y" * 32)
        assert fake_host.welcome is not None and fake_host.welcome["you"]["host"] is False
        denied = await fake_host.request({"type": "start"})
        assert denied["type"] == "error" and denied["code"] == "forbidden"
        for c in (stranger, fake_host):
            await c.close()

    asyncio.run(main())


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b'{"bot_pause": "abc"}', "invalid"),
        (b'{"turn_seconds": -5}', "invalid"),
        (b'{"turn_seconds": 601}', "invalid"),
        (b'{"round_pause": 1e9}', "invalid"),
        (b'{"bot_pause": NaN}', "invalid"),
        (b'{"bot_level": null}', "invalid"),
        (b'{"bot_level": "grandmaster"}', "invalid"),
        (b'{"seats": true}', "invalid"),
        (b'{"seats": 2.5}', "invalid"),
        (b'{"seats": 11}', "invalid"),
        (b'{"preset": "snap"}', "invalid"),
        (b'{"options": {"nonsense": 1}}', "invalid"),
        (b'{"options": []}', "invalid"),
        (b'{"bots": [null, "nope"]}', "invalid"),
        (b'{"bots": "random"}', "invalid"),
        (b'{"colour": "red"}', "invalid"),
        (b"[1]", "malformed"),
        (b"\xff", "malformed"),
        (b"{", "malformed"),
    ],
)
def test_a_table_is_created_from_sound_settings_only(server: ServerProc, raw: bytes, code: str) -> None:
    """The create body is refused with a coded 400 (never a 500, never a table that fails later)."""
    status, body = http("POST", f"{server.url}/api/tables", raw=raw)
    assert status == 400 and body["code"] == code, (raw, status, body)
    status, health = http("GET", f"{server.url}/healthz")
    assert status == 200 and health["ok"] is True
