"""The match summary's "Review this match" (unotable/server/review.py) against a real server.

Two scripted people play a one-round heads-up match over real websockets; then each asks, with its
own seat token, for the review of its decisions: answered ``202`` with the progress while a worker
process computes it, ``200`` with the review once done, at once on a second request and after the
server restarts (the review is kept with the table in the data directory). A live match, a
spectator (no token), the host token, the other table's token and malformed requests are refused
with coded errors; an answer holds only the asking seat's hand at each decision.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import ServerProc, ahttp, http, play_person, seat_people
from leak_scan import fetch_record, keys_in

from unotable.game import Game
from unotable.server.review import MAX_WORLDS, MIN_WORLDS

WORLDS = MIN_WORLDS


def review(server: ServerProc, table: str, body: Any) -> tuple[int, Any]:
    return http("POST", f"{server.url}/t/{table}/review", body)


def until_done(server: ServerProc, table: str, token: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Ask until the review is done: its answer, and every answer before it (the progress)."""
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        status, body = review(server, table, {"token": token, "worlds": WORLDS})
        assert http("GET", f"{server.url}/healthz")[0] == 200  # the server serves on meanwhile
        if status == 200:
            return body, seen
        assert status == 202, (status, body)
        assert body["status"] in ("queued", "running") and 0 <= body["done"] <= max(body["total"], 0), body
        if body["status"] == "running":  # how long it has run, and the time left once measured
            assert body["elapsed_s"] >= 0 and (body["eta_s"] is None or body["eta_s"] >= 0), body
        seen.append(body)
        time.sleep(0.1)
    raise AssertionError(f"the review is not done after 120 s: {seen[-3:]}")


def test_a_seat_reviews_its_own_finished_match_and_nobody_else_may(tmp_path: Path) -> None:
    server = ServerProc(f"sqlite:///{tmp_path / 'unotable.db'}", tmp_path)
    server.start()
    try:
        table, tokens, answers = _play_and_review(server)
        server.stop()
        server.start()  # the same data directory: the kept review answers at once
        for seat in (0, 1):
            status, body = review(server, table, {"token": tokens[seat], "worlds": WORLDS})
            assert status == 200 and body == answers[seat], (seat, status, body)
    finally:
        server.stop()


def _play_and_review(server: ServerProc) -> tuple[str, dict[int, str], dict[int, Any]]:
    async def play() -> tuple[str, dict[int, str], str]:
        match = await seat_people(server, "official", humans=(0, 1), seats=2, bots=[None, None],
                                  options={"scoring": "none"})
        tokens = {s: c.token for s, c in match.humans.items()}
        assert all(tokens.values())
        # while the match is played its record and seed are secret: no review
        status, body = await ahttp("POST", f"{server.url}/t/{match.table}/review", {"token": tokens[0]})
        assert (status, body["code"]) == (409, "forbidden"), body
        rng = random.Random(5)
        await asyncio.gather(*(play_person(c, rng) for c in match.humans.values()))
        return match.table, {s: t for s, t in tokens.items() if t}, match.host_token

    table, tokens, host = asyncio.run(play())
    other = asyncio.run(_another_table(server))

    # refusals, each coded
    refused = [
        ({}, 403, "forbidden"),  # a spectator: no token
        ({"token": host}, 403, "forbidden"),  # the host token is not a seat's
        ({"token": other}, 403, "forbidden"),  # a seat of another table
        ({"token": "x" * 30}, 403, "forbidden"),
        ({"token": tokens[0], "worlds": MAX_WORLDS + 1}, 400, "invalid"),
        ({"token": tokens[0], "worlds": "many"}, 400, "invalid"),
        ({"token": tokens[0], "match": 2}, 404, "invalid"),
        ({"token": tokens[0], "match": 0}, 400, "invalid"),
        ({"token": tokens[0], "secret": 1}, 400, "malformed"),
        ([tokens[0]], 400, "malformed"),
    ]
    for body, status, code in refused:
        got, answer = review(server, table, body)
        assert (got, answer.get("code")) == (status, code), (body, got, answer)
        assert tokens[0] not in str(answer) and tokens[1] not in str(answer)
    got, answer = http("POST", f"{server.url}/t/{table}/review", raw=b"{not json")
    assert (got, answer["code"]) == (400, "malformed")
    got, answer = review(server, "nosuchtable", {"token": tokens[0]})
    assert (got, answer["code"]) == (404, "invalid")

    record = fetch_record(server, table)
    # one review at a time per seat: another number of worlds waits for the first
    status, started = review(server, table, {"token": tokens[0], "worlds": WORLDS})
    assert status == 202 and started["status"] in ("queued", "running"), started
    status, answer = review(server, table, {"token": tokens[0], "worlds": WORLDS + 5})
    assert (status, answer["code"]) == (429, "rate_limited"), answer
    answers = {}
    for seat in (0, 1):
        first, seen = until_done(server, table, tokens[seat])
        # it was computed in the background: the first answer was the progress
        assert seat == 0 or (seen and seen[0]["status"] in ("queued", "running")), seen
        assert first["status"] == "done" and first["seat"] == seat and first["worlds"] == WORLDS
        assert first["done"] == first["total"] > 0
        decisions = first["review"]["decisions"]
        assert first["review"]["seat"] == seat and decisions
        # only that seat's own hand at each decision (its views of the record), nothing secret
        game = Game.new(record.seats, record.ruleset, record.seed)
        hands = {}
        for i, (s, action) in enumerate(record.actions):
            hands[i] = [str(c) for c in game.view(seat).hand]
            game.play(action, s)
        for d in decisions:
            assert d["hand"] == hands[d["index"]], d
            assert record.actions[d["index"]][0] == seat
            assert d["played"] == str(record.actions[d["index"]][1])
            assert d["cost"] >= 0 and d["best"] == d["chances"][0][0]
        # the costliest: those out of the noise first, each part costliest first, with its turn
        worst = first["worst"]
        clear = [d["cost"] >= 2 * d["stderr"] for d in worst]
        assert clear == sorted(clear, reverse=True), worst
        for part in (True, False):
            costs = [d["cost"] for d, c in zip(worst, clear, strict=True) if c is part]
            assert costs == sorted(costs, reverse=True)
        assert all(d["cost"] > 0 and d["turn"] >= 1 for d in worst)
        costly = [d for d in decisions if d["cost"] > 0 and d["best"] != d["played"]]
        outside = [d for d in costly if d["cost"] >= 2 * d["stderr"]]
        assert sum(clear) == min(len(outside), len(worst)), (worst, outside)
        assert not keys_in(first) & {"hands", "draw_pile", "draw", "seed", "rng", "token"}
        # asked again: the same answer, at once
        again = review(server, table, {"token": tokens[seat], "worlds": WORLDS})
        assert again == (200, first)
        answers[seat] = first
    assert answers[0]["review"]["decisions"] != answers[1]["review"]["decisions"]
    return table, tokens, answers


async def _another_table(server: ServerProc) -> str:
    match = await seat_people(server, "official", humans=(0,), seats=2, bots=[None, "random"],
                              spectator=False, start=False)
    token = match.humans[0].token
    assert token
    return token
