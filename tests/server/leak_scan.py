"""Every frame a seat received, checked against the match's record replayed (NET-5, NET-6).

:func:`replay_views` replays a record and keeps every seat's and the spectator's view at each
event number, each seat's events and the secrets the game went through (seed, RNG words, the deal
commitment's salt); :func:`check_streams` holds each :class:`harness.Stream` to it: every view is
the engine's view of that seat at that point, the events are exactly the seat's and in order, and
nothing carries a secret or a card the seat may not know (errors included).
:func:`finish_and_check` does both for a finished :class:`harness.Match`. test_whole_matches.py's
``test_the_leak_scan_catches_a_leak`` checks the checker.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import dataclass
from typing import Any

from harness import Match, ServerProc, Stream, http, short

from unotable import Card, Game, Record

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
                        f"seat {seat}'s view at event {view['seq']} is not the engine's: {short(msg)}"
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


def missed(rep: Replayed, seat: int, after: int, upto: int) -> list[dict[str, Any]]:
    """The events of ``seat`` after event ``after`` up to ``upto``: what a resume must carry."""
    return [e for e in rep.events[seat] if after < e["seq"] <= upto]
