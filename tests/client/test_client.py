"""unotable.client: the close codes mirror the server's, links and tokens, back-off, decoding."""
from __future__ import annotations

import importlib.util
import os
import stat
from pathlib import Path

import pytest

from unotable.client import ClientError, CloseCode, ReconnectReason, TokenStore, parse_table_url
from unotable.client.codes import close_code
from unotable.client.connection import backoff, decode_events, decode_table, decode_view, message_seq
from unotable.errors import RecordError
from unotable.game import Game

SERVER = importlib.util.find_spec("pydantic") is not None


@pytest.mark.skipif(not SERVER, reason="the server extra (pydantic) is not installed")
def test_the_codes_are_the_servers_codes() -> None:
    from unotable.server import protocol

    assert {c.name: c.value for c in CloseCode} == {c.name: c.value for c in protocol.CloseCode}
    assert {r.name: r.value for r in ReconnectReason} == {r.name: r.value for r in protocol.ReconnectReason}


def test_a_close_code_is_read_as_a_number() -> None:
    assert close_code(4001) is CloseCode.TAKEN_OVER and close_code(1012) is CloseCode.RESTART
    assert close_code(4999) == 4999 and close_code(None) is None


def test_links_name_the_table_and_bad_ones_are_refused() -> None:
    where = parse_table_url(" https://uno.example/sub/t/Ab_9- ")
    assert (where.base, where.table, where.ws) == ("https://uno.example/sub", "Ab_9-", "wss://uno.example/sub/ws/Ab_9-")
    for bad in ("uno.example/t/x", "http:///t/x", "http://h/x/y", "gopher://h/t/x"):
        with pytest.raises(ClientError, match="is not a table's link"):
            parse_table_url(bad)


def test_tokens_are_kept_per_link_for_their_owner_only(tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "d")
    assert store.get("http://h/t/a") == {}
    store.update("http://h/t/a", token="s1", host_token="h1")
    store.update("http://h/t/b", token="s2")
    store.update("http://h/t/a", host_token=None)
    assert TokenStore(tmp_path / "d").get("http://h/t/a") == {"token": "s1"}
    assert stat.S_IMODE(os.stat(store.path).st_mode) == 0o600
    store.path.write_text("[not json")
    assert store.load() == {}


def test_the_waits_double_up_to_the_longest() -> None:
    waits = [backoff(k, 5.0) for k in range(8)]
    assert waits[:5] == [0.25, 0.5, 1.0, 2.0, 4.0] and waits[5:] == [5.0, 5.0, 5.0]
    assert backoff(10_000, 30.0) == 30.0


def test_frames_decode_into_the_engines_values() -> None:
    g = Game.new(3, "official", 4)
    g.play(g.legal_actions[0])
    table = decode_table(g.table_info(["A", "B", "C"]).to_dict())
    assert table.names == ("A", "B", "C")
    assert decode_view(g.view(1).to_dict(), table) == g.view(1, table)
    assert decode_events([e.to_dict() for e in g.events_for(2)]) == g.events_for(2)
    with pytest.raises(RecordError, match=r"cannot read: view\.seq must be int"):
        decode_view({**g.view(1).to_dict(), "seq": "1"}, table)
    assert message_seq({"seq": 3}) == 3 and message_seq({"seq": True}) is None and message_seq([]) is None
