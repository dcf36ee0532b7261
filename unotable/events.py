"""Events: every state change, each with the seats that may see it and its sequence number.

An event's ``to`` is ``None`` when every seat (and a spectator) may see it, or the tuple of seats
that may. Private events carry cards: the cards a seat drew or was dealt, a hand revealed to a
challenger. :func:`events_for` filters a list of events for one seat or a spectator.

Every event that a :class:`~unotable.game.Game` logs carries ``seq``, its place in the game's
event log (1 for the first event, then 2, 3, ...; 0 for an event that was never logged).
``Game.events_since(seq, seat)`` returns what a seat may see after a given number, so a client
that knows the last number it saw can resume. The type of an event is an :class:`EventType`,
named after its class (``CardPlayed`` has the type ``EventType.CARD_PLAYED``, ``"card_played"``).
``to_dict()`` and ``Event.from_dict()`` convert both ways, losslessly.

>>> from unotable.cards import Card
>>> e = DrewCards(seat=2, cards=(Card.parse("R7"),))
>>> e.visible_to(2), e.visible_to(0)
(True, False)
>>> e.to_dict()
{'type': 'drew_cards', 'seq': 0, 'seat': 2, 'cards': ['R7']}
>>> Event.from_dict(e.to_dict()) == e
True
"""
from __future__ import annotations

import typing
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, ClassVar

from unotable.cards import Card, Color
from unotable.codec import plain, read
from unotable.errors import RecordError

__all__ = [
    "CardPlayed",
    "Caught",
    "ChallengeReveal",
    "Challenged",
    "ColorChosen",
    "DealerChosen",
    "DirectionChanged",
    "Drew",
    "DrawReason",
    "DrewCards",
    "Event",
    "EventType",
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
    "event_class",
    "events_for",
]


class EventType(StrEnum):
    """The type of each event, named after its class; the value is what ``to_dict`` writes."""

    ROUND_STARTED = "round_started"
    DEALER_CHOSEN = "dealer_chosen"
    HAND_DEALT = "hand_dealt"
    FIRST_CARD = "first_card"
    CARD_PLAYED = "card_played"
    COLOR_CHOSEN = "color_chosen"
    DREW = "drew"
    DREW_CARDS = "drew_cards"
    PASSED = "passed"
    SKIPPED = "skipped"
    DIRECTION_CHANGED = "direction_changed"
    PENALTY_PENDING = "penalty_pending"
    CHALLENGED = "challenged"
    CHALLENGE_REVEAL = "challenge_reveal"
    HANDS_SWAPPED = "hands_swapped"
    HANDS_PASSED = "hands_passed"
    HANDS_SHUFFLED = "hands_shuffled"
    NEW_HAND = "new_hand"
    EXPOSED = "exposed"
    UNO_CALLED = "uno_called"
    CAUGHT = "caught"
    FALSE_CATCH = "false_catch"
    FALSE_UNO = "false_uno"
    SLIPPED = "slipped"
    RESHUFFLED = "reshuffled"
    REVEALED = "revealed"
    KNOCKED_OUT = "knocked_out"
    ROUND_ENDED = "round_ended"
    MATCH_ENDED = "match_ended"


class DrawReason(StrEnum):
    """Why a seat took cards (:class:`Drew`)."""

    DRAW = "draw"
    """Its own draw action (CL-DRAW-1, NM-4)."""
    PENALTY = "penalty"
    """A draw card's penalty (CL-ACT-3, CL-ACT-9, stacks)."""
    CHALLENGE = "challenge"
    """A Wild Draw Four challenge, won or lost (CL-ACT-12, CL-ACT-13)."""
    CATCH = "catch"
    """Caught without having called UNO (CL-UNO-5)."""
    FALSE_CATCH = "false_catch"
    """A catch that did not hold (CL-UNO-6)."""
    FALSE_UNO = "false_uno"
    """An UNO call that did not hold (CL-UNO-3)."""
    CUSTOM = "custom"
    """A Wild Customizable's house effect (CL-ACT-18)."""


@dataclass(frozen=True, slots=True)
class Event:
    """Base class: ``to`` is None for a public event, else the seats that may see it."""

    type: ClassVar[EventType]
    seq: int = field(default=0, kw_only=True, compare=False, repr=False)
    """The event's number in its game's log (0 before it is logged); not part of equality."""

    @property
    def to(self) -> tuple[int, ...] | None:
        return None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) may see this event."""
        to = self.to
        return to is None or (seat is not None and seat in to)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``type``, ``seq`` and the fields, cards and colors in notation."""
        out: dict[str, Any] = {"type": self.type.value}
        for f in fields(self):
            out[f.name] = plain(getattr(self, f.name))
        return out

    @staticmethod
    def from_dict(doc: Any) -> Event:
        """The event that ``to_dict`` wrote; raises :class:`RecordError` for anything else."""
        if not isinstance(doc, dict):
            raise RecordError(f"an event is a JSON object, not {type(doc).__name__}")
        try:
            cls = event_class(str(doc.get("type")))
        except ValueError:
            raise RecordError(f"event: unknown type {doc.get('type')!r}") from None
        hints = _hints(cls)
        kwargs: dict[str, Any] = {}
        for f in fields(cls):
            if f.name in doc:
                kwargs[f.name] = read(doc[f.name], hints[f.name], f"event: {cls.type.value}.{f.name}")
        unknown = set(doc) - {"type"} - set(hints)
        if unknown:
            raise RecordError(f"event: {cls.type.value} has no field {sorted(unknown)[0]!r}")
        try:
            return cls(**kwargs)
        except TypeError as exc:
            raise RecordError(f"event: {cls.type.value}: {exc}") from None


@dataclass(frozen=True, slots=True)
class _Private(Event):
    seat: int

    @property
    def to(self) -> tuple[int, ...] | None:
        return (self.seat,)


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    type: ClassVar[EventType] = EventType.ROUND_STARTED
    round_no: int
    dealer: int
    in_round: tuple[bool, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DealerChosen(Event):
    """SET-2: the face-up cards each seat took, in order, and the dealer they chose."""

    type: ClassVar[EventType] = EventType.DEALER_CHOSEN
    draws: tuple[tuple[int, Card], ...]
    dealer: int


@dataclass(frozen=True, slots=True)
class HandDealt(_Private):
    type: ClassVar[EventType] = EventType.HAND_DEALT
    cards: tuple[Card, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class FirstCard(Event):
    """A card turned face up to start the discard pile; ``returned`` when it went back (SET-10)."""

    type: ClassVar[EventType] = EventType.FIRST_CARD
    card: Card
    returned: bool = False


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    type: ClassVar[EventType] = EventType.CARD_PLAYED
    seat: int
    card: Card
    color: Color | None = None
    target: int | None = None
    uno: bool = False
    jump_in: bool = False


@dataclass(frozen=True, slots=True)
class ColorChosen(Event):
    type: ClassVar[EventType] = EventType.COLOR_CHOSEN
    seat: int
    color: Color
    target: int | None = None


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """``seat`` took ``count`` cards, for a :class:`DrawReason`."""

    type: ClassVar[EventType] = EventType.DREW
    seat: int
    count: int
    reason: DrawReason


@dataclass(frozen=True, slots=True)
class DrewCards(_Private):
    """The cards themselves, for the drawer alone (NET-6)."""

    type: ClassVar[EventType] = EventType.DREW_CARDS
    cards: tuple[Card, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Passed(Event):
    type: ClassVar[EventType] = EventType.PASSED
    seat: int
    auto: bool = False


@dataclass(frozen=True, slots=True)
class Skipped(Event):
    type: ClassVar[EventType] = EventType.SKIPPED
    seat: int


@dataclass(frozen=True, slots=True)
class DirectionChanged(Event):
    type: ClassVar[EventType] = EventType.DIRECTION_CHANGED
    direction: int


@dataclass(frozen=True, slots=True)
class PenaltyPending(Event):
    type: ClassVar[EventType] = EventType.PENALTY_PENDING
    victim: int
    total: int


@dataclass(frozen=True, slots=True)
class Challenged(Event):
    type: ClassVar[EventType] = EventType.CHALLENGED
    challenger: int
    player: int
    guilty: bool


@dataclass(frozen=True, slots=True)
class ChallengeReveal(Event):
    """The challenged hand, right after the WD4 was played, for the challenger alone (CL-ACT-11)."""

    type: ClassVar[EventType] = EventType.CHALLENGE_REVEAL
    challenger: int
    player: int
    cards: tuple[Card, ...]

    @property
    def to(self) -> tuple[int, ...] | None:
        return (self.challenger,)


@dataclass(frozen=True, slots=True)
class HandsSwapped(Event):
    type: ClassVar[EventType] = EventType.HANDS_SWAPPED
    seat: int
    target: int


@dataclass(frozen=True, slots=True)
class HandsPassed(Event):
    type: ClassVar[EventType] = EventType.HANDS_PASSED
    direction: int


@dataclass(frozen=True, slots=True)
class HandsShuffled(Event):
    type: ClassVar[EventType] = EventType.HANDS_SHUFFLED
    seat: int
    sizes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class NewHand(_Private):
    """A seat's whole new hand after a swap, pass or shuffle, for that seat alone."""

    type: ClassVar[EventType] = EventType.NEW_HAND
    cards: tuple[Card, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Exposed(Event):
    """``seat`` holds one card without a call: it can be caught until the window closes."""

    type: ClassVar[EventType] = EventType.EXPOSED
    seat: int


@dataclass(frozen=True, slots=True)
class UnoCalled(Event):
    type: ClassVar[EventType] = EventType.UNO_CALLED
    seat: int


@dataclass(frozen=True, slots=True)
class Caught(Event):
    type: ClassVar[EventType] = EventType.CAUGHT
    catcher: int
    target: int
    penalty: int


@dataclass(frozen=True, slots=True)
class FalseCatch(Event):
    type: ClassVar[EventType] = EventType.FALSE_CATCH
    catcher: int
    target: int
    penalty: int


@dataclass(frozen=True, slots=True)
class FalseUno(Event):
    type: ClassVar[EventType] = EventType.FALSE_UNO
    seat: int
    penalty: int


@dataclass(frozen=True, slots=True)
class Slipped(Event):
    """Cards slipped face up under the top card (Discard All, discard-wilds Customizable)."""

    type: ClassVar[EventType] = EventType.SLIPPED
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    type: ClassVar[EventType] = EventType.RESHUFFLED
    count: int


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    """A Color Roulette card turned face up into ``seat``'s hand."""

    type: ClassVar[EventType] = EventType.REVEALED
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class KnockedOut(Event):
    type: ClassVar[EventType] = EventType.KNOCKED_OUT
    seat: int
    cards: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """``winner`` None means a blocked round (SCORE-8); ``hand_points`` is each seat's hand value."""

    type: ClassVar[EventType] = EventType.ROUND_ENDED
    winner: int | None
    points: int
    hand_points: tuple[int, ...]
    scores: tuple[int, ...]
    eliminated: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    type: ClassVar[EventType] = EventType.MATCH_ENDED
    winners: tuple[int, ...]
    scores: tuple[int, ...]


_CLASSES: dict[str, type[Event]] = {}
_HINTS: dict[type[Event], dict[str, Any]] = {}


def _hints(cls: type[Event]) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = {k: v for k, v in typing.get_type_hints(cls).items() if k != "type"}
    return hints


def event_class(type_: str | EventType) -> type[Event]:
    """The event class of a type (``"card_played"`` gives :class:`CardPlayed`)."""
    if not _CLASSES:
        for cls in _all_subclasses(Event):
            if "type" in cls.__dict__:
                _CLASSES[cls.type.value] = cls
    found = _CLASSES.get(str(type_))
    if found is None:
        raise ValueError(f"unknown event type {type_!r}")
    return found


def _all_subclasses(cls: type[Event]) -> list[type[Event]]:
    out: list[type[Event]] = []
    for sub in cls.__subclasses__():
        out.append(sub)
        out.extend(_all_subclasses(sub))
    return out


def events_for(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events that ``seat`` (None: a spectator) may see, in order."""
    return [e for e in events if e.visible_to(seat)]
