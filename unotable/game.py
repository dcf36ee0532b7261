"""The public game object: start, inspect, act, and read the outcome.

>>> from unotable import Game, Ruleset
>>> g = Game.new(seats=3, ruleset="official", seed=42)
>>> g.seats, g.round_no, g.phase in (Phase.PLAY, Phase.CHOOSE_COLOR)
(3, 1, True)
>>> first = list(g.legal_actions)[0]
>>> first in g.legal_actions
True
>>> events = g.play(first)
>>> isinstance(events, list)
True

``play()`` checks the action and raises a specific :class:`~unotable.errors.UnoError` (leaving the
game exactly as it was) when it is malformed, illegal now or from a seat that may not act.
``apply_unchecked()`` skips the checks and the events: the fast path for bots and replays.
"""
from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, overload

from unotable import movegen
from unotable.actions import (
    CALL_UNO,
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Play,
    parse_action,
)
from unotable.cards import ID_COLOR, ID_IS_WILD, WILD_COLOR_ROULETTE, Card, Color
from unotable.deal import next_round, start_match
from unotable.errors import IllegalActionError, InvalidActionError, NotYourTurnError, RulesetError, UnoError
from unotable.events import Event
from unotable.position import read_position, write_position
from unotable.record import Record
from unotable.resolve import apply, settle
from unotable.rules import Ruleset
from unotable.scoring import Outcome, RoundResult
from unotable.state import Phase, State
from unotable.views import PlayerView, SpectatorView, player_view, spectator_view

__all__ = ["Game", "LegalActions", "Phase"]


class LegalActions(Sequence[Action]):
    """The legal actions of one seat now: a container in a stable order.

    ``action in legal``, ``len(legal)``, ``bool(legal)``, iteration and indexing all work; text
    notation is accepted by ``in`` too (``"draw" in legal``).
    """

    __slots__ = ("_items", "_set")

    def __init__(self, items: list[Action]) -> None:
        self._items = items
        self._set: frozenset[Action] | None = None

    def __contains__(self, action: object) -> bool:
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except ValueError:
                return False
        if self._set is None:
            self._set = frozenset(self._items)
        return action in self._set

    def __iter__(self) -> Iterator[Action]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        return self._items[index]

    def __repr__(self) -> str:
        return f"<LegalActions [{', '.join(str(a) for a in self._items)}]>"


_ACTION_TYPES = (Play, Draw, Pass, Accept, Challenge, ChooseColor, CallUno, Catch)

_PHASE_WORDS = {
    Phase.PLAY: "awaiting a play or a draw",
    Phase.PLAY_DRAWN: "awaiting the drawn card's play or a pass",
    Phase.CHOOSE_COLOR: "awaiting a color choice",
    Phase.RESPOND: "awaiting a response to the pending penalty",
    Phase.ROUND_OVER: "the round is over",
    Phase.MATCH_OVER: "the match is over",
}


class Game:
    """A match of UNO under one :class:`Ruleset`, from a seed."""

    __slots__ = ("_actions", "_events", "_st", "_track")

    def __init__(self, state: State, track_events: bool = True) -> None:
        self._st = state
        self._track = track_events
        self._events: list[Event] = []
        self._actions: list[tuple[int, Action]] = []

    # -- construction --------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        seats: int = 4,
        ruleset: Ruleset | str | None = None,
        seed: int | None = None,
        *,
        events: bool = True,
    ) -> Game:
        """Start a match: choose the dealer (SET-2) and deal the first round.

        ``ruleset`` is a :class:`Ruleset`, a preset name, or None for ``official``. Without a
        seed, one is drawn from the operating system. ``events=False`` keeps no event log (faster).
        """
        if ruleset is None:
            ruleset = Ruleset.preset("official")
        elif isinstance(ruleset, str):
            ruleset = Ruleset.preset(ruleset)
        if not isinstance(ruleset, Ruleset):
            raise RulesetError(f"ruleset must be a Ruleset or a preset name, not {ruleset!r}")
        if not isinstance(seats, int) or isinstance(seats, bool):
            raise RulesetError(f"seats must be an int, not {seats!r}")
        ruleset.validate_seats(seats)
        if seed is None:
            seed = secrets.randbits(63)
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise RulesetError(f"a seed must be a non-negative int, not {seed!r}")
        st = State(ruleset, seats, seed)
        game = cls(st, events)
        ev: list[Event] | None = game._events if events else None
        start_match(st, ev)
        settle(st, ev)
        return game

    @classmethod
    def from_position(cls, doc: Mapping[str, Any]) -> Game:
        """A game from an exact position (see :mod:`unotable.position`); its action log starts empty."""
        return cls(read_position(doc))

    def to_position(self) -> dict[str, Any]:
        """The exact position, as a JSON-ready dict (the referee's document: it holds every card)."""
        return write_position(self._st)

    def record(self) -> Record:
        """The game record: ruleset, seats, seed and actions (see :mod:`unotable.record`)."""
        return Record.from_game(self)

    def copy(self) -> Game:
        """An independent copy (state, RNG, action log); it keeps no events."""
        other = Game(self._st.copy(), track_events=False)
        other._actions = self._actions[:]
        return other

    # -- what is public ------------------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        return self._st.rules

    @property
    def seats(self) -> int:
        return self._st.n

    @property
    def phase(self) -> Phase:
        return self._st.phase

    @property
    def active_seat(self) -> int:
        """The seat from which the engine awaits a turn action (meaningless once the round is over)."""
        return self._st.active

    @property
    def dealer(self) -> int:
        return self._st.dealer

    @property
    def direction(self) -> int:
        return self._st.direction

    @property
    def round_no(self) -> int:
        return self._st.round_no

    @property
    def top_card(self) -> Card:
        return Card.from_id(self._st.discard[-1])

    @property
    def current_color(self) -> Color | None:
        c = self._st.color
        return None if c < 0 else Color(c)

    @property
    def pending_penalty(self) -> int:
        return self._st.pending

    @property
    def draw_pile_size(self) -> int:
        return len(self._st.draw)

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        return tuple(Card.from_id(c) for c in self._st.discard)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self._st.hands)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._st.scores)

    @property
    def in_round(self) -> tuple[bool, ...]:
        return tuple(self._st.in_round)

    @property
    def exposed(self) -> tuple[int, ...]:
        """Seats that hold one card without a call and can be caught now."""
        return tuple(s for s in range(self._st.n) if self._st.exposed[s])

    @property
    def events(self) -> list[Event]:
        """Every event since the start (all seats' private ones too: this is the referee's log)."""
        return list(self._events)

    @property
    def actions(self) -> list[tuple[int, Action]]:
        """The action log: (seat, action) in the order applied. With the seed it rebuilds the game."""
        return list(self._actions)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's hand (the referee's view: views give each seat only its own)."""
        self._check_seat(seat)
        return tuple(Card.from_id(c) for c in self._st.hands[seat])

    def is_over(self) -> bool:
        return self._st.phase is Phase.MATCH_OVER

    def round_result(self) -> RoundResult | None:
        """How the last round ended, once it has (until the next deal)."""
        res = self._st.last_round
        return res if isinstance(res, RoundResult) else None

    def outcome(self) -> Outcome | None:
        """The match's outcome once it is over, else None."""
        st = self._st
        if st.phase is not Phase.MATCH_OVER:
            return None
        return Outcome(st.match_winners, tuple(st.scores), st.round_no, st.match_reason)

    # -- legal actions -------------------------------------------------------------------------

    @property
    def legal_actions(self) -> LegalActions:
        """The active seat's legal actions (turn actions first, then calls, catches and jump-ins)."""
        st = self._st
        if st.phase >= Phase.ROUND_OVER:
            return LegalActions([])
        return LegalActions(movegen.legal_actions(st, st.active))

    def legal_actions_for(self, seat: int) -> LegalActions:
        self._check_seat(seat)
        return LegalActions(movegen.legal_actions(self._st, seat))

    def legal_action_list(self, seat: int | None = None) -> list[Action]:
        """The legal actions as a plain list (the fast path used by bots)."""
        st = self._st
        return movegen.legal_actions(st, st.active if seat is None else seat)

    @property
    def seats_to_act(self) -> frozenset[int]:
        """Every seat with a legal action now: the active seat and any out-of-turn actor."""
        st = self._st
        if st.phase >= Phase.ROUND_OVER:
            return frozenset()
        return frozenset(s for s in range(st.n) if movegen.legal_actions(st, s))

    # -- acting --------------------------------------------------------------------------------

    def play(self, action: Action | str, seat: int | None = None) -> list[Event]:
        """Check and apply ``action`` by ``seat`` (default: the active seat); return its events.

        Raises :class:`NotationError` for malformed text, :class:`InvalidActionError` for an
        action malformed for this game, :class:`NotYourTurnError` for a seat that may not act and
        :class:`IllegalActionError` for an action the rules forbid now. A rejected action changes
        nothing, except the penalties that the ruleset sets for a false UNO call or a false catch
        (CL-UNO-3, CL-UNO-6), which are applied and recorded like any action.
        """
        st = self._st
        if isinstance(action, str):
            action = parse_action(action)
        elif not isinstance(action, _ACTION_TYPES):
            raise InvalidActionError(f"{action!r} is not an action (an Action or its notation)")
        if seat is None:
            seat = st.active
        self._check_seat(seat)
        if st.phase >= Phase.ROUND_OVER:
            raise IllegalActionError(f"{action} by seat {seat} is not legal: {_PHASE_WORDS[st.phase]}")
        legal = movegen.legal_actions(st, seat)
        if action not in legal and not self._penalised(seat, action):
            raise self._explain(seat, action, legal)
        ev: list[Event] = []
        apply(st, seat, action, ev)
        self._actions.append((seat, action))
        if self._track:
            self._events.extend(ev)
        return ev

    def apply_unchecked(self, action: Action, seat: int | None = None) -> None:
        """Apply a legal ``action`` without checks or events (bots, search, replay of trusted logs)."""
        st = self._st
        s = st.active if seat is None else seat
        apply(st, s, action, None)
        self._actions.append((s, action))

    def next_round(self) -> list[Event]:
        """Deal the next round once a round is over and the match is not (SET-3)."""
        st = self._st
        if st.phase is not Phase.ROUND_OVER:
            raise IllegalActionError(f"no next round to deal: {_PHASE_WORDS[st.phase]}")
        ev: list[Event] = []
        next_round(st, ev if self._track else None)
        settle(st, ev if self._track else None)
        if self._track:
            self._events.extend(ev)
        return ev

    # -- checks --------------------------------------------------------------------------------

    def _check_seat(self, seat: object) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self._st.n:
            last = self._st.n - 1
            raise InvalidActionError(f"seat {seat!r} does not exist: this game has seats 0 to {last}")

    def _penalised(self, seat: int, action: Action) -> bool:
        """CL-UNO-3, CL-UNO-6: a false call or catch that the ruleset punishes instead of rejecting."""
        st = self._st
        r = st.rules
        if not st.in_round[seat] or not st.hands[seat]:
            return False  # out of the round, or its last card is down (CL-END-7: a Roulette resolving)
        if action.kind == CALL_UNO:
            return r.false_uno_penalty > 0 and len(st.hands[seat]) != 1 and not st.called[seat]
        if isinstance(action, Catch):
            t = action.target
            return (
                r.false_catch_penalty > 0
                and t != seat
                and 0 <= t < st.n
                and st.in_round[t]
                and not st.exposed[t]
                and not st.caught[t]
            )
        return False

    def _explain(self, seat: int, action: Action, legal: list[Action]) -> UnoError:
        """The most specific error for a rejected action, naming the action and the situation."""
        st = self._st
        situation = self._situation()
        head = f"{action} by seat {seat} is not legal"
        if not st.in_round[seat]:
            return NotYourTurnError(f"{head}: seat {seat} is out of the round")
        if action.kind == CALL_UNO:
            why = "it has already called" if st.called[seat] else f"it holds {len(st.hands[seat])} cards"
            return IllegalActionError(f"{head}: {why}")
        if isinstance(action, Catch):
            t = action.target
            if t >= st.n:
                return InvalidActionError(f"{head}: there is no seat {t}")
            if t == seat:
                return IllegalActionError(f"{head}: a seat cannot catch itself")
            if st.caught[t]:
                return IllegalActionError(f"{head}: seat {t} was already caught for this exposure")
            if st.rules.uno_penalty == 0:
                return IllegalActionError(f"{head}: catching is off (uno_penalty 0)")
            return IllegalActionError(f"{head}: seat {t} cannot be caught (not exposed)")
        if isinstance(action, Play):
            return self._explain_play(seat, action, legal, head, situation)
        if seat != st.active:
            return NotYourTurnError(f"{head}: it is seat {st.active}'s turn ({situation})")
        return IllegalActionError(f"{head}: {situation}")

    def _explain_play(
        self, seat: int, action: Play, legal: list[Action], head: str, situation: str
    ) -> UnoError:
        st = self._st
        card = action.card
        cid = card.id
        if action.target is not None and (action.target >= st.n or not st.in_round[action.target]):
            return InvalidActionError(f"{head}: seat {action.target} is not a seat in the round")
        if action.target == seat:
            return InvalidActionError(f"{head}: a seat cannot target itself")
        if cid not in st.hands[seat]:
            return IllegalActionError(f"{head}: seat {seat} holds no {card}")
        same_card = [a for a in legal if isinstance(a, Play) and a.card == card]
        if seat != st.active and not same_card:
            if st.rules.jump_in:
                return NotYourTurnError(
                    f"{head}: it is seat {st.active}'s turn and {card} cannot jump in ({situation})"
                )
            return NotYourTurnError(f"{head}: it is seat {st.active}'s turn ({situation})")
        if not same_card:
            return IllegalActionError(f"{head}: {card} cannot be played now ({situation})")
        if ID_IS_WILD[cid] and cid != WILD_COLOR_ROULETTE and action.color is None and not any(
            a.color is None for a in same_card if isinstance(a, Play)
        ):
            return InvalidActionError(f"{head}: {card} needs a named color, as in {card}:R")
        if cid == WILD_COLOR_ROULETTE and action.color is not None:
            return InvalidActionError(f"{head}: a Wild Color Roulette names no color (NM-11)")
        if action.target is None and all(a.target is not None for a in same_card if isinstance(a, Play)):
            return InvalidActionError(f"{head}: {card} needs a target seat, as in {card}>N")
        if action.target is not None and all(a.target is None for a in same_card if isinstance(a, Play)):
            return InvalidActionError(f"{head}: {card} takes no target seat")
        if action.uno:
            return IllegalActionError(f"{head}: the UNO flag needs a play that leaves exactly one card")
        return IllegalActionError(f"{head}: {situation}")

    def _situation(self) -> str:
        st = self._st
        parts = [_PHASE_WORDS[st.phase]]
        if st.discard:
            parts.append(f"top is {Card.from_id(st.discard[-1])}")
        if st.color >= 0:
            parts.append(f"current color {Color(st.color).name.lower()}")
        if st.pending:
            parts.append(f"+{st.pending} pending against seat {st.active}")
        if st.phase is Phase.PLAY_DRAWN:
            parts.append(f"only the drawn {Card.from_id(st.drawn)} may be played")
        return ", ".join(parts)

    def __repr__(self) -> str:
        st = self._st
        top = Card.from_id(st.discard[-1]) if st.discard else None
        return (f"<Game seats={st.n} round={st.round_no} phase={st.phase.name} active={st.active} "
                f"top={top} color={ID_COLOR[st.discard[-1]] if st.discard else None}>")

    # -- views and documents -------------------------------------------------------------------

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now (NET-5, NET-6): the public table and its own hand."""
        self._check_seat(seat)
        return player_view(self._st, seat)

    def spectator_view(self) -> SpectatorView:
        """The public table, as a spectator sees it."""
        return spectator_view(self._st)

    def events_for(self, seat: int | None) -> list[Event]:
        """The event log as ``seat`` (None: a spectator) may see it."""
        return [e for e in self._events if e.visible_to(seat)]

    # kept for the view and record modules
    @property
    def state(self) -> State:
        """The internal state (for the engine's own modules; it holds hidden information)."""
        return self._st


