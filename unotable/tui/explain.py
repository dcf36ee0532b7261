"""Why an action was refused, in a player's words.

The engine's errors are precise and meant for a program (``G4 by seat 0 is not legal: G4 cannot
be played now (awaiting a play or a draw, top is B7, current color blue)``). At the table the
person reads :func:`explain` instead: what is wrong and what to do, built from their own view (so
it never tells more than the engine's text may). ``unotable play --verbose`` prints the engine's
text under it.

>>> from unotable.game import Game
>>> from unotable.actions import parse_action
>>> g = Game.from_position({"hands": [["G4", "B2"], ["Y1", "Y2"]], "discard": ["B7"], "active": 0})
>>> explain(parse_action("G4"), g.view(0), ["You", "Bot 1"])
"G4 doesn't match: play blue or a 7, or draw"
>>> explain(parse_action("Y9"), g.view(0), ["You", "Bot 1"])
'You have no Y9: your hand is G4 B2'
"""
from __future__ import annotations

from collections.abc import Sequence

from unotable.actions import Accept, Action, CallUno, Catch, Challenge, ChooseColor, Draw, Pass, Play
from unotable.cards import Card
from unotable.phase import Phase
from unotable.views import PlayerView

__all__ = ["explain", "seat_count_text"]


def _top(view: PlayerView) -> str:
    """What matches the top card: ``blue or a 7``, or only the color under a wild."""
    top = view.top_card
    color = view.current_color.name.lower() if view.current_color is not None else None
    if top is None or top.color is None:
        return color or "any card"
    rank = top.rank.label
    article = "an" if rank[0] in "8AEIOU" else "a"
    return f"{color} or {article} {rank}" if color else f"{article} {rank}"


def _alternatives(view: PlayerView) -> str:
    """The other things the seat may do now, in words: ``draw``, ``pass``, ``accept``."""
    words = [w for w, kind in (("draw", Draw), ("pass", Pass), ("accept", Accept)) if
             any(isinstance(a, kind) for a in view.legal)]
    return " or ".join(words)


def _mine(view: PlayerView) -> bool:
    return view.active == view.seat and view.phase < Phase.ROUND_OVER


def explain(action: Action, view: PlayerView, names: Sequence[str]) -> str:
    """Why ``action`` is not legal for the seat of ``view``, and what it may do instead."""
    active = names[view.active] if 0 <= view.active < len(names) else f"seat {view.active}"
    phase = view.phase
    if phase >= Phase.ROUND_OVER:
        return "The round is over: nothing can be played until the next deal"
    if isinstance(action, Catch):
        return _catch(action, view, names)
    if isinstance(action, CallUno):
        if len(view.hand) > 2:
            return ("UNO is called with one card left, or with the play that leaves one "
                    f"(you hold {len(view.hand)})")
        return "You have called UNO already"
    if not _mine(view) and not isinstance(action, Play):
        return f"It's not your turn: {active} is to play"
    if isinstance(action, Play):
        return _play(action.card, action, view, names)
    if isinstance(action, Draw):
        if phase is Phase.PLAY_DRAWN and view.drawn_card is not None:
            return f"You have drawn already: play the {view.drawn_card} you drew (play) or keep it (pass)"
        if phase is Phase.RESPOND:
            return f"You face +{view.pending_penalty}: take it with accept" + _stack_hint(view)
        if phase is Phase.CHOOSE_COLOR:
            return "Name a color first: r, y, g or b"
        return "You can't draw now"
    if isinstance(action, Pass):
        if phase is Phase.RESPOND:
            return f"You face +{view.pending_penalty}: take it with accept" + _stack_hint(view)
        return "You can pass only after drawing a card: draw first"
    if isinstance(action, Accept):
        return "There is no penalty to accept"
    if isinstance(action, Challenge):
        return "There is no Wild Draw Four to challenge now"
    if isinstance(action, ChooseColor):
        if phase is Phase.CHOOSE_COLOR:
            return "That color choice is not possible now"
        return "There is no color to name now: a wild's color goes with the card (3 b, W4:B)"
    return f"{action} is not possible now"


def _stack_hint(view: PlayerView) -> str:
    stack = sorted({str(a.card) for a in view.legal if isinstance(a, Play)})
    return f", or stack {' or '.join(stack)}" if stack else ""


def _catch(action: Catch, view: PlayerView, names: Sequence[str]) -> str:
    t = action.target
    if t == view.seat:
        return "You can't catch yourself"
    if not 0 <= t < len(names):
        return f"There is no seat {t}: the seats are 0 to {len(names) - 1}"
    exposed = [s for s in range(len(names)) if view.exposed[s] and s != view.seat]
    hint = f" (catch {exposed[0]} to catch {names[exposed[0]]})" if exposed else ""
    return f"{names[t]} can't be caught: only a seat left with one card and no UNO call can be{hint}"


def _play(card: Card, action: Play, view: PlayerView, names: Sequence[str]) -> str:
    phase = view.phase
    drawn = view.drawn_card
    if card not in view.hand and card != drawn:
        hand = " ".join(str(c) for c in view.hand) or "empty"
        return f"You have no {card}: your hand is {hand}"
    if not _mine(view):
        if view.ruleset.jump_in and view.top_card is not None:
            return (f"It's {names[view.active]}'s turn: you may jump in only with a card "
                    f"identical to the top card ({view.top_card})")
        return f"It's not your turn: {names[view.active]} is to play"
    if phase is Phase.CHOOSE_COLOR:
        return "Name a color first: r, y, g or b"
    if phase is Phase.PLAY_DRAWN and drawn is not None and card != drawn:
        return f"After drawing you may play only the card you drew ({drawn}), or keep it (pass)"
    if phase is Phase.RESPOND:
        return f"{card} can't answer the +{view.pending_penalty} against you: accept it" + _stack_hint(view)
    same = [a for a in view.legal if isinstance(a, Play) and a.card == card]
    if same:  # the card may be played, but not so: its color or its target
        targets = sorted({a.target for a in same if a.target is not None})
        if action.target is not None and action.target not in targets:
            if not targets:
                return f"{card} takes no target seat: type it without >"
            listed = ", ".join(f"{t} ({names[t]})" for t in targets)
            return f"{card} can't target seat {action.target}: choose {listed}"
        if action.color is not None and card.color is not None:
            return f"{card} has its own color: type it without one"
        if action.uno and not any(a.uno for a in same):
            return f"UNO (!) goes with the play that leaves you one card; you hold {len(view.hand)}"
        return f"{card} can't be played that way now"
    if card.color is None:
        rest = _alternatives(view)
        return f"{card} can't be played now" + (f": play another card, or {rest}" if rest else "")
    rest = _alternatives(view)
    return f"{card} doesn't match: play {_top(view)}" + (f", or {rest}" if rest else "")


def seat_count_text(seats: int, allowed: Sequence[int], preset: str) -> str:
    """A seat count the rules refuse, in words.

    >>> seat_count_text(1, range(2, 11), "official")
    '1 seat is not allowed with the official rules: choose 2 to 10 seats'
    >>> seat_count_text(5, (4, 6, 8, 10), "partners")
    '5 seats are not allowed with the partners rules: choose 4, 6, 8 or 10 seats'
    """
    counts = list(allowed)
    if counts == list(range(counts[0], counts[-1] + 1)) and len(counts) > 2:
        choose = f"{counts[0]} to {counts[-1]}"
    elif len(counts) == 1:
        choose = str(counts[0])
    else:
        choose = ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"
    are = "seat is" if seats == 1 else "seats are"
    return f"{seats} {are} not allowed with the {preset} rules: choose {choose} seats"
