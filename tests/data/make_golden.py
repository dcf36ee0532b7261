"""Write the golden records: tests/data/golden_<preset>.json for each of the 8 presets (GEN-4).

Each file holds two seeded games, played by a seeded random policy (plays, draws, out-of-turn UNO
calls, catches and jump-ins): the record, every event (all seats' private ones too) and the final
exact position. tests/test_records.py replays each record and demands the same events and the same
final position, so any change to the engine's randomness, dealing or rules shows up there.

A full match is played where its file stays small; the longer games are single rounds
(``scoring = none``). Regenerate only on purpose, after a deliberate change of behaviour:

    .venv/bin/python tests/data/make_golden.py
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from unotable import Action, CallUno, Game, Phase, Play, Record, Ruleset
from unotable.rules import PRESET_NAMES

HERE = Path(__file__).resolve().parent
FORMAT = "unotable-golden"

# preset -> two games: (seats, game seed, policy seed, full match?)
GAMES: dict[str, list[tuple[int, int, int, bool]]] = {
    "official": [(4, 1003, 1003, True), (3, 1105, 1105, True)],
    "official-112-shuffle": [(5, 2001, 3, True), (3, 2002, 4, False)],
    "official-112-swap": [(4, 3001, 5, True), (6, 3002, 6, False)],
    "official-112-blank": [(3, 4001, 7, True), (7, 4002, 8, False)],
    "two-player": [(2, 5004, 5004, True), (2, 5002, 10, False)],
    "partners": [(4, 6106, 6106, True), (6, 6007, 6007, True)],
    "house": [(4, 7003, 7003, True), (5, 7002, 14, False)],
    "no-mercy": [(4, 8003, 8003, True), (6, 8002, 16, True)],
}

FINISH_AFTER = 1500  # actions in one round before the policy only tries to go out


def _finishing_rank(action: Action) -> int:
    if isinstance(action, CallUno):
        return 0
    if isinstance(action, Play):
        return 2 if action.card.is_wild else 1
    return 3


def play(game: Game, policy_seed: int) -> None:
    """Play ``game`` to its end with a seeded random policy, dealing rounds as they end."""
    rng = random.Random(policy_seed)
    while not game.is_over():
        if game.phase is Phase.ROUND_OVER:
            game.next_round()
        steps = 0
        while game.phase < Phase.ROUND_OVER:
            steps += 1
            active = game.active_seat
            if steps > FINISH_AFTER:
                actions = list(game.legal_actions)
                best = min(map(_finishing_rank, actions))
                game.play(rng.choice([a for a in actions if _finishing_rank(a) == best]), active)
                continue
            others = sorted(game.seats_to_act - {active})
            seat = rng.choice(others) if others and rng.random() < 0.2 else active
            actions = list(game.legal_actions_for(seat))
            plays = [a for a in actions if isinstance(a, Play)]
            if seat == active and plays and rng.random() < 0.85:
                actions = plays
            game.play(rng.choice(actions), seat)


def golden_game(preset: str, seats: int, seed: int, policy_seed: int, full: bool) -> dict[str, Any]:
    ruleset = Ruleset.preset(preset)
    if not full:
        ruleset = ruleset.replace(scoring="none")
    game = Game.new(seats, ruleset, seed)
    play(game, policy_seed)
    return {
        "preset": preset,
        "seats": seats,
        "seed": seed,
        "policy_seed": policy_seed,
        "full_match": full,
        "record": Record.from_game(game).to_dict(),
        "events": [e.to_dict() for e in game.events],
        "final": game.to_position(),
    }


def dumps(doc: dict[str, Any]) -> str:
    """JSON with one event per line, so that a diff of two versions reads event by event."""
    games = []
    for g in doc["games"]:
        head = {k: v for k, v in g.items() if k not in ("events", "final", "record")}
        parts = [json.dumps(head)[:-1]]
        parts.append(f', "record": {json.dumps(g["record"])}')
        parts.append(', "events": [\n    ' + ",\n    ".join(json.dumps(e) for e in g["events"]) + "\n  ]")
        parts.append(f', "final": {json.dumps(g["final"])}' + "}")
        games.append("".join(parts))
    return (
        f'{{"format": "{FORMAT}", "version": 2, "preset": {json.dumps(doc["preset"])}, "games": [\n  '
        + ",\n  ".join(games)
        + "\n]}\n"
    )


def main() -> int:
    assert set(GAMES) == set(PRESET_NAMES)
    for preset, games in GAMES.items():
        doc = {"preset": preset, "games": [golden_game(preset, *g) for g in games]}
        text = dumps(doc)
        assert json.loads(text)["games"] == json.loads(json.dumps(doc["games"]))
        path = HERE / f"golden_{preset}.json"
        path.write_text(text, encoding="utf-8")
        rounds = [g["final"]["round_no"] for g in doc["games"]]
        actions = [len(g["record"]["actions"]) for g in doc["games"]]
        print(f"{path.name}: {len(text) // 1024} KiB, rounds {rounds}, actions {actions}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
