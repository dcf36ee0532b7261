"""A review of one seat's decisions in a recorded game: where did it lose its chances to win?

``unotable review RECORD --seat N`` (and :func:`review_record`, which a server can call on a
finished table's record) replays the record and, at each turn decision of seat N that had a real
choice, judges every action that seat could have taken from what **it could see then**:

1. its :class:`~unotable.views.PlayerView` at that moment and the events its seat had seen so far
   (a :class:`~unotable.bots.determinize.Tracker` reads the public record: known cards, sound
   inferences from the rules);
2. ``worlds`` full states sampled consistently with that view
   (:class:`~unotable.bots.determinize.Determinizer`): the hidden hands and the draw pile are dealt
   from the cards it could not see, never read from the record;
3. in each world, every candidate action played out to the end of the round by every seat with the
   fast playout policy (:mod:`unotable.bots.policy`), the candidates on the same world and the same
   future shuffles (common random numbers, so their difference is measured with little noise);
4. a candidate's *win chance* is the share of its playouts the seat wins (the round; a partnership
   wins as a team). The decision's *cost* is the best candidate's chance minus the chance of the
   action actually taken, with the standard error of that paired difference.

The review lists the costliest decisions with the better action. What it prints is the seat's own
hand at the time, the public table and the actions, nothing of other hands: the sampled worlds stay
inside, so the review reveals no more than the seat's own replay of the record (``unotable replay
--seat N``) does. The judge is the playout policy, not an oracle: a cost is "what the same fast
player would lose by that choice", good at blunders such as attacking too late or spending a Wild
Draw Four a turn early, and only an estimate (its ``stderr`` says how good).

Like the arena, the review drives a game (it replays the record through
:func:`unotable.record.replay`); the judging itself sees only views.

For the browser (a "Review this match" button, computed in the background): call
``review_record(record, seat, worlds=..., progress=callback)``; ``progress(done, total)`` is called
after each judged decision, and ``Review.to_dict()`` is JSON-ready and holds only what the seat may
see. A review is deterministic for a given record, seat, worlds and seed, so it can be cached with
the table.

>>> from unotable.game import Game
>>> g = Game.from_position({"ruleset": {"wd4_rule": "free", "uno_penalty": 0}, "seed": 3,
...     "hands": [["R5", "W4"], ["G1", "G2", "B3"], ["W", "Y1", "Y2"]], "discard": ["R3"],
...     "draw": ["G7", "B7", "W", "Y7", "G8", "B8", "Y8", "G9", "B9"]})
>>> _ = g.play("W4:R", 0)  # a turn too early: R5 first leaves a W4 that always goes out
>>> rev = review_record(Record.from_game(g), 0, worlds=40, seed=1)
>>> worst = rev.worst()[0]
>>> str(worst.played), str(worst.best), worst.cost > 0.2
('W4:R', 'R5!', True)
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from unotable.actions import CALL_UNO, CATCH, Action
from unotable.bots import native_search, policy
from unotable.bots.determinize import Determinizer, Tracker
from unotable.bots.ismcts import _turn_candidates, evaluate, paired_difference
from unotable.cards import Card, Color
from unotable.errors import RecordError, UnoError
from unotable.phase import Phase
from unotable.record import Record, replay
from unotable.resolve import apply
from unotable.rng import Rng
from unotable.scoring import RoundResult
from unotable.state import State
from unotable.views import PlayerView

__all__ = ["DEFAULT_WORLDS", "ENGINES", "NATIVE_WORLDS", "Judged", "Review", "ReviewError", "candidates",
           "default_worlds", "judge", "main", "review_record"]

DEFAULT_WORLDS = 400
"""Worlds sampled per decision by default in Python (each candidate is played out once in each)."""
NATIVE_WORLDS = 1000
"""Worlds sampled per decision by default inside the native core: the estimates' noise shrinks
with the square root of the worlds, so a cost of a few points of win chance stands out of it."""
ENGINES = ("auto", "python", "native")

_PLAYOUT_CAP = 3000


class ReviewError(ValueError):
    """A review that cannot be made: a seat the record does not have, a record that does not replay."""


@dataclass(frozen=True)
class Judged:
    """One judged decision: what the seat saw (its own hand and the public table) and each choice's chance."""

    index: int
    """The decision's index in the record's action log."""
    round_no: int
    turn: int
    """The decision's turn in its round, counting every seat's turns from 1 (calls and catches are
    not turns), as a player counts them when looking back at the match."""
    hand: tuple[Card, ...]
    top_card: Card | None
    current_color: Color | None
    hand_sizes: tuple[int, ...]
    played: Action
    chances: tuple[tuple[Action, float], ...]
    """Each candidate and its estimated win chance, best first."""
    stderr: float
    """The standard error of :attr:`cost` (of the paired difference between best and played)."""
    worlds: int

    @property
    def best(self) -> Action:
        return self.chances[0][0]

    @property
    def played_chance(self) -> float:
        return next(p for a, p in self.chances if a == self.played)

    @property
    def cost(self) -> float:
        """The win chance the choice gave away: the best candidate's chance minus the played one's."""
        return self.chances[0][1] - self.played_chance

    def line(self) -> str:
        """One line of text: the situation, the choice, the better choice and the cost."""
        hand = " ".join(str(c) for c in self.hand)
        color = f" ({self.current_color.name.lower()})" if self.current_color is not None else ""
        top = f"{self.top_card}{color}" if self.top_card is not None else "none"
        sizes = "/".join(str(k) for k in self.hand_sizes)
        head = f"round {self.round_no}, turn {self.turn}: hand {hand}; top {top}; hands {sizes}"
        if self.best == self.played or self.cost <= 0:
            return f"{head}: played {self.played} (win {100 * self.played_chance:.0f}%), the best choice"
        noise = " (within the noise)" if self.cost < 2 * self.stderr else ""
        return (f"{head}: played {self.played} (win {100 * self.played_chance:.0f}%), better "
                f"{self.best} (win {100 * self.chances[0][1]:.0f}%): -{100 * self.cost:.1f} "
                f"points of win chance ± {100 * self.stderr:.1f}{noise}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "round": self.round_no,
            "turn": self.turn,
            "hand": [str(c) for c in self.hand],
            "top_card": None if self.top_card is None else str(self.top_card),
            "current_color": None if self.current_color is None else self.current_color.letter,
            "hand_sizes": list(self.hand_sizes),
            "played": str(self.played),
            "best": str(self.best),
            "cost": round(self.cost, 4),
            "stderr": round(self.stderr, 4),
            "chances": [[str(a), round(p, 4)] for a, p in self.chances],
            "worlds": self.worlds,
        }


@dataclass(frozen=True)
class Review:
    """A seat's judged decisions, in the order they were made."""

    seat: int
    worlds: int
    seed: int
    decisions: tuple[Judged, ...]

    def worst(self, count: int = 5) -> list[Judged]:
        """The ``count`` decisions that cost the most, costliest first (only those that cost anything)."""
        costly = [d for d in self.decisions if d.cost > 0 and d.best != d.played]
        return sorted(costly, key=lambda d: (-d.cost, d.index))[:count]

    @property
    def total_cost(self) -> float:
        return sum(d.cost for d in self.decisions)

    def text(self, count: int = 5) -> str:
        """The report ``unotable review`` prints."""
        out = [f"Review of seat {self.seat}: {len(self.decisions)} decisions judged, {self.worlds} worlds "
               f"each (seed {self.seed}); the win chances are estimates of the fast playout policy."]
        worst = self.worst(count)
        if not worst:
            out.append("No decision cost a measurable win chance.")
        else:
            out.append(f"The {len(worst)} costliest decisions:")
            out += [f"{i}. {d.line()}" for i, d in enumerate(worst, 1)]
        return "\n".join(out)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "worlds": self.worlds, "seed": self.seed,
                "decisions": [d.to_dict() for d in self.decisions]}


def candidates(view: PlayerView, legal: Sequence[Action]) -> list[Action]:
    """The distinct turn actions worth comparing, as the search bot compares them: no calls or
    catches, only the UNO-flagged twin of a play, one variant of a last-card wild (CL-END-3).

    >>> from unotable.game import Game
    >>> g = Game.from_position({"hands": [["R7", "G2"], ["B5"]], "discard": ["R3"], "draw": ["Y9"]})
    >>> [str(a) for a in candidates(g.view(0), g.legal_action_list(0))]
    ['R7!', 'draw']
    """
    return _turn_candidates(legal, len(view.hand))


def _won(st: State, seat: int, partners: bool) -> float:
    res = st.last_round
    if st.phase >= Phase.ROUND_OVER and isinstance(res, RoundResult):
        if res.winner is None:
            return 0.0
        return 1.0 if (res.winner % 2 == seat % 2 if partners else res.winner == seat) else 0.0
    return evaluate(st, seat, partners)  # the cap: the position's evaluation (rare)


def _playout(world: State, seat: int, action: Action, seed: int, partners: bool) -> float:
    st = world.copy()
    st.rng = Rng(seed)
    apply(st, seat, action, None)
    policy.react(st)
    steps = 0
    while st.phase < Phase.ROUND_OVER and steps < _PLAYOUT_CAP:
        policy.step(st)
        steps += 1
    return _won(st, seat, partners)


def judge(
    view: PlayerView, choices: Sequence[Action], worlds: int, rng: random.Random,
    tracker: Tracker | None = None,
) -> list[list[float]]:
    """Each choice's playout results over ``worlds`` worlds sampled from ``view`` (paired by world)."""
    det = Determinizer(view, tracker)
    partners = view.ruleset.partnership
    results: list[list[float]] = [[] for _ in choices]
    for _ in range(worlds):
        world = det.sample(rng)
        seed = rng.getrandbits(63)
        for i, a in enumerate(choices):
            results[i].append(_playout(world, view.seat, a, seed, partners))
    return results


def default_worlds(engine: str = "auto") -> int:
    """The worlds a review samples per decision by default: :data:`NATIVE_WORLDS` in the core,
    :data:`DEFAULT_WORLDS` in Python."""
    return NATIVE_WORLDS if _use_native(engine) else DEFAULT_WORLDS


def _use_native(engine: str) -> bool:
    if engine not in ENGINES:
        raise ReviewError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    if engine == "native" and not native_search.available():
        raise ReviewError("engine 'native': the native core (unotable_native) is not installed")
    return engine != "python" and native_search.available()


@dataclass
class _Pending:
    """A decision met during the replay, judged once every decision is known."""

    index: int
    view: PlayerView
    turn: int
    played: Action
    choices: list[Action]
    seed: int
    spec: dict[str, Any] | None = None
    tracker: Tracker | None = None
    results: list[list[float]] | None = None


def review_record(
    record: Record, seat: int, *, worlds: int | None = None, seed: int = 0,
    progress: Callable[[int, int], None] | None = None, engine: str = "auto", threads: int | None = None,
) -> Review:
    """Judge every turn decision of ``seat`` in ``record`` that had more than one choice (see the module).

    ``engine``: ``auto`` judges inside the native core when it is installed and the ruleset is one
    it plays (:mod:`unotable.bots.native_search`: the same fast model, worlds and playouts in
    C++, the decisions on ``threads`` threads, by default one per CPU), else in Python;
    ``python`` or ``native`` force one. ``worlds`` defaults to :func:`default_worlds`. The result
    is deterministic for a record, seat, worlds, seed and engine.
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < record.seats:
        raise ReviewError(f"seat {seat!r} is not a seat of this record (seats 0-{record.seats - 1})")
    native = _use_native(engine)
    if native and not _native_rules(record):
        if engine == "native":
            raise ReviewError("engine 'native': the native core does not play this ruleset")
        native = False
    if worlds is None:
        worlds = NATIVE_WORLDS if native else DEFAULT_WORLDS
    if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1:
        raise ReviewError(f"worlds must be at least 1, not {worlds!r}")
    start = Record(record.ruleset, record.seats, record.seed, (), record.position, record.names,
                   record.engine, record.rules_version, None)
    try:
        game = replay(start)
    except UnoError as exc:
        raise ReviewError(f"the record does not replay: {exc}") from None
    total = sum(1 for s, a in record.actions if s == seat and a.kind not in (CALL_UNO, CATCH))
    done = 0
    tracker = Tracker(seat)
    seen = 0
    rng = random.Random(seed)
    pending: list[_Pending] = []
    turn = 0
    round_no = game.round_no
    for i, (s, action) in enumerate(record.actions):
        if game.round_no != round_no:
            round_no, turn = game.round_no, 0
        if action.kind not in (CALL_UNO, CATCH):
            turn += 1
        if s == seat and game.active_seat == seat and action.kind not in (CALL_UNO, CATCH):
            tracker.observe(game.events_since(seen, seat))
            seen = game.last_seq
            view = game.view(seat)
            choices = candidates(view, game.legal_action_list(seat))
            if action not in choices:  # an unflagged play, another variant of a last wild: judged too
                choices.append(action)
            if len(choices) > 1:
                job = _Pending(i, view, turn, action, choices, rng.getrandbits(63))
                if native:  # the spec holds the tracker's inferences now, as plain values
                    job.spec = native_search.prepare(view, choices, tracker=tracker, seed=job.seed,
                                                     worlds=worlds, max_steps=_PLAYOUT_CAP)
                    pending.append(job)
                else:
                    job.tracker = tracker
                    pending.append(_judge_now(job, worlds))
                    done += 1
                    if progress is not None:
                        progress(done, total)
            else:
                done += 1
                if progress is not None and not native:
                    progress(done, total)
        try:
            game.play(action, s)
        except UnoError as exc:
            raise ReviewError(f"the record does not replay: action {i} ({s}, {action}): {exc}") from None
    if native:
        pending = _judge_native(pending, record, worlds, threads, progress, done, total)
    judged = [_judged(job, worlds) for job in pending]
    return Review(seat, worlds, seed, tuple(judged))


def _native_rules(record: Record) -> bool:
    try:
        native_search.check_rules(record.ruleset)
    except (ValueError, NotImplementedError):
        return False
    return True


def _judge_now(job: _Pending, worlds: int) -> _Pending:
    job.results = judge(job.view, job.choices, worlds, random.Random(job.seed), job.tracker)
    return job


def _judge_native(pending: list[_Pending], record: Record, worlds: int, threads: int | None,
                  progress: Callable[[int, int], None] | None, done: int, total: int) -> list[_Pending]:
    """Run the prepared specs in the core, several at once (each call releases the GIL)."""
    if progress is not None:
        progress(done, total)
    workers = max(1, min(threads or os.cpu_count() or 1, len(pending) or 1))
    rules = record.ruleset

    def one(job: _Pending) -> _Pending:
        assert job.spec is not None
        out = native_search.run(rules, job.spec)
        job.results = out.results
        return job

    if workers == 1:
        for job in pending:
            one(job)
            done += 1
            if progress is not None:
                progress(done, total)
        return pending
    with concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="review") as pool:
        for _ in pool.map(one, pending):
            done += 1
            if progress is not None:
                progress(done, total)
    return pending


def _judged(job: _Pending, worlds: int) -> Judged:
    results = job.results
    assert results is not None
    means = [sum(r) / len(r) for r in results]
    order = sorted(range(len(job.choices)), key=lambda k: (-means[k], k))
    p = job.choices.index(job.played)
    view = job.view
    return Judged(
        job.index, view.round_no, job.turn, view.hand, view.top_card, view.current_color, view.hand_sizes,
        job.played, tuple((job.choices[k], means[k]) for k in order),
        paired_difference(results[order[0]], results[p])[1], worlds,
    )


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="unotable review",
        description="Judge one seat's decisions in a game record from what that seat could see, and "
                    "list those that cost the most win chance, with the better action.",
    )
    p.add_argument("record", metavar="RECORD.json",
                   help="the record file ('-' for standard input), or the name of a kept record")
    p.add_argument("--seat", type=int, required=True, metavar="N", help="the seat whose decisions to judge")
    p.add_argument("--worlds", type=int, default=None,
                   help=f"worlds sampled per decision (default {NATIVE_WORLDS} inside the native core, "
                        f"{DEFAULT_WORLDS} in Python)")
    p.add_argument("--engine", choices=ENGINES, default="auto",
                   help="where the playouts run: auto (the native core when installed), python or native")
    p.add_argument("--threads", type=int, default=None, metavar="N",
                   help="decisions judged at once inside the core (default: one per CPU)")
    p.add_argument("--top", type=int, default=5,
                   help="how many of the costliest decisions to list (default 5)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sampling (default 0)")
    p.add_argument("--json", action="store_true", help="every judged decision, as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress on standard error")
    return p


def main(argv: Sequence[str] | None = None, find: Callable[[str], Path] = Path) -> int:
    """``unotable review``: parse ``argv``, review the record, print the report; returns an exit code.

    ``find`` turns the RECORD argument into a path (``unotable`` passes the lookup of its kept
    records, as ``unotable replay`` does, so that a kept record's name works too)."""
    parser = build_parser()
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    try:
        text = sys.stdin.read() if args.record == "-" else find(args.record).read_text(encoding="utf-8")
    except OSError as exc:
        print(f"unotable review: error: cannot read {args.record}: {exc.strerror or exc}", file=sys.stderr)
        return 1

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            end = "" if done < total else "\n"
            print(f"\r{done}/{total} decisions", end=end, file=sys.stderr, flush=True)

    try:
        record = Record.from_json(text)
        review = review_record(record, args.seat, worlds=args.worlds, seed=args.seed, engine=args.engine,
                               threads=args.threads, progress=None if args.quiet else progress)
    except (RecordError, ReviewError) as exc:
        print(f"unotable review: error: {args.record}: {exc}", file=sys.stderr)
        return 2
    try:
        print(json.dumps(review.to_dict(), indent=2) if args.json else review.text(args.top))
    except BrokenPipeError:  # the reader went away (| head)
        sys.stderr.close()
    return 0
