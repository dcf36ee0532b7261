"""The protocol's vocabulary, checked where clients and the engine meet it.

- client messages are validated strictly: a JSON string, boolean or float is no integer
  (``"seq": "12"``, ``"seat": true``, ``"seat": 2.0``, the host's ``"seats": "4"`` are ``malformed``);
- every engine error code (``UnoError.code``) maps to one wire ``ErrorCode``, and the engine's codes
  that the wire shares keep their meaning;
- the close codes and reconnect reasons that the browser page and the terminal read are the
  protocol's own (read out of net.js and tui/online.py), and the schema file lists them;
- names and chat lines: a control character or a line separator is refused (``invalid``), spaces
  are folded and trimmed (what is stored is what the other clients receive);
- the option lists a page offers come from the engine (``GET /api/options``' document).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from unotable.bots.registry import BOT_NAMES
from unotable.errors import ERROR_CODES
from unotable.rules import PRESET_NAMES, Ruleset
from unotable.server.ids import new_token
from unotable.server.options import options
from unotable.server.protocol import (
    CloseCode,
    ErrorCode,
    ProtocolError,
    ReconnectReason,
    full_schema,
    parse_client,
)
from unotable.server.table import Role, TableActor, TableSettings, new_table_doc

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "text",
    [
        '{"type": "act", "action": "draw", "seq": "12"}',
        '{"type": "act", "action": "draw", "seq": true}',
        '{"type": "act", "action": "draw", "seq": 12.0}',
        '{"type": "sit", "seat": "1", "name": "Ann"}',
        '{"type": "sit", "seat": 2.0, "name": "Ann"}',
        '{"type": "sit", "seat": true, "name": "Ann"}',
        '{"type": "settings", "seats": "4"}',
        '{"type": "settings", "seats": 4.0}',
        '{"type": "hello", "last_seq": "3"}',
        '{"type": "kick", "seat": false}',
        '{"type": "add_bot", "seat": 1, "level": 3}',
        '{"type": "chat", "text": 5}',
    ],
)
def test_client_messages_are_validated_strictly(text: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client(text)
    assert caught.value.code is ErrorCode.MALFORMED, caught.value


def test_well_typed_messages_still_parse() -> None:
    assert parse_client('{"type": "sit", "seat": 1, "name": "Ann"}').seat == 1  # type: ignore[union-attr]
    text = '{"type": "settings", "seats": 4, "turn_seconds": 30, "options": {"jump_in": true}}'
    settings = parse_client(text)
    assert settings.turn_seconds == 30.0  # type: ignore[union-attr]


def test_every_engine_code_has_one_wire_code() -> None:
    wire = {c.value for c in ErrorCode}
    for code in ERROR_CODES:
        mapped = ErrorCode.of_engine(code)
        assert mapped in ErrorCode
        if code in wire:  # the codes both speak mean the same
            assert mapped.value == code
        else:
            assert mapped is ErrorCode.INVALID
    assert {"illegal", "not_your_turn", "invalid"} <= set(ERROR_CODES)


def _frozen(source: str, name: str) -> str:
    """The body of ``export const NAME = Object.freeze({...})`` in a JS module."""
    found = re.search(rf"{name} = Object.freeze\(\{{(.*?)\}}", source)
    assert found is not None, f"net.js declares no {name}"
    return found.group(1)


def test_the_clients_read_the_protocols_codes() -> None:
    net = (ROOT / "unotable" / "server" / "web" / "net.js").read_text(encoding="utf-8")
    close = dict(re.findall(r"(\w+): (\d+)", _frozen(net, "CLOSE")))
    assert {k: int(v) for k, v in close.items()} == {
        "TAKEN_OVER": CloseCode.TAKEN_OVER, "NO_TABLE": CloseCode.NO_TABLE
    }
    reasons = dict(re.findall(r'(\w+): "(\w+)"', _frozen(net, "RECONNECT")))
    assert reasons == {r.name: r.value for r in ReconnectReason}
    assert "another connection" not in net and "4001" not in net.replace("TAKEN_OVER: 4001", "")
    import importlib.util

    if importlib.util.find_spec("unotable.client.codes") is not None:  # the protocol client's copy
        from unotable.client import codes

        assert {c.name: int(c) for c in codes.CloseCode} == {c.name: int(c) for c in CloseCode}
        assert {r.name: r.value for r in codes.ReconnectReason} == {r.name: r.value for r in ReconnectReason}
    else:  # (before the terminal's client moved into unotable.client)
        from unotable.tui import online

        assert online.CLOSE_TAKEN_OVER == CloseCode.TAKEN_OVER and online.CLOSE_NO_TABLE == CloseCode.NO_TABLE
        assert getattr(online, "REASON_TAKEN_OVER") == ReconnectReason.TAKEN_OVER  # noqa: B009
    schema = json.loads((ROOT / "docs" / "protocol.schema.json").read_text())
    assert schema == full_schema()
    assert [c["const"] for c in schema["codes"]["CloseCode"]["oneOf"]] == [int(c) for c in CloseCode]
    assert schema["codes"]["ReconnectReason"]["enum"] == [r.value for r in ReconnectReason]


def _actor() -> TableActor:
    return TableActor("t" * 16, new_table_doc(TableSettings(seats=3), new_token()))


BAD_TEXT = ["A\nB", "A\rB", "A\tB", "A\u0085B", "A\u2028B", "A\u2029B", "A\u0007", "A\x7f"]


@pytest.mark.parametrize("bad", BAD_TEXT)
def test_control_characters_and_line_breaks_are_refused_in_names_and_chat(bad: str) -> None:
    actor = _actor()
    with pytest.raises(ProtocolError) as caught:
        actor.decide(Role(), parse_client(json.dumps({"type": "sit", "seat": 0, "name": bad})), 0.0)
    assert caught.value.code is ErrorCode.INVALID and "control character" in caught.value.message
    with pytest.raises(ProtocolError) as caught:
        actor.decide(Role(None, True), parse_client(json.dumps({"type": "chat", "text": bad})), 0.0)
    assert caught.value.code is ErrorCode.INVALID
    assert actor.seq == 0


def test_spaces_are_folded_and_trimmed_and_that_is_what_is_stored() -> None:
    actor = _actor()
    decision = actor.decide(Role(), parse_client('{"type": "sit", "seat": 0, "name": "  Ann   Bo "}'), 0.0)
    assert decision is not None
    actor.apply(decision.entry, 0.0)
    assert actor.info(0.0).seats[0].name == "Ann Bo"


def test_add_bot_on_a_persons_seat_is_refused_as_sit_is() -> None:
    actor = _actor()
    decision = actor.decide(Role(), parse_client('{"type": "sit", "seat": 0, "name": "Ann"}'), 0.0)
    assert decision is not None
    actor.apply(decision.entry, 0.0)
    codes = []
    sit = '{"type": "sit", "seat": 0, "name": "Bo"}'
    for text in (sit, '{"type": "add_bot", "seat": 0, "level": "random"}'):
        with pytest.raises(ProtocolError) as caught:
            actor.decide(Role(None, True), parse_client(text), 0.0)
        codes.append(caught.value.code)
    assert codes == [ErrorCode.FORBIDDEN, ErrorCode.FORBIDDEN]


def test_the_offered_options_come_from_the_engine() -> None:
    doc = options()
    assert [p["name"] for p in doc["presets"]] == list(PRESET_NAMES)
    assert doc["bot_levels"] == list(BOT_NAMES)
    for preset in doc["presets"]:
        rules = Ruleset.preset(preset["name"])
        assert Ruleset.from_dict(preset["values"]) == rules
        assert preset["seats"] == list(rules.seat_counts)
    official = Ruleset.preset("official").to_dict()
    assert set(doc["options"]) == set(official)
    for name, spec in doc["options"].items():
        if spec["kind"] == "choice":
            assert official[name] in spec["values"]
            for value in spec["values"]:  # every value offered makes a ruleset (on some deck)
                assert isinstance(value, str)
        elif spec["kind"] == "bool":
            assert isinstance(official[name], bool)
        else:
            assert isinstance(official[name], int)
    json.dumps(doc)  # JSON-ready
