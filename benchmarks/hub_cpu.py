"""The server's own CPU per action without sockets: hubs, outbox and the SQLite store in one process.

``server_load.py`` measures the whole server (uvicorn, websockets, the event loop, the hub, the
store) from another process, and on a shared machine its figures move with the load. This one drives
the hubs directly: ``--tables`` 4-seat tables of people in this process, each a task that acts for a
random seat with a legal action about every ``--pace`` seconds (0: at once), through the hub's queue
as the websocket reader would (a parsed ``act``, waiting for it to be served). Every connection's
frames are drained by a task, as the app's writer does, but go nowhere. The SQLite store is a real
file (``synchronous=FULL``). It reports the process's CPU milliseconds per accepted action (all its
threads: ``time.process_time``) over ``--seconds`` after ``--warmup``, the driver's own choices
included (the same for every tree).

``--trees A,B`` runs each tree's ``unotable`` in its own process, alternating A, B, A, B, ...
``--rounds`` times, and prints each tree's median and least (the least is the one other load on the
machine disturbed least; a tree must have ``unotable.server.hub``)::

    git worktree add /tmp/head HEAD
    .venv/bin/python benchmarks/hub_cpu.py --trees /tmp/head,. --rounds 3

``--apply-only`` measures less and more steadily: one table's apply of an action and the updates of
its four seats (the outbox's frames, no store, no event loop), microseconds per action, the least of
nine passes over whole seeded rounds of random legal plays.

It is a benchmark, not a test: it asserts nothing and never runs in the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

_PROBE = r"""
import asyncio, json, os, random, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import unotable
assert unotable.__file__.startswith(sys.argv[1]), unotable.__file__
from unotable.server.bus.local import LocalBus
from unotable.server.hub import Connect, FromClient, Hubs, Metrics
from unotable.server.outbox import Conn
from unotable.server.protocol import parse_client
from unotable.server.store import open_store
from unotable.server.table import Role, TableSettings
from unotable.phase import Phase

tables, data = int(sys.argv[2]), sys.argv[6]
pace, warmup, seconds = (float(x) for x in sys.argv[3:6])


def threads_cpu():
    main = rest = 0
    for task in os.listdir("/proc/self/task"):
        try:
            fields = open(f"/proc/self/task/{task}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks = int(fields[11]) + int(fields[12])
        if int(task) == os.getpid():
            main += ticks
        else:
            rest += ticks
    return main / os.sysconf("SC_CLK_TCK"), rest / os.sysconf("SC_CLK_TCK")


async def drain(conn):
    while await conn.out.get() is not None:
        pass


async def send(hub, conn, **fields):
    done = asyncio.get_running_loop().create_future()
    hub.queue.put_nowait(FromClient(conn, parse_client(json.dumps(fields)), time.time(), done))
    await done


async def table(hubs, rng, count, stop):
    settings = TableSettings(seats=4, round_pause=0.0, options={"target_score": 100_000})
    table_id, host = await hubs.create(settings, {})
    hub = hubs.hubs[table_id]
    conns = [Conn(Role(None, s == 0)) for s in range(4)]
    drains = [asyncio.ensure_future(drain(c)) for c in conns]
    for c in conns:
        hub.queue.put_nowait(Connect(c, None))
    for s in range(4):
        await send(hub, conns[s], type="sit", seat=s, name=f"P{s}")
    await send(hub, conns[0], type="start")
    await asyncio.sleep(rng.uniform(0, pace))
    while time.time() < stop:
        game = hub.actor.game
        if game is None or game.phase >= Phase.ROUND_OVER:
            await asyncio.sleep(0.01)  # (the hub deals the next round on its timer)
            continue
        movers = [s for s in range(4) if game.legal_actions_for(s)]
        seat = rng.choice(movers)
        action = rng.choice(list(game.legal_actions_for(seat)))
        await send(hub, conns[seat], type="act", action=str(action))
        count[0] += 1
        if pace:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * pace)
    for c in conns:
        c.close()
    await asyncio.gather(*drains)


async def main():
    hubs = Hubs(open_store(None, directory=Path(data)), LocalBus(), Metrics())
    await hubs.start()
    rng = random.Random(1)
    count = [0]
    stop = time.time() + warmup + seconds
    tasks = [
        asyncio.ensure_future(table(hubs, random.Random(rng.random()), count, stop)) for _ in range(tables)
    ]
    await asyncio.sleep(warmup)
    cpu0, n0, t0, th0 = time.process_time(), count[0], time.time(), threads_cpu()
    await asyncio.gather(*tasks)
    cpu, n, wall = time.process_time() - cpu0, count[0] - n0, time.time() - t0
    th = [(b - a) * 1000 / max(1, n) for a, b in zip(th0, threads_cpu())]
    for hub in hubs.hubs.values():
        await hub.stop()
    await hubs.store.close()
    print(json.dumps({
        "actions": n, "actions_per_s": round(n / wall, 1),
        "cpu_ms_per_action": round(cpu * 1000 / max(1, n), 4),
        "main_thread_ms": round(th[0], 4), "other_threads_ms": round(th[1], 4),
    }))


try:
    import uvloop
    uvloop.run(main())
except ImportError:
    asyncio.run(main())
"""


_APPLY_PROBE = r'''
import sys, time, json, random
sys.path.insert(0, sys.argv[1])
from unotable.server import outbox
from unotable.server.entries import Seated, Started, Dealt
from unotable.server.ids import token_hash
from unotable.server.outbox import Conn
from unotable.server.protocol import parse_client
from unotable.server.table import Role, TableActor, TableSettings, new_table_doc
def one(seed):
    actor = TableActor("t"*16, new_table_doc(TableSettings(seats=4, options={"target_score": 100000}), "h"))
    conns = [Conn(Role(s, s==0)) for s in range(4)]
    for s in range(4): actor.apply(Seated(s, f"P{s}", token_hash(str(s))), 0.0)
    actor.apply(Started(seed), 0.0)
    rng = random.Random(seed)
    n = 0; spent = 0.0
    for _ in range(1500):
        game = actor.game
        if game.phase.name == "ROUND_OVER": actor.apply(Dealt(), 0.0); continue
        if game.phase.name == "MATCH_OVER": break
        movers = [s for s in range(4) if game.legal_actions_for(s)]
        seat = rng.choice(movers); legal = list(game.legal_actions_for(seat))
        plays = [a for a in legal if str(a) not in ("draw","pass")]
        action = rng.choice(plays or legal)
        d = actor.decide(Role(seat), parse_client(json.dumps({"type":"act","action":str(action)})), 0.0)
        t0 = time.process_time()
        before = actor.public(); actor.apply(d.entry, 0.0); changed = before != actor.public()
        outbox.updates(actor, conns, d.entry, changed, 0.0)
        for c in conns:
            while c.out.qsize(): c.out.get_nowait()
        spent += time.process_time() - t0; n += 1
    return spent * 1e6 / n
best = min(min(one(s) for s in (1, 2, 3)) for _ in range(3))
print(json.dumps({"apply_and_updates_us_per_action": round(best, 2)}))
'''


def run_tree(tree: str, args: argparse.Namespace) -> dict[str, float]:
    if args.apply_only:
        out = subprocess.run(
            [sys.executable, "-c", _APPLY_PROBE, str(Path(tree).resolve())],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        applied: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
        return applied
    with tempfile.TemporaryDirectory(prefix="unotable-hub-cpu-") as data:
        out = subprocess.run(
            [sys.executable, "-c", _PROBE, str(Path(tree).resolve()), str(args.tables), str(args.pace),
             str(args.warmup), str(args.seconds), data],
            capture_output=True, text=True, check=True, cwd=data,
        )  # fmt: skip
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trees", default=".", help="checkouts, alternated (/tmp/head,.)")
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--pace", type=float, default=1.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--apply-only", action="store_true",
        help="only a table's apply and its four seats' updates, no store, no loop (us, least of 9 passes)",
    )
    args = parser.parse_args(argv)
    trees = [t for t in args.trees.split(",") if t]
    runs: dict[str, list[dict[str, float]]] = {t: [] for t in trees}
    for _ in range(args.rounds):
        for tree in trees:
            result = run_tree(tree, args)
            runs[tree].append(result)
            print(json.dumps({"tree": tree, **result, "load_average": os.getloadavg()[0]}), flush=True)
    unit = "us" if args.apply_only else "ms"
    print(f"{'tree':<24}{f'CPU {unit}/action: median':>24}{'least':>10}  runs")
    for tree, results in runs.items():
        values = [r.get("cpu_ms_per_action", r.get("apply_and_updates_us_per_action", 0.0)) for r in results]
        print(f"{tree:<24}{statistics.median(values):>24.4f}{min(values):>10.4f}  {values}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
