"""unotable.verify and ``unotable verify``: a record with its seed commitment and reveal verifies;
each kind of tampering (the seed, the salt, the commitment, an action, the final position, a
missing reveal) fails with its own message, and the command exits non-zero with it."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from unotable.cli import main
from unotable.game import Game
from unotable.phase import Phase
from unotable.record import Record
from unotable.rules import Ruleset
from unotable.verify import (
    CHECKS,
    RECIPE,
    VerifyError,
    commitment,
    new_salt,
    record_url,
    verify,
    verify_text,
    with_proof,
)

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
    ("what", "message", "check"),
    [
        ("seed in the start", "is not the seed the record was dealt from", "seed"),
        ("seed everywhere", "do not give the published commitment", "commitment"),
        ("salt", "do not give the published commitment", "commitment"),
        ("commitment", "do not give the published commitment", "commitment"),
        ("no reveal", "has no reveal of its seed and salt", "record"),
        ("no commitment", "carries no seed commitment", "record"),
        ("an action cut", "do not reach the recorded final position", "final"),
        ("an action changed", "does not replay from its seed: round ", "deals"),
        ("the final position", "do not reach the recorded final position", "final"),
        ("a bad salt", "64 lowercase hexadecimal digits", "commitment"),
    ],
)
def test_each_tampering_fails_with_its_message(
    good: dict[str, Any], what: str, message: str, check: str
) -> None:
    with pytest.raises(VerifyError, match=message) as failed:
        verify(_tampered(good, what))
    assert failed.value.check == check and check in CHECKS


def test_each_round_is_recomputed_and_a_changed_action_names_its_round(good: dict[str, Any]) -> None:
    result = verify(good)
    assert [r.round_no for r in result.rounds] == list(range(1, result.deals + 1))
    assert sum(r.actions for r in result.rounds) + result.deals - 1 == result.actions
    replayed = Game.new(3, Ruleset.preset("official").replace(target_score=300), SEED)
    firsts = []
    for seat, action in Record.from_dict(good).actions:
        if len(firsts) < replayed.round_no:
            firsts.append(str(replayed.discard_pile[0]))
        replayed.play(action, seat)
    assert [r.first_card for r in result.rounds] == firsts
    assert all(r.points is not None and r.points >= 0 for r in result.rounds)
    assert result.to_dict()["rounds"][0] == {
        "round": 1, "first_card": firsts[0], "actions": result.rounds[0].actions,
        "winner": result.rounds[0].winner, "points": result.rounds[0].points,
    }
    # a play moved to another seat in the second round: the check names that round
    doc = json.loads(json.dumps(good))
    second = next(i for i, (_, a) in enumerate(doc["actions"]) if a == "deal") + 1
    i = next(i for i in range(second, len(doc["actions"])) if doc["actions"][i][1] not in ("draw", "deal"))
    doc["actions"][i][0] = (doc["actions"][i][0] + 1) % doc["seats"]
    with pytest.raises(VerifyError, match="round 2, action") as failed:
        verify(doc)
    assert (failed.value.check, failed.value.round_no) == ("deals", 2)


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


ROOT = Path(__file__).resolve().parents[1]


def test_python_m_unotable_verify_works_from_the_source_with_nothing_installed(
    good: dict[str, Any], tmp_path: Path
) -> None:
    """The command the verify page prints, as printed: ``python3 -m unotable verify FILE`` from the
    root of a copy of the source, without site-packages (-S: nothing installed, the standard
    library only); a record that was changed fails with a clear message and exit status 1."""
    path = tmp_path / "unotable-t.json"
    path.write_text(json.dumps(good), encoding="utf-8")
    run = [sys.executable, "-S", "-m", "unotable", "verify"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([*run, str(path)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("verified: seed 4242 matches the commitment sha256:")
    assert "  round 1: first card " in done.stdout and "  round 2: first card " in done.stdout
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_tampered(good, "an action changed")), encoding="utf-8")
    done = subprocess.run([*run, str(bad)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and done.stdout == ""
    why = "the record does not replay from its seed: round "
    assert done.stderr.startswith(f"unotable verify: error: {bad}: {why}")


def test_an_address_names_the_record_to_download(capsys: pytest.CaptureFixture[str]) -> None:
    assert record_url("http://h:8000/t/abc_D-9/") == "http://h:8000/t/abc_D-9/record"
    assert record_url("https://h/t/x/record?match=3&lang=ar") == "https://h/t/x/record?match=3"
    for wrong in ("ftp://h/t/x", "https://h/t/", "https://h/t/x/review", "/t/x"):
        with pytest.raises(VerifyError, match="is not the address of a table"):
            record_url(wrong)
    # nothing listens on port 9 of this machine: a clear refusal, not a traceback
    assert main(["verify", "http://127.0.0.1:9/t/abc"]) == 1
    assert capsys.readouterr().err.startswith(
        "unotable verify: error: cannot download http://127.0.0.1:9/t/abc/record: "
    )
