"""The online tables' ASGI app: HTTP routes and the websocket reader, nothing else.

``create_app(settings)`` builds a Starlette app whose lifespan opens the store and starts the bus
(one process: every unfinished table is rebuilt by replaying its log; a cluster node: see
:mod:`unotable.server.bus.redis`), and on shutdown tells every client to reconnect. Each table's
writer is its hub (:mod:`unotable.server.hub`); a socket only parses what it reads and enqueues it.

Routes: ``POST /api/tables`` (create; answers the table id, the link and the host token once),
``GET /api/tables/{id}`` (the public table), ``GET /api/options`` (the presets, rule options and
bot levels a client may offer), ``GET /t/{id}/record`` (the record, seed included, once the match
is over, with its seed commitment and the reveal), ``GET /api/tables/{id}/verify`` (the check of
that record by :mod:`unotable.verify`, each check's result and the command that checks it
anywhere; ``GET /t/{id}/verify`` is the page that shows it), ``POST /t/{id}/review`` (a
seat's own decisions judged, :mod:`unotable.server.review`), ``WS /ws/{id}`` (the protocol
of :mod:`unotable.server.protocol`), ``GET /healthz``,
``GET /metrics`` (Prometheus).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prometheus_client import generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from unotable.server import outbox
from unotable.server.hub import Connect, Disconnect, FromClient, Hub, Hubs, Metrics
from unotable.server.ids import TABLE_ID
from unotable.server.options import options
from unotable.server.outbox import Conn
from unotable.server.ports import Bus
from unotable.server.protocol import LIMITS, CloseCode, ErrorCode, ProtocolError, parse_client
from unotable.server.review import review_routes
from unotable.server.store import open_store
from unotable.server.table import Role, TableSettings
from unotable.verify import VerifyError, verify

__all__ = ["ServerSettings", "create_app"]

log = logging.getLogger("unotable.server")

MAX_BODY_BYTES = 16 * 1024
"""The largest ``POST /api/tables`` body (settings are a few hundred bytes)."""
MAX_BODY_DEPTH = 8
"""The deepest nesting of arrays and objects in a create body (settings nest two deep)."""

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
    """A Redis URL: this process is one node of a cluster (:mod:`unotable.server.bus.redis`)."""
    node_id: str = ""
    lease_ttl: float = 3.0
    """Cluster only: how long a table's owner lease lives without renewal (seconds)."""


def _settings_from(body: dict[str, Any], server: ServerSettings) -> TableSettings:
    allowed = {"preset", "options", "seats", "bot_level", "turn_seconds", "bot_pause", "round_pause"}
    unknown = set(body) - allowed - {"bots"}
    if unknown:
        raise ProtocolError(ErrorCode.INVALID, f"unknown setting {sorted(unknown)[0]!r}")
    doc = {k: v for k, v in body.items() if k in allowed}
    doc.setdefault("bot_pause", server.bot_pause)
    doc.setdefault("round_pause", server.round_pause)
    doc["grace"] = server.grace
    try:
        settings = TableSettings.from_dict(doc)
    except TypeError as exc:
        raise ProtocolError(ErrorCode.INVALID, str(exc)) from None
    if not isinstance(settings.options, dict) or not isinstance(settings.seats, int):
        raise ProtocolError(ErrorCode.INVALID, "options is an object and seats an int")
    settings.check()
    return settings


def _bots_from(body: dict[str, Any], seats: int) -> dict[int, str]:
    """The ``bots`` list of a create body: a level per seat, or null for a person (exactly one
    entry per seat when given)."""
    bots = body.get("bots", [])
    if not isinstance(bots, list) or not all(b is None or isinstance(b, str) for b in bots):
        raise ProtocolError(ErrorCode.INVALID, "bots is a list: a level per seat, or null for a person")
    if "bots" in body and len(bots) != seats:
        why = f"bots has {len(bots)} entries for {seats} seats: one per seat (null: a person)"
        raise ProtocolError(ErrorCode.INVALID, why)
    return {i: b for i, b in enumerate(bots) if b}


def _depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (strings are skipped).

    >>> _depth('{"a": [1, {"b": "[[["}]}')
    3
    """
    depth = most = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            most = max(most, depth)
        elif ch in "]}":
            depth -= 1
    return most


async def _read_body(request: Request) -> Any:
    """The JSON of a create body, or :class:`ProtocolError` (``too_large``, ``malformed``)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise ProtocolError(ErrorCode.TOO_LARGE, f"the body is over {MAX_BODY_BYTES} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise ProtocolError(ErrorCode.TOO_LARGE, f"the body is over {MAX_BODY_BYTES} bytes")
        chunks.append(chunk)
    try:
        text = b"".join(chunks).decode()
    except UnicodeDecodeError:
        raise ProtocolError(ErrorCode.MALFORMED, "the body is not JSON") from None
    if _depth(text) > MAX_BODY_DEPTH:
        raise ProtocolError(ErrorCode.MALFORMED, f"the body nests deeper than {MAX_BODY_DEPTH}")
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError(ErrorCode.MALFORMED, "the body is not JSON") from None


def _bus(settings: ServerSettings) -> Bus:
    if not settings.redis:  # one process; without --redis nothing of Redis is loaded
        from unotable.server.bus.local import LocalBus

        return LocalBus()
    db = (settings.db or "").lower()
    if not db.startswith(("postgresql://", "postgres://")):
        raise SystemExit("unotable serve --redis needs a PostgreSQL --db (postgresql://...)")
    from unotable.server.bus.redis import RedisBus

    return RedisBus(settings.redis, node_id=settings.node_id, lease_ttl=settings.lease_ttl)


def create_app(settings: ServerSettings | None = None) -> Starlette:
    """The ASGI app (``uvicorn`` serves it; ``unotable serve`` runs both)."""
    settings = settings or ServerSettings()
    bus = _bus(settings)
    store = open_store(settings.db, directory=settings.data_dir)
    hubs = Hubs(store, bus, Metrics(), max_tables=settings.max_tables)
    # (with the address the page's links and QR codes use: the public URL, when one is set)
    offered = JSONResponse({**options(), "public_url": settings.public_url})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hubs.start()
        yield
        await hubs.stop()

    async def healthz(request: Request) -> Response:
        return JSONResponse({"ok": True, "tables": len(hubs.hubs)})

    async def metrics(request: Request) -> Response:
        hubs.metrics.players.set(hubs.connections())
        if hubs.metrics.gc_source is not None:
            hubs.metrics.count_gc_pauses(hubs.metrics.gc_source())
        return Response(generate_latest(hubs.metrics.registry), media_type=CONTENT_TYPE_LATEST)

    async def options_route(request: Request) -> Response:
        return offered

    async def create(request: Request) -> Response:
        try:
            body = await _read_body(request)
            if not isinstance(body, dict):
                raise ProtocolError(ErrorCode.MALFORMED, "the body is a JSON object of settings")
            table_settings = _settings_from(body, settings)
            bots = _bots_from(body, table_settings.seats)
            table_id, host = await hubs.create(table_settings, bots)
        except ProtocolError as exc:
            return _problem(exc.code, exc.message, 413 if exc.code is ErrorCode.TOO_LARGE else 400)
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
        hub = await hubs.hub_for(table_id) if TABLE_ID.match(table_id) else None
        if hub is None:
            return _problem(ErrorCode.INVALID, "no such table", 404)
        return Response(hub.actor.info(time.time()).model_dump_json(), media_type="application/json")

    async def finished_record(request: Request) -> tuple[str, dict[str, Any]] | Response:
        """The file name and the record document of the finished match asked for, or a refusal."""
        table_id = request.path_params["table_id"]
        hub = hubs.hubs.get(table_id)
        actor = hub.actor if hub is not None else None
        if actor is None:
            actor = await hubs.stored_actor(table_id) if TABLE_ID.match(table_id) else None
            if actor is None:
                return _problem(ErrorCode.INVALID, "no such table", 404)
        asked = request.query_params.get("match")
        if asked is not None and not (asked.isdigit() and 1 <= int(asked) <= 10_000):
            return _problem(ErrorCode.INVALID, "match must be a match number (1 for the first)", 400)
        match = None if asked is None else int(asked)
        rec = actor.record_doc(match)
        if rec is None:
            if actor.games == 0 or (match is not None and match > actor.games):
                return _problem(ErrorCode.INVALID, f"this table has begun {actor.games} match(es)", 404)
            return _problem(ErrorCode.FORBIDDEN, "a match's record is published once it is over", 409)
        return f"unotable-{table_id}" + (f"-{match}" if match is not None else ""), rec

    async def record(request: Request) -> Response:
        found = await finished_record(request)
        if isinstance(found, Response):
            return found
        name, rec = found
        return Response(
            json.dumps(rec, indent=1),
            media_type="application/json",
            headers={"content-disposition": f'attachment; filename="{name}.json"'},
        )

    async def verify_route(request: Request) -> Response:
        # the verify page's answer: the commitment, the reveal, each check of unotable.verify and
        # its result (each round's deal recomputed), and the command that checks it anywhere else
        found = await finished_record(request)
        if isinstance(found, Response):
            return found
        name, rec = found
        table_id = request.path_params["table_id"]
        try:
            result: dict[str, Any] | None = verify(rec).to_dict()
            verdict, failed, at = "verified", None, None
        except VerifyError as exc:
            result, verdict, failed, at = None, str(exc), exc.check, exc.round_no
        query = f"?match={request.query_params['match']}" if "match" in request.query_params else ""
        base = settings.public_url or str(request.base_url).rstrip("/")
        return JSONResponse({
            "verified": failed is None,
            "failed": failed,
            "failed_round": at,
            "message": verdict,
            "result": result,
            "names": rec.get("names"),
            "commitment": rec.get("commitment"),
            "reveal": rec.get("reveal"),
            # (as text too: a page's JavaScript reads a 63-bit integer only to about 16 digits)
            "seed": str((rec.get("reveal") or {}).get("seed", "")) or None,
            "record": f"/t/{table_id}/record{query}",
            "file": f"{name}.json",
            "command": f"python3 -m unotable verify {base}/t/{table_id}{query}",
        })

    async def page(request: Request) -> Response:
        # the landing page and every table's page are one document; its script reads the path
        return FileResponse(WEB / "index.html", headers={"cache-control": "no-cache"})

    async def worker(request: Request) -> Response:
        # the page's service worker, served from the root so that it may keep the pages too
        return FileResponse(
            WEB / "sw.js", media_type="text/javascript", headers={"cache-control": "no-cache"}
        )

    async def ws_endpoint(ws: WebSocket) -> None:
        await _serve_socket(hubs, settings.hello_timeout, ws)

    routes = [
        Route("/healthz", healthz),
        Route("/metrics", metrics),
        Route("/api/options", options_route),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables/{table_id}", public_table),
        Route("/", page),
        Route("/rules", page),
        Route("/t/{table_id}", page),
        Route("/sw.js", worker),
        Route("/t/{table_id}/record", record),
        Route("/api/tables/{table_id}/verify", verify_route),
        Route("/t/{table_id}/verify", page),  # the verify page, in the player's language
        *review_routes(hubs, settings.data_dir),  # POST /t/{id}/review: see server/review.py
        WebSocketRoute("/ws/{table_id}", ws_endpoint),
        Mount("/static", StaticFiles(directory=WEB), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.server = hubs
    return app


def _problem(code: ErrorCode, message: str, status: int = 400) -> Response:
    return JSONResponse({"code": code.value, "message": message}, status_code=status)


async def _refuse_now(ws: WebSocket, seq: int, code: ErrorCode, message: str, close: CloseCode) -> None:
    """Refuse a connection before it joins a table: one error frame, then the close."""
    conn = Conn(Role())
    outbox.error(conn, seq, code, message)
    text = conn.out.get_nowait()
    assert text is not None
    with contextlib.suppress(Exception):
        await ws.send_text(text)
        await ws.close(close)


async def _serve_socket(hubs: Hubs, hello_timeout: float, ws: WebSocket) -> None:
    table_id = ws.path_params["table_id"]
    await ws.accept()
    hub = await hubs.hub_for(table_id) if TABLE_ID.match(table_id) else None
    if hub is None:
        await _refuse_now(ws, 0, ErrorCode.INVALID, "no such table", CloseCode.NO_TABLE)
        return
    try:
        text = await asyncio.wait_for(ws.receive_text(), hello_timeout)
        hello = parse_client(text)
        if hello.type != "hello":
            raise ProtocolError(ErrorCode.MALFORMED, "the first message is a hello")
    except TimeoutError:
        await _refuse_now(
            ws, hub.actor.seq, ErrorCode.MALFORMED, f"no hello within {hello_timeout:g} s", CloseCode.NORMAL
        )
        return
    except (WebSocketDisconnect, KeyError):
        with contextlib.suppress(Exception):
            await ws.close()
        return
    except ProtocolError as exc:
        await _refuse_now(ws, hub.actor.seq, exc.code, exc.message, CloseCode.NORMAL)
        return
    actor = hub.actor
    seat = actor.seat_of(hello.token)
    conn = Conn(Role(seat, actor.is_host(hello.host_token)))
    if hello.token and seat is None:
        why = "that token holds no seat at this table; you are watching"
        outbox.error(conn, actor.seq, ErrorCode.FORBIDDEN, why)
    writer = asyncio.create_task(_write(conn, ws))
    await hub.queue.put(Connect(conn, hello.last_seq))
    try:
        await _read(hub, conn, ws)
    except WebSocketDisconnect:
        pass
    finally:
        await hub.queue.put(Disconnect(conn))
        conn.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


async def _read(hub: Hub, conn: Conn, ws: WebSocket) -> None:
    """Read a connection's frames until it closes: each is limited, parsed, and queued."""
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        if not conn.messages.allow():  # every frame counts, refused ones too
            why = f"at most {LIMITS.messages_per_second:g} messages per second"
            hub.refuse(conn, ErrorCode.RATE_LIMITED, why)
            continue
        text = message.get("text")
        if text is None:  # a binary frame
            hub.refuse(conn, ErrorCode.MALFORMED, "messages are JSON text")
            continue
        try:
            msg = parse_client(text)
        except ProtocolError as exc:
            hub.refuse(conn, exc.code, exc.message)
            continue
        if msg.type == "hello":
            hub.refuse(conn, ErrorCode.MALFORMED, "hello comes once, first")
            continue
        await hub.queue.put(FromClient(conn, msg, time.time()))


async def _write(conn: Conn, ws: WebSocket) -> None:
    """Send a connection's queued frames in order; None closes it."""
    while True:
        text = await conn.out.get()
        if text is None:
            if ws.application_state is WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await ws.close(conn.close_code)
            return
        try:
            await ws.send_text(text)
        except Exception:  # the client went away; the reader sees it too
            return
