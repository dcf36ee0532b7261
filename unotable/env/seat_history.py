"""The history block of an observation, rebuilt from the events one seat may see.

The environment records each applied action in a :class:`~unotable.env.spaces.History` with the
top card and the colour just before it. A bot away from the environment (at an online table, in
the arena) sees no actions, only its seat's events; :class:`SeatHistory` maps those events back
to the actions that caused them, so that ``encode(view, tracker.history)`` is the environment's
observation byte for byte (``tests/env/test_seat_history.py`` plays both side by side). It reads
public events only: what it writes is what the seat may know.

The mapping: a card played is a play (its UNO flag is the event's), a draw of reason ``draw`` is
the draw action, a pass not made by the engine is a pass, a challenge, a colour chosen, an UNO
call (a false one too) and a catch (a false one too) are those actions. A penalty drawn is the
``accept`` action only while its victim is answering it (a response phase: the ruleset allows a
response to that draw card, :func:`unotable.movegen.response_allowed`); otherwise the engine drew
it for the victim at once, which is no action.

>>> from unotable.actions import DRAW
>>> from unotable.env.spaces import H_DRAW
>>> from unotable.game import ALL, Game
>>> g = Game.new(seats=2, seed=1)
>>> tracker = SeatHistory(g.ruleset, 2)
>>> s = g.active_seat
>>> _ = g.play(next(a for a in g.legal_action_list(s) if a.kind == DRAW), s)
>>> tracker.observe([e for e in g.events_since(0, ALL) if e.visible_to(0)])
>>> tracker.history.entries[s][0][0] == H_DRAW
True
"""
from __future__ import annotations

from collections.abc import Iterable

from unotable.actions import (
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Play,
)
from unotable.cards import ID_COLOR, ID_DRAW_VALUE, ID_RANK, WILD_DRAW_FOUR, Rank
from unotable.env.spaces import History  # (H_DRAW: the example)
from unotable.events import (
    CardPlayed,
    Caught,
    Challenged,
    ColorChosen,
    DrawReason,
    Drew,
    Event,
    FalseCatch,
    FalseUno,
    FirstCard,
    Passed,
    PenaltyPending,
    RoundEnded,
    RoundStarted,
    UnoCalled,
)
from unotable.movegen import can_stack
from unotable.rules import Ruleset, Stacking

__all__ = ["SeatHistory", "response_allowed"]

_DRAW_TWO = int(Rank.DRAW_TWO)


def response_allowed(rules: Ruleset, card: int) -> bool:
    """Whether ``rules`` give the victim of draw card ``card``'s penalty a response phase (the
    engine's :func:`unotable.movegen.response_allowed`, from the ruleset alone)."""
    if card == WILD_DRAW_FOUR and rules.challenge_enabled:
        return True
    if rules.stacking is not Stacking.NONE:
        return True
    if not rules.deck.is_no_mercy:
        if rules.bounce_draw_two and ID_RANK[card] == _DRAW_TWO:
            return True
        if rules.defend_wd4_with_draw_two and card == WILD_DRAW_FOUR:
            return True
    return False


class SeatHistory:
    """Follows one seat's events (:meth:`observe`) and keeps the round's :attr:`history`."""

    def __init__(self, rules: Ruleset, n: int) -> None:
        self.rules = rules
        self.history = History(n)
        self.top = -1
        """The top card's id (-1 before the first card)."""
        self.color = -1
        """The current colour (-1: none, a colour is awaited)."""
        self._pending_card = -1
        """The draw card whose penalty the victim is answering."""
        self._penalty_card = -1
        """The draw card of the penalty the next :class:`PenaltyPending` announces (-1: none to answer)."""
        self._victim = -1
        """The seat answering a penalty (a response phase), else -1."""

    def _push(self, seat: int, action: Action) -> None:
        self.history.push(seat, action, self.top, self.color)

    def observe(self, events: Iterable[Event]) -> None:
        for e in events:
            if isinstance(e, CardPlayed):
                self._played(e)
            elif isinstance(e, PenaltyPending):
                card = self._penalty_card  # -1: the first card's penalty, drawn at once (SET-10)
                self._penalty_card = -1
                if card >= 0 and response_allowed(self.rules, card):
                    self._victim = e.victim
                    self._pending_card = card
                else:
                    self._victim = -1
                    self._pending_card = -1
            elif isinstance(e, Drew):
                if e.reason is DrawReason.DRAW:
                    self._push(e.seat, Draw())
                elif e.reason is DrawReason.PENALTY and e.seat == self._victim:
                    self._push(e.seat, Accept())
                    self._victim = self._pending_card = -1
            elif isinstance(e, Passed):
                if not e.auto:
                    self._push(e.seat, Pass())
            elif isinstance(e, Challenged):
                self._push(e.challenger, Challenge())
                self._victim = self._pending_card = -1
            elif isinstance(e, ColorChosen):
                self._push(e.seat, ChooseColor(e.color, e.target))
                self.color = int(e.color)
            elif isinstance(e, UnoCalled | FalseUno):
                self._push(e.seat, CallUno())
            elif isinstance(e, Caught | FalseCatch):
                self._push(e.catcher, Catch(e.target))
            elif isinstance(e, FirstCard):
                if not e.returned:
                    self.top = e.card.id
                    self.color = ID_COLOR[self.top]
                    self._penalty_card = -1
            elif isinstance(e, RoundStarted):
                self.history.clear()
                self._victim = self._pending_card = -1
            elif isinstance(e, RoundEnded):
                self._victim = self._pending_card = -1

    def _played(self, e: CardPlayed) -> None:
        c = e.card.id
        self._push(e.seat, Play(e.card, e.color, e.target, e.uno))
        if self._victim >= 0:  # an answer to the pending penalty: the draw card pending after it
            pc = self._pending_card
            if can_stack(self.rules.stacking, pc, c) or (pc == WILD_DRAW_FOUR and ID_RANK[c] == _DRAW_TWO):
                self._penalty_card = c
            else:
                self._penalty_card = pc
        elif ID_DRAW_VALUE[c]:
            self._penalty_card = c
        self._victim = self._pending_card = -1
        self.top = c
        col = ID_COLOR[c]
        self.color = col if col >= 0 else (-1 if e.color is None else int(e.color))

