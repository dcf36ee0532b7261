"""The online tables (the ``server`` extra): ``unotable serve``.

- :mod:`unotable.server.protocol`: the declared messages, error codes, limits and JSON Schema;
- :mod:`unotable.server.table`: the table actor (no sockets, no SQL), a module per concern;
- :mod:`unotable.server.hub`: one writer per table; :mod:`unotable.server.bus`: how hubs reach each
  other, through the contracts of :mod:`unotable.server.ports` (a bus never imports the hub);
- :mod:`unotable.server.app`: the Starlette app, one writer task per table, the websocket endpoint;
- :mod:`unotable.server.store`: SQLite by default, PostgreSQL by URL, numbered migrations;
- :mod:`unotable.server.ids`: table ids and secret tokens;
- :mod:`unotable.server.run`: ``unotable serve`` under uvicorn.
"""
