"""Legal actions per phase and seat, and the playability rules they rest on.

Everything here reads a :class:`~unotable.state.State` and changes nothing. The rules it
implements: CL-TURN-2 (what matches), CL-ACT-6/7 (Wild Draw Four legality), CL-DRAW-1/7 (when
drawing is legal), CL-ACT-8 and §9/§10 (which responses a victim may make), CL-UNO (calls and
catches), HOUSE-6 (jump-ins) and CL-END-3 (a last card needs no color or target).

>>> from unotable.game import Game
>>> g = Game.new(seats=2, seed=3)
>>> [str(a) for a in legal_actions(g._st, g.active_seat)][-1]
'draw'
"""
from __future__ import annotations

from unotable.actions import (
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Play,
)
from unotable.cards import (
    ID_COLOR,
    ID_DRAW_VALUE,
    ID_IS_NUMBER,
    ID_RANK,
    NUM_CARD_IDS,
    WILD_COLOR_ROULETTE,
    WILD_DRAW_FOUR,
    WILD_SHUFFLE_HANDS,
    WILD_SWAP_HANDS,
    Card,
    Color,
    Rank,
)
from unotable.phase import ColorReason, Phase
from unotable.rules import ShuffleLastCard, Stacking, SwapLastCard
from unotable.state import State, turn_key, turn_key_parts

__all__ = [
    "can_draw",
    "has_playable",
    "legal_actions",
    "playable",
    "response_allowed",
    "response_cards",
    "wd4_is_legal",
]

_SKIP = int(Rank.SKIP)
_REVERSE = int(Rank.REVERSE)
_DRAW_TWO = int(Rank.DRAW_TWO)
_DISCARD_ALL = int(Rank.DISCARD_ALL)
_COLORS = tuple(Color)
_NO_COLORS: tuple[Color | None, ...] = (None,)
_WILD_COLORS: tuple[Color | None, ...] = tuple(Color)
_LAST_WILD_COLORS: tuple[Color | None, ...] = (None, *Color)

_PLAY = Phase.PLAY
_PLAY_DRAWN = Phase.PLAY_DRAWN
_ROUND_OVER = Phase.ROUND_OVER

_DRAW = Draw()
_PASS = Pass()
_ACCEPT = Accept()
_CHALLENGE = Challenge()
_CALL = CallUno()
_PLAYS: dict[tuple[int, int, int, bool], Play] = {}
_CATCHES = tuple(Catch(i) for i in range(10))
_CHOOSE: dict[tuple[int, int], ChooseColor] = {}


def play_action(card: int, color: Color | None, target: int | None, uno: bool) -> Play:
    """The interned :class:`Play` for these values (the engine makes many; they are immutable)."""
    key = (card, -1 if color is None else int(color), -1 if target is None else target, uno)
    act = _PLAYS.get(key)
    if act is None:
        act = _PLAYS[key] = Play(Card.from_id(card), color, target, uno)
    return act


def choose_action(color: Color, target: int | None) -> ChooseColor:
    key = (int(color), -1 if target is None else target)
    act = _CHOOSE.get(key)
    if act is None:
        act = _CHOOSE[key] = ChooseColor(color, target)
    return act


def can_draw(st: State) -> bool:
    """CL-DRAW-7: a card can be drawn (the pile, or a reshuffle of the discard and set-aside cards)."""
    return bool(st.draw) or len(st.discard) > 1 or bool(st.set_aside)


def wd4_is_legal(hand: list[int], color: int) -> bool:
    """CL-ACT-6: a WD4 is legal when the hand holds no other card of the current color."""
    for c in hand:  # noqa: SIM110 (a plain loop is faster on this hot path)
        if ID_COLOR[c] == color:
            return False
    return True


def playable(st: State, card: int, hand: list[int]) -> bool:
    """CL-TURN-2 outside a response phase: may ``card`` (held in ``hand``) be played on the top card?"""
    col = ID_COLOR[card]
    if col < 0:
        if card == WILD_DRAW_FOUR and st.flags.strict_wd4:
            return wd4_is_legal(hand, st.color)
        return True
    if col == st.color:
        return True
    top = st.discard[-1]
    if ID_COLOR[top] < 0:
        return False
    return ID_RANK[card] == ID_RANK[top]


def has_playable(st: State, seat: int) -> bool:
    hand = st.hands[seat]
    for c in hand:  # noqa: SIM110
        if playable(st, c, hand):
            return True
    return False


def response_allowed(st: State, card: int) -> bool:
    """CL-ACT-8: does the ruleset allow any response to a penalty from draw card ``card``?"""
    r = st.rules
    f = st.flags  # f.challenge is r.challenge_enabled and f.nm is r.is_no_mercy, without the properties
    if card == WILD_DRAW_FOUR and f.challenge:
        return True
    if r.stacking is not Stacking.NONE:
        return True
    if not f.nm:
        if r.bounce_draw_two and ID_RANK[card] == _DRAW_TWO:
            return True
        if r.defend_wd4_with_draw_two and card == WILD_DRAW_FOUR:
            return True
    return False


def can_stack(stacking: Stacking, pending_card: int, card: int) -> bool:
    """HOUSE-1 / NM-6: may ``card`` be stacked on the penalty of ``pending_card``?"""
    value = ID_DRAW_VALUE[card]
    if not value or stacking is Stacking.NONE:
        return False
    if stacking is Stacking.BY_VALUE:
        return value >= ID_DRAW_VALUE[pending_card]
    if ID_RANK[card] == ID_RANK[pending_card]:
        return True
    return stacking is Stacking.PLUS4_ON_PLUS2 and ID_RANK[pending_card] == _DRAW_TWO and value == 4


def response_cards(st: State, seat: int) -> list[int]:
    """The distinct cards of ``seat`` that may answer the pending penalty (stack, bounce, defend)."""
    r = st.rules
    pc = st.pending_card
    out: list[int] = []
    stacking = r.stacking
    bounce = r.bounce_draw_two and not r.is_no_mercy and ID_RANK[pc] == _DRAW_TWO
    defend = (
        r.defend_wd4_with_draw_two and not r.is_no_mercy and pc == WILD_DRAW_FOUR and st.discard[-1] == pc
    )
    if stacking is Stacking.NONE and not bounce and not defend:
        return out  # nothing can answer (can_stack is False for every card without stacking)
    for c in st.hands[seat]:
        if c in out:
            continue
        if (
            can_stack(stacking, pc, c)
            or (bounce and ID_COLOR[c] == st.color and ID_RANK[c] in (_SKIP, _REVERSE))
            or (defend and ID_COLOR[c] == st.color and ID_RANK[c] == _DRAW_TWO)
        ):
            out.append(c)
    return out


def receives_from(st: State, seat: int) -> int:
    """The seat whose hand passes to ``seat`` under a 0 (HOUSE-10)."""
    n = st.n
    d = -st.direction
    s = (seat + d) % n
    while not st.in_round[s]:
        s = (s + d) % n
    return s


def result_size(st: State, seat: int, card: int, target: int | None) -> int:
    """How many cards ``seat`` holds once this play has resolved (for the UNO flag, CL-UNO-3)."""
    hand = st.hands[seat]
    left = len(hand) - 1
    r = st.rules
    if card == WILD_SHUFFLE_HANDS and (left or r.shuffle_hands_last_card is ShuffleLastCard.SHUFFLE):
        # CL-ACT-16, CL-END-6: dealt from next(player) with the player last, even for its last card
        total = sum(len(st.hands[s]) for s in range(st.n) if st.in_round[s]) - 1
        return total // st.seats_in_round()
    if left == 0:
        return 0
    rank = ID_RANK[card]
    if card == WILD_SWAP_HANDS:
        return len(st.hands[target]) if target is not None else left
    if rank == _DISCARD_ALL:
        col = ID_COLOR[card]
        return left - (sum(1 for c in hand if ID_COLOR[c] == col) - 1)
    if r.seven_zero and ID_IS_NUMBER[card]:
        if rank == 7 and target is not None:
            return len(st.hands[target])
        if rank == 0:
            return len(st.hands[receives_from(st, seat)])
    return left


def _needs_target(st: State, card: int) -> bool:
    return card == WILD_SWAP_HANDS or (st.rules.seven_zero and ID_IS_NUMBER[card] and ID_RANK[card] == 7)


def add_plays(st: State, seat: int, card: int, out: list[Action]) -> None:
    """Append every Play of ``card`` by ``seat``: colors, targets and the UNO flag (CL-TURN-4)."""
    last = len(st.hands[seat]) == 1
    if ID_COLOR[card] >= 0 or card == WILD_COLOR_ROULETTE:
        colors = _NO_COLORS
    elif last and not (
        card == WILD_SHUFFLE_HANDS and st.rules.shuffle_hands_last_card is ShuffleLastCard.SHUFFLE
    ):
        colors = _LAST_WILD_COLORS  # CL-END-3 (a last Shuffle Hands may not end the round: it names one)
    else:
        colors = _WILD_COLORS
    if _needs_target(st, card):
        others: list[int | None] = [s for s in range(st.n) if s != seat and st.in_round[s]]
        optional = last and (card != WILD_SWAP_HANDS or st.rules.swap_hands_last_card is SwapLastCard.WIN)
        targets: list[int | None] = [None, *others] if optional else others
    else:
        targets = [None]
    for target in targets:
        flag = result_size(st, seat, card, target) == 1
        for color in colors:
            out.append(play_action(card, color, target, False))
            if flag:
                out.append(play_action(card, color, target, True))


_FAST: dict[tuple[int, int], tuple[Play, ...]] = {}


def _fast_plays(card: int, size: int) -> tuple[Play, ...]:
    """The plays of a card that needs no target and leaves ``size - 1`` cards, as add_plays makes them."""
    key = (card, size if size < 3 else 3)
    plays = _FAST.get(key)
    if plays is None:
        if ID_COLOR[card] >= 0 or card == WILD_COLOR_ROULETTE:
            colors = _NO_COLORS
        else:
            colors = _LAST_WILD_COLORS if size == 1 else _WILD_COLORS
        items: list[Play] = []
        for color in colors:
            items.append(play_action(card, color, None, False))
            if size == 2:
                items.append(play_action(card, color, None, True))
        plays = _FAST[key] = tuple(items)
    return plays


def _turn_table(st: State, key: int) -> tuple[tuple[Play, ...] | None, ...]:
    """The plays of each card id in a normal turn for one (color, top rank, hand size class), as
    :func:`_turn_plays` makes them: ``()`` for a card that cannot be played, ``None`` for one whose
    plays depend on more than these (a target, a strict Wild Draw Four): those take the slow path."""
    f = st.flags
    table: tuple[tuple[Play, ...] | None, ...] | None = f.turn_tables[key]
    if table is None:
        color, trank, size = turn_key_parts(key)
        row: list[tuple[Play, ...] | None] = []
        for c in range(NUM_CARD_IDS):
            col = ID_COLOR[c]
            if col >= 0 and col != color and ID_RANK[c] != trank:
                row.append(())
            elif not f.simple[c] or (f.strict_wd4 and c == WILD_DRAW_FOUR):
                row.append(None)
            else:
                row.append(_fast_plays(c, size))
        table = f.turn_tables[key] = tuple(row)
    return table


# The top rank of each card id for matching: its rank if colored, -1 for a wild (matches nothing).
# turn_key() split into its parts, so that the hot path adds three table lookups (see turn_key).
_BASE_KEY = turn_key(-1, -1, 0)
_TOP_RANK_KEY = tuple(turn_key(-1, ID_RANK[c] if ID_COLOR[c] >= 0 else -1, 0) - _BASE_KEY
                      for c in range(NUM_CARD_IDS))
_COLOR_STRIDE = turn_key(0, -1, 0) - _BASE_KEY
_SIZE_KEY = tuple(turn_key(-1, -1, size) - _BASE_KEY for size in range(4))
assert all(turn_key(c, -1, 0) == _BASE_KEY + (c + 1) * _COLOR_STRIDE for c in range(-1, 4))
assert _SIZE_KEY == (0, 1, 2, 3)


def _turn_plays(st: State, seat: int, hand: list[int], out: list[Action]) -> None:
    """CL-TURN-2: every play of the active seat in a normal turn (the slow path of legal_actions)."""
    color = st.color
    top = st.discard[-1]
    trank = ID_RANK[top] if ID_COLOR[top] >= 0 else -1
    simple = st.flags.simple
    strict = st.flags.strict_wd4
    size = len(hand)
    seen: list[int] = []
    for c in hand:
        if c in seen:
            continue
        col = ID_COLOR[c]
        if col >= 0:
            if col != color and ID_RANK[c] != trank:
                continue
        elif strict and c == WILD_DRAW_FOUR and not wd4_is_legal(hand, color):
            continue
        seen.append(c)
        if simple[c]:
            out.extend(_fast_plays(c, size))
        else:
            add_plays(st, seat, c, out)


def out_of_turn(st: State, seat: int, out: list[Action]) -> None:
    """Calls and catches (CL-UNO-2, CL-UNO-5) and jump-ins (HOUSE-6) open to ``seat`` now."""
    hand = st.hands[seat]
    if len(hand) == 1 and not st.called[seat]:
        out.append(_CALL)
    f = st.flags
    exposed = st.exposed
    if f.uno_penalty > 0 and True in exposed:
        for t in range(st.n):
            if exposed[t] and t != seat and st.in_round[t]:
                out.append(_CATCHES[t])
    if (
        f.jump_in
        and seat != st.active
        and seat != st.top_player
        and (st.phase is Phase.PLAY or st.phase is Phase.PLAY_DRAWN)
    ):
        top = st.discard[-1]
        if ID_COLOR[top] >= 0 and top in hand:
            add_plays(st, seat, top, out)


def legal_actions(st: State, seat: int) -> list[Action]:
    """Every legal action of ``seat`` now, in a stable order: turn actions first, then the rest."""
    phase = st.phase
    if phase >= _ROUND_OVER or not st.in_round[seat]:
        return []
    f = st.flags
    hand = st.hands[seat]
    out: list[Action]
    if seat == st.active:
        if phase is _PLAY:
            # The hot path of every game (_turn_plays, inlined): the plays of each distinct card
            # come from a table for this color, top rank and hand size; a card whose plays need
            # more (a target, a strict Wild Draw Four) has None there and sends the whole turn to
            # the card-by-card path, which gives the same list.
            size = len(hand)
            # turn_key(color, top rank, size), as a sum of its precomputed parts
            key = _BASE_KEY + (st.color + 1) * _COLOR_STRIDE + _TOP_RANK_KEY[st.discard[-1]] + (
                size if size < 3 else 3)
            table = f.turn_tables[key] or _turn_table(st, key)
            out = []
            seen: list[int] | None = None  # the distinct playable cards so far, once there are some
            for c in hand:
                plays = table[c]
                if plays:
                    if seen is None:
                        seen = [c]
                        out += plays
                    elif c not in seen:
                        seen.append(c)
                        out += plays
                elif plays is None:
                    out = []
                    _turn_plays(st, seat, hand, out)
                    break
            if (st.draw or can_draw(st)) and (not out or f.may_draw):
                out.append(_DRAW)
            if size == 1 or f.jump_in or (f.uno_penalty and True in st.exposed):
                out_of_turn(st, seat, out)
            return out
        out = []
        if phase is _PLAY_DRAWN:
            card = st.drawn
            if f.simple[card]:
                out.extend(_fast_plays(card, len(hand)))  # as add_plays makes them (see _turn_plays)
            else:
                add_plays(st, seat, card, out)
            if not f.force_play or (
                card == WILD_DRAW_FOUR and f.challenge and not wd4_is_legal(hand, st.color)
            ):
                out.append(_PASS)
        elif phase is Phase.RESPOND:
            out.append(_ACCEPT)
            if (
                st.pending_card == WILD_DRAW_FOUR
                and st.discard[-1] == WILD_DRAW_FOUR
                and st.wd4_player >= 0
                and f.challenge
            ):
                out.append(_CHALLENGE)
            for c in response_cards(st, seat):
                add_plays(st, seat, c, out)
        else:  # CHOOSE_COLOR
            swap = (
                st.color_reason == ColorReason.FIRST_CARD
                and st.rules.first_card_swap_effect
                and st.discard[-1] == WILD_SWAP_HANDS
            )
            for color in _COLORS:
                if swap:
                    for t in range(st.n):
                        if t != seat and st.in_round[t]:
                            out.append(choose_action(color, t))
                else:
                    out.append(choose_action(color, None))
    else:
        out = []
    if len(hand) == 1 or f.jump_in or (f.uno_penalty and True in st.exposed):
        out_of_turn(st, seat, out)
    return out

