"""Card points, round results, the match to its target, partnerships and elimination (§7).

>>> from unotable.game import Game
>>> g = Game.new(seats=2, ruleset="official", seed=1)
>>> g.outcome() is None
True
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from unotable.cards import Card
from unotable.results import MatchEndReason, Outcome, RoundResult
from unotable.rules import EliminationFinal, Scoring

if TYPE_CHECKING:
    from unotable.state import State

__all__ = ["Outcome", "RoundResult", "hand_value", "team_of"]

KNOCKOUT_BONUS = 250


def hand_value(st: State, seat: int) -> int:
    pts = st.rules.points
    return sum(pts[c] for c in st.hands[seat])


def team_of(seat: int) -> int:
    """SCORE-9: even seats are team 0, odd seats team 1."""
    return seat % 2


def team_scores(st: State) -> tuple[int, ...]:
    """SCORE-9: each team's score (the members of a team share it), team 0 first."""
    return tuple(st.scores[t] for t in range(min(2, st.n)))


def hand_cards(st: State, seat: int) -> tuple[Card, ...]:
    return tuple(Card.from_id(c) for c in st.hands[seat])


def score_round(st: State, winner: int | None) -> RoundResult:
    """Score a finished round into ``st`` and decide the match (SCORE-1 to SCORE-10)."""
    r = st.rules
    n = st.n
    values = tuple(hand_value(st, s) if (st.in_round[s] or st.knocked[s]) and not st.eliminated[s] else 0
                   for s in range(n))
    knocked = tuple(s for s in range(n) if st.knocked[s])
    eliminated: list[int] = []
    points = 0
    winners: tuple[int, ...] = ()
    reason: MatchEndReason | None = None
    if winner is None:  # SCORE-8: a blocked round scores nothing and never ends the match
        result = RoundResult(st.round_no, None, 0, values, knocked, (), tuple(st.scores))
        st.last_round = result
        return result
    st.round_wins[winner] += 1
    scoring = r.scoring
    if scoring is Scoring.STANDARD or scoring is Scoring.NONE:
        if r.partnership:
            side = team_of(winner)
            points = sum(values[s] for s in range(n) if team_of(s) != side)
            for s in range(n):
                if team_of(s) == side:
                    st.scores[s] += points
        else:
            if r.is_no_mercy:
                points = sum(values[s] for s in range(n) if s != winner and st.in_round[s])
                points += KNOCKOUT_BONUS * len(knocked)
            else:
                points = sum(values[s] for s in range(n) if s != winner and not st.eliminated[s])
            st.scores[winner] += points
        team = tuple(s for s in range(n) if team_of(s) == team_of(winner)) if r.partnership else (winner,)
        if scoring is Scoring.NONE:
            winners = team
            reason = MatchEndReason.SINGLE_ROUND
        elif st.scores[winner] >= r.target_score:
            winners = team
            reason = MatchEndReason.TARGET_REACHED
    elif scoring is Scoring.LOW:
        for s in range(n):
            if s != winner:
                st.scores[s] += values[s]
        if any(st.scores[s] >= r.target_score for s in range(n)):
            low = min(st.scores)
            tied = [s for s in range(n) if st.scores[s] == low]
            most = max(st.round_wins[s] for s in tied)
            winners = tuple(s for s in tied if st.round_wins[s] == most)
            reason = MatchEndReason.LOWEST_TOTAL
    else:  # ELIMINATION (SCORE-5, SCORE-6)
        alive_before = [s for s in range(n) if not st.eliminated[s]]
        for s in alive_before:
            if s != winner:
                st.scores[s] += values[s]
        for s in alive_before:
            if st.scores[s] >= r.target_score:
                st.eliminated[s] = True
                eliminated.append(s)
        alive = [s for s in range(n) if not st.eliminated[s]]
        if st.final_round:
            winners = (winner,)
            reason = MatchEndReason.FINAL_ROUND
        elif len(alive) == 1:
            winners = (alive[0],)
            reason = MatchEndReason.LAST_SEAT_STANDING
        elif len(alive) == 2 and len(alive_before) > 2 and r.elimination_final is EliminationFinal.ONE_ROUND:
            st.final_round = True
    result = RoundResult(st.round_no, winner, points, values, knocked, tuple(eliminated), tuple(st.scores))
    st.last_round = result
    if winners:
        st.match_winners = winners
        st.last_round = result
        st.match_reason = reason
    return result
