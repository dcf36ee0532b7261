"""``unotable play``: you against bots in the terminal.

The loop shows the table as your seat sees it (``game.view(seat)``) and one line for every event
your seat may see (``game.events_since``, as it grows). The table is driven by
:class:`unotable.arbiter.Arbiter`, with you as the agent of your seat: the bots play and react out
of turn (UNO calls, catches, jump-ins) in its documented order, and when you may act out of turn
yourself (call UNO, catch a seat, jump in), you are asked in your place in that order; press Enter
to let play go on. Rejected input prints the reason and asks again: the game is unchanged.
``quit`` asks first, then ends the session with status 0, as end of input does; Ctrl-C ends it
with 130. Whatever the way out, the match's record is kept in the data directory
(:mod:`unotable.tui.records`).
"""
from __future__ import annotations

import secrets
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from unotable import __version__
from unotable.actions import Action
from unotable.agent import Agent
from unotable.arbiter import Applied
from unotable.cards import Card
from unotable.errors import NotationError, RulesetError, UnoError
from unotable.game import Game
from unotable.phase import Phase
from unotable.record import Record
from unotable.rules import Ruleset
from unotable.tui.commands import COMMANDS_HELP
from unotable.tui.dialogue import (
    Completion,
    legal_line,
    options_line,
    playable,
    program_name,
    read_command,
    shown_hand,
    terminal_width,
    wrap_words,
)
from unotable.tui.driver import Bot, Table, make_bot
from unotable.tui.explain import explain, seat_count_text
from unotable.tui.records import keep_record
from unotable.tui.render import (
    Style,
    card_help,
    deck_help_lines,
    event_lines,
    hand_lines,
    round_summary_lines,
    score_table_lines,
    seat_names,
    standings_lines,
    table_lines,
)
from unotable.views import PlayerView

__all__ = ["DEFAULT_DELAY", "HELP", "PlayConfig", "Session", "SetupError", "parse_option", "run_play"]

HELP = COMMANDS_HELP + """\
  help (?)     this help              quit (q)   leave the match (asked first; end of input or Ctrl-C too)
Every match's record is kept: unotable replay --list"""


DEFAULT_DELAY = 0.6
"""Seconds ``unotable play`` pauses after each bot action (``--delay``; ``--fast`` for none)."""


class SetupError(ValueError):
    """A flag that cannot make a match (an unknown bot level, a bad --bots list)."""


class Quit(Exception):
    """The player asked to leave."""


def parse_option(text: str) -> tuple[str, object]:
    """One ``--option NAME=VALUE``: booleans and integers are read as such, anything else is a string.

    >>> parse_option("stacking=same_kind"), parse_option("jump_in=yes"), parse_option("uno_penalty=4")
    (('stacking', 'same_kind'), ('jump_in', True), ('uno_penalty', 4))
    """
    name, sep, raw = text.partition("=")
    name = name.strip().replace("-", "_")
    value = raw.strip()
    if not sep or not name or not value:
        raise RulesetError(f"an option is NAME=VALUE, as in stacking=same_kind, not {text!r}")
    low = value.lower()
    if low in ("true", "yes", "on"):
        return name, True
    if low in ("false", "no", "off"):
        return name, False
    if value.lstrip("-").isdigit():
        return name, int(value)
    return name, value


@dataclass
class PlayConfig:
    """Everything ``unotable play`` takes from its flags."""

    preset: str = "official"
    options: Sequence[str] = ()
    seats: int | None = None
    bots: Sequence[str] = ("heuristic",)
    seed: int | None = None
    name: str = "You"
    human: int = 0
    color: bool = False
    save: str | None = None
    width: int | None = None
    """Columns to wrap the hand to (None: the terminal's width, or no wrapping off a terminal)."""
    verbose: bool = False
    """Print the engine's own text under each refusal."""
    delay: float = 0.0
    """Seconds to pause after each bot action (none by default here; the command's default is
    :data:`DEFAULT_DELAY`)."""

    def ruleset(self) -> Ruleset:
        rules = Ruleset.preset(self.preset)
        changes = dict(parse_option(o) for o in self.options)
        return rules.replace(**changes) if changes else rules

    def seat_count(self, rules: Ruleset) -> int:
        if self.seats is not None:
            return self.seats
        if len(self.bots) > 1:
            return len(self.bots) + 1
        counts = rules.seat_counts
        return 4 if 4 in counts else counts[0]

    def bot_levels(self, seats: int) -> list[str]:
        """The level of each seat ('' for the human)."""
        others = seats - 1
        if len(self.bots) == 1:
            wanted = list(self.bots) * others
        elif len(self.bots) == others:
            wanted = list(self.bots)
        else:
            raise SetupError(
                f"--bots lists {len(self.bots)} levels for {others} bot seats: give one level or {others}"
            )
        return [*wanted[: self.human], "", *wanted[self.human:]]


class Session:
    """One match in the terminal: a human seat and bots."""

    def __init__(
        self,
        game: Game,
        table: Table,
        config: PlayConfig,
        levels: Sequence[str],
        out: TextIO,
        ask: Callable[[str], str],
        seed: int,
    ) -> None:
        self.game = game
        self.table = table
        self.config = config
        self.me = config.human
        self.levels = list(levels)
        self.names = seat_names(game.seats, self.me, config.name)
        self.style = Style(config.color)
        self.out = out
        self._ask = ask
        self.seed = seed
        self._shown = 0
        self._table_shown: tuple[int, int] = (-1, -1)
        self._explained: set[str] = set()
        self.width = config.width if config.width is not None else terminal_width(out)
        self.arbiter = table.arbiter({self.me: _Human(self)}, on_applied=self._applied)

    # -- input and output ----------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str:
        self.out.flush()
        return self._ask(prompt)

    def flush_events(self) -> None:
        """Print the events the human's seat may see that are not shown yet, and explain each
        special card the first time one shows up."""
        new = self.game.events_since(self._shown, self.me)
        for line in event_lines(new, self.names, self.style, self.me):
            self.say("  " + line)
        self._shown = self.game.last_seq
        seen: list[Card] = []
        for event in new:
            card = getattr(event, "card", None)
            if isinstance(card, Card):
                seen.append(card)
            cards = getattr(event, "cards", None)
            if isinstance(cards, tuple):
                seen += [c for c in cards if isinstance(c, Card)]
        self.explain_new(seen)

    def _applied(self, done: Applied) -> None:
        """After every applied action: a bot's action is shown as it happens, paced by --delay."""
        if done.seat is not None and done.seat != self.me and self.config.delay > 0:
            self.flush_events()
            time.sleep(self.config.delay)

    @property
    def version(self) -> tuple[int, int]:
        return (self.game.action_count, self.game.last_seq)

    # -- the match -----------------------------------------------------------------------------

    def run(self) -> int:
        """Play the match; the exit status (0, or 130 after Ctrl-C). Whatever the way out, the
        record of the match is kept (:mod:`unotable.tui.records`)."""
        status = 0
        try:
            self.intro()
            self.loop()
        except Quit:
            self.say("You left the match.")
        except EOFError:
            self.say("\nEnd of input.")
        except KeyboardInterrupt:
            self.say("\nInterrupted.")
            status = 130
        else:
            self.finish()
        self.keep()
        self.say("Goodbye.")
        return status

    def intro(self) -> None:
        g = self.game
        bots = ", ".join(f"{self.names[s]} ({self.levels[s]})" for s in range(g.seats) if s != self.me)
        rules = f" — {self.config.preset}: {g.ruleset.describe()}"
        self.say(self.style.bold(f"unotable {__version__}") + rules)
        self.say(f"{g.seats} seats, seed {self.seed}. You are seat {self.me}; against {bots}.")
        self.say("Type help for the commands.")

    def loop(self) -> None:
        game = self.game
        while True:
            self.flush_events()
            if game.phase is Phase.MATCH_OVER:
                self.round_summary()
                return
            if game.phase is Phase.ROUND_OVER:
                self.round_summary()
                self.between_rounds()
                self.arbiter.deal()
                continue
            self.arbiter.step()

    def round_summary(self) -> None:
        """Every hand left and how the points add up, the running scores, and at the end of the
        match the final standings."""
        view = self.game.view(self.me)
        self.say()
        for line in round_summary_lines(view, self.names, self.style):
            self.say(line)
        self.say()
        for line in score_table_lines(view, self.names, self.style):
            self.say(line)
        if view.outcome is not None:
            self.say()
            for line in standings_lines(view, self.names, self.style):
                self.say(line)

    def between_rounds(self) -> None:
        answer = self.ask(f"Press Enter to deal round {self.game.round_no + 1} (q to quit): ")
        if answer.strip().lower() in ("q", "quit", "exit"):
            self.confirm_quit()

    def finish(self) -> None:
        outcome = self.game.outcome()
        if outcome is not None:
            won = self.me in outcome.winners
            self.say(self.style.bold("You won the match!" if won else "You lost the match.")
                     + f" ({outcome.rounds} round{'s' if outcome.rounds != 1 else ''})")

    def keep(self) -> None:
        """Keep the record of the match in the data directory, and at --save PATH when given."""
        names = self.names
        try:
            path = keep_record(self.game, names, self.seed)
        except OSError as exc:
            self.say(self.style.error(f"Could not keep the record of this match: {exc}"))
        else:
            self.say(f"Record kept: {path}")
            cmd = program_name()
            self.say(f"Replay it with: {cmd} replay {path.name}   (all records: {cmd} replay --list)")
        if self.config.save:
            try:
                Path(self.config.save).write_text(
                    Record.from_game(self.game, names=names).to_json(indent=2) + "\n", encoding="utf-8")
            except OSError as exc:
                self.say(self.style.error(f"Could not save the record: {exc}"))
                return
            self.say(f"Record saved to {self.config.save}.")

    def confirm_quit(self) -> None:
        """Ask before leaving a match in progress; raise :class:`Quit` on yes."""
        answer = self.ask("Leave this match? It is not over; its record is kept. [y/N] ")
        if answer.strip().lower() in ("y", "yes"):
            raise Quit
        self.say("Play goes on.")

    def _title(self) -> str:
        return f"{self.config.preset} · seed {self.seed}"

    # -- the human's turn ----------------------------------------------------------------------

    def hand(self) -> tuple[Card, ...]:
        """The human's hand in the order shown and typed: by color, then rank, wilds last."""
        return shown_hand(self.game.view(self.me))

    def show_table(self) -> None:
        view = self.game.view(self.me)
        legal = self.game.legal_action_list(self.me)
        hand = self.hand()
        self.say()
        shown = playable(hand, legal)
        for line in table_lines(view, self.names, self.style, self.levels, self._title(), shown,
                                hand=hand, width=self.width):
            self.say(line)
        self.say(self.options_line(legal))
        self.explain_new([*hand, *([view.top_card] if view.top_card is not None else [])])
        self._table_shown = self.version

    def explain_new(self, cards: Sequence[Card]) -> None:
        """Explain each special card (No Mercy's, the 112-card editions') the first time it shows."""
        for card in cards:
            text = card_help(card)
            if text is not None and card.rank.code not in self._explained:
                self._explained.add(card.rank.code)
                for line in wrap_words(f"  ℹ {text}", self.width, "    "):
                    self.say(self.style.dim(line))

    def options_line(self, legal: Sequence[Action]) -> str:
        """What the human may do now, in the words they can type (the dialogue of both terminals)."""
        return options_line(self.game.view(self.me), legal)

    def my_turn(self) -> Action:
        self.flush_events()
        if self._table_shown != self.version:
            self.show_table()
        else:
            self.say(self.options_line(self.game.legal_action_list(self.me)))
        action = self.prompt_action("> ", out_of_turn=False)
        assert action is not None
        return action

    def out_of_turn(self, legal: Sequence[Action]) -> Action | None:
        self.flush_events()
        view = self.game.view(self.me)
        top = self.style.card(view.top_card) if view.top_card is not None else "(none)"
        color = self.style.color_word(view.current_color)
        self.say(f"You may act out of turn. Top card: {top}, color {color}.")
        for line in hand_lines(self.style, self.hand(), width=self.width, prefix="Your hand: "):
            self.say(line)
        self.say(self.options_line(legal) + "   (Enter: let play go on)")
        return self.prompt_action("(out of turn) > ", out_of_turn=True)

    def prompt_action(self, prompt: str, out_of_turn: bool) -> Action | None:
        """Ask until the human makes a legal action (or, out of turn, lets the chance pass)."""
        game = self.game
        while True:
            view = game.view(self.me)
            line = self.ask(prompt)
            try:
                command = read_command(line, view)
            except NotationError as exc:
                self.say(self.style.error(f"✗ {exc}") + "  (type help for the commands)")
                continue
            if isinstance(command, str):
                if command == "empty" and out_of_turn:
                    return None
                self.word(command)
                continue
            legal = game.legal_action_list(self.me)
            action = self.complete(command, legal)
            if action is None:
                continue
            try:
                return game.check(action, self.me)
            except UnoError as exc:
                self.refused(action, exc)

    def refused(self, action: Action, error: UnoError) -> None:
        """Say why ``action`` was refused, in a player's words (and the engine's with --verbose)."""
        for line in wrap_words(f"✗ {explain(action, self.game.view(self.me), self.names)}", self.width):
            self.say(self.style.error(line))
        if self.config.verbose:
            self.say(self.style.dim(f"  engine ({error.code}): {error}"))

    def word(self, command: str) -> None:
        if command == "quit":
            self.confirm_quit()
        elif command == "help":
            self.say(HELP)
            special = deck_help_lines(self.game.ruleset)
            if special:
                self.say("The special cards of this deck (a colored one has its color letter first: "
                         "RDA, BSE):")
                for line in special:
                    self.say(line)
        elif command == "table":
            self.show_table()
        elif command == "moves":
            self.say(legal_line(self.game.legal_action_list(self.me)))
        else:
            self.say(self.options_line(self.game.legal_action_list(self.me)))

    def complete(self, action: Action, legal: Sequence[Action]) -> Action | None:
        """Ask for the color and target that ``action`` still needs; None when the human backs out."""
        asking = Completion(action, legal, self.names)
        while (prompt := asking.prompt) is not None:
            if (refused := asking.answer(self.ask(prompt))) is not None:
                for line in wrap_words(f"✗ {refused}", self.width):
                    self.say(self.style.error(line))
        return asking.result


class _Human(Agent):
    """The person's agent for the arbiter: it asks at the terminal, through the session."""

    name = "human"

    def __init__(self, session: Session) -> None:
        self.session = session

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: object) -> Action | None:
        del rng
        if view.active == view.seat and view.phase < Phase.ROUND_OVER:
            return self.session.my_turn()
        return self.session.out_of_turn(legal)

    def rejected(self, action: Action, error: Exception) -> bool:
        assert isinstance(error, UnoError)  # the arbiter tells only the game's refusals
        self.session.refused(action, error)
        return True


def run_play(config: PlayConfig, out: TextIO | None = None, ask: Callable[[str], str] | None = None) -> int:
    """Set up the match of ``config`` and play it; returns the exit status."""
    out = out if out is not None else sys.stdout
    rules = config.ruleset()
    seats = config.seat_count(rules)
    try:
        rules.validate_seats(seats)
    except RulesetError:
        raise RulesetError(seat_count_text(seats, rules.seat_counts, config.preset)) from None
    if not 0 <= config.human < seats:
        raise RulesetError(f"seat {config.human} does not exist: this game has seats 0 to {seats - 1}")
    levels = config.bot_levels(seats)
    bots: dict[int, Bot] = {}
    for seat, level in enumerate(levels):
        if seat != config.human:
            try:
                bots[seat] = make_bot(level)
            except (ValueError, KeyError) as exc:
                raise SetupError(f"cannot make a {level!r} bot: {exc}") from None
    seed = config.seed if config.seed is not None else secrets.randbits(31)
    game = Game.new(seats, rules, seed)
    table = Table(game, bots, seed)
    session = Session(game, table, config, levels, out, ask if ask is not None else input, seed)
    return session.run()
