"""The online tables (the ``server`` extra): ``unotable serve``.

- :mod:`unotable.server.protocol`: the declared messages, error codes, limits and JSON Schema;
- :mod:`unotable.server.table`: the table actor (no sockets, no SQL);
- :mod:`unotable.server.app`: the Starlette app, one writer task per table, the websocket endpoint;
- :mod:`unotable.server.store`: SQLite by default, PostgreSQL by URL, numbered migrations;
- :mod:`unotable.server.ids`: table ids and secret tokens;
- :mod:`unotable.server.run`: ``unotable serve`` under uvicorn.
"""
