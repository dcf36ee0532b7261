"""unotable.verify and ``unotable verify``: a record with its seed commitment and reveal verifies;
each kind of tampering (the seed, the salt, the commitment, an action, the final position, a
missing reveal) fails with its own message, and the command exits non-zero with it."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from unotable.cli import main
from unotable.game import Game
from unotable.phase import Phase
from unotable.record import Record
from unotable.rules import Ruleset
from unotable.verify import RECIPE, VerifyError, commitment, new_salt, verify, verify_text, with_proof

SEED = 4242
SALT = "5a" * 32


def whole_match(seed: int = SEED) -> Game:
    """A short match played to its end by random legal actions (several deals)."""
    game = Game.new(3, Ruleset.preset("official").replace(target_score=300), seed)
    rng = random.Random(seed)
    while not game.is_over():
        if game.phase is Phase.ROUND_OVER:
            game.next_round()
            continue
        seat = game.active_seat
        game.play(rng.choice(list(game.legal_actions_for(seat))), seat)
    return game


@pytest.fixture(scope="module")
def good() -> dict[str, Any]:
    game = whole_match()
    return with_proof(Record.from_game(game).to_dict(), commitment(SEED, SALT), SEED, SALT)


def test_the_recipe_is_the_documented_bytes() -> None:
    expected = hashlib.sha256(b"unotable-deal-v1\n" + b"4242\n" + bytes.fromhex(SALT)).hexdigest()
    assert commitment(SEED, SALT) == "sha256:" + expected
    assert commitment(SEED + 1, SALT) != commitment(SEED, SALT)
    assert commitment(SEED, "5b" + SALT[2:]) != commitment(SEED, SALT)
    salt = new_salt()
    assert len(salt) == 64 and int(salt, 16) >= 0 and salt != new_salt()


def test_a_good_record_verifies_every_deal(good: dict[str, Any]) -> None:
    result = verify(good)
    deals = sum(1 for _, a in good["actions"] if a == "deal") + 1
    assert deals >= 2  # the match took more than one round: every deal is checked
    assert (result.seed, result.deals, result.actions) == (SEED, deals, len(good["actions"]))
    assert result.commitment == good["commitment"]["digest"] and good["commitment"]["recipe"] == RECIPE
    assert "verified" in result.summary()
    assert verify_text(json.dumps(good)) == result


def _tampered(good: dict[str, Any], what: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(json.dumps(good))
    if what == "seed in the start":
        doc["start"] = {"seed": SEED + 1}
    elif what == "seed everywhere":
        doc["start"] = {"seed": SEED + 1}
        doc["reveal"]["seed"] = SEED + 1
    elif what == "salt":
        doc["reveal"]["salt"] = "00" * 32
    elif what == "commitment":
        doc["commitment"]["digest"] = commitment(SEED + 1, SALT)
    elif what == "no reveal":
        del doc["reveal"]
    elif what == "no commitment":
        del doc["commitment"]
    elif what == "an action cut":
        doc["actions"] = doc["actions"][:-1]
    elif what == "an action changed":  # another seat's play
        i = next(i for i, (seat, a) in enumerate(doc["actions"]) if seat is not None and a != "draw")
        doc["actions"][i][0] = (doc["actions"][i][0] + 1) % doc["seats"]
    elif what == "the final position":
        doc["digest"] = "sha256:" + "0" * 64
    elif what == "a bad salt":
        doc["reveal"]["salt"] = "not hex"
    return doc


@pytest.mark.parametrize(
    ("what", "message"),
    [
        ("seed in the start", "is not the seed the record was dealt from"),
        ("seed everywhere", "do not give the published commitment"),
        ("salt", "do not give the published commitment"),
        ("commitment", "do not give the published commitment"),
        ("no reveal", "has no reveal of its seed and salt"),
        ("no commitment", "carries no seed commitment"),
        ("an action cut", "do not reach the recorded final position"),
        ("an action changed", "does not replay from its seed"),
        ("the final position", "do not reach the recorded final position"),
        ("a bad salt", "64 lowercase hexadecimal digits"),
    ],
)
def test_each_tampering_fails_with_its_message(good: dict[str, Any], what: str, message: str) -> None:
    with pytest.raises(VerifyError, match=message):
        verify(_tampered(good, what))


def test_not_a_record_fails() -> None:
    with pytest.raises(VerifyError, match="not JSON"):
        verify_text("{")
    with pytest.raises(VerifyError, match="JSON object"):
        verify([])
    doc = {"commitment": {"recipe": "other", "digest": "sha256:x"}}
    with pytest.raises(VerifyError, match="unknown commitment recipe"):
        verify(doc)
    doc = with_proof({}, commitment(1, SALT), 1, SALT)
    with pytest.raises(VerifyError, match="does not read"):
        verify(doc)


def test_the_command_verifies_and_fails_with_a_clear_message(
    good: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "unotable-t.json"
    path.write_text(json.dumps(good), encoding="utf-8")
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("verified: seed 4242 matches the commitment sha256:")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_tampered(good, "salt")), encoding="utf-8")
    assert main(["verify", str(bad)]) == 1
    err = capsys.readouterr().err
    why = "the revealed seed and salt do not give the published commitment"
    assert err == f"unotable verify: error: {bad}: {why}\n"
    assert main(["verify", str(tmp_path / "missing.json")]) == 1
    assert "cannot read" in capsys.readouterr().err
