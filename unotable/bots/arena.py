"""The arena: seeded bot-vs-bot rounds or matches, in parallel, with a results table.

``unotable simulate`` calls :func:`main`; programs call :func:`run_arena`.

How a game is driven: by :class:`unotable.arbiter.Arbiter`, the one table driver of the project,
whose documented order asks the out-of-turn seats (calls, catches, jump-ins) in turn order from the
active seat, then the active seat, and feeds every bot with ``observe`` the events its seat may
see. Each bot gets its seat's view, its legal actions and its own seeded RNG, never the game.

Seats are rotated to cancel position bias: games come in blocks of one game per rotation of the
bot list, and the games of a block share one deal (the same game seed), so each bot is dealt each
seat's cards once. With ``--games`` a multiple of the seat count, every block is complete.
Every game's seed and every bot's RNG derive from ``--seed`` and the game's index alone, so the
same command prints the same results whatever ``--jobs`` is.

**In the core.** When every seat's bot has a policy in the native core (``unotable_native.arena``:
random, random-stuck, rule-v1, mixbot with its default options, mixbot2 and mixbot2-tuned with
any limits and rankings), the core is
installed, the mode is ``round`` and the seed is from 0 to 2**64 - 1, :func:`run_arena` plays the
games there (``engine="auto"``, the default; ``engine="native"`` demands it and raises
``ValueError`` saying why not; ``engine="python"`` never uses it). The core plays the same games:
the same deals, rotations, generators and arbiter order, decision for decision
(tests/native/test_arena.py), so the same seed gives the same table on either engine;
``--jobs`` becomes threads.

The table gives, per bot (the same bot in several seats is counted together, per seat-game): the
win rate with a 95% Wilson interval, the fair share (1/seats; 1/2 with partnerships, where a team
wins together), the mean points scored per seat-game and the mean number of its own turn actions.
``--json`` adds to each bot's row ``decision_ms``: the CPU time of its decisions in milliseconds
(``count``, ``median``, ``p99``, ``max``; :class:`Timed`), measured in the Python arena only: a run
in the core reports null (its decisions take microseconds and are not timed one by one).

>>> result = run_arena("official", 2, ["heuristic", "random"], games=4, seed=1, jobs=1)
>>> [row.bot for row in result.rows], sum(row.wins for row in result.rows) <= 4
(['heuristic', 'random'], True)
"""
from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from unotable.actions import CALL_UNO, CATCH, Action
from unotable.agent import Agent
from unotable.arbiter import Applied, Arbiter, ArbiterError, derive_seed, seat_rngs
from unotable.bots.base import Bot
from unotable.bots.mixbot2 import MixBot2
from unotable.bots.registry import make_bot, parse_bot_spec
from unotable.errors import UnoError
from unotable.events import Event
from unotable.game import Game
from unotable.phase import Phase
from unotable.rules import Ruleset
from unotable.views import PlayerView

__all__ = ["ArenaError", "ArenaResult", "BotRow", "GameResult", "Timed", "decision_stats", "main",
           "native_lineup", "play_game", "run_arena", "wilson"]


class ArenaError(RuntimeError):
    """A bot broke the protocol (None on its turn, an illegal action)."""


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for ``wins`` out of ``n`` (95% with the default ``z``).

    >>> lo, hi = wilson(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    z2 = z * z
    denom = 1.0 + z2 / n
    center = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, center - half), min(1.0, center + half))


@dataclass(frozen=True)
class Config:
    ruleset: dict[str, Any]
    seats: int
    bots: tuple[str, ...]
    seed: int
    mode: str = "round"
    max_actions: int = 100_000

    def rules(self) -> Ruleset:
        return Ruleset.from_dict(self.ruleset)


@dataclass(frozen=True)
class GameResult:
    """One game: the bot spec at each seat, the winning seats, points and turn actions per seat."""

    index: int
    bots: tuple[str, ...]
    winners: tuple[int, ...]
    points: tuple[int, ...]
    turns: tuple[int, ...]
    rounds: int
    finished: bool
    seconds: float = field(default=0.0, compare=False)
    decision_ms: tuple[tuple[float, ...], ...] = field(default=(), compare=False, repr=False)
    """CPU milliseconds of each decision of each seat's bot (the Python arena's games; empty in
    the core's): see :class:`Timed`."""


class Timed(Agent):
    """A bot whose decisions are timed in CPU time (:func:`time.thread_time`, milliseconds into
    ``ms``): each ``choose`` (its turns) and each ``react`` that returned an action (an
    out-of-turn offer taken; a declined offer is not a decision). Everything else passes through."""

    def __init__(self, bot: Agent, ms: list[float]) -> None:
        self.bot = bot
        self.ms = ms
        self.name = bot.name

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        start = time.thread_time()
        action = self.bot.choose(view, legal, rng)
        self.ms.append((time.thread_time() - start) * 1000.0)
        return action

    def react(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        start = time.thread_time()
        action = self.bot.react(view, legal, rng)
        if action is not None:
            self.ms.append((time.thread_time() - start) * 1000.0)
        return action

    def observe(self, events: Sequence[Event]) -> None:
        self.bot.observe(events)

    def rejected(self, action: Action, error: Exception) -> bool:
        return self.bot.rejected(action, error)

    def restart(self) -> None:
        self.bot.restart()


def decision_stats(ms: Sequence[float]) -> dict[str, Any] | None:
    """``count``, ``median``, ``p99`` (nearest rank) and ``max`` of decision times in milliseconds
    (None for no decisions).

    >>> decision_stats([4.0, 1.0, 2.0, 3.0])
    {'count': 4, 'median': 2.5, 'p99': 4.0, 'max': 4.0}
    """
    if not ms:
        return None
    s = sorted(ms)
    return {"count": len(s), "median": round(statistics.median(s), 4),
            "p99": round(s[max(0, math.ceil(0.99 * len(s)) - 1)], 4), "max": round(s[-1], 4)}


def seating(config: Config, index: int) -> tuple[tuple[str, ...], int]:
    """The bot spec at each seat of game ``index`` and that game's seed (seat rotation)."""
    n = config.seats
    block, rotation = divmod(index, n)
    bots = tuple(config.bots[(s + rotation) % n] for s in range(n))
    return bots, derive_seed(config.seed, "deal", block)


def game_rngs(seed: int, index: int, seats: int) -> dict[int, random.Random]:
    """The bots' generators in game ``index`` of an arena run of ``seed``: the one recipe
    (:func:`unotable.agent.seat_rng`) from the game's own seed. Scripts that replay an arena's
    game (research/, benchmarks/) take them from here."""
    return seat_rngs(derive_seed(seed, "bot", index), seats)


def play_game(config: Config, index: int, factory: Callable[[str], Bot] | None = None) -> GameResult:
    """Play game ``index`` of ``config`` (a round or a match) and return its result.

    ``factory`` builds each seat's bot from its spec (default :func:`~unotable.bots.make_bot`; a
    benchmark may wrap bots to measure them).
    """
    build = make_bot if factory is None else factory
    started = time.perf_counter()
    specs, game_seed = seating(config, index)
    n = config.seats
    rules = config.rules()
    game = Game.new(seats=n, ruleset=rules, seed=game_seed)
    times: list[list[float]] = [[] for _ in range(n)]
    bots: list[Bot] = [Timed(build(spec), times[s]) for s, spec in enumerate(specs)]
    rngs = game_rngs(config.seed, index, n)
    turns = [0] * n

    def count(done: Applied) -> None:
        if done.seat is not None and done.action.kind != CALL_UNO and done.action.kind != CATCH:
            turns[done.seat] += 1

    arbiter = Arbiter(game, dict(enumerate(bots)), rngs, on_applied=count)
    rounds = 0
    finished = True
    start_scores = [0] * n
    actions = 0
    while True:
        try:
            actions += arbiter.play_round(config.max_actions - actions)
        except ArbiterError as exc:
            raise ArenaError(f"game {index}: {exc} (bots: {', '.join(specs)})") from exc
        if game.phase < Phase.ROUND_OVER:
            finished = False
            break
        rounds += 1
        if config.mode == "round" or game.phase is Phase.MATCH_OVER:
            break
        arbiter.deal()
    winners: tuple[int, ...] = ()
    if not finished:
        points = tuple(0 for _ in range(n))
    elif config.mode == "round":
        res = game.round_result()
        assert res is not None
        points = tuple(res.scores[s] - start_scores[s] for s in range(n))
        if res.winner is not None:
            w = res.winner
            winners = tuple(s for s in range(n) if s % 2 == w % 2) if rules.partnership else (w,)
    else:
        out = game.outcome()
        assert out is not None
        points = out.scores
        winners = out.winners
    return GameResult(
        index, specs, winners, tuple(points), tuple(turns), rounds, finished, time.perf_counter() - started,
        tuple(tuple(t) for t in times),
    )


def _worker(job: tuple[Config, int]) -> GameResult:
    return play_game(*job)


@dataclass(frozen=True)
class BotRow:
    """One bot's line of the table (all its seats together)."""

    bot: str
    seat_games: int
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    fair_share: float
    mean_points: float
    mean_turns: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "seat_games": self.seat_games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 6),
            "ci95": [round(self.ci_low, 6), round(self.ci_high, 6)],
            "fair_share": round(self.fair_share, 6),
            "mean_points": round(self.mean_points, 4),
            "mean_turns": round(self.mean_turns, 4),
        }


@dataclass(frozen=True)
class ArenaResult:
    """The results of a run: the configuration, one row per bot, and the games."""

    preset: str
    ruleset: Ruleset
    seats: int
    bots: tuple[str, ...]
    games: int
    seed: int
    mode: str
    rows: tuple[BotRow, ...]
    unfinished: int
    no_winner: int
    seconds: float = field(default=0.0, compare=False)
    results: tuple[GameResult, ...] = field(default=(), compare=False, repr=False)
    engine: str = field(default="python", compare=False)
    """Which engine played the games: ``python`` (the arbiter) or ``native`` (the core)."""

    @property
    def rounds_per_s(self) -> float:
        """Games (rounds or matches) per second of wall time, the whole run included."""
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def decision_ms(self) -> dict[str, dict[str, Any] | None]:
        """Per bot spec, the CPU time of its decisions (:func:`decision_stats` over all its seats),
        None where none was measured: the core's games (``engine`` native) are not timed."""
        out: dict[str, list[float]] = {r.bot: [] for r in self.rows}
        for g in self.results:
            for spec, ms in zip(g.bots, g.decision_ms, strict=False):
                out[spec].extend(ms)
        return {bot: decision_stats(ms) for bot, ms in out.items()}

    def row(self, bot: str) -> BotRow:
        for r in self.rows:
            if r.bot == bot:
                return r
        raise KeyError(bot)

    def to_dict(self) -> dict[str, Any]:
        """The same as the table, as JSON-ready data (no timings: the same seed gives the same dict)."""
        return {
            "preset": self.preset,
            "ruleset": self.ruleset.to_dict(),
            "seats": self.seats,
            "bots": list(self.bots),
            "games": self.games,
            "seed": self.seed,
            "mode": self.mode,
            "unfinished": self.unfinished,
            "no_winner": self.no_winner,
            "results": [r.to_dict() for r in self.rows],
        }

    def table(self) -> str:
        """The results table, as printed by ``unotable simulate``."""
        unit = "rounds" if self.mode == "round" else "matches"
        head = (
            f"{self.games} {unit}, preset {self.preset}, {self.seats} seats, seed {self.seed}: "
            f"{', '.join(self.bots)}"
        )
        cols = ("bot", "seat-games", "wins", "win rate", "95% CI", "fair", "mean points", "mean turns")
        lines = [
            (
                r.bot,
                str(r.seat_games),
                str(r.wins),
                f"{100 * r.win_rate:.1f}%",
                f"{100 * r.ci_low:.1f}-{100 * r.ci_high:.1f}%",
                f"{100 * r.fair_share:.1f}%",
                f"{r.mean_points:.1f}",
                f"{r.mean_turns:.1f}",
            )
            for r in self.rows
        ]
        widths = [max(len(c), *(len(line[i]) for line in lines)) for i, c in enumerate(cols)]
        out = [head, ""]
        out.append(_line(cols, widths))
        out.append("  ".join("-" * w for w in widths))
        out.extend(_line(line, widths) for line in lines)
        extra = []
        if self.no_winner:
            extra.append(f"{self.no_winner} with no winner (blocked)")
        if self.unfinished:
            extra.append(f"{self.unfinished} stopped at the action limit")
        if extra:
            out.append("")
            out.append("; ".join(extra))
        return "\n".join(out)


def _line(cells: Sequence[str], widths: Sequence[int]) -> str:
    """A table line: the first cell left-aligned, the others right-aligned."""
    parts = [c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))]
    return "  ".join(parts)


def summarize(config: Config, preset: str, results: Sequence[GameResult], seconds: float,
              engine: str = "python") -> ArenaResult:
    rules = config.rules()
    n = config.seats
    fair = 0.5 if rules.partnership else 1.0 / n
    order: list[str] = []
    for spec in config.bots:
        if spec not in order:
            order.append(spec)
    stats = {spec: [0, 0, 0, 0] for spec in order}  # seat-games, wins, points, turns
    unfinished = 0
    no_winner = 0
    for r in results:
        if not r.finished:
            unfinished += 1
        elif not r.winners:
            no_winner += 1
        for s, spec in enumerate(r.bots):
            st = stats[spec]
            st[0] += 1
            st[1] += s in r.winners
            st[2] += r.points[s]
            st[3] += r.turns[s]
    rows = []
    for spec in order:
        games, wins, points, turns = stats[spec]
        lo, hi = wilson(wins, games)
        rows.append(
            BotRow(
                spec,
                games,
                wins,
                wins / games if games else 0.0,
                lo,
                hi,
                fair,
                points / games if games else 0.0,
                turns / games if games else 0.0,
            )
        )
    return ArenaResult(
        preset, rules, n, config.bots, len(results), config.seed, config.mode, tuple(rows),
        unfinished, no_winner, seconds, tuple(results), engine,
    )


def _resolve_rules(preset: str | Ruleset, options: dict[str, Any] | None) -> tuple[str, Ruleset]:
    if isinstance(preset, Ruleset):
        rules, name = preset, "custom"
    else:
        rules, name = Ruleset.preset(preset), preset
    if options:
        rules = rules.replace(**options)
        name += " with " + ", ".join(f"{k}={v}" for k, v in options.items())
    return name, rules


def run_arena(
    preset: str | Ruleset,
    seats: int,
    bots: Sequence[str],
    games: int,
    seed: int = 1,
    jobs: int = 1,
    mode: str = "round",
    options: dict[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    max_actions: int = 100_000,
    engine: str = "auto",
) -> ArenaResult:
    """Play ``games`` rounds (``mode="round"``) or matches (``"match"``) and summarize them.

    ``bots`` names one bot spec per seat (see :func:`unotable.bots.make_bot`); a shorter list is
    completed with its last entry. ``options`` override the preset's ruleset options. ``jobs``
    processes play in parallel; the results do not depend on it. ``progress(done, total)`` is
    called after each game. ``engine``: ``auto`` (the core when it can play every seat, see the
    module docstring), ``native`` (the core, or ``ValueError``) or ``python``.
    """
    if mode not in ("round", "match"):
        raise ValueError(f"mode must be 'round' or 'match', not {mode!r}")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    name, rules = _resolve_rules(preset, options)
    rules.validate_seats(seats)
    specs = [b.strip() for b in bots if b.strip()]
    if not specs:
        raise ValueError("name at least one bot")
    if len(specs) > seats:
        raise ValueError(f"{len(specs)} bots for {seats} seats")
    specs += [specs[-1]] * (seats - len(specs))
    for spec in specs:  # fail early on an unknown name or option
        make_bot(spec)
    if games < 1:
        raise ValueError("games must be at least 1")
    config = Config(rules.to_dict(), seats, tuple(specs), seed, mode, max_actions)
    if engine != "python":
        why = native_unsupported(config)
        if why is None:
            return _run_native(config, name, games, jobs, progress)
        if engine == "native":
            raise ValueError(f"the native engine cannot play this run: {why}")
    started = time.perf_counter()
    results: list[GameResult] = []
    jobs_list = [(config, i) for i in range(games)]
    if jobs <= 1:
        for job in jobs_list:
            results.append(_worker(job))
            if progress is not None:
                progress(len(results), games)
    else:
        # fork where the platform has it: scripts then need no ``if __name__ == "__main__"`` guard
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        with ctx.Pool(min(jobs, games)) as pool:
            for r in pool.imap(_worker, jobs_list, chunksize=1):
                results.append(r)
                if progress is not None:
                    progress(len(results), games)
    return summarize(config, name, results, time.perf_counter() - started)


ENGINES = ("auto", "native", "python")


def native_unsupported(config: Config) -> str | None:
    """Why the core cannot play ``config`` (None when it can): a bot without a native policy, a
    spec with options the core does not have, mode ``match``, a seed outside 0 .. 2**64 - 1, or
    no core installed."""
    lineup = native_lineup(config)
    return lineup if isinstance(lineup, str) else None


def native_lineup(config: Config) -> tuple[list[str], list[list[int] | None]] | str:
    """The core's policy for each seat of ``config``'s lineup and its mixbot2 options (None: its
    defaults), or why the core cannot play it. mixbot2 and mixbot2-tuned, with any limits and
    rankings, are the core's mixbot2 (``MixBot2.native_params``); the other policies take no option."""
    if config.mode != "round":
        return "it plays rounds only (mode round)"
    if not 0 <= config.seed < 2**64:
        return f"its seeds are 0 to 2**64 - 1, not {config.seed}"
    if config.ruleset.get("uno_grace"):
        return "the core does not implement uno_grace (UNO-GRACE-1)"
    try:
        from unotable_native.arena import POLICIES
    except ImportError as exc:
        return f"the core is not installed ({exc}; pip install -e native/)"
    names: list[str] = []
    params: list[list[int] | None] = []
    for spec in config.bots:
        name, options = parse_bot_spec(spec)
        if name in POLICIES and name != "mixbot2" and not options:
            names.append(name)
            params.append(None)
            continue
        bot = make_bot(spec)
        mix = bot.native_params() if isinstance(bot, MixBot2) else None
        if mix is None:
            return (f"bot {spec!r} has no native policy (the core has {', '.join(POLICIES)} without options, "
                    "and mixbot2 and mixbot2-tuned with their limits and rankings)")
        names.append("mixbot2")
        params.append(mix)
    return names, params


def _run_native(config: Config, name: str, games: int, jobs: int,
                progress: Callable[[int, int], None] | None) -> ArenaResult:
    from unotable_native.arena import play_rounds

    started = time.perf_counter()
    chunk = games if progress is None else max(1000, -(-games // 20))
    results: list[GameResult] = []
    lineup = native_lineup(config)
    if isinstance(lineup, str):
        raise ValueError(f"the native engine cannot play this run: {lineup}")
    names, params = lineup
    for first in range(0, games, chunk):
        count = min(chunk, games - first)
        for g in play_rounds(config.rules(), config.seats, names, config.seed, first, count,
                             config.max_actions, threads=jobs, params=params):
            specs = seating(config, g.index)[0]
            results.append(GameResult(g.index, specs, g.winners, g.points, g.turns, int(g.finished),
                                      g.finished))
        if progress is not None:
            progress(len(results), games)
    return summarize(config, name, results, time.perf_counter() - started, "native")


class ProgressBar:
    """A progress bar on a stream (a redrawn line on a terminal, a few plain lines otherwise)."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.started = time.perf_counter()
        self.tty = stream.isatty()
        self.last = -1.0
        self.last_decile = -1

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        elapsed = now - self.started
        if self.tty:
            if done < total and now - self.last < 0.2:
                return
            self.last = now
            filled = int(self.width * done / total)
            rate = done / elapsed if elapsed > 0 else 0.0
            eta = (total - done) / rate if rate > 0 else 0.0
            bar = "#" * filled + "-" * (self.width - filled)
            self.stream.write(f"\r[{bar}] {done}/{total} games, {elapsed:.0f}s elapsed, eta {eta:.0f}s ")
            if done == total:
                self.stream.write("\n")
        else:
            decile = 10 * done // total
            if decile != self.last_decile:
                self.last_decile = decile
                self.stream.write(f"{done}/{total} games, {elapsed:.0f}s\n")
        self.stream.flush()


def _option(text: str) -> tuple[str, object]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"{text!r} is not OPTION=VALUE")
    key, value = text.split("=", 1)
    low = value.strip().lower()
    parsed: object = value.strip()
    if low in ("true", "false"):
        parsed = low == "true"
    else:
        with contextlib.suppress(ValueError):
            parsed = int(value)
    return key.strip(), parsed


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="unotable simulate",
        description="Play seeded bot-vs-bot rounds or matches (seats rotated) and print a results table.",
    )
    p.add_argument("--preset", default="official", help="ruleset preset (default: official)")
    p.add_argument("--option", action="append", type=_option, default=[], metavar="OPTION=VALUE",
                   help="override a ruleset option, e.g. stacking=same_kind (repeatable)")
    p.add_argument("--seats", type=int, default=4, help="seats per game (default: 4)")
    p.add_argument("--bots", default="heuristic",
                   help="comma-separated bot specs, one per seat, the last repeated to fill the seats; "
                        "a spec is NAME or NAME:key=value:... (names: random, rule-v1, heuristic, ismcts)")
    p.add_argument("--games", type=int, default=100, help="games to play (default: 100)")
    p.add_argument("--seed", type=int, default=1, help="seed of the whole run (default: 1)")
    p.add_argument("--jobs", type=int, default=1, help="parallel processes (default: 1)")
    p.add_argument("--mode", choices=("round", "match"), default="round",
                   help="a game is one round (default) or a whole match to the target score")
    p.add_argument("--max-actions", type=int, default=100_000, help="stop a game after this many actions")
    p.add_argument("--engine", choices=ENGINES, default="auto",
                   help="auto (default): the native core when every bot has a native policy and the "
                        "core is installed, else Python; native: the core or an error; python: never "
                        "the core")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``unotable simulate``: parse ``argv``, run the arena, print the table; returns an exit code."""
    parser = build_parser()
    args = parser.parse_args(list(argv) if argv is not None else None)
    try:
        specs = [s for s in args.bots.split(",") if s.strip()]
        for spec in specs:
            parse_bot_spec(spec)
        progress = None if args.quiet else ProgressBar(sys.stderr)
        result = run_arena(
            args.preset,
            args.seats,
            specs,
            args.games,
            seed=args.seed,
            jobs=args.jobs,
            mode=args.mode,
            options=dict(args.option) or None,
            progress=progress,
            max_actions=args.max_actions,
            engine=args.engine,
        )
    except (UnoError, ValueError, TypeError) as exc:
        print(f"unotable simulate: error: {exc}", file=sys.stderr)
        return 2
    except ArenaError as exc:
        print(f"unotable simulate: a bot broke the protocol: {exc}", file=sys.stderr)
        return 1
    if args.json:
        out = result.to_dict()
        out["engine"] = result.engine
        out["rounds_per_s"] = round(result.rounds_per_s, 1)
        timing = result.decision_ms()
        for row in out["results"]:
            row["decision_ms"] = timing[row["bot"]]
        print(json.dumps(out, indent=2))
    else:
        print(result.table())
        if not args.quiet:
            unit = "rounds" if result.mode == "round" else "matches"
            print(f"({result.seconds:.1f}s, {result.rounds_per_s:,.0f} {unit}/s, {result.engine} engine)",
                  file=sys.stderr)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
