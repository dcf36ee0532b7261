"""Text for the terminal: cards in ANSI color, one readable line per event, and the table.

Everything here is a pure function of a view, an event or a card, so it is easy to test. Color is
a :class:`Style` decision made once: :func:`use_color` turns it off for ``NO_COLOR``, for a stream
that is not a terminal, and on request.

>>> from unotable.cards import Card
>>> plain = Style(color=False)
>>> plain.card(Card.parse("W4")), plain.hand((Card.parse("R7"), Card.parse("GS")))
('W4', '0:R7  1:GS')
>>> from unotable.events import CardPlayed
>>> from unotable.cards import Color
>>> event_line(CardPlayed(seat=1, card=Card.parse("W4"), color=Color.BLUE), ["You", "Bot 1"], plain)
'Bot 1 played W4 (Wild Draw Four) and named blue'
>>> Style(color=True).card(Card.parse("R7"))
'\\x1b[1;97;41m R7 \\x1b[0m'
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TextIO

from unotable.cards import Card, Color
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
from unotable.phase import Phase
from unotable.rules import Ruleset, Scoring
from unotable.scoring import KNOCKOUT_BONUS, RoundResult
from unotable.views import PlayerView, SpectatorView

__all__ = [
    "CARD_HELP",
    "Style",
    "card_help",
    "deck_help_lines",
    "direction_text",
    "event_line",
    "event_lines",
    "hand_lines",
    "round_deltas",
    "round_summary_lines",
    "score_table_lines",
    "seat_names",
    "sort_hand",
    "standings_lines",
    "table_lines",
    "use_color",
    "visible_len",
]

_RESET = "\x1b[0m"
# Cards look like little cards: bright text on the card's color; wilds on black.
_CARD_SGR = {
    Color.RED: "1;97;41",
    Color.YELLOW: "1;30;43",
    Color.GREEN: "1;30;42",
    Color.BLUE: "1;97;44",
}
_WILD_SGR = "1;97;40"
_WORD_SGR = {Color.RED: "1;31", Color.YELLOW: "1;33", Color.GREEN: "1;32", Color.BLUE: "1;34"}


def use_color(stream: TextIO, no_color: bool = False) -> bool:
    """Whether to write ANSI colors to ``stream``: not when asked not to, not with a non-empty
    ``NO_COLOR`` (https://no-color.org), not when the stream is not a terminal."""
    if no_color or os.environ.get("NO_COLOR"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


@dataclass(frozen=True, slots=True)
class Style:
    """How to draw text: with ANSI colors or as plain notation."""

    color: bool = False

    def sgr(self, codes: str, text: str) -> str:
        return f"\x1b[{codes}m{text}{_RESET}" if self.color else text

    def bold(self, text: str) -> str:
        return self.sgr("1", text)

    def dim(self, text: str) -> str:
        return self.sgr("2", text)

    def error(self, text: str) -> str:
        return self.sgr("1;31", text)

    def card(self, card: Card) -> str:
        """A card in its notation; in color, as a small colored tile."""
        if not self.color:
            return str(card)
        codes = _WILD_SGR if card.color is None else _CARD_SGR[card.color]
        return self.sgr(codes, f" {card} ")

    def cards(self, cards: Sequence[Card]) -> str:
        return " ".join(self.card(c) for c in cards) if cards else "(none)"

    def color_word(self, color: Color | None) -> str:
        """``blue`` (in blue), or ``none`` when no color is current."""
        if color is None:
            return "none"
        return self.sgr(_WORD_SGR[color], color.name.lower())

    def hand(self, hand: Sequence[Card], playable: frozenset[int] = frozenset()) -> str:
        """The hand with the indices to type; playable cards marked with ``*`` (in bold when colored)."""
        parts = []
        for i, card in enumerate(hand):
            mark = "*" if i in playable else ""
            index = self.bold(f"{i}{mark}") if mark else f"{i}"
            parts.append(f"{index}:{self.card(card)}")
        return "  ".join(parts) if parts else "(empty)"


def seat_names(seats: int, human: int | None, name: str = "You") -> list[str]:
    """Display names: the human's name, and ``Bot N`` for the others.

    >>> seat_names(3, 0)
    ['You', 'Bot 1', 'Bot 2']
    """
    return [name if seat == human else f"Bot {seat}" for seat in range(seats)]


def direction_text(direction: int, seats: int) -> str:
    """The direction of play in words (seats are numbered clockwise), with the whole seat order.

    >>> direction_text(1, 3), direction_text(-1, 5)
    ('↻ clockwise (0→1→2→0)', '↺ counterclockwise (4→3→2→1→0→4)')
    """
    order = list(range(seats)) if direction > 0 else list(range(seats - 1, -1, -1))
    word = "↻ clockwise" if direction > 0 else "↺ counterclockwise"
    return f"{word} ({'→'.join(str(s) for s in [*order, order[0]])})"


def _count(n: int, word: str = "card") -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _card_and_label(style: Style, card: Card) -> str:
    if card.is_number:
        return style.card(card)
    return f"{style.card(card)} ({card.label})"


def _their(name: str) -> str:
    return "your" if name == "You" else f"{name}'s"


def _verb(names: Sequence[str], seat: int, you: str, other: str) -> str:
    return you if names[seat] == "You" else other


def event_line(event: Event, names: Sequence[str], style: Style) -> str:
    """One readable line for ``event``; ``names`` gives each seat's display name."""
    n = names
    if isinstance(event, CardPlayed):
        verb = "jumped in with" if event.jump_in else "played"
        text = f"{n[event.seat]} {verb} {_card_and_label(style, event.card)}"
        if event.color is not None:
            text += f" and named {style.color_word(event.color)}"
        if event.target is not None:
            text += f", targeting {n[event.target]}"
        if event.uno:
            text += " — " + style.bold("UNO!")
        return text
    if isinstance(event, ColorChosen):
        text = f"{n[event.seat]} named {style.color_word(event.color)}"
        if event.target is not None:
            text += f", targeting {n[event.target]}"
        return text
    if isinstance(event, Drew):
        return _drew_line(event, n)
    if isinstance(event, DrewCards):
        return f"{n[event.seat]} drew {style.cards(event.cards)}"
    if isinstance(event, Passed):
        if event.auto:
            return f"{n[event.seat]} could not draw and passed"
        return f"{n[event.seat]} kept the card and passed"
    if isinstance(event, Skipped):
        return f"{n[event.seat]} {_verb(n, event.seat, 'are', 'is')} skipped"
    if isinstance(event, DirectionChanged):
        return f"Direction reversed: play now goes {direction_text(event.direction, len(n))}"
    if isinstance(event, PenaltyPending):
        return f"+{event.total} pending against {n[event.victim]}"
    if isinstance(event, Challenged):
        verdict = "guilty: the Wild Draw Four was illegal" if event.guilty else "innocent: it was legal"
        return f"{n[event.challenger]} challenged {_their(n[event.player])} Wild Draw Four — {verdict}"
    if isinstance(event, ChallengeReveal):
        whose = "Your" if n[event.player] == "You" else _their(n[event.player])
        return f"{whose} hand, shown to {n[event.challenger]}: {style.cards(event.cards)}"
    if isinstance(event, HandsSwapped):
        return f"{n[event.seat]} swapped hands with {n[event.target]}"
    if isinstance(event, HandsPassed):
        way = "clockwise" if event.direction > 0 else "counterclockwise"
        return f"Every hand passed to the next seat, {way}"
    if isinstance(event, HandsShuffled):
        sizes = ", ".join(str(s) for s in event.sizes)
        return f"{n[event.seat]} shuffled every hand together and dealt them again ({sizes} cards)"
    if isinstance(event, NewHand):
        return f"{n[event.seat]} now hold{'' if n[event.seat] == 'You' else 's'}: {style.cards(event.cards)}"
    if isinstance(event, Exposed):
        if n[event.seat] == "You":
            return style.bold("You hold one card and have not called UNO: type uno before you are caught!")
        return f"{n[event.seat]} holds one card without calling UNO (catch {event.seat} to catch it)"
    if isinstance(event, UnoCalled):
        return f"{n[event.seat]} called " + style.bold("UNO!")
    if isinstance(event, Caught):
        return (f"{n[event.catcher]} caught {n[event.target]} without UNO: "
                f"{n[event.target]} draw{_verb(n, event.target, '', 's')} {event.penalty}")
    if isinstance(event, FalseCatch):
        return (f"{n[event.catcher]} wrongly tried to catch {n[event.target]} and "
                f"draw{_verb(n, event.catcher, '', 's')} {event.penalty}")
    if isinstance(event, FalseUno):
        return f"{n[event.seat]} called UNO falsely and draw{_verb(n, event.seat, '', 's')} {event.penalty}"
    if isinstance(event, Slipped):
        return f"{n[event.seat]} slipped {style.cards(event.cards)} under the top card"
    if isinstance(event, Reshuffled):
        return f"The discard pile was shuffled into a new draw pile ({_count(event.count)})"
    if isinstance(event, Revealed):
        return f"{n[event.seat]} turned up {style.card(event.card)}"
    if isinstance(event, KnockedOut):
        are = _verb(n, event.seat, "are", "is")
        return f"{n[event.seat]} {are} knocked out, holding {_count(event.cards)}"
    if isinstance(event, RoundStarted):
        deals = _verb(n, event.dealer, "deal", "deals")
        return style.bold(f"── Round {event.round_no} ── {n[event.dealer]} {deals}")
    if isinstance(event, DealerChosen):
        draws = ", ".join(f"{n[s]} {style.card(c)}" for s, c in event.draws)
        return f"Cards drawn for the deal: {draws}; {n[event.dealer]} deal{_verb(n, event.dealer, '', 's')}"
    if isinstance(event, HandDealt):
        return f"{n[event.seat]} {_verb(n, event.seat, 'were', 'was')} dealt {style.cards(event.cards)}"
    if isinstance(event, FirstCard):
        if event.returned:
            return f"First card {_card_and_label(style, event.card)} goes back into the deck"
        return f"First card: {_card_and_label(style, event.card)}"
    if isinstance(event, RoundEnded):
        return _round_line(event, n, style)
    if isinstance(event, MatchEnded):
        who = " and ".join(n[s] for s in event.winners) or "nobody"
        win = "win" if len(event.winners) != 1 or n[event.winners[0]] == "You" else "wins"
        scores = ", ".join(f"{n[s]} {p}" for s, p in enumerate(event.scores))
        return style.bold(f"Match over: {who} {win} the match") + f" (scores: {scores})"
    return f"{event.type}: {event.to_dict()}"


def event_lines(events: Sequence[Event], names: Sequence[str], style: Style, seat: int | None = None,
                everything: bool = False) -> list[str]:
    """The lines for the events ``seat`` may see (all of them with ``everything``).

    A public draw followed by the drawer's own cards makes one line:

    >>> from unotable.events import Drew, DrewCards
    >>> events = [Drew(seat=0, count=1, reason="draw"), DrewCards(seat=0, cards=(Card.parse("R6"),))]
    >>> event_lines(events, ["You", "Bot 1"], Style(), seat=0)
    ['You drew 1 card: R6']
    >>> event_lines(events, ["You", "Bot 1"], Style(), seat=1)
    ['You drew 1 card']
    """
    shown = [e for e in events if everything or e.visible_to(seat)]
    lines: list[str] = []
    skip = False
    for i, event in enumerate(shown):
        if skip:
            skip = False
            continue
        after = shown[i + 1] if i + 1 < len(shown) else None
        if isinstance(event, Revealed):  # a Color Roulette's cards, turned up one by one: one line
            before = shown[i - 1] if i else None
            if isinstance(before, Revealed) and before.seat == event.seat:
                continue
            run = [event.card]
            for later in shown[i + 1:]:
                if not (isinstance(later, Revealed) and later.seat == event.seat):
                    break
                run.append(later.card)
            lines.append(f"{names[event.seat]} turned up {style.cards(run)}")
            continue
        if isinstance(event, FirstCard) and not event.returned:  # No Mercy's pile of first cards (SET-13)
            before = shown[i - 1] if i else None
            if isinstance(before, FirstCard) and not before.returned:
                continue
            pile = [event.card]
            for later in shown[i + 1:]:
                if not (isinstance(later, FirstCard) and not later.returned):
                    break
                pile.append(later.card)
            if len(pile) > 1:
                lines.append(f"First card: {_card_and_label(style, pile[-1])}, turned up over "
                             f"{style.cards(pile[:-1])} (not number cards, so they stay under it)")
                continue
        if isinstance(event, Drew) and isinstance(after, DrewCards) and after.seat == event.seat:
            lines.append(f"{_drew_line(event, names)}: {style.cards(after.cards)}")
            skip = True
            continue
        lines.append(event_line(event, names, style))
    return lines


def _drew_line(event: Drew, n: Sequence[str]) -> str:
    who = n[event.seat]
    cards = _count(event.count)
    reasons = {
        "draw": f"{who} drew {cards}",
        "penalty": f"{who} took the penalty: {cards}",
        "catch": f"{who} drew {cards} for not calling UNO",
        "false_catch": f"{who} drew {cards} for a false catch",
        "false_uno": f"{who} drew {cards} for a false UNO call",
        "custom": f"{who} drew {cards} (custom card)",
        "challenge": f"{who} drew {cards} for the challenge",
    }
    return reasons.get(event.reason, f"{who} drew {cards} ({event.reason})")


def _round_line(event: RoundEnded, n: Sequence[str], style: Style) -> str:
    if event.winner is None:
        text = "Round over: blocked, nobody could play or draw; it is dealt again"
    else:
        win = _verb(n, event.winner, "win", "wins")
        text = f"Round over: {n[event.winner]} {win} the round and score{'' if win == 'win' else 's'} " \
               f"{event.points} points"
    scores = ", ".join(f"{n[s]} {p}" for s, p in enumerate(event.scores))
    text = style.bold(text) + f" (scores: {scores})"
    if event.eliminated:
        text += "; eliminated: " + ", ".join(n[s] for s in event.eliminated)
    return text


def table_lines(
    view: SpectatorView,
    names: Sequence[str],
    style: Style,
    levels: Sequence[str] = (),
    title: str = "",
    playable: frozenset[int] = frozenset(),
    *,
    hand: Sequence[Card] | None = None,
    width: int = 0,
) -> list[str]:
    """The table as the seat of ``view`` sees it: every seat's count and score, the top card, the
    current color, the direction and any pending penalty; the hand when ``view`` is a player's.

    With ``hand`` (the player's hand in the order to show, as :func:`sort_hand` gives it), the hand
    is grouped by color and wrapped to ``width`` columns (:func:`hand_lines`)."""
    lines = []
    head = f"Round {view.round_no}"
    if title:
        head += f" · {title}"
    lines.append(style.bold(head))
    name_width = max(len(name) for name in names)
    for seat in range(view.seats):
        marks = []
        if seat == view.active and view.phase < Phase.ROUND_OVER:
            marks.append("◀ to act")
        if seat == view.dealer:
            marks.append("dealer")
        if view.called[seat]:
            marks.append("UNO")
        if view.exposed[seat]:
            marks.append("no UNO call!")
        if view.knocked_out[seat]:
            marks.append("knocked out")
        elif view.eliminated[seat]:
            marks.append("eliminated")
        level = f"({levels[seat]})" if seat < len(levels) and levels[seat] else ""
        cards = _count(view.hand_sizes[seat])
        line = (f"  {seat}  {names[seat]:<{name_width}} {level:<12} {cards:>9}   score {view.scores[seat]:>4}"
                f"   {' · '.join(marks)}")
        lines.append(line.rstrip())
    top = style.card(view.top_card) if view.top_card is not None else "(none)"
    status = (f"Top card: {top}   color: {style.color_word(view.current_color)}   "
              f"direction: {direction_text(view.direction, view.seats)}   draw pile: {view.draw_pile_size}")
    lines.append(status)
    if view.pending_penalty:
        lines.append(style.bold(f"Pending: +{view.pending_penalty} against {names[view.active]}"))
    if isinstance(view, PlayerView):
        whose = "Your" if names[view.seat] == "You" else f"{names[view.seat]}'s"
        if hand is not None:
            lines += hand_lines(style, hand, playable, width, f"{whose} hand: ")
        else:
            lines.append(f"{whose} hand: {style.hand(view.hand, playable)}")
        if view.drawn_card is not None:
            lines.append(f"Just drawn: {style.card(view.drawn_card)}")
    return lines


def _places(order: Sequence[int], key: Sequence[int]) -> list[int]:
    """Standing places for seats in ``order``: tied seats share a place (1, 2, 2, 4)."""
    places: list[int] = []
    for i, seat in enumerate(order):
        if i and key[seat] == key[order[i - 1]]:
            places.append(places[-1])
        else:
            places.append(i + 1)
    return places


def round_deltas(result: RoundResult, ruleset: Ruleset) -> tuple[int, ...]:
    """What each seat's score gained in the round of ``result``.

    >>> from unotable.rules import Ruleset
    >>> r = RoundResult(1, 1, 30, (12, 0, 18), (), (), (0, 30, 0))
    >>> official = Ruleset.preset("official")
    >>> round_deltas(r, official), round_deltas(r, official.replace(scoring="low"))
    ((0, 30, 0), (12, 0, 18))
    """
    n = len(result.hand_points)
    if result.winner is None:
        return (0,) * n
    if ruleset.scoring in (Scoring.LOW, Scoring.ELIMINATION):
        return tuple(0 if s == result.winner else result.hand_points[s] for s in range(n))
    if ruleset.partnership:
        side = result.winner % 2
        return tuple(result.points if s % 2 == side else 0 for s in range(n))
    return tuple(result.points if s == result.winner else 0 for s in range(n))


def round_summary_lines(
    view: SpectatorView,
    names: Sequence[str],
    style: Style,
) -> list[str]:
    """The end of the round in ``view.last_round``: every hand left with its points, and how the
    round's points add up. Other seats' cards are private, so their hands show as a count."""
    result = view.last_round
    if result is None:
        return []
    rules = view.ruleset
    n = len(result.hand_points)
    me = view.seat if isinstance(view, PlayerView) else None
    width = max(len(name) for name in names)
    lines: list[str] = []
    if result.winner is None:
        lines.append(style.bold(f"Round {result.round_no} is blocked: nobody could play or draw. "
                                "Nobody scores; the round is dealt again."))
    else:
        how = "went out" if view.hand_sizes[result.winner] == 0 else "is the last seat left in the round"
        lines.append(style.bold(f"Round {result.round_no} over: {names[result.winner]} {how}."))
    lines.append("  Hands left:")
    for s in range(n):
        cards = ""
        if s == result.winner:
            what, pts = ("went out" if view.hand_sizes[s] == 0 else "won the round"), ""
        elif view.eliminated[s] and s not in result.eliminated:
            what, pts = "out of the match", ""
        elif s in result.knocked_out:
            bonus = rules.is_no_mercy and rules.scoring is Scoring.STANDARD
            what, pts = "knocked out", (f"+{KNOCKOUT_BONUS} bonus" if bonus else "")
        else:
            what, pts = _count(view.hand_sizes[s]), _count(result.hand_points[s], "point")
            if s == me and isinstance(view, PlayerView) and view.hand:
                cards = "   " + style.cards(sort_hand(view.hand))
        lines.append(f"    {names[s]:<{width}}  {what:<11}{pts:>11}{cards}".rstrip())
    if result.winner is not None:
        lines.append("  " + _points_sum(view, result, rules, names))
    if result.eliminated:
        lines.append("  Eliminated at the target of "
                     f"{rules.target_score}: " + ", ".join(names[s] for s in result.eliminated))
    return lines


def _points_sum(view: SpectatorView, result: RoundResult, rules: Ruleset, names: Sequence[str]) -> str:
    """How the round's points add up, in words."""
    w = result.winner
    assert w is not None
    n = len(result.hand_points)
    if rules.scoring in (Scoring.LOW, Scoring.ELIMINATION):
        what = "lowest score wins" if rules.scoring is Scoring.LOW else "reaching it puts a seat out"
        return (f"Each seat but {names[w]} adds its own hand to its score (target {rules.target_score}, "
                f"{what}).")
    if rules.partnership:
        side = w % 2
        parts = [(names[s], result.hand_points[s]) for s in range(n) if s % 2 != side]
        who = f"{names[w]}'s team scores"
    else:
        parts = [(names[s], result.hand_points[s]) for s in range(n)
                 if s != w and s not in result.knocked_out and (view.in_round[s] or not rules.is_no_mercy)]
        if rules.is_no_mercy:
            parts += [(f"{names[s]} knocked out", KNOCKOUT_BONUS) for s in result.knocked_out]
        who = f"{names[w]} {_verb(names, w, 'score', 'scores')}"
    parts = [(name, p) for name, p in parts if p]
    if sum(p for _, p in parts) != result.points or not parts:
        return f"{who} {result.points} points."
    terms = " + ".join(f"{p} ({name})" for name, p in parts)
    return f"{who} {terms} = {result.points} points."


def score_table_lines(view: SpectatorView, names: Sequence[str], style: Style) -> list[str]:
    """The running scores, best first, with what the last round added and the target."""
    rules = view.ruleset
    scores = view.scores
    n = len(scores)
    low = rules.scoring in (Scoring.LOW, Scoring.ELIMINATION)
    deltas = round_deltas(view.last_round, rules) if view.last_round is not None else (0,) * n
    order = sorted(range(n), key=lambda s: (scores[s] if low else -scores[s], s))
    if rules.scoring is Scoring.NONE:
        head = "Scores (one round decides the match)"
    elif rules.scoring is Scoring.LOW:
        head = f"Scores (the match ends when a seat reaches {rules.target_score}; the lowest score wins)"
    elif rules.scoring is Scoring.ELIMINATION:
        head = f"Scores (a seat that reaches {rules.target_score} is out; the last one left wins)"
    else:
        head = f"Scores (first to {rules.target_score} wins the match)"
        if rules.partnership:
            head = (f"Scores (partners share a score: seats 0, 2… and 1, 3…; "
                    f"first to {rules.target_score} wins)")
    width = max(len(name) for name in names)
    lines = [style.bold(head)]
    for place, s in zip(_places(order, scores), order, strict=True):
        gained = f"+{deltas[s]}" if deltas[s] else ""
        note = ""
        if view.eliminated[s]:
            note = "out"
        elif rules.scoring is Scoring.STANDARD and view.outcome is None:
            note = f"{max(rules.target_score - scores[s], 0)} to go"
        lines.append(f"  {place:>2}. {names[s]:<{width}}  {scores[s]:>5}  {gained:>6}  {note}".rstrip())
    return lines


def standings_lines(view: SpectatorView, names: Sequence[str], style: Style) -> list[str]:
    """The final standings of the match in ``view.outcome``: the winners first, then by score."""
    outcome = view.outcome
    if outcome is None:
        return []
    scores = outcome.scores
    n = len(scores)
    low = view.ruleset.scoring in (Scoring.LOW, Scoring.ELIMINATION)
    rank = [0 if s in outcome.winners else 1 for s in range(n)]
    order = sorted(range(n), key=lambda s: (rank[s], scores[s] if low else -scores[s], s))
    key = [rank[s] * 10**9 + (scores[s] if low else -scores[s]) for s in range(n)]
    rounds = _count(outcome.rounds, "round")
    lines = [style.bold(f"Final standings after {rounds} ({outcome.reason.value}):")]
    width = max(len(name) for name in names)
    for place, s in zip(_places(order, key), order, strict=True):
        mark = "  ★ winner" if s in outcome.winners else ""
        lines.append(f"  {place:>2}. {names[s]:<{width}}  {scores[s]:>5}{mark}")
    return lines


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def visible_len(text: str) -> int:
    """The width of ``text`` on screen: its length without ANSI codes."""
    return len(_ANSI.sub("", text))


def sort_hand(hand: Iterable[Card]) -> tuple[Card, ...]:
    """A hand sorted for display: red, yellow, green, blue, each by rank, then the wilds.

    >>> " ".join(map(str, sort_hand(Card.parse(c) for c in ("W4", "B2", "R8", "GS", "R3"))))
    'R3 R8 GS B2 W4'
    """
    return tuple(sorted(hand, key=lambda c: c.id))


def hand_lines(
    style: Style,
    hand: Sequence[Card],
    playable: frozenset[int] = frozenset(),
    width: int = 0,
    prefix: str = "",
) -> list[str]:
    """The hand as :meth:`Style.hand` writes it, grouped by color (`` │ `` between the groups) and
    wrapped to ``width`` columns between whole cards, never inside one; continuation lines are
    indented under the first card. ``width`` 0 does not wrap.

    >>> hand = [Card.parse(c) for c in ("R3", "R8", "GS", "B2", "W4")]
    >>> hand_lines(Style(), hand, frozenset({2, 4}), prefix="Hand: ")
    ['Hand: 0:R3  1:R8 │ 2*:GS │ 3:B2 │ 4*:W4']
    >>> hand_lines(Style(), hand, width=24, prefix="Hand: ")
    ['Hand: 0:R3  1:R8 │ 2:GS', '      3:B2 │ 4:W4']
    """
    if not hand:
        return [prefix + "(empty)"]
    items: list[tuple[str, bool]] = []  # (card text, starts a new color group)
    last: object = ()
    for i, card in enumerate(hand):
        mark = "*" if i in playable else ""
        index = style.bold(f"{i}{mark}") if mark else f"{i}"
        group = card.color
        items.append((f"{index}:{style.card(card)}", bool(i) and group != last))
        last = group
    indent = " " * visible_len(prefix)
    lines: list[str] = []
    line = prefix
    used = visible_len(prefix)
    first = True
    for text, new_group in items:
        sep = "" if first else (" │ " if new_group else "  ")
        size = visible_len(text)
        if width and not first and used + len(sep) + size > width:
            lines.append(line)
            line, used, sep = indent, len(indent), ""
        line += sep + text
        used += len(sep) + size
        first = False
    lines.append(line)
    return lines


CARD_HELP: dict[str, str] = {
    "D4": "Draw Four (colored): the next seat draws 4 and loses its turn, unless it stacks a draw card "
          "worth 4 or more",
    "SE": "Skip Everyone: every other seat is skipped and you play again at once",
    "DA": "Discard All: every other card of its color in your hand goes under it",
    "WR4": "Wild Reverse Draw 4: the direction flips, then the next seat that way draws 4 (or stacks)",
    "W6": "Wild Draw 6: the next seat draws 6 and loses its turn, unless it stacks a draw card worth 6 "
          "or more",
    "W10": "Wild Draw 10: the next seat draws 10 and loses its turn, unless it stacks a Wild Draw 10",
    "WCR": "Wild Color Roulette: the next seat names a color, then turns up cards into its hand until "
           "one of that color shows up, and loses its turn",
    "WS": "Wild Swap Hands: name a color and swap hands with the seat you choose",
    "WX": "Wild Shuffle Hands: every hand is shuffled together and dealt out again",
    "WC": "Wild Customizable: a wild whose effect the table agreed on (see the rules in use)",
    "WB": "Blank: plays like a Wild Customizable",
}
"""What the cards beyond the classic deck do, by rank code (``RDA`` is a red ``DA``)."""

NO_MERCY_HELP = (
    "No Mercy: draw cards stack by value (a card worth as much or more); with no playable card you "
    "draw until you can play; 7 swaps hands with a seat you pick, 0 passes every hand on"
)


def card_help(card: Card) -> str | None:
    """What ``card`` does, when it is beyond the classic deck (None for the classic cards).

    >>> card_help(Card.parse("RDA"))
    'RDA — Discard All: every other card of its color in your hand goes under it'
    >>> card_help(Card.parse("R7")) is None
    True
    """
    text = CARD_HELP.get(card.rank.code)
    return None if text is None else f"{card} — {text}"


def deck_help_lines(ruleset: Ruleset) -> list[str]:
    """The special cards of ``ruleset``'s deck, one line each (none for the classic 108)."""
    codes = sorted({Card.from_id(i).rank.code for i in ruleset.composition()
                    if Card.from_id(i).rank.code in CARD_HELP},
                   key=list(CARD_HELP).index)
    lines = [f"  {code:<4} {CARD_HELP[code]}" for code in codes]
    if ruleset.is_no_mercy:
        limit = ruleset.mercy_limit
        knock = f"; {limit} cards or more knock a seat out of the round" if limit else ""
        lines.append("  " + NO_MERCY_HELP + knock + ".")
    return lines
