"""The test clients' check of every frame the server sends: one of the declared server messages.

Every websocket client of the server tests (harness.py's ``Client``, the cluster's, the finished
tables') reads its frames through :func:`check_frame`, so a frame that is not text, not JSON, or not
one of ``protocol.ServerMessage`` (a missing or surplus field, a wrong type, an unknown code) fails
the test that received it.

>>> check_frame('{"type": "pong", "seq": 3}')
{'type': 'pong', 'seq': 3}
>>> check_frame('{"type": "pong", "seq": "3"}')
Traceback (most recent call last):
...
AssertionError: not a declared server message: ...
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import TypeAdapter, ValidationError

from unotable.server.protocol import ServerMessage

_SERVER: TypeAdapter[Any] = TypeAdapter(ServerMessage)


def check_frame(raw: str | bytes) -> dict[str, Any]:
    """The frame ``raw`` as a dict, once it is checked to be a declared server message."""
    assert isinstance(raw, str), f"the server sends text frames only, not {raw!r:.80}"
    try:
        _SERVER.validate_json(raw, strict=True)
    except ValidationError as exc:
        raise AssertionError(f"not a declared server message: {exc}; frame: {raw[:300]}") from None
    msg: dict[str, Any] = json.loads(raw)
    return msg
