"""The search inside the native core: one call per decision, from a public-only description.

:func:`describe` turns what one seat knows (its :class:`~unotable.views.PlayerView` and its
:class:`~unotable.bots.determinize.Tracker`) into the plain data that ``unotable_native._search``
reads: the public fields of the table, the seat's own hand, every hand size, the unseen cards
left once the known ones are placed, each other seat's known cards and the record's inferences
("at least ``m`` of its free cards are not in ``E``", as :class:`~unotable.bots.determinize.Determinizer`
prepares them), and optional per-seat weights per card id. :func:`search` passes it with the root
candidates and a budget to the core, which deals hidden worlds consistent with it, plays every
candidate to the end of the round in each world with native policies (paired samples), and returns
the best (``native/src/search.hpp``; docs/bots.md says how it decides).

Nothing hidden goes in: not the other hands, not the draw pile's order, not the game's RNG. The
core seeds each world's generator from the search seed, so the same view, record and seed give the
same decision, whatever the hidden cards are (``tests/native/test_search.py`` swaps them).

The module imports the core lazily: :func:`available` says whether it is installed, and
:class:`~unotable.bots.ismcts.IsmctsBot` keeps its Python search where it is not.

Weights (:func:`bound_weights`) read MixBot2's public card counting (:class:`~unotable.bots.mixbot2.Bounds`):
a card's weight for a seat is the share of its unseen copies that the seat's bound allows (at least
``floor``), so a card that a draw showed the seat did not hold is dealt to it rarely.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, NamedTuple

from unotable.actions import Action, Catch, ChooseColor, Play
from unotable.bots.determinize import Determinizer, Tracker
from unotable.bots.mixbot2 import Bounds
from unotable.cards import NUM_CARD_IDS, WILD_DRAW_FOUR
from unotable.phase import Phase
from unotable.rules import Ruleset, Wd4Rule
from unotable.views import PlayerView

__all__ = ["POLICIES", "NativeResult", "available", "bound_weights", "check_rules", "describe",
           "encode_action",
           "prepare", "run", "sample_worlds", "search"]

_CORE_POLICY = {"random": 0, "random-stuck": 1, "rule-v1": 2, "fast": 3, "mixbot": 4, "mixbot2": 5,
                "mixbot2-tuned": 5}
"""Each playout policy's number in the core (search.hpp; mixbot2-tuned is mixbot2 with its MixParams)."""

POLICIES: tuple[str, ...] = tuple(_CORE_POLICY)
"""The policies a playout may use for a seat: the core's bots, ``fast``, the heuristic's fast model
(:mod:`unotable.bots.policy`, ported into ``search.hpp``), and models of ``mixbot``, ``mixbot2`` and
``mixbot2-tuned`` (the two last without their card counting, which a playout does not keep: among
their best-ranked cards of the colour held most they pick at random)."""


@functools.cache
def _mix_params(name: str) -> tuple[int, ...]:
    """The core's MixParams of a mixbot2 playout (empty: mixbot2's defaults)."""
    if name != "mixbot2-tuned":
        return ()
    from unotable.bots.tuned import MixBot2Tuned

    params = MixBot2Tuned().native_params()
    assert params is not None
    return tuple(params)

_NO_EVAL = (0.0,) * 10

class NativeResult(NamedTuple):
    """What one search found: the chosen candidate's index and each candidate's statistics."""

    choice: int
    worlds: int
    playouts: int
    steps: int
    visits: list[int]
    mean: list[float]
    results: list[list[float]] | None = None
    """With ``keep_results``: each candidate's playout results, one per world, paired by world."""


@functools.cache
def available() -> bool:
    """Whether the compiled search (``unotable_native._search``) is installed."""
    try:
        import unotable_native._search  # noqa: F401
    except ImportError:
        return False
    return True


@functools.lru_cache(maxsize=16)
def _rules(rules: Ruleset) -> tuple[dict[str, int], list[int], list[int]]:
    from unotable_native import native_config

    return native_config(rules), list(rules.deck_ids()), list(rules.points)


def check_rules(rules: Ruleset) -> None:
    """Raise (``ValueError`` or ``NotImplementedError``) when the core does not play ``rules``."""
    _rules(rules)


def encode_action(action: Action) -> tuple[int, int, int, int, bool]:
    """An action as the core's (kind, card, color, target, uno): the kinds are numbered alike."""
    if isinstance(action, Play):
        color = -1 if action.color is None else int(action.color)
        target = -1 if action.target is None else action.target
        return action.kind, action.card.id, color, target, action.uno
    if isinstance(action, ChooseColor):
        return action.kind, -1, int(action.color), -1 if action.target is None else action.target, False
    if isinstance(action, Catch):
        return action.kind, -1, -1, action.target, False
    return action.kind, -1, -1, -1, False


def bound_weights(view: PlayerView, bounds: Bounds, floor: float = 0.05) -> list[list[float] | None]:
    """Per seat, a weight per card id from MixBot2's public bounds (None for the seat itself)."""
    unseen = [0] * NUM_CARD_IDS
    for cid, k in view.ruleset.composition().items():
        unseen[cid] = k
    for c in (*view.hand, *view.discard_pile):
        unseen[c.id] -= 1
    out: list[list[float] | None] = []
    for s in range(view.seats):
        if s == view.seat or not bounds.bound:
            out.append(None)
            continue
        capped = bounds.capped(s, unseen)
        out.append([max(floor, capped[c] / unseen[c]) if unseen[c] > 0 else 1.0 for c in range(NUM_CARD_IDS)])
    return out


def _weights(weights: Sequence[Sequence[float] | None] | None, seats: int) -> list[list[float] | None]:
    out: list[list[float] | None] = [None] * seats
    for s, w in enumerate(weights or ()):
        if w is not None and s < seats:
            out[s] = list(w)
    return out


def describe(view: PlayerView, tracker: Tracker | None = None,
             weights: Sequence[Sequence[float] | None] | None = None) -> dict[str, Any]:
    """The public-only description of ``view`` (and the record in ``tracker``) that the core reads."""
    det = Determinizer(view, tracker)
    rules = view.ruleset
    top = view.top_card.id if view.top_card is not None else -1
    pending_card = view.pending_card.id if view.pending_card is not None else -1
    top_player = view.top_player if view.top_player is not None else -1
    drawn = view.drawn_card.id if view.phase is Phase.PLAY_DRAWN and view.drawn_card is not None else -1
    wd4_open = (view.phase is Phase.RESPOND and top == WILD_DRAW_FOUR and pending_card == WILD_DRAW_FOUR
                and top_player >= 0 and rules.challenge_enabled and rules.wd4_rule is Wd4Rule.CHALLENGE)
    return {
        "seats": view.seats,
        "seat": view.seat,
        "phase": int(view.phase),
        "active": view.active,
        "direction": view.direction,
        "color": int(view.current_color) if view.current_color is not None else -1,
        "dealer": view.dealer,
        "round_no": view.round_no,
        "pending": view.pending_penalty,
        "pending_card": pending_card,
        "top_player": top_player,
        "color_reason": int(view.awaiting_color_for) if view.awaiting_color_for is not None else 0,
        "drawn": drawn,
        "in_round": [int(x) for x in view.in_round],
        "eliminated": [int(x) for x in view.eliminated],
        "knocked": [int(x) for x in view.knocked_out],
        "exposed": [int(x) for x in view.exposed],
        "called": [int(x) for x in view.called],
        "scores": list(view.scores),
        "round_wins": list(view.round_wins),
        "sizes": list(view.hand_sizes),
        "discard": [c.id for c in view.discard_pile],
        "hand": [c.id for c in view.hand],
        "pool": list(det.pool),
        "set_aside": det.set_aside,
        "fixed": [list(f) for f in det.fixed],
        "needs": [[(sorted(e), want) for e, want in need] for need in det.needs],
        "order": list(det.order),
        "weights": _weights(weights, view.seats),
        "color_before_wd4": det.color_before_wd4,
        "wd4_open": int(wd4_open),
    }


def search(
    view: PlayerView,
    candidates: Sequence[Action],
    *,
    tracker: Tracker | None = None,
    weights: Sequence[Sequence[float] | None] | None = None,
    seed: int = 0,
    iterations: int = 2000,
    ms: float = 0.0,
    policy: str = "rule-v1",
    opponents: str = "rule-v1",
    prior: int | None = None,
    prior_z: float = 1.0,
    max_steps: int = 2000,
    halving: bool = False,
    horizon: int = 0,
    evaluation: tuple[Sequence[float], Sequence[float]] = (_NO_EVAL, _NO_EVAL),
    keep_results: bool = False,
) -> NativeResult:
    """Search the root ``candidates`` of ``view`` inside the core (see the module docstring).

    ``iterations`` caps the playouts (a candidate in a world is one), ``ms`` adds a wall-clock cap
    (0: none; at least one world is always played); ``policy`` plays the seat itself in the
    playouts and ``opponents`` every other seat (:data:`POLICIES`); ``prior`` is the index of a
    candidate kept unless another beats it by more than ``prior_z`` standard errors. With a
    ``horizon``, a playout stops after that many actions and is scored by ``evaluation`` (the
    weights of :func:`unotable.bots.ismcts.evaluate`, flat: heads-up, then three seats or more).
    ``keep_results`` returns every playout's result (:attr:`NativeResult.results`), for a paired
    comparison of the candidates (the review's).
    """
    spec = _spec(view, candidates, tracker, weights, seed, iterations, ms, policy, opponents, prior, prior_z,
                 max_steps, halving, horizon, evaluation)
    spec["keep_results"] = int(keep_results)
    return run(view.ruleset, spec)


def run(rules: Ruleset, spec: dict[str, Any]) -> NativeResult:
    """Run one search from a spec that :func:`prepare` (or :func:`search`) built, the GIL released.

    The spec holds only public information and plain values, so specs can be built one after the
    other while a game is replayed and run later, on several threads at once.
    """
    from unotable_native import _search

    cfg, deck, points = _rules(rules)
    out = _search.search(cfg, deck, points, spec)
    results = out.get("results")
    return NativeResult(int(out["choice"]), int(out["worlds"]), int(out["playouts"]), int(out["steps"]),
                        [int(v) for v in out["visits"]], [float(m) for m in out["mean"]],
                        None if results is None else [list(map(float, r)) for r in results])


def prepare(view: PlayerView, candidates: Sequence[Action], *, tracker: Tracker | None = None,
            seed: int = 0, worlds: int = 1000, policy: str = "fast", max_steps: int = 3000) -> dict[str, Any]:
    """The spec of a judgement: every candidate played out in each of ``worlds`` worlds, results kept.

    Every seat plays ``policy`` (the review's fast model by default) to the end of the round; the
    candidates share each world and its future shuffles (common random numbers). Pass it to
    :func:`run`.
    """
    spec = _spec(view, candidates, tracker, None, seed, worlds * len(candidates), 0.0, policy, policy, None,
                 1.0, max_steps, False, 0, (_NO_EVAL, _NO_EVAL))
    spec["keep_results"] = 1
    return spec


def _spec(view: PlayerView, candidates: Sequence[Action], tracker: Tracker | None,
          weights: Sequence[Sequence[float] | None] | None, seed: int, iterations: int, ms: float,
          policy: str, opponents: str, prior: int | None, prior_z: float, max_steps: int, halving: bool,
          horizon: int, evaluation: tuple[Sequence[float], Sequence[float]]) -> dict[str, Any]:
    for name in (policy, opponents):
        if name not in POLICIES:
            raise ValueError(f"playout policy must be one of {', '.join(POLICIES)}, not {name!r}")
    spec = describe(view, tracker, weights)
    spec.update(
        candidates=[encode_action(a) for a in candidates],
        prior=-1 if prior is None else prior,
        prior_z=float(prior_z),
        iterations=int(iterations),
        ms=float(ms),
        seed=seed & (2**64 - 1),
        policy=[_CORE_POLICY[policy if s == view.seat else opponents] for s in range(view.seats)],
        mix=[list(_mix_params(policy if s == view.seat else opponents)) for s in range(view.seats)],
        max_steps=int(max_steps),
        halving=int(halving),
        horizon=int(horizon),
        eval=[list(evaluation[0]), list(evaluation[1])],
    )
    return spec


def sample_worlds(view: PlayerView, tracker: Tracker | None = None,
                  weights: Sequence[Sequence[float] | None] | None = None, seed: int = 0,
                  count: int = 1) -> list[dict[str, Any]]:
    """``count`` worlds as the search deals them (its hands, draw pile and set-aside pile), to test."""
    from unotable_native import _search

    spec = _spec(view, [], tracker, weights, seed, 1, 0.0, "rule-v1", "rule-v1", None, 1.0, 1, False, 0,
                 (_NO_EVAL, _NO_EVAL))
    cfg, deck, points = _rules(view.ruleset)
    return list(_search.sample(cfg, deck, points, spec, count))
