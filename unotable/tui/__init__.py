"""Terminal play against bots, and the replay printer.

The terminal client renders views and events only (ARCHITECTURE principle 5): the human's screen
is built from ``game.view(seat)`` and the events that seat may see, never from other hands.

- :mod:`unotable.tui.render`: cards in ANSI color (off with ``NO_COLOR`` or a non-terminal),
  one readable line per event, the table.
- :mod:`unotable.tui.commands`: what the human types, read into actions.
- :mod:`unotable.tui.explain`: why an action was refused, in a player's words.
- :mod:`unotable.tui.records`: the records of every match, kept in the user's data directory.
- :mod:`unotable.tui.driver`: the bots around the table, their turns and out-of-turn reactions.
- :mod:`unotable.tui.play`: the ``unotable play`` loop.
- :mod:`unotable.tui.replay`: ``unotable replay RECORD.json``.
"""
