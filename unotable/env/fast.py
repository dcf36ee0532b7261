"""The observation of :func:`unotable.env.spaces.encode`, written straight from the engine's state.

Building a :class:`~unotable.views.PlayerView` (a tuple of Card objects per pile, a dict per
field) costs more than the rest of an environment step, so the environments encode from the
compact state instead. This function reads exactly the fields that :func:`unotable.views.player_view`
copies into a view (the seat's own hand and drawn card, and the public table), and nothing else;
the tests hold its bytes equal to ``encode(game.view(seat), history)`` on random positions of
every preset, so the reference and the information-set property carry over.

>>> from unotable.game import Game
>>> from unotable.env.spaces import History, encode
>>> g = Game.new(seats=3, seed=5)
>>> encode_game(g, 1, History(3)) == encode(g.view(1), History(3))
True
"""
from __future__ import annotations

from typing import TypeVar, overload

from unotable.actions import CHALLENGE
from unotable.env.spaces import (
    AWAIT,
    COLOR,
    DIRECTION,
    DISCARD_COUNTS,
    DISCARD_SIZE,
    DRAW_SIZE,
    DRAWN,
    HAND,
    HISTORY_DEPTH,
    HISTORY_ENTRY,
    HISTORY_OFF,
    MAY_CHALLENGE,
    NUM_SEATS,
    OBS_SIZE,
    PENDING,
    PENDING_CARD,
    PHASE,
    ROUND_NO,
    RULESET_OFF,
    SEAT_RECORD,
    SEATS_IN_ROUND,
    SEATS_OFF,
    History,
    _ruleset_cached,
)
from unotable.game import Game
from unotable.phase import Phase
from unotable.rules import Ruleset
from unotable.views import public_seats_to_act

__all__ = ["encode_game"]

_Out = TypeVar("_Out", bytearray, memoryview)

_ROW = HISTORY_DEPTH * HISTORY_ENTRY
# By the identity of the Ruleset, keeping it alive (as spaces._ruleset_cached): per seat count and
# observing seat, the bytes that depend on nothing else (the ruleset block, the seat count, each
# record's "present" byte and, under partnerships, the teammates), and by absolute seat the offset
# of its record (seat s is at relative seat (s - seat) % n).
_TEMPLATES: dict[tuple[int, int, int], tuple[Ruleset, bytes, tuple[int, ...]]] = {}


def _template(rules: Ruleset, n: int, seat: int) -> tuple[bytes, tuple[int, ...]]:
    key = (id(rules), n, seat)
    hit = _TEMPLATES.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1], hit[2]
    out = bytearray(OBS_SIZE)
    out[NUM_SEATS] = n
    for r in range(n):
        o = SEATS_OFF + SEAT_RECORD * r
        out[o] = 1
        if rules.partnership and (seat + r) % n % 2 == seat % 2:
            out[o + 7] = 1
    out[RULESET_OFF:OBS_SIZE] = _ruleset_cached(rules, n)
    record = tuple(SEATS_OFF + SEAT_RECORD * ((s - seat) % n) for s in range(n))
    if len(_TEMPLATES) > 256:
        _TEMPLATES.clear()
    _TEMPLATES[key] = (rules, bytes(out), record)
    return _TEMPLATES[key][1], record


@overload
def encode_game(game: Game, seat: int, history: History, out: None = None) -> bytearray: ...


@overload
def encode_game(game: Game, seat: int, history: History, out: _Out) -> _Out: ...


def encode_game(game: Game, seat: int, history: History, out: bytearray | memoryview | None = None
                ) -> bytearray | memoryview:
    """``encode(game.view(seat), history, out)``, byte for byte, without building the view; ``out``
    (``OBS_SIZE`` bytes, a bytearray or a writable memoryview of one) is overwritten and returned."""
    st = game._st  # the engine's state, read as views.player_view reads it
    n = st.n
    rules = st.rules
    template, record = _template(rules, n, seat)
    if out is None:
        out = bytearray(template)
    else:
        out[:] = template
    phase = st.phase
    # no deck holds 255 cards, so no count or size below needs a cap (the reference caps)
    hands = st.hands
    for c in hands[seat]:
        out[HAND + c] += 1
    active = st.active
    if phase is Phase.PLAY_DRAWN and active == seat and st.drawn >= 0:
        out[DRAWN + st.drawn] = 1
    discard = st.discard
    if discard:
        out[148 + discard[-1]] = 1
    color = st.color
    out[COLOR + (4 if color < 0 else color)] = 1
    if phase is Phase.CHOOSE_COLOR:
        out[AWAIT + int(st.color_reason)] = 1
    pending = st.pending
    out[PENDING] = 255 if pending > 255 else pending
    if st.pending_card >= 0:
        out[PENDING_CARD + st.pending_card] = 1
    if phase is Phase.RESPOND and seat == active:
        for a in game.legal_action_list(seat):
            if a.kind == CHALLENGE:
                out[MAY_CHALLENGE] = 1
    out[PHASE + int(phase)] = 1
    out[DIRECTION] = 0 if st.direction == 1 else 1
    out[DRAW_SIZE] = len(st.draw)
    out[DISCARD_SIZE] = len(discard)
    out[ROUND_NO] = 255 if st.round_no > 255 else st.round_no
    in_round = st.in_round
    out[SEATS_IN_ROUND] = in_round.count(True)
    # the seat records, by relative seat (bytes 0 and 7 are the template's): the hand sizes and
    # "in the round" bytes as strided slices, then the rare ones seat by seat
    end = SEATS_OFF + SEAT_RECORD * n
    sizes = list(map(len, hands))
    if seat:
        out[SEATS_OFF + 1:end:SEAT_RECORD] = bytes(sizes[seat:] + sizes[:seat])
        out[SEATS_OFF + 2:end:SEAT_RECORD] = bytes(in_round[seat:] + in_round[:seat])
    else:
        out[SEATS_OFF + 1:end:SEAT_RECORD] = bytes(sizes)
        out[SEATS_OFF + 2:end:SEAT_RECORD] = bytes(in_round)
    called, exposed = st.called, st.exposed
    live = phase < Phase.ROUND_OVER
    if 1 in sizes:
        for s in range(n):
            if sizes[s] == 1:
                if called[s]:
                    out[record[s] + 3] = 1
                elif live and in_round[s]:
                    out[record[s] + 13] = 1  # it may call UNO
    # seats_to_act (views.public_seats_to_act): a catch makes every seat in the round a candidate
    catching = live and st.flags.uno_penalty and True in exposed
    knocked, eliminated = st.knocked, st.eliminated
    if True in exposed or True in knocked or True in eliminated:
        for flags, byte in ((exposed, 4), (knocked, 5), (eliminated, 6)):
            for s in range(n):
                if flags[s]:
                    out[record[s] + byte] = 1
    s = st.dealer
    if 0 <= s < n:
        out[record[s] + 8] = 1
    if 0 <= active < n:
        out[record[active] + 9] = 1
    s = st.top_player
    if 0 <= s < n:
        out[record[s] + 10] = 1
    scores = st.scores
    if any(scores):
        target = rules.target_score
        for s in range(n):
            score = scores[s]
            if score:
                score = score * 255 // target
                out[record[s] + 11] = 255 if score > 255 else (0 if score < 0 else score)
    wins = st.round_wins
    if any(wins):
        for s in range(n):
            if wins[s]:
                out[record[s] + 12] = 255 if wins[s] > 255 else wins[s]
    if catching:
        for s in public_seats_to_act(st):
            out[record[s] + 13] = 1
    elif live and in_round[active]:
        out[record[active] + 13] = 1
    out[DISCARD_COUNTS:HISTORY_OFF] = history.discard_tally(discard)
    # the history block: each seat's packed row (targets 0) by relative seat, then the targets
    packed, targets = history.packed, history.targets
    out[HISTORY_OFF:HISTORY_OFF + _ROW * n] = b"".join(packed[seat:] + packed[:seat] if seat else packed)
    if any(targets):
        for s in range(n):
            o = HISTORY_OFF + _ROW * ((record[s] - SEATS_OFF) // SEAT_RECORD)
            for offset, target in targets[s]:
                out[o + offset] = (target - seat) % n + 1
    return out
