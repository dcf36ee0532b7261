"""The floor of the online server's CPU per action: its I/O stack alone, with no game logic.

A server subprocess runs uvicorn with the real server's options (``run.uvicorn_config``:
``ws="websockets-sansio"``, no permessage-deflate, uvloop when installed) and a tiny Starlette app
with one route,
``/ws/{group}``: for each text a connection receives it commits one row (group, seq, the text) to
SQLite the way the real store does (WAL, ``synchronous=FULL``, one worker thread fed by a
``SimpleQueue``, group commit with ``executemany``, the answer handed back through
``call_soon_threadsafe``, a checkpoint thread), then queues one pre-built text frame of
``--frame-bytes`` characters of JSON for every connection of the group, the sender included, each
sent by that connection's own writer task. ``--no-store`` skips the commit.

The generator (this process, asyncio and the ``websockets`` client) has the traffic shape of
benchmarks/server_load.py: ``--players`` connections in groups of four; in each group one seat at a
time sends a small message (~60 bytes) at ``uniform(0.5, 1.5) * --pace`` seconds after the frame of
the group's previous message reached it (at once with ``--pace 0``), and the turn passes to the next
seat: one small message in, four ~1 KB frames out, about one message a second per group at pace 1.
It reports, over the measured window (after ``--warmup``): messages per second, the latency from a
message to its sender receiving the frame (p50 / p99), the server's CPU in milliseconds per message
(all of it, and by thread: the event loop and the other threads, each split into user and kernel
time) and the generator's own CPU share. Compared with server_load.py's
``server_cpu_ms_per_accepted``, it says how much of the server's CPU per action is the stack itself::

    .venv/bin/python benchmarks/server_floor.py --players 1000 --seconds 60 --warmup 8 --pace 1.0
    .venv/bin/python benchmarks/server_floor.py --players 1000 --seconds 60 --no-store --json
    .venv/bin/python benchmarks/server_floor.py --players 200 --seconds 30 --pace 0 --frame-bytes 2000

It is a benchmark, not a test: it asserts nothing and never runs in the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import queue
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import websockets
from server_load import _proc_stats, _thread_cpu, pct  # (benchmarks/ is on sys.path)

# ---------------------------------------------------------------- the server (a subprocess)

_Row = tuple[str, int, str]
_Batch = list[tuple[_Row, asyncio.Future[None]]]


class GroupCommit:
    """Rows appended to one SQLite file by one worker thread; appends that arrive while a commit is
    on the disk go together in the next transaction (one sync for all of them)."""

    def __init__(self, path: Path) -> None:
        self._loop = asyncio.get_running_loop()
        self._path = path
        self._jobs: queue.SimpleQueue[_Batch | None] = queue.SimpleQueue()
        self._pending: _Batch = []
        self._writing = False
        self._opened = threading.Event()
        self._stop = threading.Event()
        self._worker = threading.Thread(target=self._work, name="floor-sqlite", daemon=True)
        self._checkpointer = threading.Thread(target=self._checkpoints, name="floor-checkpoint", daemon=True)
        self._worker.start()
        self._opened.wait()
        self._checkpointer.start()

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self._path, timeout=10.0, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        return conn

    def _work(self) -> None:
        conn = self._connect()
        conn.execute("PRAGMA wal_autocheckpoint=0")  # (the checkpoint thread does it)
        conn.execute(
            "CREATE TABLE IF NOT EXISTS log (grp TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL,"
            " PRIMARY KEY (grp, seq)) WITHOUT ROWID"
        )
        self._opened.set()
        while (batch := self._jobs.get()) is not None:
            error: BaseException | None = None
            try:
                conn.execute("BEGIN IMMEDIATE")
                conn.executemany("INSERT INTO log (grp, seq, entry) VALUES (?, ?, ?)", [r for r, _ in batch])
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                error = exc
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            with contextlib.suppress(RuntimeError):  # (the loop closed meanwhile)
                self._loop.call_soon_threadsafe(self._written, batch, error)
        conn.close()

    def _checkpoints(self) -> None:
        conn = self._connect()
        while not self._stop.wait(2.0):
            with contextlib.suppress(sqlite3.Error):
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        conn.close()

    async def append(self, group: str, seq: int, text: str) -> None:
        done: asyncio.Future[None] = self._loop.create_future()
        self._pending.append(((group, seq, text), done))
        if not self._writing:
            self._write_next()
        await done

    def _write_next(self) -> None:
        self._writing = True
        batch, self._pending = self._pending, []
        self._jobs.put(batch)

    def _written(self, batch: _Batch, error: BaseException | None) -> None:
        for _, done in batch:
            if not done.done():
                if error is None:
                    done.set_result(None)
                else:
                    done.set_exception(error)
        if self._pending:
            self._write_next()
        else:
            self._writing = False

    def close(self) -> None:
        self._stop.set()
        self._jobs.put(None)
        self._worker.join()
        self._checkpointer.join()


class Outbox:
    """One connection's outgoing frames: a deque, and a future that wakes its writer task."""

    def __init__(self) -> None:
        self.frames: deque[str] = deque()
        self.waiter: asyncio.Future[None] | None = None

    def put(self, frame: str) -> None:
        self.frames.append(frame)
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)
        self.waiter = None


def serve(port: int, data: Path, frame_bytes: int, store: bool) -> None:
    """The floor server: uvicorn and Starlette, one websocket route, no game logic."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    from unotable.server.run import uvicorn_config

    groups: dict[str, list[Outbox]] = {}
    seqs: dict[str, int] = {}
    pad = "x" * frame_bytes
    log: list[GroupCommit] = []

    async def writer(ws: WebSocket, box: Outbox) -> None:
        loop = asyncio.get_running_loop()
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):  # (the client went away)
            while True:
                while not box.frames:
                    box.waiter = loop.create_future()
                    await box.waiter
                await ws.send_text(box.frames.popleft())

    async def endpoint(ws: WebSocket) -> None:
        group = ws.path_params["group"]
        await ws.accept()
        box = Outbox()
        members = groups.setdefault(group, [])
        members.append(box)
        sending = asyncio.create_task(writer(ws, box))
        try:
            while True:
                text = await ws.receive_text()
                seq = seqs[group] = seqs.get(group, 0) + 1
                if log:
                    await log[0].append(group, seq, text)
                head = f'{{"seq":{seq},"type":"update","pad":"'
                frame = head + pad[: max(0, frame_bytes - len(head) - 2)] + '"}'
                for member in members:
                    member.put(frame)
        except WebSocketDisconnect:
            pass
        finally:
            members.remove(box)
            sending.cancel()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if store:
            log.append(GroupCommit(data / "floor.db"))
        yield
        if log:
            log.pop().close()

    app = Starlette(routes=[WebSocketRoute("/ws/{group}", endpoint)], lifespan=lifespan)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(2048)  # (connections wait in the backlog until uvicorn accepts them)
    print(f"serving at {sock.getsockname()[1]}", flush=True)
    uvicorn.Server(uvicorn_config(app)).run(sockets=[sock])  # the options `unotable serve` uses


# ---------------------------------------------------------------- the generator


def _cpu(pid: int) -> dict[str, float]:
    """server_load.py's CPU seconds of process ``pid`` by thread and mode, with its total."""
    return {**_thread_cpu(pid), "total": _proc_stats(pid)[0]}  # (the total counts ended threads)


class Stats:
    def __init__(self) -> None:
        self.measuring = False
        self.latencies: list[float] = []
        self.errors: dict[str, int] = {}

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


async def seat(ws: Any, index: int, stats: Stats, pace: float, rng: random.Random) -> None:
    """One player: sends when its turn comes, and times its own message's frame."""

    async def send(seq: int) -> float:
        await asyncio.sleep(rng.uniform(0.5, 1.5) * pace)
        sent = time.perf_counter()
        await ws.send(json.dumps({"type": "act", "seq": seq, "action": "R5"}))
        return sent

    sent = await send(1) if index == 0 else None
    expected = 1
    try:
        async for raw in ws:
            now = time.perf_counter()
            seq = int(raw[7 : raw.index(",")])  # '{"seq":N,...' (no JSON decoding: the generator's CPU)
            if seq != expected:
                stats.error("out_of_order")
            expected = seq + 1
            if sent is not None:
                if stats.measuring:
                    stats.latencies.append(now - sent)
                sent = None
            if seq % 4 == index:
                sent = await send(seq + 1)
    except websockets.ConnectionClosed:
        stats.error("closed")


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="unotable-floor-") as data:
        cmd = [sys.executable, __file__, "--serve", "0", data, "--frame-bytes", str(args.frame_bytes)]
        server = subprocess.Popen(
            [*cmd, *(["--no-store"] if args.no_store else [])], stdout=subprocess.PIPE, text=True
        )
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            if not line.startswith("serving at "):
                raise SystemExit(f"the floor server did not start: {line!r}")
            url = f"ws://127.0.0.1:{int(line.split()[-1])}/ws"
            return await _measure(args, server.pid, url)
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


async def _measure(args: argparse.Namespace, pid: int, url: str) -> dict[str, Any]:
    players = args.players // 4 * 4
    conns = await asyncio.gather(
        *(websockets.connect(f"{url}/{i // 4}", compression=None, max_size=2**20) for i in range(players))
    )
    gc.collect()
    gc.freeze()  # (thousands of sockets: the generator's own collections stay short)
    stats = Stats()
    rng = random.Random(args.seed)
    tasks = [
        asyncio.create_task(seat(ws, i % 4, stats, args.pace, random.Random(rng.random())))
        for i, ws in enumerate(conns)
    ]
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    cpu0, gen0, t0 = _cpu(pid), time.process_time(), time.perf_counter()
    await asyncio.sleep(args.seconds)
    cpu1, gen1, t1 = _cpu(pid), time.process_time(), time.perf_counter()
    stats.measuring = False
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*(ws.close() for ws in conns), return_exceptions=True)
    elapsed = t1 - t0
    messages = len(stats.latencies)
    per = 1000 / max(1, messages)
    spent = {k: cpu1[k] - cpu0[k] for k in cpu0}
    return {
        "players": players,
        "groups": players // 4,
        "seconds": round(elapsed, 1),
        "pace": args.pace,
        "store": not args.no_store,
        "frame_bytes": args.frame_bytes,
        "messages": messages,
        "messages_per_s": round(messages / elapsed, 1),
        "latency_ms": {q: round(pct(stats.latencies, f), 2) for q, f in (("p50", 0.5), ("p99", 0.99))},
        "errors": stats.errors,
        "server_cpu_share": round(spent["total"] / elapsed, 3),
        "server_cpu_ms_per_message": round(spent["total"] * per, 3),
        "server_cpu_ms_per_message_by_thread": {
            k: round(v * per, 3) for k, v in sorted(spent.items(), key=lambda kv: -kv[1]) if k != "total"
        },
        "generator_cpu_share": round((gen1 - gen0) / elapsed, 3),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def summary(r: dict[str, Any]) -> str:
    t = r["server_cpu_ms_per_message_by_thread"]
    lines = [
        f"{r['players']} players in {r['groups']} groups, pace {r['pace']}, "
        f"{'SQLite commit per message' if r['store'] else 'no store'}, {r['frame_bytes']}-byte frames",
        f"messages/s          {r['messages_per_s']}  ({r['messages']} in {r['seconds']} s)",
        f"latency ms          p50 {r['latency_ms']['p50']}  p99 {r['latency_ms']['p99']}",
        f"server CPU          {r['server_cpu_share']} cores, {r['server_cpu_ms_per_message']} ms/message",
        f"  event loop        {t['main']} ms (user {t['main_user']}, kernel {t['main_kernel']})",
        f"  other threads     {t['threads']} ms (user {t['threads_user']}, kernel {t['threads_kernel']})",
        f"generator CPU       {r['generator_cpu_share']} cores",
        f"errors              {r['errors'] or 'none'}",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=1000, help="connections, in groups of four")
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured window")
    parser.add_argument("--warmup", type=float, default=8.0)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds of thought per message (0: at once)")
    parser.add_argument("--no-store", action="store_true", help="no SQLite commit per message")
    parser.add_argument("--frame-bytes", type=int, default=1100, help="the frame sent out per message")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "DATADIR"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(int(args.serve[0]), Path(args.serve[1]), args.frame_bytes, not args.no_store)
        return 0
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=2) if args.json else summary(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
