"""One table as a sequence of decision points: the engine under every wrapper of :mod:`unotable.env`.

The Python :class:`~unotable.env.backend.TableBackend` (the core's is
:class:`unotable.env.native_table.NativeTable`) and the reference of the vector env's Python
backend. A :class:`Table` holds a :class:`~unotable.game.Game`, the public
:class:`~unotable.env.spaces.History` of the round and the current *decision point*: the seat
that decides (:attr:`Table.seat`), whether it may decline (:attr:`Table.decline`, an
out-of-turn chance), and its legal actions.

Decision points follow :mod:`unotable.arbiter`'s order exactly. After every applied action (and
after a deal), each seat other than the active one that has a legal action (an UNO call, a catch, a
jump-in) is offered it, in turn order from the active seat; its mask holds NOOP (decline); a seat
that declines is not asked again until the state changes. Then the active seat decides, without
NOOP. With ``out_of_turn="auto"`` there are no out-of-turn decision points: every UNO call is made
(a play that may call UNO always does; a seat that may call does, before anything else), catches
are made when a seat is exposed, and nobody jumps in.

Seats listed in ``opponents`` (seat -> any :class:`~unotable.bots.base.Bot`) decide inside
:meth:`Table.step` and :meth:`Table.reset`, as the arbiter would ask them; the table stops only at
the decision points of the other seats: the learners, and the seats listed in ``external``
(played by a batched policy outside the table, :mod:`unotable.env.batched`), which are not
learners (a match ends when every learner is out).

Episodes are a round (``episode="round"``, the default) or a match (``"match"``: the next round is
dealt automatically). Rewards (per seat, :attr:`Table.rewards`, collected with :meth:`take_rewards`):

- ``"win"``: at the end, +1 to each winner (the round's winner and, under partnerships, its
  partner; in a match, the match's winners) and ``-len(winners) / len(losers)`` to each loser, so
  the sum is zero; a blocked round gives 0.
- ``"score"``: after each round, each seat's change of score divided by the target score, negated
  under low and elimination scoring (where points count against).
- ``"rank"``: at the end, from +1 (best) to -1 (worst) linearly by the round's hand values (a
  match: by the final scores), ties sharing the mean.

A seat that can act no more before the episode ends (knocked out of the round in a round
episode, eliminated in a match) is terminated at once; it gets its loss then (win: as a loser,
rank: -1, score: its change), and nothing at the end.

``max_cycles`` truncates the episode once that many actions have been applied to the table
(declines are not actions).

As every backend, it sums up each reset and step in a status int (:attr:`Table.code`, the bits of
:mod:`unotable.env.backend`) and writes the decision point's mask into :attr:`Table.mask_buf`, a
numpy array bound once (the observations into :attr:`Table.obs_buf` on :meth:`Table.observe`,
every seat's into :attr:`Table.pobs` and :attr:`Table.pmask` on :meth:`Table.parallel_outputs`).

>>> t = Table("official", 3)
>>> t.reset(seed=11)
>>> t.seat == t.game.active_seat, t.decline, len(t.observation())
(True, False, 854)
>>> while not t.done:
...     t.step(next(i for i, m in enumerate(t.mask()) if m))
>>> abs(sum(t.take_rewards())) < 1e-9, t.game.phase.name
(True, 'ROUND_OVER')
"""
from __future__ import annotations

import random
import secrets
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import numpy as np

from unotable.actions import CALL_UNO, CATCH, PLAY, Action, Play
from unotable.arbiter import Agent, derive_seed, offer_order, seat_rngs
from unotable.env import backend as status
from unotable.env.backend import TableBackend, check_options
from unotable.env.fast import encode_game
from unotable.env.spaces import DRAW_INDEX, NOOP, NUM_ACTIONS, OBS_SIZE, History, action_at, index_of
from unotable.errors import IllegalActionError, InvalidActionError, RulesetError
from unotable.game import ALL, Game
from unotable.phase import Phase
from unotable.record import Record
from unotable.rules import Ruleset, Scoring
from unotable.scoring import team_of

__all__ = ["Table", "auto_legal", "resolve_ruleset"]

_NO_MASK = bytes(NUM_ACTIONS)


def resolve_ruleset(ruleset: Ruleset | str | Mapping[str, Any]) -> Ruleset:
    """A Ruleset from a preset name, a ruleset dict (``Ruleset.to_dict()``) or a Ruleset."""
    if isinstance(ruleset, Ruleset):
        return ruleset
    if isinstance(ruleset, str):
        return Ruleset.preset(ruleset)
    if isinstance(ruleset, Mapping):
        return Ruleset.from_dict(dict(ruleset))
    raise RulesetError(f"a ruleset is a preset name, a dict or a Ruleset, not {ruleset!r}")


def auto_legal(legal: Sequence[Action]) -> list[Action]:
    """The actions that ``out_of_turn="auto"`` leaves a seat: no separate calls or catches (the
    table makes them), and a play that may call UNO always does.

    >>> from unotable.actions import parse_action
    >>> [str(a) for a in auto_legal([parse_action(t) for t in ("R5", "R5!", "uno", "draw")])]
    ['R5!', 'draw']
    """
    flagged = {(a.cid, a.color, a.target) for a in legal if isinstance(a, Play) and a.uno}
    out: list[Action] = []
    for a in legal:
        kind = a.kind
        if kind in (CALL_UNO, CATCH):
            continue
        if flagged and kind == PLAY and isinstance(a, Play) and not a.uno \
                and (a.cid, a.color, a.target) in flagged:
            continue
        out.append(a)
    return out


def _indexed(legal: list[Action], seat: int, n: int, auto: bool) -> tuple[list[Action], dict[int, Action]]:
    """``(kept, by_index)``: ``legal`` (``auto_legal(legal)`` under ``auto``) and its actions by
    index, in one pass. A play's index is even without the UNO flag and one more with it (the
    layout of :mod:`unotable.env.spaces`), so the plays that ``auto_legal`` drops (those whose
    flagged twin is legal) are the even play indices ``i`` with ``i + 1`` among them."""
    kept: list[Action] = []
    indices: list[int] = []
    by_index: dict[int, Action] = {}
    flagged = False
    for a in legal:
        kind = a.kind
        if auto and kind in (CALL_UNO, CATCH):
            continue
        if type(a) is Play and a.uno:
            flagged = True
        i = index_of(a, seat, n)
        by_index[i] = a
        kept.append(a)
        indices.append(i)
    if auto and flagged:
        dropped = [i for i in by_index if i < DRAW_INDEX and not i & 1 and i + 1 in by_index]
        if dropped:
            for i in dropped:
                del by_index[i]
            kept = [a for a, i in zip(kept, indices, strict=True) if i in by_index]
    return (kept if auto else legal), by_index


class Table:
    """One table's episode as decision points (see the module docstring)."""

    def __init__(
        self,
        ruleset: Ruleset | str | Mapping[str, Any] = "official",
        seats: int = 4,
        *,
        out_of_turn: str = "full",
        episode: str = "round",
        reward: str = "win",
        max_cycles: int | None = None,
        opponents: Mapping[int, Agent] | None = None,
        external: Collection[int] = (),
    ) -> None:
        self.rules = resolve_ruleset(ruleset)
        self.rules.validate_seats(seats)
        self.n = seats
        self.out_of_turn, self.episode, self.reward, self.max_cycles = check_options(
            out_of_turn, episode, reward, max_cycles)
        self.opponents: dict[int, Agent] = dict(opponents or {})
        bad = [s for s in self.opponents if not 0 <= s < seats]
        if bad:
            raise ValueError(f"opponent seats {bad} are not seats of a {seats}-seat table")
        bad = [s for s in external if not 0 <= s < seats or s in self.opponents]
        if bad:
            raise ValueError(f"external seats {bad} are not free seats of a {seats}-seat table")
        self.learners = tuple(s for s in range(seats) if s not in self.opponents and s not in external)
        if not self.learners:
            raise ValueError("every seat is an opponent: the table needs at least one learning seat")
        # only the opponents that override Agent.observe are told the events (building them costs)
        self._observers = {s: a.observe for s, a in self.opponents.items()
                           if type(a).observe is not Agent.observe}
        self.game: Game = Game.new(seats=seats, ruleset=self.rules, seed=0)
        self.history = History(seats)
        self.seat = -1
        self.decline = False
        self.legal: list[Action] = []
        self.rewards = [0.0] * seats
        self.terminated = [False] * seats
        self.truncated = [False] * seats
        self.done = True
        self.code = status.DONE
        self._changed = False  # a terminated or truncated flag changed (the status bit CHANGED)
        self.cycles = 0
        self.episode_seed = 0
        # the bound buffers, numpy views of bytearrays the engine's encoder writes into
        self._mask_bytes = bytearray(NUM_ACTIONS)
        self.mask_buf = np.frombuffer(self._mask_bytes, dtype=np.int8)
        self._obs_bytes = bytearray(OBS_SIZE)
        self.obs_buf = np.frombuffer(self._obs_bytes, dtype=np.uint8)
        self._pobs_bytes = bytearray(OBS_SIZE * seats)
        self.pobs = np.frombuffer(self._pobs_bytes, dtype=np.uint8).reshape(seats, OBS_SIZE)
        rows = memoryview(self._pobs_bytes)
        self._pobs_rows = [rows[s * OBS_SIZE:(s + 1) * OBS_SIZE] for s in range(seats)]
        self._pmask_bytes = bytearray(NUM_ACTIONS * seats)
        self.pmask = np.frombuffer(self._pmask_bytes, dtype=np.int8).reshape(seats, NUM_ACTIONS)
        self._declined: dict[int, tuple[int, int]] = {}
        self._map: dict[int, Action] = {}
        self._map_for: list[Action] | None = None
        self._rngs: dict[int, random.Random] = {}
        self._seen = 0
        self._scores_at_deal: list[int] = []
        self._participants: list[int] = []

    # ------------------------------------------------------------ episodes

    def reset(self, seed: int | None = None, position: Mapping[str, Any] | None = None) -> None:
        """Start an episode: ``Game.new(seats, ruleset, seed)`` exactly, or the given position."""
        if seed is None:
            seed = secrets.randbits(63)
        self.episode_seed = seed
        if position is not None:
            game = Game.from_position(position, events=bool(self._observers))
            if game.seats != self.n:
                raise ValueError(f"the position has {game.seats} seats; this table has {self.n}")
            if game.ruleset != self.rules:
                raise ValueError("the position's ruleset is not this table's ruleset")
        else:
            game = Game.new(seats=self.n, ruleset=self.rules, seed=seed, events=bool(self._observers))
        self.game = game
        self.history.clear()
        self.rewards = [0.0] * self.n
        self.terminated = [False] * self.n
        self.truncated = [False] * self.n
        self.done = False
        self.cycles = 0
        self._declined = {}
        self._rngs = seat_rngs(seed, self.n)
        self._seen = 0
        self._start_round()
        self._feed()
        self._advance()
        self._changed = True
        self._status()

    def _status(self) -> int:
        """The status int of the last reset or step (:attr:`code`), from the attributes it sums up."""
        code = status.DONE if self.done else self.seat | (status.DECLINE if self.decline else 0)
        if any(self.rewards):
            code |= status.REWARDS
        if self._changed:
            code |= status.CHANGED
            self._changed = False
        self.code = code
        return code

    def _start_round(self) -> None:
        g = self.game
        self._scores_at_deal = list(g.scores)
        self._participants = [s for s in range(self.n) if s not in g.eliminated]
        self.history.clear()

    def _feed(self) -> None:
        if not self._observers:
            return
        g = self.game
        new = g.events_since(self._seen, ALL)
        self._seen = g.last_seq
        for seat, observe in self._observers.items():
            mine = [e for e in new if e.visible_to(seat)]
            if mine:
                observe(mine)

    # ------------------------------------------------------------ decision points

    def _legal_now(self, seat: int) -> list[Action]:
        legal = self.game.legal_action_list(seat)
        if self.out_of_turn == "full":
            return legal
        return auto_legal(legal)

    def _out_of_turn_possible(self) -> bool:
        """Whether any seat may have a call, a catch or a jump-in now (the conditions under which
        movegen offers them; a cheap test that spares the legal lists of the other seats)."""
        st = self.game._st
        f = st.flags
        if f.jump_in or (f.uno_penalty and True in st.exposed):
            return True
        hands = st.hands
        if 1 not in map(len, hands):
            return False
        called = st.called
        return any(len(h) == 1 and not called[s] for s, h in enumerate(hands))

    def _auto_calls(self) -> bool:
        """Under ``out_of_turn="auto"``: make the first UNO call, else the first catch, in the
        arbiter's order (True when one was made)."""
        g = self.game
        if not self._out_of_turn_possible():
            return False
        order = [*offer_order(g), g.active_seat]
        for kind in (CALL_UNO, CATCH):
            for s in order:
                if self.terminated[s]:
                    continue
                for a in g.legal_action_list(s):
                    if a.kind == kind:
                        self._apply(s, a)
                        return True
        return False

    def _settle(self) -> bool:
        """Deal, finish, truncate and make the automatic calls until a decision is needed (True)
        or the episode is over (False)."""
        g = self.game
        auto = self.out_of_turn == "auto"
        st = g._st
        while not self.done:
            phase = st.phase
            if phase is Phase.MATCH_OVER:
                self._finish()
                return False
            if phase is Phase.ROUND_OVER:
                if self.episode == "round":
                    self._finish()
                    return False
                self._round_end(final=False)
                if all(self.terminated[s] for s in self.learners):
                    self._finish(scored=True)
                    return False
                g.next_round()
                self._start_round()
                self._feed()
                continue
            if self.max_cycles is not None and self.cycles >= self.max_cycles:
                self._truncate()
                return False
            if auto and self._auto_calls():
                continue
            return True
        return False

    def _advance(self) -> None:
        """Run to the next learner's decision point (or the episode's end)."""
        g = self.game
        while self._settle():
            if self.out_of_turn == "full" and self._out_of_turn_possible():
                version = (g.action_count, g.last_seq)
                asked = False
                for s in offer_order(g):
                    if self.terminated[s] or self._declined.get(s) == version:
                        continue
                    legal = g.legal_action_list(s)
                    if not legal:
                        continue
                    if s not in self.opponents:
                        self._stop_at(s, True, legal, False)
                        return
                    choice = self._ask(s, legal, out_of_turn=True)
                    if choice is None:
                        self._declined[s] = version
                        continue
                    self._apply(s, choice)
                    asked = True
                    break
                if asked:
                    continue
            active = g.active_seat
            if active not in self.opponents:
                self._stop_at(active, False, g.legal_action_list(active), self.out_of_turn == "auto")
                return
            choice = self._ask(active, self._legal_now(active), out_of_turn=False)
            if choice is None:
                raise IllegalActionError(f"the opponent at seat {active} chose no action on its turn")
            self._apply(active, choice)

    def _stop_at(self, seat: int, decline: bool, legal: list[Action], auto: bool) -> None:
        """Make ``seat``'s decision point: its legal actions (``auto_legal`` of them under ``auto``)
        and, at once, the map :meth:`legal_by_index` gives."""
        kept, by_index = _indexed(legal, seat, self.n, auto)
        self.seat, self.decline, self.legal = seat, decline, kept
        self._map, self._map_for = by_index, kept
        mask = self._mask_bytes
        mask[:] = _NO_MASK
        for i in by_index:
            mask[i] = 1
        if decline:
            mask[NOOP] = 1

    # ------------------------------------------------------------ simultaneous decisions (Parallel)

    def parallel_legal(self, seat: int) -> tuple[list[Action], bool]:
        """What ``seat`` may submit in a simultaneous step: its legal actions now, and whether it
        may decline (every seat but the active one: NOOP, alone when it has no action)."""
        if self.done or self.terminated[seat]:
            return [], False
        g = self.game
        if seat == g.active_seat:
            return self._legal_now(seat), False
        if self.out_of_turn == "auto":
            return [], True
        return g.legal_action_list(seat), True

    def step_parallel(self, indices: Mapping[int, int]) -> int:
        """Apply one action of a simultaneous step: the first out-of-turn action in the arbiter's
        order, else the active seat's (the others are dropped). Every submitted index must be in
        its seat's mask (else :class:`~unotable.errors.IllegalActionError`, nothing changes).
        Returns the seat whose action was applied."""
        if self.done:
            raise IllegalActionError("the episode is over: reset the table")
        g = self.game
        chosen: dict[int, Action] = {}
        for seat in range(self.n):
            legal, may_decline = self.parallel_legal(seat)
            if not legal and not may_decline:
                continue
            if seat not in indices:
                raise IllegalActionError(f"seat {seat} must submit an action in this step")
            index = int(indices[seat])
            if index == NOOP:
                if not may_decline:
                    raise IllegalActionError(f"seat {seat} may not decline: it is its turn and it must act")
                continue
            action = action_at(index, seat, self.n)
            if action not in legal:
                raise IllegalActionError(f"action {index} ({action}) is not legal for seat {seat} now")
            chosen[seat] = action
        order = [*offer_order(g), g.active_seat]
        seat = next(s for s in order if s in chosen)
        self._apply(seat, chosen[seat])
        self._settle()
        self._status()
        return seat

    def parallel_outputs(self) -> None:
        """Write every seat's observation into :attr:`pobs` and its :meth:`parallel_legal` as a
        mask into :attr:`pmask` (NOOP where it may decline)."""
        g, history, n = self.game, self.history, self.n
        masks = self._pmask_bytes
        masks[:] = bytes(len(masks))
        for seat, row in enumerate(self._pobs_rows):
            encode_game(g, seat, history, row)
            legal, decline = self.parallel_legal(seat)
            base = seat * NUM_ACTIONS
            for a in legal:
                masks[base + index_of(a, seat, n)] = 1
            if decline:
                masks[base + NOOP] = 1

    def _ask(self, seat: int, legal: list[Action], out_of_turn: bool) -> Action | None:
        agent = self.opponents[seat]
        view = self.game.view(seat)
        ask = agent.react if out_of_turn else agent.choose
        choice: Action | None = ask(view, legal, self._rngs[seat])
        if choice is not None and choice not in legal:
            raise IllegalActionError(f"the opponent at seat {seat} chose {choice}, which is not legal now")
        return choice

    def _apply(self, seat: int, action: Action) -> None:
        g = self.game
        st = g._st
        self.history.push(seat, action, st.discard[-1], st.color)  # the top card and colour before it
        in_round = st.in_round[:]
        if self._observers:
            g.play(action, seat)
            self.cycles += 1
            self._feed()
        else:
            g.apply_unchecked(action, seat)  # checked against the legal list already
            self.cycles += 1
        if st.in_round != in_round and st.phase < Phase.ROUND_OVER and self.episode == "round":
            for s in range(self.n):
                if in_round[s] and not g.in_round[s] and not self.terminated[s]:
                    self._knock(s)

    # ------------------------------------------------------------ the learner's actions

    def step(self, index: int) -> None:
        """Apply the decision of :attr:`seat`: an action index of :mod:`unotable.env.spaces`.

        An index that is not in the mask raises :class:`~unotable.errors.IllegalActionError` (or
        :class:`~unotable.errors.InvalidActionError` when it is no index at all) and changes nothing.
        """
        self.step_code(index)

    def step_code(self, index: int) -> int:
        """:meth:`step`, returning the status int (:attr:`code`)."""
        if self.done:
            raise IllegalActionError("the episode is over: reset the table")
        if not isinstance(index, int) or isinstance(index, bool):
            try:
                index = int(index)
            except (TypeError, ValueError):
                raise InvalidActionError(f"an action is an int index, not {index!r}") from None
        seat = self.seat
        if index == NOOP:
            if not self.decline:
                raise IllegalActionError(f"seat {seat} may not decline: it is its turn and it must act")
            g = self.game
            self._declined[seat] = (g.action_count, g.last_seq)
            self._advance()
            return self._status()
        action = self.legal_by_index().get(index)
        if action is None:
            action = action_at(index, seat, self.n)  # InvalidActionError for no index at all
            legal = ", ".join(str(a) for a in self.legal)
            raise IllegalActionError(f"action {index} ({action}) is not legal for seat {seat} now; "
                                     f"legal: {legal}")
        self._apply(seat, action)
        self._advance()
        return self._status()

    def legal_by_index(self) -> dict[int, Action]:
        """The decision point's legal actions by their index (made once per decision point)."""
        if self._map_for is not self.legal:
            seat, n = self.seat, self.n
            self._map = {index_of(a, seat, n): a for a in self.legal}
            self._map_for = self.legal
        return self._map

    def mask(self) -> bytearray:
        """The mask of the current decision point (``NUM_ACTIONS`` bytes; all zero once done): a
        copy of :attr:`mask_buf`."""
        return bytearray(self._mask_bytes)

    def mask_for(self, seat: int) -> bytearray:
        """``seat``'s mask now: the decision point's for its seat, else NOOP alone (it has no
        decision to make now) or nothing once it is terminated."""
        if seat == self.seat and not self.done:
            return self.mask()
        mask = bytearray(NUM_ACTIONS)
        if not self.done and not self.terminated[seat]:
            mask[NOOP] = 1
        return mask

    def observation(self, seat: int | None = None, out: bytearray | memoryview | None = None
                    ) -> bytearray | memoryview:
        """``seat``'s observation (default: the deciding seat's), ``OBS_SIZE`` bytes."""
        s = self.seat if seat is None or seat < 0 else seat
        if s < 0:
            s = 0
        return encode_game(self.game, s, self.history, out)

    def observe(self, seat: int) -> None:
        """Write ``seat``'s observation into :attr:`obs_buf`."""
        encode_game(self.game, seat, self.history, self._obs_bytes)

    def take_rewards(self) -> list[float]:
        """The rewards since the last call, per seat (and reset them to zero)."""
        out = self.rewards
        self.rewards = [0.0] * self.n
        return out

    # ------------------------------------------------------------ rewards

    def _loss(self, seat: int) -> float:
        if self.reward == "win":
            return -1.0 / max(1, len(self._participants) - 1)
        if self.reward == "rank":
            return -1.0
        return self._score_delta(seat)

    def _knock(self, seat: int) -> None:
        self.rewards[seat] += self._loss(seat)
        self.terminated[seat] = True
        self._changed = True

    def _score_delta(self, seat: int) -> float:
        r = self.rules
        delta = (self.game.scores[seat] - self._scores_at_deal[seat]) / r.target_score
        return -delta if r.scoring in (Scoring.LOW, Scoring.ELIMINATION) else delta

    def _ranked(self, seats: Sequence[int], key: Sequence[float]) -> dict[int, float]:
        """+1 for the best (lowest key) to -1 for the worst, ties sharing the mean."""
        order = sorted(seats, key=lambda s: key[s])
        m = len(order)
        out: dict[int, float] = {}
        i = 0
        while i < m:
            j = i
            while j + 1 < m and key[order[j + 1]] == key[order[i]]:
                j += 1
            mean = (i + j) / 2
            for k in range(i, j + 1):
                out[order[k]] = 1.0 - 2.0 * mean / (m - 1) if m > 1 else 0.0
            i = j + 1
        return out

    def _win_rewards(self, winners: Sequence[int], seats: Sequence[int]) -> dict[int, float]:
        losers = [s for s in seats if s not in winners]
        if not winners or not losers:
            return {}
        lose = -len(winners) / len(losers)
        return {s: (1.0 if s in winners else lose) for s in seats}

    def _round_end(self, final: bool) -> None:
        g = self.game
        result = g.round_result()
        live = [s for s in self._participants if not self.terminated[s]]
        if self.reward == "score":
            for s in live:
                self.rewards[s] += self._score_delta(s)
        elif self.episode == "round" and result is not None:
            if self.reward == "win":
                if result.winner is not None:
                    w = result.winner
                    team = [s for s in self._participants if team_of(s) == team_of(w)] \
                        if self.rules.partnership else [w]
                    for s, v in self._win_rewards(team, self._participants).items():
                        if not self.terminated[s]:
                            self.rewards[s] += v
            else:
                values = [float(v) for v in result.hand_points]
                for s, v in self._ranked(self._participants, values).items():
                    if not self.terminated[s]:
                        self.rewards[s] += v
        if self.episode == "match" and not final:
            for s in range(self.n):
                if s in g.eliminated and not self.terminated[s]:
                    if self.reward != "score":
                        self.rewards[s] += self._loss(s)
                    self.terminated[s] = True
                    self._changed = True

    def _finish(self, scored: bool = False) -> None:
        g = self.game
        if not scored:
            self._round_end(final=True)
        if self.episode == "match":
            outcome = g.outcome()
            everyone = [s for s in range(self.n) if not self.terminated[s]]
            if outcome is not None and self.reward == "win":
                for s, v in self._win_rewards(list(outcome.winners), everyone).items():
                    self.rewards[s] += v
            elif outcome is not None and self.reward == "rank":
                low = self.rules.scoring in (Scoring.LOW, Scoring.ELIMINATION)
                key = [float(x) if low else -float(x) for x in g.scores]
                for s, v in self._ranked(everyone, key).items():
                    self.rewards[s] += v
        for s in range(self.n):
            self.terminated[s] = True
        self._end()

    def stop(self) -> None:
        """End the episode now for every seat (the learner of a single-agent env is out)."""
        if not self.done:
            self._finish(scored=True)
            self._status()

    def _truncate(self) -> None:
        for s in range(self.n):
            if not self.terminated[s]:
                self.truncated[s] = True
        self._end()

    def _end(self) -> None:
        self.done = True
        self.seat = -1
        self.decline = False
        self.legal = []
        self._mask_bytes[:] = _NO_MASK
        self._changed = True

    # ------------------------------------------------------------ records and critics

    def record(self) -> Record:
        """The episode as a unotable record (``unotable replay`` opens its JSON)."""
        return Record.from_game(self.game)

    def next_seed(self, base: int, k: int) -> int:
        """The seed of episode ``k`` of a run seeded ``base`` (episode 0 is ``base`` itself)."""
        return base if k == 0 else derive_seed(base, "episode", k)


STATE_SIZE = 10 * 74 + 74 + OBS_SIZE
"""The length of :func:`state_bytes`: every hand (by seat relative to ``seat``), the draw pile's
card counts, then ``seat``'s observation."""


def state_bytes(table: TableBackend, seat: int | None = None) -> bytearray:
    """The whole table for centralised critics (hidden cards included: never give it to a policy)."""
    s = table.seat if seat is None or seat < 0 else seat
    s = max(s, 0)
    out = bytearray(STATE_SIZE)
    st = table.game.clone_state()
    n = table.n
    for r in range(n):
        base = 74 * r
        for c in st.hands[(s + r) % n]:
            if out[base + c] < 255:
                out[base + c] += 1
    for c in st.draw:
        if out[740 + c] < 255:
            out[740 + c] += 1
    out[814:] = table.observation(s)
    return out
