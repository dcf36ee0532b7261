"""Exact positions: any situation of a game written as JSON and read back.

A position is the referee's document (it holds every hand, the draw pile's order and the RNG
state), for tests, bug reports and puzzles. It is never sent to a seat: seats get views.

Fields (``Game.to_position()`` writes them all; ``Game.from_position()`` needs only ``hands`` and
``discard``, the rest have the defaults shown):

| field | meaning | default |
|---|---|---|
| ``ruleset`` | a preset name or a ruleset dict (``Ruleset.to_dict()``) | ``"official"`` |
| ``hands`` | one list of cards per seat, e.g. ``[["R7", "W"], ["G2"]]`` | required |
| ``discard`` | the discard pile, bottom first: the last card is the top card | required |
| ``draw`` | the draw pile, top first: the first card is the next one drawn | ``[]`` |
| ``fill`` | where the deck's unlisted cards go (below) | ``"discard"`` |
| ``color`` | the current color letter, or null while a color is awaited | the top card's color |
| ``phase`` | play, play_drawn, choose_color, respond, round_over or match_over | play |
| ``active`` | the active seat | 0 |
| ``dealer``, ``direction``, ``round_no`` | | 0, 1, 1 |
| ``pending`` | ``{"total": 4, "card": "W4"}``: the pending penalty and the draw card it answers | none |
| ``top_player`` | the seat that placed the top card, or -1 | -1 |
| ``drawn`` | in ``play_drawn``: the card just drawn | none |
| ``wd4`` | ``{"player": 1, "illegal": true, "hand": [...]}``: the top WD4's verdict | none |
| ``color_for`` | in ``choose_color``: ``first_card``, ``roulette`` or ``roulette_last`` | ``first_card`` |
| ``exposed``, ``called``, ``caught``, ``eliminated``, ``knocked_out`` | lists of seats | ``[]`` |
| ``graced`` | seats in an UNO grace (UNO-GRACE-1; written only when there is one) | ``[]`` |
| ``set_aside`` | No Mercy hands set aside (NM-14) | ``[]`` |
| ``scores``, ``round_wins`` | per seat | zeros |
| ``final_round`` | the last round of an elimination match (SCORE-6) | false |
| ``auto_passes`` | automatic passes in a row so far (CL-DRAW-8) | 0 |
| ``seed`` / ``rng`` | the seed for future shuffles, or the exact RNG state | seed 0 |
| ``match_winners``, ``match_reason`` | in ``match_over``: the outcome | none |
| ``deal`` | in ``round_over``: the whole deck's order for the next deal, top first | a shuffle |

``fill``: ``"discard"`` puts the deck's cards that the position does not list under the listed
discard pile, in card order; ``"draw"`` puts them under the listed draw pile; ``"none"`` requires
the listed cards to be the whole deck (GEN-5).

A position must describe a situation that can arise: a malformed or impossible one raises
:class:`~unotable.errors.PositionError` (code ``position``), whose ``field`` names the field at
fault: a wild on top with no color outside a color choice, a response phase with nothing pending
or a penalty pending outside one, an exposed seat that does not hold exactly one card, a
seat in the round with no cards, a seat out of the round with cards, more copies of a card than the
deck has, scores that are not ints, a seat listed twice.

``deal`` fixes the next deal: with ``"phase": "round_over"``, ``Game.next_round()`` deals from
this order instead of shuffling, so that a first card's rule (SET-6 to SET-11, TWO-5) can be set up
exactly.

>>> from unotable.game import Game
>>> g = Game.from_position({"hands": [["R7", "G2"], ["B5"]], "discard": ["R3"], "draw": ["Y9"]})
>>> str(g.top_card), g.hand(1), g.draw_pile_size
('R3', (Card.parse('B5'),), 1)
>>> Game.from_position(g.to_position()).to_position() == g.to_position()
True
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from unotable.cards import ID_COLOR, ID_DRAW_VALUE, Card, Color
from unotable.errors import PositionError, UnoError
from unotable.phase import ColorReason, Phase
from unotable.results import MatchEndReason
from unotable.rng import Rng
from unotable.rules import Ruleset
from unotable.state import State

__all__ = ["read_position", "write_position"]

FORMAT = "unotable-position"
VERSION = 1
_REASONS = {reason.label: reason for reason in ColorReason}


def _ids(value: Any, what: str, field: str | None = None) -> list[int]:
    field = field or what
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list):
        raise PositionError(f"position: {what} must be a list of cards, not {value!r}", field)
    try:
        return [Card.parse(v).id if isinstance(v, str) else Card.from_id(v).id for v in value]
    except (UnoError, TypeError) as exc:
        raise PositionError(f"position: {what}: {exc}", field) from None


def _names(ids: list[int]) -> list[str]:
    return [str(Card.from_id(c)) for c in ids]


def _seats(value: Any, n: int, what: str) -> list[bool]:
    if not isinstance(value, list) or not all(
        isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n for s in value
    ):
        raise PositionError(f"position: {what} must be a list of seat numbers below {n}, not {value!r}", what)
    if len(set(value)) != len(value):
        raise PositionError(f"position: {what} lists a seat twice: {value!r}", what)
    flags = [False] * n
    for s in value:
        flags[s] = True
    return flags


def _int(doc: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = doc.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PositionError(f"position: {key} must be an int from {low} to {high}, not {value!r}", key)
    return value


def read_position(doc: Mapping[str, Any]) -> State:
    """Build a state from a position document; raises :class:`PositionError` when it is not valid."""
    if not isinstance(doc, Mapping):
        raise PositionError(f"a position is a JSON object, not {type(doc).__name__}")
    if doc.get("format", FORMAT) != FORMAT or doc.get("version", VERSION) != VERSION:
        raise PositionError(f"not a {FORMAT} version {VERSION} document", "format")
    rules_doc = doc.get("ruleset", "official")
    try:
        rules = Ruleset.preset(rules_doc) if isinstance(rules_doc, str) else Ruleset.from_dict(rules_doc)
    except UnoError as exc:
        raise PositionError(f"position: ruleset: {exc}", "ruleset") from None
    hands_doc = doc.get("hands")
    if not isinstance(hands_doc, list) or not 2 <= len(hands_doc) <= 10:
        raise PositionError("position: hands must be a list of 2 to 10 hands", "hands")
    n = len(hands_doc)
    seed = _int(doc, "seed", 0, 0, 2**64)
    st = State(rules, n, seed)
    if "rng" in doc:
        try:
            st.rng = Rng.from_state(list(doc["rng"]))
        except (TypeError, ValueError) as exc:
            raise PositionError(f"position: rng: {exc}", "rng") from None
    st.hands = [_ids(h, f"hand {i}") for i, h in enumerate(hands_doc)]
    st.discard = _ids(doc.get("discard"), "discard")
    if not st.discard:
        raise PositionError("position: the discard pile needs a top card", "discard")
    draw_top_first = _ids(doc.get("draw", []), "draw")
    st.set_aside = _ids(doc.get("set_aside", []), "set_aside")
    deck = Counter(rules.composition())
    listed = Counter(c for h in st.hands for c in h) + Counter(st.discard) + Counter(draw_top_first)
    listed += Counter(st.set_aside)
    extra = listed - deck
    if extra:
        names = " ".join(_names(sorted(extra.elements())))
        raise PositionError(f"position: more copies than the deck holds: {names}", "hands")
    rest = sorted((deck - listed).elements())
    fill = doc.get("fill", "discard")
    if fill == "discard":
        st.discard = rest + st.discard
    elif fill == "draw":
        draw_top_first = draw_top_first + rest
    elif fill == "none":
        if rest:
            raise PositionError(
                f"position: {len(rest)} cards of the deck are missing (GEN-5) and fill is none", "fill")
    else:
        raise PositionError(f"position: fill must be discard, draw or none, not {fill!r}", "fill")
    st.draw = draw_top_first[::-1]
    color = doc.get("color", "top")
    if color == "top":
        st.color = ID_COLOR[st.discard[-1]]
    elif color is None:
        st.color = -1
    else:
        try:
            st.color = int(Color.parse(color))
        except (UnoError, AttributeError):
            raise PositionError(
                f"position: color must be R, Y, G, B or null, not {color!r}", "color") from None
    phase = doc.get("phase", "play")
    try:
        st.phase = Phase[str(phase).upper()]
    except KeyError:
        raise PositionError(f"position: unknown phase {phase!r}", "phase") from None
    st.active = _int(doc, "active", 0, 0, n - 1)
    st.dealer = _int(doc, "dealer", 0, 0, n - 1)
    st.round_no = _int(doc, "round_no", 1, 1, 10**6)
    direction = doc.get("direction", 1)
    if isinstance(direction, bool) or direction not in (1, -1):
        raise PositionError(f"position: direction must be 1 or -1, not {direction!r}", "direction")
    st.direction = direction
    st.top_player = _int(doc, "top_player", -1, -1, n - 1)
    st.auto_passes = _int(doc, "auto_passes", 0, 0, n)
    pending = doc.get("pending")
    if pending:
        if not isinstance(pending, Mapping):
            raise PositionError("position: pending must be {\"total\": N, \"card\": CARD}", "pending")
        st.pending = _int(pending, "total", 0, 0, 1000)
        st.pending_card = _ids([pending.get("card")], "pending card")[0]
    drawn = doc.get("drawn")
    if drawn is not None:
        st.drawn = _ids([drawn], "drawn")[0]
        if st.drawn not in st.hands[st.active]:
            raise PositionError(
                f"position: the drawn card {drawn} is not in seat {st.active}'s hand", "drawn")
    elif st.phase is Phase.PLAY_DRAWN:
        raise PositionError("position: phase play_drawn needs the drawn card", "drawn")
    wd4 = doc.get("wd4")
    if wd4 is not None and not isinstance(wd4, Mapping):
        raise PositionError(
            'position: wd4 must be {"player": N, "illegal": BOOL, "hand": [CARDS]}', "wd4")
    if wd4:
        st.wd4_player = _int(wd4, "player", -1, -1, n - 1)
        st.wd4_illegal = bool(wd4.get("illegal", False))
        st.wd4_hand = _ids(wd4.get("hand", []), "wd4 hand")
    reason = doc.get("color_for", "first_card")
    if not isinstance(reason, str) or reason not in _REASONS:
        raise PositionError(
            f"position: color_for must be one of {', '.join(_REASONS)}, not {reason!r}", "color_for")
    st.color_reason = _REASONS[reason]
    st.exposed = _seats(doc.get("exposed", []), n, "exposed")
    st.called = _seats(doc.get("called", []), n, "called")
    st.caught = _seats(doc.get("caught", []), n, "caught")
    st.graced = _seats(doc.get("graced", []), n, "graced")
    st.eliminated = _seats(doc.get("eliminated", []), n, "eliminated")
    st.knocked = _seats(doc.get("knocked_out", []), n, "knocked_out")
    st.in_round = [not (st.eliminated[s] or st.knocked[s]) for s in range(n)]
    for key in ("scores", "round_wins"):
        values = doc.get(key, [0] * n)
        if not isinstance(values, list) or len(values) != n or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values
        ):
            raise PositionError(f"position: {key} must be a list of {n} ints", key)
        setattr(st, key, list(values))
    st.final_round = bool(doc.get("final_round", False))
    winners = doc.get("match_winners", [])
    if winners:
        if st.phase is not Phase.MATCH_OVER:
            raise PositionError(
                "position: match_winners belong to a position in phase match_over", "match_winners")
        flags = _seats(winners, n, "match_winners")
        st.match_winners = tuple(s for s in range(n) if flags[s])
        try:
            st.match_reason = MatchEndReason(doc.get("match_reason", "target reached"))
        except ValueError:
            reasons = ", ".join(r.value for r in MatchEndReason)
            raise PositionError(f"position: match_reason must be one of {reasons}", "match_reason") from None
    if st.phase < Phase.ROUND_OVER and not st.in_round[st.active]:
        raise PositionError(f"position: the active seat {st.active} is not in the round", "active")
    _check_possible(st)
    if "deal" in doc:
        if st.phase is not Phase.ROUND_OVER:
            raise PositionError("position: a deal order belongs to a position in phase round_over", "deal")
        order = _ids(doc["deal"], "deal")
        if Counter(order) != deck:
            raise PositionError(
                "position: the deal order must hold the whole deck, each card once per copy", "deal")
        st.deal_order = order
    return st


def _check_possible(st: State) -> None:
    """Reject what cannot arise in a game (a PositionError naming the field)."""
    n = st.n
    live = st.phase < Phase.ROUND_OVER
    if live and st.phase is not Phase.CHOOSE_COLOR and st.color < 0:
        raise PositionError(
            f"position: the top card {Card.from_id(st.discard[-1])} has no color in phase "
            f"{st.phase.name.lower()}: a wild's color is named with it", "color")
    if st.phase is Phase.RESPOND and (st.pending <= 0 or st.pending_card < 0):
        raise PositionError("position: phase respond needs a pending penalty and its draw card", "pending")
    if st.phase is not Phase.RESPOND and (st.pending or st.pending_card >= 0):
        phase = st.phase.name.lower()
        raise PositionError(f"position: a penalty is pending only in phase respond, not {phase}",
                            "pending")
    if st.pending_card >= 0 and not ID_DRAW_VALUE[st.pending_card]:
        raise PositionError(f"position: the pending card {Card.from_id(st.pending_card)} is no draw card",
                            "pending")
    for s in range(n):
        if st.exposed[s] and (len(st.hands[s]) != 1 or not st.in_round[s]):
            raise PositionError(
                f"position: seat {s} is exposed but holds {len(st.hands[s])} cards (it must hold one)",
                "exposed")
    for s in range(n):
        if st.graced[s] and not st.rules.uno_grace:
            raise PositionError(f"position: seat {s} is graced but the ruleset has uno_grace off", "graced")
        if st.graced[s] and (len(st.hands[s]) != 1 or not st.in_round[s] or st.called[s] or st.exposed[s]):
            raise PositionError(
                f"position: seat {s} is graced but does not hold one card without a call (UNO-GRACE-1)",
                "graced")
    for s in range(n):
        if st.knocked[s] and st.eliminated[s]:
            raise PositionError(f"position: seat {s} is both knocked out and eliminated", "knocked_out")
        if not live:
            continue
        if st.in_round[s] and not st.hands[s]:
            roulette_last = (st.phase is Phase.CHOOSE_COLOR and st.color_reason is ColorReason.ROULETTE_LAST
                             and s == st.top_player)
            if not roulette_last:  # CL-END-7: only a last-card Roulette leaves its player empty-handed
                raise PositionError(f"position: seat {s} is in the round with no cards", "hands")
    if sum(st.in_round) < 2 and live:
        raise PositionError("position: a round in play needs two seats in it", "hands")


def write_position(st: State) -> dict[str, Any]:
    """The full position document of a state (see the module docstring)."""
    n = st.n
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": st.rules.to_dict(),
        "hands": [_names(h) for h in st.hands],
        "discard": _names(st.discard),
        "draw": _names(st.draw[::-1]),
        "fill": "none",
        "set_aside": _names(st.set_aside),
        "color": None if st.color < 0 else Color(st.color).letter,
        "phase": st.phase.name.lower(),
        "active": st.active,
        "dealer": st.dealer,
        "direction": st.direction,
        "round_no": st.round_no,
        "top_player": st.top_player,
        "auto_passes": st.auto_passes,
        "color_for": st.color_reason.label,
        "exposed": [s for s in range(n) if st.exposed[s]],
        "called": [s for s in range(n) if st.called[s]],
        "caught": [s for s in range(n) if st.caught[s]],
        "eliminated": [s for s in range(n) if st.eliminated[s]],
        "knocked_out": [s for s in range(n) if st.knocked[s]],
        "scores": list(st.scores),
        "round_wins": list(st.round_wins),
        "final_round": st.final_round,
        "seed": st.seed,
        "rng": st.rng.to_state(),
    }
    if True in st.graced:
        doc["graced"] = [s for s in range(n) if st.graced[s]]
    if st.pending_card >= 0:
        doc["pending"] = {"total": st.pending, "card": str(Card.from_id(st.pending_card))}
    if st.drawn >= 0:
        doc["drawn"] = str(Card.from_id(st.drawn))
    if st.deal_order is not None:
        doc["deal"] = _names(st.deal_order)
    if st.match_winners:
        doc["match_winners"] = list(st.match_winners)
        doc["match_reason"] = None if st.match_reason is None else st.match_reason.value
    if st.wd4_player >= 0:
        doc["wd4"] = {"player": st.wd4_player, "illegal": st.wd4_illegal, "hand": _names(st.wd4_hand)}
    return doc
