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
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, overload

from unotable import movegen
from unotable.actions import (
    CALL_UNO,
    DEAL,
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Deal,
    Draw,
    Pass,
    Play,
    parse_action,
)
from unotable.cards import ID_COLOR, ID_IS_WILD, WILD_COLOR_ROULETTE, Card, Color
from unotable.deal import next_round, start_match
from unotable.errors import IllegalActionError, InvalidActionError, NotYourTurnError, RulesetError, UnoError
from unotable.events import Event
from unotable.phase import ColorReason, Phase
from unotable.position import read_position, write_position
from unotable.resolve import apply, settle
from unotable.rules import Ruleset
from unotable.scoring import Outcome, RoundResult, team_scores
from unotable.state import State
from unotable.views import PlayerView, SpectatorView, TableInfo, ViewParts, player_view, spectator_view

__all__ = ["ALL", "Game", "LegalActions", "Phase"]


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


_ACTION_TYPES = (Play, Draw, Pass, Accept, Challenge, ChooseColor, CallUno, Catch, Deal)
_DEAL = Deal()
_DRAW = Draw()
_PASS = Pass()
_ACCEPT = Accept()

_PHASE_WORDS = {
    Phase.PLAY: "awaiting a play or a draw",
    Phase.PLAY_DRAWN: "awaiting the drawn card's play or a pass",
    Phase.CHOOSE_COLOR: "awaiting a color choice",
    Phase.RESPOND: "awaiting a response to the pending penalty",
    Phase.ROUND_OVER: "the round is over",
    Phase.MATCH_OVER: "the match is over",
}


class Game:
    """A match of UNO under one :class:`Ruleset`, from a seed or from a position."""

    __slots__ = ("_actions", "_events", "_legal", "_st", "_start", "_track")

    def __init__(
        self, state: State, track_events: bool = True, start: Mapping[str, Any] | None = None
    ) -> None:
        self._st = state
        self._track = track_events
        self._events: list[Event] = []
        self._actions: list[tuple[int | None, Action]] = []
        self._start: dict[str, Any] | None = None if start is None else dict(start)
        """The position the game started from (None: from its seed, by ``Game.new``)."""
        self._legal: dict[int, list[Action]] = {}
        """Each seat's legal actions in the current state, as they are asked for."""

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
        ev: list[Event] | None = [] if events else None
        start_match(st, ev)
        settle(st, ev)
        if ev:
            game._log(ev)
        return game

    @classmethod
    def from_position(cls, doc: Mapping[str, Any], *, events: bool = True) -> Game:
        """A game from an exact position (see :mod:`unotable.position`); its action log starts
        empty, and its record starts from this position. Raises :class:`PositionError`."""
        st = read_position(doc)
        return cls(st, events, start=write_position(st))

    def to_position(self) -> dict[str, Any]:
        """The exact position, as a JSON-ready dict (the referee's document: it holds every card)."""
        return write_position(self._st)

    @property
    def start_position(self) -> dict[str, Any] | None:
        """The position this game started from, or None when it started from its seed."""
        return None if self._start is None else dict(self._start)

    @property
    def seed(self) -> int:
        """The seed the game started from (the referee's secret until the match is over)."""
        return self._st.seed

    def copy(self) -> Game:
        """An independent copy (state, RNG, action log); it keeps no events."""
        other = Game(self._st.copy(), track_events=False, start=self._start)
        other._actions = self._actions[:]
        return other

    def clone_state(self) -> State:
        """A private copy of the full internal state, for search bots and tools that simulate
        from an exact situation (:mod:`unotable.bots.ismcts`, benchmarks). It holds every hidden
        card: never give it, or anything made from it, to a seat."""
        return self._st.copy()

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
    def top_player(self) -> int | None:
        """The seat that placed the top card (None for a round's first card)."""
        p = self._st.top_player
        return None if p < 0 else p

    @property
    def current_color(self) -> Color | None:
        c = self._st.color
        return None if c < 0 else Color(c)

    @property
    def pending_penalty(self) -> int:
        return self._st.pending

    @property
    def pending_card(self) -> Card | None:
        """The draw card whose penalty is pending (phase RESPOND), else None."""
        c = self._st.pending_card
        return None if c < 0 else Card.from_id(c)

    @property
    def drawn_card(self) -> Card | None:
        """In phase PLAY_DRAWN, the card the active seat drew and may play (the referee's view:
        a seat sees it only in its own view)."""
        st = self._st
        return Card.from_id(st.drawn) if st.phase is Phase.PLAY_DRAWN and st.drawn >= 0 else None

    @property
    def awaiting_color_for(self) -> ColorReason | None:
        """In phase CHOOSE_COLOR, why a color is awaited."""
        st = self._st
        return st.color_reason if st.phase is Phase.CHOOSE_COLOR else None

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
    def team_scores(self) -> tuple[int, ...] | None:
        """Under partnerships, each team's score (team 0: the even seats), else None (SCORE-9)."""
        st = self._st
        return team_scores(st) if st.rules.partnership else None

    @property
    def in_round(self) -> tuple[bool, ...]:
        return tuple(self._st.in_round)

    @property
    def knocked_out(self) -> tuple[int, ...]:
        """Seats knocked out of this round by the mercy rule (NM-14)."""
        return tuple(s for s in range(self._st.n) if self._st.knocked[s])

    @property
    def eliminated(self) -> tuple[int, ...]:
        """Seats out of the match under elimination scoring (SCORE-5)."""
        return tuple(s for s in range(self._st.n) if self._st.eliminated[s])

    @property
    def exposed(self) -> tuple[int, ...]:
        """Seats that hold one card without a call and can be caught now."""
        return tuple(s for s in range(self._st.n) if self._st.exposed[s])

    @property
    def events(self) -> list[Event]:
        """A copy of every event since the start (all seats' private ones too: the referee's log).
        Prefer :meth:`events_since`, which copies only what is new."""
        return list(self._events)

    @property
    def last_seq(self) -> int:
        """The sequence number of the last event logged (0 before any): the game's version."""
        return len(self._events)

    def events_since(self, seq: int, seat: int | _All | None = None) -> list[Event]:
        """The events after number ``seq`` that ``seat`` may see (None: a spectator; ``ALL``:
        the referee, every event), in order. Costs only what is new.

        >>> g = Game.new(seats=2, seed=1)
        >>> mine = g.events_since(0, 0)
        >>> [e.seq for e in mine] == sorted(e.seq for e in mine) and mine[-1].seq <= g.last_seq
        True
        >>> g.events_since(g.last_seq, 0)
        []
        """
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise InvalidActionError(f"an event sequence number is an int >= 0, not {seq!r}")
        new = self._events[seq:]
        if isinstance(seat, _All):
            return new
        if seat is not None:
            self._check_seat(seat)
        return [e for e in new if e.visible_to(seat)]

    @property
    def actions(self) -> list[tuple[int | None, Action]]:
        """The action log: (seat, action) in the order applied; a deal has the seat None. With the
        game's start it rebuilds the game."""
        return list(self._actions)

    @property
    def action_count(self) -> int:
        return len(self._actions)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's hand (the referee's view: views give each seat only its own)."""
        self._check_seat(seat)
        return tuple(Card.from_id(c) for c in self._st.hands[seat])

    def is_over(self) -> bool:
        return self._st.phase is Phase.MATCH_OVER

    def round_result(self) -> RoundResult | None:
        """How the last round ended, once it has (until the next deal)."""
        return self._st.last_round

    def outcome(self) -> Outcome | None:
        """The match's outcome once it is over, else None."""
        st = self._st
        if st.phase is not Phase.MATCH_OVER or st.match_reason is None:
            return None
        return Outcome(st.match_winners, tuple(st.scores), st.round_no, st.match_reason)

    # -- legal actions -------------------------------------------------------------------------

    def _legal_for(self, seat: int) -> list[Action]:
        got = self._legal.get(seat)
        if got is None:
            got = self._legal[seat] = movegen.legal_actions(self._st, seat)
        return got

    @property
    def legal_actions(self) -> LegalActions:
        """The active seat's legal actions (turn actions first, then calls, catches and jump-ins)."""
        st = self._st
        if st.phase >= Phase.ROUND_OVER:
            return LegalActions([])
        return LegalActions(self._legal_for(st.active))

    def legal_actions_for(self, seat: int) -> LegalActions:
        self._check_seat(seat)
        return LegalActions(self._legal_for(seat))

    def legal_action_list(self, seat: int | None = None) -> list[Action]:
        """The legal actions as a plain list (the fast path used by bots; do not change it)."""
        st = self._st
        return movegen.legal_actions(st, st.active if seat is None else seat)

    @property
    def seats_to_act(self) -> frozenset[int]:
        """Every seat with a legal action now: the active seat and any out-of-turn actor (the
        referee's answer: jump-ins depend on hidden hands; a view's ``seats_to_act`` leaves them out)."""
        st = self._st
        if st.phase >= Phase.ROUND_OVER:
            return frozenset()
        return frozenset(s for s in range(st.n) if self._legal_for(s))

    def default_action(self, seat: int) -> Action | None:
        """The action a referee takes for ``seat`` when its time runs out, or None when the seat
        has nothing it must do (it is not the active seat, or the round is over).

        It is always legal: draw in a normal turn (or, where drawing is not allowed, play a card:
        the first of the hand that may be played), keep a drawn card (or play it, under force
        play), accept a penalty, name the color the hand holds most of (ties: red, yellow, green,
        blue), and target the seat with the fewest cards (ties: the first in turn order). The
        call of UNO rides on a play that leaves one card.

        >>> g = Game.new(seats=3, seed=7)
        >>> g.default_action(g.active_seat) in g.legal_actions
        True
        """
        self._check_seat(seat)
        st = self._st
        if st.phase >= Phase.ROUND_OVER or seat != st.active:
            return None
        legal = self._legal_for(seat)
        turn = [a for a in legal if not isinstance(a, CallUno | Catch)]
        for preferred in (_ACCEPT, _PASS, _DRAW):
            if preferred in turn:
                return preferred
        color = self._favoured_color(seat)
        target = self._weakest_target(seat)
        choices = [a for a in turn if isinstance(a, ChooseColor)]
        if choices:
            return min(choices, key=lambda a: (a.color != color, a.target != target, a.target or 0))
        plays = [a for a in turn if isinstance(a, Play)]
        if not plays:
            return turn[0] if turn else None
        first = plays[0].card  # the first playable card, in the order the hand holds them
        same = [a for a in plays if a.card == first]
        return min(same, key=lambda a: (not a.uno, a.color not in (None, color), a.target != target,
                                        a.target or 0))

    def _favoured_color(self, seat: int) -> Color:
        count = Counter(ID_COLOR[c] for c in self._st.hands[seat] if ID_COLOR[c] >= 0)
        if not count:
            return Color(self._st.color) if self._st.color >= 0 else Color.RED
        return Color(max(sorted(count), key=lambda c: count[c]))

    def _weakest_target(self, seat: int) -> int | None:
        st = self._st
        others = []
        s = st.next_seat(seat)
        while s != seat:
            others.append(s)
            s = st.next_seat(s)
        return min(others, key=lambda t: len(st.hands[t])) if others else None

    # -- acting --------------------------------------------------------------------------------

    def check(self, action: Action | str, seat: int | None = None) -> Action:
        """The action as ``play`` would apply it, or the error ``play`` would raise; changes nothing.

        A referee uses it to answer a seat before it queues the action; the terminal uses it to
        explain a mistyped move. Raises exactly what :meth:`play` raises.
        """
        return self._checked(action, seat)[0]

    def _checked(self, action: Action | str, seat: int | None) -> tuple[Action, int | None]:
        st = self._st
        if isinstance(action, str):
            action = parse_action(action)
        elif not isinstance(action, _ACTION_TYPES):
            raise InvalidActionError(f"{action!r} is not an action (an Action or its notation)")
        if isinstance(action, Deal):
            if seat is not None:
                raise InvalidActionError("deal is the referee's action: it is made by no seat (seat=None)")
            if st.phase is not Phase.ROUND_OVER:
                raise IllegalActionError(f"no next round to deal: {_PHASE_WORDS[st.phase]}")
            return action, None
        if seat is None:
            if isinstance(action, CallUno | Catch):
                raise InvalidActionError(
                    f"{action} can be made out of turn: name the seat that makes it "
                    f"(play({str(action)!r}, seat))"
                )
            seat = st.active
        self._check_seat(seat)
        if st.phase >= Phase.ROUND_OVER:
            raise IllegalActionError(f"{action} by seat {seat} is not legal: {_PHASE_WORDS[st.phase]}")
        legal = self._legal_for(seat)
        if action not in legal and not self._penalised(seat, action):
            raise self._explain(seat, action, legal)
        return action, seat

    def play(self, action: Action | str, seat: int | None = None) -> list[Event]:
        """Check and apply ``action`` by ``seat``; return the events it caused.

        ``seat`` defaults to the active seat for a turn action; an action that can be made out of
        turn (an UNO call, a catch) needs its seat named, and a jump-in is a play with the
        jumper's seat named. ``Deal`` (``"deal"``) is the referee's: it deals the next round, by
        no seat. Raises :class:`NotationError` for malformed text, :class:`InvalidActionError` for
        an action malformed for this game, :class:`NotYourTurnError` for a seat that may not act
        and :class:`IllegalActionError` for an action the rules forbid now. The text of an error
        holds only what the acting seat may see. A rejected action changes nothing, except the
        penalties that the ruleset sets for a false UNO call or a false catch (CL-UNO-3,
        CL-UNO-6), which are applied and recorded like any action.
        """
        action, s = self._checked(action, seat)
        if s is None:
            return self._deal()
        ev: list[Event] = []
        apply(self._st, s, action, ev)
        self._legal.clear()
        self._actions.append((s, action))
        if self._track:
            self._log(ev)
        return ev

    def apply_unchecked(self, action: Action, seat: int | None = None) -> None:
        """Apply a legal ``action`` without checks or events (bots, search, replay of trusted logs)."""
        if action.kind == DEAL:
            self._deal()
            return
        st = self._st
        s = st.active if seat is None else seat
        apply(st, s, action, None)
        if self._legal:
            self._legal.clear()
        self._actions.append((s, action))

    def next_round(self) -> list[Event]:
        """Deal the next round once a round is over and the match is not (SET-3): the same as
        ``play("deal")``; the deal is an entry of the action log."""
        return self.play(_DEAL)

    def _deal(self) -> list[Event]:
        st = self._st
        if st.phase is not Phase.ROUND_OVER:
            raise IllegalActionError(f"no next round to deal: {_PHASE_WORDS[st.phase]}")
        ev: list[Event] | None = [] if self._track else None
        next_round(st, ev)
        settle(st, ev)
        self._legal.clear()
        self._actions.append((None, _DEAL))
        if ev is None:
            return []
        self._log(ev)
        return ev

    def _log(self, ev: list[Event]) -> None:
        """Append new events to the log, numbering each (``Event.seq``) as it is appended."""
        seq = len(self._events)
        for e in ev:
            seq += 1
            object.__setattr__(e, "seq", seq)  # set once, as the event enters the log
        self._events.extend(ev)

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
        situation = self._situation(seat)
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

    def _situation(self, seat: int) -> str:
        """The public situation, as a message to ``seat``: only what that seat may see."""
        st = self._st
        parts = [_PHASE_WORDS[st.phase]]
        if st.discard:
            parts.append(f"top is {Card.from_id(st.discard[-1])}")
        if st.color >= 0:
            parts.append(f"current color {Color(st.color).name.lower()}")
        if st.pending:
            parts.append(f"+{st.pending} pending against seat {st.active}")
        if st.phase is Phase.PLAY_DRAWN:
            if seat == st.active:
                parts.append(f"only the drawn {Card.from_id(st.drawn)} may be played")
            else:
                parts.append(f"seat {st.active} drew a card it may play")
        return ", ".join(parts)

    def __repr__(self) -> str:
        st = self._st
        top = Card.from_id(st.discard[-1]) if st.discard else None
        return (f"<Game seats={st.n} round={st.round_no} phase={st.phase.name} active={st.active} "
                f"top={top} color={ID_COLOR[st.discard[-1]] if st.discard else None}>")

    # -- views and documents -------------------------------------------------------------------

    def table_info(self, names: Sequence[str] | None = None) -> TableInfo:
        """The static part of every view: the ruleset, the seat count and, when given, the names."""
        if names is not None:
            names = tuple(names)
            if len(names) != self._st.n or not all(isinstance(x, str) for x in names):
                raise InvalidActionError(f"names must be {self._st.n} strings, one per seat")
        return TableInfo(self._st.rules, self._st.n, names)

    def view(self, seat: int, table: TableInfo | None = None) -> PlayerView:
        """What ``seat`` may know now (NET-5, NET-6): the public table, its own hand, its drawn
        card and its own legal actions. ``table`` is the static part to attach (default: no names)."""
        legal = self._view_legal(seat)
        return player_view(self._st, seat, table or self.table_info(), len(self._events), legal)

    def view_parts(self) -> ViewParts:
        """Every seat's view of the game now, split where the secrets are, as JSON-ready dicts: the
        public part, made once, and each seat's own part (``parts.own(seat)``), as a server sends
        them after every action. ``{**parts.public, **parts.own(seat)}`` is ``view(seat).to_dict()``."""
        return ViewParts(self._st, len(self._events), self._view_legal)

    def _view_legal(self, seat: int) -> list[Action]:
        """``seat``'s legal actions as its view shows them (none once the round is over)."""
        self._check_seat(seat)
        return self._legal_for(seat) if self._st.phase < Phase.ROUND_OVER else []

    def spectator_view(self, table: TableInfo | None = None) -> SpectatorView:
        """The public table, as a spectator sees it."""
        return spectator_view(self._st, table or self.table_info(), len(self._events))

    def events_for(self, seat: int | None) -> list[Event]:
        """The whole event log as ``seat`` (None: a spectator) may see it."""
        return [e for e in self._events if e.visible_to(seat)]


class _All:
    """The type of :data:`ALL`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ALL"


ALL = _All()
"""``Game.events_since(seq, ALL)``: every event, private ones included (the referee's log)."""
