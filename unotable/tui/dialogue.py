"""The turn dialogue that ``unotable play`` and ``unotable join`` share: one set of words.

Both terminals show a seat's hand in the same order (by color, then rank, wilds last:
:func:`~unotable.tui.render.sort_hand`), so the indices typed mean the same cards; they say what
the seat may do in one line (:func:`options_line`), read a typed line against that hand
(:func:`read_command`), and ask for what an action still needs, a color and a target, with the
same prompts (:class:`Completion`). Only the way a line is read differs (a blocking ``input`` at
the local table, a reader thread at an online one), so each loop is three lines around a
:class:`Completion`.

>>> from unotable.game import Game
>>> g = Game.new(seats=3, seed=5)
>>> view = g.view(g.active_seat)
>>> options_line(view).startswith("You can: ")
True
>>> c = Completion(Play(Card.parse("W")), [Play(Card.parse("W"), color=Color.RED)], ["You", "A", "B"])
>>> c.prompt
'Name a color — r(ed), y(ellow), g(reen), b(lue); Enter to cancel: '
>>> c.answer("purple")
"'purple' is not a color; expected one of R, Y, G, B or red, yellow, green, blue"
>>> c.answer("r"), c.prompt, c.result
(None, None, Action.parse('W:R'))
>>> program_name("zzz-no-such-program")
'zzz-no-such-program'
"""
from __future__ import annotations

import dataclasses
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from unotable.actions import Accept, Action, CallUno, Catch, Challenge, ChooseColor, Draw, Pass, Play
from unotable.cards import Card, Color
from unotable.errors import NotationError
from unotable.phase import Phase
from unotable.tui.commands import missing, read_line
from unotable.tui.render import sort_hand
from unotable.views import PlayerView

__all__ = ["COLOR_PROMPT", "Completion", "legal_line", "options_line", "playable", "program_name",
           "read_command", "shown_hand", "target_prompt", "terminal_width", "wrap_words"]

COLOR_PROMPT = "Name a color — r(ed), y(ellow), g(reen), b(lue); Enter to cancel: "

_WORDS = (("draw", Draw), ("pass", Pass), ("accept", Accept), ("challenge", Challenge), ("uno", CallUno))


def shown_hand(view: PlayerView) -> tuple[Card, ...]:
    """The seat's hand in the order it is shown and typed (by color, then rank, wilds last)."""
    return sort_hand(view.hand)


def playable(hand: Sequence[Card], legal: Sequence[Action]) -> frozenset[int]:
    """The indices of ``hand`` whose card some legal play plays."""
    return frozenset(i for i, c in enumerate(hand) if any(isinstance(a, Play) and a.card == c for a in legal))


def options_line(view: PlayerView, legal: Sequence[Action] | None = None) -> str:
    """What the seat of ``view`` may do now (``legal``, by default the view's), in words it can type."""
    legal = view.legal if legal is None else legal
    indices = [str(i) for i in sorted(playable(shown_hand(view), legal))]
    parts: list[str] = []
    if indices:
        parts.append("play " + ", ".join(indices))
    parts += [word for word, kind in _WORDS if any(isinstance(a, kind) for a in legal)]
    parts += [f"catch {t}" for t in sorted({a.target for a in legal if isinstance(a, Catch)})]
    if any(isinstance(a, ChooseColor) for a in legal):
        parts.append("name a color: r, y, g or b")
    text = "You can: " + " · ".join(parts) if parts else "You have no action now."
    if view.active == view.seat and view.phase is Phase.RESPOND:
        text = f"You face +{view.pending_penalty}. " + text
    if len(view.hand) == 2 and indices and any(isinstance(a, Play) and a.uno for a in legal):
        text += f"  (add ! to call UNO with your play: {indices[0]}!)"
    return text


def legal_line(legal: Sequence[Action]) -> str:
    """The ``moves`` answer: every legal action in notation."""
    return "Legal now: " + (", ".join(str(a) for a in legal) or "nothing")


def read_command(line: str, view: PlayerView) -> Action | str:
    """A typed line read against the seat's shown hand (see :func:`unotable.tui.commands.read_line`).

    Raises :class:`~unotable.errors.NotationError` for what is neither an action nor a word."""
    return read_line(
        line,
        shown_hand(view),
        drawn=view.drawn_card,
        exposed=[s for s in range(view.seats) if view.exposed[s] and s != view.seat],
        choosing_color=view.phase is Phase.CHOOSE_COLOR and view.active == view.seat,
    )


def target_prompt(targets: Sequence[int], names: Sequence[str]) -> str:
    return f"Target seat — {_choices(targets, names)}; Enter to cancel: "


def _choices(targets: Sequence[int], names: Sequence[str]) -> str:
    return ", ".join(f"{t} ({names[t]})" for t in targets)


class Completion:
    """The questions an action still needs (a wild's color, a target seat), one at a time.

    Show :attr:`prompt` and give the answer to :meth:`answer` until :attr:`prompt` is None; then
    :attr:`result` is the whole action, or None when the person backed out (an empty answer).
    """

    def __init__(self, action: Action, legal: Sequence[Action], names: Sequence[str]) -> None:
        need_color, targets = missing(action, legal)
        self.result: Action | None = action
        self.names = names
        self._color = need_color and isinstance(action, Play)
        self._targets = tuple(targets) if isinstance(action, Play | ChooseColor) else ()

    @property
    def prompt(self) -> str | None:
        if self.result is None:
            return None
        if self._color:
            return COLOR_PROMPT
        if self._targets:
            return target_prompt(self._targets, self.names)
        return None

    def answer(self, text: str) -> str | None:
        """Take one answer; the reason it was refused (to show, then ask again), or None."""
        answer = text.strip()
        if not answer:
            self.result = None
            return None
        if self._color:
            try:
                color = Color.parse(answer)
            except NotationError as exc:
                return str(exc)
            self.result = dataclasses.replace(self.result, color=color)  # type: ignore[type-var]
            self._color = False
            return None
        if answer.isdigit() and int(answer) in self._targets:
            self.result = dataclasses.replace(self.result, target=int(answer))  # type: ignore[type-var]
            self._targets = ()
            return None
        return f"{answer!r} is not one of the seats you can target: {_choices(self._targets, self.names)}"


def program_name(name: str = "unotable") -> str:
    """How to type the ``unotable`` command in a hint: ``unotable`` when it is on the PATH, else
    the path of this environment's script (``.venv/bin/unotable`` from the project's folder)."""
    if shutil.which(name):
        return name
    script = Path(sys.prefix) / "bin" / name
    if not script.is_file():
        return name
    try:
        relative = script.relative_to(Path.cwd())
    except ValueError:
        return str(script)
    return os.path.join(".", str(relative)) if relative.parent == Path(".") else str(relative)


def terminal_width(out: TextIO) -> int:
    """The width to wrap to: the terminal's columns, or 0 (no wrapping) when ``out`` is no terminal."""
    try:
        if not out.isatty():
            return 0
    except (AttributeError, ValueError):
        return 0
    columns = shutil.get_terminal_size((80, 24)).columns
    return columns if columns >= 20 else 80  # a terminal that reports no real size


def wrap_words(text: str, width: int, indent: str = "  ") -> list[str]:
    """``text`` (plain, unstyled) in lines of at most ``width`` columns, broken between words only
    (a word longer than the line stands alone on its line); continuation lines start with
    ``indent``. ``width`` 0 does not wrap.

    >>> wrap_words("✗ You cannot play R7 on G5: play green or a 5, or draw", 24)
    ['✗ You cannot play R7 on', '  G5: play green or a 5,', '  or draw']
    >>> wrap_words("short", 0)
    ['short']
    """
    if width <= 0 or len(text) <= width:
        return [text]
    lead = text[: len(text) - len(text.lstrip(" "))]
    lines: list[str] = []
    line = lead
    for word in text.split():
        start = line in (lead, indent)
        marker = not lines and len(line.strip()) <= 2  # a leading mark (✗, ℹ) keeps its word
        if not start and not marker and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = indent + word
        else:
            line = line + word if start else f"{line} {word}"
    lines.append(line)
    return lines
