"""Deals anyone can verify: the seed commitment of an online match, and the check of its record.

When an online match starts, the server draws its seed and a random *salt* (32 bytes) and
publishes only the *commitment*, :func:`commitment` of the two; the seed and the salt stay
secret while the match is played. When the match is over it reveals both, and the match's record
carries the commitment and the reveal (:func:`with_proof`). :func:`verify` then checks, with
nothing but the record, that the revealed seed and salt give the published commitment, that the
record was dealt from that seed, and that every deal and action of the record replays to the
record's final position (its ``digest``).

The commitment's exact bytes (``RECIPE``): SHA-256 over the ASCII text ``unotable-deal-v1``, a
line feed (0x0A), the seed in decimal ASCII digits (no sign, no leading zero), a line feed, then
the salt's 32 raw bytes (the salt is written as 64 lowercase hexadecimal digits); the commitment
is written ``sha256:`` followed by the digest's 64 lowercase hexadecimal digits.

>>> salt = "00" * 32
>>> commitment(7, salt) == "sha256:" + __import__("hashlib").sha256(
...     b"unotable-deal-v1\\n7\\n" + bytes(32)).hexdigest()
True
>>> from unotable.game import Game
>>> from unotable.record import Record
>>> g = Game.new(seats=2, seed=9)
>>> _ = g.play(g.legal_actions[0])
>>> doc = with_proof(Record.from_game(g).to_dict(), commitment(9, salt), 9, salt)
>>> verify(doc).actions
1
>>> verify({**doc, "reveal": {"seed": 10, "salt": salt}})
Traceback (most recent call last):
...
unotable.verify.VerifyError: the revealed seed and salt do not give the published commitment
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from unotable.actions import Deal
from unotable.errors import RecordError, UnoError
from unotable.events import FirstCard, RoundEnded, RoundStarted
from unotable.game import Game
from unotable.record import Record, position_digest, replay
from unotable.version import RULES_VERSION

__all__ = [
    "CHECKS", "RECIPE", "RoundCheck", "Verified", "VerifyError", "commitment", "new_salt", "record_url",
    "verify", "verify_text", "with_proof",
]

RECIPE = "unotable-deal-v1"
"""The name of the commitment recipe (the first bytes hashed, and the record's ``recipe``)."""

_HEX = re.compile(r"[0-9a-f]{64}")


CHECKS = ("record", "commitment", "seed", "deals", "final")
"""What :func:`verify` checks, in order: the record reads and carries a commitment and its reveal;
the revealed seed and salt give the commitment published during play; the record was dealt from
that seed; each round's deal, recomputed from the seed, replays with every action; the replay
reaches the record's final position. A :class:`VerifyError` names the one that failed."""


class VerifyError(RecordError):
    """A record that does not verify: no reveal, a wrong seed or salt, or actions that were changed.

    ``check`` is the check that failed (one of :data:`CHECKS`), ``round_no`` the round whose deal
    or actions did not replay, when that is what failed."""

    def __init__(self, message: str, check: str = "record", round_no: int | None = None) -> None:
        super().__init__(message)
        self.check = check
        self.round_no = round_no


def new_salt() -> str:
    """A fresh random salt: 32 bytes from :mod:`secrets`, as 64 hexadecimal digits.

    >>> len(new_salt()), new_salt() != new_salt()
    (64, True)
    """
    return secrets.token_hex(32)


def commitment(seed: int, salt: str) -> str:
    """The commitment to ``seed`` under ``salt`` (the module's recipe), as ``sha256:HEX``.

    >>> commitment(1, "ab" * 32) != commitment(2, "ab" * 32)
    True
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise VerifyError(f"a seed is an integer >= 0, not {seed!r}")
    if not isinstance(salt, str) or not _HEX.fullmatch(salt):
        raise VerifyError("a salt is 64 lowercase hexadecimal digits (32 bytes)")
    data = RECIPE.encode("ascii") + b"\n" + str(seed).encode("ascii") + b"\n" + bytes.fromhex(salt)
    return "sha256:" + hashlib.sha256(data).hexdigest()


def with_proof(record: Mapping[str, Any], commit: str, seed: int | None, salt: str | None) -> dict[str, Any]:
    """The record document ``record`` with its commitment, and the reveal when ``seed`` and
    ``salt`` are given (a record without a reveal does not verify)."""
    doc = dict(record)
    doc["commitment"] = {"recipe": RECIPE, "digest": commit}
    if seed is not None and salt is not None:
        doc["reveal"] = {"seed": seed, "salt": salt}
    return doc


@dataclass(frozen=True, slots=True)
class RoundCheck:
    """One round's deal, recomputed from the seed and replayed: what anyone at the table saw of it
    (the first card turned up, who won and how many points), to compare with their memory."""

    round_no: int
    first_card: str | None
    actions: int
    winner: int | None
    """The seat that won the round (None: blocked, or the round was not finished)."""
    points: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round_no, "first_card": self.first_card, "actions": self.actions,
                "winner": self.winner, "points": self.points}


@dataclass(frozen=True, slots=True)
class Verified:
    """What a record that verifies holds: its commitment, seed, deals and actions, and each round."""

    commitment: str
    seed: int
    deals: int
    actions: int
    rounds: tuple[RoundCheck, ...] = ()

    def summary(self) -> str:
        lines = [
            f"verified: seed {self.seed} matches the commitment {self.commitment}; "
            f"{self.deals} deal(s) and {self.actions} action(s) replay to the recorded final position"
        ]
        for r in self.rounds:
            won = "blocked" if r.winner is None else f"won by seat {r.winner + 1} ({r.points} points)"
            if r.points is None:
                won = "not finished"
            first = r.first_card or "-"
            lines.append(f"  round {r.round_no}: first card {first}, {r.actions} action(s), {won}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {"commitment": self.commitment, "seed": self.seed, "deals": self.deals,
                "actions": self.actions, "rounds": [r.to_dict() for r in self.rounds]}


def verify(doc: Any) -> Verified:
    """Check a record document (a dict read from its JSON); :class:`VerifyError` says what fails."""
    if not isinstance(doc, Mapping):
        raise VerifyError(f"a record is a JSON object, not {type(doc).__name__}")
    proof = doc.get("commitment")
    if not isinstance(proof, Mapping) or not isinstance(proof.get("digest"), str):
        raise VerifyError("the record carries no seed commitment (it was not made by an online table)")
    if proof.get("recipe") != RECIPE:
        raise VerifyError(f"unknown commitment recipe {proof.get('recipe')!r} (this checks {RECIPE})")
    reveal = doc.get("reveal")
    if not isinstance(reveal, Mapping) or "seed" not in reveal or "salt" not in reveal:
        raise VerifyError("the record has no reveal of its seed and salt (was the match over?)")
    seed, salt = reveal["seed"], reveal["salt"]
    try:
        made = commitment(seed, salt)
    except VerifyError as exc:
        raise VerifyError(str(exc), "commitment") from None
    if made != proof["digest"]:
        raise VerifyError("the revealed seed and salt do not give the published commitment", "commitment")
    try:
        record = Record.from_dict(doc)
    except RecordError as exc:
        raise VerifyError(f"the record does not read: {exc}") from None
    if record.seed != seed:
        raise VerifyError(
            f"the revealed seed ({seed}) is not the seed the record was dealt from ({record.seed})", "seed"
        )
    if record.digest is None:
        raise VerifyError("the record has no digest of its final position to check the replay against")
    game = _replay(record)
    if position_digest(game.to_position()) != record.digest:
        raise VerifyError(
            "the actions do not reach the recorded final position: the record was changed", "final"
        )
    deals = 1 + sum(1 for _, action in record.actions if isinstance(action, Deal))
    return Verified(proof["digest"], seed, deals, len(record.actions), _rounds(game, record))


def _replay(record: Record) -> Game:
    """The record replayed from its seed, action by action: a failure names its round."""
    if record.rules_version != RULES_VERSION:  # replay() checks another version's record whole
        try:
            return replay(record)
        except RecordError as exc:
            raise VerifyError(f"the record does not replay from its seed: {exc}", "deals") from None
    try:
        game = replay(replace(record, actions=(), digest=None))
    except RecordError as exc:
        raise VerifyError(f"the record does not replay from its seed: {exc}", "deals", 1) from None
    round_no = 1
    for i, (seat, action) in enumerate(record.actions):
        try:
            game.play(action, seat)
        except UnoError as exc:
            why = (f"the record does not replay from its seed: round {round_no}, "
                   f"action {i} ({seat}, {action}): {exc}")
            raise VerifyError(why, "deals", round_no) from None
        if isinstance(action, Deal):
            round_no += 1
    return game


def _rounds(game: Game, record: Record) -> tuple[RoundCheck, ...]:
    """Each round of the replayed ``game``: its first card, its actions, its winner and points."""
    counts = [0]
    for _, action in record.actions:
        if isinstance(action, Deal):
            counts.append(0)
        else:
            counts[-1] += 1
    rounds: list[dict[str, Any]] = []
    for event in game.events:
        if isinstance(event, RoundStarted):
            rounds.append({"round_no": event.round_no, "first_card": None, "winner": None, "points": None})
        elif isinstance(event, FirstCard) and rounds and not event.returned:
            rounds[-1]["first_card"] = str(event.card)
        elif isinstance(event, RoundEnded) and rounds:
            rounds[-1]["winner"], rounds[-1]["points"] = event.winner, event.points
    return tuple(
        RoundCheck(r["round_no"], r["first_card"], counts[i] if i < len(counts) else 0, r["winner"],
                   r["points"])
        for i, r in enumerate(rounds)
    )


def verify_text(text: str) -> Verified:
    """:func:`verify` of a record's JSON text."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise VerifyError(f"the record is not JSON: {exc}") from None
    return verify(doc)


_TABLE_PATH = re.compile(r"/t/([A-Za-z0-9_-]+)(?:/(?:record|verify)?)?/?")


def record_url(url: str) -> str:
    """The address of a match's record from a link to its table, its verify page or its record
    (``?match=N`` kept): what ``python3 -m unotable verify URL`` downloads.

    >>> record_url("https://uno.example/t/Ab3_x")
    'https://uno.example/t/Ab3_x/record'
    >>> record_url("http://192.168.1.5:8000/t/Ab3_x/verify?match=2")
    'http://192.168.1.5:8000/t/Ab3_x/record?match=2'
    >>> record_url("https://uno.example/rules")
    Traceback (most recent call last):
    ...
    unotable.verify.VerifyError: https://uno.example/rules is not the address of a table (…/t/TABLE)
    """
    parts = urlsplit(url)
    found = _TABLE_PATH.fullmatch(parts.path)
    if parts.scheme not in ("http", "https") or not parts.netloc or found is None:
        raise VerifyError(f"{url} is not the address of a table (…/t/TABLE)")
    match = [q for q in parts.query.split("&") if q.startswith("match=")]
    return urlunsplit((parts.scheme, parts.netloc, f"/t/{found[1]}/record", "&".join(match), ""))
