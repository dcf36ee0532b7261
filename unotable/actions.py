"""Actions: frozen values with a short text notation that parses and prints back.

| action | notation | meaning |
|---|---|---|
| ``Play(card, color, target, uno)`` | ``R7``, ``W4:B``, ``WS:G>2``, ``R7>1!`` | play a card (below) |
| ``Draw()`` | ``draw`` | draw (until playable, where the rules say so) |
| ``Pass()`` | ``pass`` | keep a drawn card and end the turn |
| ``Accept()`` | ``accept`` | take the pending penalty |
| ``Challenge()`` | ``challenge`` | challenge the Wild Draw Four on top |
| ``ChooseColor(color, target)`` | ``color:R``, ``color:G>2`` | name the color (first-card wild, Roulette) |
| ``CallUno()`` | ``uno`` | call UNO separately |
| ``Catch(target)`` | ``catch:2`` | catch a seat that has not called UNO |
| ``Deal()`` | ``deal`` | the referee deals the next round (an entry of the action log, by no seat) |

In a play, ``:C`` names a color, ``>N`` a target seat and a final ``!`` is the UNO flag.

Stacking, bouncing, defending and jumping in are plays. Every action's ``repr`` rebuilds it:

>>> a = parse_action("W4:b")
>>> a
Action.parse('W4:B')
>>> str(a), a.card.is_wild, a.color
('W4:B', True, <Color.BLUE: 3>)
>>> parse_action("catch:3") == Catch(3)
True
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from unotable.cards import Card, Color
from unotable.errors import InvalidActionError, NotationError

__all__ = [
    "Accept",
    "Action",
    "CallUno",
    "Catch",
    "Challenge",
    "ChooseColor",
    "Deal",
    "Draw",
    "Pass",
    "Play",
    "parse_action",
]

# Action kinds, as small ints for the engine's dispatch.
PLAY, DRAW, PASS, ACCEPT, CHALLENGE, CHOOSE_COLOR, CALL_UNO, CATCH, DEAL = range(9)


class _Base:
    __slots__ = ()
    kind: ClassVar[int]

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Action:
        """Parse an action's notation (see the module docstring)."""
        return parse_action(text)


def _check_target(target: int | None) -> None:
    bad = not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < 10
    if target is not None and bad:
        raise InvalidActionError(f"a target seat is an int from 0 to 9, not {target!r}")


@dataclass(frozen=True, slots=True, repr=False)
class Play(_Base):
    """Play ``card``; ``color`` for a wild, ``target`` for Swap Hands or a 7, ``uno`` to call UNO with it."""

    kind: ClassVar[int] = PLAY
    card: Card
    color: Color | None = None
    target: int | None = None
    uno: bool = False
    cid: int = field(init=False, repr=False, compare=False, hash=False)
    """The card's compact id (for the engine's fast path)."""

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            raise InvalidActionError(f"Play needs a Card, not {self.card!r}")
        object.__setattr__(self, "cid", self.card.id)
        if self.color is not None and not isinstance(self.color, Color):
            raise InvalidActionError(f"a named color must be a Color, not {self.color!r}")
        if self.color is not None and not self.card.is_wild:
            raise InvalidActionError(f"{self.card} is not a wild card: it cannot name a color")
        _check_target(self.target)
        if not isinstance(self.uno, bool):
            raise InvalidActionError(f"the UNO flag is a bool, not {self.uno!r}")

    def __str__(self) -> str:
        text = str(self.card)
        if self.color is not None:
            text += ":" + self.color.letter
        if self.target is not None:
            text += f">{self.target}"
        if self.uno:
            text += "!"
        return text


@dataclass(frozen=True, slots=True, repr=False)
class Draw(_Base):
    """Draw from the draw pile."""

    kind: ClassVar[int] = DRAW

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True, repr=False)
class Pass(_Base):
    """Keep the card just drawn and end the turn."""

    kind: ClassVar[int] = PASS

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True, repr=False)
class Accept(_Base):
    """Draw the pending penalty and lose the turn."""

    kind: ClassVar[int] = ACCEPT

    def __str__(self) -> str:
        return "accept"


@dataclass(frozen=True, slots=True, repr=False)
class Challenge(_Base):
    """Challenge the Wild Draw Four on top of the discard pile."""

    kind: ClassVar[int] = CHALLENGE

    def __str__(self) -> str:
        return "challenge"


@dataclass(frozen=True, slots=True, repr=False)
class ChooseColor(_Base):
    """Name the current color when the engine asks for it (first-card wild, Color Roulette)."""

    kind: ClassVar[int] = CHOOSE_COLOR
    color: Color
    target: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.color, Color):
            raise InvalidActionError(f"a named color must be a Color, not {self.color!r}")
        _check_target(self.target)

    def __str__(self) -> str:
        text = "color:" + self.color.letter
        if self.target is not None:
            text += f">{self.target}"
        return text


@dataclass(frozen=True, slots=True, repr=False)
class CallUno(_Base):
    """Call UNO while holding one card."""

    kind: ClassVar[int] = CALL_UNO

    def __str__(self) -> str:
        return "uno"


@dataclass(frozen=True, slots=True, repr=False)
class Catch(_Base):
    """Catch ``target``, a seat that holds one card and has not called UNO."""

    kind: ClassVar[int] = CATCH
    target: int

    def __post_init__(self) -> None:
        _check_target(self.target)
        if self.target is None:
            raise InvalidActionError("a catch needs a target seat")

    def __str__(self) -> str:
        return f"catch:{self.target}"


@dataclass(frozen=True, slots=True, repr=False)
class Deal(_Base):
    """Deal the next round once a round is over (SET-3): the referee's action, by no seat.

    It is never among a seat's legal actions; ``Game.next_round()`` applies it, and the action
    log records it (with the seat ``None``), so a record replays round after round exactly.
    """

    kind: ClassVar[int] = DEAL

    def __str__(self) -> str:
        return "deal"


Action = Play | Draw | Pass | Accept | Challenge | ChooseColor | CallUno | Catch | Deal

_WORDS: dict[str, Action] = {
    "draw": Draw(),
    "pass": Pass(),
    "accept": Accept(),
    "challenge": Challenge(),
    "uno": CallUno(),
    "deal": Deal(),
}

_FORMS = (
    "a card such as R7 or W4:B (optionally >SEAT and !), "
    "draw, pass, accept, challenge, color:C, uno, catch:SEAT, deal"
)


def _parse_seat(text: str, whole: str) -> int:
    if not text.isdigit() or len(text) > 1:
        raise NotationError(f"{whole!r}: {text!r} is not a seat number 0-9")
    return int(text)


def parse_action(text: str) -> Action:
    """Parse an action from its notation; raises :class:`NotationError` on malformed text."""
    if not isinstance(text, str):
        raise NotationError(f"action notation must be a string, not {text!r}")
    whole = text
    body = text.strip()
    low = body.lower()
    if low in _WORDS:
        return _WORDS[low]
    if low.startswith("catch:"):
        return Catch(_parse_seat(body[6:].strip(), whole))
    if low.startswith("color:"):
        rest = body[6:].strip()
        target = None
        if ">" in rest:
            rest, seat = rest.split(">", 1)
            target = _parse_seat(seat.strip(), whole)
        try:
            color = Color.parse(rest.strip())
        except NotationError:
            raise NotationError(f"{whole!r}: {rest!r} is not a color (R, Y, G or B)") from None
        return ChooseColor(color, target)
    if not body:
        raise NotationError(f"empty action; expected {_FORMS}")
    uno = body.endswith("!")
    if uno:
        body = body[:-1]
    target = None
    if ">" in body:
        body, seat = body.split(">", 1)
        target = _parse_seat(seat.strip(), whole)
    named: Color | None = None
    if ":" in body:
        body, letter = body.split(":", 1)
        try:
            named = Color.parse(letter.strip())
        except NotationError:
            raise NotationError(f"{whole!r}: {letter!r} is not a color (R, Y, G or B)") from None
    try:
        card = Card.parse(body.strip())
    except NotationError:
        raise NotationError(f"{whole!r} is not an action; expected {_FORMS}") from None
    try:
        return Play(card, named, target, uno)
    except InvalidActionError as exc:
        raise NotationError(f"{whole!r}: {exc}") from None
