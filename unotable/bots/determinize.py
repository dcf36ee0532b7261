"""Sample full game states consistent with what one seat knows (for search bots).

A seat sees a :class:`~unotable.views.PlayerView` and the events it may see. A search bot needs
whole states to play forward, so it *determinizes*: it deals the cards it cannot see into the
other hands, the draw pile and the set-aside pile, in a way consistent with everything it knows.

What is known, and how a sample respects it:

- The seat's own hand is exact, and so are the public fields of the view (phase, active seat,
  direction, top card, current color, pending penalty, hand sizes, draw-pile size, UNO calls,
  exposures, scores). The discard pile is the view's.
- The *unseen* cards are the deck minus the own hand minus the discard pile. They are dealt to
  the other hands (each of its exact size), the draw pile (a random order) and the set-aside pile
  (No Mercy knock-outs; its size is what the other counts leave over).
- Cards known to be in a hand (a :class:`Tracker` follows the public record): Color Roulette
  reveals, a hand the seat itself gave away with a 7 or a 0 (HOUSE-9, HOUSE-10), a hand
  revealed to it by a challenge (CL-ACT-11). They stay known until played, and move with their hand.
- Sound inferences only, written as *"at least m cards of this hand are not in set E"*:

  - a seat that drew in a normal turn when ``may_draw_with_playable`` is false held no playable
    card (CL-DRAW-1): its whole hand avoided the playable set E (the current color, the top
    card's number or symbol, every wild). Under ``draw_until_playable`` every card it drew but
    the last was unplayable too (CL-DRAW-4), whatever ``may_draw_with_playable`` says;
  - a seat that passed automatically (CL-DRAW-7) held no playable card;
  - a seat challenged and found innocent (CL-ACT-13) held no card of the color current before its
    Wild Draw Four;
  - a Discard All leaves its player with no card of its color (NM-10), and the
    ``others_discard_wilds`` Customizable leaves the other seats with no wild (CL-ACT-19).

  Under ``may_draw_with_playable = true`` (the classic default) a draw proves nothing, and the
  tracker infers nothing from it, unless it is told to *believe* that seats draw only when stuck
  (``Tracker(beliefs=True)``, an opponent model that bots may opt in to: it also believes that a
  card drawn and not played was unplayable, and it has a belief about Wild Draw Fours; these are
  the only unsound readings, and they are off by default). When a card leaves a hand, every "at
  least m" count whose set does not hold that card drops by one, so a count never claims more
  than it can prove. Several inferences about one hand are kept as a chain of nested sets, which
  a sample fills from the most restrictive set out; an inference that does not fit the chain is
  dropped (dropping an inference is always sound), and so is a belief that the deck cannot
  satisfy together with the older inferences.

A sample is a legal :class:`~unotable.state.State` in the same phase, with the same active seat,
pending penalty and so on, that :func:`unotable.resolve.apply` and
:func:`unotable.movegen.legal_actions` continue from. Where the view hides a field the engine
needs, the sample fills it consistently: another seat's just-drawn card (a playable card of its
sampled hand), the verdict on a Wild Draw Four awaiting a challenge (read off the sampled hand of
its player), a Color Roulette that was its player's last card (that player holds nothing).

>>> import random
>>> from unotable.game import Game
>>> g = Game.new(seats=3, seed=5)
>>> t = Tracker(0)
>>> t.observe(g.events_for(0))
>>> st = t.sample(g.view(0), random.Random(1))
>>> st.hands[0] == list(g.clone_state().hands[0]), [len(h) for h in st.hands] == list(g.hand_sizes)
(True, True)
"""
from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from unotable.cards import (
    BLANK,
    ID_COLOR,
    ID_IS_WILD,
    ID_RANK,
    NUM_CARD_IDS,
    WILD_CUSTOMIZABLE,
    WILD_DRAW_FOUR,
    Rank,
)
from unotable.events import (
    CardPlayed,
    Challenged,
    ChallengeReveal,
    ColorChosen,
    Drew,
    DrewCards,
    Event,
    FirstCard,
    HandDealt,
    HandsPassed,
    HandsShuffled,
    HandsSwapped,
    KnockedOut,
    NewHand,
    Passed,
    PenaltyPending,
    Reshuffled,
    Revealed,
    RoundStarted,
    Slipped,
)
from unotable.phase import Phase
from unotable.rng import Rng
from unotable.rules import CustomEffect, Ruleset, Wd4Rule
from unotable.state import State
from unotable.views import PlayerView

__all__ = ["Determinizer", "Layer", "Tracker", "Weigh", "playable_set", "sample_state", "unseen_cards"]

_DISCARD_ALL = int(Rank.DISCARD_ALL)
_WILDS: frozenset[int] = frozenset(c for c in range(NUM_CARD_IDS) if ID_IS_WILD[c])

Layer = tuple[frozenset[int], int]
"""An inference about one hand: ``(E, m)`` means at least ``m`` of its cards are not in ``E``."""


def playable_set(top: int, color: int) -> frozenset[int]:
    """The card ids playable in a normal turn on ``top`` with ``color`` current (CL-TURN-2).

    Every wild is in it: a Wild Draw Four that ``strict`` forbids is forbidden only to a hand that
    holds the current color, whose other cards are then playable anyway.

    >>> from unotable.cards import Card
    >>> s = playable_set(Card.parse("R7").id, Card.parse("R7").color)
    >>> Card.parse("G7").id in s, Card.parse("R1").id in s, Card.parse("G1").id in s
    (True, True, False)
    """
    out = set(_WILDS)
    trank = ID_RANK[top] if top >= 0 and ID_COLOR[top] >= 0 else -1
    for c in range(NUM_CARD_IDS):
        col = ID_COLOR[c]
        if col >= 0 and (col == color or ID_RANK[c] == trank):
            out.add(c)
    return frozenset(out)


def _color_set(color: int) -> frozenset[int]:
    return frozenset(c for c in range(NUM_CARD_IDS) if ID_COLOR[c] == color)


def unseen_cards(view: PlayerView) -> Counter[int]:
    """The cards ``view``'s seat cannot see: the deck minus its hand minus the discard pile."""
    pool: Counter[int] = Counter(view.ruleset.composition())
    pool.subtract(c.id for c in view.hand)
    pool.subtract(c.id for c in view.discard_pile)
    return +pool


class Tracker:
    """The public record as one seat has seen it, and what it proves about the hidden hands.

    Feed it the events the seat may see with :meth:`observe` (in order, as the arena and the
    terminal client do); they are read lazily, at the next :meth:`sync` (every method that takes a
    view syncs), because some inferences depend on the ruleset, which the view carries. A tracker
    that saw no events still works: it then knows only what the view shows. The seat may be left
    out (-1): the first view names it, and events wait unread until then.
    """

    def __init__(self, seat: int = -1, beliefs: bool = False) -> None:
        self.seat = seat
        """The seat whose record this is; -1 until the first :meth:`sync` tells it."""
        self.beliefs = beliefs
        """Beliefs, not proofs, about how the other seats play (off by default, keeping every
        inference sound): a seat draws in a normal turn only when it holds nothing playable (as
        if ``may_draw_with_playable`` were false) and plays a playable card it drew (a card drawn
        and not played was unplayable: the whole hand then avoids the playable set), and it plays
        a Wild Draw Four legally (CL-ACT-6) unless its victim holds three cards or fewer. These are
        true of the bots here (the heuristic, rules 4 and 9), random aside; a guilty verdict drops
        the belief about that seat."""
        self._pending: list[Event] = []
        self.rules: Ruleset | None = None
        self.n = 0
        self.round_no = -1
        self._reset(0)

    # -- state ---------------------------------------------------------------------------------

    def _reset(self, n: int) -> None:
        self.n = n
        self.sizes = [0] * n
        self.in_round = [True] * n
        self.known: list[list[int]] = [[] for _ in range(n)]
        self.layers: list[list[Layer]] = [[] for _ in range(n)]
        self.mine: list[int] = []
        self.top = -1
        self.color = -1
        self.color_before_wd4 = -1
        self.wd4_size = 0
        self.wd4_by = -1
        self.started = False
        self._deferred: list[tuple[int, frozenset[int]]] = []
        self._drawn: tuple[int, frozenset[int]] | None = None

    def observe(self, events: Iterable[Event]) -> None:
        """Queue events this seat may see (in the order they happened)."""
        self._pending.extend(events)

    def sync(self, view: PlayerView) -> None:
        """Read the queued events, then check the bookkeeping against ``view`` (the view wins)."""
        self.rules = view.ruleset
        if self.seat < 0:
            self.seat = view.seat
        if self._pending:
            events = self._pending
            self._pending = []
            for i, e in enumerate(events):
                self._event(e, events, i)
            self._flush()
        if self._drawn is not None and not (view.phase is Phase.PLAY_DRAWN and view.active == self._drawn[0]):
            self._kept_drawn()
        if self.n != view.seats or self.round_no != view.round_no or not self.started:
            # Never saw this round start: begin from the view alone.
            self._reset(view.seats)
            self.round_no = view.round_no
            self.sizes = list(view.hand_sizes)
            self.in_round = list(view.in_round)
            self.top = view.top_card.id if view.top_card is not None else -1
            self.color = int(view.current_color) if view.current_color is not None else -1
            self.started = True
        self.mine = [c.id for c in view.hand]
        for s in range(self.n):
            self.in_round[s] = view.in_round[s]
            if self.sizes[s] != view.hand_sizes[s] or not view.in_round[s]:
                self.sizes[s] = view.hand_sizes[s]
                self.known[s] = []
                self.layers[s] = []
            elif len(self.known[s]) > self.sizes[s]:
                self.known[s] = self.known[s][: self.sizes[s]]
        self.known[self.seat] = []
        self.layers[self.seat] = []

    # -- inferences ----------------------------------------------------------------------------

    def _add_layer(self, s: int, excluded: frozenset[int], m: int) -> bool:
        """Record that at least ``m`` cards of seat ``s`` avoid ``excluded`` (False: not recorded).

        An inference that the deck cannot satisfy together with the older ones (at least ``k``
        cards outside a set that leaves fewer than ``k`` in the deck) is dropped: only a belief
        can be refuted so (see :attr:`beliefs`), and the older record is kept.
        """
        if s == self.seat or m <= 0:
            return False
        m = min(m, self.sizes[s])
        layers = self.layers[s]
        if m >= self.sizes[s]:  # the whole hand: every older inference tightens (see module doc)
            merged = [(e | excluded, k) for e, k in layers]
            merged.append((excluded, m))
            if not self._possible(merged):
                return False
            self.layers[s] = _normalize(merged)
            return True
        if not layers:
            self.layers[s] = [(excluded, m)]
            return True
        return False

    def _possible(self, layers: list[Layer]) -> bool:
        """Whether the deck holds, for every ``(E, k)``, at least ``k`` cards outside ``E``."""
        if self.rules is None:
            return True
        deck = self.rules.composition()
        return all(sum(n for c, n in deck.items() if c not in e) >= k for e, k in layers)

    def _leave(self, s: int, card: int) -> None:
        """``card`` left seat ``s``'s hand (played or slipped)."""
        self.sizes[s] = max(0, self.sizes[s] - 1)
        known = self.known[s]
        if card in known:
            known.remove(card)
        if self.layers[s]:
            self.layers[s] = _normalize(
                [(e, k if card in e else k - 1) for e, k in self.layers[s]], self.sizes[s]
            )
        if s == self.seat and card in self.mine:
            self.mine.remove(card)

    def _flush(self) -> None:
        for s, excluded in self._deferred:
            if 0 <= s < self.n and self.in_round[s]:
                self._add_layer(s, excluded, self.sizes[s])
        self._deferred = []

    def _kept_drawn(self) -> None:
        """Belief: the card a seat drew and did not play was unplayable too (see :attr:`beliefs`)."""
        assert self._drawn is not None
        s, excluded = self._drawn
        self._drawn = None
        if 0 <= s < self.n and self.in_round[s]:
            self._add_layer(s, excluded, self.sizes[s])

    def _next(self, s: int, direction: int) -> int:
        n = self.n
        t = (s + direction) % n
        for _ in range(n):
            if self.in_round[t]:
                return t
            t = (t + direction) % n
        return t

    def _event(self, e: Event, events: list[Event], i: int) -> None:
        if self._deferred and not isinstance(e, Slipped):
            self._flush()
        if self._drawn is not None and not isinstance(e, DrewCards | Reshuffled):
            if isinstance(e, CardPlayed | Passed) and e.seat == self._drawn[0]:
                self._drawn = None  # it played the card it drew, or kept a playable one
            else:
                self._kept_drawn()
        if isinstance(e, RoundStarted):
            self._reset(len(e.in_round))
            self.round_no = e.round_no
            self.in_round = list(e.in_round)
            self.sizes = [7 if inr else 0 for inr in e.in_round]
            self.started = True
            return
        if not self.started or not 0 <= getattr(e, "seat", 0) < self.n:
            return
        rules = self.rules
        if isinstance(e, CardPlayed):
            c = e.card.id
            p = e.seat
            if c == WILD_DRAW_FOUR:
                self.color_before_wd4 = self.color
            self._leave(p, c)
            if c == WILD_DRAW_FOUR:
                self.wd4_size = self.sizes[p]
                self.wd4_by = p
            self.top = c
            self.color = ID_COLOR[c] if ID_COLOR[c] >= 0 else (-1 if e.color is None else int(e.color))
            if self.sizes[p] > 0:
                if ID_RANK[c] == _DISCARD_ALL:  # NM-10: none of its color is left
                    self._deferred.append((p, _color_set(ID_COLOR[c])))
                elif (
                    c in (WILD_CUSTOMIZABLE, BLANK)
                    and rules is not None
                    and rules.custom_effect is CustomEffect.OTHERS_DISCARD_WILDS
                ):  # CL-ACT-19: the others keep no wild
                    for s in range(self.n):
                        if s != p:
                            self._deferred.append((s, _WILDS))
        elif isinstance(e, ColorChosen):
            self.color = int(e.color)
        elif isinstance(e, FirstCard):
            if not e.returned:
                c = e.card.id
                self.top = c
                self.color = ID_COLOR[c]
        elif isinstance(e, Drew):
            s = e.seat
            before = self.sizes[s]
            if e.reason == "draw" and e.count > 0 and self.top >= 0 and rules is not None:
                excluded = playable_set(self.top, self.color)
                unplayable_drawn = e.count - 1 if rules.draw_until_playable else 0
                if not rules.may_draw_with_playable or self.beliefs:  # CL-DRAW-1
                    # The hand before the draw and the unplayable cards drawn: the whole hand as
                    # it was before the last card came, so every older inference tightens too.
                    self.sizes[s] = before + unplayable_drawn
                    if self._add_layer(s, excluded, before + unplayable_drawn) and self.beliefs:
                        self._drawn = (s, excluded)
                elif unplayable_drawn:  # CL-DRAW-4: all but the last drawn were unplayable
                    self.sizes[s] = before + e.count
                    self._add_layer(s, excluded, unplayable_drawn)
            self.sizes[s] = before + e.count
        elif isinstance(e, Passed):
            if e.auto and self.top >= 0:  # CL-DRAW-7: nothing playable
                self._add_layer(e.seat, playable_set(self.top, self.color), self.sizes[e.seat])
        elif isinstance(e, Revealed):
            s = e.seat
            self.sizes[s] += 1
            if s == self.seat:
                self.mine.append(e.card.id)
            else:
                self.known[s].append(e.card.id)
        elif isinstance(e, Slipped):
            for card in e.cards:
                self._leave(e.seat, card.id)
        elif isinstance(e, Challenged):
            p = e.player
            if not e.guilty and self.color_before_wd4 >= 0 and 0 <= p < self.n:  # CL-ACT-13
                self._add_layer(p, _color_set(self.color_before_wd4), min(self.wd4_size, self.sizes[p]))
            elif e.guilty and self.beliefs and 0 <= p < self.n:  # a belief refuted
                self.layers[p] = []
        elif isinstance(e, PenaltyPending):
            p = self.wd4_by
            if (
                self.beliefs
                and self.top == WILD_DRAW_FOUR
                and 0 <= p < self.n
                and self.color_before_wd4 >= 0
                and self.sizes[e.victim] > 3
            ):
                self._add_layer(p, _color_set(self.color_before_wd4), self.sizes[p])
        elif isinstance(e, ChallengeReveal):
            if e.challenger == self.seat and 0 <= e.player < self.n:  # CL-ACT-11
                self.known[e.player] = [c.id for c in e.cards]
                self.layers[e.player] = []
        elif isinstance(e, HandsSwapped):
            a, b = e.seat, e.target
            if 0 <= b < self.n:
                self._swap(a, b)
        elif isinstance(e, HandsPassed):
            self._pass(e.direction)
        elif isinstance(e, HandsShuffled):
            for s in range(self.n):
                self.known[s] = []
                self.layers[s] = []
            if len(e.sizes) == self.n:
                self.sizes = list(e.sizes)
        elif isinstance(e, NewHand | HandDealt):
            if e.seat == self.seat:
                self.mine = [c.id for c in e.cards]
        elif isinstance(e, DrewCards):
            if e.seat == self.seat:
                self.mine.extend(c.id for c in e.cards)
        elif isinstance(e, KnockedOut):
            s = e.seat
            self.sizes[s] = 0
            self.known[s] = []
            self.layers[s] = []
            self.in_round[s] = False
            if s == self.seat:
                self.mine = []

    def _swap(self, a: int, b: int) -> None:
        me = self.seat
        self.sizes[a], self.sizes[b] = self.sizes[b], self.sizes[a]
        self.known[a], self.known[b] = self.known[b], self.known[a]
        self.layers[a], self.layers[b] = self.layers[b], self.layers[a]
        if me in (a, b):  # the other seat now holds exactly the hand this seat gave away
            other = b if me == a else a
            if len(self.mine) == self.sizes[other]:
                self.known[other] = list(self.mine)
                self.layers[other] = []

    def _pass(self, direction: int) -> None:
        n = self.n
        sizes = [0] * n
        known: list[list[int]] = [[] for _ in range(n)]
        layers: list[list[Layer]] = [[] for _ in range(n)]
        for s in range(n):
            if self.in_round[s]:
                t = self._next(s, direction)
                sizes[t] = self.sizes[s]
                known[t] = self.known[s]
                layers[t] = self.layers[s]
        me = self.seat
        if self.in_round[me]:
            t = self._next(me, direction)
            if t != me and len(self.mine) == sizes[t]:
                known[t] = list(self.mine)
                layers[t] = []
        self.sizes, self.known, self.layers = sizes, known, layers

    # -- what the bots ask ---------------------------------------------------------------------

    def lacks(self, seat: int, cards: frozenset[int]) -> bool:
        """True when the record proves that ``seat`` holds none of ``cards`` (and knows none)."""
        size = self.sizes[seat] if seat < len(self.sizes) else 0
        if size == 0:
            return True
        if any(c in cards for c in self.known[seat]):
            return False
        return any(k >= size and cards <= e for e, k in self.layers[seat])

    def might_hold(self, seat: int, cards: frozenset[int]) -> int:
        """At most how many of ``cards`` seat ``seat`` holds, by the record (its hand size at worst)."""
        size = self.sizes[seat] if seat < len(self.sizes) else 0
        best = 0
        for e, k in self.layers[seat]:
            if k > best and cards <= e:
                best = k
        return max(0, size - best)

    def sample(self, view: PlayerView, rng: random.Random) -> State:
        """One full state consistent with ``view`` and the record (see the module docstring)."""
        return Determinizer(view, self).sample(rng)


def _normalize(layers: list[Layer], size: int | None = None) -> list[Layer]:
    """Keep a chain: counts falling, sets growing; drop empty and dominated inferences."""
    out: list[Layer] = []
    for e, k in sorted(layers, key=lambda x: (-x[1], len(x[0]))):
        if size is not None:
            k = min(k, size)
        if k <= 0:
            continue
        # a later layer has k' <= k: it survives only with a strictly larger set
        if out and e <= out[-1][0]:
            continue
        while out and out[-1][1] == k and out[-1][0] <= e:
            out.pop()
        if out and not out[-1][0] <= e:
            continue  # not nested: drop the weaker-looking one (sound)
        out.append((e, k))
    return out


Weigh = Callable[[int, int, Sequence[int]], Sequence[float]]
"""``weigh(seat, size, cards)``: a positive weight for each of ``cards`` in ``seat``'s hand of
``size`` cards (an opponent model, such as :class:`unotable.bots.handmodel.HandModel`)."""


class Determinizer:
    """Everything a sample needs from one view, prepared once; :meth:`sample` deals a state.

    Search bots build one per decision and call :meth:`sample` per iteration. With ``weigh``, the
    unseen cards are not dealt uniformly: the other seats take their cards in turn (the most
    constrained first), each filling its free places from the cards left in the order of
    ``Exp(1) / weight`` (weighted sampling without replacement), the record's inferences first,
    so they still hold in every sample.
    """

    def __init__(self, view: PlayerView, tracker: Tracker | None = None, weigh: Weigh | None = None) -> None:
        if tracker is None:
            tracker = Tracker(view.seat)
        tracker.sync(view)
        self.view = view
        rules = view.ruleset
        self.rules = rules
        n = view.seats
        me = view.seat
        pool = unseen_cards(view)
        sizes = list(view.hand_sizes)
        # Known cards first, as far as the unseen cards allow.
        fixed: list[list[int]] = [[] for _ in range(n)]
        for s in range(n):
            if s == me:
                continue
            for c in tracker.known[s][: sizes[s]]:
                if pool[c] > 0:
                    pool[c] -= 1
                    fixed[s].append(c)
        self.fixed = fixed
        # Inference chains, reduced by the known cards that already satisfy them.
        needs: list[list[tuple[frozenset[int], int]]] = [[] for _ in range(n)]
        for s in range(n):
            if s == me or len(fixed[s]) >= sizes[s]:
                continue
            chain = tracker.layers[s]
            free = sizes[s] - len(fixed[s])
            # most restrictive (largest set, smallest count) first
            taken = 0
            for e, k in reversed(chain):
                have = sum(1 for c in fixed[s] if c not in e)
                want = min(k - have, free) - taken
                if want > 0:
                    needs[s].append((e, want))
                    taken += want
        self.needs = needs
        self.pool = sorted(pool.elements())
        self.sizes = sizes
        deck_size = sum(rules.composition().values())
        self.set_aside = max(0, deck_size - sum(sizes) - len(view.discard_pile) - view.draw_pile_size)
        self.order = sorted(
            (s for s in range(n) if s != me), key=lambda s: (-sum(w for _, w in needs[s]), s)
        )
        self.color_before_wd4 = tracker.color_before_wd4
        self.inverse: dict[int, list[float]] | None = None
        if weigh is not None:
            self.inverse = {}
            for s in self.order:
                if len(fixed[s]) < sizes[s]:
                    weights = list(weigh(s, sizes[s], self.pool))
                    if len(weights) != len(self.pool) or not all(w > 0 for w in weights):
                        raise ValueError(
                            f"weigh must give a positive weight to each of the {len(self.pool)} cards"
                        )
                    self.inverse[s] = [1.0 / w for w in weights]

    def sample(self, rng: random.Random) -> State:
        if self.inverse is not None:
            return self._weighted(self.inverse, rng)
        view = self.view
        rules = self.rules
        n = view.seats
        me = view.seat
        pool = self.pool[:]
        rng.shuffle(pool)
        hands: list[list[int]] = [[] for _ in range(n)]
        hands[me] = [c.id for c in view.hand]
        constrained = False
        for s in self.order:
            hand = self.fixed[s][:]
            for excluded, want in self.needs[s]:
                constrained = True
                i = len(pool) - 1
                while want > 0 and i >= 0:
                    c = pool[i]
                    if c not in excluded:
                        hand.append(c)
                        pool[i] = pool[-1]
                        pool.pop()
                        want -= 1
                    i -= 1
            extra = self.sizes[s] - len(hand)
            if extra > 0:
                hand.extend(pool[-extra:])
                del pool[-extra:]
            hands[s] = hand
        if constrained:  # picking around a set leaves the rest in a biased order
            rng.shuffle(pool)
        set_aside = pool[: self.set_aside]
        draw = pool[self.set_aside:]
        return _build(view, rules, hands, draw, set_aside, self.color_before_wd4, rng)

    def _weighted(self, inverse: dict[int, list[float]], rng: random.Random) -> State:
        """A sample whose other hands are dealt by weight (see the class docstring)."""
        view = self.view
        me = view.seat
        pool = self.pool
        free = list(range(len(pool)))
        hands: list[list[int]] = [[] for _ in range(view.seats)]
        hands[me] = [c.id for c in view.hand]
        rand = rng.random
        log = math.log
        for s in self.order:
            hand = self.fixed[s][:]
            inv = inverse.get(s)
            if inv is not None:
                keys = {i: -log(1.0 - rand()) * inv[i] for i in free}
                ranked = sorted(free, key=keys.__getitem__)
                taken: list[int] = []
                for excluded, want in self.needs[s]:
                    for i in ranked:
                        if want <= 0:
                            break
                        if pool[i] not in excluded and i not in taken:
                            taken.append(i)
                            want -= 1
                extra = self.sizes[s] - len(hand) - len(taken)
                for i in ranked:
                    if extra <= 0:
                        break
                    if i not in taken:
                        taken.append(i)
                        extra -= 1
                hand.extend(pool[i] for i in taken)
                chosen = set(taken)
                free = [i for i in free if i not in chosen]
            hands[s] = hand
        rest = [pool[i] for i in free]
        rng.shuffle(rest)
        draw, set_aside = rest[self.set_aside:], rest[: self.set_aside]
        return _build(view, self.rules, hands, draw, set_aside, self.color_before_wd4, rng)


def _build(
    view: PlayerView,
    rules: Ruleset,
    hands: list[list[int]],
    draw: list[int],
    set_aside: list[int],
    color_before_wd4: int,
    rng: random.Random,
) -> State:
    n = view.seats
    st = State(rules, n, 0)
    st.rng = Rng(rng.getrandbits(63))
    st.hands = hands
    st.draw = draw
    st.discard = [c.id for c in view.discard_pile]
    st.set_aside = set_aside
    st.color = int(view.current_color) if view.current_color is not None else -1
    st.direction = view.direction
    st.active = view.active
    st.phase = view.phase
    st.dealer = view.dealer
    st.round_no = view.round_no
    st.in_round = list(view.in_round)
    st.eliminated = list(view.eliminated)
    st.knocked = list(view.knocked_out)
    st.pending = view.pending_penalty
    st.pending_card = view.pending_card.id if view.pending_card is not None else -1
    st.top_player = view.top_player if view.top_player is not None else -1
    st.exposed = list(view.exposed)
    st.called = list(view.called)
    st.scores = list(view.scores)
    st.round_wins = list(view.round_wins)
    if view.awaiting_color_for is not None:
        st.color_reason = view.awaiting_color_for
    if view.phase is Phase.PLAY_DRAWN:
        if view.drawn_card is not None:
            st.drawn = view.drawn_card.id
        else:
            st.drawn = _drawn_for(st, view.active)
    top = st.discard[-1] if st.discard else -1
    if (
        view.phase is Phase.RESPOND
        and top == WILD_DRAW_FOUR
        and st.pending_card == WILD_DRAW_FOUR
        and st.top_player >= 0
        and rules.challenge_enabled
        and rules.wd4_rule is Wd4Rule.CHALLENGE
    ):
        p = st.top_player
        st.wd4_player = p
        st.wd4_hand = hands[p][:]
        st.wd4_illegal = color_before_wd4 >= 0 and any(ID_COLOR[c] == color_before_wd4 for c in hands[p])
    return st


def _drawn_for(st: State, seat: int) -> int:
    """Another seat's just-drawn card (PLAY_DRAWN): a playable card of its sampled hand.

    If the sample dealt it none, one playable card is swapped in from the draw pile.
    """
    from unotable.movegen import playable

    hand = st.hands[seat]
    for c in reversed(hand):
        if playable(st, c, hand):
            return c
    for i in range(len(st.draw) - 1, -1, -1):
        c = st.draw[i]
        if hand and playable(st, c, hand):
            st.draw[i] = hand[-1]
            hand[-1] = c
            return c
    return hand[-1] if hand else -1


def sample_state(view: PlayerView, rng: random.Random, tracker: Tracker | None = None) -> State:
    """One full state consistent with ``view`` (and with ``tracker``'s record, when given)."""
    return Determinizer(view, tracker).sample(rng)


def sample_states(
    view: PlayerView, rng: random.Random, count: int, tracker: Tracker | None = None
) -> Sequence[State]:
    """``count`` independent samples (one :class:`Determinizer`, prepared once)."""
    d = Determinizer(view, tracker)
    return [d.sample(rng) for _ in range(count)]
