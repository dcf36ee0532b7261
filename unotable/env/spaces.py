"""The one action layout and the one observation layout of the RL environment (the reference).

Both layouts are the same for every ruleset and every seat count (2 to 10 seats), so one policy
can train across presets. They are written in plain Python over small ints (no numpy), because
this module is the reference that the native core (``unotable_native``) reproduces byte for byte.
Seats are always written *relative* to a reference seat: ``rel = (seat - ref) % n``. For actions
the reference is the acting seat; for observations it is the observing seat.

Colours are ``R, Y, G, B = 0, 1, 2, 3``. Card ids are :mod:`unotable.cards`' ids (0..73: a
coloured card is ``colour * 16 + rank``, a wild is ``64 + rank - 16``).

Actions: ``Discrete(445)``
==========================

A *colour slot* ``s`` is 0 for "no colour" (a wild played as a last card, CL-END-3) and
``1 + colour`` otherwise. ``rel`` is the target's seat relative to the actor (1..9). ``u`` is the
UNO flag of a play (``!``): 1 when the play calls UNO in the same gesture.

| indices   | action (notation)                                      | index                      |
|-----------|--------------------------------------------------------|----------------------------|
| 0-127     | play of a coloured card id ``c`` (0..63), no target     | ``2*c + u``                |
| 128-199   | play of a 7 of colour ``k`` with a target (``R7>2``)    | ``128 + 2*(9*k + rel-1) + u`` |
| 200-299   | play of wild ``w = id - 64`` (0..9), colour slot ``s``, no target | ``200 + 2*(5*w + s) + u`` |
| 300-389   | play of Wild Swap Hands, colour slot ``s``, a target   | ``300 + 2*(9*s + rel-1) + u`` |
| 390       | ``draw``                                               |                            |
| 391       | ``pass``                                               |                            |
| 392       | ``accept``                                             |                            |
| 393       | ``challenge``                                          |                            |
| 394-433   | ``color:C`` (``rel`` 0) or ``color:C>N``                | ``394 + 10*colour + rel``  |
| 434       | ``uno`` (a separate call)                              |                            |
| 435-443   | ``catch:N``                                            | ``435 + rel-1``            |
| 444       | NOOP: decline an out-of-turn chance                    |                            |

Stacking, bouncing, defending and jumping in are plays: the mask, not the index, says when they are
legal. NOOP is never an engine action; the environment offers it only at out-of-turn decision
points. :func:`index_of` maps an action to its index, :func:`action_at` maps an index back (total
on every index whose ``rel`` is below the seat count), :func:`legal_mask` writes the mask:

>>> from unotable.actions import parse_action
>>> index_of(parse_action("R7>2!"), seat=1, n=4)
129
>>> str(action_at(129, seat=1, n=4)), str(action_at(index_of(parse_action("WS:G>0"), 3, 4), 3, 4))
('R7>2!', 'WS:G>0')

Observations: ``Box(0, 255, (OBS_SIZE,), uint8)``, ``OBS_SIZE == 854``
========================================================================

Everything is built from what one seat may know: its :class:`~unotable.views.PlayerView` (own
hand, drawn card, the public table) and the public action log of the round (:class:`History`).
Counts and sizes are capped at 255. "one-hot" blocks are all zero when the value is absent.

| offset | size | block |
|--------|------|-------|
| 0      | 74   | own hand: copies held of each card id |
| 74     | 74   | drawn card: one-hot card id (phase play_drawn, for the seat that drew it) |
| 148    | 74   | top card of the discard pile: one-hot card id |
| 222    | 5    | current colour: one-hot R, Y, G, B, and index 4 = none (a colour is awaited) |
| 227    | 3    | why a colour is awaited (phase choose_color): first_card, roulette, roulette_last |
| 230    | 1    | pending penalty (cards) |
| 231    | 74   | the draw card whose penalty is pending: one-hot card id |
| 305    | 1    | 1 when this seat may challenge now (``challenge`` is among its legal actions) |
| 306    | 6    | phase: one-hot play, play_drawn, choose_color, respond, round_over, match_over |
| 312    | 1    | direction: 0 clockwise, 1 counter-clockwise |
| 313    | 1    | draw pile size |
| 314    | 1    | discard pile size |
| 315    | 1    | round number |
| 316    | 1    | seat count ``n`` |
| 317    | 1    | seats in the round |
| 318    | 140  | seats: 10 records of 14 bytes by relative seat ``r`` (0: the observer; ``r >= n``: zero) |
| 458    | 74   | discard pile: copies of each card id |
| 532    | 240  | history: per relative seat ``r``, its last 4 actions of the round, newest first, 6 bytes |
| 772    | 82   | ruleset block (below) |

A seat record (offset ``318 + 14*r``): 0 present (``r < n``), 1 hand size, 2 in the round,
3 called UNO (and holds one card), 4 exposed (catchable), 5 knocked out, 6 eliminated,
7 teammate (partnerships: same team, the observer included), 8 dealer, 9 active seat,
10 placed the top card, 11 score as ``min(255, score * 255 // target_score)``, 12 rounds won,
13 may act now on public grounds (``seats_to_act``).

A history entry (offset ``532 + 24*r + 6*i``, ``i = 0`` newest): 0 kind (0 none; 1 play, 2 play
with the UNO flag, 3 draw, 4 pass, 5 accept, 6 challenge, 7 color, 8 uno, 9 catch), 1 card id
+ 1 (plays; else 0), 2 named colour + 1 (a wild's colour or ``color:C``; else 0), 3 target
relative to the observer + 1 (a 7, a Swap Hands, ``color:C>N``, a catch; else 0), 4 the top card
id + 1 before the action, 5 the current colour + 1 before the action (0 none).

The ruleset block (offset 772), one byte each in this order: deck (5, one-hot in
:class:`~unotable.rules.DeckKind`'s order), custom_effect (4), dealer_selection (2),
first_card_wild (2), wd4_rule (3), swap_hands_last_card (2), shuffle_hands_last_card (2),
scoring (4), elimination_final (2), stacking (4), each one-hot in its enum's declared order
(30 bytes); then the booleans first_card_swap_effect, may_draw_with_playable,
draw_until_playable, force_play, partnership, stack_sum, jump_in, seven_zero, bounce_draw_two,
defend_wd4_with_draw_two (10 bytes); then the ints custom_count, max_seats, uno_penalty,
false_catch_penalty, false_uno_penalty, ``min(255, target_score // 10)``, mercy_limit (7 bytes);
then the seat count ``n``, one-hot for n = 2..10 (9 bytes, block bytes 47..55); then 26 bytes
reserved for options added later, zero now (so the layout's size stays). Total 82.

>>> from unotable.game import Game
>>> g = Game.new(seats=3, seed=5)
>>> obs = encode(g.view(0), History(3))
>>> len(obs), sum(obs[HAND:HAND + 74]), obs[SEATS_OFF + 1]
(854, 7, 7)
"""
from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence

from unotable.actions import (
    ACCEPT,
    CALL_UNO,
    CATCH,
    CHALLENGE,
    CHOOSE_COLOR,
    DRAW,
    PASS,
    PLAY,
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
from unotable.cards import ID_COLOR, NUM_CARD_IDS, WILD_SWAP_HANDS, Card, Color
from unotable.errors import IllegalActionError, InvalidActionError
from unotable.phase import Phase
from unotable.rules import (
    CustomEffect,
    DealerSelection,
    DeckKind,
    EliminationFinal,
    FirstCardWild,
    Ruleset,
    Scoring,
    ShuffleLastCard,
    Stacking,
    SwapLastCard,
    Wd4Rule,
)
from unotable.views import PlayerView

__all__ = [
    "NUM_ACTIONS",
    "NOOP",
    "OBS_SIZE",
    "History",
    "action_at",
    "encode",
    "index_of",
    "legal_mask",
    "ruleset_block",
]

MAX_SEATS = 10

# ---------------------------------------------------------------- actions

PLAY_COLORED = 0
PLAY_SEVEN = 128
PLAY_WILD = 200
PLAY_SWAP = 300
DRAW_INDEX = 390
PASS_INDEX = 391
ACCEPT_INDEX = 392
CHALLENGE_INDEX = 393
COLOR_INDEX = 394
UNO_INDEX = 434
CATCH_INDEX = 435
NOOP = 444
NUM_ACTIONS = 445

_SWAP_W = WILD_SWAP_HANDS - 64
_FIXED: tuple[Action, ...] = (Draw(), Pass(), Accept(), Challenge())
_COLORS = tuple(Color)


def _rel(target: int, seat: int, n: int) -> int:
    return (target - seat) % n


def index_of(action: Action, seat: int, n: int) -> int:
    """The index of ``action`` by ``seat`` at a table of ``n`` seats (see the module's table).

    >>> index_of(Draw(), 0, 2), index_of(Catch(0), 1, 2), index_of(ChooseColor(Color.BLUE), 0, 2)
    (390, 435, 424)
    """
    seat, n = _as_int(seat, "seat"), _as_int(n, "seat count")
    kind = action.kind
    if kind == PLAY:
        assert isinstance(action, Play)
        c = action.cid
        u = 1 if action.uno else 0
        if c < 64:
            if action.target is None:
                return PLAY_COLORED + 2 * c + u
            return PLAY_SEVEN + 2 * (9 * ID_COLOR[c] + _rel(action.target, seat, n) - 1) + u
        s = 0 if action.color is None else 1 + int(action.color)
        if action.target is None:
            return PLAY_WILD + 2 * (5 * (c - 64) + s) + u
        return PLAY_SWAP + 2 * (9 * s + _rel(action.target, seat, n) - 1) + u
    if kind == DRAW:
        return DRAW_INDEX
    if kind == PASS:
        return PASS_INDEX
    if kind == ACCEPT:
        return ACCEPT_INDEX
    if kind == CHALLENGE:
        return CHALLENGE_INDEX
    if kind == CHOOSE_COLOR:
        assert isinstance(action, ChooseColor)
        rel = 0 if action.target is None else _rel(action.target, seat, n)
        return COLOR_INDEX + 10 * int(action.color) + rel
    if kind == CALL_UNO:
        return UNO_INDEX
    if kind == CATCH:
        assert isinstance(action, Catch)
        return CATCH_INDEX + _rel(action.target, seat, n) - 1
    raise InvalidActionError(f"{action} is not a seat's action: it has no index in the action space")


def _as_int(value: object, what: str) -> int:
    """``value`` as a Python int: an int or any integer type (numpy's included, through
    ``__index__``), not a bool, a float or a string (:class:`~unotable.errors.InvalidActionError`)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if not isinstance(value, bool) and type(value).__name__ != "bool_":
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise InvalidActionError(f"{what} {value!r} is not an int from 0 to {NUM_ACTIONS - 1}"
                             if what == "action index" else f"{what} {value!r} is not an int")


def action_at(index: int, seat: int, n: int) -> Action:
    """The action that ``index`` stands for when ``seat`` acts at a table of ``n`` seats.

    Raises :class:`~unotable.errors.InvalidActionError` for NOOP (no engine action), for an index
    outside ``0..444`` and for a target seat that the table does not have. Every argument may be
    any integer type (a numpy integer too), never a bool or a float. Whether the action is
    legal now is the mask's business (and the engine's).

    >>> str(action_at(0, 0, 4)), str(action_at(201, 0, 4)), str(action_at(436, 3, 4))
    ('R0', 'W!', 'catch:1')
    """
    index, seat, n = _as_int(index, "action index"), _as_int(seat, "seat"), _as_int(n, "seat count")
    if not 0 <= index < NUM_ACTIONS:
        raise InvalidActionError(f"action index {index!r} is not an int from 0 to {NUM_ACTIONS - 1}")
    if index == NOOP:
        raise InvalidActionError(f"action index {NOOP} is NOOP (decline), not an engine action")

    def target(rel: int) -> int:
        if not 1 <= rel < n:
            raise InvalidActionError(f"action index {index} targets relative seat {rel}; "
                                     f"the table has {n} seats")
        return (seat + rel) % n

    if index < PLAY_SEVEN:
        c, u = divmod(index - PLAY_COLORED, 2)
        return Play(Card.from_id(c), None, None, u == 1)
    if index < PLAY_WILD:
        q, u = divmod(index - PLAY_SEVEN, 2)
        k, r = divmod(q, 9)
        return Play(Card.from_id(16 * k + 7), None, target(r + 1), u == 1)
    if index < PLAY_SWAP:
        q, u = divmod(index - PLAY_WILD, 2)
        w, s = divmod(q, 5)
        return Play(Card.from_id(64 + w), None if s == 0 else _COLORS[s - 1], None, u == 1)
    if index < DRAW_INDEX:
        q, u = divmod(index - PLAY_SWAP, 2)
        s, r = divmod(q, 9)
        return Play(Card.from_id(WILD_SWAP_HANDS), None if s == 0 else _COLORS[s - 1], target(r + 1), u == 1)
    if index < COLOR_INDEX:
        return _FIXED[index - DRAW_INDEX]
    if index < UNO_INDEX:
        k, rel = divmod(index - COLOR_INDEX, 10)
        return ChooseColor(_COLORS[k], None if rel == 0 else target(rel))
    if index == UNO_INDEX:
        return CallUno()
    return Catch(target(index - CATCH_INDEX + 1))


def legal_mask(legal: Iterable[Action], seat: int, n: int, decline: bool = False) -> bytearray:
    """The mask of ``legal`` (``NUM_ACTIONS`` bytes, 1 for a legal index); ``decline`` adds NOOP.

    Raises :class:`~unotable.errors.IllegalActionError` if two legal actions share an index (a
    layout defect the tests rule out).

    >>> m = legal_mask([Draw(), CallUno()], seat=0, n=2)
    >>> [i for i in range(NUM_ACTIONS) if m[i]]
    [390, 434]
    """
    mask = bytearray(NUM_ACTIONS)
    for action in legal:
        i = index_of(action, seat, n)
        if mask[i]:
            raise IllegalActionError(f"two legal actions of seat {seat} share the index {i} ({action})")
        mask[i] = 1
    if decline:
        mask[NOOP] = 1
    return mask


# ---------------------------------------------------------------- observations

HAND = 0
DRAWN = 74
TOP = 148
COLOR = 222
AWAIT = 227
PENDING = 230
PENDING_CARD = 231
MAY_CHALLENGE = 305
PHASE = 306
DIRECTION = 312
DRAW_SIZE = 313
DISCARD_SIZE = 314
ROUND_NO = 315
NUM_SEATS = 316
SEATS_IN_ROUND = 317
SEATS_OFF = 318
SEAT_RECORD = 14
DISCARD_COUNTS = 458
HISTORY_OFF = 532
HISTORY_DEPTH = 4
HISTORY_ENTRY = 6
RULESET_OFF = 772
RULESET_SIZE = 82
OBS_SIZE = 854

assert SEATS_OFF + MAX_SEATS * SEAT_RECORD == DISCARD_COUNTS
assert DISCARD_COUNTS + NUM_CARD_IDS == HISTORY_OFF
assert HISTORY_OFF + MAX_SEATS * HISTORY_DEPTH * HISTORY_ENTRY == RULESET_OFF
assert RULESET_OFF + RULESET_SIZE == OBS_SIZE

# History entry kinds.
H_PLAY, H_PLAY_UNO, H_DRAW, H_PASS, H_ACCEPT, H_CHALLENGE, H_COLOR, H_UNO, H_CATCH = range(1, 10)
_EMPTY_ROW = bytes(HISTORY_DEPTH * HISTORY_ENTRY)
_H_KIND = {DRAW: H_DRAW, PASS: H_PASS, ACCEPT: H_ACCEPT, CHALLENGE: H_CHALLENGE,
           CHOOSE_COLOR: H_COLOR, CALL_UNO: H_UNO, CATCH: H_CATCH}

_ENUMS: tuple[tuple[str, tuple[object, ...]], ...] = (
    ("deck", tuple(DeckKind)),
    ("custom_effect", tuple(CustomEffect)),
    ("dealer_selection", tuple(DealerSelection)),
    ("first_card_wild", tuple(FirstCardWild)),
    ("wd4_rule", tuple(Wd4Rule)),
    ("swap_hands_last_card", tuple(SwapLastCard)),
    ("shuffle_hands_last_card", tuple(ShuffleLastCard)),
    ("scoring", tuple(Scoring)),
    ("elimination_final", tuple(EliminationFinal)),
    ("stacking", tuple(Stacking)),
)
_BOOLS = ("first_card_swap_effect", "may_draw_with_playable", "draw_until_playable", "force_play",
          "partnership", "stack_sum", "jump_in", "seven_zero", "bounce_draw_two",
          "defend_wd4_with_draw_two")
_INTS = ("custom_count", "max_seats", "uno_penalty", "false_catch_penalty", "false_uno_penalty",
         "target_score", "mercy_limit")
_SEAT_COUNT_OFF = 47
assert sum(len(v) for _, v in _ENUMS) + len(_BOOLS) + len(_INTS) == _SEAT_COUNT_OFF


def _cap(x: int) -> int:
    return 255 if x > 255 else (0 if x < 0 else x)


def ruleset_block(rules: Ruleset, n: int) -> bytes:
    """The 82 bytes of the ruleset block for ``rules`` at ``n`` seats (see the module docstring).

    >>> b = ruleset_block(Ruleset.preset("official"), 4)
    >>> len(b), b[0], b[45], b[_SEAT_COUNT_OFF + 4 - 2]
    (82, 1, 50, 1)
    """
    out = bytearray(RULESET_SIZE)
    i = 0
    for name, members in _ENUMS:
        value = getattr(rules, name)
        out[i + members.index(value)] = 1
        i += len(members)
    for name in _BOOLS:
        out[i] = 1 if getattr(rules, name) else 0
        i += 1
    for name in _INTS:
        value = getattr(rules, name)
        out[i] = _cap(value // 10 if name == "target_score" else value)
        i += 1
    out[_SEAT_COUNT_OFF + n - 2] = 1
    return bytes(out)


class History:
    """The public actions of the round so far, the last four of each seat (for the history block).

    The environment records each action as it is applied, with the top card and the current
    colour just before it (:meth:`push`), and clears the record at each deal (:meth:`clear`).
    Entries are stored with absolute seats; :func:`encode` writes them relative to the observer.

    >>> h = History(2)
    >>> h.push(1, Draw(), top=5, color=0)
    >>> h.entries[1]
    [(3, 0, 0, -1, 5, 0)]
    """

    __slots__ = ("_pile", "_tally", "entries", "n", "packed", "targets")

    def __init__(self, n: int) -> None:
        self.n = n
        self.entries: list[list[tuple[int, int, int, int, int, int]]] = [[] for _ in range(n)]
        """Per seat, newest first, the entries :meth:`push` makes."""
        self.packed: list[bytes] = [_EMPTY_ROW] * n
        """Per seat, the same entries as the block's bytes (a whole row, zero-padded), each target
        byte 0 (for :func:`unotable.env.fast.encode_game`, which writes every row at once and then
        the targets)."""
        self.targets: list[tuple[tuple[int, int], ...]] = [()] * n
        """Per seat, (byte offset in the row, absolute target) of each entry with a target."""
        self._pile: list[int] = []
        self._tally = bytearray(NUM_CARD_IDS)

    def clear(self) -> None:
        for e in self.entries:
            e.clear()
        n = self.n
        self.packed = [_EMPTY_ROW] * n
        self.targets = [()] * n

    def discard_tally(self, pile: list[int]) -> bytearray:
        """The count of each card id in the discard pile ``pile`` (bottom first), kept between
        calls: when the pile is the last one with cards put on top (the common case), only those
        are counted; any other change (a reshuffle, cards slipped under the top, another game)
        counts it again. A pure function of ``pile``: the cache is checked against a copy."""
        seen = self._pile
        k = len(seen)
        tally = self._tally
        if len(pile) < k or (k and pile[:k] != seen):
            seen.clear()
            k = 0
            tally = self._tally = bytearray(NUM_CARD_IDS)
        if len(pile) > k:
            new = pile[k:]
            for c in new:
                tally[c] += 1
            seen += new
        return tally

    def push(self, seat: int, action: Action, top: int, color: int) -> None:
        """Record ``seat``'s ``action``; ``top`` is the top card id before it, ``color`` the current
        colour before it (-1 none). Each entry is (kind, card id + 1, named colour + 1, absolute
        target or -1, top, colour)."""
        kind = action.kind
        card = 0
        named = 0
        target = -1
        if kind == PLAY:
            assert isinstance(action, Play)
            k = H_PLAY_UNO if action.uno else H_PLAY
            card = action.cid + 1
            named = 0 if action.color is None else int(action.color) + 1
            target = -1 if action.target is None else action.target
        else:
            k = _H_KIND.get(kind, 0)
            if k == 0:
                return  # a Deal: no seat's action
            if kind == CHOOSE_COLOR:
                assert isinstance(action, ChooseColor)
                named = int(action.color) + 1
                target = -1 if action.target is None else action.target
            elif kind == CATCH:
                assert isinstance(action, Catch)
                target = action.target
        row = self.entries[seat]
        row.insert(0, (k, card, named, target, top, color))
        if len(row) > HISTORY_DEPTH:
            row.pop()
        size = HISTORY_DEPTH * HISTORY_ENTRY
        self.packed[seat] = (bytes((k, card, named, 0, top + 1, color + 1)) + self.packed[seat])[:size]
        targets = self.targets[seat]
        if targets or target >= 0:  # (most entries have no target, and most rows hold none)
            moved = tuple((o + HISTORY_ENTRY, t) for o, t in targets if o + HISTORY_ENTRY < size)
            self.targets[seat] = ((3, target), *moved) if target >= 0 else moved

    def copy(self) -> History:
        other = History(self.n)
        other.entries = [row[:] for row in self.entries]
        other.packed = self.packed[:]
        other.targets = self.targets[:]
        return other  # (the discard tally is a cache: the copy starts its own)


_PHASES = tuple(Phase)


def encode(view: PlayerView, history: History, out: bytearray | None = None) -> bytearray:
    """The observation of ``view``'s seat (``OBS_SIZE`` bytes), from its view and the public history.

    Writes into ``out`` when given (it must hold ``OBS_SIZE`` bytes; it is cleared first).
    """
    if out is None:
        out = bytearray(OBS_SIZE)
    else:
        out[:] = bytes(OBS_SIZE)
    me = view.seat
    n = view.table.seats
    rules = view.table.ruleset
    for card in view.hand:
        c = card.id
        if out[HAND + c] < 255:
            out[HAND + c] += 1
    if view.drawn_card is not None:
        out[DRAWN + view.drawn_card.id] = 1
    top = -1
    if view.top_card is not None:
        top = view.top_card.id
        out[TOP + top] = 1
    out[COLOR + (4 if view.current_color is None else int(view.current_color))] = 1
    if view.awaiting_color_for is not None:
        out[AWAIT + int(view.awaiting_color_for)] = 1
    out[PENDING] = _cap(view.pending_penalty)
    if view.pending_card is not None:
        out[PENDING_CARD + view.pending_card.id] = 1
    for a in view.legal:
        if a.kind == CHALLENGE:
            out[MAY_CHALLENGE] = 1
    out[PHASE + int(view.phase)] = 1
    out[DIRECTION] = 0 if view.direction == 1 else 1
    out[DRAW_SIZE] = _cap(view.draw_pile_size)
    out[DISCARD_SIZE] = _cap(len(view.discard_pile))
    out[ROUND_NO] = _cap(view.round_no)
    out[NUM_SEATS] = n
    out[SEATS_IN_ROUND] = sum(1 for x in view.in_round if x)
    target_score = rules.target_score
    partners = rules.partnership
    top_player = -1 if view.top_player is None else view.top_player
    for r in range(n):
        s = (me + r) % n
        o = SEATS_OFF + SEAT_RECORD * r
        out[o] = 1
        out[o + 1] = _cap(view.hand_sizes[s])
        out[o + 2] = 1 if view.in_round[s] else 0
        out[o + 3] = 1 if view.called[s] else 0
        out[o + 4] = 1 if view.exposed[s] else 0
        out[o + 5] = 1 if view.knocked_out[s] else 0
        out[o + 6] = 1 if view.eliminated[s] else 0
        out[o + 7] = 1 if partners and s % 2 == me % 2 else 0
        out[o + 8] = 1 if s == view.dealer else 0
        out[o + 9] = 1 if s == view.active else 0
        out[o + 10] = 1 if s == top_player else 0
        out[o + 11] = _cap(view.scores[s] * 255 // target_score)
        out[o + 12] = _cap(view.round_wins[s])
        out[o + 13] = 1 if s in view.seats_to_act else 0
    for card in view.discard_pile:
        c = card.id
        if out[DISCARD_COUNTS + c] < 255:
            out[DISCARD_COUNTS + c] += 1
    write_history(out, history, me, n)
    out[RULESET_OFF:OBS_SIZE] = _ruleset_cached(rules, n)
    return out


def write_history(out: bytearray, history: History, me: int, n: int) -> None:
    """The history block of ``me``'s observation (targets relative to ``me``)."""
    entries = history.entries
    for r in range(n):
        row = entries[(me + r) % n]
        if not row:
            continue
        o = HISTORY_OFF + HISTORY_DEPTH * HISTORY_ENTRY * r
        for kind, card_plus, named, target, htop, hcolor in row:
            out[o] = kind
            out[o + 1] = card_plus
            out[o + 2] = named
            out[o + 3] = 0 if target < 0 else (target - me) % n + 1
            out[o + 4] = htop + 1
            out[o + 5] = hcolor + 1
            o += HISTORY_ENTRY


def write_history_packed(out: bytearray, history: History, me: int, n: int) -> None:
    """:func:`write_history`, from the packed rows: a row at once, then its targets."""
    packed, targets = history.packed, history.targets
    for r in range(n):
        s = me + r
        if s >= n:
            s -= n
        o = HISTORY_OFF + HISTORY_DEPTH * HISTORY_ENTRY * r
        out[o : o + len(packed[s])] = packed[s]
        for at, target in targets[s]:
            out[o + at] = (target - me) % n + 1


# By the identity of the Ruleset (hashing one costs more than the block), keeping it alive.
_RULESET_CACHE: dict[tuple[int, int], tuple[Ruleset, bytes]] = {}


def _ruleset_cached(rules: Ruleset, n: int) -> bytes:
    hit = _RULESET_CACHE.get((id(rules), n))
    if hit is not None and hit[0] is rules:
        return hit[1]
    if len(_RULESET_CACHE) > 256:
        _RULESET_CACHE.clear()
    block = ruleset_block(rules, n)
    _RULESET_CACHE[(id(rules), n)] = (rules, block)
    return block


def describe(index: int, seat: int, n: int) -> str:
    """An index as text: the action's notation, or ``noop``.

    >>> describe(390, 0, 2), describe(444, 0, 2)
    ('draw', 'noop')
    """
    return "noop" if index == NOOP else str(action_at(index, seat, n))


def decode_legal(index: int, legal: Sequence[Action], seat: int, n: int) -> Action:
    """The legal action at ``index``; :class:`~unotable.errors.IllegalActionError` if none is.

    >>> decode_legal(390, [Draw()], 0, 2)
    Action.parse('draw')
    """
    action = action_at(index, seat, n)
    if action not in legal:
        raise IllegalActionError(f"action index {index} ({action}) is not legal for seat {seat} now; "
                                 f"legal: {', '.join(str(a) for a in legal)}")
    return action

