"""``unotable join URL``: play a seat of an online table from the terminal.

The client speaks the protocol of :mod:`unotable.server.protocol` over one websocket. It connects
to ``ws://HOST:PORT/ws/TABLE`` for the link a host shares (``http://HOST:PORT/t/TABLE``), says
hello (with the seat token given, or the one saved for this table), and then:

- in the waiting room, without a seat, it sits down (at the seat asked for, else the first free
  one) under the name given (it asks for one when none is), and saves the seat's token;
- once the table is in play, without a seat, it watches as a spectator.

The protocol itself (links, tokens, creating a table, the connection that resumes with back-off, the
close codes, decoding views and events) is :mod:`unotable.client`, and what the server has told the
session (the seat, the table, the view, what was shown already) is the pure model of
:mod:`unotable.tui.online_state`; this module is the terminal's input and output around them: it
runs the connection, reads the person's lines and prints. It shows the table with the terminal
renderer (:mod:`unotable.tui.render`) and one line for each event as it arrives. Input is read on
its own thread, so updates keep coming while a line is typed: on the seat's turn the same input as
``unotable play`` works (hand indices, notation, words, through
:func:`unotable.tui.commands.read_line`), out-of-turn chances (UNO, catch, jump-in) are shown as
they come and accepted at any time, and the host's commands (``start``, ``next_round``, ``rematch``,
``add_bot N [LEVEL]``, ``remove_bot N``, ``kick N``), ``chat TEXT`` and ``quit`` are typed at the
same prompt. A refusal from the server is shown in plain words; it changes nothing. When the
connection drops, or the server asks it to, the client reconnects by itself with its token and the
last sequence number it saw (exponential backoff up to :data:`MAX_DELAY` seconds between tries) and
shows what it missed.

Tokens live in ``tokens.json`` (:class:`unotable.client.TokenStore`), keyed by the table's link.

>>> parse_table_url("http://127.0.0.1:8000/t/abc_DEF-123")
TableUrl(base='http://127.0.0.1:8000', table='abc_DEF-123')
>>> parse_table_url("https://uno.example/t/XYZ/").ws
'wss://uno.example/ws/XYZ'
>>> parse_table_url("ws://127.0.0.1:8000/ws/abc").link
'http://127.0.0.1:8000/t/abc'
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from websockets.asyncio.client import ClientConnection

from unotable.actions import Action
from unotable.cards import Card
from unotable.client.codes import CloseCode, ReconnectReason
from unotable.client.connection import GIVE_UP, MAX_DELAY, Connection, Ended
from unotable.client.links import (
    ClientError,
    TableUrl,
    TokenStore,
    create_table,
    data_dir,
    parse_table_url,
)
from unotable.errors import NotationError
from unotable.phase import Phase
from unotable.tui import dialogue
from unotable.tui.commands import COMMANDS_HELP, read_line
from unotable.tui.online_state import ERROR_WORDS, OnlineState, clean, split_command
from unotable.tui.render import (
    Style,
    event_lines,
    hand_lines,
    round_summary_lines,
    score_table_lines,
    standings_lines,
    table_lines,
    use_color,
)
from unotable.views import PlayerView

__all__ = [
    "HELP",
    "MAX_DELAY",
    "JoinError",
    "OnlineClient",
    "TableUrl",
    "TokenStore",
    "add_join_arguments",
    "create_table",
    "data_dir",
    "parse_table_url",
    "run_join",
    "run_join_from_args",
    "split_command",
]

CLOSE_TAKEN_OVER = CloseCode.TAKEN_OVER
CLOSE_NO_TABLE = CloseCode.NO_TABLE
"""The protocol's close codes, by their old names here (:mod:`unotable.client.codes` holds them)."""
JoinError = ClientError
"""A link, a flag or a server answer that makes no session (shown to the user, exit status 1)."""

HELP = COMMANDS_HELP + """\
  chat TEXT    say something to the table         sit [N]     take a free seat (waiting room)
  help (?)     this help              quit (q)   go (your seat is kept; end of input, Ctrl-C too)
  leave        give your seat up (a bot takes it in play)
  accept       after a match: accept the rematch the host proposed
Host commands: start · next_round · rematch (proposes; again: deals it now) · add_bot N [LEVEL]
  · remove_bot N · kick N"""

class _Quit(Exception):
    """The person asked to leave."""


class _Stop(Exception):
    """The session cannot go on (the reason is already shown)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


# ---------------------------------------------------------------------------------------------
# the session


class OnlineClient(OnlineState):
    """One person's terminal session at an online table: the session's state
    (:class:`~unotable.tui.online_state.OnlineState`) with the terminal and the connection around it."""

    def __init__(
        self,
        url: str,
        *,
        name: str | None = None,
        seat: int | None = None,
        token: str | None = None,
        host_token: str | None = None,
        out: TextIO,
        ask: Callable[[str], str],
        style: Style | None = None,
        tokens: TokenStore | None = None,
        max_delay: float = MAX_DELAY,
        give_up: float = GIVE_UP,
        echo_prompt: bool = False,
    ) -> None:
        where = parse_table_url(url)
        self.tokens = tokens if tokens is not None else TokenStore()
        super().__init__(where, name=name, seat=seat, token=token, host_token=host_token,
                         saved=self._saved(where))
        self.out = out
        self._ask = ask
        self.style = style or Style()
        self.max_delay = max_delay
        self.give_up = give_up
        self.echo_prompt = echo_prompt
        self.width = dialogue.terminal_width(out)
        self.conn = Connection(self.where, self.hello, self.handle, self._retrying, max_delay, give_up)
        self.welcomed = asyncio.Event()
        self._waiting_line = False
        # what the terminal shows
        self._shown_hand: tuple[Card, ...] | None = None
        self._rematch_told: tuple[str, str] | None = None  # the rematch's terms, as last told
        self._prompting: str | None = None
        self.stopped: int | None = None

    # -- output ------------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        if self._prompting is not None and self.echo_prompt:
            self.out.write("\r\x1b[K" if self.style.color else "\n")
            self._prompting = None
        self.out.write(text + "\n")
        self.out.flush()

    def error(self, text: str) -> None:
        for line in dialogue.wrap_words(f"✗ {text}", self.width):
            self.say(self.style.error(line))

    def _reprompt(self) -> None:
        if self.echo_prompt and self._waiting_line and self._prompting is None:
            self._prompting = self.prompt()
            self.out.write(self._prompting)
            self.out.flush()

    # -- the saved tokens ------------------------------------------------------------------------------

    def _saved(self, where: TableUrl) -> dict[str, Any]:
        try:
            return self.tokens.get(where.link)
        except OSError:
            return {}

    def _save(self, **fields: Any) -> None:
        try:
            self.tokens.update(self.where.link, **fields)
        except OSError as exc:
            self.error(f"Could not save the token in {self.tokens.path}: {exc}")
            if fields.get("token"):
                self.say(f"Keep it to come back: --token {fields['token']}")

    # -- the connection --------------------------------------------------------------------------

    async def connection_loop(self) -> None:
        """Stay connected (:class:`unotable.client.connection.Connection`); say why it ends."""
        try:
            await self.conn.run()
        except Ended as end:
            if end.why == "taken_over":
                self.say("This seat was taken over by another connection; this one stops here.")
                raise _Stop(0) from None
            if end.why == "no_table":
                self.error(f"There is no table at {self.where.link} (a wrong link, or a finished table).")
                raise _Stop(1) from None
            if end.why == "gave_up":
                self.error(f"No connection for {self.give_up:g} s: giving up. Join again later.")
                raise _Stop(1) from None
            self.error(f"Could not join {self.where.link}: {end.detail}")
            raise _Stop(1) from None

    def _retrying(self, delay: float, attempt: int) -> None:
        if attempt == 1:
            self.say(self.style.dim(f"… connection lost; reconnecting in {delay:g} s"))
        else:
            self.say(self.style.dim(f"… no answer yet; trying again in {delay:g} s (try {attempt})"))

    @property
    def ws(self) -> ClientConnection | None:
        return self.conn.ws

    @ws.setter
    def ws(self, ws: ClientConnection | None) -> None:
        self.conn.ws = ws

    async def send(self, msg: dict[str, Any]) -> bool:
        if self.conn.ws is None:
            self.error("Not connected right now (reconnecting): try again in a moment.")
            return False
        if not await self.conn.send(msg):
            self.error("The connection dropped before that was sent: try again once reconnected.")
            return False
        return True

    # -- what the server says --------------------------------------------------------------------

    async def handle(self, msg: dict[str, Any]) -> bool:
        """Show one server message; True when the server asked us to reconnect."""
        try:
            return self._handle(msg)
        except (_Quit, _Stop):
            raise
        except Exception as exc:  # a message this client cannot read must not end the session
            self.error(f"Could not show a message from the server ({type(exc).__name__}: {exc})")
            return False

    def _handle(self, msg: dict[str, Any]) -> bool:
        kind = msg.get("type")
        if kind == "welcome":
            self.on_welcome(msg)
        elif kind == "update":
            self.on_update(msg)
        elif kind == "token":
            self.on_token(msg)
        elif kind == "chat":
            self.note_seq(msg)
            who = clean(str(msg.get("name", "?")))
            seat = msg.get("seat")
            you = " (you)" if seat is not None and seat == self.me else ""
            self.say(f"  [chat] {who}{you}: {clean(str(msg.get('text', '')))}")
        elif kind == "error":
            self.on_error(msg)
        elif kind == "presence":  # someone came or went: the waiting room shows it, play goes on
            if isinstance(msg.get("table"), dict):
                self.info = msg["table"]
            if self.status != "waiting":
                return False
            self.after_change()
        elif kind == "reconnect":
            why = clean(str(msg.get("message") or msg.get("reason", "")))
            if msg.get("reason") == ReconnectReason.TAKEN_OVER:  # the code, never the prose
                self.say(f"The server says: {why}.")
                return False  # the close (4001) that follows stops this session
            self.say(self.style.dim(f"… the server asks us to reconnect ({why})"))
            return True
        self._reprompt()
        return False

    def on_welcome(self, msg: dict[str, Any]) -> None:
        first = not self.welcomed.is_set()
        events = self.welcome(msg)
        if first:
            self.intro()
        else:
            self.say(self.style.dim("… reconnected") + (f": {len(events)} missed event(s)" if events else ""))
        self.show_events(events)
        self.seen_welcome(first)
        self.after_change(force_room=True)
        self.welcomed.set()

    def intro(self) -> None:
        info = self.info or {}
        settings = info.get("settings") or {}
        seats = len(info.get("seats") or [])
        preset = clean(str(settings.get("preset", "?")))
        self.say(self.style.bold(f"unotable · table {self.where.table}") + f" — {preset}, {seats} seats")
        if self.me is not None:
            self.say(f"You are seat {self.me} ({self.names_raw()[self.me]}).")
        elif self.status != "waiting":
            self.say("The table is in play: you are watching as a spectator.")
        if self.host:
            self.say("You hold the host token: start, next_round, rematch, add_bot N, remove_bot N, kick N.")
        self.say("Type help for the commands.")

    async def sit_down(self, seat: int | None = None) -> None:
        """Take the seat asked for, else the first free one."""
        wanted = self.free_seat(seat)
        if wanted is None:
            self.say("Every seat is taken: you are watching.")
            return
        if self.want_name is None:
            name = ""
            while not name:
                name = " ".join((await self.ask_line("Your name at the table: ")).split())
            self.want_name = name[:24]
        await self.send({"type": "sit", "seat": wanted, "name": self.want_name})

    def on_token(self, msg: dict[str, Any]) -> None:
        taken = self.taken_seat(msg)
        if taken is not None:
            token, seat = taken
            self._save(token=token, seat=seat, name=self.want_name)
            again = f"{dialogue.program_name()} join {self.where.link}"
            self.say(f"You sit at seat {seat}. Your token is saved: `{again}` "
                     "brings you back to this seat.")

    def on_update(self, msg: dict[str, Any]) -> None:
        self.update(msg)
        late = msg.get("timed_out")
        if isinstance(late, int):
            names = self.names
            who = names[late] if 0 <= late < len(names) else f"Seat {late}"
            self.say(self.style.dim(f"  {who} ran out of time: the table made the usual move."))
        self.show_events(msg.get("events") or [])
        self.after_change()
        self.tell_rematch()

    def tell_rematch(self) -> None:
        """A rematch proposed (or its terms changed): say so once, with the target, and how to accept."""
        offer = (self.info or {}).get("rematch")
        if not isinstance(offer, dict) or self.status != "match_over":
            self._rematch_told = None
            return
        settings = (self.info or {}).get("settings") or {}
        target = (settings.get("options") or {}).get("target_score", "")
        terms = (clean(str(settings.get("preset", "?"))), clean(str(target)))
        accepted = offer.get("accepted") or []
        if self.me is None or self.me in accepted or terms == self._rematch_told:
            return
        self._rematch_told = terms
        goal = f", {terms[1]} points to win" if terms[1] else ""
        self.say(self.style.bold(f"The host proposes a rematch ({terms[0]}{goal}): type accept to play it."))

    def on_error(self, msg: dict[str, Any]) -> None:
        code = str(msg.get("code", ""))
        text = clean(str(msg.get("message", "")))
        if code == "forbidden" and "token holds no seat" in text:
            self.say("The saved token holds no seat at this table any more.")
            self.token = None
            self._save(token=None, seat=None)
            return
        if text == "no such table":
            return  # the close that follows (4004) says it
        words = ERROR_WORDS.get(code, "Refused")
        self.error(f"{words}: {text}" if text else words)
        if code == "forbidden" and self.me is None and self.status == "waiting" and "is taken" in text:
            self.say("Type sit to take the first free seat, or sit N for seat N.")

    def show_events(self, docs: Sequence[Any]) -> None:
        events = self.new_events(docs)
        if events:
            for line in event_lines(events, self.names, self.style, self.me, everything=False):
                self.say("  " + line)

    def after_change(self, force_room: bool = False) -> None:
        """Show what the change calls for (:meth:`~OnlineState.to_show`): the waiting room, the
        table on our turn, an out-of-turn chance, the round's summary."""
        what = self.to_show(force_room)
        if what == "room":
            self.show_room()
        elif what == "summary":
            self.show_summary()
        elif what == "table":
            self.show_table()
        elif what == "chance":
            mine = self.my_view()
            if mine is not None:
                self.show_chance(mine)

    def show_room(self) -> None:
        info = self.info
        if info is None:
            return
        parts = []
        for s in info["seats"]:
            i = s["seat"]
            if s["kind"] == "empty":
                what = "free"
            elif s["kind"] == "bot":
                what = f"{clean(str(s.get('name') or 'Bot'))} (bot, {clean(str(s.get('level') or ''))})"
            else:
                what = clean(str(s.get("name") or "?"))
                if i == self.me:
                    what += " (you)"
            parts.append(f"{i}: {what}")
        status = self.status
        head = {"waiting": "Waiting room", "round_over": "Between rounds", "match_over": "Match over"}.get(
            status, "Table"
        )
        self.say(self.style.bold(head) + " — " + " · ".join(parts))
        if status == "waiting" and self.host:
            self.say("When everyone is seated, type start (add_bot N [LEVEL] fills seat N with a bot).")
        elif status == "waiting":
            self.say("Waiting for the host to start.")

    def show_table(self) -> None:
        view = self.view
        if view is None:
            return
        mine = self.my_view()
        hand = dialogue.shown_hand(mine) if mine is not None else None
        shown = dialogue.playable(hand, mine.legal) if mine is not None and hand is not None else frozenset()
        self.say()
        title = clean(str(self.setting("preset") or ""))
        for line in table_lines(view, self.names, self.style, self.levels(), title, shown, hand=hand,
                                width=self.width):
            self.say(line)
        if mine is not None:
            self._shown_hand = hand
            if self.my_turn() or mine.legal:
                self.say(self.options_line(mine))

    def show_chance(self, view: PlayerView) -> None:
        top = self.style.card(view.top_card) if view.top_card is not None else "(none)"
        color = self.style.color_word(view.current_color)
        self.say(f"You may act out of turn. Top card: {top}, color {color}.")
        hand = dialogue.shown_hand(view)
        for line in hand_lines(self.style, hand, width=self.width, prefix="Your hand: "):
            self.say(line)
        self._shown_hand = hand
        self.say(self.options_line(view) + "   (or let play go on)")

    def show_summary(self) -> None:
        view = self.view
        if view is None:
            return
        names = self.names
        self.say()
        for line in round_summary_lines(view, names, self.style):
            self.say(line)
        self.say()
        for line in score_table_lines(view, names, self.style):
            self.say(line)
        if view.outcome is not None:
            self.say()
            for line in standings_lines(view, names, self.style):
                self.say(line)
            if self.me is not None:
                won = self.me in view.outcome.winners
                self.say(self.style.bold("You won the match!" if won else "You lost the match."))
            self.say("The record, seed included, is at " f"{self.where.link}/record"
                     + (" · type rematch to propose another match" if self.host else ""))
        else:
            pause = self.setting("round_pause")
            when = f" or after {pause:g} s" if isinstance(pause, int | float) else ""
            self.say(f"The next round is dealt when the host says so (next_round){when}.")

    def options_line(self, view: PlayerView) -> str:
        """What this seat may do now, in the words it can type (the dialogue of ``unotable play``)."""
        return dialogue.options_line(view)

    # -- input -----------------------------------------------------------------------------------

    async def ask_line(self, prompt: str) -> str:
        """One line from ``ask``, read on a daemon thread so updates keep printing meanwhile."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[str] = loop.create_future()

        def settle(result: str | None, exc: BaseException | None) -> None:
            if done.done():
                return
            if exc is not None:
                done.set_exception(exc)
            else:
                done.set_result(result or "")

        def read() -> None:
            try:
                line = self._ask(prompt)
            except BaseException as exc:  # EOFError, KeyboardInterrupt: handed to the loop
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(settle, None, exc)
                return
            with contextlib.suppress(RuntimeError):  # the loop is gone: the session ended
                loop.call_soon_threadsafe(settle, line, None)

        self.out.flush()
        self._waiting_line = True
        self._prompting = prompt if self.echo_prompt else None
        threading.Thread(target=read, name="unotable-input", daemon=True).start()
        try:
            return await done
        finally:
            self._waiting_line = False
            self._prompting = None

    async def input_loop(self) -> None:
        await self.welcomed.wait()
        if self.need_seat:
            await self.sit_down()
        while True:
            line = await self.ask_line(self.prompt())
            await self.handle_line(line)

    async def handle_line(self, line: str) -> None:
        """Do what one typed line says."""
        command = split_command(line)
        if command is not None:
            await self.command(*command)
            return
        if line.strip().lower() == "accept" and self.status == "match_over":  # the rematch proposed
            if (self.info or {}).get("rematch") is None:
                self.error("No rematch is proposed yet: the host proposes one (rematch).")
            else:
                await self.send({"type": "accept_rematch"})
            return
        mine = self.my_view()
        try:
            parsed: Action | str = read_line(line, ()) if mine is None else dialogue.read_command(line, mine)
        except NotationError as exc:
            self.error(f"{exc}  (type help for the commands)")
            return
        if isinstance(parsed, str):
            self.word(parsed)
            return
        if mine is None:
            self.error("You hold no seat at this table: you are watching.")
            return
        changed = self._shown_hand is not None and dialogue.shown_hand(mine) != self._shown_hand
        if line.strip()[:1].isdigit() and changed:
            self.say("Your hand changed since it was shown; here it is again (nothing was played).")
            self.show_table()
            return
        action = await self.complete(parsed, mine.legal)
        if action is None:
            return
        await self.send({"type": "act", "action": str(action)})

    def word(self, word: str) -> None:
        if word == "quit":
            raise _Quit
        if word == "help":
            self.say(HELP)
        elif word == "table":
            if self.view is None:
                self.show_room()
            else:
                self.show_table()
        elif word == "moves":
            mine = self.my_view()
            self.say(dialogue.legal_line(mine.legal if mine is not None else ()))
        else:  # an empty line
            mine = self.my_view()
            if mine is not None and (self.my_turn() or mine.legal) and mine.phase < Phase.ROUND_OVER:
                self.say(self.options_line(mine))

    async def command(self, kind: str, args: list[str]) -> None:
        numbers = [a for a in args if a.isdigit()]
        if kind == "leave":
            if self.me is None:
                self.error("You hold no seat to leave.")
            elif await self.send({"type": "leave"}):
                self._save(token=None, seat=None)
                self.token = None
                bot = " (a bot plays it now)" if self.status != "waiting" else ""
                self.say(f"You gave your seat up{bot}.")
                self.me = None
            return
        if kind == "sit":
            if self.me is not None:
                self.error(f"You already sit at seat {self.me}.")
            elif self.status != "waiting":
                self.error("Seats are taken in the waiting room; the table is in play: you are watching.")
            else:
                await self.sit_down(int(numbers[0]) if numbers else None)
            return
        msg = self.command_message(kind, args)
        if isinstance(msg, str):
            self.error(msg)
        else:
            await self.send(msg)

    async def complete(self, action: Action, legal: Sequence[Action]) -> Action | None:
        """Ask for the color and target that ``action`` still needs; None when the person backs out."""
        asking = dialogue.Completion(action, legal, self.names)
        while (prompt := asking.prompt) is not None:
            if (refused := asking.answer(await self.ask_line(prompt))) is not None:
                self.error(refused)
        return asking.result

    # -- the whole session -----------------------------------------------------------------------

    async def main(self) -> int:
        reader = asyncio.create_task(self.connection_loop(), name="unotable-connection")
        typist = asyncio.create_task(self.input_loop(), name="unotable-input")
        try:
            done, _ = await asyncio.wait({reader, typist}, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                exc = task.exception()
                if exc is not None:
                    raise exc
            return 0  # pragma: no cover - both loops run until an exception
        except _Quit:
            if self.me is not None and self.token:
                again = f"{dialogue.program_name()} join {self.where.link}"
                self.say(f"Goodbye. Your seat is kept: {again} brings you back.")
            else:
                self.say("Goodbye.")
            return 0
        except EOFError:
            self.say("\nEnd of input. Goodbye.")
            return 0
        except _Stop as stop:
            return stop.status
        finally:
            for task in (reader, typist):
                task.cancel()
            for task in (reader, typist):
                with contextlib.suppress(asyncio.CancelledError, Exception, KeyboardInterrupt):
                    await task
            ws = self.ws
            if ws is not None:
                with contextlib.suppress(Exception):
                    await ws.close()


def run_join(
    url: str,
    name: str | None = None,
    seat: int | None = None,
    token: str | None = None,
    out: TextIO | None = None,
    ask: Callable[[str], str] | None = None,
    *,
    host_token: str | None = None,
    color: bool | None = None,
    tokens: TokenStore | None = None,
    max_delay: float = MAX_DELAY,
    give_up: float = GIVE_UP,
    on_start: Callable[[OnlineClient], None] | None = None,
) -> int:
    """Play (or watch) the table at ``url`` from the terminal; the exit status.

    0 when the person leaves (``quit``, end of input), 130 after Ctrl-C, 1 when the table cannot
    be joined (a wrong link, no server) or the connection cannot be restored. ``on_start`` gets
    the session's :class:`OnlineClient` before it connects (a scripted ``ask`` reads its view)."""
    out = out if out is not None else sys.stdout
    style = Style(use_color(out) if color is None else color)
    try:
        client = OnlineClient(
            url,
            name=name,
            seat=seat,
            token=token,
            host_token=host_token,
            out=out,
            ask=ask if ask is not None else input,
            style=style,
            tokens=tokens,
            max_delay=max_delay,
            give_up=give_up,
            echo_prompt=ask is None and _isatty(out),
        )
    except JoinError as exc:
        out.write(f"unotable join: {exc}\n")
        return 1
    if on_start is not None:
        on_start(client)
    try:
        return asyncio.run(client.main())
    except KeyboardInterrupt:
        out.write("\nInterrupted. Goodbye.\n")
        out.flush()
        return 130


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# ---------------------------------------------------------------------------------------------
# the command line


def add_join_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``unotable join``."""
    parser.add_argument(
        "url", metavar="URL",
        help="the table's link (http://HOST:PORT/t/TABLE); with --create, the server (http://HOST:PORT)",
    )
    parser.add_argument("--name", help="your name at the table (asked for when a seat is taken without one)")
    parser.add_argument("--seat", type=int, metavar="N", help="the seat to take (default: the first free)")
    parser.add_argument("--token", help="your seat's token (default: the one saved for this table)")
    parser.add_argument("--host-token", help="the host's token: start, next_round, rematch, bots, kick")
    parser.add_argument("--no-color", action="store_true", help="no ANSI colors")
    create = parser.add_argument_group("creating a table (--create URL is the server's address)")
    create.add_argument("--create", action="store_true", help="create a table on the server, then join it")
    create.add_argument("--preset", default="official", metavar="NAME", help="the ruleset preset")
    create.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                        help="a ruleset option (repeatable)")
    create.add_argument("--seats", type=int, default=4, metavar="N", help="seats at the table (default 4)")
    create.add_argument("--bots", type=int, default=0, metavar="N", help="bots in the last N seats")
    create.add_argument("--bot-level", default="heuristic", metavar="LEVEL", help="the bots' level")


def run_join_from_args(args: argparse.Namespace) -> int:
    """``unotable join``: create the table first with ``--create``, then join it."""
    url: str = args.url
    host_token: str | None = args.host_token
    if args.create:
        from unotable.errors import RulesetError
        from unotable.tui.play import parse_option

        try:
            options = dict(parse_option(o) for o in args.option)
            url, host_token = create_table(url, args.preset, args.seats, args.bots, options,
                                           bot_level=args.bot_level)
        except (JoinError, RulesetError) as exc:
            print(f"unotable join: {exc}", file=sys.stderr)
            return 1
        try:
            TokenStore().update(parse_table_url(url).link, host_token=host_token)
            where = f"the host token is saved in {TokenStore().path}"
        except (OSError, JoinError):
            where = f"host token: {host_token} (keep it: --host-token)"
        print(f"Table created: {url}\nShare this link; {where}.", flush=True)
    color = False if args.no_color else None
    return run_join(url, args.name, args.seat, args.token, host_token=host_token, color=color)


def main(argv: list[str] | None = None) -> int:
    """``python -m unotable.tui.online`` (the same as ``unotable join``)."""
    parser = argparse.ArgumentParser(prog="unotable join", description="Play an online table.")
    add_join_arguments(parser)
    return run_join_from_args(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
