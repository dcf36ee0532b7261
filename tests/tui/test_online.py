"""``unotable join`` (unotable/tui/online.py) against a real server in its own process.

Each test starts ``python -m unotable.server.run`` on a free loopback port with its own SQLite
file, creates a table over HTTP (one person, three bots), and runs :func:`run_join` with a scripted
``ask``: a thread that reads the client's current view and types what a person would (hand
indices, words, notation), so the real input path is used end to end.
"""

from __future__ import annotations

import io
import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from unotable.actions import Accept, CallUno, Catch, Challenge, ChooseColor, Draw, Pass, Play
from unotable.phase import Phase
from unotable.tui.dialogue import program_name
from unotable.tui.online import (
    OnlineClient,
    TokenStore,
    create_table,
    parse_table_url,
    run_join,
    split_command,
)
from unotable.tui.render import sort_hand
from unotable.views import PlayerView

ROOT = Path(__file__).resolve().parents[2]
WAIT = 60.0


class Server:
    """The server in a subprocess; ``kill()`` is SIGKILL, ``start()`` again reuses the data dir and port."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.port = 0
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""

    def start(self) -> str:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "unotable.server.run", "--port", str(self.port), "--bot-pause", "0.02",
             "--round-pause", "30", "--data-dir", str(self.data)],
            stdout=subprocess.PIPE, stderr=open(self.data / "server.log", "a"),  # noqa: SIM115
            text=True, env=env, cwd=self.data,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert "serving at" in line, line
        self.url = line.split("serving at ", 1)[1].split()[0]
        self.port = int(self.url.rsplit(":", 1)[1])
        deadline = time.monotonic() + 20
        while True:  # the address is printed before the server listens: wait until it answers
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as r:
                    if r.status == 200:
                        return self.url
            except OSError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise AssertionError((self.data / "server.log").read_text())
            time.sleep(0.05)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    data = tmp_path / "server"
    data.mkdir()
    srv = Server(data)
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def tokens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> TokenStore:
    monkeypatch.setenv("UNOTABLE_DATA_DIR", str(tmp_path / "data"))
    return TokenStore()


class Person:
    """A scripted ``ask``: answers from the client's live view, like a person at the keyboard.

    It starts the table (as host), plays a legal action on each turn (a hand index for a card,
    with the color asked for afterwards; words for the rest), calls UNO when it may, and quits
    once the round is over. ``before_turn`` may type other lines first (bad input)."""

    def __init__(self, out: io.StringIO) -> None:
        self.out = out
        self.client: OnlineClient | None = None
        self.prompts: list[str] = []
        self.typed: list[str] = []
        self.turns = 0
        self.out_of_turn = 0
        self.acted_at = -1
        self.started = False
        self.setup: list[str] = []
        self.acted: list[tuple[int, Any, int | None]] = []
        self.pending: list[str] = []
        self.before_turn: Callable[[Person, PlayerView], list[str]] | None = None
        self.quit_when_round_over = True
        self.deadline = time.monotonic() + WAIT

    def attach(self, client: OnlineClient) -> None:
        self.client = client

    def type(self, line: str) -> str:
        self.out.write(line + "\n")
        self.typed.append(line)
        return line

    def __call__(self, prompt: str) -> str:
        self.out.write(prompt)
        self.prompts.append(prompt)
        if time.monotonic() > self.deadline:
            raise EOFError
        if self.pending and self.pending[0].startswith("@wait:"):
            if self.pending[0][6:] in self.out.getvalue():
                self.pending.pop(0)
            time.sleep(0.02)
            return ""
        if self.pending:
            return self.type(self.pending.pop(0))
        if prompt.startswith("Name a color"):
            return self.type("b")
        if prompt.startswith("Target seat"):
            return self.type(prompt.split("—", 1)[1].split()[0])
        if prompt.startswith("Your name"):
            return self.type("Ann")
        client = self.client
        assert client is not None
        view = client.my_view()
        if client.status == "waiting":
            if client.me is not None and self.setup:
                return self.type(self.setup.pop(0))
            if client.me is not None and not self.started:
                self.started = True
                return self.type("start")
            time.sleep(0.02)
            return ""
        if view is None:
            time.sleep(0.02)
            return ""
        if view.phase >= Phase.ROUND_OVER and self.quit_when_round_over:
            return self.type("quit")
        if view.seq == self.acted_at or not view.legal:
            time.sleep(0.02)
            return ""
        mine = view.active == view.seat and view.phase < Phase.ROUND_OVER
        if not mine:
            if any(isinstance(a, CallUno) for a in view.legal):
                self.acted_at = view.seq
                return self.type("uno")
            catches = [a.target for a in view.legal if isinstance(a, Catch)]
            if catches:  # out of turn: catch a seat that did not call UNO
                self.acted_at = view.seq
                self.out_of_turn += 1
                return self.type(f"catch {catches[0]}")
            time.sleep(0.02)
            return ""
        if self.before_turn is not None:
            hook, self.before_turn = self.before_turn, None
            lines = hook(self, view)
            if lines:
                self.pending = lines[1:]
                return self.type(lines[0])
        self.acted_at = view.seq
        self.turns += 1
        self.acted.append((view.seq, view.hand, client.last_seq))
        return self.type(self.choose(view))

    def choose(self, view: PlayerView) -> str:
        legal = view.legal
        hand = sort_hand(view.hand)  # the order shown and typed, grouped by color as in `unotable play`
        for a in legal:
            if isinstance(a, Play) and a.card in hand and a.target is None:
                index = hand.index(a.card)
                return f"{index}!" if a.uno else str(index)
        for a in legal:
            if isinstance(a, ChooseColor):
                return a.color.name.lower()
        for kind, word in ((Draw, "draw"), (Pass, "pass"), (Accept, "accept")):
            if any(isinstance(a, kind) for a in legal):
                return word
        turn = [a for a in legal if not isinstance(a, CallUno | Catch | Challenge)]
        return str((turn or list(legal))[0])


def new_table(url: str) -> tuple[str, str]:
    return create_table(url, "official", 4, 3, bot_level="heuristic")


def join(link: str, host_token: str | None, person: Person, out: io.StringIO, **kw: Any) -> int:
    return run_join(link, "Ann", None, None, out, person, host_token=host_token, color=False,
                    on_start=person.attach, **kw)


def test_a_round_from_the_terminal(server: Server, tokens: TokenStore) -> None:
    link, host = new_table(server.url)
    out = io.StringIO()
    person = Person(out)
    status = join(link, host, person, out)
    text = out.getvalue()
    assert status == 0, text
    assert "You sit at seat 0" in text
    assert "Waiting room" in text and "1: Bot 1 (bot, heuristic)" in text
    assert "Round 1" in text and "Top card:" in text and "Your hand: 0" in text  # the table
    assert "You can: " in text
    assert "── Round 1 ──" in text  # an event line
    assert "Bot 1 played" in text or "Bot 1 drew" in text
    assert "You played" in text or "You drew" in text
    assert "Round over:" in text and "Hands left:" in text and "Scores (first to 500" in text
    # the hint names the command as it can be typed here (unotable, or .venv/bin/unotable off the PATH)
    again = f"{program_name()} join {link}"
    assert text.rstrip().endswith(f"Goodbye. Your seat is kept: {again} brings you back.")
    assert person.turns >= 1
    assert "> " in person.prompts
    # the seat's token is saved, readable by its owner only, under the table's link
    saved = tokens.get(link)
    assert saved["seat"] == 0 and len(saved["token"]) >= 22
    assert stat.S_IMODE(tokens.path.stat().st_mode) == 0o600
    # the token brings the same seat back: a second join watches nothing new, it is seat 0 again
    out2 = io.StringIO()
    again = Person(out2)
    again.quit_when_round_over = True
    assert join(link, None, again, out2) == 0
    assert again.client is not None and again.client.me == 0
    assert "You are seat 0 (Ann)" in out2.getvalue()


def test_bad_input_is_explained_and_changes_nothing(server: Server, tokens: TokenStore) -> None:
    link, host = create_table(server.url, "official", 4, 2)  # seats 0 and 1 for people
    out = io.StringIO()
    person = Person(out)
    person.setup = ["add_bot 1 heuristic", "kick 5", "add_bot 3"]  # the host fills seat 1
    seen: dict[str, Any] = {}

    def bad(p: Person, view: PlayerView) -> list[str]:
        assert p.client is not None
        if view.phase is not Phase.PLAY:  # facing a Draw Four, "challenge" would be legal: later
            p.before_turn = bad
            return []
        seen["before"] = (view.seq, view.hand, p.client.last_seq)
        seen["turns"] = p.turns
        unplayable = [i for i, c in enumerate(sort_hand(view.hand))
                      if not any(isinstance(a, Play) and a.card == c for a in view.legal)]
        seen["beyond"] = len(view.hand)  # one past the last card (9 can be a card after a Draw Four)
        lines = [str(len(view.hand)), "zz", "challenge", "add_bot x", "chat"]
        if unplayable:
            lines += [str(unplayable[0]), "@wait:cannot be played now"]
        return [*lines, "@wait:✗ Not allowed now: challenge"]

    person.before_turn = bad
    status = join(link, host, person, out)
    text = out.getvalue()
    assert status == 0, text
    assert "0: Ann (you) · 1: Bot 1 (bot, heuristic) · 2: Bot 2" in text
    assert "✗ That does not work here: there is no seat 5" in text
    assert "✗ Not allowed: seat 3 is taken" in text
    assert f"✗ there is no card {seen['beyond']} in your hand" in text
    assert "✗ " in text and "zz" in text
    assert "✗ Not allowed now: " in text  # the server's refusal, in plain words
    assert "✗ type add_bot N [LEVEL]" in text
    assert "✗ chat what?" in text
    # nothing changed: once every refusal was in, the turn went on from the same view and table
    assert person.acted[seen["turns"]] == seen["before"]
    index = text.index("✗ Not allowed now: challenge")
    assert "You played" in text[index:] or "You drew" in text[index:]


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM"])
def test_reconnects_after_the_server_is_killed(server: Server, tokens: TokenStore, how: str) -> None:
    link, host = new_table(server.url)
    out = io.StringIO()
    person = Person(out)
    killed = threading.Event()
    restarted = threading.Event()
    kill_now = threading.Event()
    result: list[int] = []

    def turn(p: Person, view: PlayerView) -> list[str]:
        if p.turns >= 1 and not killed.is_set():
            kill_now.set()
            restarted.wait(WAIT)
            # wait for the client to be back (its second welcome)
            while p.client is not None and p.client.connections < 2 and time.monotonic() < p.deadline:
                time.sleep(0.05)
            return [""]  # look again: the view may have moved on
        p.before_turn = turn
        return []

    person.before_turn = turn
    thread = threading.Thread(target=lambda: result.append(join(link, host, person, out)), daemon=True)
    thread.start()
    assert kill_now.wait(WAIT), out.getvalue()
    seq_before = person.client.last_seq if person.client else None
    if how == "SIGKILL":
        server.kill()
    else:
        server.stop()
    killed.set()
    time.sleep(0.5)  # the client notices and starts its backoff
    server.start()
    restarted.set()
    thread.join(WAIT)
    text = out.getvalue()
    assert not thread.is_alive(), text
    assert result == [0], text
    assert "connection lost; reconnecting" in text
    assert "reconnected" in text
    after = text[text.index("reconnected"):]
    assert "Round over:" in after, text
    client = person.client
    assert client is not None and client.me == 0 and client.connections >= 2
    assert seq_before is not None and client.last_seq is not None and client.last_seq > seq_before
    assert tokens.get(link)["token"] == client.token


def test_a_wrong_link_and_no_table(server: Server, tokens: TokenStore) -> None:
    out = io.StringIO()
    assert run_join("http://example/nowhere", "Ann", None, None, out, lambda p: "quit") == 1
    assert "is not a table's link" in out.getvalue()
    out = io.StringIO()
    status = run_join(f"{server.url}/t/NoSuchTable00000", "Ann", None, None, out, lambda p: "quit")
    assert status == 1
    assert "There is no table" in out.getvalue()


def test_links_and_commands() -> None:
    where = parse_table_url("http://h:1/t/abc")
    assert (where.base, where.table, where.ws) == ("http://h:1", "abc", "ws://h:1/ws/abc")
    assert split_command("kick 2") == ("kick", ["2"])
    assert split_command("next") == ("next_round", [])
    assert split_command("draw") is None


def test_token_file_is_private(tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "d")
    store.update("http://h/t/x", token="t", seat=1)
    store.update("http://h/t/y", host_token="h")
    assert json.loads(store.path.read_text())["http://h/t/x"] == {"seat": 1, "token": "t"}
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    store.update("http://h/t/x", token=None, seat=None)
    assert store.get("http://h/t/x") == {}


def test_a_spectator_watches_a_table_in_play(server: Server, tokens: TokenStore, tmp_path: Path) -> None:
    link, host = new_table(server.url)
    out = io.StringIO()
    person = Person(out)
    person.deadline = time.monotonic() + WAIT
    thread = threading.Thread(target=lambda: join(link, host, person, out), daemon=True)
    thread.start()
    while not (person.client and person.client.view) and time.monotonic() < person.deadline:
        time.sleep(0.05)
    watched = io.StringIO()
    deadline = time.monotonic() + WAIT

    def watch(prompt: str) -> str:
        watched.write(prompt)
        if time.monotonic() > deadline:
            raise EOFError
        if watched.getvalue().count("played") >= 3 or "Round over" in watched.getvalue():
            return "quit"
        time.sleep(0.02)
        return ""

    status = run_join(link, None, None, None, watched, watch, color=False, tokens=TokenStore(tmp_path / "s"))
    thread.join(WAIT)
    text = watched.getvalue()
    assert status == 0, text
    assert "you are watching as a spectator" in text
    assert "Round 1" in text and "Top card:" in text and "Your hand" not in text
    assert "Ann played" in text or "Bot 1 played" in text or "Round over" in text
    assert "(watching) > " in text


def test_a_second_connection_takes_the_seat_over(server: Server, tokens: TokenStore) -> None:
    from websockets.sync.client import connect

    link, host = new_table(server.url)
    out = io.StringIO()
    person = Person(out)
    person.quit_when_round_over = False
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(join(link, host, person, out)), daemon=True)
    thread.start()
    while not (person.client and person.client.view) and time.monotonic() < person.deadline:
        time.sleep(0.05)
    token = tokens.get(link)["token"]
    with connect(parse_table_url(link).ws) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        welcome = json.loads(ws.recv())
        assert welcome["type"] == "welcome" and welcome["you"]["seat"] == 0
        thread.join(WAIT)
    assert result == [0], out.getvalue()
    assert "This seat was taken over by another connection" in out.getvalue()


def test_the_server_may_ask_for_a_reconnect(tmp_path: Path) -> None:
    import asyncio

    out = io.StringIO()
    client = OnlineClient("http://h:1/t/abc", out=out, ask=lambda p: "", tokens=TokenStore(tmp_path))
    assert asyncio.run(client.handle({"type": "reconnect", "seq": 3, "reason": "the server is restarting"}))
    assert "the server asks us to reconnect (the server is restarting)" in out.getvalue()
    assert not asyncio.run(client.handle({"type": "chat", "seq": 4, "seat": 1, "name": "B\x1b[2J",
                                           "text": "hi\x1b]0;x\x07"}))
    assert "[chat] B?[2J: hi?]0;x?" in out.getvalue()  # no terminal escapes from other people
    assert client.last_seq == 4
    assert not asyncio.run(client.handle({"type": "update", "seq": 5, "view": {"seq": "x"}, "events": [],
                                           "static": {"ruleset": {}, "seats": 2, "names": None}}))
    assert "Could not show a message from the server" in out.getvalue()


def test_presence_and_a_timed_out_seat_are_told(tmp_path: Path) -> None:
    import asyncio

    out = io.StringIO()
    client = OnlineClient("http://h:1/t/abc", out=out, ask=lambda p: "", tokens=TokenStore(tmp_path))
    seats = [
        {"seat": i, "kind": "human", "name": name, "level": None, "connected": on, "autopilot": False}
        for i, (name, on) in enumerate((("Ann", True), ("Bo", False)))
    ]
    table = {"table": "abc", "status": "waiting", "settings": {"preset": "official"}, "seats": seats,
             "spectators": 2, "turn_deadline": None}
    assert not asyncio.run(client.handle({"type": "presence", "seq": 2, "table": table}))
    assert client.info == table  # the waiting room is shown again with who is here
    assert "Bo" in out.getvalue()
    assert not asyncio.run(client.handle({"type": "update", "seq": 3, "view": None, "events": [],
                                           "turn_deadline": None, "timed_out": 1}))
    assert "Bo ran out of time: the table made the usual move." in out.getvalue()
    assert "Could not show" not in out.getvalue()


class FakeSocket:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def test_out_of_turn_chances_and_a_wild_from_its_index(tmp_path: Path, playing_table: Any) -> None:
    """The input path on its own: a chance to call UNO or catch shown while another seat is to act,
    typed at once; on the turn, a wild played from its index with the color asked for."""
    import asyncio

    from unotable.cards import Card

    game, static, info = playing_table
    view = game.view(0).to_dict()
    answers = ["b"]
    out = io.StringIO()
    client = OnlineClient("http://h:1/t/abc", out=out, ask=lambda p: answers.pop(0),
                          tokens=TokenStore(tmp_path))
    sock = FakeSocket()
    client.ws = sock  # type: ignore[assignment]

    async def scenario() -> None:
        chance = {**view, "active": 2, "legal": ["uno", "catch:3"], "exposed": [False, False, False, True]}
        await client.handle({"type": "update", "seq": 5, "events": [], "view": chance, "static": static,
                             "table": info})
        assert "You may act out of turn." in out.getvalue()
        assert "You can: uno · catch 3   (or let play go on)" in out.getvalue()
        assert client.prompt() == "(out of turn) > "
        await client.handle_line("catch")  # the one exposed seat
        await client.handle_line("uno")
        hand = [*view["hand"][:6], "W4"]
        turn = {**view, "active": 0, "hand": hand, "legal": ["W4:R", "W4:Y", "W4:G", "W4:B", "draw"]}
        await client.handle({"type": "update", "seq": 6, "events": [], "view": turn})
        assert client.my_turn() and client.prompt() == "> "
        assert "You can: play 6 · draw" in out.getvalue()
        await client.handle_line("6")  # the color is asked for
        await client.handle_line("start")
        await client.handle_line("kick 2")

    asyncio.run(scenario())
    assert sock.sent == [
        {"type": "act", "action": "catch:3"},
        {"type": "act", "action": "uno"},
        {"type": "act", "action": "W4:B"},
        {"type": "start"},
        {"type": "kick", "seat": 2},
    ]
    assert Card.parse("W4") in client.my_view().hand  # type: ignore[union-attr]


def test_a_rematch_proposed_is_told_and_accepted(tmp_path: Path) -> None:
    import asyncio

    out = io.StringIO()
    client = OnlineClient("http://h:1/t/abc", out=out, ask=lambda p: "", tokens=TokenStore(tmp_path))
    sock = FakeSocket()
    client.ws = sock  # type: ignore[assignment]
    client.me = 1
    seats = [
        {"seat": i, "kind": "human", "name": name, "level": None, "connected": True, "autopilot": False}
        for i, name in enumerate(("Ann", "Bo"))
    ]
    table = {"table": "abc", "status": "match_over", "seats": seats, "spectators": 0, "turn_deadline": None,
             "settings": {"preset": "house", "options": {"target_score": 250}}}

    async def scenario() -> None:
        await client.handle({"type": "update", "seq": 3, "events": [], "view": None, "table": table})
        await client.handle_line("accept")  # nothing proposed yet: said, nothing sent
        assert "No rematch is proposed yet" in out.getvalue()
        offer = {**table, "rematch": {"accepted": [0]}}
        await client.handle({"type": "update", "seq": 4, "events": [], "view": None, "table": offer})
        assert "The host proposes a rematch (house, 250 points to win): type accept" in out.getvalue()
        assert client.prompt() == "(rematch proposed: accept or quit) > "
        await client.handle_line("accept")

    asyncio.run(scenario())
    assert sock.sent == [{"type": "accept_rematch"}]
