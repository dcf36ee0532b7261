"""The online tables' ASGI app: HTTP routes, the websocket endpoint, one writer task per table.

``create_app(settings)`` builds a Starlette app whose lifespan opens the store, rebuilds every
unfinished table by replaying its log, and on shutdown tells every client to reconnect. Each
table has a :class:`Runner`: an asyncio task that takes commands from a queue one at a time
(NET-8: arrival order), asks the :class:`~unotable.server.table.Table` actor to decide, commits the
entry to the store, applies it, and only then sends every connection its own update. Sockets only
enqueue; nothing else writes a table.

Routes: ``POST /api/tables`` (create; answers the table id, the link and the host token once),
``GET /api/tables/{id}`` (the public table), ``GET /t/{id}/record`` (the record, seed included,
once the match is over), ``WS /ws/{id}`` (the protocol of :mod:`unotable.server.protocol`),
``GET /healthz``, ``GET /metrics`` (Prometheus).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from unotable.server.ids import TABLE_ID, new_table_id, new_token
from unotable.server.protocol import LIMITS, ErrorCode, ProtocolError, parse_client
from unotable.server.store import ConflictError, Store, open_store
from unotable.server.table import Decision, Role, Settings, Table, new_table_doc

__all__ = ["ServerSettings", "create_app"]

log = logging.getLogger("unotable.server")

CLOSE_TAKEN_OVER = 4001
CLOSE_NO_TABLE = 4004
CLOSE_RESTART = 1012
RETRY_S = 0.5
"""How long a table waits before trying a timed action (a bot's, a time-out) again after it failed."""

WEB = Path(__file__).parent / "web"
"""The browser table: plain ES modules and CSS, served as they are (no build step)."""


@dataclass
class ServerSettings:
    """How a server runs: where it stores tables, and the tables' timing defaults."""

    db: str | None = None
    data_dir: Path = field(default_factory=Path.cwd)
    public_url: str = ""
    bot_pause: float = 0.8
    round_pause: float = 8.0
    grace: float = 30.0
    hello_timeout: float = 10.0
    max_tables: int = 10_000
    redis: str | None = None
    """A Redis URL: this process is one node of a cluster (:mod:`unotable.server.cluster`)."""
    node_id: str = ""
    lease_ttl: float = 3.0
    """Cluster only: how long a table's owner lease lives without renewal (seconds)."""


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.tables = Gauge("unotable_tables", "tables in memory", registry=self.registry)
        self.players = Gauge(
            "unotable_connected_players", "connected websocket clients", registry=self.registry
        )
        self.actions = Counter("unotable_actions", "commands accepted", ["kind"], registry=self.registry)
        self.rejected = Counter("unotable_rejected", "messages refused", ["code"], registry=self.registry)
        self.latency = Histogram(
            "unotable_action_latency_seconds",
            "from a message's arrival to its update sent",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
            registry=self.registry,
        )


class RateLimiter:
    """A token bucket: ``rate`` per second, up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.at = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Conn:
    """One websocket client of a table."""

    def __init__(self, ws: WebSocket, role: Role) -> None:
        self.ws = ws
        self.role = role
        self.game_no = 0
        self.game_seq = 0
        self.out: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.close_code = CLOSE_RESTART
        self.messages = RateLimiter(LIMITS.messages_per_second, LIMITS.message_burst)
        self.chats = RateLimiter(LIMITS.chats_per_second, LIMITS.chat_burst)
        self.seq = -1  # the highest table seq this client was sent

    def send(self, msg: dict[str, Any] | None) -> None:
        if msg is not None and isinstance(msg.get("seq"), int):
            self.seq = max(self.seq, msg["seq"])
        self.out.put_nowait(msg)


@dataclass
class Command:
    conn: Conn | None
    msg: Any
    arrived: float
    done: asyncio.Future[Any] | None = None
    last_seq: int | None = None


class Runner:
    """The single writer of one table."""

    def __init__(self, table: Table, store: Store, metrics: Metrics) -> None:
        self.table = table
        self.store = store
        self.metrics = metrics
        self.queue: asyncio.Queue[Command] = asyncio.Queue()
        self.conns: set[Conn] = set()
        self.task: asyncio.Task[None] | None = None
        self.wake = asyncio.Event()
        self._presence_told: Any = None  # who was connected, as last told to the clients

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"table-{self.table.table_id}")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def _run(self) -> None:
        while True:
            due = self.table.next_due()
            timeout = None if due is None else max(0.0, due - time.time())
            try:
                cmd = await asyncio.wait_for(self.queue.get(), timeout)
            except TimeoutError:
                await self._timed(lambda decision: self._commit(decision, None, time.time()))
                continue
            await self._serve(cmd, self._handle)

    async def _timed(self, commit: Callable[[Decision], Awaitable[None]]) -> None:
        """Whatever a timer makes due now (a bot's action, a time-out, a deal), committed."""
        try:
            # a bot may think for a while (ismcts): off the event loop, while this table's
            # writer waits for it, so the other tables and every socket go on
            decision = await asyncio.to_thread(self.table.due, time.time())
            if decision is not None:
                await commit(decision)
        except Exception as exc:  # the store failed (a dropped connection) or a bot did:
            # the table lives on (before this, its writer died) and decides again in a moment
            log.exception("table %s: a timed action failed: %r", self.table.table_id, exc)
            await asyncio.sleep(RETRY_S)

    async def _serve(self, cmd: Command, handle: Callable[[Command], Awaitable[None]]) -> None:
        """Handle one queued command; a bug answers the sender and never stops the table."""
        try:
            await handle(cmd)
        except Exception:  # pragma: no cover - a bug must not stop the table
            log.exception("table %s: command failed", self.table.table_id)
            if cmd.conn is not None:
                self._error(cmd.conn, ErrorCode.INVALID, "the server could not handle that message")
        finally:
            if cmd.done is not None and not cmd.done.done():
                cmd.done.set_result(None)

    async def _handle(self, cmd: Command) -> None:
        conn = cmd.conn
        msg = cmd.msg
        if msg == "connect" and conn is not None:
            self._connect(conn, cmd)
            self.tell_presence()
            return
        if msg == "disconnect" and conn is not None:
            if conn in self.conns:  # (a tab taken over was let go already: not counted twice)
                self.conns.discard(conn)
                self.table.disconnected(conn.role.seat, time.time())
                self.tell_presence()
            return
        assert conn is not None
        if msg.type == "ping":
            conn.send({"type": "pong", "seq": self.table.seq})
            return
        if msg.type == "chat" and not conn.chats.allow():
            self._error(
                conn, ErrorCode.RATE_LIMITED, f"at most {LIMITS.chats_per_second:g} chat line per second"
            )
            return
        back = self.table.back_from_autopilot(conn.role.seat) if msg.type == "act" else None
        if back is not None:
            await self._commit(back, None, cmd.arrived)
        try:
            decision = self.table.decide(conn.role, msg, time.time())
        except ProtocolError as exc:
            self._error(conn, exc.code, exc.message)
            return
        if decision is None:
            return
        seated = None
        if decision.token is not None and decision.entry["k"] == "sit":
            seat, token = decision.entry["seat"], decision.token

            def seated() -> None:  # once the seat is stored: this connection holds it, and its token
                conn.role = Role(seat, conn.role.host)
                self.table.disconnected(None, time.time())
                self.table.connected(seat, time.time())
                conn.send({"type": "token", "seq": self.table.seq, "seat": seat, "token": token})

        await self._commit(decision, conn, cmd.arrived, seated)

    def _connect(self, conn: Conn, cmd: Command) -> None:
        seat = conn.role.seat
        if seat is not None:  # a second tab takes the seat over cleanly
            for other in [c for c in self.conns if c.role.seat == seat]:
                other.send(
                    {"type": "reconnect", "seq": self.table.seq, "reason": "taken over by another connection"}
                )
                other.close_code = CLOSE_TAKEN_OVER
                other.send(None)
                self.conns.discard(other)
                self.table.disconnected(seat, time.time())
        self.conns.add(conn)
        self.table.connected(seat, time.time())
        conn.send(self._welcome(conn, cmd.last_seq))

    def _welcome(self, conn: Conn, last_seq: int | None) -> dict[str, Any]:
        table = self.table
        events: list[dict[str, Any]] = []
        since = 0
        if last_seq is not None:
            mark = table.game_seq(last_seq)
            if mark is not None and mark[0] == table.games:
                since = mark[1]
        if table.game is not None:
            events = table.events_for(conn.role, since) if last_seq is not None else []
            conn.game_no, conn.game_seq = table.games, table.game.last_seq
        return {
            "type": "welcome",
            "seq": table.seq,
            "you": {"seat": conn.role.seat, "host": conn.role.host},
            "table": table.info(time.time()),
            "static": table.static(),
            "view": table.view_for(conn.role),
            "events": events,
        }

    def _error(self, conn: Conn, code: ErrorCode, message: str) -> None:
        self.metrics.rejected.labels(code.value).inc()
        conn.send({"type": "error", "seq": self.table.seq, "code": code.value, "message": message})

    async def _commit(
        self, decision: Decision, conn: Conn | None, arrived: float, then: Callable[[], None] | None = None
    ) -> None:
        await self._append(decision.entry)  # durable before anyone is told
        await self._applied(decision.entry, arrived, then)

    async def _append(self, entry: dict[str, Any]) -> None:
        """Store the table's next entry. A commit whose answer was lost (the database connection
        dropped after it committed) shows up as a conflict on the next append: the entries stored
        but not applied here are applied (and told) now; the append is done when the entry is the
        one stored, else it fails (the command is refused, a timed action is decided again)."""
        table = self.table
        try:
            await self.store.append(table.table_id, table.seq + 1, entry)
        except ConflictError:
            stored = await self.store.load(table.table_id)
            behind = [] if stored is None else stored.entries[table.seq :]
            if behind == [entry]:
                return
            for missed in behind:
                await self._applied(missed, time.time())
            raise

    async def _applied(
        self, entry: dict[str, Any], arrived: float, then: Callable[[], None] | None = None
    ) -> None:
        """Apply a stored entry and tell every connection."""
        table = self.table
        before = (table.status, [s.info(i) for i, s in enumerate(table.seats)])
        table.apply(entry, time.time())
        if then is not None:
            then()
        self.metrics.actions.labels(entry["k"]).inc()
        if table.finished:
            await self.store.set_status(table.table_id, "finished")
        elif entry["k"] == "rematch":  # a new match: rebuilt again after a restart
            await self.store.set_status(table.table_id, "open")
        after = (table.status, [s.info(i) for i, s in enumerate(table.seats)])
        demoted = []
        if entry["k"] == "leave":  # the seat's connections (a leaver, a kicked player) now watch
            for other in [c for c in self.conns if c.role.seat == entry["seat"]]:
                table.disconnected(entry["seat"], time.time())
                other.role = Role(None, other.role.host)
                table.connected(None, time.time())
                demoted.append(other)
        self._broadcast(entry, before != after)
        for other in demoted:
            other.send(self._welcome(other, None))
        self.metrics.latency.observe(time.time() - arrived)

    def _presence(self) -> Any:
        return ([(s.kind, s.connections > 0) for s in self.table.seats], self.table.spectators)

    def tell_presence(self) -> None:
        """Tell every connection who is connected and how many watch, when that changed (a
        connection came or went; no entry is logged for it)."""
        now = self._presence()
        if now == self._presence_told:
            return
        self._presence_told = now
        msg = {"type": "presence", "seq": self.table.seq, "table": self.table.info(time.time())}
        for conn in self.conns:
            # (a cluster node's replica may lag an answer its client got from the table's owner:
            # the update that follows carries the table then, and seq never goes back)
            if conn.seq <= self.table.seq:
                conn.send(msg)

    def _broadcast(self, entry: dict[str, Any], table_changed: bool) -> None:
        table = self.table
        now = time.time()
        info = (
            table.info(now)
            if table_changed or entry["k"] in ("start", "rematch", "deal", "autopilot", "settings")
            else None
        )
        if info is not None:
            self._presence_told = self._presence()
        deadline = table.deadline(now) if info is None else info["turn_deadline"]
        if entry["k"] == "chat":
            for conn in self.conns:
                conn.send(
                    {
                        "type": "chat",
                        "seq": table.seq,
                        "seat": entry["seat"],
                        "name": entry["name"],
                        "text": entry["text"],
                    }
                )
            return
        for conn in self.conns:
            msg: dict[str, Any] = {
                "type": "update", "seq": table.seq, "events": [], "view": None, "turn_deadline": deadline
            }
            if entry.get("by") == "timeout":
                msg["timed_out"] = entry["seat"]
            if table.game is not None:
                if conn.game_no != table.games:
                    conn.game_no, conn.game_seq = table.games, 0
                msg["events"] = table.events_for(conn.role, conn.game_seq)
                conn.game_seq = table.game.last_seq
                msg["view"] = table.view_for(conn.role)
                msg["static"] = table.static() if entry["k"] in ("start", "rematch") else None
            if info is not None:
                msg["table"] = info
            conn.send(msg)

    def notify_shutdown(self) -> None:
        """Tell every client to reconnect (the server is stopping); their sockets close after."""
        for conn in self.conns:
            conn.send({"type": "reconnect", "seq": self.table.seq, "reason": "the server is restarting"})
            conn.send(None)


class Server:
    """The app's state: the store, the runners by table id, the metrics."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.store: Store = open_store(settings.db, directory=settings.data_dir)
        self.runners: dict[str, Runner] = {}
        self.metrics = Metrics()
        self.notified = False

    async def start(self) -> None:
        await self.store.open()
        for table_id in await self.store.unfinished():
            table = await self.stored_table(table_id)
            if table is not None:
                self._run(table)
        log.info(json.dumps({"event": "started", "tables_rebuilt": len(self.runners)}))

    def notify_shutdown(self) -> None:
        """Tell every client to reconnect, before the sockets are closed (see run.py)."""
        if self.notified:
            return
        self.notified = True
        for runner in self.runners.values():
            runner.notify_shutdown()

    async def hand_over(self) -> None:
        """Let other nodes take this server's tables now (a cluster node, see cluster.py; a single
        server has nobody to hand them to)."""

    async def stop(self) -> None:
        self.notify_shutdown()
        await asyncio.sleep(0.2)  # let the writers flush the reconnect notices
        for runner in self.runners.values():
            await runner.stop()
        await self.store.close()

    def new_runner(self, table: Table) -> Runner:
        """The writer of ``table`` (a cluster node makes its own kind, see cluster.py)."""
        return Runner(table, self.store, self.metrics)

    async def runner_for(self, table_id: str) -> Runner | None:
        """The runner of a table this process serves, or None. A finished table, which a restart
        does not rebuild, is loaded from the store on demand (for a rematch, a spectator, its record)."""
        runner = self.runners.get(table_id)
        if runner is None:
            table = await self.stored_table(table_id)
            runner = self.runners.get(table_id)  # another request may have loaded it meanwhile
            if runner is None and table is not None:
                runner = self._run(table)
        return runner

    async def stored_table(self, table_id: str) -> Table | None:
        """A table rebuilt from its stored log (None when the store has no such table)."""
        stored = await self.store.load(table_id)
        if stored is None:
            return None
        table = Table(table_id, stored.doc)
        table.replay(stored.entries, time.time())
        return table

    def _run(self, table: Table) -> Runner:
        runner = self.new_runner(table)
        self.runners[table.table_id] = runner
        runner.start()
        self.metrics.tables.set(len(self.runners))
        return runner

    async def create(self, settings: Settings, bots: dict[int, str]) -> tuple[str, str]:
        if len(self.runners) >= self.settings.max_tables:
            raise ProtocolError(ErrorCode.RATE_LIMITED, "the server holds as many tables as it may")
        host = new_token()
        doc = new_table_doc(settings, host, bots)
        while True:
            table_id = new_table_id()
            try:
                await self.store.create_table(table_id, doc, time.time())
                break
            except ConflictError:  # pragma: no cover - 96 random bits
                continue
        self._run(Table(table_id, doc))
        log.info(json.dumps({"event": "table_created", "table": table_id, "preset": settings.preset}))
        return table_id, host


def _settings_from(body: dict[str, Any], server: ServerSettings) -> Settings:
    allowed = {"preset", "options", "seats", "bot_level", "turn_seconds", "bot_pause", "round_pause"}
    unknown = set(body) - allowed - {"bots"}
    if unknown:
        raise ProtocolError(ErrorCode.INVALID, f"unknown setting {sorted(unknown)[0]!r}")
    doc = {k: v for k, v in body.items() if k in allowed}
    doc.setdefault("bot_pause", server.bot_pause)
    doc.setdefault("round_pause", server.round_pause)
    doc["grace"] = server.grace
    try:
        settings = Settings.from_dict(doc)
    except TypeError as exc:
        raise ProtocolError(ErrorCode.INVALID, str(exc)) from None
    if not isinstance(settings.options, dict) or not isinstance(settings.seats, int):
        raise ProtocolError(ErrorCode.INVALID, "options is an object and seats an int")
    settings.check()
    return settings


def create_app(settings: ServerSettings | None = None) -> Starlette:
    """The ASGI app (``uvicorn`` serves it; ``unotable serve`` runs both)."""
    settings = settings or ServerSettings()
    server: Server
    if settings.redis:  # one node of a cluster; without --redis nothing of it is loaded
        from unotable.server.cluster import ClusterServer

        server = ClusterServer(settings)
    else:
        server = Server(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        yield
        await server.stop()

    async def healthz(request: Request) -> Response:
        return JSONResponse({"ok": True, "tables": len(server.runners)})

    async def metrics(request: Request) -> Response:
        server.metrics.players.set(sum(len(r.conns) for r in server.runners.values()))
        return Response(generate_latest(server.metrics.registry), media_type=CONTENT_TYPE_LATEST)

    async def create(request: Request) -> Response:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return _problem(ErrorCode.MALFORMED, "the body is not JSON")
        if not isinstance(body, dict):
            return _problem(ErrorCode.MALFORMED, "the body is a JSON object of settings")
        bots = body.get("bots", [])
        if not isinstance(bots, list) or not all(b is None or isinstance(b, str) for b in bots):
            return _problem(ErrorCode.INVALID, "bots is a list: a level per seat, or null for a person")
        try:
            table_settings = _settings_from(body, settings)
            table_id, host = await server.create(table_settings, {i: b for i, b in enumerate(bots) if b})
        except ProtocolError as exc:
            return _problem(exc.code, exc.message)
        base = settings.public_url or str(request.base_url).rstrip("/")
        return JSONResponse(
            {
                "table": table_id,
                "url": f"{base}/t/{table_id}",
                "host_token": host,
                "ws": f"{base.replace('http', 'ws', 1)}/ws/{table_id}",
            },
            status_code=201,
        )

    async def public_table(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        runner = await server.runner_for(table_id) if TABLE_ID.match(table_id) else None
        if runner is None:
            return _problem(ErrorCode.INVALID, "no such table", 404)
        return JSONResponse(runner.table.info(time.time()))

    async def record(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        runner = server.runners.get(table_id)
        table = runner.table if runner is not None else None
        if table is None:
            table = await server.stored_table(table_id) if TABLE_ID.match(table_id) else None
            if table is None:
                return _problem(ErrorCode.INVALID, "no such table", 404)
        asked = request.query_params.get("match")
        if asked is not None and not (asked.isdigit() and 1 <= int(asked) <= 10_000):
            return _problem(ErrorCode.INVALID, "match must be a match number (1 for the first)", 400)
        match = None if asked is None else int(asked)
        rec = table.record(match)
        if rec is None:
            if match is not None and match > table.games:
                return _problem(ErrorCode.INVALID, f"this table has played {table.games} match(es)", 404)
            return _problem(ErrorCode.FORBIDDEN, "a match's record is published once it is over", 409)
        name = f"unotable-{table_id}" + (f"-{match}" if match is not None else "")
        return Response(
            rec.to_json(indent=1),
            media_type="application/json",
            headers={"content-disposition": f'attachment; filename="{name}.json"'},
        )

    async def page(request: Request) -> Response:
        # the landing page and every table's page are one document; its script reads the path
        return FileResponse(WEB / "index.html", headers={"cache-control": "no-cache"})

    async def ws_endpoint(ws: WebSocket) -> None:
        await _serve_socket(server, ws)

    routes = [
        Route("/healthz", healthz),
        Route("/metrics", metrics),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables/{table_id}", public_table),
        Route("/", page),
        Route("/rules", page),
        Route("/t/{table_id}", page),
        Route("/t/{table_id}/record", record),
        WebSocketRoute("/ws/{table_id}", ws_endpoint),
        Mount("/static", StaticFiles(directory=WEB), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.server = server
    return app


def _problem(code: ErrorCode, message: str, status: int = 400) -> Response:
    return JSONResponse({"code": code.value, "message": message}, status_code=status)


async def _serve_socket(server: Server, ws: WebSocket) -> None:
    table_id = ws.path_params["table_id"]
    await ws.accept()
    runner = await server.runner_for(table_id) if TABLE_ID.match(table_id) else None
    if runner is None:
        await ws.send_json(
            {"type": "error", "seq": 0, "code": ErrorCode.INVALID.value, "message": "no such table"}
        )
        await ws.close(CLOSE_NO_TABLE)
        return
    try:
        text = await asyncio.wait_for(ws.receive_text(), server.settings.hello_timeout)
        hello = parse_client(text)
        if hello.type != "hello":
            raise ProtocolError(ErrorCode.MALFORMED, "the first message is a hello")
    except (TimeoutError, WebSocketDisconnect, KeyError):
        with contextlib.suppress(Exception):
            await ws.close()
        return
    except ProtocolError as exc:
        await ws.send_json(
            {"type": "error", "seq": runner.table.seq, "code": exc.code.value, "message": exc.message}
        )
        await ws.close()
        return
    table = runner.table
    seat = table.seat_of(hello.token)
    if hello.token and seat is None:
        await ws.send_json(
            {
                "type": "error",
                "seq": table.seq,
                "code": ErrorCode.FORBIDDEN.value,
                "message": "that token holds no seat at this table; you are watching",
            }
        )
    conn = Conn(ws, Role(seat, table.is_host(hello.host_token)))
    await runner.queue.put(Command(conn, "connect", time.time(), last_seq=hello.last_seq))
    writer = asyncio.create_task(_write(conn))
    try:
        while True:
            try:
                text = await ws.receive_text()
            except KeyError:  # a binary frame
                runner_error(runner, conn, ErrorCode.MALFORMED, "messages are JSON text")
                continue
            if not conn.messages.allow():
                runner_error(
                    runner,
                    conn,
                    ErrorCode.RATE_LIMITED,
                    f"at most {LIMITS.messages_per_second:g} messages per second",
                )
                continue
            try:
                msg = parse_client(text)
            except ProtocolError as exc:
                runner_error(runner, conn, exc.code, exc.message)
                continue
            if msg.type == "hello":
                runner_error(runner, conn, ErrorCode.MALFORMED, "hello comes once, first")
                continue
            await runner.queue.put(Command(conn, msg, time.time()))
    except WebSocketDisconnect:
        pass
    finally:
        await runner.queue.put(Command(conn, "disconnect", time.time()))
        conn.send(None)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


def runner_error(runner: Runner, conn: Conn, code: ErrorCode, message: str) -> None:
    runner.metrics.rejected.labels(code.value).inc()
    conn.send({"type": "error", "seq": runner.table.seq, "code": code.value, "message": message})


async def _write(conn: Conn) -> None:
    """Send a connection's queued messages in order; None closes it."""
    ws = conn.ws
    while True:
        msg = await conn.out.get()
        if msg is None:
            if ws.application_state is WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await ws.close(conn.close_code)
            return
        try:
            await ws.send_text(json.dumps(msg, separators=(",", ":")))
        except Exception:  # the client went away; the reader sees it too
            return


Factory = Callable[[], Starlette]
