"""Load on the online tables: N websocket players in 4-seat tables, on loopback.

The generator runs in its own process: it starts a server (``unotable serve`` on a free port, with
the given ``--db``) unless ``--url`` names a running one, creates N/4 tables of four people each,
and opens one websocket per player. Players act at a person's pace (``--pace 1.0``: about a second
after their turn comes, with calls and catches) or at once (``--pace 0``). It reports, over the
measured window (after ``--warmup``):

- ack: from a player's ``act`` to its own ``update`` carrying the result, p50 / p99 / p99.9;
- all: from the ``act`` to the last of the table's four players receiving that update;
- actions per second, errors (coded refusals other than the races a real table has: a catch or a
  call that another seat beat is counted apart as ``lost races``), and the server's CPU share and
  memory per table (from /proc).

    .venv/bin/python benchmarks/server_load.py --players 1000 --seconds 300 --pace 1.0
    .venv/bin/python benchmarks/server_load.py --players 200 --seconds 30 --pace 0 --db postgresql://localhost/unotable_bench

It is a benchmark, not a test: it asserts nothing and never runs in the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets


@dataclass
class Stats:
    ack: list[float] = field(default_factory=list)
    all: list[float] = field(default_factory=list)
    actions: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    lost_races: int = 0
    rounds: int = 0
    measuring: bool = False


@dataclass
class TableState:
    url: str
    ws: str
    host_token: str
    mine: dict[int, float] = field(default_factory=dict)  # seat -> when its action was sent
    starts: dict[int, float] = field(default_factory=dict)  # update seq -> when its action was sent
    receipts: dict[int, list[float]] = field(default_factory=dict)  # update seq -> arrival at each seat


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), method="POST", headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        result: dict[str, Any] = json.load(resp)
        return result


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def player(
    table: TableState,
    seat: int,
    stats: Stats,
    pace: float,
    stop: float,
    ready: asyncio.Event,
    seated: list[int],
    rng: random.Random,
) -> None:
    async with websockets.connect(table.ws, max_size=2**20) as ws:
        host = seat == 0
        await ws.send(
            json.dumps({"type": "hello", "host_token": table.host_token} if host else {"type": "hello"})
        )
        await ws.recv()
        await ws.send(json.dumps({"type": "sit", "seat": seat, "name": f"P{seat}"}))
        seated[0] += 1
        if host:
            while seated[0] < 4:
                await asyncio.sleep(0.05)
            await ready.wait()
            await ws.send(json.dumps({"type": "start"}))
        acting = False
        last_seq = 0

        pending: set[asyncio.Task[None]] = set()

        async def act(action: str, delay: float) -> None:
            nonlocal acting
            acting = True
            try:
                await asyncio.sleep(delay)
                table.mine[seat] = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": action}))
            except websockets.ConnectionClosed:
                pass
            finally:
                acting = False

        def later(action: str, delay: float) -> None:
            task = asyncio.ensure_future(act(action, delay))
            pending.add(task)
            task.add_done_callback(pending.discard)

        while time.time() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.1, stop - time.time()))
            except TimeoutError:
                break
            now = time.perf_counter()
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind == "error":
                code = msg["code"]
                if code in ("illegal", "not_your_turn") and (
                    "catch" in msg["message"] or "uno" in msg["message"]
                ):
                    stats.lost_races += 1
                elif stats.measuring:
                    stats.errors[code] = stats.errors.get(code, 0) + 1
                continue
            if kind != "update":
                continue
            seq = msg["seq"]
            if seq <= last_seq:
                continue
            last_seq = seq
            if stats.measuring:
                table.receipts.setdefault(seq, []).append(now)
            started = table.mine.pop(seat, None)
            if started is not None and stats.measuring:
                stats.ack.append(now - started)
                stats.actions += 1
                table.starts[seq] = started
            info = msg.get("table")
            if info is not None and info["status"] in ("round_over", "match_over") and host:
                stats.rounds += 1
                await ws.send(
                    json.dumps({"type": "next_round" if info["status"] == "round_over" else "rematch"})
                )
                continue
            view = msg.get("view")
            if not view or acting or not view["legal"]:
                continue
            legal = view["legal"]
            catches = [a for a in legal if a.startswith("catch") or a == "uno"]
            if view["active"] != seat:
                if catches and rng.random() < 0.5:
                    later(catches[0], rng.uniform(0.2, 0.8) * pace)
                continue
            plays = [
                a
                for a in legal
                if a not in ("draw", "pass", "accept", "challenge") and not a.startswith("catch")
            ]
            flagged = [a for a in plays if a.endswith("!")]
            choice = (flagged or plays or [a for a in legal if not a.startswith("catch")] or legal)[0]
            later(choice, rng.uniform(0.5, 1.5) * pace)


def _proc_stats(pid: int) -> tuple[float, int]:
    """CPU seconds used and resident memory in bytes of process ``pid``."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))
    return cpu, rss


async def run(args: argparse.Namespace) -> dict[str, Any]:
    server: subprocess.Popen[str] | None = None
    base = args.url
    if base is None:
        data = Path(args.data_dir or f"/tmp/unotable-load-{os.getpid()}")
        data.mkdir(parents=True, exist_ok=True)
        cmd = [
            sys.executable,
            "-m",
            "unotable.server.run",
            "--port",
            "0",
            "--data-dir",
            str(data),
            "--bot-pause",
            "0.2",
            "--round-pause",
            "0.5",
        ]
        if args.db:
            cmd += ["--db", args.db]
        server = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert server.stdout is not None
        line = server.stdout.readline()
        base = line.split("serving at ", 1)[1].split()[0]
        for _ in range(200):  # the address is printed before uvicorn listens
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=1).close()
                break
            except OSError:
                await asyncio.sleep(0.05)
    tables: list[TableState] = []
    for _ in range(args.players // 4):
        made = _post(
            f"{base}/api/tables",
            {"preset": args.preset, "seats": 4, "round_pause": 0.5, "options": {"target_score": 100_000}},
        )
        tables.append(TableState(made["url"], made["ws"], made["host_token"]))
    stats = Stats()
    ready = asyncio.Event()
    stop = time.time() + args.warmup + args.seconds
    rng = random.Random(args.seed)
    tasks = []
    for t in tables:
        seated = [0]
        for seat in range(4):
            tasks.append(
                asyncio.create_task(
                    player(t, seat, stats, args.pace, stop, ready, seated, random.Random(rng.random()))
                )
            )
    ready.set()
    await asyncio.sleep(args.warmup)
    cpu0 = _proc_stats(server.pid) if server else (0.0, 0)
    t0 = time.time()
    stats.measuring = True
    await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.time() - t0
    for t in tables:
        for seq, started in t.starts.items():
            got = t.receipts.get(seq, [])
            if len(got) >= 4:
                stats.all.append(max(got) - started)
    cpu1 = _proc_stats(server.pid) if server else (0.0, 0)
    if server is not None:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    return {
        "players": len(tables) * 4,
        "tables": len(tables),
        "seconds": round(elapsed, 1),
        "pace": args.pace,
        "db": args.db or "sqlite",
        "actions_per_s": round(stats.actions / elapsed, 1),
        "ack_ms": {"p50": pct(stats.ack, 0.5), "p99": pct(stats.ack, 0.99), "p999": pct(stats.ack, 0.999)},
        "all_seats_ms": {
            "p50": pct(stats.all, 0.5),
            "p99": pct(stats.all, 0.99),
            "p999": pct(stats.all, 0.999),
        },
        "errors": stats.errors,
        "lost_races": stats.lost_races,
        "rounds": stats.rounds,
        "server_cpu_share": round((cpu1[0] - cpu0[0]) / elapsed, 3) if server else None,
        "server_rss_per_table_kb": round(cpu1[1] / 1024 / max(1, len(tables)), 1) if server else None,
        "mean_ack_ms": round(statistics.mean(stats.ack) * 1000, 2) if stats.ack else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds of thought per action (0: at once)")
    parser.add_argument("--preset", default="official")
    parser.add_argument("--db", default=None, help="a PostgreSQL URL (default: SQLite in --data-dir)")
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--url", default=None, help="a running server instead of starting one")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
