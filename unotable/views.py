"""What one seat, or a spectator, may know: built from a whitelist of public fields (NET-5, NET-6).

A view is made field by field from what RULES.md NET-5 calls public, plus the seat's own hand and
the card it just drew. Nothing else is copied in, so a new field of the state can never leak by
accident. Views are frozen and serialise to JSON with ``to_dict()``: the server and the RL
environment send them as they are.

>>> from unotable.game import Game
>>> g = Game.new(seats=3, seed=5)
>>> v = g.view(0)
>>> len(v.hand), v.hand_sizes
(7, (7, 7, 7))
>>> sorted(v.to_dict())[:4]
['active', 'awaiting_color_for', 'called', 'current_color']
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from unotable.cards import Card, Color
from unotable.rules import Ruleset
from unotable.state import COLOR_FIRST_CARD, Phase, State

__all__ = ["PlayerView", "SpectatorView", "player_view", "spectator_view"]


def _color(c: int) -> Color | None:
    return None if c < 0 else Color(c)


@dataclass(frozen=True, slots=True)
class SpectatorView:
    """The public table: what every seat and a spectator may see."""

    ruleset: Ruleset
    seats: int
    round_no: int
    dealer: int
    phase: Phase
    active: int
    direction: int
    top_card: Card | None
    current_color: Color | None
    discard_pile: tuple[Card, ...]
    draw_pile_size: int
    hand_sizes: tuple[int, ...]
    pending_penalty: int
    pending_card: Card | None
    top_player: int | None
    in_round: tuple[bool, ...]
    knocked_out: tuple[bool, ...]
    eliminated: tuple[bool, ...]
    called: tuple[bool, ...]
    exposed: tuple[bool, ...]
    scores: tuple[int, ...]
    round_wins: tuple[int, ...]
    awaiting_color_for: str | None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: cards and colors in notation, the ruleset as its options."""
        out: dict[str, Any] = {}
        for name in self.__slots__:
            out[name] = _plain(getattr(self, name))
        return out


@dataclass(frozen=True, slots=True)
class PlayerView(SpectatorView):
    """The public table plus what ``seat`` alone may see: its hand and the card it just drew."""

    seat: int
    hand: tuple[Card, ...]
    drawn_card: Card | None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for cls in (SpectatorView, PlayerView):
            for name in cls.__slots__:
                out[name] = _plain(getattr(self, name))
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Color):
        return value.letter
    if isinstance(value, Phase):
        return value.name.lower()
    if isinstance(value, Ruleset):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _public(st: State) -> dict[str, Any]:
    top = st.discard[-1] if st.discard else -1
    awaiting = None
    if st.phase is Phase.CHOOSE_COLOR:
        awaiting = "first_card" if st.color_reason == COLOR_FIRST_CARD else "roulette"
    return {
        "ruleset": st.rules,
        "seats": st.n,
        "round_no": st.round_no,
        "dealer": st.dealer,
        "phase": st.phase,
        "active": st.active,
        "direction": st.direction,
        "top_card": Card.from_id(top) if top >= 0 else None,
        "current_color": _color(st.color),
        "discard_pile": tuple(Card.from_id(c) for c in st.discard),
        "draw_pile_size": len(st.draw),
        "hand_sizes": tuple(len(h) for h in st.hands),
        "pending_penalty": st.pending,
        "pending_card": Card.from_id(st.pending_card) if st.pending_card >= 0 else None,
        "top_player": st.top_player if st.top_player >= 0 else None,
        "in_round": tuple(st.in_round),
        "knocked_out": tuple(st.knocked),
        "eliminated": tuple(st.eliminated),
        "called": tuple(st.called[s] and len(st.hands[s]) == 1 for s in range(st.n)),
        "exposed": tuple(st.exposed),
        "scores": tuple(st.scores),
        "round_wins": tuple(st.round_wins),
        "awaiting_color_for": awaiting,
    }


def spectator_view(st: State) -> SpectatorView:
    return SpectatorView(**_public(st))


def player_view(st: State, seat: int) -> PlayerView:
    drawn = st.drawn if st.phase is Phase.PLAY_DRAWN and st.active == seat else -1
    return PlayerView(
        **_public(st),
        seat=seat,
        hand=tuple(Card.from_id(c) for c in st.hands[seat]),
        drawn_card=Card.from_id(drawn) if drawn >= 0 else None,
    )
