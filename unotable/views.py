"""What one seat, or a spectator, may know: built from a whitelist of public fields (NET-5, NET-6).

A view is made field by field from what the rules call public (docs/rules.md, NET-5), plus the
seat's own hand, the card it just drew and its own legal actions. Nothing else is copied in, so a
new field of the state can never leak by accident.

A view has two parts. :class:`TableInfo` is the static part, the same for every seat for the
whole match: the ruleset, the seat count and the seats' names when the caller gives them. A
client receives it once. The live part (:class:`SpectatorView`, :class:`PlayerView`) changes with
every action and carries the event sequence number it is current to (``seq``), so a client can
tell a stale view from a fresh one. Views are frozen and serialise to JSON with ``to_dict()``,
which writes the live part only (``TableInfo.to_dict()`` writes the static part); ``from_dict``
reads each back (:func:`view_from_dict` for either kind of view), so a client decodes what the
engine wrote with the engine's own reader.

What a seat may see is decided here once, in two functions: :func:`public_fields` (what everyone
sees) and :func:`own_fields` (what one seat adds: its hand, its drawn card, its legal actions).
Both kinds of view are built from them, and so is :class:`ViewParts`, the same views split where
the secrets are, for a server that sends every seat its view after every action: the public part
is made (and encoded) once per state, and each seat's own part apart.

>>> from unotable.game import Game
>>> g = Game.new(seats=3, seed=5)
>>> v = g.view(0)
>>> len(v.hand), v.hand_sizes, v.seats, v.ruleset.deck.value
(7, (7, 7, 7), 3, 'classic108')
>>> v.seq == g.last_seq, "ruleset" in v.to_dict(), sorted(g.table_info().to_dict())
(True, False, ['names', 'ruleset', 'seats'])
>>> parts = g.view_parts()
>>> {**parts.public, **parts.own(0)} == v.to_dict(), parts.public == g.spectator_view().to_dict()
(True, True)
"""
from __future__ import annotations

import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from unotable.actions import Action
from unotable.cards import Card, Color
from unotable.codec import fields_from_dict, plain
from unotable.errors import RecordError
from unotable.phase import ColorReason, Phase
from unotable.rules import Ruleset
from unotable.scoring import Outcome, RoundResult, team_scores
from unotable.state import State

__all__ = ["PlayerView", "SpectatorView", "TableInfo", "ViewParts", "own_fields", "player_view",
           "public_fields", "public_seats_to_act", "spectator_view", "view_from_dict"]


def _color(c: int) -> Color | None:
    return None if c < 0 else Color(c)


@dataclass(frozen=True, slots=True)
class TableInfo:
    """The static part of every view: what does not change during a match."""

    ruleset: Ruleset
    seats: int
    names: tuple[str, ...] | None = None
    """The seats' names, when the caller gives them (the engine itself knows no names)."""

    def to_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset.to_dict(), "seats": self.seats,
                "names": None if self.names is None else list(self.names)}

    @classmethod
    def from_dict(cls, doc: Any) -> TableInfo:
        """The table that :meth:`to_dict` wrote; :class:`~unotable.errors.RecordError` (or
        :class:`~unotable.errors.RulesetError` for the ruleset) for anything else."""
        if not isinstance(doc, Mapping):
            raise RecordError(f"a table is a JSON object, not {type(doc).__name__}")
        kwargs = fields_from_dict({k: v for k, v in doc.items() if k != "ruleset"},
                                  {"seats": int, "names": tuple[str, ...] | None}, "table")
        if "ruleset" not in doc:
            raise RecordError("table lacks the field 'ruleset'")
        return cls(Ruleset.from_dict(doc["ruleset"]), **kwargs)


@dataclass(frozen=True, slots=True)
class SpectatorView:
    """The public table, live: what every seat and a spectator may see now."""

    table: TableInfo
    seq: int
    """The number of the last event of the game when the view was made (``Game.last_seq``)."""
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
    """The draw card whose penalty is pending (in phase RESPOND), else None."""
    top_player: int | None
    """The seat that placed the top card (None for the first card of a round)."""
    in_round: tuple[bool, ...]
    knocked_out: tuple[bool, ...]
    eliminated: tuple[bool, ...]
    called: tuple[bool, ...]
    exposed: tuple[bool, ...]
    scores: tuple[int, ...]
    team_scores: tuple[int, ...] | None
    """Under partnerships, each team's score (team 0: the even seats); else None."""
    round_wins: tuple[int, ...]
    awaiting_color_for: ColorReason | None
    """In phase CHOOSE_COLOR, why (in JSON: ``first_card``, ``roulette`` or ``roulette_last``)."""
    seats_to_act: tuple[int, ...]
    """The seats that may act now on public grounds: the active seat, seats that may call UNO or
    catch. A jump-in depends on a hidden hand, so it is left out here (each seat sees its own in
    its legal actions)."""
    last_round: RoundResult | None
    """How the last round ended, until the next deal."""
    outcome: Outcome | None
    """The match's outcome, once it is over."""

    @property
    def ruleset(self) -> Ruleset:
        return self.table.ruleset

    @property
    def seats(self) -> int:
        return self.table.seats

    def to_dict(self) -> dict[str, Any]:
        """The live part as a JSON-ready dict: cards and colors in notation (no ruleset)."""
        out: dict[str, Any] = {}
        for name in _SPECTATOR_FIELDS:
            out[name] = plain(getattr(self, name))
        return out

    @classmethod
    def from_dict(cls, doc: Any, table: TableInfo) -> SpectatorView:
        """The view that :meth:`to_dict` wrote, on ``table`` (its static part, sent apart).

        :class:`~unotable.errors.RecordError` names the first field that is missing, unknown or of
        the wrong type. ``PlayerView.from_dict`` reads a seat's view; :func:`view_from_dict`
        picks the class by the document's ``seat``.
        """
        return cls(table=table, **fields_from_dict(doc, _field_hints(cls), "view"))


@dataclass(frozen=True, slots=True)
class PlayerView(SpectatorView):
    """The public table plus what ``seat`` alone may see: its hand, its drawn card, its actions."""

    seat: int
    hand: tuple[Card, ...]
    drawn_card: Card | None
    """In phase PLAY_DRAWN, when this seat is the one that drew: the card it may play."""
    legal: tuple[Action, ...]
    """This seat's legal actions now (turn actions first, then calls, catches and jump-ins)."""

    def to_dict(self) -> dict[str, Any]:
        out = SpectatorView.to_dict(self)
        out.update(_own_dict(self.seat, self.hand, self.drawn_card, self.legal))
        return out


def _own_dict(seat: int, hand: Iterable[Card], drawn: Card | None, legal: Iterable[Action]) -> dict[str, Any]:
    """A seat's own part of its view as JSON-ready data (what ``codec.plain`` writes, directly:
    this is encoded for every seat after every action)."""
    return {"seat": seat, "hand": [str(c) for c in hand], "drawn_card": None if drawn is None else str(drawn),
            "legal": [str(a) for a in legal]}


_SPECTATOR_FIELDS = tuple(n for n in SpectatorView.__slots__ if n != "table")
_HINTS: dict[type, dict[str, Any]] = {}


def _field_hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = {f.name: h for f in fields(cls) if (h := typing.get_type_hints(cls)[f.name]) is not TableInfo}
        _HINTS[cls] = hints
    return hints


def view_from_dict(doc: Any, table: TableInfo) -> SpectatorView:
    """A :class:`PlayerView` when ``doc`` has a seat, else a :class:`SpectatorView`, on ``table``.

    >>> from unotable.game import Game
    >>> g = Game.new(seats=3, seed=5)
    >>> doc = g.view(1).to_dict()
    >>> view = view_from_dict(doc, g.table_info())
    >>> type(view).__name__, view.seat, view.to_dict() == doc
    ('PlayerView', 1, True)
    >>> type(view_from_dict(g.spectator_view().to_dict(), g.table_info())).__name__
    'SpectatorView'
    """
    if isinstance(doc, Mapping) and doc.get("seat") is not None:
        return PlayerView.from_dict(doc, table)
    return SpectatorView.from_dict(doc, table)


def public_seats_to_act(st: State) -> tuple[int, ...]:
    """The seats that may act now on public grounds: the active seat, and every seat in the round
    that may call UNO (it holds one card without a call) or catch (another seat is exposed)."""
    if st.phase >= Phase.ROUND_OVER:
        return ()
    catchable = [t for t in range(st.n) if st.exposed[t] and st.in_round[t]]
    penalty = st.flags.uno_penalty
    out = []
    for s in range(st.n):
        if not st.in_round[s]:
            continue
        may_call = len(st.hands[s]) == 1 and not st.called[s]
        may_catch = penalty and (len(catchable) > 1 or (len(catchable) == 1 and catchable[0] != s))
        if s == st.active or may_call or may_catch:
            out.append(s)
    return tuple(out)


def public_fields(st: State, seq: int) -> dict[str, Any]:
    """What every seat and a spectator may see of ``st``: the live fields of :class:`SpectatorView`
    (all but ``table``), in its order; ``seq`` is the game's last event number."""
    top = st.discard[-1] if st.discard else -1
    awaiting = st.color_reason if st.phase is Phase.CHOOSE_COLOR else None
    over = st.phase is Phase.MATCH_OVER
    return {
        "seq": seq,
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
        "team_scores": team_scores(st) if st.rules.partnership else None,
        "round_wins": tuple(st.round_wins),
        "awaiting_color_for": awaiting,
        "seats_to_act": public_seats_to_act(st),
        "last_round": st.last_round,
        "outcome": Outcome(st.match_winners, tuple(st.scores), st.round_no, st.match_reason)
        if over and st.match_reason is not None else None,
    }


def own_fields(st: State, seat: int, legal: Sequence[Action]) -> dict[str, Any]:
    """What ``seat`` alone may see of ``st``, the fields :class:`PlayerView` adds to the public
    ones: its seat, its hand, the card it drew (in phase PLAY_DRAWN, when it drew) and ``legal``,
    its legal actions now (the caller's: the engine caches them)."""
    drawn = st.drawn if st.phase is Phase.PLAY_DRAWN and st.active == seat else -1
    return {
        "seat": seat,
        "hand": tuple(Card.from_id(c) for c in st.hands[seat]),
        "drawn_card": Card.from_id(drawn) if drawn >= 0 else None,
        "legal": tuple(legal),
    }


def spectator_view(st: State, table: TableInfo, seq: int) -> SpectatorView:
    return SpectatorView(table=table, **public_fields(st, seq))


def player_view(st: State, seat: int, table: TableInfo, seq: int, legal: Sequence[Action]) -> PlayerView:
    return PlayerView(table=table, **public_fields(st, seq), **own_fields(st, seat, legal))


class ViewParts:
    """Every view of one state, split where the secrets are, as JSON-ready dicts: :attr:`public`,
    the part every seat's view and the spectator's share (``SpectatorView.to_dict()``), made once;
    :meth:`own`, what one seat's view adds to it. ``{**parts.public, **parts.own(seat)}`` is
    ``PlayerView.to_dict()``, key for key in the same order. Made by ``Game.view_parts()``, for
    the state the game is in then (a server makes one per event batch and sends it to every seat).
    """

    __slots__ = ("_legal_for", "_st", "public")

    def __init__(self, st: State, seq: int, legal_for: Callable[[int], Sequence[Action]]) -> None:
        self._st = st
        self._legal_for = legal_for
        self.public: dict[str, Any] = {name: plain(value) for name, value in public_fields(st, seq).items()}

    def own(self, seat: int) -> dict[str, Any]:
        """What ``seat``'s view adds to :attr:`public` (its hand, its drawn card, its actions)."""
        mine = own_fields(self._st, seat, self._legal_for(seat))
        return _own_dict(seat, mine["hand"], mine["drawn_card"], mine["legal"])
