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
from dataclasses import dataclass
from typing import Any

from unotable.actions import Deal
from unotable.errors import RecordError
from unotable.record import Record, position_digest, replay

__all__ = [
    "RECIPE", "Verified", "VerifyError", "commitment", "new_salt", "verify", "verify_text", "with_proof"
]

RECIPE = "unotable-deal-v1"
"""The name of the commitment recipe (the first bytes hashed, and the record's ``recipe``)."""

_HEX = re.compile(r"[0-9a-f]{64}")


class VerifyError(RecordError):
    """A record that does not verify: no reveal, a wrong seed or salt, or actions that were changed."""


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
class Verified:
    """What a record that verifies holds: its commitment, seed, deals and actions."""

    commitment: str
    seed: int
    deals: int
    actions: int

    def summary(self) -> str:
        return (
            f"verified: seed {self.seed} matches the commitment {self.commitment}; "
            f"{self.deals} deal(s) and {self.actions} action(s) replay to the recorded final position"
        )


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
    if commitment(seed, salt) != proof["digest"]:
        raise VerifyError("the revealed seed and salt do not give the published commitment")
    try:
        record = Record.from_dict(doc)
    except RecordError as exc:
        raise VerifyError(f"the record does not read: {exc}") from None
    if record.seed != seed:
        raise VerifyError(
            f"the revealed seed ({seed}) is not the seed the record was dealt from ({record.seed})"
        )
    if record.digest is None:
        raise VerifyError("the record has no digest of its final position to check the replay against")
    try:
        game = replay(record, events=False)
    except RecordError as exc:
        raise VerifyError(f"the record does not replay from its seed: {exc}") from None
    if position_digest(game.to_position()) != record.digest:
        raise VerifyError("the actions do not reach the recorded final position: the record was changed")
    deals = 1 + sum(1 for _, action in record.actions if isinstance(action, Deal))
    return Verified(proof["digest"], seed, deals, len(record.actions))


def verify_text(text: str) -> Verified:
    """:func:`verify` of a record's JSON text."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise VerifyError(f"the record is not JSON: {exc}") from None
    return verify(doc)
