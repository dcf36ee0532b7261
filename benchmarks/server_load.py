"""Load on the online tables: N websocket players in 4-seat tables, on loopback.

The generator runs in its own process: it starts a server (``unotable serve`` on a free port, with
the given ``--db``) unless ``--url`` names a running one, creates N/4 tables of four people each,
and opens one websocket per player. Players act at a person's pace (``--pace 1.0``: about a second
after their turn comes, with calls and catches) or at once (``--pace 0``). It reports, over the
measured window (after ``--warmup``):

- ack: from a player's ``act`` to its own ``update`` carrying the result, p50 / p99 / p99.9;
- all: from the ``act`` to the last of the table's four players receiving that update;
- the generator's own CPU share and event-loop lag (p99 and max of a 20 ms sleep's lateness):
  when it falls behind, the latencies above are partly its own;
- actions per second, errors (coded refusals other than the races a real table has: a catch or a
  call that another seat beat is counted apart as ``lost races``), and the server's CPU share and
  memory per table (from /proc).

    .venv/bin/python benchmarks/server_load.py --players 1000 --seconds 300 --pace 1.0
    .venv/bin/python benchmarks/server_load.py --players 200 --seconds 30 --pace 0 --db postgresql://localhost/unotable_bench

``--nodes 1,3`` runs the same load against one server, then against a cluster of three nodes on this
machine (``--redis``, default redis://127.0.0.1:6379/0, and the PostgreSQL ``--db``), the seats of
each table spread over the nodes (seat s of table t on node (t + s) mod N), and prints the results
side by side, with the Redis commands (INFO commandstats) and PostgreSQL transactions
(pg_stat_database.xact_commit) per action over the measured window (docs/scaling.md)::

    .venv/bin/python benchmarks/server_load.py --players 200 --seconds 30 --nodes 1,3 \
        --db postgresql://postgres@localhost/unotable_bench

``--trees .,/tmp/old`` runs the same load against this checkout's server and another checkout's
(``git worktree add /tmp/old COMMIT``), one after the other, and prints them side by side with the
server's CPU milliseconds per accepted command (its ``unotable_actions_total``, every kind, over the
measured window) and the machine's load average. ``--profile FILE.svg`` records the (first)
server under load with py-spy (the ``bench`` extra) while it is measured::

    .venv/bin/python benchmarks/server_load.py --players 400 --seconds 60 --trees .,/tmp/old

It is a benchmark, not a test: it asserts nothing and never runs in the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
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
    error_samples: list[str] = field(default_factory=list)  # the first few refusals, in words
    lost_races: int = 0
    rounds: int = 0
    measuring: bool = False


@dataclass
class TableState:
    url: str
    ws: str
    host_token: str
    ws_by_seat: dict[int, str] = field(default_factory=dict)  # a cluster: each seat's node
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
    async with websockets.connect(table.ws_by_seat.get(seat, table.ws), max_size=2**20) as ws:
        host = seat == 0
        await ws.send(
            json.dumps({"type": "hello", "host_token": table.host_token} if host else {"type": "hello"})
        )
        await ws.recv()
        await ws.send(json.dumps({"type": "sit", "seat": seat, "name": f"P{seat}"}))
        while json.loads(await ws.recv())["type"] != "token":  # seated (in a cluster, the sits of
            pass  # seats on other nodes race the host's start: the host waits for all four)
        seated[0] += 1
        if host:
            while seated[0] < 4:
                await asyncio.sleep(0.05)
            await ready.wait()
            await ws.send(json.dumps({"type": "start"}))
        acting = False
        last_seq = 0
        last_status: str | None = None

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
                    if len(stats.error_samples) < 5:
                        stats.error_samples.append(f"{code}: {msg['message']}")
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
            status = info["status"] if info is not None else None
            if status in ("round_over", "match_over") and host:
                if status != last_status:  # once per round: later updates of an ended round
                    stats.rounds += 1  # (a chat, a ready) say it again
                    await ws.send(json.dumps({"type": "next_round" if status == "round_over" else "rematch"}))
                last_status = status
                continue
            if status == "match_over" and info is not None and info.get("rematch") is not None:
                if seat not in info["rematch"]["accepted"]:  # the host proposed: every seat accepts
                    await ws.send(json.dumps({"type": "accept_rematch"}))
                last_status = status
                continue
            if status is not None:
                last_status = status
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


def _thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds used so far by process ``pid``'s event loop (its main thread) and by its other
    threads together (the store's worker and checkpoints, the default executor), each also split
    into user and kernel time (system calls: the sockets' reads and writes, epoll, the disk's sync)."""
    ticks = os.sysconf("SC_CLK_TCK")
    out = {"main": 0.0, "threads": 0.0, "main_user": 0.0, "main_kernel": 0.0, "threads_user": 0.0,
           "threads_kernel": 0.0}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended meanwhile
            continue
        who = "main" if int(task) == pid else "threads"
        user, kernel = int(fields[11]) / ticks, int(fields[12]) / ticks
        out[who] += user + kernel
        out[f"{who}_user"] += user
        out[f"{who}_kernel"] += kernel
    return out


def _start_server(
    args: argparse.Namespace, data: Path, extra: list[str], tree: str | None = None
) -> tuple[subprocess.Popen[str], str]:
    """``unotable serve`` on a free port; ``tree``: a checkout whose ``unotable`` it runs instead."""
    cmd = [
        sys.executable, "-m", "unotable.server.run", "--port", "0", "--data-dir", str(data),
        "--bot-pause", "0.2", "--round-pause", "0.5", *extra,
    ]  # fmt: skip
    if args.db:
        cmd += ["--db", args.db]
    env = {**os.environ, "PYTHONPATH": str(Path(tree).resolve())} if tree else None
    # (cwd: the data folder, so that ``-m`` finds no ``unotable`` of the current folder first)
    server = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=data
    )
    assert server.stdout is not None
    line = server.stdout.readline()
    return server, line.split("serving at ", 1)[1].split()[0]


_RUNS = itertools.count(1)


def _accepted(base: str) -> int:
    """Commands the server accepted so far (its ``unotable_actions_total`` counters, every kind)."""
    with urllib.request.urlopen(f"{base}/metrics", timeout=10) as resp:
        text = resp.read().decode()
    return int(sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                   if line.startswith("unotable_actions_total{")))


def _wait_healthy(base: str) -> None:
    for _ in range(400):  # (an older server printed its address before uvicorn listened)
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)


def _redis_calls(url: str) -> dict[str, int]:
    """INFO commandstats: calls per command so far (the INFO itself is left out)."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        stats = client.info("commandstats")
    finally:
        client.close()
    calls = {k.removeprefix("cmdstat_"): int(v["calls"]) for k, v in stats.items()}
    calls.pop("info", None)
    return calls


async def _pg_commits(url: str) -> int:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        value = await conn.fetchval(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        )
    finally:
        await conn.close()
    return int(value)


async def _pg_admin(url: str, statement: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


async def _lag_probe(lags: list[float], every: float = 0.02) -> None:
    """The generator's own event-loop lag: how late a 20 ms sleep wakes (a late generator reads
    updates late, and its ack times grow with it)."""
    loop = asyncio.get_running_loop()
    while True:
        start = loop.time()
        await asyncio.sleep(every)
        lags.append(max(0.0, loop.time() - start - every))


async def run(args: argparse.Namespace, nodes: int = 1) -> dict[str, Any]:
    """One configuration; with a PostgreSQL --db, in a fresh database of its own (dropped after)."""
    if not (args.db or "").startswith("postgres") or args.url:
        return await _run(args, nodes)
    base, _, name = args.db.rpartition("/")
    fresh = f"{name}_{nodes}n_{os.getpid()}"
    await _pg_admin(args.db, f"CREATE DATABASE {fresh}")
    try:
        return await _run(argparse.Namespace(**{**vars(args), "db": f"{base}/{fresh}"}), nodes)
    finally:
        await _pg_admin(args.db, f"DROP DATABASE IF EXISTS {fresh} WITH (FORCE)")


async def _run(args: argparse.Namespace, nodes: int = 1) -> dict[str, Any]:
    servers: list[subprocess.Popen[str]] = []
    bases = [args.url] if args.url else []
    cluster = nodes > 1 or bool(args.redis and args.url is None and args.cluster_of_one)
    if not bases:
        data = Path(args.data_dir or f"/tmp/unotable-load-{os.getpid()}") / f"run-{next(_RUNS)}"
        data.mkdir(parents=True, exist_ok=True)  # a fresh SQLite file for every run
        if cluster and not (args.db or "").startswith("postgres"):
            raise SystemExit("--nodes N > 1 needs a PostgreSQL --db")
        extra = ["--redis", args.redis] if cluster else []
        for i in range(nodes):
            flags = [*extra, "--node-id", f"bench{i}"] if cluster else extra
            server, base = _start_server(args, data, flags, getattr(args, "tree", None))
            servers.append(server)
            bases.append(base)
        for base in bases:
            _wait_healthy(base)
    tables: list[TableState] = []
    for t in range(args.players // 4):
        base = bases[t % len(bases)]
        made = _post(
            f"{base}/api/tables",
            {"preset": args.preset, "seats": 4, "round_pause": 0.5, "options": {"target_score": 100_000}},
        )
        state = TableState(made["url"], made["ws"], made["host_token"])
        if len(bases) > 1:
            for seat in range(4):
                node = bases[(t + seat) % len(bases)]
                state.ws_by_seat[seat] = f"{node.replace('http', 'ws', 1)}/ws/{made['table']}"
        tables.append(state)
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
    cpu0 = [_proc_stats(s.pid) for s in servers]
    threads0 = _thread_cpu(servers[0].pid) if servers else {}
    accepted0 = sum(_accepted(b) for b in bases)
    profiler = None
    if getattr(args, "profile", None) and servers:
        profiler = subprocess.Popen(
            [str(Path(sys.executable).with_name("py-spy")), "record", "--pid", str(servers[0].pid),
             "--format", "speedscope" if args.profile.endswith(".json") else "flamegraph",
             "--output", args.profile, "--duration", str(int(args.seconds)), "--rate", "200"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
    redis0 = _redis_calls(args.redis) if cluster else {}
    pg0 = await _pg_commits(args.db) if (args.db or "").startswith("postgres") else 0
    t0 = time.time()
    gen_cpu0 = time.process_time()
    stats.measuring = True
    lags: list[float] = []
    probe = asyncio.ensure_future(_lag_probe(lags))
    await asyncio.gather(*tasks, return_exceptions=True)
    probe.cancel()
    elapsed = time.time() - t0
    gen_cpu = time.process_time() - gen_cpu0
    cpu1 = [_proc_stats(s.pid) for s in servers]
    threads1 = _thread_cpu(servers[0].pid) if servers else {}
    accepted = sum(_accepted(b) for b in bases) - accepted0
    if profiler is not None:
        profiler.wait(timeout=60)
    redis1 = _redis_calls(args.redis) if cluster else {}
    await asyncio.sleep(1.5)  # pg_stat_database is flushed about once a second
    pg1 = await _pg_commits(args.db) if (args.db or "").startswith("postgres") else 0
    for t in tables:
        for seq, started in t.starts.items():
            got = t.receipts.get(seq, [])
            if len(got) >= 4:
                stats.all.append(max(got) - started)
    for server in servers:
        server.send_signal(signal.SIGTERM)
    for server in servers:
        server.wait(timeout=30)
    actions = max(1, stats.actions)
    server_cpu = sum(b[0] - a[0] for a, b in zip(cpu0, cpu1, strict=True))
    thread_delta = {k: v - threads0.get(k, 0.0) for k, v in threads1.items()}
    redis_delta = {k: v - redis0.get(k, 0) for k, v in redis1.items() if v - redis0.get(k, 0) > 0}
    return {
        "nodes": len(bases),
        "players": len(tables) * 4,
        "tables": len(tables),
        "seconds": round(elapsed, 1),
        "pace": args.pace,
        "db": "postgresql" if (args.db or "").startswith("postgres") else "sqlite",
        "actions_per_s": round(stats.actions / elapsed, 1),
        "ack_ms": {"p50": pct(stats.ack, 0.5), "p99": pct(stats.ack, 0.99), "p999": pct(stats.ack, 0.999)},
        "all_seats_ms": {
            "p50": pct(stats.all, 0.5),
            "p99": pct(stats.all, 0.99),
            "p999": pct(stats.all, 0.999),
        },
        "errors": stats.errors,
        "error_samples": stats.error_samples,
        "lost_races": stats.lost_races,
        "rounds": stats.rounds,
        "tree": getattr(args, "tree", None) or ".",
        "server_cpu_share": round(server_cpu / elapsed, 3) if servers else None,
        "accepted_commands": accepted,
        "server_cpu_ms_per_accepted": round(server_cpu * 1000 / max(1, accepted), 3) if servers else None,
        "server_cpu_ms_per_accepted_by_thread": {
            name: round(spent * 1000 / max(1, accepted), 3)
            for name, spent in sorted(thread_delta.items(), key=lambda kv: -kv[1])
        },
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "server_rss_per_table_kb": round(sum(b[1] for b in cpu1) / 1024 / max(1, len(tables)), 1)
        if servers
        else None,
        "mean_ack_ms": round(statistics.mean(stats.ack) * 1000, 2) if stats.ack else None,
        "generator_cpu_share": round(gen_cpu / elapsed, 3),
        "generator_lag_ms": {"p99": pct(lags, 0.99), "max": max(lags, default=0.0) * 1000},
        "redis_cmds_per_action": round(sum(redis_delta.values()) / actions, 2) if cluster else None,
        "redis_cmds_by_kind_per_action": {
            k: round(v / actions, 2) for k, v in sorted(redis_delta.items(), key=lambda kv: -kv[1])
        }
        if cluster
        else None,
        "pg_commits_per_action": round((pg1 - pg0) / actions, 2) if args.db else None,
    }


def side_by_side(results: list[dict[str, Any]]) -> str:
    rows = [
        ("tree", lambda r: r["tree"]),
        ("nodes", lambda r: r["nodes"]),
        ("players", lambda r: r["players"]),
        ("actions/s", lambda r: r["actions_per_s"]),
        ("ack p50 ms", lambda r: f"{r['ack_ms']['p50']:.1f}"),
        ("ack p99 ms", lambda r: f"{r['ack_ms']['p99']:.1f}"),
        ("all seats p99 ms", lambda r: f"{r['all_seats_ms']['p99']:.1f}"),
        ("errors", lambda r: sum(r["errors"].values())),
        ("server CPU (cores)", lambda r: r["server_cpu_share"]),
        ("CPU ms/accepted", lambda r: r["server_cpu_ms_per_accepted"]),
        ("load average (1m)", lambda r: r["load_average"][0]),
        ("Redis cmds/action", lambda r: r["redis_cmds_per_action"]),
        ("PG commits/action", lambda r: r["pg_commits_per_action"]),
    ]
    lines = []
    for name, get in rows:
        lines.append(f"{name:<20}" + "".join(f"{get(r)!s:>14}" for r in results))
    return "\n".join(lines)


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
    parser.add_argument(
        "--nodes", default="1", help="server processes: N, or a list run one after the other (1,3)"
    )
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0", help="the cluster's Redis")
    parser.add_argument(
        "--cluster-of-one", action="store_true", help="with --nodes 1: one node with --redis (not plain)"
    )
    parser.add_argument(
        "--trees", default="", help="checkouts to serve from, one run each, side by side (.,/tmp/old)"
    )
    parser.add_argument("--profile", default=None, help="py-spy: a flame graph (.svg) or speedscope (.json)")
    args = parser.parse_args(argv)
    # the generator holds thousands of sockets too: the server's collector policy keeps its own
    # pauses (which would read as the server's latency) short
    from unotable.server.gcpolicy import GcPolicy

    GcPolicy(full_every=3600.0).install()
    results = []
    trees = [t for t in args.trees.split(",") if t] or [None]
    for n in [int(x) for x in str(args.nodes).split(",")]:
        for tree in trees:
            args.tree = None if tree in (None, ".") else tree
            result = asyncio.run(run(args, n))
            result["tree"] = tree or "."
            print(json.dumps(result, indent=2), flush=True)
            results.append(result)
    if len(results) > 1:
        print(side_by_side(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
