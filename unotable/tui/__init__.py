"""The terminal client: play against bots, join an online table, replay a record.

The terminal renders views and events only (docs/explanation/architecture.md, "Hidden information
is removed by construction"): the screen is built from the seat's view (``game.view(seat)`` at a
local table, the server's view of the seat online) and the events that seat may see, never from
other hands.

- :mod:`unotable.tui.render`: cards in ANSI color (off with ``NO_COLOR`` or a non-terminal),
  one readable line per event, the table.
- :mod:`unotable.tui.commands`: what the human types, read into actions.
- :mod:`unotable.tui.dialogue`: the turn dialogue that ``unotable play`` and ``unotable join``
  share (the options line, the color and target prompts).
- :mod:`unotable.tui.explain`: why an action was refused, in a player's words.
- :mod:`unotable.tui.records`: the records of every match, kept in the user's data directory.
- :mod:`unotable.tui.driver`: the bots around a local table, driven by the one arbiter.
- :mod:`unotable.tui.play`: the ``unotable play`` loop.
- :mod:`unotable.tui.online_state`: what the server has told an online session (a pure model).
- :mod:`unotable.tui.online`: ``unotable join URL``, the terminal and the connection around it
  (the protocol client itself is :mod:`unotable.client`).
- :mod:`unotable.tui.replay`: ``unotable replay RECORD.json``.
"""
