"""``unotable replay RECORD.json``: a recorded game, turn by turn, as one seat or everyone saw it.

The record is checked with :func:`unotable.record.replay` first (a record that does not replay is
reported, not half printed), then stepped through action by action. Each action is printed with
the events it caused that the chosen viewer may see: ``seat`` N sees what that seat saw (its own
cards, the cards it drew, the public table), ``public`` what a spectator saw, ``full`` every event,
private ones included, and the hand of each seat before it acts. Each action is headed by its
first event's line (``#3    Bot 1 played R7``), once; the seats have the names of the record.

>>> from unotable.game import Game
>>> g = Game.new(seats=2, seed=4)
>>> _ = g.play(g.legal_actions[0])
>>> lines = list(replay_lines(Record.from_game(g), Style(), viewer="public"))
>>> lines[0]
'Record: classic108 (deck defaults), 2 seats, seed 4, 1 action (public view)'
>>> any(line.startswith("#1 ") for line in lines)
True
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Literal

from unotable.errors import RecordError
from unotable.events import Event
from unotable.game import Game
from unotable.record import Record, replay
from unotable.tui.render import Style, event_lines

__all__ = ["STEP_PROMPT", "Viewer", "replay_lines", "run_replay"]

STEP_PROMPT = "-- Enter: next action, c: the rest without pauses, q: quit -- "

Viewer = int | Literal["full", "public"]


def replay_lines(record: Record, style: Style, viewer: Viewer = "full") -> Iterator[str]:
    """The lines of the replay of ``record`` as ``viewer`` (a seat, ``"public"`` or ``"full"``) sees it.

    Raises :class:`~unotable.errors.RecordError` when the record does not replay or names a seat
    it does not have.
    """
    final = replay(record)
    if isinstance(viewer, int) and not 0 <= viewer < record.seats:
        raise RecordError(f"seat {viewer} does not exist: the record has seats 0 to {record.seats - 1}")
    names = list(record.names) if record.names else [f"Seat {s}" for s in range(record.seats)]
    seat: int | None = viewer if isinstance(viewer, int) else None

    def visible(events: Sequence[Event]) -> Iterator[str]:
        for line in event_lines(events, names, style, seat, everything=viewer == "full"):
            yield "      " + line

    count = sum(1 for actor, _ in record.actions if actor is not None)
    who = {"full": "full view", "public": "public view"}.get(str(viewer), f"as seat {viewer} saw it")
    start = f"seed {record.seed}" if record.seed is not None else "a start position"
    yield (f"Record: {record.ruleset.describe()}, {record.seats} seats, {start}, "
           f"{count} action{'' if count == 1 else 's'} ({who})")
    if record.position is not None:
        game = Game.from_position(record.position)
    else:
        assert record.seed is not None
        game = Game.new(record.seats, record.ruleset, record.seed)
    yield from visible(game.events)
    i = 0
    for actor, action in record.actions:
        if actor is None:  # the referee deals the next round
            yield from visible(game.play(action))
            continue
        i += 1
        hand = ""
        if viewer == "full" or viewer == actor:
            hand = "   " + style.dim("holding " + " ".join(str(c) for c in game.hand(actor)))
        # The action's first line says what it was ("Bot 1 played R7"): it heads the action,
        # with no second copy of the action in notation.
        lines = [line.strip() for line in visible(game.play(action, actor))]
        head = lines.pop(0) if lines else f"{names[actor]}: {action}"
        yield f"#{i:<4} {head}{hand}"
        for line in lines:
            yield "      " + line
    if game.events != final.events:  # pragma: no cover - replay() and this loop are the same steps
        raise RecordError("the record replayed two different ways")
    outcome = game.outcome()
    if outcome is not None:
        winners = " and ".join(names[s] for s in outcome.winners) or "nobody"
        rounds = f"{outcome.rounds} round{'' if outcome.rounds == 1 else 's'}"
        yield f"End of the record: the match is over after {rounds}; won by {winners}"
    else:
        yield f"End of the record: the match was not finished (round {game.round_no})"


def run_replay(
    record: Record,
    style: Style,
    viewer: Viewer,
    write: Callable[[str], None],
    step: Callable[[str], str] | None = None,
) -> int:
    """Print the replay with ``write``; with ``step``, wait for Enter after each action.

    At a pause, ``q`` stops the replay there; ``c`` (or the end of input) prints the rest
    without pausing.
    """
    first = True
    for line in replay_lines(record, style, viewer):
        if step is not None and (line.startswith("#") or line.startswith("End of the record")):
            if not first:
                try:
                    answer = step(STEP_PROMPT).strip().lower()
                except EOFError:
                    answer = "c"
                if answer in ("q", "quit"):
                    write("Replay stopped.")
                    return 0
                if answer in ("c", "continue"):
                    step = None
            first = False
        write(line)
    return 0
