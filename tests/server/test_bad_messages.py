"""Malformed, oversized, stale, replayed and unauthorised messages, by hand and fuzzed by
Hypothesis: each gets a coded error, the state is unchanged, the connection stays open and the
other clients are still served. On SQLite and PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

from harness import (
    STEP_S,
    TURN_PHASES,
    Client,
    Match,
    ServerProc,
    seat_people,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


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
    "reading",
    "ask_seat",
    "accept_rematch",
    "answer_seat",
]
HOST_ONLY = ["start", "next_round", "rematch", "add_bot", "remove_bot", "kick", "settings", "answer_seat"]

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
        if msg_type == "answer_seat":
            msg.update(ask=1, accept=draw(st.booleans()))
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
