"""The engine behind your own loop: a seeded match, refereed by your code, one action at a time.

A referee (a server, a learning environment, this script) owns the `Game`. At each step it asks
which seats may act now (`seats_to_act`: the active seat, and any seat that may call UNO or catch
out of turn), lets a seat choose from its own legal actions, and plays the action; `play()` checks
it and returns the events it caused. Between rounds the referee deals the next one. Here a seat
that may catch another does so first; the active seat plays a card at random when it can, else
takes the engine's default action (`default_action`: draw, pass, accept, a color, a target).
Seat 0's view is printed the first few times it is on turn, as a client would show it.

    .venv/bin/python examples/engine_loop.py --seed 7 --target 100
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from unotable import Action, Catch, Game, Phase, Play, Record, Ruleset


def choose(game: Game, seat: int, rng: random.Random) -> Action | None:
    """A catch when the seat may make one; on its turn a play at random, else its default action."""
    legal = game.legal_actions_for(seat)
    catches = [a for a in legal if isinstance(a, Catch)]
    if catches:
        return catches[0]
    if seat != game.active_seat:
        return None  # let the other out-of-turn chances pass
    plays = [a for a in legal if isinstance(a, Play)]
    return rng.choice(plays) if plays else game.default_action(seat)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A seeded match refereed by a loop of our own.")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--target", type=int, default=100, help="the match's target score")
    args = parser.parse_args(argv)

    rules = Ruleset.preset("official").replace(target_score=args.target)
    game = Game.new(seats=args.seats, ruleset=rules, seed=args.seed)
    rng = random.Random(args.seed)
    shown = 0
    while not game.is_over():
        if game.phase is Phase.ROUND_OVER:
            result = game.round_result()
            assert result is not None
            print(f"round {game.round_no}: seat {result.winner} went out; scores {list(game.scores)}")
            game.next_round()
            continue
        if game.active_seat == 0 and shown < 3:
            view = game.view(0)
            print(f"seat 0 holds {' '.join(map(str, view.hand))}; top {view.top_card}, "
                  f"color {view.current_color}; may {', '.join(map(str, view.legal))}")
            shown += 1
        # Out-of-turn seats first, in seat order, then the active seat: one action per step.
        for seat in sorted(game.seats_to_act, key=lambda s: s == game.active_seat):
            action = choose(game, seat, rng)
            if action is not None:
                game.play(action, seat)
                break
        else:  # the seat to act is not the active one (it names a color for a Roulette, say)
            seat = min(game.seats_to_act)
            action = game.default_action(seat)
            assert action is not None, f"seat {seat} may act but has no default action"
            game.play(action, seat)
    outcome = game.outcome()
    assert outcome is not None
    print(f"match over after {game.action_count} actions: winners {list(outcome.winners)}, "
          f"scores {list(outcome.scores)} ({outcome.reason.value})")
    # The record is the whole game: replaying it rebuilds every event.
    print(f"record: {game.action_count} actions, {len(Record.from_game(game).to_json())} bytes of JSON")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
