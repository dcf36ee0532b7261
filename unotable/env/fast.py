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
    write_history_packed,
)
from unotable.game import Game
from unotable.state import Phase
from unotable.views import public_seats_to_act

__all__ = ["encode_game"]

_EMPTY = bytes(OBS_SIZE)


def encode_game(game: Game, seat: int, history: History, out: bytearray | None = None) -> bytearray:
    """``encode(game.view(seat), history, out)``, byte for byte, without building the view."""
    st = game._st  # the engine's state, read as views.player_view reads it
    if out is None:
        out = bytearray(OBS_SIZE)
    else:
        out[:] = _EMPTY
    n = st.n
    rules = st.rules
    phase = st.phase
    # no card id has 255 copies in any deck, so the counts below need no cap (the reference caps)
    for c in st.hands[seat]:
        out[HAND + c] += 1
    if phase is Phase.PLAY_DRAWN and st.active == seat and st.drawn >= 0:
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
    if phase is Phase.RESPOND and seat == st.active:
        for a in game.legal_action_list(seat):
            if a.kind == CHALLENGE:
                out[MAY_CHALLENGE] = 1
    out[PHASE + int(phase)] = 1
    out[DIRECTION] = 0 if st.direction == 1 else 1
    size = len(st.draw)
    out[DRAW_SIZE] = 255 if size > 255 else size
    size = len(discard)
    out[DISCARD_SIZE] = 255 if size > 255 else size
    out[ROUND_NO] = 255 if st.round_no > 255 else st.round_no
    out[NUM_SEATS] = n
    in_round = st.in_round
    out[SEATS_IN_ROUND] = sum(1 for x in in_round if x)
    target = rules.target_score
    partners = rules.partnership
    to_act = public_seats_to_act(st)
    hands, called, exposed, knocked, eliminated = st.hands, st.called, st.exposed, st.knocked, st.eliminated
    scores, round_wins = st.scores, st.round_wins
    dealer, active, top_player, parity = st.dealer, st.active, st.top_player, seat % 2
    o = SEATS_OFF
    for r in range(n):
        s = seat + r
        if s >= n:
            s -= n
        size = len(hands[s])
        out[o] = 1
        out[o + 1] = 255 if size > 255 else size
        if in_round[s]:
            out[o + 2] = 1
        if size == 1 and called[s]:
            out[o + 3] = 1
        if exposed[s]:
            out[o + 4] = 1
        if knocked[s]:
            out[o + 5] = 1
        if eliminated[s]:
            out[o + 6] = 1
        if partners and s % 2 == parity:
            out[o + 7] = 1
        if s == dealer:
            out[o + 8] = 1
        if s == active:
            out[o + 9] = 1
        if s == top_player:
            out[o + 10] = 1
        score = scores[s]
        if score:
            score = score * 255 // target
            out[o + 11] = 255 if score > 255 else (0 if score < 0 else score)
        wins = round_wins[s]
        if wins:
            out[o + 12] = 255 if wins > 255 else wins
        if s in to_act:
            out[o + 13] = 1
        o += SEAT_RECORD
    for c in discard:
        out[DISCARD_COUNTS + c] += 1
    write_history_packed(out, history, seat, n)
    out[RULESET_OFF:OBS_SIZE] = _ruleset_cached(rules, n)
    return out
