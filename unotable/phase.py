"""What the engine awaits now, and why it awaits a colour: the public home of the engine's enums.

:class:`Phase` and :class:`ColorReason` are read by views, bots, the server, the terminal and the
RL environment; they live here so that none of those reaches into the internal
:mod:`unotable.state` for them. (:class:`~unotable.results.MatchEndReason` lives in
:mod:`unotable.results`.)

>>> Phase.PLAY_DRAWN.name, ColorReason.ROULETTE.label
('PLAY_DRAWN', 'roulette')
"""
from __future__ import annotations

from enum import IntEnum

__all__ = ["ColorReason", "Phase"]


class Phase(IntEnum):
    """What the engine awaits now."""

    PLAY = 0
    """The active seat plays a card or draws."""
    PLAY_DRAWN = 1
    """The active seat drew a playable card: it plays that card or passes."""
    CHOOSE_COLOR = 2
    """The active seat names the current color (first-card wild, Color Roulette)."""
    RESPOND = 3
    """The active seat is the victim of a pending penalty: it accepts or responds."""
    ROUND_OVER = 4
    """The round has ended; the match goes on with the next deal."""
    MATCH_OVER = 5
    """The match has a winner."""


class ColorReason(IntEnum):
    """Why the engine awaits a color (``State.color_reason``, in phase CHOOSE_COLOR)."""

    FIRST_CARD = 0
    """A first-card wild: the first player names the color (SET-11)."""
    ROULETTE = 1
    """A Wild Color Roulette: the next seat names a color and turns cards (NM-11)."""
    ROULETTE_LAST = 2
    """The same, when the Roulette was its player's last card (CL-END-7)."""

    @property
    def label(self) -> str:
        """The name written in positions and views: ``first_card``, ``roulette``, ``roulette_last``."""
        return self.name.lower()
