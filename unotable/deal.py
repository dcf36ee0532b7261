"""Round setup: choosing the dealer, dealing the hands and turning up the first card.

:func:`start_match` chooses the first dealer (SET-2) and deals the first round; :func:`next_round`
passes the deal to the left (SET-3) and deals again. A deal shuffles the whole deck, gives seven
cards to each seat in the round (SET-4) and turns up the first card with its effect (SET-5 to
SET-11, SET-13; TWO-5 with two seats). Everything after that is :mod:`unotable.resolve`, whose turn
steps (the next turn, a penalty, a reversal) the first card's effect reuses; naming the color for a
first-card Wild (SET-11, SET-12) is a turn action and is resolved there too. Like resolve, these
functions trust their input; ``ev`` collects the events, or None to skip making them.

>>> from unotable.rules import Ruleset
>>> from unotable.state import State
>>> st = State(Ruleset.preset("official"), 3, 3)
>>> events = []
>>> start_match(st, events)
>>> chosen = events[0]  # SET-2: the sevens tie, so seats 0 and 1 each take another card
>>> [(seat, str(card)) for seat, card in chosen.draws], chosen.dealer
([(0, 'G7'), (1, 'R7'), (2, 'BR'), (0, 'YD2'), (1, 'G5')], 1)
>>> events[5]  # SET-9: a Draw Two turned up: next(dealer) draws two and loses its turn
FirstCard(card=Card.parse('RD2'), returned=False)
>>> [len(hand) for hand in st.hands], st.active
([7, 7, 9], 0)
"""
from __future__ import annotations

from unotable.cards import ID_COLOR, ID_IS_NUMBER, ID_IS_WILD, ID_RANK, WILD_DRAW_FOUR, Card, Rank
from unotable.events import DealerChosen, FirstCard, HandDealt, RoundStarted, Skipped
from unotable.phase import ColorReason, Phase
from unotable.resolve import Ev, _begin_turn, _cards, _flip, _set_penalty
from unotable.rules import DealerSelection, FirstCardWild
from unotable.state import State

__all__ = ["next_round", "start_match"]

_SKIP = int(Rank.SKIP)
_REVERSE = int(Rank.REVERSE)
_DRAW_TWO = int(Rank.DRAW_TWO)
_card = Card.from_id

# SET-2: the value of a card taken to choose the dealer (numbers count their rank, others 0)
_DEAL_VALUE = tuple(ID_RANK[c] if ID_IS_NUMBER[c] else 0 for c in range(len(ID_RANK)))


def _choose_dealer(st: State, ev: Ev) -> None:
    """SET-2: each seat takes a card; the highest number deals; ties draw again among the tied."""
    r = st.rules
    if r.dealer_selection is DealerSelection.SEAT0:
        st.dealer = 0
        return
    # The deck is shuffled lazily: each card taken is the next Fisher-Yates step from the end,
    # so the cards drawn are exactly those a full Rng.shuffle would put on top, in order.
    below = st.rng.below
    deck = st.flags.deck
    pile = list(deck)
    i = len(pile) - 1
    draws: list[tuple[int, int]] = []
    contenders = list(range(st.n))
    while len(contenders) > 1:
        best = -1
        values: list[int] = []
        for s in contenders:
            if i < 0:  # every card taken: reshuffle them all and continue
                pile = list(deck)
                i = len(pile) - 1
            j = below(i + 1)
            c = pile[j]  # the swap of positions i and j; position i is never read again
            pile[j] = pile[i]
            i -= 1
            draws.append((s, c))
            value = _DEAL_VALUE[c]
            values.append(value)
            if value > best:
                best = value
        contenders = [s for s, value in zip(contenders, values, strict=True) if value == best]
    st.dealer = contenders[0]
    if ev is not None:
        ev.append(DealerChosen(tuple((s, _card(c)) for s, c in draws), st.dealer))


def start_match(st: State, ev: Ev) -> None:
    """SET-2, then SET-4: choose the first dealer and deal the first round."""
    _choose_dealer(st, ev)
    _start_round(st, ev)


def next_round(st: State, ev: Ev) -> None:
    """SET-3: the next dealer is to the left of the last, skipping eliminated seats."""
    d = (st.dealer + 1) % st.n
    while st.eliminated[d]:
        d = (d + 1) % st.n
    st.dealer = d
    _start_round(st, ev)


def _start_round(st: State, ev: Ev) -> None:
    """SET-4 to SET-11, SET-13: clear the last round, shuffle, deal seven each, turn up the first card."""
    r = st.rules
    n = st.n
    st.round_no += 1
    st.clear_round()
    if st.deal_order is not None:  # a position fixed this deal's order (top first)
        deck = st.deal_order[::-1]
        st.deal_order = None
    else:
        deck = list(st.flags.deck)
        st.rng.shuffle(deck)
    order = []
    s = st.dealer
    for _ in range(n):
        s = (s + 1) % n
        if st.in_round[s]:
            order.append(s)
    hands: list[list[int]] = [[] for _ in range(n)]
    m = len(order)
    top = len(deck) - 1
    if top + 1 >= 7 * m:  # SET-4: seven rounds of one card each from the top (the end), with slices
        for k, s in enumerate(order):
            stop = top - k - 7 * m
            hands[s] = deck[top - k:stop if stop >= 0 else None:-m]
        del deck[top + 1 - 7 * m:]
    else:
        for _ in range(7):
            for s in order:
                hands[s].append(deck.pop())
    st.hands = hands
    st.draw = deck
    st.discard = []
    if ev is not None:
        ev.append(RoundStarted(st.round_no, st.dealer, tuple(st.in_round), tuple(st.scores)))
        for s in order:
            ev.append(HandDealt(s, _cards(hands[s])))
    first = st.next_seat(st.dealer)
    if st.flags.nm:  # SET-13
        while True:
            c = st.draw.pop()
            st.discard.append(c)
            if ev is not None:
                ev.append(FirstCard(_card(c)))
            if ID_IS_NUMBER[c]:
                break
        st.color = ID_COLOR[c]
        _begin_turn(st, first, ev)
        return
    redraw_all = r.first_card_wild is FirstCardWild.REDRAW
    while True:  # SET-10
        c = st.draw.pop()
        if c == WILD_DRAW_FOUR or (redraw_all and ID_IS_WILD[c]):
            if ev is not None:
                ev.append(FirstCard(_card(c), returned=True))
            st.draw.append(c)
            st.rng.shuffle(st.draw)
            continue
        break
    st.discard.append(c)
    if ev is not None:
        ev.append(FirstCard(_card(c)))
    st.color = ID_COLOR[c]
    rank = ID_RANK[c]
    if ID_IS_WILD[c]:  # SET-11
        st.active = first
        st.phase = Phase.CHOOSE_COLOR
        st.color_reason = ColorReason.FIRST_CARD
        st.drawn = -1
    elif rank == _SKIP:  # SET-7, TWO-5
        if ev is not None:
            ev.append(Skipped(first))
        _begin_turn(st, st.next_seat(first), ev)
    elif rank == _REVERSE:  # SET-8, TWO-5
        _flip(st, ev)
        _begin_turn(st, st.dealer, ev)
    elif rank == _DRAW_TWO:  # SET-9, TWO-5
        _set_penalty(st, first, 2, c, ev, respond=False)
    else:  # SET-6
        _begin_turn(st, first, ev)

