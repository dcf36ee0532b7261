"""Events: every state change, each with the seats that may see it.

An event's ``to`` is ``None`` when every seat (and a spectator) may see it, or the tuple of seats
that may. Private events carry cards: the cards a seat drew or was dealt, a hand revealed to a
challenger. :func:`events_for` filters a list of events for one seat or a spectator.

>>> from unotable.cards import Card
>>> e = DrewCards(seat=2, cards=(Card.parse("R7"),))
>>> e.visible_to(2), e.visible_to(0)
(True, False)
>>> e.to_dict()
{'type': 'drew_cards', 'seat': 2, 'cards': ['R7']}
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from unotable.cards import Card, Color

__all__ = [
    "CardPlayed",
    "Caught",
    "ChallengeReveal",
    "Challenged",
    "ColorChosen",
    "DealerChosen",
    "DirectionChanged",
    "Drew",
    "DrewCards",
    "Event",
    "Exposed",
    "FalseCatch",
    "FalseUno",
    "FirstCard",
    "HandDealt",
    "HandsPassed",
    "HandsShuffled",
    "HandsSwapped",
    "KnockedOut",
    "MatchEnded",
    "NewHand",
    "Passed",
    "PenaltyPending",
    "Reshuffled",
    "Revealed",
    "RoundEnded",
    "RoundStarted",
    "Skipped",
    "Slipped",
    "UnoCalled",
    "events_for",
]


def _plain(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Color):
        return value.letter
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Event:
    """Base class: ``to`` is None for a public event, else the seats that may see it."""

    type: ClassVar[str] = "event"

    @property
    def to(self) -> tuple[int, ...] | None:
        return None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) may see this event."""
        to = self.to
        return to is None or (seat is not None and seat in to)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``type`` and the fields, cards and colors in notation."""
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out


@dataclass(frozen=True, slots=True)
class _Private(Event):
    seat: int

    @property
    def to(self) -> tuple[int, ...] | None:
        return (self.seat,)


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    type: ClassVar[str] = "round_started"
    round_no: int
    dealer: int
    in_round: tuple[bool, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DealerChosen(Event):
    """SET-2: the face-up cards each seat took, in order, and the dealer they chose."""

    type: ClassVar[str] = "dealer_chosen"
    draws: tuple[tuple[int, Card], ...]
    dealer: int


@dataclass(frozen=True, slots=True)
class HandDealt(_Private):
    type: ClassVar[str] = "hand_dealt"
    cards: tuple[Card, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class FirstCard(Event):
    """A card turned face up to start the discard pile; ``returned`` when it went back (SET-10)."""

    type: ClassVar[str] = "first_card"
    card: Card
    returned: bool = False


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    type: ClassVar[str] = "played"
    seat: int
    card: Card
    color: Color | None = None
    target: int | None = None
    uno: bool = False
    jump_in: bool = False


@dataclass(frozen=True, slots=True)
class ColorChosen(Event):
    type: ClassVar[str] = "color_chosen"
    seat: int
    color: Color
    target: int | None = None


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """``seat`` took ``count`` cards; ``reason`` is draw, penalty, catch, false_catch, false_uno or custom."""

    type: ClassVar[str] = "drew"
    seat: int
    count: int
    reason: str


@dataclass(frozen=True, slots=True)
class DrewCards(_Private):
    """The cards themselves, for the drawer alone (NET-6)."""

    type: ClassVar[str] = "drew_cards"
    cards: tuple[Card, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Passed(Event):
    type: ClassVar[str] = "passed"
    seat: int
    auto: bool = False


@dataclass(frozen=True, slots=True)
class Skipped(Event):
    type: ClassVar[str] = "skipped"
    seat: int


@dataclass(frozen=True, slots=True)
class DirectionChanged(Event):
    type: ClassVar[str] = "direction"
    direction: int


@dataclass(frozen=True, slots=True)
class PenaltyPending(Event):
    type: ClassVar[str] = "penalty"
    victim: int
    total: int


@dataclass(frozen=True, slots=True)
class Challenged(Event):
    type: ClassVar[str] = "challenged"
    challenger: int
    player: int
    guilty: bool


@dataclass(frozen=True, slots=True)
class ChallengeReveal(Event):
    """The challenged hand, right after the WD4 was played, for the challenger alone (CL-ACT-11)."""

    type: ClassVar[str] = "challenge_reveal"
    challenger: int
    player: int
    cards: tuple[Card, ...]

    @property
    def to(self) -> tuple[int, ...] | None:
        return (self.challenger,)


@dataclass(frozen=True, slots=True)
class HandsSwapped(Event):
    type: ClassVar[str] = "hands_swapped"
    seat: int
    target: int


@dataclass(frozen=True, slots=True)
class HandsPassed(Event):
    type: ClassVar[str] = "hands_passed"
    direction: int


@dataclass(frozen=True, slots=True)
class HandsShuffled(Event):
    type: ClassVar[str] = "hands_shuffled"
    seat: int
    sizes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class NewHand(_Private):
    """A seat's whole new hand after a swap, pass or shuffle, for that seat alone."""

    type: ClassVar[str] = "new_hand"
    cards: tuple[Card, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Exposed(Event):
    """``seat`` holds one card without a call: it can be caught until the window closes."""

    type: ClassVar[str] = "exposed"
    seat: int


@dataclass(frozen=True, slots=True)
class UnoCalled(Event):
    type: ClassVar[str] = "uno"
    seat: int


@dataclass(frozen=True, slots=True)
class Caught(Event):
    type: ClassVar[str] = "caught"
    catcher: int
    target: int
    penalty: int


@dataclass(frozen=True, slots=True)
class FalseCatch(Event):
    type: ClassVar[str] = "false_catch"
    catcher: int
    target: int
    penalty: int


@dataclass(frozen=True, slots=True)
class FalseUno(Event):
    type: ClassVar[str] = "false_uno"
    seat: int
    penalty: int


@dataclass(frozen=True, slots=True)
class Slipped(Event):
    """Cards slipped face up under the top card (Discard All, discard-wilds Customizable)."""

    type: ClassVar[str] = "slipped"
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    type: ClassVar[str] = "reshuffled"
    count: int


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    """A Color Roulette card turned face up into ``seat``'s hand."""

    type: ClassVar[str] = "revealed"
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class KnockedOut(Event):
    type: ClassVar[str] = "knocked_out"
    seat: int
    cards: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """``winner`` None means a blocked round (SCORE-8); ``hand_points`` is each seat's hand value."""

    type: ClassVar[str] = "round_ended"
    winner: int | None
    points: int
    hand_points: tuple[int, ...]
    scores: tuple[int, ...]
    eliminated: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    type: ClassVar[str] = "match_ended"
    winners: tuple[int, ...]
    scores: tuple[int, ...]


def events_for(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events that ``seat`` (None: a spectator) may see, in order."""
    return [e for e in events if e.visible_to(seat)]
