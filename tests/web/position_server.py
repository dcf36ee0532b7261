"""``unotable serve`` for the browser scenario tests: each game starts from a fixed position.

A test server may take a position so that a situation is set up exactly (a missed UNO to catch, a
Wild Draw Four to challenge, a 7 to aim, a stack, a jump-in, a Roulette); a server started by
``unotable serve`` never does. This launcher runs the real server (``unotable.server.run.main``)
after replacing ``Game.new`` *in this process only*: a table whose ``target_score`` names a position
in the JSON file given by ``UNOTABLE_TEST_POSITIONS`` starts from that position (with the table's
own ruleset); any other table deals as usual. Nothing in the package is changed.

    python tests/web/position_server.py --port 0 ...   (with UNOTABLE_TEST_POSITIONS=FILE)
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, ClassVar

import unotable.server.table.actor as table_module
from unotable.game import Game
from unotable.rules import Ruleset
from unotable.server.run import main


class _PositionedGame:
    """Stands in for ``Game`` inside the table module: ``new`` may start from a position."""

    positions: ClassVar[dict[str, dict[str, Any]]] = {}

    @classmethod
    def new(cls, seats: int, rules: Ruleset, seed: int) -> Game:
        position = cls.positions.get(str(rules.target_score))
        if position is None:
            return Game.new(seats, rules, seed)
        return Game.from_position({**position, "ruleset": rules.to_dict()})


if __name__ == "__main__":
    with open(os.environ["UNOTABLE_TEST_POSITIONS"], encoding="utf-8") as f:
        _PositionedGame.positions = json.load(f)
    table_module.Game = _PositionedGame  # type: ignore[misc,assignment]
    sys.exit(main(sys.argv[1:]))
