"""The terminal renderers: cards in color, one line per event, the table (unotable/tui/render.py)."""

from __future__ import annotations

import dataclasses
import io
from typing import Any

import pytest

from unotable import Card, Color, Game, Ruleset
from unotable.events import (
    CardPlayed,
    Caught,
    Challenged,
    ChallengeReveal,
    ColorChosen,
    DealerChosen,
    DirectionChanged,
    Drew,
    DrewCards,
    Event,
    Exposed,
    FalseCatch,
    FalseUno,
    FirstCard,
    HandDealt,
    HandsPassed,
    HandsShuffled,
    HandsSwapped,
    KnockedOut,
    MatchEnded,
    NewHand,
    Passed,
    PenaltyPending,
    Reshuffled,
    Revealed,
    RoundEnded,
    RoundStarted,
    Skipped,
    Slipped,
    UnoCalled,
)
from unotable.scoring import RoundResult
from unotable.tui.render import (
    Style,
    card_help,
    deck_help_lines,
    direction_text,
    event_line,
    event_lines,
    hand_lines,
    round_deltas,
    round_summary_lines,
    score_table_lines,
    sort_hand,
    standings_lines,
    table_lines,
    use_color,
    visible_len,
)

PLAIN = Style(color=False)
COLOR = Style(color=True)
NAMES = ["You", "Bot 1", "Bot 2"]


def c(text: str) -> Card:
    return Card.parse(text)


def test_plain_cards_are_their_notation() -> None:
    assert PLAIN.card(c("YD2")) == "YD2"
    assert PLAIN.cards([c("R7"), c("W4")]) == "R7 W4"
    assert PLAIN.cards([]) == "(none)"
    assert PLAIN.color_word(Color.GREEN) == "green"
    assert PLAIN.color_word(None) == "none"


def test_colored_cards_are_tiles_in_their_color() -> None:
    assert COLOR.card(c("R7")) == "\x1b[1;97;41m R7 \x1b[0m"
    assert COLOR.card(c("Y0")) == "\x1b[1;30;43m Y0 \x1b[0m"
    assert COLOR.card(c("GS")) == "\x1b[1;30;42m GS \x1b[0m"
    assert COLOR.card(c("BD2")) == "\x1b[1;97;44m BD2 \x1b[0m"
    assert COLOR.card(c("W4")) == "\x1b[1;97;40m W4 \x1b[0m"
    assert COLOR.color_word(Color.BLUE) == "\x1b[1;34mblue\x1b[0m"


def test_hand_has_indices_and_playable_marks() -> None:
    hand = (c("R7"), c("GS"), c("W4"))
    assert PLAIN.hand(hand) == "0:R7  1:GS  2:W4"
    assert PLAIN.hand(hand, frozenset({0, 2})) == "0*:R7  1:GS  2*:W4"
    assert PLAIN.hand(()) == "(empty)"
    assert COLOR.hand(hand, frozenset({1})).startswith("0:\x1b[1;97;41m R7 ")


def test_use_color_respects_no_color_and_non_terminals(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color(Tty()) is True
    assert use_color(Tty(), no_color=True) is False
    assert use_color(io.StringIO()) is False
    monkeypatch.setenv("NO_COLOR", "1")
    assert use_color(Tty()) is False
    monkeypatch.setenv("NO_COLOR", "")  # an empty NO_COLOR does not count (no-color.org)
    assert use_color(Tty()) is True


def test_direction_text() -> None:
    assert direction_text(1, 2) == "↻ clockwise (0→1→0)"
    assert direction_text(-1, 3) == "↺ counterclockwise (2→1→0→2)"
    assert direction_text(1, 10) == "↻ clockwise (0→1→2→3→4→5→6→7→8→9→0)"  # every seat, no …


CASES: list[tuple[Event, str]] = [
    (CardPlayed(seat=1, card=c("R7")), "Bot 1 played R7"),
    (CardPlayed(seat=0, card=c("W4"), color=Color.BLUE), "You played W4 (Wild Draw Four) and named blue"),
    (CardPlayed(seat=2, card=c("R7"), target=0, uno=True), "Bot 2 played R7, targeting You — UNO!"),
    (CardPlayed(seat=2, card=c("GS"), jump_in=True), "Bot 2 jumped in with GS (green Skip)"),
    (ColorChosen(seat=1, color=Color.RED), "Bot 1 named red"),
    (Drew(seat=1, count=1, reason="draw"), "Bot 1 drew 1 card"),
    (Drew(seat=0, count=4, reason="penalty"), "You took the penalty: 4 cards"),
    (Drew(seat=1, count=2, reason="catch"), "Bot 1 drew 2 cards for not calling UNO"),
    (Drew(seat=1, count=6, reason="challenge"), "Bot 1 drew 6 cards for the challenge"),
    (DrewCards(seat=0, cards=(c("R6"), c("W"))), "You drew R6 W"),
    (Passed(seat=2), "Bot 2 kept the card and passed"),
    (Passed(seat=2, auto=True), "Bot 2 could not draw and passed"),
    (Skipped(seat=0), "You are skipped"),
    (Skipped(seat=1), "Bot 1 is skipped"),
    (DirectionChanged(direction=-1), "Direction reversed: play now goes ↺ counterclockwise (2→1→0→2)"),
    (PenaltyPending(victim=0, total=4), "+4 pending against You"),
    (Challenged(challenger=0, player=1, guilty=True),
     "You challenged Bot 1's Wild Draw Four — guilty: the Wild Draw Four was illegal"),
    (Challenged(challenger=2, player=0, guilty=False),
     "Bot 2 challenged your Wild Draw Four — innocent: it was legal"),
    (ChallengeReveal(challenger=0, player=1, cards=(c("R2"),)), "Bot 1's hand, shown to You: R2"),
    (ChallengeReveal(challenger=1, player=0, cards=(c("R2"),)), "Your hand, shown to Bot 1: R2"),
    (HandsSwapped(seat=1, target=0), "Bot 1 swapped hands with You"),
    (HandsPassed(direction=1), "Every hand passed to the next seat, clockwise"),
    (HandsShuffled(seat=2, sizes=(3, 4, 4)),
     "Bot 2 shuffled every hand together and dealt them again (3, 4, 4 cards)"),
    (NewHand(seat=0, cards=(c("B1"),)), "You now hold: B1"),
    (Exposed(seat=1), "Bot 1 holds one card without calling UNO (catch 1 to catch it)"),
    (Exposed(seat=0), "You hold one card and have not called UNO: type uno before you are caught!"),
    (UnoCalled(seat=2), "Bot 2 called UNO!"),
    (Caught(catcher=1, target=0, penalty=2), "Bot 1 caught You without UNO: You draw 2"),
    (Caught(catcher=0, target=2, penalty=2), "You caught Bot 2 without UNO: Bot 2 draws 2"),
    (FalseCatch(catcher=0, target=1, penalty=2), "You wrongly tried to catch Bot 1 and draw 2"),
    (FalseUno(seat=1, penalty=2), "Bot 1 called UNO falsely and draws 2"),
    (Slipped(seat=1, cards=(c("R2"), c("R5"))), "Bot 1 slipped R2 R5 under the top card"),
    (Reshuffled(count=40), "The discard pile was shuffled into a new draw pile (40 cards)"),
    (Revealed(seat=2, card=c("G4")), "Bot 2 turned up G4"),
    (KnockedOut(seat=1, cards=25), "Bot 1 is knocked out, holding 25 cards"),
    (RoundStarted(round_no=2, dealer=0, in_round=(True,) * 3, scores=(0, 0, 0)), "── Round 2 ── You deal"),
    (DealerChosen(draws=((0, c("Y1")), (1, c("Y7")), (2, c("G2"))), dealer=1),
     "Cards drawn for the deal: You Y1, Bot 1 Y7, Bot 2 G2; Bot 1 deals"),
    (HandDealt(seat=0, cards=(c("R1"), c("W"))), "You were dealt R1 W"),
    (FirstCard(card=c("B9")), "First card: B9"),
    (FirstCard(card=c("W4"), returned=True), "First card W4 (Wild Draw Four) goes back into the deck"),
    (RoundEnded(winner=1, points=45, hand_points=(30, 0, 15), scores=(0, 45, 0)),
     "Round over: Bot 1 wins the round and scores 45 points (scores: You 0, Bot 1 45, Bot 2 0)"),
    (RoundEnded(winner=0, points=5, hand_points=(0, 5, 0), scores=(5, 0, 0)),
     "Round over: You win the round and score 5 points (scores: You 5, Bot 1 0, Bot 2 0)"),
    (RoundEnded(winner=None, points=0, hand_points=(1, 2, 3), scores=(0, 0, 0)),
     "Round over: blocked, nobody could play or draw; it is dealt again (scores: You 0, Bot 1 0, Bot 2 0)"),
    (MatchEnded(winners=(2,), scores=(10, 20, 510)),
     "Match over: Bot 2 wins the match (scores: You 10, Bot 1 20, Bot 2 510)"),
    (MatchEnded(winners=(0,), scores=(500, 0, 0)),
     "Match over: You win the match (scores: You 500, Bot 1 0, Bot 2 0)"),
]


@pytest.mark.parametrize(("event", "line"), CASES, ids=[f"{e.type}-{i}" for i, (e, _) in enumerate(CASES)])
def test_event_line(event: Event, line: str) -> None:
    assert event_line(event, NAMES, PLAIN) == line


def test_every_event_type_has_its_own_line() -> None:
    import unotable.events as ev

    covered = {type(e) for e, _ in CASES}
    kinds = {getattr(ev, name) for name in ev.__all__
             if isinstance(getattr(ev, name), type) and issubclass(getattr(ev, name), Event)}
    kinds -= {Event}
    assert kinds <= covered


def test_a_roulette_turns_up_its_cards_on_one_line() -> None:
    events: list[Event] = [
        CardPlayed(seat=0, card=c("WCR")),
        ColorChosen(seat=1, color=Color.BLUE),
        Revealed(seat=1, card=c("R1")),
        Revealed(seat=1, card=c("W6")),
        Revealed(seat=1, card=c("B3")),
        Skipped(seat=1),
        Revealed(seat=2, card=c("G1")),
    ]
    assert event_lines(events, NAMES, PLAIN, seat=0) == [
        "You played WCR (Wild Color Roulette)",
        "Bot 1 named blue",
        "Bot 1 turned up R1 W6 B3",
        "Bot 1 is skipped",
        "Bot 2 turned up G1",
    ]


def test_no_mercy_first_cards_make_one_line() -> None:
    events: list[Event] = [FirstCard(card=c("WR4")), FirstCard(card=c("YS")), FirstCard(card=c("B8")),
                           CardPlayed(seat=1, card=c("B2"))]
    assert event_lines(events, NAMES, PLAIN, seat=0) == [
        "First card: B8, turned up over WR4 YS (not number cards, so they stay under it)",
        "Bot 1 played B2",
    ]
    classic = [FirstCard(card=c("W4"), returned=True), FirstCard(card=c("R3"))]
    assert event_lines(classic, NAMES, PLAIN, seat=0) == [
        "First card W4 (Wild Draw Four) goes back into the deck",
        "First card: R3",
    ]


def test_event_lines_filter_by_seat_and_merge_a_draw_with_its_cards() -> None:
    events: list[Event] = [
        Drew(seat=1, count=2, reason="penalty"),
        DrewCards(seat=1, cards=(c("R1"), c("G2"))),
        CardPlayed(seat=2, card=c("B3")),
    ]
    assert event_lines(events, NAMES, PLAIN, seat=0) == ["Bot 1 took the penalty: 2 cards", "Bot 2 played B3"]
    assert event_lines(events, NAMES, PLAIN, seat=1) == [
        "Bot 1 took the penalty: 2 cards: R1 G2",
        "Bot 2 played B3",
    ]
    assert event_lines(events, NAMES, PLAIN, everything=True)[0] == "Bot 1 took the penalty: 2 cards: R1 G2"


def test_table_shows_counts_scores_top_color_direction_and_hand() -> None:
    game = Game.from_position({
        "hands": [["R7", "W4", "G2"], ["B1"], ["Y1", "Y2"]],
        "discard": ["R3"],
        "active": 0,
        "dealer": 2,
        "called": [1],
        "scores": [10, 20, 30],
        "direction": -1,
    })
    levels = ["", "random", "heuristic"]
    lines = table_lines(game.view(0), NAMES, PLAIN, levels, "official", frozenset({0, 1}))
    text = "\n".join(lines)
    assert lines[0] == "Round 1 · official"
    assert "0  You" in lines[1] and "3 cards" in lines[1] and "score   10" in lines[1]
    assert "◀ to act" in lines[1]
    assert "Bot 1" in lines[2] and "(random)" in lines[2] and "1 card" in lines[2] and "UNO" in lines[2]
    assert "(heuristic)" in lines[3] and "2 cards" in lines[3] and "dealer" in lines[3]
    assert "Top card: R3   color: red   direction: ↺ counterclockwise (2→1→0→2)" in text
    assert "Your hand: 0*:R7  1*:W4  2:G2" in text
    assert "Y1" not in text  # another seat's card never shows


def test_table_shows_a_pending_penalty_and_the_drawn_card() -> None:
    game = Game.from_position({
        "hands": [["R7", "W4"], ["B1", "B2"]],
        "discard": ["R3", "RD2"],
        "active": 0,
        "phase": "respond",
        "pending": {"total": 2, "card": "RD2"},
        "ruleset": "house",
    })
    text = "\n".join(table_lines(game.view(0), ["You", "Bot 1"], PLAIN))
    assert "Pending: +2 against You" in text
    drawn = Game.from_position({
        "hands": [["R7", "G5"], ["B1", "B2"]],
        "discard": ["G3"],
        "active": 0,
        "phase": "play_drawn",
        "drawn": "G5",
    })
    assert "Just drawn: G5" in "\n".join(table_lines(drawn.view(0), ["You", "Bot 1"], PLAIN))


def round_over(scores: list[int], ruleset: str = "official", seat: int = 0) -> Any:
    """Seat 0 plays its last card: the view of ``seat`` at the end of the round."""
    game = Game.from_position({"hands": [["R7"], ["B1", "B2"], ["Y1", "W4"]], "discard": ["R5"],
                               "active": 0, "scores": scores, "ruleset": ruleset})
    game.play(game.legal_action_list(0)[0])
    return game.view(seat)


def test_round_summary_shows_every_hand_and_how_the_points_add_up() -> None:
    view = round_over([10, 20, 30], seat=1)
    lines = round_summary_lines(view, NAMES, PLAIN)
    assert lines[0] == "Round 1 over: You went out."
    assert lines[1] == "  Hands left:"
    assert lines[2].split() == ["You", "went", "out"]
    assert lines[3].split() == ["Bot", "1", "2", "cards", "3", "points", "B1", "B2"]  # seat 1's own cards
    assert lines[4].split() == ["Bot", "2", "2", "cards", "51", "points"]  # another seat's: a count only
    assert lines[5] == "  You score 3 (Bot 1) + 51 (Bot 2) = 54 points."
    assert "Y1" not in "\n".join(lines)


def test_score_table_has_the_target_the_gains_and_what_is_left() -> None:
    view = round_over([10, 20, 30])
    lines = score_table_lines(view, NAMES, PLAIN)
    assert lines[0] == "Scores (first to 500 wins the match)"
    assert lines[1].split() == ["1.", "You", "64", "+54", "436", "to", "go"]
    assert lines[2].split() == ["2.", "Bot", "2", "30", "470", "to", "go"]
    assert lines[3].split() == ["3.", "Bot", "1", "20", "480", "to", "go"]
    assert standings_lines(view, NAMES, PLAIN) == []  # the match goes on


def test_final_standings() -> None:
    view = round_over([490, 30, 30])
    lines = standings_lines(view, NAMES, PLAIN)
    assert lines[0] == "Final standings after 1 round (target reached):"
    assert lines[1].split() == ["1.", "You", "544", "★", "winner"]
    assert lines[2].split() == ["2.", "Bot", "1", "30"]
    assert lines[3].split() == ["2.", "Bot", "2", "30"]  # a tie shares the place
    assert "to go" not in "\n".join(score_table_lines(view, NAMES, PLAIN))


def test_round_summary_other_scorings() -> None:
    base = round_over([0, 0, 0])
    blocked = dataclasses.replace(base, last_round=RoundResult(3, None, 0, (5, 3, 51), (), (), (0, 0, 0)))
    text = "\n".join(round_summary_lines(blocked, NAMES, PLAIN))
    assert "Round 3 is blocked: nobody could play or draw. Nobody scores; the round is dealt again." in text
    assert "score" not in text.split("\n", 1)[1]  # no sum for a blocked round
    assert round_deltas(blocked.last_round, base.ruleset) == (0, 0, 0)

    low_rules = Ruleset.preset("official").replace(scoring="low", target_score=100)
    low = dataclasses.replace(base, table=dataclasses.replace(base.table, ruleset=low_rules))
    text = "\n".join(round_summary_lines(low, NAMES, PLAIN))
    assert "Each seat but You adds its own hand to its score (target 100, lowest score wins)." in text
    assert score_table_lines(low, NAMES, PLAIN)[0] == (
        "Scores (the match ends when a seat reaches 100; the lowest score wins)")
    assert round_deltas(low.last_round, low_rules) == (0, 3, 51)

    nm_rules = Ruleset.preset("no-mercy")
    knocked = RoundResult(2, 1, 260, (0, 0, 10, 40), (3,), (), (0, 260, 0, 0))
    nm = dataclasses.replace(base, table=dataclasses.replace(base.table, ruleset=nm_rules, seats=4),
                             last_round=knocked, hand_sizes=(0, 0, 2, 25),
                             eliminated=(False,) * 4, scores=(0, 260, 0, 0))
    names = [*NAMES, "Bot 3"]
    text = "\n".join(round_summary_lines(nm, names, PLAIN))
    assert "Bot 1 scores 10 (Bot 2) + 250 (Bot 3 knocked out) = 260 points." in text
    assert text.splitlines()[5].split() == ["Bot", "3", "knocked", "out", "+250", "bonus"]
    last = dataclasses.replace(nm, hand_sizes=(0, 3, 2, 25))  # won as the last seat left (NM-16)
    lines = round_summary_lines(last, names, PLAIN)
    assert lines[0] == "Round 2 over: Bot 1 is the last seat left in the round."
    assert lines[3].split() == ["Bot", "1", "won", "the", "round"]


def test_team_points_under_partnerships() -> None:
    base = round_over([0, 0, 0])
    rules = Ruleset.preset("partners")
    result = RoundResult(1, 2, 30, (12, 10, 0, 20), (), (), (30, 0, 30, 0))
    view = dataclasses.replace(base, table=dataclasses.replace(base.table, ruleset=rules, seats=4),
                               last_round=result, hand_sizes=(2, 1, 0, 3), eliminated=(False,) * 4,
                               scores=(30, 0, 30, 0))
    names = [*NAMES, "Bot 3"]
    text = "\n".join(round_summary_lines(view, names, PLAIN))
    assert "Bot 2's team scores 10 (Bot 1) + 20 (Bot 3) = 30 points." in text
    assert round_deltas(result, rules) == (30, 0, 30, 0)


def test_hand_lines_group_by_color_and_wrap_whole_cards() -> None:
    hand = sort_hand([c(x) for x in ("W4", "B2", "R8", "GS", "R3", "B9", "YD2")])
    assert [str(x) for x in hand] == ["R3", "R8", "YD2", "GS", "B2", "B9", "W4"]
    assert hand_lines(PLAIN, hand, frozenset({0})) == ["0*:R3  1:R8 │ 2:YD2 │ 3:GS │ 4:B2  5:B9 │ 6:W4"]
    for width in range(12, 40):
        lines = hand_lines(PLAIN, hand, width=width, prefix="Hand: ")
        assert all(len(line) <= width for line in lines), (width, lines)
        joined = " ".join(lines).replace("│", " ").split()
        assert joined[1:] == [f"{i}:{card}" for i, card in enumerate(hand)]  # no card is ever split
        assert not any(line.rstrip().endswith("│") or line.strip().startswith("│") for line in lines)
    colored = hand_lines(COLOR, hand, width=40, prefix="Hand: ")
    assert len(colored) > 1 and all(visible_len(line) <= 40 for line in colored)
    assert hand_lines(PLAIN, (), prefix="Hand: ") == ["Hand: (empty)"]


def test_card_help_names_the_special_cards() -> None:
    assert card_help(c("BSE")) == ("BSE — Skip Everyone: every other seat is skipped and you play "
                                   "again at once")
    assert str(card_help(c("WCR"))).startswith("WCR — Wild Color Roulette")
    assert card_help(c("W4")) is None and card_help(c("GS")) is None
    assert deck_help_lines(Ruleset.preset("official")) == []
    shuffle = deck_help_lines(Ruleset.preset("official-112-shuffle"))
    assert [line.split()[0] for line in shuffle] == ["WX", "WC"]
