"""The match summary's "Review this match": a seat's own decisions judged in the background.

``POST /t/{id}/review`` with a JSON body ``{"token": SEAT_TOKEN}`` (optionally ``"match": n``, 1
for the table's first, default the latest finished one, and ``"worlds": k``, at most
:data:`MAX_WORLDS`) asks for the review (:func:`unotable.bots.review.review_record`) of the
decisions of the seat that token holds, in a finished match. The same request is also how a page
follows it:

- ``202 {"status": "queued" | "running", "done": d, "total": t, ...}`` while it is computed
  (``total`` is 0 until the first decision is judged); a running one adds ``elapsed_s`` and
  ``eta_s``, the seconds it should still take at the rate measured so far (null until measured);
- ``200 {"status": "done", "review": {...}, "worst": [...], ...}`` once it is ready: every judged
  decision and the costliest ones (those out of the noise first, then the others: a cost under
  twice its standard error may be chance), each with its round and turn, the
  seat's own hand then, the public table, the action taken, the better one and the cost;
- a refusal ``{"code": ..., "message": ...}`` (the codes of :class:`~unotable.server.protocol.ErrorCode`):
  ``malformed`` 400 (not a JSON object with a token), ``invalid`` 404 (no such table or match),
  ``forbidden`` 403 (no token, or a token that holds no seat here: spectators, other tables),
  ``forbidden`` 409 (the match is still being played: its record and seed are secret until it
  is over), ``rate_limited`` 429 (this seat's other review is still being made, or too many
  reviews wait), ``invalid`` 500 (the record did not replay).

Only the token of a seat reviews that seat: the answer holds that seat's hands and the public
table, never another seat's hand (the sampled worlds stay in the worker). That is no more than the
finished match's record (``GET /t/{id}/record``, seed included) already publishes.

The review never runs on the table's writer or on the event loop: each one is a child process
(``python -m unotable.server.review``, at a lower CPU priority) fed the record on its standard
input, which writes its progress and then the review as lines on its standard output; the event
loop only reads those lines. One review is computed at a time (the others wait, ``queued``). A
finished review is cached with the table: in memory and as a file under the server's data
directory (``reviews/<table>/seat<N>-w<worlds>-<digest>.json``, the digest naming the record), so
a reload, a second request or a restarted server answers it at once. A review is deterministic for
one record, seat and number of worlds, so two nodes of a cluster that each compute it agree.

>>> routes = review_routes(hubs=None, data_dir=Path("/tmp/unotable-doc"))  # type: ignore[arg-type]
>>> [r.path for r in routes]
['/t/{table_id}/review']
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from unotable.bots.review import Judged, Review, ReviewError, default_worlds, review_record
from unotable.errors import RecordError
from unotable.record import Record
from unotable.server.hub import Hubs
from unotable.server.ids import TABLE_ID
from unotable.server.protocol import ErrorCode
from unotable.server.table import TableActor

__all__ = ["MAX_WORLDS", "MIN_WORLDS", "Reviews", "review_routes"]

MAX_WORLDS = default_worlds()
"""The most worlds a review may sample per decision, and the default (as ``unotable review``: 1000
inside the native core, 400 in Python)."""
MIN_WORLDS = 20
MAX_WAITING = 16
"""Reviews waiting or running at once, over all tables; more are refused (``rate_limited``)."""
MAX_BODY = 1024
WORST = 5
"""How many of the costliest decisions the answer lists."""
KEPT = 512
"""Finished reviews kept in memory (the files keep them all)."""


@dataclass
class Job:
    """One review: waiting, running (with its progress), done (its answer) or failed."""

    status: str = "queued"
    done: int = 0
    total: int = 0
    answer: dict[str, Any] | None = None
    error: str = ""
    started: float = 0.0
    """When its worker started (``time.monotonic``): the answers say how long it has run."""
    first: tuple[float, int] | None = None
    """The time and count of its first progress line: the rate is measured from there on."""
    task: asyncio.Task[None] | None = field(default=None, repr=False)  # (held: not collected)


def _problem(code: ErrorCode, message: str, status: int) -> Response:
    return JSONResponse({"code": code.value, "message": message}, status_code=status)


class Reviews:
    """The reviews of one server: the jobs, the worker processes, the cached answers."""

    def __init__(self, hubs: Hubs, data_dir: Path) -> None:
        self.hubs = hubs
        self.directory = data_dir / "reviews"
        self.jobs: dict[tuple[str, int, str, int], Job] = {}
        self.slot = asyncio.Semaphore(1)
        self._digests: dict[tuple[str, int, int | None], tuple[Record, str] | None] = {}

    async def _actor(self, table_id: str) -> TableActor | None:
        hub = self.hubs.hubs.get(table_id)
        if hub is not None:
            return hub.actor
        return await self.hubs.stored_actor(table_id)

    def _record(self, table_id: str, actor: TableActor, match: int | None) -> tuple[Record, str] | None:
        """The finished match's record and its digest (remembered while the table is unchanged)."""
        key = (table_id, actor.seq, match)
        if key not in self._digests:
            if len(self._digests) > 4 * KEPT:
                self._digests.clear()
            rec = actor.record(match)
            found = None if rec is None else (rec, hashlib.sha256(rec.to_json().encode()).hexdigest()[:20])
            self._digests[key] = found
        return self._digests[key]

    def _path(self, table_id: str, seat: int, worlds: int, digest: str) -> Path:
        return self.directory / table_id / f"seat{seat}-w{worlds}-{digest}.json"

    async def handle(self, request: Request) -> Response:
        table_id = request.path_params["table_id"]
        body = await _body(request)
        if isinstance(body, Response):
            return body
        token, match, worlds = body
        actor = await self._actor(table_id) if TABLE_ID.match(table_id) else None
        if actor is None:
            return _problem(ErrorCode.INVALID, "no such table", 404)
        seat = actor.seat_of(token)
        if seat is None:
            why = "only a seat's own token reviews its decisions; this one holds no seat at this table"
            return _problem(ErrorCode.FORBIDDEN, why, 403)
        found = self._record(table_id, actor, match)
        if found is None:
            if actor.games == 0 or (match is not None and match > actor.games):
                return _problem(ErrorCode.INVALID, f"this table has begun {actor.games} match(es)", 404)
            why = "a match is reviewed once it is over (its record and seed are secret until then)"
            return _problem(ErrorCode.FORBIDDEN, why, 409)
        rec, digest = found
        key = (table_id, seat, digest, worlds)
        job = self.jobs.get(key)
        if job is None:
            job = self._cached(key)
        if job is None:
            waiting = [k for k, j in self.jobs.items() if j.status in ("queued", "running")]
            if any(k[:2] == (table_id, seat) for k in waiting):
                why = "this seat's review of another match or number of worlds is still being made"
                return _problem(ErrorCode.RATE_LIMITED, why, 429)
            if len(waiting) >= MAX_WAITING:
                why = f"{MAX_WAITING} reviews are waiting; ask again later"
                return _problem(ErrorCode.RATE_LIMITED, why, 429)
            job = self.jobs[key] = Job()
            job.task = asyncio.create_task(self._run(key, job, rec))
        return self._answer(job, seat, worlds)

    def _answer(self, job: Job, seat: int, worlds: int) -> Response:
        head: dict[str, Any] = {
            "status": job.status, "seat": seat, "worlds": worlds, "done": job.done, "total": job.total
        }
        if job.status == "done":
            return JSONResponse({**head, **(job.answer or {})})
        if job.status == "failed":
            return JSONResponse({"code": ErrorCode.INVALID.value, "message": job.error}, status_code=500)
        if job.status == "running":  # how long it has run, and the estimate of the time left
            head["elapsed_s"] = round(time.monotonic() - job.started, 1)
            head["eta_s"] = _eta(job, time.monotonic())
        return JSONResponse(head, status_code=202)

    def _cached(self, key: tuple[str, int, str, int]) -> Job | None:
        table_id, seat, digest, worlds = key
        try:
            answer = json.loads(self._path(table_id, seat, worlds, digest).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        job = Job("done", answer["total"], answer["total"], answer)
        self._keep(key, job)
        return job

    def _keep(self, key: tuple[str, int, str, int], job: Job) -> None:
        self.jobs[key] = job
        finished = [k for k, j in self.jobs.items() if j.status in ("done", "failed")]
        for old in finished[: max(0, len(finished) - KEPT)]:
            del self.jobs[old]

    async def _run(self, key: tuple[str, int, str, int], job: Job, rec: Record) -> None:
        table_id, seat, digest, worlds = key
        try:
            async with self.slot:
                job.status, job.started = "running", time.monotonic()
                answer = await _compute(job, rec, seat, worlds)
        except ReviewError as exc:
            job.status, job.error = "failed", f"the review failed: {exc}"
            self._keep(key, job)
            return
        path = self._path(table_id, seat, worlds, digest)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            part = path.with_suffix(".part")
            part.write_text(json.dumps(answer), encoding="utf-8")
            part.replace(path)
        except OSError:  # not kept on disk: the memory still answers
            pass
        job.answer, job.status = answer, "done"
        job.done = job.total = answer["total"]
        self._keep(key, job)


async def _body(request: Request) -> tuple[str, int | None, int] | Response:
    """The token, match number and worlds of a review request, or the refusal."""
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            return _problem(ErrorCode.TOO_LARGE, f"the body is over {MAX_BODY} bytes", 413)
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        body = None
    if not isinstance(body, dict):
        return _problem(ErrorCode.MALFORMED, 'the body is a JSON object: {"token": SEAT_TOKEN}', 400)
    unknown = set(body) - {"token", "match", "worlds"}
    if unknown:
        return _problem(ErrorCode.MALFORMED, f"unknown field {sorted(unknown)[0]!r}", 400)
    token = body.get("token")
    if not isinstance(token, str) or not token:
        return _problem(ErrorCode.FORBIDDEN, "a review needs the seat's token", 403)
    match = body.get("match")
    if match is not None and not (type(match) is int and 1 <= match <= 10_000):
        return _problem(ErrorCode.INVALID, "match must be a match number (1 for the first)", 400)
    worlds = body.get("worlds", MAX_WORLDS)
    if not (type(worlds) is int and MIN_WORLDS <= worlds <= MAX_WORLDS):
        return _problem(ErrorCode.INVALID, f"worlds must be {MIN_WORLDS} to {MAX_WORLDS}", 400)
    return token, match, worlds


async def _compute(job: Job, rec: Record, seat: int, worlds: int) -> dict[str, Any]:
    """Run the worker process on ``rec``; follow its progress in ``job``; its answer."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "unotable.server.review",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None
    answer: dict[str, Any] | None = None
    error = "the review's worker stopped without an answer"
    try:
        proc.stdin.write(json.dumps({"record": rec.to_dict(), "seat": seat, "worlds": worlds}).encode())
        await proc.stdin.drain()
        proc.stdin.close()
        while line := await proc.stdout.readline():
            kind, _, rest = line.decode().rstrip("\n").partition(" ")
            if kind == "progress":
                done, total = rest.split()
                job.done, job.total = int(done), int(total)
                if job.first is None:
                    job.first = (time.monotonic(), job.done)
            elif kind == "review":
                answer = json.loads(rest)
            elif kind == "error":
                error = rest
        await proc.wait()
    finally:
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
    if answer is None:
        raise ReviewError(error)
    return answer


def _eta(job: Job, now: float) -> float | None:
    """Seconds the running ``job`` should still take, at the rate its decisions were judged since
    its first progress line (None until a second one measures a rate).

    >>> _eta(Job("running", done=30, total=40, first=(2.0, 10)), now=12.0)
    5.0
    >>> _eta(Job("running", done=10, total=40, first=(2.0, 10)), now=12.0) is None
    True
    """
    if job.first is None or job.total <= 0:
        return None
    at, before = job.first
    if job.done <= before or now <= at:
        return None
    return round((now - at) * (job.total - job.done) / (job.done - before), 1)


def _clear_first(review: Review, count: int) -> list[Judged]:
    """The ``count`` costliest decisions, those whose cost stands out of the noise (at least twice
    its standard error) before those within it: a sure loss says more than a larger, doubtful one."""
    costly = review.worst(len(review.decisions))

    def noisy(d: Judged) -> bool:  # (as the answer rounds them, so that the page agrees)
        return round(d.cost, 4) < 2 * round(d.stderr, 4)

    return sorted(costly, key=noisy)[:count]  # (a stable sort: costliest first in each part)


def review_routes(hubs: Hubs, data_dir: Path) -> list[Route]:
    """The review's route, for the app's routes (``create_app`` mounts them)."""
    reviews: Reviews | None = None

    async def route(request: Request) -> Response:
        nonlocal reviews
        if reviews is None:  # made in the event loop that serves it (its semaphore belongs there)
            reviews = Reviews(hubs, data_dir)
        return await reviews.handle(request)

    return [Route("/t/{table_id}/review", route, methods=["POST"])]


def work(text: str, out: Any) -> int:
    """The worker: review the record of ``text`` (JSON: record, seat, worlds); write lines to ``out``."""
    started = time.process_time()
    try:
        doc = json.loads(text)
        record = Record.from_dict(doc["record"])
        steps = [0]

        def progress(done: int, total: int) -> None:
            steps[0] = total
            print(f"progress {done} {total}", file=out, flush=True)

        review = review_record(record, doc["seat"], worlds=doc["worlds"], seed=0, progress=progress)
    except (RecordError, ReviewError, KeyError, ValueError) as exc:
        print(f"error {exc}", file=out, flush=True)
        return 1
    answer = {
        # (without the sampling's seed: always 0 here, and no word named "seed" leaves a table)
        "review": {k: v for k, v in review.to_dict().items() if k != "seed"},
        "worst": [d.to_dict() for d in _clear_first(review, WORST)],
        "total": steps[0],
        "cpu_s": round(time.process_time() - started, 2),
    }
    print("review " + json.dumps(answer), file=out, flush=True)
    return 0


if __name__ == "__main__":  # the worker process: python -m unotable.server.review < request.json
    with contextlib.suppress(OSError):
        os.nice(10)  # the tables' writers come first
    sys.exit(work(sys.stdin.read(), sys.stdout))
