"""What the human types, read into an action or a client command.

A line is one of:

- a client word: ``help`` (or ``?``), ``quit`` (``q``, ``exit``), ``table`` (``t``, ``hand``),
  ``moves`` (the legal actions), or nothing at all;
- a hand index, optionally followed by a color, a target and an UNO call: ``3``, ``3 b``,
  ``3:blue``, ``3>2``, ``3!``, ``3 uno``;
- ``play`` for the card just drawn; ``d`` / ``draw``, ``p`` / ``pass``, ``accept``,
  ``challenge``, ``uno``, ``catch N`` (or ``catch`` when one seat is exposed), ``color R``;
- while a color is asked for (first-card wild, Color Roulette), a bare color: ``r``, ``blue``;
- any action in the engine's notation: ``W4:B``, ``R7>2!``, ``catch:1``, ``color:G``.

An index or a notation may leave out what the card needs (``W4``, ``4``); :func:`missing` says what
to ask for. Malformed input raises :class:`~unotable.errors.NotationError` with the reason.

>>> from unotable.cards import Card
>>> hand = (Card.parse("R7"), Card.parse("W4"))
>>> read_line("1 blue", hand), read_line("0!", hand), read_line("catch 2", hand)
(Action.parse('W4:B'), Action.parse('R7!'), Action.parse('catch:2'))
>>> read_line("?", hand)
'help'
>>> read_line("5", hand)
Traceback (most recent call last):
...
unotable.errors.NotationError: there is no card 5 in your hand: type an index from 0 to 1
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from unotable.actions import Action, Catch, ChooseColor, Draw, Pass, Play, parse_action
from unotable.cards import Card, Color
from unotable.errors import NotationError

__all__ = ["COMMANDS_HELP", "WORDS", "missing", "read_line"]

COMMANDS_HELP = """\
Commands (the hand is shown with indices; cards marked * can be played now):
  3            play the card at index 3; you are asked for a color or a target when it needs one
  3 b, 3:blue  play a wild at index 3 and name blue      3>2   play it targeting seat 2
  3!, 3 uno    play it and call UNO (do this when it leaves you one card)
  W4:B  R7>2!  any action in notation: card, :color, >target seat, ! for UNO
  draw (d)     draw a card            pass (p)   keep the card you just drew
  play         play the card you just drew
  accept       take the pending penalty           challenge   challenge a Wild Draw Four
  uno          call UNO                           catch N     catch seat N, who did not call UNO
  color R      name a color when asked (or just type r, y, g or b)
  table (t)    show the table again   moves (m)  list your legal actions
"""
"""The commands of a seat at the terminal, the same in `unotable play` and `unotable join`."""

WORDS: dict[str, str] = {
    "": "empty",
    "?": "help",
    "help": "help",
    "h": "help",
    "q": "quit",
    "quit": "quit",
    "exit": "quit",
    "t": "table",
    "table": "table",
    "hand": "table",
    "moves": "moves",
    "legal": "moves",
    "m": "moves",
}

_INDEX = re.compile(r"(\d+)(.*)")


def read_line(
    text: str,
    hand: Sequence[Card],
    *,
    drawn: Card | None = None,
    exposed: Sequence[int] = (),
    choosing_color: bool = False,
) -> Action | str:
    """The action (possibly missing a color or a target) or client word that ``text`` means."""
    body = " ".join(text.strip().split())
    low = body.lower()
    if low in WORDS:
        return WORDS[low]
    if low == "d":
        return Draw()
    if low == "p":
        return Pass()
    if low == "play":
        if drawn is None:
            raise NotationError("'play' plays the card you just drew, and you have not drawn one")
        return Play(drawn)
    if low == "catch" or low.startswith("catch "):
        rest = low[5:].strip()
        if not rest:
            if len(exposed) == 1:
                return Catch(exposed[0])
            raise NotationError("catch whom? type catch N with the seat number")
        return parse_action("catch:" + rest)
    if low.startswith("color "):
        return parse_action("color:" + body[6:].replace(" ", ""))
    if choosing_color:
        try:
            return ChooseColor(Color.parse(low.split(">")[0]), _target_of(low))
        except NotationError:
            pass
    match = _INDEX.fullmatch(low)
    if match:
        index = int(match[1])
        if index >= len(hand):
            top = f"from 0 to {len(hand) - 1}" if hand else "(your hand is empty)"
            raise NotationError(f"there is no card {index} in your hand: type an index {top}")
        rest = match[2].strip()
        if rest.endswith("uno"):
            rest = rest[:-3].strip() + "!"
        if rest and rest[0] not in ":>!":
            rest = ":" + rest
        try:
            return parse_action(str(hand[index]) + rest.replace(" ", ""))
        except NotationError:
            raise NotationError(
                f"{body!r}: after a card's index comes a color ({index} b), a target seat ({index}>2) "
                f"or ! for UNO ({index}!); to play card {index} type just {index}"
            ) from None
    return parse_action(body)


def _target_of(low: str) -> int | None:
    if ">" not in low:
        return None
    seat = low.split(">", 1)[1].strip()
    if not seat.isdigit():
        raise NotationError(f"{seat!r} is not a seat number")
    return int(seat)


def missing(action: Action, legal: Sequence[Action]) -> tuple[bool, tuple[int, ...]]:
    """What ``action`` lacks to match a legal action: (needs a color, the target seats to pick from).

    When nothing legal resembles ``action``, nothing is missing: the engine will explain why it
    is not legal.

    >>> legal = [parse_action("W4:R"), parse_action("W4:B"), parse_action("R7>1"), parse_action("R7>2")]
    >>> missing(parse_action("W4"), legal), missing(parse_action("R7"), legal)
    ((True, ()), (False, (1, 2)))
    """
    if isinstance(action, Play):
        same: list[Play | ChooseColor] = [a for a in legal if isinstance(a, Play) and a.card == action.card]
    elif isinstance(action, ChooseColor):
        same = [a for a in legal if isinstance(a, ChooseColor)]
    else:
        return False, ()
    if not same:
        return False, ()
    need_color = (
        isinstance(action, Play) and action.color is None and all(a.color is not None for a in same)
    )
    targets: tuple[int, ...] = ()
    if action.target is None and all(a.target is not None for a in same):
        targets = tuple(sorted({a.target for a in same if a.target is not None}))
    return need_color, targets
