"""A client of the online tables' protocol, for any program (the terminal's ``unotable join`` is one).

- :mod:`unotable.client.links`: a table's link (:class:`TableUrl`), the token store, creating a
  table over HTTP;
- :mod:`unotable.client.codes`: the close codes and reconnect reasons, read as numbers and codes,
  never as prose;
- :mod:`unotable.client.connection`: one connection that says hello, resumes from the last
  sequence number it saw and reconnects with back-off; the frames decoded into the engine's own
  values (views, events, the table) by the engine's ``from_dict``.

It needs ``websockets`` (in the ``server`` and ``dev`` extras), never the server package: pydantic
is the server's. Its layer is above the engine and below the terminal (tests/test_layers.py).

>>> parse_table_url("https://uno.example/t/XYZ/").ws
'wss://uno.example/ws/XYZ'
>>> CloseCode(4001).name
'TAKEN_OVER'
"""
from __future__ import annotations

from unotable.client.codes import CloseCode, ReconnectReason
from unotable.client.links import ClientError, TableUrl, TokenStore, create_table, data_dir, parse_table_url

__all__ = ["ClientError", "CloseCode", "ReconnectReason", "TableUrl", "TokenStore", "create_table",
           "data_dir", "parse_table_url"]
