"""A fast playout policy on the engine's compact state, for search (ISMCTS rollouts).

It mirrors the heuristic bot's main rules (:mod:`unotable.bots.heuristic`) on card ids, without
the public-record tracking that makes the heuristic slower: play rather than draw, keep the color
held most, keep wilds for when nothing else fits, attack a next seat that is close to going out
(never a partner), always flag UNO, take the smallest hand with a 7 or a Swap Hands, stack when
possible, challenge a Wild Draw Four whose player holds two cards or more (what the heuristic's
hypergeometric rule comes to with an ordinary share of the color unseen), always call, catch and
jump in.

:func:`react` plays the out-of-turn actions the way the arena offers them: seats in turn order
from the active seat, the first seat with a call, a catch or a jump-in takes it.

>>> from unotable.game import Game
>>> g = Game.new(seats=3, seed=4, events=False)
>>> st = g.clone_state()
>>> steps = 0
>>> while st.phase < Phase.ROUND_OVER and steps < 2000:
...     step(st)
...     steps += 1
>>> st.phase >= Phase.ROUND_OVER
True
"""
from __future__ import annotations

from unotable.actions import (
    ACCEPT,
    CHALLENGE,
    CHOOSE_COLOR,
    DRAW,
    PASS,
    PLAY,
    Action,
    CallUno,
    Catch,
    ChooseColor,
    Draw,
    Pass,
    Play,
)
from unotable.cards import (
    ID_COLOR,
    ID_DRAW_VALUE,
    ID_IS_NUMBER,
    ID_IS_WILD,
    ID_RANK,
    WILD_COLOR_ROULETTE,
    WILD_DRAW_FOUR,
    WILD_SHUFFLE_HANDS,
    WILD_SWAP_HANDS,
    Rank,
)
from unotable.movegen import add_plays, can_draw, legal_actions, receives_from
from unotable.phase import ColorReason, Phase
from unotable.resolve import apply
from unotable.rules import Stacking
from unotable.state import State

__all__ = ["act", "choose", "react", "step"]

_SKIP = int(Rank.SKIP)
_REVERSE = int(Rank.REVERSE)
_SKIP_EVERYONE = int(Rank.SKIP_EVERYONE)
_DISCARD_ALL = int(Rank.DISCARD_ALL)
_PLAY = Phase.PLAY
_PLAY_DRAWN = Phase.PLAY_DRAWN
_RESPOND = Phase.RESPOND
_CALL = CallUno()
_DRAW = Draw()
_PASS = Pass()
_CATCHES = tuple(Catch(t) for t in range(10))
_DANGER = tuple(max(0.0, (8 - k) / 7.0) ** 2 for k in range(200))


def _colors(hand: list[int]) -> list[int]:
    cnt = [0, 0, 0, 0]
    for c in hand:
        col = ID_COLOR[c]
        if col >= 0:
            cnt[col] += 1
    return cnt


def _best(cnt: list[int]) -> int:
    best = 0
    for k in (1, 2, 3):
        if cnt[k] > cnt[best]:
            best = k
    return best


def _score_card(
    st: State, seat: int, c: int, hand: list[int], cnt: list[int], bestcol: int
) -> tuple[float, int]:
    """The policy's value of playing ``c`` in a normal turn, and the target seat it would name."""
    left = len(hand) - 1
    flags = st.flags
    nxt = st.next_seat(seat)
    partners = st.rules.partnership
    partner_next = partners and nxt % 2 == seat % 2
    danger = 0.0 if partner_next else _DANGER[len(st.hands[nxt])]
    rank = ID_RANK[c]
    target = -1
    if ID_IS_WILD[c]:  # noqa: SIM108
        score = 1.5 * cnt[bestcol] - (4.0 if left > 2 else 0.5)
    else:
        score = 1.5 * (cnt[ID_COLOR[c]] - 1)
    value = ID_DRAW_VALUE[c]
    if value:
        attack = value * (1.0 + 6.0 * danger)
        if partner_next:
            attack = -attack - 5.0
        elif flags.mercy_limit and len(st.hands[nxt]) + value >= flags.mercy_limit:
            attack += 25.0
        if left > 2 and st.rules.stacking is not Stacking.NONE:
            attack -= 0.8 * value
        if c == WILD_DRAW_FOUR:
            if flags.challenge and st.color >= 0 and cnt[st.color] > 0:
                attack -= 12.0 * (1.0 - danger)
            elif left > 2:
                attack -= 3.0 * (1.0 - danger)
        score += attack
    elif rank in (_SKIP, _SKIP_EVERYONE):
        score += -3.0 if partner_next else 2.0 + 8.0 * danger
    elif rank == _REVERSE and not ID_IS_WILD[c]:
        if st.seats_in_round() == 2:
            score += 2.0
        else:
            prev = receives_from(st, seat)
            pd = 0.0 if partners and prev % 2 == seat % 2 else _DANGER[len(st.hands[prev])]
            score += 8.0 * (danger - pd)
    elif c == WILD_COLOR_ROULETTE:
        score += -4.0 if partner_next else 1.0 + 6.0 * danger
    elif rank == _DISCARD_ALL:
        score += 4.0 * (cnt[ID_COLOR[c]] - 1)
    elif c == WILD_SWAP_HANDS or (flags.seven_zero and rank == 7):
        best = 1000
        for t in range(st.n):
            if t != seat and st.in_round[t] and len(st.hands[t]) < best:
                best = len(st.hands[t])
                target = t
        score += 3.0 * (left - best)
    elif flags.seven_zero and rank == 0:
        score += 3.0 * (left - len(st.hands[receives_from(st, seat)]))
    elif c == WILD_SHUFFLE_HANDS:
        score += 3.0 * (left - (sum(len(h) for h in st.hands) - 1) / st.seats_in_round())
    if not ID_IS_WILD[c]:
        score += (rank if ID_IS_NUMBER[c] else 20) * 0.04
    return score, target


def _variant(st: State, seat: int, c: int, color: int, target: int) -> Action:
    """The play of ``c`` naming ``color`` and ``target`` where it needs them, flagged when it can be."""
    plays: list[Action] = []
    add_plays(st, seat, c, plays)
    best = plays[0]
    best_key = 99
    for a in plays:
        assert isinstance(a, Play)
        key = 0 if a.uno else 4
        if a.color is not None and int(a.color) != color:
            key += 2
        if a.target is not None and a.target != target:
            key += 1
        if key < best_key:
            best, best_key = a, key
    return best


def act(st: State, seat: int) -> Action:
    """The policy's action for the active ``seat`` (the fast path: no full list of legal actions)."""
    phase = st.phase
    if phase is _PLAY:
        hand = st.hands[seat]
        color = st.color
        top = st.discard[-1]
        trank = ID_RANK[top] if ID_COLOR[top] >= 0 else -1
        strict = st.flags.strict_wd4
        cnt = _colors(hand)
        bestcol = _best(cnt)
        best = -1
        best_score = -1e9
        best_target = -1
        tried: list[int] = []
        for c in hand:
            if c in tried:
                continue
            tried.append(c)
            col = ID_COLOR[c]
            if col >= 0:
                if col != color and ID_RANK[c] != trank:
                    continue
            elif strict and c == WILD_DRAW_FOUR and color >= 0 and cnt[color] > 0:
                continue
            if len(hand) == 1:
                return _variant(st, seat, c, bestcol, -1)
            score, target = _score_card(st, seat, c, hand, cnt, bestcol)
            if score > best_score:
                best, best_score, best_target = c, score, target
        can = bool(st.draw) or can_draw(st)
        if best < 0 or (best_score < -6.0 and can and st.flags.may_draw):
            if can:
                return _DRAW
            return legal_actions(st, seat)[0]
        return _variant(st, seat, best, bestcol, best_target)
    if phase is _PLAY_DRAWN:
        c = st.drawn
        hand = st.hands[seat]
        cnt = _colors(hand)
        bestcol = _best(cnt)
        score, target = _score_card(st, seat, c, hand, cnt, bestcol)
        if score < -6.0 and (
            not st.rules.force_play
            or (c == WILD_DRAW_FOUR and st.flags.challenge and st.color >= 0 and cnt[st.color] > 0)
        ):
            return _PASS
        return _variant(st, seat, c, bestcol, target)
    return choose(st, seat, legal_actions(st, seat))


def choose(st: State, seat: int, legal: list[Action]) -> Action:
    """The policy's action for the active ``seat`` among ``legal`` (its legal actions)."""
    phase = st.phase
    if phase is _RESPOND:
        return _respond(st, seat, legal)
    if phase is Phase.CHOOSE_COLOR:
        return _color(st, seat, legal)
    hand = st.hands[seat]
    cnt = _colors(hand)
    bestcol = _best(cnt)
    best: Action | None = None
    best_score = -1e9
    fallback: Action | None = None
    scored: dict[int, tuple[float, int]] = {}
    for a in legal:
        kind = a.kind
        if kind != PLAY:
            if kind in (DRAW, PASS):
                fallback = a
            continue
        assert isinstance(a, Play)
        c = a.cid
        if c not in scored:
            scored[c] = _score_card(st, seat, c, hand, cnt, bestcol)
        score, target = scored[c]
        if len(hand) == 1:
            score = 1000.0
        if a.color is not None and int(a.color) != bestcol:
            score -= 1.0
        if a.target is not None and a.target != target:
            score -= 0.5
        if a.uno:
            score += 0.5
        if score > best_score:
            best_score = score
            best = a
    if best is None or (fallback is not None and best_score < -6.0):
        return fallback if fallback is not None else legal[0]
    return best


def _respond(st: State, seat: int, legal: list[Action]) -> Action:
    best: Action | None = None
    best_value = -1
    accept: Action | None = None
    challenge: Action | None = None
    nxt = st.next_seat(seat)
    partner_next = st.rules.partnership and nxt % 2 == seat % 2
    cnt: list[int] | None = None
    for a in legal:
        kind = a.kind
        if kind == ACCEPT:
            accept = a
        elif kind == CHALLENGE:
            challenge = a
        elif kind == PLAY and not partner_next:
            assert isinstance(a, Play)
            c = a.cid
            if a.color is not None:
                if cnt is None:
                    cnt = _colors(st.hands[seat])
                if int(a.color) != _best(cnt):
                    continue
            v = ID_DRAW_VALUE[c] * 2 + (1 if a.uno else 0)
            if v > best_value:
                best_value = v
                best = a
    if best is not None:
        return best
    if challenge is not None and st.wd4_player >= 0 and len(st.hands[st.wd4_player]) >= 2:
        return challenge
    return accept if accept is not None else legal[0]


def _color(st: State, seat: int, legal: list[Action]) -> Action:
    hand = st.hands[seat]
    if st.color_reason == ColorReason.FIRST_CARD:
        want = _best(_colors(hand))
    else:  # a Color Roulette: the color least seen in the hand and the discard pile
        seen = _colors(hand)
        for c in st.discard:
            col = ID_COLOR[c]
            if col >= 0:
                seen[col] += 1
        want = min(range(4), key=lambda k: seen[k])
    best: Action | None = None
    for a in legal:
        if a.kind == CHOOSE_COLOR:
            assert isinstance(a, ChooseColor)
            if int(a.color) == want:
                if a.target is None:
                    return a
                if best is None or len(st.hands[a.target]) < len(st.hands[best.target or 0]):  # type: ignore[union-attr]
                    best = a
    return best if best is not None else legal[0]


def react(st: State) -> None:
    """Apply the out-of-turn actions the arena's bots would take now (calls, catches, jump-ins)."""
    flags = st.flags
    for _ in range(4 * st.n):
        if st.phase >= Phase.ROUND_OVER:
            return
        exposed = True in st.exposed
        if not exposed and not flags.jump_in:
            return
        n = st.n
        active = st.active
        d = st.direction
        acted = False
        for k in range(1, n + 1):
            seat = (active + k * d) % n
            if not st.in_round[seat]:
                continue
            if exposed:
                if st.exposed[seat]:
                    apply(st, seat, _CALL, None)
                    acted = True
                    break
                if flags.uno_penalty > 0:
                    target = -1
                    for t in range(n):
                        if st.exposed[t] and t != seat:
                            target = t
                            break
                    if target >= 0:
                        apply(st, seat, _CATCHES[target], None)
                        acted = True
                        break
            if (
                flags.jump_in
                and seat != active
                and seat != st.top_player
                and (st.phase is _PLAY or st.phase is _PLAY_DRAWN)
            ):
                top = st.discard[-1]
                if ID_COLOR[top] >= 0 and top in st.hands[seat]:
                    plays: list[Action] = []
                    add_plays(st, seat, top, plays)
                    apply(st, seat, _pick_variant(st, plays), None)
                    acted = True
                    break
        if not acted:
            return


def _pick_variant(st: State, plays: list[Action]) -> Action:
    """Among the variants of one play, the flagged one with the smallest target hand."""
    best = plays[0]
    best_key = (1, 1000)
    for a in plays:
        assert isinstance(a, Play)
        key = (0 if a.uno else 1, len(st.hands[a.target]) if a.target is not None else 0)
        if key < best_key:
            best, best_key = a, key
    return best


def step(st: State) -> None:
    """One policy move by the active seat, then the out-of-turn reactions."""
    seat = st.active
    apply(st, seat, act(st, seat), None)
    react(st)

