"""Fair catches and time-outs at an online table (issue: the second evening).

A seat handed one card has time to call (``uno_grace``, UNO-GRACE-1, on by default online); a bot
catches no sooner than ``catch_reaction`` after the last change; a time-out plays the strongest
fast bot's move, never a draw that a play would have avoided. The timers are driven with explicit
clock values (the table actor's ``due(now)``), so nothing here depends on the wall clock.
"""
from __future__ import annotations

from typing import Any

import pytest
from test_table import HOST, Harness

from unotable import Game, Phase, Play, Ruleset
from unotable.server.entries import Acted, ActedBy
from unotable.server.options import options
from unotable.server.protocol import TableStatus
from unotable.server.table import Role, TableSettings
from unotable.server.table.autopilot import timeout_action
from unotable.server.table.settings import ONLINE_OPTIONS

ME = Role(0)


@pytest.mark.rule("UNO-GRACE-1", "PRESET-1")
def test_online_tables_have_the_grace_by_default_and_the_host_may_turn_it_off() -> None:
    assert ONLINE_OPTIONS == {"uno_grace": True}
    assert Ruleset.preset("official").uno_grace is False
    assert TableSettings().ruleset().uno_grace is True
    assert TableSettings(preset="house").ruleset() == Ruleset.preset("house").replace(uno_grace=True)
    assert TableSettings(options={"uno_grace": False}).ruleset() == Ruleset.preset("official")
    settings = TableSettings()
    assert settings.to_dict()["catch_reaction"] == 2.5
    assert TableSettings.from_dict(settings.to_dict()) == settings
    doc = options()
    assert doc["online_options"] == {"uno_grace": True}
    assert doc["defaults"]["catch_reaction"] == 2.5
    bad = TableSettings(catch_reaction=-1.0)
    with pytest.raises(ValueError, match="catch_reaction"):
        bad.check()


def _expose_me(h: Harness) -> dict[str, Any]:
    """Play seat 0 (the person) until it plays down to one card without calling UNO; its view then."""
    for _ in range(20000):
        if h.table.status == TableStatus.ROUND_OVER:
            h.send(HOST, type="next_round")
            continue
        view = h.table.view_for(ME)
        assert view is not None
        legal = [a for a in view["legal"] if a != "uno" and not a.endswith("!")]
        if view["active"] == 0 and legal:
            plays = [a for a in legal if a not in ("draw", "pass", "accept")]
            if len(view["hand"]) == 2 and plays:
                h.send(ME, type="act", action=plays[0])
                after = h.table.view_for(ME)
                assert after is not None
                if len(after["hand"]) == 1:
                    return after
                continue
            h.send(ME, type="act", action=legal[0])
        else:
            assert h.tick(5.0), "the bots must act when nobody else can"
    raise AssertionError("seat 0 never came down to one card")


def _ann_and_two_bots() -> Harness:
    """A table where Ann (seat 0) plays two heuristic bots, the bots' pause 0.5 s and their
    reaction 2.5 s; the round is dealt and Ann is connected."""
    settings = TableSettings(seats=3, options={"target_score": 100000}, bot_pause=0.5, catch_reaction=2.5,
                             round_pause=0.0)
    h = Harness(settings, bots={1: "heuristic", 2: "heuristic"})
    h.send(Role(), type="sit", seat=0, name="Ann")
    h.send(HOST, type="start")
    h.table.connected(0, h.now)
    return h


@pytest.mark.rule("CL-UNO-5", "NET-4")
def test_a_bot_catches_a_person_only_after_the_catch_reaction() -> None:
    h = _ann_and_two_bots()
    _expose_me(h)
    assert h.table.game is not None and h.table.game.exposed == (0,)
    logged = len(h.log)
    assert not h.tick(0.5)  # the bots' pause is over, their reaction time is not
    assert not h.tick(1.9)
    assert h.table.game.exposed == (0,) and len(h.log) == logged
    assert h.table.next_due() == pytest.approx(h.now + 0.1)  # the timer waits for it: no busy loop
    assert h.tick(0.1)
    entry = h.log[-1]
    assert isinstance(entry, Acted) and entry.by is ActedBy.BOT and entry.action == "catch:0"


@pytest.mark.rule("CL-UNO-2", "CL-UNO-5")
def test_a_person_who_calls_within_the_reaction_time_is_not_caught() -> None:
    h = _ann_and_two_bots()
    _expose_me(h)
    assert not h.tick(2.0)
    h.send(ME, type="act", action="uno")
    assert h.table.game is not None and h.table.game.exposed == ()
    assert h.tick(0.5)  # the bots play on after their pause
    assert not any(isinstance(e, Acted) and e.action == "catch:0" for e in h.log)


# ---------------------------------------------------------------------------------------------
# time-outs: the autopilot's move


def _game(ruleset: dict[str, Any] | str, hands: list[list[str]], discard: list[str], **extra: Any) -> Game:
    filler = ["G5", "G6", "G7", "G8", "Y1", "Y3", "Y5", "Y7", "Y9", "B8"]
    return Game.from_position({"ruleset": ruleset, "hands": hands, "discard": discard,
                               "draw": extra.pop("draw", filler), **extra})


HOUSE = Ruleset.preset("house").to_dict()


def test_a_time_out_plays_a_card_under_draw_until_playable() -> None:
    # The engine's default action would draw: here a draw until playable takes the whole pile
    # (ten cards, none of them blue), while R5 could be played.
    g = _game(HOUSE, [["R5", "B1", "B2"], ["Y2", "Y4", "G1"]], ["R3"])
    assert str(g.default_action(0)) == "draw"
    assert str(timeout_action(g, 0)) == "R5"


def test_a_time_out_prefers_a_colored_card_to_a_wild_and_flags_uno() -> None:
    g = _game("official", [["W", "R5", "B1", "B2"], ["Y2", "Y4", "G1"]], ["R3"])
    assert str(timeout_action(g, 0)) == "R5"
    g = _game("official", [["R5", "B1"], ["Y2", "Y4", "G1"]], ["R3"])
    assert str(timeout_action(g, 0)) == "R5!"


def test_a_time_out_plays_a_seven_rather_than_draw_a_chain() -> None:
    # The heuristic alone would rather draw than take a larger hand with its only play, a 7.
    g = _game(HOUSE, [["R7", "B1", "B2"], ["Y2", "Y4", "G1", "G2", "G3", "G4"]], ["R3"])
    assert str(timeout_action(g, 0)) == "R7>1"


def test_a_time_out_plays_a_playable_drawn_card() -> None:
    g = _game("official", [["B1", "B2", "R5"], ["Y2", "Y4", "G1"]], ["R3"],
              phase="play_drawn", drawn="R5")
    assert {str(a) for a in g.legal_actions_for(0)} == {"R5", "pass"}
    assert str(timeout_action(g, 0)) == "R5"


def test_a_time_out_draws_only_when_nothing_can_be_played() -> None:
    g = _game(HOUSE, [["B1", "B2"], ["Y2", "Y4", "G1"]], ["R3"], draw=["G5", "R9"])
    assert str(timeout_action(g, 0)) == "draw"
    assert timeout_action(g, 1) is None  # not its turn


def test_a_time_out_stacks_on_a_draw_two_rather_than_take_it() -> None:
    g = _game(HOUSE, [["Y2", "RD2", "B1"], ["B4", "B5", "G1"]], ["GD2"], phase="respond",
              pending={"total": 2, "card": "GD2"}, color="G")
    assert str(timeout_action(g, 0)) == "RD2"


def test_the_timer_plays_the_autopilot_move_for_a_silent_seat() -> None:
    settings = TableSettings(seats=2, preset="house", options={"target_score": 100000}, turn_seconds=20.0,
                             bot_pause=0.5, round_pause=0.0)
    h = Harness(settings, bots={1: "heuristic"})
    h.send(Role(), type="sit", seat=0, name="Ann")
    h.send(HOST, type="start")
    h.table.connected(0, h.now)
    for _ in range(200):
        game = h.table.game
        assert game is not None
        if game.phase < Phase.ROUND_OVER and game.active_seat == 0:
            break
        assert h.tick(0.5)
    game = h.table.game
    assert game is not None and game.active_seat == 0
    expected = timeout_action(game, 0, h.table.table_info(game))
    assert expected is not None
    if game.phase is Phase.PLAY and any(isinstance(a, Play) for a in game.legal_actions_for(0)):
        assert isinstance(expected, Play)  # never a draw while a card can be played
    assert not h.tick(19.0)
    assert h.tick(1.0)
    assert h.log[-1] == Acted(0, str(expected), ActedBy.TIMEOUT)
