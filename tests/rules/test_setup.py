"""Rule scenarios for setup and determinism: GEN-4 and SET-1 to SET-13.

The deal is random, so the first-card tests either search a fixed range of seeds for a deal with
the wanted first card (and assert that one was found) or check the rule on every seed of a range.
What happened is read from ``game.events`` (DealerChosen, RoundStarted, HandDealt, FirstCard).
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from unotable import (
    Card,
    Color,
    Game,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    Phase,
    Rank,
    Ruleset,
    RulesetError,
)
from unotable.events import (
    ColorChosen,
    DealerChosen,
    DirectionChanged,
    Drew,
    Event,
    FirstCard,
    HandDealt,
    HandsPassed,
    HandsShuffled,
    HandsSwapped,
    PenaltyPending,
    Revealed,
    RoundStarted,
    Skipped,
)
from unotable.record import Record, replay
from unotable.rng import Rng

OFFICIAL = Ruleset.preset("official")
NO_MERCY = Ruleset.preset("no-mercy")

# --------------------------------------------------------------------------------------------
# helpers


def of(game: Game, kind: type[Event]) -> list:
    return [e for e in game.events if isinstance(e, kind)]


def names(cards) -> list[str]:
    return [str(c) for c in cards]


def first_card(game: Game) -> Card:
    """The card that ended up as the first top card (the last FirstCard event)."""
    return of(game, FirstCard)[-1].card


def dealt(game: Game) -> dict[int, list[str]]:
    """Each seat's dealt hand in the latest round (HandDealt events after the last RoundStarted)."""
    last = max(i for i, e in enumerate(game.events) if isinstance(e, RoundStarted))
    return {e.seat: names(e.cards) for e in game.events[last:] if isinstance(e, HandDealt)}


def hands(game: Game) -> dict[int, list[str]]:
    return {s: names(game.hand(s)) for s in range(game.seats) if game.in_round[s]}


def find(
    ruleset: Ruleset | str, seats: int, pred: Callable[[Game], bool], seeds: range = range(3000)
) -> Game:
    """The first game over ``seeds`` that satisfies ``pred``; fails when none does."""
    for seed in seeds:
        game = Game.new(seats=seats, ruleset=ruleset, seed=seed)
        if pred(game):
            return game
    pytest.fail(f"no seed in {seeds} gives the wanted deal")


def deck_counter(ruleset: Ruleset) -> Counter:
    return Counter({str(Card.from_id(c)): k for c, k in ruleset.composition().items()})


def table_counter(game: Game) -> Counter:
    doc = game.to_position()
    cards = [c for h in doc["hands"] for c in h] + doc["draw"] + doc["discard"] + doc["set_aside"]
    return Counter(cards)


def random_play(game: Game, rnd: random.Random, rounds: int, max_actions: int = 60000) -> None:
    """Play with random legal actions until ``rounds`` rounds have ended or the match is over."""
    for _ in range(max_actions):
        if game.is_over():
            return
        if game.phase is Phase.ROUND_OVER:
            if game.round_no >= rounds:
                return
            game.next_round()
            continue
        game.play(rnd.choice(list(game.legal_actions)), game.active_seat)
    pytest.fail("the random game did not finish its rounds")


def classic_rank(card: Card) -> int:
    """SET-2: a number card counts its number, every other card zero."""
    return int(card.rank) if card.is_number else 0


# --------------------------------------------------------------------------------------------
# GEN-4: determinism


def _random_match(ruleset: str, seats: int, seed: int, policy_seed: int, actions: int) -> Game:
    game = Game.new(seats=seats, ruleset=ruleset, seed=seed)
    rnd = random.Random(policy_seed)
    for _ in range(actions):
        if game.is_over():
            break
        if game.phase is Phase.ROUND_OVER:
            game.next_round()
            continue
        legal = list(game.legal_actions)
        game.play(legal[rnd.randrange(len(legal))], game.active_seat)
    return game


@pytest.mark.rule("GEN-4")
@pytest.mark.parametrize(
    ("ruleset", "seats", "seed"),
    [("official", 4, 7), ("official-112-shuffle", 3, 8), ("house", 5, 9), ("no-mercy", 4, 10)],
)
def test_same_seed_and_decisions_give_the_same_game(ruleset: str, seats: int, seed: int) -> None:
    a = _random_match(ruleset, seats, seed, policy_seed=1, actions=1500)
    b = _random_match(ruleset, seats, seed, policy_seed=1, actions=1500)
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
    assert a.to_position() == b.to_position()
    assert a.actions == b.actions
    # the game went through reshuffles and more than one round, so the RNG was used after the deal
    assert a.round_no >= 2 or any(e.type == "reshuffled" for e in a.events)


@pytest.mark.rule("GEN-4")
def test_replaying_the_actions_from_the_seed_rebuilds_the_game() -> None:
    a = _random_match("official", 3, 21, policy_seed=5, actions=800)
    b = Game.new(seats=3, ruleset="official", seed=21)
    for seat, action in a.actions:  # a deal is an entry of the log, by no seat
        b.play(action, seat)
    assert b.to_position() == a.to_position()
    assert [e.to_dict() for e in b.events] == [e.to_dict() for e in a.events]
    # the record (ruleset, seats, seed, actions) through JSON gives the same game too
    again = replay(Record.from_json(Record.from_game(a).to_json()))
    assert again.to_position() == a.to_position()


@pytest.mark.rule("GEN-4")
@pytest.mark.parametrize(("ruleset", "seats", "seed"), [("official", 4, 31), ("no-mercy", 3, 32)])
def test_fast_path_and_no_events_give_the_same_game(ruleset: str, seats: int, seed: int) -> None:
    # events=False and apply_unchecked must not use the RNG differently from the checked path
    checked = Game.new(seats=seats, ruleset=ruleset, seed=seed)
    fast = Game.new(seats=seats, ruleset=ruleset, seed=seed, events=False)
    assert fast.events == []
    rnd = random.Random(seed)
    for _ in range(1200):
        if checked.is_over():
            break
        if checked.phase is Phase.ROUND_OVER:
            checked.next_round()
            fast.next_round()
        else:
            action = rnd.choice(list(checked.legal_actions))
            checked.play(action, checked.active_seat)
            fast.apply_unchecked(action)
        assert fast.to_position() == checked.to_position()
    assert checked.round_no >= 2


@pytest.mark.rule("GEN-4")
def test_the_seed_decides_the_deal() -> None:
    deals = {}
    for seed in range(20):
        one = Game.new(seats=4, seed=seed)
        two = Game.new(seats=4, seed=seed)
        assert one.to_position() == two.to_position()
        assert [e.to_dict() for e in one.events] == [e.to_dict() for e in two.events]
        deals[seed] = tuple(tuple(names(one.hand(s))) for s in range(4))
    assert len(set(deals.values())) == 20  # different seeds: different deals


@pytest.mark.rule("GEN-4")
def test_reshuffle_order_comes_from_the_position_rng() -> None:
    doc = {"hands": [["G1", "G2"], ["B5", "B6"]], "discard": ["R3"], "draw": [], "seed": 77}
    one, two = Game.from_position(doc), Game.from_position(doc)
    one.play("draw")
    two.play("draw")
    assert one.to_position() == two.to_position()
    # a copy carries the RNG state: it reshuffles the same way as the original
    three = Game.from_position(doc)
    four = three.copy()
    three.play("draw")
    four.play("draw")
    assert three.hand(0) == four.hand(0) == one.hand(0)
    # another seed reshuffles the 104-card pool differently
    other = Game.from_position({**doc, "seed": 78})
    other.play("draw")
    assert other.to_position()["draw"] != one.to_position()["draw"]


# --------------------------------------------------------------------------------------------
# SET-1: seat counts


@pytest.mark.rule("SET-1")
def test_classic_allows_2_to_10_seats() -> None:
    for seats in range(2, 11):
        game = Game.new(seats=seats, ruleset="official", seed=1)
        assert game.seats == seats
        assert game.hand_sizes.count(0) == 0
    for seats in (0, 1, 11, 12):
        with pytest.raises(RulesetError):
            Game.new(seats=seats, ruleset="official", seed=1)


@pytest.mark.rule("SET-1")
def test_no_mercy_allows_2_to_6_seats_unless_max_seats_raises_it() -> None:
    for seats in range(2, 7):
        assert Game.new(seats=seats, ruleset="no-mercy", seed=2).seats == seats
    for seats in (1, 7, 10):
        with pytest.raises(RulesetError):
            Game.new(seats=seats, ruleset="no-mercy", seed=2)
    wide = NO_MERCY.replace(max_seats=10)
    assert Game.new(seats=10, ruleset=wide, seed=2).seats == 10
    with pytest.raises(RulesetError):
        Game.new(seats=11, ruleset=wide, seed=2)


@pytest.mark.rule("SET-1")
def test_partnership_needs_4_6_8_or_10_seats() -> None:
    for seats in (4, 6, 8, 10):
        assert Game.new(seats=seats, ruleset="partners", seed=3).seats == seats
    for seats in (2, 3, 5, 7, 9, 11):
        with pytest.raises(RulesetError):
            Game.new(seats=seats, ruleset="partners", seed=3)


@pytest.mark.rule("SET-1")
def test_max_seats_lowers_the_limit() -> None:
    assert Game.new(seats=2, ruleset="two-player", seed=4).seats == 2
    with pytest.raises(RulesetError):
        Game.new(seats=3, ruleset="two-player", seed=4)
    small = OFFICIAL.replace(max_seats=4)
    assert Game.new(seats=4, ruleset=small, seed=4).seats == 4
    with pytest.raises(RulesetError):
        Game.new(seats=5, ruleset=small, seed=4)


# --------------------------------------------------------------------------------------------
# SET-2: choosing the first dealer


def _check_dealer_draws(game: Game) -> list[list[tuple[int, Card]]]:
    """Check DealerChosen against SET-2; return the draws grouped by round of drawing."""
    (chosen,) = of(game, DealerChosen)
    draws = list(chosen.draws)
    contenders = list(range(game.seats))
    rounds = []
    while len(contenders) > 1:
        batch, draws = draws[: len(contenders)], draws[len(contenders):]
        assert [s for s, _ in batch] == contenders  # the (tied) seats draw in seat order
        rounds.append(batch)
        best = max(classic_rank(c) for _, c in batch)
        contenders = [s for s, c in batch if classic_rank(c) == best]
    assert draws == []  # no draw after a single highest seat
    assert chosen.dealer == contenders[0] == game.dealer
    assert of(game, RoundStarted)[0].dealer == game.dealer
    return rounds


@pytest.mark.rule("SET-2")
@pytest.mark.parametrize("ruleset", ["official", "official-112-blank", "no-mercy"])
def test_highest_number_deals_and_ties_redraw(ruleset: str) -> None:
    redraws = 0
    for seed in range(200):
        seats = 2 + seed % 5
        game = Game.new(seats=seats, ruleset=ruleset, seed=seed)
        rounds = _check_dealer_draws(game)
        redraws += len(rounds) > 1
    assert redraws > 10  # ties happened and were redrawn


@pytest.mark.rule("SET-2")
def test_action_and_wild_cards_count_zero() -> None:
    # a Skip/Wild/... ties with a 0: both count zero, so the two seats draw again
    def zero_tie(game: Game) -> bool:
        first = of(game, DealerChosen)[0].draws[:2]
        kinds = sorted(c.is_number for _, c in first)
        return kinds == [False, True] and all(classic_rank(c) == 0 for _, c in first)

    game = find("official", 2, zero_tie)
    rounds = _check_dealer_draws(game)
    assert len(rounds) >= 2
    # a 1 beats any action or wild card
    def one_beats_action(game: Game) -> bool:
        first = of(game, DealerChosen)[0].draws[:2]
        return sorted(str(c.rank.code) for _, c in first if c.is_number) == ["1"] and len(
            of(game, DealerChosen)[0].draws) == 2

    game = find("official", 2, one_beats_action)
    (chosen,) = of(game, DealerChosen)
    winner = next(s for s, c in chosen.draws if c.is_number)
    assert game.dealer == winner


@pytest.mark.rule("SET-2")
def test_dealer_draws_are_the_top_cards_of_a_shuffled_full_deck() -> None:
    # the seeded RNG (rng.py: Fisher-Yates from the end; the top is the end of the list)
    for seed in range(30):
        seats = 3 + seed % 4
        game = Game.new(seats=seats, ruleset="official", seed=seed)
        rng = Rng(seed)
        pile = OFFICIAL.deck_ids()
        rng.shuffle(pile)
        (chosen,) = of(game, DealerChosen)
        expected = [Card.from_id(pile[-1 - i]) for i in range(len(chosen.draws))]
        assert [c for _, c in chosen.draws] == expected


@pytest.mark.rule("SET-2")
def test_all_dealer_cards_go_back_into_the_deck() -> None:
    for seed in range(40):
        game = Game.new(seats=2 + seed % 9, ruleset="official", seed=seed)
        assert len(of(game, DealerChosen)[0].draws) >= game.seats
        assert table_counter(game) == deck_counter(OFFICIAL)


@pytest.mark.rule("SET-2")
def test_seat0_dealer_selection() -> None:
    rules = OFFICIAL.replace(dealer_selection="seat0")
    for seed in range(30):
        game = Game.new(seats=5, ruleset=rules, seed=seed)
        assert game.dealer == 0
        assert of(game, DealerChosen) == []
        assert of(game, RoundStarted)[0].dealer == 0
        assert list(dealt(game)) == [1, 2, 3, 4, 0]


# --------------------------------------------------------------------------------------------
# SET-3: the dealer moves left each round


@pytest.mark.rule("SET-3")
@pytest.mark.parametrize(
    ("ruleset", "seats", "seed"), [("official", 3, 1), ("official", 5, 2), ("no-mercy", 4, 3)]
)
def test_dealer_moves_left_every_round(ruleset: str, seats: int, seed: int) -> None:
    game = Game.new(seats=seats, ruleset=ruleset, seed=seed)
    random_play(game, random.Random(seed), rounds=4)
    starts = of(game, RoundStarted)
    assert len(starts) >= 3
    dealers = [e.dealer for e in starts]
    assert dealers == [(dealers[0] + i) % seats for i in range(len(starts))]
    # every new round starts with every seat in the round (knocked-out seats are back)
    assert all(all(e.in_round) for e in starts)


def _over_position(ruleset: Ruleset, dealer: int, n: int = 4, **kw) -> dict:
    """A position where a round has just ended (cards all in the discard pile)."""
    doc = {
        "ruleset": ruleset.to_dict(),
        "hands": [[] for _ in range(n)],
        "discard": ["R5"],
        "phase": "round_over",
        "dealer": dealer,
        "active": dealer,
    }
    doc.update(kw)
    return doc


@pytest.mark.rule("SET-3", "SET-4", "SET-5")
def test_next_dealer_skips_eliminated_seats() -> None:
    rules = OFFICIAL.replace(scoring="elimination")
    for seed in range(40):
        doc = _over_position(rules, 1, eliminated=[2], seed=seed, scores=[10, 20, 600, 30])
        game = Game.from_position(doc)
        game.next_round()
        assert game.dealer == 3
        start = of(game, RoundStarted)[-1]
        assert start.dealer == 3 and start.in_round == (True, True, False, True)
        assert list(dealt(game)) == [0, 1, 3]  # from the dealer's left, skipping seat 2
        assert all(len(cards) == 7 for cards in dealt(game).values())
        assert game.hand(2) == ()
        if first_card(game).is_number:  # SET-5: next(dealer) plays first
            assert (game.active_seat, game.direction, game.phase) == (0, 1, Phase.PLAY)
    # the seat left of the dealer is eliminated: the deal passes to the one after it
    game = Game.from_position(_over_position(rules, 3, eliminated=[0], scores=[600, 0, 0, 0]))
    game.next_round()
    assert game.dealer == 1
    assert list(dealt(game)) == [2, 3, 1]


@pytest.mark.rule("SET-3")
def test_knocked_out_seats_are_back_in_the_next_round() -> None:
    game = Game.from_position(_over_position(NO_MERCY, 0, knocked_out=[1, 3], discard=["R5"]))
    assert game.in_round == (True, False, True, False)
    game.next_round()
    assert game.dealer == 1
    assert game.in_round == (True, True, True, True)
    assert of(game, RoundStarted)[-1].in_round == (True, True, True, True)
    assert list(dealt(game)) == [2, 3, 0, 1]
    assert game.hand_sizes == (7, 7, 7, 7)


@pytest.mark.rule("SET-3")
def test_next_round_is_refused_while_a_round_is_on() -> None:
    game = Game.new(seats=3, seed=5)
    before = game.to_position()
    with pytest.raises(IllegalActionError):
        game.next_round()
    assert game.to_position() == before


# --------------------------------------------------------------------------------------------
# SET-4: the deal


@pytest.mark.rule("SET-4")
@pytest.mark.parametrize("ruleset", ["official", "official-112-swap", "no-mercy"])
def test_seven_cards_each_from_the_dealers_left(ruleset: str) -> None:
    rules = Ruleset.preset(ruleset)
    size = sum(rules.composition().values())
    for seed in range(60):
        seats = 2 + seed % (5 if rules.deck.is_no_mercy else 9)
        game = Game.new(seats=seats, ruleset=rules, seed=seed)
        d = game.dealer
        hands_dealt = dealt(game)
        assert list(hands_dealt) == [(d + 1 + i) % seats for i in range(seats)]
        assert all(len(cards) == 7 for cards in hands_dealt.values())
        # the rest forms the draw pile (less the first card(s) turned up and a first-card Draw Two)
        drawn = sum(e.count for e in of(game, Drew))
        assert sum(game.hand_sizes) == 7 * seats + drawn
        assert game.draw_pile_size == size - 7 * seats - drawn - len(game.discard_pile)
        if not rules.deck.is_no_mercy:
            assert len(game.discard_pile) == 1


@pytest.mark.rule("SET-4", "SET-5")
def test_deal_is_one_card_at_a_time_from_the_top_of_the_shuffled_deck() -> None:
    rules = OFFICIAL.replace(dealer_selection="seat0")
    checked = 0
    for seed in range(40):
        seats = 2 + seed % 9
        game = Game.new(seats=seats, ruleset=rules, seed=seed)
        deck = rules.deck_ids()
        Rng(seed).shuffle(deck)  # the top of the pile is the end of the list
        top = deck[::-1]
        order = [(1 + i) % seats for i in range(seats)]
        hands_dealt = dealt(game)
        for i, seat in enumerate(order):
            assert hands_dealt[seat] == [str(Card.from_id(top[k * seats + i])) for k in range(7)]
        turned = Card.from_id(top[7 * seats])
        if turned.rank is Rank.WILD_DRAW_FOUR:
            continue
        checked += 1
        # SET-5: the next card of the draw pile is turned up; the rest stays in order
        assert of(game, FirstCard) == [FirstCard(turned)]
        assert game.discard_pile == (turned,)
        drawn = sum(e.count for e in of(game, Drew))  # a first-card Draw Two takes two more
        assert game.to_position()["draw"] == [str(Card.from_id(c)) for c in top[7 * seats + 1 + drawn:]]
    assert checked > 30


@pytest.mark.rule("SET-4")
def test_every_round_reshuffles_the_whole_deck() -> None:
    game = Game.new(seats=4, ruleset="official", seed=12)
    random_play(game, random.Random(3), rounds=1)
    assert game.phase is Phase.ROUND_OVER
    old = game.to_position()
    game.next_round()
    assert game.round_no == 2
    assert table_counter(game) == deck_counter(OFFICIAL)
    assert all(len(cards) == 7 for cards in dealt(game).values())
    assert len(game.discard_pile) == 1
    assert game.to_position()["draw"] != old["draw"]


# --------------------------------------------------------------------------------------------
# SET-5, SET-6: the first card and the first player


@pytest.mark.rule("SET-5", "SET-6")
@pytest.mark.parametrize("ruleset", ["official", "official-112-shuffle", "two-player"])
def test_number_first_card_next_of_dealer_plays_normally(ruleset: str) -> None:
    found = 0
    for seed in range(150):
        seats = 2 if ruleset == "two-player" else 2 + seed % 9
        game = Game.new(seats=seats, ruleset=ruleset, seed=seed)
        card = first_card(game)
        if not card.is_number:
            continue
        found += 1
        assert game.direction == 1
        assert game.active_seat == (game.dealer + 1) % seats
        assert game.phase is Phase.PLAY
        assert game.current_color == card.color
        assert game.pending_penalty == 0
        assert hands(game) == dealt(game)
        assert of(game, Skipped) == of(game, DirectionChanged) == of(game, PenaltyPending) == []
        legal = game.legal_actions
        assert "draw" in legal
        for c in game.hand(game.active_seat):
            matches = c.is_wild or c.color == card.color or c.rank == card.rank
            assert any(getattr(a, "card", None) == c for a in legal) == matches
    assert found > 80


@pytest.mark.rule("SET-5")
def test_every_round_starts_clockwise() -> None:
    found = 0
    for seed in range(40):
        game = Game.from_position(_over_position(OFFICIAL, 2, direction=-1, seed=seed))
        assert game.direction == -1
        game.next_round()
        if first_card(game).is_number:
            found += 1
            assert game.direction == 1
            assert game.dealer == 3
            assert game.active_seat == 0
    assert found > 20


@pytest.mark.rule("SET-6")
@pytest.mark.parametrize("number", [7, 0])
def test_seven_zero_first_card_has_no_effect(number: int) -> None:
    game = find(
        "house", 4, lambda g: first_card(g).is_number and first_card(g).rank == number, range(2000)
    )
    assert game.ruleset.seven_zero
    assert hands(game) == dealt(game)
    assert of(game, HandsSwapped) == of(game, HandsPassed) == []
    assert game.active_seat == (game.dealer + 1) % 4
    assert game.phase is Phase.PLAY
    assert game.hand_sizes == (7, 7, 7, 7)


# --------------------------------------------------------------------------------------------
# SET-7 to SET-9: first card Skip, Reverse, Draw Two (three or more seats)


def _check_each(ruleset: Ruleset | str, rank: Rank, check: Callable[[Game], None], need: int = 5) -> None:
    found = 0
    for seed in range(1500):
        seats = 3 + seed % 8
        game = Game.new(seats=seats, ruleset=ruleset, seed=seed)
        if first_card(game).rank is rank:
            check(game)
            found += 1
    assert found >= need


@pytest.mark.rule("SET-7")
def test_first_card_skip_skips_the_first_player() -> None:
    def check(game: Game) -> None:
        n, d = game.seats, game.dealer
        first = (d + 1) % n
        assert of(game, Skipped) == [Skipped(first)]
        assert game.active_seat == (first + 1) % n
        assert (game.direction, game.phase) == (1, Phase.PLAY)
        assert hands(game) == dealt(game)
        assert game.current_color == first_card(game).color

    _check_each("official", Rank.SKIP, check)


@pytest.mark.rule("SET-8")
def test_first_card_reverse_dealer_starts_to_the_right() -> None:
    def check(game: Game) -> None:
        assert of(game, DirectionChanged) == [DirectionChanged(-1)]
        assert game.direction == -1
        assert game.active_seat == game.dealer
        assert game.phase is Phase.PLAY
        assert hands(game) == dealt(game)
        # play goes on to the dealer's right
        card = next(a for a in game.legal_actions if str(a) == "draw")
        game.play(card)
        if game.phase is Phase.PLAY_DRAWN:
            game.play("pass")
        assert game.active_seat == (game.dealer - 1) % game.seats

    _check_each("official", Rank.REVERSE, check)


@pytest.mark.rule("SET-9")
@pytest.mark.parametrize(
    "rules",
    [
        OFFICIAL,
        OFFICIAL.replace(stacking="same_kind", bounce_draw_two=True, defend_wd4_with_draw_two=True),
        OFFICIAL.replace(stacking="by_value"),
    ],
    ids=["official", "stack-bounce-defend", "by-value"],
)
def test_first_card_draw_two_is_drawn_at_once(rules: Ruleset) -> None:
    held_d2 = 0

    def check(game: Game) -> None:
        nonlocal held_d2
        n, d = game.seats, game.dealer
        first = (d + 1) % n
        before = dealt(game)[first]
        assert of(game, Drew) == [Drew(first, 2, "penalty")]
        assert len(game.hand(first)) == 9
        assert names(game.hand(first))[:7] == before
        assert game.active_seat == (first + 1) % n
        assert game.phase is Phase.PLAY
        assert game.pending_penalty == 0
        assert game.direction == 1
        held_d2 += any(c.rank is Rank.DRAW_TWO for c in names_to_cards(before))

    _check_each(rules, Rank.DRAW_TWO, check)
    if rules.stacking.value != "none":
        assert held_d2 > 0  # a first player that could have stacked still drew


@pytest.mark.rule("SET-7", "SET-8", "SET-9")
def test_first_card_effects_skip_seats_out_of_the_round() -> None:
    # 5 seats, seat 3 eliminated; the last dealer was 1, so 2 deals and next(2) is 4
    rules = OFFICIAL.replace(scoring="elimination")
    seen: Counter = Counter()
    for seed in range(400):
        doc = _over_position(rules, 1, n=5, eliminated=[3], seed=seed, scores=[0, 0, 0, 600, 0])
        game = Game.from_position(doc)
        game.next_round()
        assert game.dealer == 2
        rank = first_card(game).rank
        if rank is Rank.SKIP:  # SET-7: 4 is skipped, 0 plays
            assert of(game, Skipped) == [Skipped(4)]
            assert game.active_seat == 0
        elif rank is Rank.REVERSE:  # SET-8: the dealer plays, then 1 (to its right)
            assert (game.active_seat, game.direction) == (2, -1)
            game.play("draw")
            if game.phase is Phase.PLAY_DRAWN:
                game.play("pass")
            assert game.active_seat == 1
        elif rank is Rank.DRAW_TWO:  # SET-9: 4 draws two, 0 plays
            assert of(game, Drew) == [Drew(4, 2, "penalty")]
            assert game.hand_sizes == (7, 7, 7, 0, 9)
            assert game.active_seat == 0
        else:
            continue
        seen[rank] += 1
        assert game.phase is Phase.PLAY
    assert min(seen[r] for r in (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO)) >= 2


def names_to_cards(cards: list[str]) -> list[Card]:
    return [Card.parse(c) for c in cards]


# --------------------------------------------------------------------------------------------
# SET-10: a first-card Wild Draw Four goes back


@pytest.mark.rule("SET-10")
def test_first_card_wd4_goes_back_and_a_new_card_is_turned() -> None:
    found = 0
    for seed in range(1500):
        seats = 2 + seed % 9
        game = Game.new(seats=seats, ruleset="official", seed=seed)
        turned = of(game, FirstCard)
        assert not turned[-1].returned
        assert turned[-1].card.rank is not Rank.WILD_DRAW_FOUR
        assert all(e.returned and e.card.rank is Rank.WILD_DRAW_FOUR for e in turned[:-1])
        assert game.top_card.rank is not Rank.WILD_DRAW_FOUR
        if len(turned) > 1:
            found += 1
            assert len(game.discard_pile) == 1
            # the WD4 went back into the draw pile
            assert game.draw_pile_size == 108 - sum(game.hand_sizes) - 1
            assert game.to_position()["draw"].count("W4") == 4 - sum(
                names(game.hand(s)).count("W4") for s in range(seats))
    assert found >= 5


@pytest.mark.rule("SET-10")
def test_redraw_option_sends_back_every_wild() -> None:
    rules = OFFICIAL.replace(first_card_wild="redraw")
    returned = Counter()
    for seed in range(1500):
        game = Game.new(seats=4, ruleset=rules, seed=seed)
        turned = of(game, FirstCard)
        assert not game.top_card.is_wild
        assert game.phase is not Phase.CHOOSE_COLOR
        assert all(e.returned and e.card.is_wild for e in turned[:-1])
        returned.update(str(e.card) for e in turned[:-1])
        assert game.draw_pile_size == 108 - sum(game.hand_sizes) - 1
    assert returned["W"] > 0 and returned["W4"] > 0
    # the 112-card editions' special wilds are sent back too
    rules = Ruleset.preset("official-112-blank").replace(first_card_wild="redraw")
    game = find(rules, 3, lambda g: any(e.returned and str(e.card) == "WB" for e in of(g, FirstCard)))
    assert not game.top_card.is_wild


# --------------------------------------------------------------------------------------------
# SET-11, SET-12: a first-card wild


def _first_is(code: str) -> Callable[[Game], bool]:
    return lambda g: str(first_card(g)) == code


@pytest.mark.rule("SET-11")
def test_first_card_wild_first_player_names_the_color() -> None:
    game = find("official", 4, _first_is("W"))
    first = (game.dealer + 1) % 4
    assert game.phase is Phase.CHOOSE_COLOR
    assert game.active_seat == first
    assert game.current_color is None
    assert names(game.legal_actions) == ["color:R", "color:Y", "color:G", "color:B"]
    assert all(not game.legal_actions_for(s) for s in range(4) if s != first)
    before = game.to_position()
    # only the color choice is accepted: no play, no draw, no pass, no target, no other seat
    some_card = str(game.hand(first)[0])
    for action, error in [
        (some_card if not game.hand(first)[0].is_wild else some_card + ":R", IllegalActionError),
        ("draw", IllegalActionError),
        ("pass", IllegalActionError),
        ("color:R>2", IllegalActionError),
    ]:
        with pytest.raises(error):
            game.play(action)
        assert game.to_position() == before
    with pytest.raises(NotYourTurnError):
        game.play("color:R", (first + 1) % 4)
    assert game.to_position() == before
    events = game.play("color:G")
    assert events == [ColorChosen(first, Color.GREEN)]
    assert game.current_color is Color.GREEN
    # then it takes its turn normally
    assert (game.phase, game.active_seat) == (Phase.PLAY, first)
    assert "draw" in game.legal_actions
    assert hands(game) == dealt(game)


@pytest.mark.rule("SET-11")
@pytest.mark.parametrize(
    ("ruleset", "code"),
    [
        ("official-112-swap", "WS"),
        ("official-112-shuffle", "WX"),
        ("official-112-shuffle", "WC"),
        ("official-112-blank", "WB"),
    ],
)
def test_special_first_wild_acts_as_a_plain_wild(ruleset: str, code: str) -> None:
    rules = Ruleset.preset(ruleset)
    if code in ("WC", "WB"):  # even a custom effect that would make others draw does not happen
        rules = rules.replace(custom_effect="others_draw_2")
    game = find(rules, 3, _first_is(code), range(6000))
    first = (game.dealer + 1) % 3
    assert (game.phase, game.active_seat) == (Phase.CHOOSE_COLOR, first)
    assert names(game.legal_actions) == ["color:R", "color:Y", "color:G", "color:B"]
    draw_before = game.draw_pile_size
    game.play("color:B")
    assert game.current_color is Color.BLUE
    assert (game.phase, game.active_seat) == (Phase.PLAY, first)
    assert hands(game) == dealt(game)
    assert game.draw_pile_size == draw_before
    assert of(game, HandsSwapped) == of(game, HandsShuffled) == of(game, Drew) == []


@pytest.mark.rule("SET-11")
def test_first_card_wild_from_a_position() -> None:
    doc = {
        "hands": [["R1", "G2"], ["B3", "Y4"], ["G5"]],
        "discard": ["W"],
        "color": None,
        "phase": "choose_color",
        "active": 1,
        "dealer": 0,
        "color_for": "first_card",
    }
    game = Game.from_position(doc)
    before = game.to_position()
    with pytest.raises(IllegalActionError):
        game.play("B3")
    assert game.to_position() == before
    game.play("color:Y")
    assert (game.current_color, game.phase, game.active_seat) == (Color.YELLOW, Phase.PLAY, 1)
    assert names(game.legal_actions) == ["Y4", "Y4!", "draw"]
    game.play("Y4")
    assert game.active_seat == 2


@pytest.mark.rule("SET-12")
def test_first_card_swap_effect_swaps_before_the_first_turn() -> None:
    rules = Ruleset.preset("official-112-swap").replace(first_card_swap_effect=True)
    game = find(rules, 4, _first_is("WS"), range(6000))
    first = (game.dealer + 1) % 4
    others = [s for s in range(4) if s != first]
    assert game.phase is Phase.CHOOSE_COLOR
    assert sorted(names(game.legal_actions)) == sorted(f"color:{c}>{t}" for c in "RYGB" for t in others)
    before = game.to_position()
    for bad in ("color:R", f"color:R>{first}"):
        with pytest.raises((IllegalActionError, InvalidActionError)):
            game.play(bad)
        assert game.to_position() == before
    target = others[1]
    mine, theirs = names(game.hand(first)), names(game.hand(target))
    game.play(f"color:R>{target}")
    assert names(game.hand(first)) == theirs
    assert names(game.hand(target)) == mine
    assert of(game, HandsSwapped) == [HandsSwapped(first, target)]
    assert (game.current_color, game.phase, game.active_seat) == (Color.RED, Phase.PLAY, first)


@pytest.mark.rule("SET-12")
def test_first_card_swap_effect_from_a_position_and_off_by_default() -> None:
    base = {
        "hands": [["R1", "G2"], ["B3", "Y4", "Y5"], ["G6"]],
        "discard": ["WS"],
        "color": None,
        "phase": "choose_color",
        "active": 1,
        "color_for": "first_card",
    }
    on = Game.from_position({**base, "ruleset": Ruleset.preset("official-112-swap").replace(
        first_card_swap_effect=True).to_dict()})
    assert "color:G>2" in on.legal_actions and "color:G" not in on.legal_actions
    on.play("color:G>2")
    assert names(on.hand(1)) == ["G6"] and names(on.hand(2)) == ["B3", "Y4", "Y5"]
    assert (on.active_seat, on.phase, on.current_color) == (1, Phase.PLAY, Color.GREEN)
    off = Game.from_position({**base, "ruleset": "official-112-swap"})
    assert "color:G>2" not in off.legal_actions and "color:G" in off.legal_actions
    before = off.to_position()
    with pytest.raises(IllegalActionError):
        off.play("color:G>2")
    assert off.to_position() == before
    off.play("color:G")
    assert names(off.hand(1)) == ["B3", "Y4", "Y5"]


# --------------------------------------------------------------------------------------------
# SET-13: No Mercy's first card


@pytest.mark.rule("SET-13")
def test_no_mercy_turns_until_a_number_and_keeps_the_others() -> None:
    stacked = 0
    for seed in range(400):
        seats = 2 + seed % 5
        game = Game.new(seats=seats, ruleset="no-mercy", seed=seed)
        turned = [e.card for e in of(game, FirstCard)]
        assert not any(e.returned for e in of(game, FirstCard))
        assert all(not c.is_number for c in turned[:-1])
        assert turned[-1].is_number
        assert list(game.discard_pile) == turned  # the skipped cards stay, bottom first
        assert game.top_card == turned[-1]
        assert game.current_color == turned[-1].color
        # no effect of any kind; SET-5 gives the first player
        assert (game.phase, game.direction, game.pending_penalty) == (Phase.PLAY, 1, 0)
        assert game.active_seat == (game.dealer + 1) % seats
        assert hands(game) == dealt(game)
        assert game.draw_pile_size == 168 - 7 * seats - len(turned)
        stacked += len(turned) > 1
    assert stacked > 40


@pytest.mark.rule("SET-13")
@pytest.mark.parametrize(
    "wanted",
    [
        lambda cards: cards[-1].rank == 7,
        lambda cards: cards[-1].rank == 0,
        lambda cards: any(c.is_draw_card for c in cards[:-1]),
        lambda cards: any(c.rank is Rank.WILD_COLOR_ROULETTE for c in cards[:-1]),
        lambda cards: any(c.rank in (Rank.SKIP, Rank.SKIP_EVERYONE, Rank.REVERSE) for c in cards[:-1]),
        lambda cards: any(c.rank is Rank.WILD_REVERSE_DRAW_FOUR for c in cards[:-1]),
    ],
    ids=["seven", "zero", "draw-card", "roulette", "skip-reverse", "wrd4"],
)
def test_no_mercy_first_cards_never_have_an_effect(wanted: Callable[[list[Card]], bool]) -> None:
    game = find("no-mercy", 4, lambda g: wanted([e.card for e in of(g, FirstCard)]))
    assert hands(game) == dealt(game)
    assert game.hand_sizes == (7, 7, 7, 7)
    assert game.active_seat == (game.dealer + 1) % 4
    assert (game.phase, game.direction, game.pending_penalty) == (Phase.PLAY, 1, 0)
    for kind in (Skipped, DirectionChanged, PenaltyPending, Drew, Revealed, HandsSwapped, HandsPassed):
        assert of(game, kind) == []
