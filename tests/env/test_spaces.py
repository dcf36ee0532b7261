"""The action and observation layouts of unotable.env.spaces (pure Python, the native core's reference).

Random positions come from rounds played by a seeded random policy that also takes out-of-turn
chances (calls, catches, jump-ins), under every preset and every seat count it allows.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from unotable import Card, Game, Ruleset
from unotable.actions import Action, Catch, ChooseColor, Play
from unotable.arbiter import offer_order
from unotable.env import spaces
from unotable.env.fast import encode_game
from unotable.env.spaces import (
    NOOP,
    NUM_ACTIONS,
    OBS_SIZE,
    History,
    action_at,
    decode_legal,
    encode,
    index_of,
    legal_mask,
)
from unotable.errors import IllegalActionError, InvalidActionError
from unotable.phase import Phase
from unotable.rules import PRESET_NAMES


def seat_counts(preset: str) -> list[int]:
    return list(Ruleset.preset(preset).seat_counts)


CASES = [(p, n) for p in PRESET_NAMES for n in seat_counts(p)]


def push(history: History, game: Game, seat: int, action: Action) -> None:
    top = game.top_card.id
    color = -1 if game.current_color is None else int(game.current_color)
    history.push(seat, action, top, color)


def positions(preset: str, n: int, seed: int, max_actions: int = 400) -> Iterator[tuple[Game, History]]:
    """Every position of one seeded round (and the next deal), with the public history."""
    rng = random.Random(seed)
    game = Game.new(seats=n, ruleset=preset, seed=seed)
    history = History(n)
    for _ in range(max_actions):
        if game.phase is Phase.MATCH_OVER:
            return
        if game.phase is Phase.ROUND_OVER:
            game.next_round()
            history.clear()
            continue
        yield game, history
        seat = game.active_seat
        for other in offer_order(game):
            if game.legal_actions_for(other) and rng.random() < 0.3:
                seat = other
                break
        legal = list(game.legal_actions_for(seat))
        action = rng.choice(legal)
        push(history, game, seat, action)
        game.play(action, seat)


@pytest.mark.parametrize(("preset", "n"), CASES)
def test_action_mapping_is_injective_and_round_trips(preset: str, n: int) -> None:
    lists = 0
    for game, _ in positions(preset, n, seed=1000 + n):
        for seat in range(n):
            legal = list(game.legal_actions_for(seat))
            if not legal:
                continue
            lists += 1
            indices = [index_of(a, seat, n) for a in legal]
            assert len(set(indices)) == len(indices), (seat, [str(a) for a in legal])
            for a, i in zip(legal, indices, strict=True):
                assert 0 <= i < NOOP
                assert action_at(i, seat, n) == a
                assert decode_legal(i, legal, seat, n) == a
            mask = legal_mask(legal, seat, n, decline=seat != game.active_seat)
            assert sum(mask) == len(legal) + (seat != game.active_seat)
    assert lists > 20


def test_every_index_decodes_to_a_distinct_action_or_is_refused() -> None:
    for n in (2, 4, 10):
        for seat in (0, n - 1):
            seen: dict[str, int] = {}
            for i in range(NUM_ACTIONS):
                try:
                    action = action_at(i, seat, n)
                except InvalidActionError:
                    continue
                assert index_of(action, seat, n) == i
                assert str(action) not in seen
                seen[str(action)] = i
            # every index is usable at ten seats except NOOP, which is no engine action
            if n == 10:
                assert len(seen) == NUM_ACTIONS - 1


def test_targets_are_relative_to_the_actor() -> None:
    red7 = Play(Card.parse("R7"), target=3)
    assert index_of(red7, seat=2, n=4) == index_of(Play(red7.card, target=2), seat=1, n=4)
    assert index_of(red7, seat=2, n=4) == index_of(Play(red7.card, target=0), seat=3, n=4)
    assert index_of(red7, seat=2, n=4) != index_of(Play(red7.card, target=0), seat=2, n=4)
    assert index_of(Catch(1), 0, 4) == spaces.CATCH_INDEX
    assert index_of(ChooseColor(spaces.Color.RED, 2), 1, 4) == spaces.COLOR_INDEX + 1


def test_bad_indices_raise_specific_errors() -> None:
    with pytest.raises(InvalidActionError, match="NOOP"):
        action_at(NOOP, 0, 4)
    with pytest.raises(InvalidActionError, match="0 to 444"):
        action_at(445, 0, 4)
    with pytest.raises(InvalidActionError, match="relative seat 5"):
        action_at(spaces.CATCH_INDEX + 4, 0, 4)
    game = Game.new(seats=2, seed=4)
    legal = list(game.legal_actions)
    illegal = next(i for i in range(NOOP) if all(index_of(a, game.active_seat, 2) != i for a in legal))
    with pytest.raises(IllegalActionError, match="not legal for seat"):
        decode_legal(illegal, legal, game.active_seat, 2)


@pytest.mark.parametrize(("preset", "n"), CASES)
def test_observation_fits_its_bounds(preset: str, n: int) -> None:
    for game, history in positions(preset, n, seed=2000 + n, max_actions=150):
        for seat in range(n):
            obs = encode(game.view(seat), history)
            assert len(obs) == OBS_SIZE
            assert sum(obs[spaces.HAND:spaces.HAND + 74]) == min(255, len(game.hand(seat)))
            assert sum(obs[spaces.PHASE:spaces.PHASE + 6]) == 1
            assert sum(obs[spaces.COLOR:spaces.COLOR + 5]) == 1
            assert obs[spaces.NUM_SEATS] == n
            # records beyond the seat count and the ruleset block's reserved tail stay zero
            assert not any(obs[spaces.SEATS_OFF + spaces.SEAT_RECORD * n:spaces.DISCARD_COUNTS])
            assert not any(obs[spaces.RULESET_OFF + 56:OBS_SIZE])
            own = spaces.SEATS_OFF
            assert obs[own] == 1 and obs[own + 1] == min(255, len(game.hand(seat)))
            # the environments' fast path writes the same bytes without building the view
            assert encode_game(game, seat, history) == obs


def _permuted(game: Game, seat: int, rng: random.Random) -> Game:
    """The same position with the cards ``seat`` cannot see dealt again at random: the other
    hands (each keeps its size), the draw pile and the set-aside pile."""
    doc: dict[str, Any] = game.to_position()
    hands: list[list[str]] = doc["hands"]
    keep: dict[int, list[str]] = {}
    if doc.get("phase") == "play_drawn" and doc["active"] != seat and doc.get("drawn"):
        keep[doc["active"]] = [doc["drawn"]]  # the drawer holds its drawn card
    pool: list[str] = []
    for s, hand in enumerate(hands):
        if s == seat:
            continue
        rest = list(hand)
        for c in keep.get(s, []):
            rest.remove(c)
        pool += rest
    pool += doc["draw"] + doc.get("set_aside", [])
    rng.shuffle(pool)
    for s, hand in enumerate(hands):
        if s == seat:
            continue
        size = len(hand) - len(keep.get(s, []))
        hands[s] = keep.get(s, []) + pool[:size]
        del pool[:size]
    k = len(doc["draw"])
    doc["draw"], doc["set_aside"] = pool[:k], pool[k:]
    if doc.get("wd4"):
        doc["wd4"]["hand"] = hands[doc["wd4"]["player"]]
    return Game.from_position(doc)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_observation_depends_only_on_what_the_seat_may_see(preset: str) -> None:
    rng = random.Random(7)
    checked = changed = 0
    for n in sorted({seat_counts(preset)[0], 4 if 4 in seat_counts(preset) else 2, seat_counts(preset)[-1]}):
        for i, (game, history) in enumerate(positions(preset, n, seed=3000 + n, max_actions=200)):
            if i % 3:
                continue
            for seat in range(n):
                other = _permuted(game, seat, rng)
                a, b = game.view(seat), other.view(seat)
                assert encode(a, history) == encode(b, history)
                assert encode_game(game, seat, history) == encode_game(other, seat, history)
                assert legal_mask(a.legal, seat, n) == legal_mask(b.legal, seat, n)
                checked += 1
                changed += any(other.hand(s) != game.hand(s) for s in range(n) if s != seat)
    assert checked > 50 and changed > checked // 2


def test_an_observation_changes_with_what_the_seat_sees() -> None:
    # the property above would hold for a constant encoder: the own hand and the history do count
    game = Game.new(seats=3, seed=9)
    h = History(3)
    before = encode(game.view(0), h)
    push(h, game, 1, game.legal_action_list(game.active_seat)[-1])
    assert encode(game.view(0), h) != before
    assert encode(game.view(0), History(3)) != encode(game.view(1), History(3))


def test_history_keeps_the_last_four_actions_newest_first() -> None:
    from unotable.actions import parse_action

    game = Game.new(seats=3, seed=3)
    h = History(3)
    for text in ("draw", "pass", "R5", "W4:G", "catch:2"):
        h.push(1, parse_action(text), top=10, color=2)
    assert [e[0] for e in h.entries[1]] == [spaces.H_CATCH, spaces.H_PLAY, spaces.H_PLAY, spaces.H_PASS]
    obs = encode(game.view(0), h)
    o = spaces.HISTORY_OFF + spaces.HISTORY_DEPTH * spaces.HISTORY_ENTRY * 1  # seat 1 is relative 1 of 0
    assert list(obs[o:o + 6]) == [spaces.H_CATCH, 0, 0, 3, 11, 3]  # catch:2 is relative seat 2, +1
    wd4 = Play(parse_action("W4").card, spaces.Color.GREEN)
    assert list(obs[o + 6:o + 12]) == [spaces.H_PLAY, wd4.cid + 1, 3, 0, 11, 3]
    seen_by_2 = encode(game.view(2), h)
    o2 = spaces.HISTORY_OFF + spaces.HISTORY_DEPTH * spaces.HISTORY_ENTRY * 2  # seat 1 is relative 2 of 2
    assert list(seen_by_2[o2:o2 + 6]) == [spaces.H_CATCH, 0, 0, 1, 11, 3]  # seat 2 caught: itself, rel 0
    h.clear()
    assert encode(game.view(0), h)[spaces.HISTORY_OFF:spaces.RULESET_OFF] == bytes(240)
