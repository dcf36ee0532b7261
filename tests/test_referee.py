"""The engine as a referee for networked play: error texts that leak nothing, error codes, the
append-only record, versioned events, client views, the explicit seat, default actions, the
arbiter, possible positions and the registry of bots."""
from __future__ import annotations

import json
import random
from dataclasses import fields
from typing import Any

import pytest

from unotable import (
    ALL,
    ERROR_CODES,
    Card,
    Event,
    EventType,
    Game,
    IllegalActionError,
    InvalidActionError,
    NotationError,
    NotYourTurnError,
    Phase,
    PositionError,
    Record,
    RecordError,
    Ruleset,
    RulesetError,
    UnoError,
    parse_action,
    replay,
)
from unotable import events as events_module
from unotable.agent import Agent, seat_rng
from unotable.arbiter import Arbiter, ArbiterError, offer_order
from unotable.bots import BotSpecError, make_bot, register, unregister
from unotable.bots.random_bot import RandomBot
from unotable.record import position_digest
from unotable.tui.driver import Table as TerminalTable
from unotable.version import RULES_VERSION

from scenario import make

FILLER = ["G5", "G6", "G7", "G8", "Y1", "Y2", "Y3", "Y4"]


# ------------------------------------------------------------------------------------------------
# defect 1: error texts are messages to the acting seat


@pytest.mark.rule("NET-5", "NET-6")
def test_a_rejected_action_does_not_tell_another_seat_the_drawn_card() -> None:
    g = make([["R1", "G2"], ["B1", "B2"], ["Y4", "Y5"]], ["R5"], draw=["R7", *FILLER])
    g.play("draw")
    assert g.phase is Phase.PLAY_DRAWN and g.drawn_card == Card.parse("R7")
    with pytest.raises(NotYourTurnError) as caught:
        g.play("draw", seat=1)
    assert "R7" not in str(caught.value)
    assert "drew a card it may play" in str(caught.value)
    # the seat that drew is told which card it may play
    with pytest.raises(IllegalActionError) as own:
        g.play("R1", seat=0)
    assert "only the drawn R7 may be played" in str(own.value)


# ------------------------------------------------------------------------------------------------
# error codes


def test_every_error_class_has_a_stable_code() -> None:
    assert {cls.code for cls in (NotationError, InvalidActionError, NotYourTurnError, IllegalActionError,
                                 RulesetError, RecordError, PositionError)} == set(ERROR_CODES)
    assert ERROR_CODES == ("notation", "invalid", "not_your_turn", "illegal", "ruleset", "record", "position")
    assert all(issubclass(cls, UnoError) for cls in (NotationError, PositionError))


@pytest.mark.parametrize(("call", "code"), [
    (lambda: parse_action("R77"), "notation"),
    (lambda: Game.new(3, seed=1).play("draw", seat=7), "invalid"),
    (lambda: Ruleset(stacking="sometimes"), "ruleset"),
    (lambda: Record.from_json("{}"), "record"),
    (lambda: Game.from_position({"hands": [["R1"], []], "discard": ["R2"]}), "position"),
])
def test_errors_carry_their_code(call: Any, code: str) -> None:
    with pytest.raises(UnoError) as caught:
        call()
    assert caught.value.code == code


# ------------------------------------------------------------------------------------------------
# the explicit seat


@pytest.mark.rule("NET-8")
def test_out_of_turn_actions_need_an_explicit_seat() -> None:
    g = make([["R1", "G2"], ["B1"], ["Y4", "Y5"]], ["R5"], draw=FILLER, exposed=[1])
    before = g.to_position()
    for action in ("uno", "catch:1"):
        with pytest.raises(InvalidActionError, match="name the seat"):
            g.play(action)
        assert g.to_position() == before
    g.play("catch:1", seat=0)
    assert g.hand_sizes[1] == 3


# ------------------------------------------------------------------------------------------------
# the append-only record


@pytest.mark.rule("GEN-4")
def test_a_deal_is_an_entry_of_the_action_log() -> None:
    g = Game.new(2, Ruleset.preset("official").replace(target_score=100), 5)
    rng = random.Random(5)
    while g.round_no < 3 and not g.is_over():
        if g.phase is Phase.ROUND_OVER:
            g.next_round()
        else:
            g.play(rng.choice(list(g.legal_actions)), g.active_seat)
    deals = [i for i, (seat, action) in enumerate(g.actions) if seat is None]
    assert len(deals) == g.round_no - 1 and all(str(g.actions[i][1]) == "deal" for i in deals)
    doc = Record.from_game(g).to_dict()
    assert [doc["actions"][i] for i in deals] == [[None, "deal"]] * len(deals)
    # a server stores the header once and one row per action, and rebuilds the game from them
    record = Record.from_game(g)
    rows = [[seat, str(action)] for seat, action in g.actions]
    again = replay(Record.from_parts(json.loads(json.dumps(record.header())), rows))
    assert again.to_position() == g.to_position() and again.events == g.events
    # a deal is the referee's: no seat may make it, and only once a round is over
    if g.phase is Phase.ROUND_OVER:
        with pytest.raises(InvalidActionError):
            g.play("deal", seat=0)
    else:
        with pytest.raises(IllegalActionError):
            g.play("deal")


@pytest.mark.rule("GEN-4")
def test_the_header_names_the_formats_and_the_start() -> None:
    g = Game.new(3, "house", 12)
    header = Record.from_game(g).header()
    assert header["format"] == "unotable-record" and header["version"] == 2
    assert header["rules_version"] == RULES_VERSION and header["engine"]
    assert header["start"] == {"seed": 12}
    named = Record.from_game(g, names=["Ann", "Bo", "Cy"])
    assert Record.from_json(named.to_json()).names == ("Ann", "Bo", "Cy")


@pytest.mark.rule("GEN-4")
def test_a_game_from_a_position_records_its_start_and_replays() -> None:
    g = make([["R1", "G2", "W4"], ["B1", "B2"], ["Y4", "Y5"]], ["R5"], draw=FILLER)
    g.play("W4:B")
    g.play("challenge")
    record = Record.from_game(g)
    assert record.seed is None and record.start["position"]["hands"][0] == ["R1", "G2", "W4"]
    again = replay(Record.from_json(record.to_json()))
    assert again.to_position() == g.to_position() and again.events == g.events


def test_a_record_of_another_rules_version_replays_only_to_the_same_position() -> None:
    g = Game.new(2, "official", 8)
    g.play(g.legal_actions[0], g.active_seat)
    doc = Record.from_game(g).to_dict()
    other = dict(doc, rules_version=RULES_VERSION + 1)
    assert replay(Record.from_dict(other)).to_position() == g.to_position()  # the digest matches
    with pytest.raises(RecordError, match="different position"):
        replay(Record.from_dict(dict(other, digest=position_digest({"something": "else"}))))
    without = {k: v for k, v in other.items() if k != "digest"}
    with pytest.raises(RecordError, match="no digest"):
        replay(Record.from_dict(without))


def test_a_version_1_record_is_upgraded_with_its_deals() -> None:
    g = Game.new(2, Ruleset.preset("official").replace(target_score=60), 3)
    rng = random.Random(3)
    while not g.is_over():
        if g.phase is Phase.ROUND_OVER:
            g.next_round()
        else:
            g.play(rng.choice(list(g.legal_actions)), g.active_seat)
    v1 = {"format": "unotable-record", "version": 1, "ruleset": g.ruleset.to_dict(), "seats": 2, "seed": 3,
          "actions": [[s, str(a)] for s, a in g.actions if s is not None], "rounds": g.round_no}
    upgraded = Record.from_dict(v1)
    assert upgraded.actions == tuple(g.actions)
    assert replay(upgraded).to_position() == g.to_position()


# ------------------------------------------------------------------------------------------------
# versioned events


@pytest.mark.rule("NET-6")
def test_events_are_numbered_and_read_since_a_number() -> None:
    g = Game.new(3, "official", 21)
    rng = random.Random(2)
    seen = {s: 0 for s in range(3)}
    got: dict[int, list[Event]] = {s: [] for s in range(3)}
    for _ in range(60):
        if g.phase >= Phase.ROUND_OVER:
            break
        g.play(rng.choice(list(g.legal_actions)), g.active_seat)
        for s in range(3):
            new = g.events_since(seen[s], s)
            got[s] += new
            seen[s] = g.last_seq
    every = g.events_since(0, ALL)
    assert [e.seq for e in every] == list(range(1, g.last_seq + 1))
    for s in range(3):
        assert got[s] == g.events_for(s)
        assert all(e.visible_to(s) for e in got[s])
    assert g.events_since(g.last_seq, 0) == []
    with pytest.raises(InvalidActionError):
        g.events_since(-1, 0)


def test_event_types_are_named_after_their_classes() -> None:
    classes = [getattr(events_module, n) for n in events_module.__all__]
    classes = [c for c in classes if isinstance(c, type) and issubclass(c, Event) and "type" in c.__dict__]
    assert {c.type for c in classes} == set(EventType)
    for cls in classes:
        snake = "".join("_" + ch.lower() if ch.isupper() else ch for ch in cls.__name__).lstrip("_")
        assert cls.type.value == snake and cls.type.name == snake.upper()


def _sample_value(hint: Any, name: str) -> Any:
    text = str(hint)
    if "tuple[tuple[int, Card]" in text or "tuple[tuple[int, unotable.cards.Card]" in text:
        return ((0, Card.parse("R5")), (1, Card.parse("G9")))
    if "tuple[Card" in text or "tuple[unotable.cards.Card" in text:
        return (Card.parse("R5"), Card.parse("W4"))
    if "tuple[bool" in text:
        return (True, False, True)
    if "tuple[int" in text:
        return (3, 0, 7)
    if "Card" in text:
        return Card.parse("YD2")
    if "Color" in text:
        from unotable import Color
        return Color.GREEN
    if "DrawReason" in text:
        return events_module.DrawReason.CATCH
    if "bool" in text:
        return True
    return 2


@pytest.mark.parametrize("type_", list(EventType))
def test_every_event_type_round_trips_through_its_dict(type_: EventType) -> None:
    import typing

    cls = events_module.event_class(type_)
    hints = typing.get_type_hints(cls)
    event = cls(**{f.name: _sample_value(hints[f.name], f.name) for f in fields(cls) if f.name != "seq"})
    object.__setattr__(event, "seq", 17)
    doc = json.loads(json.dumps(event.to_dict()))
    assert doc["type"] == type_.value and doc["seq"] == 17
    again = Event.from_dict(doc)
    assert again == event and type(again) is cls and again.seq == 17


def test_malformed_event_documents_are_rejected() -> None:
    for doc in ({}, {"type": "nope"}, {"type": "drew", "seat": "1", "count": 1, "reason": "draw"},
                {"type": "drew", "seat": 1, "count": 1, "reason": "bribe"},
                {"type": "drew", "seat": 1, "count": 1, "reason": "draw", "extra": 1},
                {"type": "drew_cards", "seat": 1, "cards": ["R99"]}, [1]):
        with pytest.raises(RecordError):
            Event.from_dict(doc)


# ------------------------------------------------------------------------------------------------
# views for a client


def test_a_view_has_a_static_and_a_live_part() -> None:
    g = Game.new(4, "partners", 30)
    table = g.table_info(["A", "B", "C", "D"])
    view = g.view(1, table)
    assert view.table.names == ("A", "B", "C", "D") and view.ruleset == g.ruleset and view.seats == 4
    live = view.to_dict()
    assert "ruleset" not in live and live["seq"] == g.last_seq
    assert live["legal"] == [str(a) for a in g.legal_actions_for(1)]
    assert live["team_scores"] == [0, 0]
    assert g.active_seat in live["seats_to_act"]
    assert table.to_dict()["names"] == ["A", "B", "C", "D"]
    with pytest.raises(InvalidActionError):
        g.table_info(["only one"])


def test_a_view_after_a_round_carries_the_result_and_after_a_match_the_outcome() -> None:
    g = Game.new(2, Ruleset.preset("official").replace(scoring="none"), 4)
    rng = random.Random(4)
    while not g.is_over():
        g.play(rng.choice(list(g.legal_actions)), g.active_seat)
    live = g.spectator_view().to_dict()
    assert live["last_round"]["winner"] == g.round_result().winner
    assert live["outcome"] == g.outcome().to_dict() and live["outcome"]["reason"] == "single round"


@pytest.mark.rule("HOUSE-6", "NET-5")
def test_a_view_does_not_reveal_who_could_jump_in() -> None:
    g = make([["R1", "G2"], ["B1", "R5"], ["Y4", "Y5"]], ["R5"], ruleset=Ruleset(jump_in=True), draw=FILLER,
             top_player=2)
    assert 1 in g.seats_to_act  # the referee knows seat 1 holds the other R5
    assert g.view(2).seats_to_act == (0,) == g.view(1).seats_to_act
    assert "R5" in {str(a) for a in g.view(1).legal}


def test_view_sizes_stay_small() -> None:
    # docs/reference/python-api.md's figures: a player's live view in JSON at 4 and 10 seats, mid-round
    for seats in (4, 10):
        g = Game.new(seats, "official", 99)
        rng = random.Random(9)
        for _ in range(40):
            if g.phase >= Phase.ROUND_OVER:
                break
            g.play(rng.choice(list(g.legal_actions)), g.active_seat)
        size = len(json.dumps(g.view(0).to_dict(), separators=(",", ":")))
        assert size < 2500, (seats, size)


# ------------------------------------------------------------------------------------------------
# default actions


@pytest.mark.parametrize(("doc", "expected"), [
    ({"hands": [["R1", "G2"], ["B1"], ["Y4"]], "discard": ["R5"]}, "draw"),
    ({"hands": [["R1", "G2"], ["B1"], ["Y4"]], "discard": ["R5"], "phase": "play_drawn", "drawn": "R1"},
     "pass"),
    ({"hands": [["R1", "G2"], ["B1"], ["Y4"]], "discard": ["R5", "RD2"], "phase": "respond",
      "pending": {"total": 2, "card": "RD2"}, "active": 0}, "accept"),
    ({"hands": [["R1", "G2", "G3"], ["B1"], ["Y4"]], "discard": ["W"], "color": None,
      "phase": "choose_color"}, "color:G"),
])
def test_the_default_action_of_each_phase(doc: dict[str, Any], expected: str) -> None:
    g = Game.from_position({**doc, "draw": FILLER})
    action = g.default_action(0)
    assert str(action) == expected and action in g.legal_actions
    assert g.default_action(1) is None


def test_the_default_action_plays_when_drawing_is_not_allowed() -> None:
    rules = Ruleset.preset("no-mercy")
    g = Game.from_position({"ruleset": "no-mercy", "hands": [["B1", "G7", "WCR"], ["B2", "B3"], ["Y4", "Y5"]],
                            "discard": ["G3"], "draw": FILLER})
    assert not rules.may_draw_with_playable
    # the first playable card; a 7 swaps (NM-17) with the seat holding the fewest cards
    assert str(g.default_action(0)) == "G7>1"


# ------------------------------------------------------------------------------------------------
# the arbiter


class Scripted(Agent):
    """An agent that records when it was asked and answers from a script."""

    def __init__(self, name: str, log: list[tuple[str, int]], answers: dict[int, str] | None = None) -> None:
        self.name = name
        self.log = log
        self.answers = answers or {}

    def choose(self, view: Any, legal: Any, rng: random.Random) -> Any:
        self.log.append((self.name, view.active))
        if view.seat != view.active:
            text = self.answers.pop(view.active, None)
            return None if text is None else parse_action(text)
        return legal[0]


@pytest.mark.rule("NET-8", "GEN-3")
def test_the_arbiter_offers_out_of_turn_actions_in_turn_order_then_asks_the_active_seat() -> None:
    # seat 1 is exposed; seats 2, 3 and 0 may catch it; the active seat is 2
    g = make([["R1", "G2"], ["B1"], ["Y4", "Y5", "R5"], ["G1", "G3"]], ["R5"], draw=FILLER, exposed=[1],
             active=2)
    assert offer_order(g) == [3, 0, 1]
    log: list[tuple[str, int]] = []
    agents = {0: Scripted("s0", log, {2: "catch:1"}), 1: Scripted("s1", log), 2: Scripted("s2", log),
              3: Scripted("s3", log)}
    arbiter = Arbiter(g, agents, seed=1)
    done = arbiter.step()
    assert done is not None and (done.seat, str(done.action)) == (0, "catch:1")
    assert [name for name, _ in log] == ["s3", "s0"]  # seat 1 had a call (uno) offered after them
    done = arbiter.step()
    assert done is not None and done.seat == 2  # nobody else acts: the active seat plays


def test_the_arbiter_asks_again_an_agent_that_takes_rejections() -> None:
    g = make([["R1", "G2"], ["B1", "B2"], ["Y4", "Y5"]], ["R5"], draw=FILLER)
    told: list[str] = []

    class Person(Agent):
        name = "person"
        tries = iter(["G2", "R1"])

        def choose(self, view: Any, legal: Any, rng: random.Random) -> Any:
            return parse_action(next(self.tries)) if view.seat == view.active else None

        def rejected(self, action: Any, error: Exception) -> bool:
            assert isinstance(error, UnoError)
            told.append(error.code)
            return True

    arbiter = Arbiter(g, {0: Person(), 1: make_bot("random"), 2: make_bot("random")}, seed=2)
    done = arbiter.step()
    assert told == ["illegal"] and done is not None and str(done.action) == "R1"


def test_the_arbiter_refuses_a_bot_that_breaks_the_protocol() -> None:
    class Lazy(RandomBot):
        name = "lazy"

        def choose(self, view: Any, legal: Any, rng: random.Random) -> Any:
            return None

    g = Game.new(2, "official", 3)
    with pytest.raises(ArbiterError, match="no action on its turn"):
        Arbiter(g, {0: Lazy(), 1: Lazy()}, seed=3).step()
    with pytest.raises(ValueError, match="agent"):
        Arbiter(g, {0: Lazy()})


def test_an_agent_is_declared_and_its_hooks_default_to_nothing() -> None:
    class OnlyChoose:  # the shape of the agent, without its declared hooks
        name = "shape"

        def choose(self, view: Any, legal: Any, rng: random.Random) -> Any:
            return legal[0]

    g = Game.new(2, "official", 3)
    with pytest.raises(TypeError, match=r"unotable\.agent\.Agent.*OnlyChoose"):
        Arbiter(g, {0: OnlyChoose(), 1: make_bot("random")})  # type: ignore[dict-item]

    class Counter(Agent):
        name = "counter"
        restarts = 0

        def choose(self, view: Any, legal: Any, rng: random.Random) -> Any:
            return legal[0] if view.seat == view.active else None

        def restart(self) -> None:
            self.restarts += 1

    a, b = Counter(), Counter()
    arbiter = Arbiter(g, {0: a, 1: b}, seed=3)
    assert (a.restarts, b.restarts) == (1, 1)  # a game with no action yet: a new game for each agent
    arbiter.step()
    Arbiter(g, {0: a, 1: b}, seed=3)  # the same game, taken up again: no restart
    assert (a.restarts, b.restarts) == (1, 1)
    assert Agent().react is not None and Agent().rejected(g.legal_actions[0], ValueError()) is False
    with pytest.raises(NotImplementedError, match="choose"):
        Agent().choose(g.view(0), g.legal_action_list(0), seat_rng(3, 0))


def test_every_driver_derives_seat_generators_by_one_recipe() -> None:
    # the arbiter's default, the terminal's table and seat_rng give the same generator per seat
    g = Game.new(3, "official", 12)
    bots = {s: make_bot("random") for s in range(3)}
    from_arbiter = Arbiter(g, bots, seed=12).rngs
    from_terminal = TerminalTable(g, bots, 12).arbiter().rngs
    for s in range(3):
        expected = seat_rng(12, s).random()
        assert from_arbiter[s].random() == from_terminal[s].random() == expected
    assert seat_rng(12, 0).random() != seat_rng(12, 1).random() != seat_rng(13, 1).random()


def test_the_arbiter_feeds_observers_what_their_seat_may_see() -> None:
    class Watcher(RandomBot):
        def __init__(self) -> None:
            self.seen: list[Event] = []

        def observe(self, events: Any) -> None:
            self.seen.extend(events)

    g = Game.new(3, Ruleset.preset("official").replace(target_score=50), 6)
    watchers = {s: Watcher() for s in range(3)}
    Arbiter(g, watchers, seed=6).play_match(max_actions=3000)
    for s, w in watchers.items():
        assert w.seen == g.events_for(s)


# ------------------------------------------------------------------------------------------------
# positions that are possible


@pytest.mark.parametrize(("change", "field"), [
    ({"discard": ["W"], "color": None}, "color"),
    ({"phase": "respond"}, "pending"),
    ({"pending": {"total": 2, "card": "RD2"}}, "pending"),
    ({"exposed": [0]}, "exposed"),
    ({"hands": [["R1", "G2"], [], ["Y4"]]}, "hands"),
    ({"hands": [["R1", "R1", "R1"], ["B1"], ["Y4"]]}, "hands"),
    ({"scores": [True, 0, 0]}, "scores"),
    ({"exposed": [1, 1]}, "exposed"),
    ({"phase": "play_drawn"}, "drawn"),
    ({"deal": ["R1"]}, "deal"),
])
def test_impossible_positions_name_the_field(change: dict[str, Any], field: str) -> None:
    doc = {"hands": [["R1", "G2"], ["B1"], ["Y4"]], "discard": ["R5"], **change}
    with pytest.raises(PositionError) as caught:
        Game.from_position(doc)
    assert caught.value.field == field and caught.value.code == "position"


@pytest.mark.rule("SET-9", "TWO-5")
def test_a_position_can_fix_the_next_deal() -> None:
    rules = Ruleset.preset("official")
    deck = sorted(str(Card.from_id(c)) for c, k in rules.composition().items() for _ in range(k))
    # two seats, seat 1 deals next (SET-3): 14 cards dealt, then a Draw Two, which seat 0 draws (TWO-5)
    order = list(deck)
    order.remove("RD2")
    order = [*order[:14], "RD2", *order[14:]]
    doc = {"hands": [[], []], "discard": deck, "fill": "none", "phase": "round_over", "dealer": 0,
           "scores": [10, 20], "deal": order}
    g = Game.from_position(doc)
    g.next_round()
    assert str(g.top_card) == "RD2" and g.hand_sizes == (9, 7)
    # one card at a time from the top, from next(dealer): seat 0 gets the 1st, 3rd, ... 13th cards
    assert [str(c) for c in g.hand(0)] == [order[i] for i in range(0, 14, 2)] + order[15:17]
    assert [str(c) for c in g.hand(1)] == [order[i] for i in range(1, 14, 2)]
    assert g.active_seat == 1  # seat 0 (next after the dealer) drew two and lost its turn


# ------------------------------------------------------------------------------------------------
# the bot registry


def test_registering_a_bot_keeps_the_built_in_ones() -> None:
    class Mine(RandomBot):
        name = "mine"

    register("mine", Mine)
    try:
        assert make_bot("mine").name == "mine"
        assert make_bot("heuristic").name == "heuristic"
        assert make_bot("rule").name == "rule-v1"
    finally:
        unregister("mine")
    with pytest.raises(BotSpecError, match="known bots"):
        make_bot("mine")


@pytest.mark.parametrize("spec", ["ismcts:iterations=abc", "ismcts:nosuch=1", "nobody", "ismcts:x"])
def test_bad_bot_specs_give_a_usage_message(spec: str) -> None:
    with pytest.raises(BotSpecError):
        make_bot(spec)
