"""State transitions: how every action and automatic step changes a :class:`State`.

The functions here trust their input (``Game.play`` checks legality first; ``apply_unchecked``
and replays call them directly). ``ev`` is a list that collects the events, or None to skip
making them (the fast path for bots and benchmarks). Rule IDs in comments point to docs/rules.md.
Round setup (the dealer, the deal and the first card) is in :mod:`unotable.deal`, which reuses the
turn steps here; :func:`apply` and :func:`settle` take it from there.

>>> from unotable.game import Game
>>> g = Game.new(seats=3, seed=11)
>>> g.phase.name in ("PLAY", "CHOOSE_COLOR")
True
"""
from __future__ import annotations

from typing import cast

from unotable.actions import (
    ACCEPT,
    CALL_UNO,
    CATCH,
    CHALLENGE,
    CHOOSE_COLOR,
    DRAW,
    PASS,
    PLAY,
    Action,
    Catch,
    ChooseColor,
    Play,
)
from unotable.cards import (
    BLANK,
    ID_COLOR,
    ID_DRAW_VALUE,
    ID_IS_NUMBER,
    ID_IS_WILD,
    ID_RANK,
    WILD_COLOR_ROULETTE,
    WILD_CUSTOMIZABLE,
    WILD_DRAW_FOUR,
    WILD_REVERSE_DRAW_FOUR,
    WILD_SHUFFLE_HANDS,
    WILD_SWAP_HANDS,
    Card,
    Color,
    Rank,
)
from unotable.events import (
    CardPlayed,
    Caught,
    Challenged,
    ChallengeReveal,
    ColorChosen,
    DirectionChanged,
    DrawReason,
    Drew,
    DrewCards,
    Event,
    Exposed,
    FalseCatch,
    FalseUno,
    HandsPassed,
    HandsShuffled,
    HandsSwapped,
    KnockedOut,
    MatchEnded,
    NewHand,
    Passed,
    PenaltyPending,
    Reshuffled,
    Revealed,
    RoundEnded,
    Skipped,
    Slipped,
    UnoCalled,
)
from unotable.movegen import can_draw, can_stack, has_playable, playable, response_allowed, wd4_is_legal
from unotable.phase import ColorReason, Phase
from unotable.rules import CustomEffect, ShuffleLastCard, SwapLastCard
from unotable.scoring import score_round
from unotable.state import State, Step

__all__ = ["apply", "settle"]

Ev = list[Event] | None

_SKIP = int(Rank.SKIP)
_REVERSE = int(Rank.REVERSE)
_DRAW_TWO = int(Rank.DRAW_TWO)
_SKIP_EVERYONE = int(Rank.SKIP_EVERYONE)
_DISCARD_ALL = int(Rank.DISCARD_ALL)
_card = Card.from_id
_STEP_NEXT = int(Step.NEXT)
_STEP_SKIP = int(Step.SKIP)
_STEP_REVERSE = int(Step.REVERSE)
_PLAY = Phase.PLAY
_RESPOND = Phase.RESPOND
_ROUND_OVER = Phase.ROUND_OVER


def _cards(ids: list[int]) -> tuple[Card, ...]:
    return tuple(_card(c) for c in ids)


# ---------------------------------------------------------------------------------------------
# small steps


def _turn_action(st: State) -> None:
    """CL-UNO-4: a turn action by any seat closes every open catch window; UNO-GRACE-2: it ends
    every grace, and :func:`settle` exposes a graced seat that has still not called."""
    if True in st.exposed:
        st.exposed = [False] * st.n
    if True in st.caught:
        st.caught = [False] * st.n
    if True in st.graced:
        for s in range(st.n):
            if st.graced[s]:
                st.fresh[s] = True  # graced and fresh: settle ends the grace


def _hand_changed(st: State, seat: int) -> None:
    """CL-UNO-4, CL-UNO-7: a changed hand closes its window and loses its call (and any grace)."""
    st.called[seat] = False
    st.exposed[seat] = False
    st.graced[seat] = False
    st.fresh[seat] = True


def settle(st: State, ev: Ev, actor: int = -1) -> None:
    """CL-UNO-1: every seat whose hand changed and now holds one card without a call is exposed.

    With ``uno_grace`` (UNO-GRACE-1), a seat that came to one card by anything but its own action
    (``actor``: the seat whose action this was, -1 for the engine's deal) is graced instead; a
    seat still graced here had its grace ended by a turn action (UNO-GRACE-2) and is exposed now.
    """
    fresh = st.fresh
    if True not in fresh:
        return
    live = st.phase < _ROUND_OVER
    graced = st.graced
    for s in range(st.n):
        if fresh[s]:
            fresh[s] = False
            ended = graced[s]
            graced[s] = False
            if live and st.in_round[s] and len(st.hands[s]) == 1 and not st.called[s]:
                if not ended and s != actor and st.rules.uno_grace:
                    graced[s] = True  # UNO-GRACE-1
                    continue
                st.exposed[s] = True
                if ev is not None:
                    ev.append(Exposed(s))


def _take(st: State, ev: Ev) -> int:
    """The top card of the draw pile, reshuffling first if it is empty (CL-DRAW-5); -1 if none exist."""
    draw = st.draw
    if not draw:
        pool = st.discard[:-1] + st.set_aside
        if not pool:
            return -1
        del st.discard[:-1]
        st.set_aside = []
        st.rng.shuffle(pool)
        st.draw = draw = pool
        if ev is not None:
            ev.append(Reshuffled(len(pool)))
    return draw.pop()


def _take_cards(
    st: State, seat: int, count: int, until: int, color: int, reveal: bool, ev: Ev
) -> tuple[list[int], bool]:
    """The one loop by which a seat takes cards from the draw pile, one at a time.

    ``seat`` takes up to ``count`` cards (reshuffling as needed, CL-DRAW-5; fewer when the piles
    run out, CL-DRAW-6) and stops early after a card that meets ``until``: ``_UNTIL_PLAYABLE``
    (a card it may play, CL-DRAW-3, NM-4), ``_UNTIL_COLOR`` (a card of ``color``, NM-11) or
    ``_UNTIL_COUNT`` (none). It always stops when the hand reaches the mercy limit (NM-14); the
    second value says so, and the caller knocks the seat out. ``reveal`` turns every card face up
    (a Color Roulette, NM-11). Returns the cards taken, in order.
    """
    hand = st.hands[seat]
    limit = st.flags.mercy_limit
    got: list[int] = []
    knocked = False
    while len(got) < count:
        c = _take(st, ev)
        if c < 0:
            break
        hand.append(c)
        got.append(c)
        if reveal and ev is not None:
            ev.append(Revealed(seat, _card(c)))
        if limit and len(hand) >= limit:
            knocked = True
            break
        if until == _UNTIL_PLAYABLE and playable(st, c, hand):
            break
        if until == _UNTIL_COLOR and ID_COLOR[c] == color:
            break
    if got:
        st.auto_passes = 0
        _hand_changed(st, seat)
    return got, knocked


_UNTIL_COUNT = 0
_UNTIL_PLAYABLE = 1
_UNTIL_COLOR = 2
_NO_END = 1 << 30  # as many cards as it takes


def _draw_n(st: State, seat: int, count: int, reason: DrawReason, ev: Ev) -> int:
    """``seat`` draws up to ``count`` cards (CL-DRAW-6), stopping at a knock-out (NM-14)."""
    got, knocked = _take_cards(st, seat, count, _UNTIL_COUNT, -1, False, ev)
    if ev is not None:
        ev.append(Drew(seat, len(got), reason))
        if got:
            ev.append(DrewCards(seat, _cards(got)))
    if knocked:
        _knock_out(st, seat, ev)
    return len(got)


def _knock_out(st: State, seat: int, ev: Ev) -> None:
    """NM-14 to NM-16: set the hand aside, take the seat out; one seat left wins the round."""
    hand = st.hands[seat]
    st.set_aside.extend(hand)
    st.hands[seat] = []
    st.in_round[seat] = False
    st.knocked[seat] = True
    st.exposed[seat] = False
    st.called[seat] = False
    st.fresh[seat] = False
    st.graced[seat] = False
    if ev is not None:
        ev.append(KnockedOut(seat, len(hand)))
    if st.phase < _ROUND_OVER and sum(st.in_round) == 1:
        _end_round(st, st.in_round.index(True), ev)


def _after_penalty(st: State, seat: int, ev: Ev) -> None:
    """After an out-of-turn penalty draw: NM-15 if ``seat`` was knocked out while active; CL-DRAW-7
    if the draw emptied the piles so that the active seat can no longer act."""
    if st.phase >= _ROUND_OVER:
        return
    if st.in_round[seat] or seat != st.active:
        if st.phase is _PLAY:
            _begin_turn(st, st.active, ev)
        return
    if st.phase is Phase.CHOOSE_COLOR:
        st.active = st.next_seat(seat)
        return
    st.pending = 0
    st.pending_card = -1
    _begin_turn(st, st.next_seat(seat), ev)


def _end_round(st: State, winner: int | None, ev: Ev) -> None:
    st.exposed = [False] * st.n
    st.graced = [False] * st.n
    st.pending = 0
    st.pending_card = -1
    res = score_round(st, winner)
    if ev is not None:
        ev.append(RoundEnded(winner, res.points, res.hand_points, res.scores, res.eliminated))
    if st.match_winners:
        st.phase = Phase.MATCH_OVER
        if ev is not None:
            ev.append(MatchEnded(st.match_winners, tuple(st.scores)))
    else:
        st.phase = Phase.ROUND_OVER


def _begin_turn(st: State, seat: int, ev: Ev) -> None:
    """Make ``seat`` active for a normal turn; CL-DRAW-7 automatic passes; CL-DRAW-8 blocked round."""
    st.drawn = -1
    st.phase = _PLAY
    if st.draw:
        st.active = seat
        return
    while True:
        st.active = seat
        if st.draw or can_draw(st) or has_playable(st, seat):
            return
        if ev is not None:
            ev.append(Passed(seat, auto=True))
        st.auto_passes += 1
        if st.auto_passes >= sum(st.in_round):
            _end_round(st, None, ev)
            return
        seat = st.next_seat(seat)


def _set_penalty(st: State, victim: int, total: int, card: int, ev: Ev, respond: bool = True) -> None:
    """CL-ACT-8: a response phase when the ruleset allows one, else the victim draws at once."""
    st.pending = total
    st.pending_card = card
    if ev is not None:
        ev.append(PenaltyPending(victim, total))
    if respond and response_allowed(st, card):
        st.active = victim
        st.phase = Phase.RESPOND
        st.drawn = -1
        return
    st.pending = 0
    st.pending_card = -1
    _draw_n(st, victim, total, DrawReason.PENALTY, ev)
    if st.phase < _ROUND_OVER:
        _begin_turn(st, st.next_seat(victim), ev)


def _turn_moves(st: State, p: int, step: Step) -> int:
    """The seat whose turn follows a card of ``step`` that ``p`` played, not its last.

    ``Step.NEXT``: next(p) (CL-TURN-6). ``Step.SKIP``: next(p) loses its turn (CL-ACT-1).
    ``Step.REVERSE``: the direction flips (CL-ACT-2), and with two seats in the round ``p`` goes
    again (TWO-2). The one source of these rules, for the event-free fast path and for
    :func:`_effect`; it makes no events (the caller does).
    """
    if step == _STEP_REVERSE:
        st.direction = -st.direction
        return p if sum(st.in_round) == 2 else st.next_seat(p)
    nxt = st.next_seat(p)
    return st.next_seat(nxt) if step == _STEP_SKIP else nxt


def _flip(st: State, ev: Ev) -> None:
    st.direction = -st.direction
    if ev is not None:
        ev.append(DirectionChanged(st.direction))


def _others(st: State, seat: int) -> list[int]:
    """The other seats in the round, in turn order from next(seat)."""
    out = []
    s = st.next_seat(seat)
    while s != seat:
        out.append(s)
        s = st.next_seat(s)
    return out


def _swap(st: State, a: int, b: int, ev: Ev) -> None:
    """CL-ACT-15, HOUSE-9: two seats exchange hands."""
    st.hands[a], st.hands[b] = st.hands[b], st.hands[a]
    _hand_changed(st, a)
    _hand_changed(st, b)
    if ev is not None:
        ev.append(HandsSwapped(a, b))
        ev.append(NewHand(a, _cards(st.hands[a])))
        ev.append(NewHand(b, _cards(st.hands[b])))


def _pass_hands(st: State, ev: Ev) -> None:
    """HOUSE-10: every seat in the round passes its hand to next(seat), all at once."""
    seats = [s for s in range(st.n) if st.in_round[s]]
    new = list(st.hands)
    for s in seats:
        new[st.next_seat(s)] = st.hands[s]
    st.hands = new
    for s in seats:
        _hand_changed(st, s)
    if ev is not None:
        ev.append(HandsPassed(st.direction))
        for s in seats:
            ev.append(NewHand(s, _cards(st.hands[s])))


def _shuffle_hands(st: State, player: int, ev: Ev) -> None:
    """CL-ACT-16: collect every hand in the round, shuffle, deal from next(player) around all seats."""
    order = [*_others(st, player), player]
    pool: list[int] = []
    for s in range(st.n):
        if st.in_round[s]:
            pool.extend(st.hands[s])
            st.hands[s] = []
    st.rng.shuffle(pool)
    k = len(order)
    for i in range(len(pool)):
        st.hands[order[i % k]].append(pool.pop())
    for s in order:
        _hand_changed(st, s)
    if ev is not None:
        ev.append(HandsShuffled(player, tuple(len(h) for h in st.hands)))
        for s in sorted(order):
            ev.append(NewHand(s, _cards(st.hands[s])))


def _slip(st: State, seat: int, cards: list[int], ev: Ev) -> None:
    """CL-ACT-19, NM-10: cards slipped face up under the top card, with no effect."""
    d = st.discard
    d[len(d) - 1:len(d) - 1] = cards
    _hand_changed(st, seat)
    if ev is not None:
        ev.append(Slipped(seat, _cards(cards)))


# ---------------------------------------------------------------------------------------------
# actions


def apply(st: State, seat: int, action: Action, ev: Ev) -> None:
    """Apply a legal ``action`` by ``seat``, then settle exposures (CL-TURN-5)."""
    kind = action.kind
    if kind == PLAY:
        if ev is None and seat == st.active and st.phase is not _RESPOND and st.draw:
            play: Play = action  # type: ignore[assignment]
            c = play.cid
            step = st.flags.step[c]
            hand = st.hands[seat]
            if step and len(hand) > 1:
                # The commonest plays, with no events: the active seat plays a card that only
                # moves the turn (Flags.step), not its last, with cards left to draw. The same
                # steps as _play, _effect, _begin_turn and settle, inlined.
                if True in st.exposed or True in st.caught or True in st.graced:
                    _turn_action(st)
                hand.remove(c)
                called = st.called
                called[seat] = False  # _hand_changed, with settle below
                st.exposed[seat] = False
                st.discard.append(c)
                st.top_player = seat
                st.drawn = -1
                st.auto_passes = 0
                col = ID_COLOR[c]
                if col >= 0:
                    st.color = col
                else:
                    color = play.color
                    st.color = -1 if color is None else int(color)
                s = st.next_seat(seat) if step == _STEP_NEXT else _turn_moves(st, seat, step)
                st.phase = _PLAY  # _begin_turn, with a card left to draw
                st.active = s
                if len(hand) == 1 and st.in_round[seat]:
                    if play.uno:
                        called[seat] = True
                    else:
                        st.exposed[seat] = True  # CL-UNO-1
                if True in st.fresh:  # ended graces, marks left by whoever built this state: settle
                    settle(st, None, seat)
                return
        _play(st, seat, cast(Play, action), ev)
    elif kind == DRAW:
        if ev is None and st.draw and not st.flags.draw_until_playable and not st.flags.mercy_limit:
            _draw_one(st, seat)
            return
        _draw_action(st, seat, ev)
    elif kind == PASS:
        _turn_action(st)
        if ev is not None:
            ev.append(Passed(seat))
        _begin_turn(st, st.next_seat(seat), ev)
    elif kind == ACCEPT:
        _accept(st, seat, ev)
    elif kind == CHALLENGE:
        _challenge(st, seat, ev)
    elif kind == CHOOSE_COLOR:
        choice = cast(ChooseColor, action)
        _choose_color(st, seat, choice.color, choice.target, ev)
    elif kind == CALL_UNO:
        _call_uno(st, seat, ev)
    elif kind == CATCH:
        _catch(st, seat, cast(Catch, action).target, ev)
    settle(st, ev, seat)


def _draw_one(st: State, s: int) -> None:
    """apply() of a draw with no events when one card is drawn (no draw-until-playable, no mercy
    limit) and the pile is not empty: _draw_action, _take, playable and _begin_turn, inlined."""
    if True in st.exposed or True in st.caught or True in st.graced:
        _turn_action(st)
    hand = st.hands[s]
    c = st.draw.pop()
    hand.append(c)
    st.auto_passes = 0
    st.called[s] = False  # _hand_changed, with settle below
    st.exposed[s] = False
    col = ID_COLOR[c]  # playable(st, c, hand)
    if col < 0:
        ok = c != WILD_DRAW_FOUR or not st.flags.strict_wd4 or wd4_is_legal(hand, st.color)
    elif col == st.color:
        ok = True
    else:
        top = st.discard[-1]
        ok = ID_COLOR[top] >= 0 and ID_RANK[c] == ID_RANK[top]
    if ok:
        st.phase = Phase.PLAY_DRAWN
        st.drawn = c
    elif st.draw:
        n = st.n
        d = st.direction
        inr = st.in_round
        nxt = (s + d) % n  # next_seat(s)
        while not inr[nxt]:
            nxt = (nxt + d) % n
        st.drawn = -1  # _begin_turn, with a card left to draw
        st.phase = _PLAY
        st.active = nxt
    else:
        _begin_turn(st, st.next_seat(s), None)
    if len(hand) == 1:
        st.fresh[s] = True
        settle(st, None, s)
    elif True in st.fresh:
        settle(st, None, s)


def _play(st: State, p: int, action: Play, ev: Ev) -> None:
    c = action.cid
    color = action.color
    target = action.target
    hand = st.hands[p]
    responding = st.phase is Phase.RESPOND
    jump = p != st.active
    if True in st.exposed or True in st.caught or True in st.graced:
        _turn_action(st)
    if jump:  # HOUSE-7: the jumper's turn now; the active seat loses its turn
        st.active = p
        st.phase = _PLAY
    is_wd4 = c == WILD_DRAW_FOUR and not st.flags.nm
    if is_wd4:  # CL-ACT-6: the verdict is recorded with the play
        st.wd4_illegal = not wd4_is_legal(hand, st.color)
        st.wd4_player = p
    hand.remove(c)
    st.called[p] = False  # _hand_changed, inlined on the hot path
    st.exposed[p] = False
    st.graced[p] = False
    st.fresh[p] = True
    st.discard.append(c)
    st.top_player = p
    st.drawn = -1
    st.auto_passes = 0
    col = ID_COLOR[c]
    st.color = col if col >= 0 else (-1 if color is None else int(color))
    if is_wd4:
        st.wd4_hand = hand[:]
    uno = action.uno
    if ev is not None:
        ev.append(CardPlayed(p, _card(c), color, target, uno, jump))
    if not hand:
        _last_card(st, p, c, target, responding, ev)
    elif responding:
        _respond(st, p, c, ev)
    else:
        _effect(st, p, c, target, ev)
    if uno and len(st.hands[p]) == 1 and st.in_round[p]:
        st.called[p] = True


def _effect(st: State, p: int, c: int, target: int | None, ev: Ev) -> None:
    """CL-ACT, HOUSE-9/10 and NM effects of a card that is not its player's last."""
    rank = ID_RANK[c]
    if rank <= 9 and not st.flags.seven_zero:  # a plain number card: the common case
        _begin_turn(st, st.next_seat(p), ev)
        return
    r = st.rules
    nxt: int
    if ID_IS_NUMBER[c]:
        if r.seven_zero and rank == 7 and target is not None:
            _swap(st, p, target, ev)
        elif r.seven_zero and rank == 0:
            _pass_hands(st, ev)
        nxt = st.next_seat(p)
    elif rank == _SKIP:
        if ev is not None:
            ev.append(Skipped(st.next_seat(p)))
        nxt = _turn_moves(st, p, Step.SKIP)
    elif rank == _REVERSE:
        nxt = _turn_moves(st, p, Step.REVERSE)
        if ev is not None:
            ev.append(DirectionChanged(st.direction))
    elif c == WILD_REVERSE_DRAW_FOUR:  # NM-8, TWO-7
        _flip(st, ev)
        _set_penalty(st, p if sum(st.in_round) == 2 else st.next_seat(p), 4, c, ev)
        return
    elif ID_DRAW_VALUE[c]:  # CL-ACT-3, CL-ACT-5, NM-5
        _set_penalty(st, st.next_seat(p), ID_DRAW_VALUE[c], c, ev)
        return
    elif rank == _SKIP_EVERYONE:  # NM-9, TWO-3
        nxt = p
    elif rank == _DISCARD_ALL:  # NM-10
        hand = st.hands[p]
        col = ID_COLOR[c]
        slipped = [x for x in hand if ID_COLOR[x] == col]
        if slipped:
            hand[:] = [x for x in hand if ID_COLOR[x] != col]
            _slip(st, p, slipped, ev)
            if not hand:
                _end_round(st, p, ev)
                return
        nxt = st.next_seat(p)
    elif c == WILD_SWAP_HANDS:  # CL-ACT-15
        if target is not None:
            _swap(st, p, target, ev)
        nxt = st.next_seat(p)
    elif c == WILD_SHUFFLE_HANDS:  # CL-ACT-16
        _shuffle_hands(st, p, ev)
        nxt = st.next_seat(p)
    elif c in (WILD_CUSTOMIZABLE, BLANK):  # CL-ACT-17 to CL-ACT-20
        effect = r.custom_effect
        nxt = st.next_seat(p)
        if effect is CustomEffect.OTHERS_DRAW_2:
            for s in _others(st, p):
                _draw_n(st, s, 2, DrawReason.CUSTOM, ev)
        elif effect is CustomEffect.OTHERS_DISCARD_WILDS:
            for s in _others(st, p):
                hand = st.hands[s]
                wilds = [x for x in hand if ID_IS_WILD[x]]
                if wilds:
                    hand[:] = [x for x in hand if not ID_IS_WILD[x]]
                    _slip(st, s, wilds, ev)
                    if not hand:
                        _end_round(st, s, ev)
                        return
        elif effect is CustomEffect.EXTRA_TURN:
            nxt = p
    elif c == WILD_COLOR_ROULETTE:  # NM-11
        st.active = st.next_seat(p)
        st.phase = Phase.CHOOSE_COLOR
        st.color_reason = ColorReason.ROULETTE
        return
    else:  # CL-ACT-4: a plain Wild
        nxt = st.next_seat(p)
    _begin_turn(st, nxt, ev)


def _answer(st: State, c: int) -> tuple[int, int, bool]:
    """What the victim's answer ``c`` to the pending penalty makes of it: the new total, the draw
    card now pending, and whether the direction flips. The one source for a response, whether or
    not ``c`` is its player's last card.

    A stack adds its value, or replaces the total without ``stack_sum`` (HOUSE-1 to HOUSE-3, NM-6;
    a Wild Reverse Draw 4 also flips, NM-8); a Draw Two on a Wild Draw Four cancels it for its own
    2 (HOUSE-14); a bounce moves the same total on, a Reverse flipping (HOUSE-13).
    """
    r = st.rules
    pc = st.pending_card
    if can_stack(r.stacking, pc, c):
        value = ID_DRAW_VALUE[c]
        return (st.pending + value if r.stack_sum else value), c, c == WILD_REVERSE_DRAW_FOUR
    if pc == WILD_DRAW_FOUR and ID_RANK[c] == _DRAW_TWO:
        return ID_DRAW_VALUE[c], c, False
    return st.pending, pc, ID_RANK[c] == _REVERSE


def _respond(st: State, v: int, c: int, ev: Ev) -> None:
    """HOUSE-1 to HOUSE-3, HOUSE-13, HOUSE-14, NM-6: a stack, a bounce or a defense by victim ``v``."""
    total, card, flips = _answer(st, c)
    if flips:
        _flip(st, ev)
    if card == WILD_REVERSE_DRAW_FOUR and card == c:  # NM-8, TWO-7: with two seats, back to v
        victim = v if sum(st.in_round) == 2 else st.next_seat(v)
    else:
        victim = st.next_seat(v)
    if st.pending_card == WILD_DRAW_FOUR and card == c and ID_RANK[c] == _DRAW_TWO:
        st.wd4_player = -1  # HOUSE-14: the Wild Draw Four can no longer be challenged
    _set_penalty(st, victim, total, card, ev)


def _last_card(st: State, p: int, c: int, target: int | None, responding: bool, ev: Ev) -> None:
    """CL-END-2 to CL-END-7: the player's hand is empty after placing ``c``."""
    r = st.rules
    if responding or ID_DRAW_VALUE[c]:  # CL-END-4: the target draws the total at once
        if responding:
            total, _, flips = _answer(st, c)
        else:
            total, flips = ID_DRAW_VALUE[c], c == WILD_REVERSE_DRAW_FOUR
        if flips:
            _flip(st, ev)
        st.pending = 0
        st.pending_card = -1
        _draw_n(st, st.next_seat(p), total, DrawReason.PENALTY, ev)
    elif c == WILD_SWAP_HANDS and r.swap_hands_last_card is SwapLastCard.SWAP and target is not None:
        _swap(st, p, target, ev)  # CL-END-5: the target now holds nothing and wins
        _end_round(st, target, ev)
        return
    elif c == WILD_SHUFFLE_HANDS and r.shuffle_hands_last_card is ShuffleLastCard.SHUFFLE:
        _shuffle_hands(st, p, ev)  # CL-END-6: out only if dealt no card
        if st.hands[p]:
            _begin_turn(st, st.next_seat(p), ev)
            return
    elif c in (WILD_CUSTOMIZABLE, BLANK) and r.custom_effect is CustomEffect.OTHERS_DRAW_2:
        for s in _others(st, p):
            _draw_n(st, s, 2, DrawReason.CUSTOM, ev)
    elif c == WILD_COLOR_ROULETTE:  # CL-END-7: the Roulette is resolved before scoring
        st.active = st.next_seat(p)
        st.phase = Phase.CHOOSE_COLOR
        st.color_reason = ColorReason.ROULETTE_LAST
        return
    if st.phase < _ROUND_OVER:
        _end_round(st, p, ev)


def _draw_action(st: State, s: int, ev: Ev) -> None:
    """CL-DRAW-1 to CL-DRAW-4, NM-4: draw one card, or until a playable one."""
    _turn_action(st)
    count = _NO_END if st.flags.draw_until_playable else 1
    got, knocked = _take_cards(st, s, count, _UNTIL_PLAYABLE, -1, False, ev)
    if ev is not None:
        ev.append(Drew(s, len(got), DrawReason.DRAW))
        if got:
            ev.append(DrewCards(s, _cards(got)))
    if knocked:
        _knock_out(st, s, ev)
        if st.phase < _ROUND_OVER:
            _begin_turn(st, st.next_seat(s), ev)
        return
    if got and playable(st, got[-1], st.hands[s]):
        st.phase = Phase.PLAY_DRAWN
        st.drawn = got[-1]
    else:
        _begin_turn(st, st.next_seat(s), ev)


def _accept(st: State, v: int, ev: Ev) -> None:
    """CL-ACT-9: the victim draws the whole pending penalty and loses its turn."""
    _turn_action(st)
    total = st.pending
    st.pending = 0
    st.pending_card = -1
    st.wd4_player = -1
    _draw_n(st, v, total, DrawReason.PENALTY, ev)
    if st.phase < _ROUND_OVER:
        _begin_turn(st, st.next_seat(v), ev)


def _challenge(st: State, v: int, ev: Ev) -> None:
    """CL-ACT-10 to CL-ACT-14, HOUSE-5."""
    _turn_action(st)
    guilty = st.wd4_illegal
    player = st.wd4_player
    total = st.pending
    st.pending = 0
    st.pending_card = -1
    st.wd4_player = -1
    if ev is not None:
        ev.append(Challenged(v, player, guilty))
        ev.append(ChallengeReveal(v, player, _cards(st.wd4_hand)))
    if guilty:
        _draw_n(st, player, total, DrawReason.CHALLENGE, ev)
        if st.phase < _ROUND_OVER:
            _begin_turn(st, v, ev)
    else:
        _draw_n(st, v, total + 2, DrawReason.CHALLENGE, ev)
        if st.phase < _ROUND_OVER:
            _begin_turn(st, st.next_seat(v), ev)


def _choose_color(st: State, s: int, color: Color, target: int | None, ev: Ev) -> None:
    """SET-11, SET-12 (first card) and NM-11, NM-12 (Color Roulette)."""
    _turn_action(st)
    st.color = int(color)
    if ev is not None:
        ev.append(ColorChosen(s, color, target))
    if st.color_reason == ColorReason.FIRST_CARD:
        if target is not None:
            _swap(st, s, target, ev)
        _begin_turn(st, s, ev)
        return
    _, knocked = _take_cards(st, s, _NO_END, _UNTIL_COLOR, int(color), True, ev)
    if knocked:
        _knock_out(st, s, ev)
    if st.phase >= _ROUND_OVER:
        return
    if st.color_reason == ColorReason.ROULETTE_LAST:
        _end_round(st, st.top_player, ev)
    else:
        _begin_turn(st, st.next_seat(s), ev)


def _call_uno(st: State, s: int, ev: Ev) -> None:
    """CL-UNO-2; CL-UNO-3 with ``false_uno_penalty`` for a call that does not hold."""
    if len(st.hands[s]) == 1 and not st.called[s]:
        st.called[s] = True
        st.exposed[s] = False
        st.graced[s] = False  # UNO-GRACE-3: a call ends the grace
        if ev is not None:
            ev.append(UnoCalled(s))
        return
    penalty = st.rules.false_uno_penalty
    if ev is not None:
        ev.append(FalseUno(s, penalty))
    _draw_n(st, s, penalty, DrawReason.FALSE_UNO, ev)
    _after_penalty(st, s, ev)


def _catch(st: State, s: int, t: int, ev: Ev) -> None:
    """CL-UNO-5; CL-UNO-6 with ``false_catch_penalty`` for a catch that does not hold."""
    if st.exposed[t]:
        penalty = st.rules.uno_penalty
        if ev is not None:
            ev.append(Caught(s, t, penalty))
        _draw_n(st, t, penalty, DrawReason.CATCH, ev)
        st.exposed[t] = False
        st.caught[t] = True
        _after_penalty(st, t, ev)
        return
    penalty = st.rules.false_catch_penalty
    if ev is not None:
        ev.append(FalseCatch(s, t, penalty))
    _draw_n(st, s, penalty, DrawReason.FALSE_CATCH, ev)
    _after_penalty(st, s, ev)


