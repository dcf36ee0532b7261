"""Write tests/native/data/scenarios.json: every position the rule scenario tests of tests/rules build.

It runs those tests with ``Game.from_position`` wrapped to keep each document it reads (valid or
not), so that test_scenarios.py can load each in both engines and step them side by side.
Regenerate after the scenario tests change:

    .venv/bin/python tests/native/make_scenarios.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from unotable import Game

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
OUT = HERE / "data" / "scenarios.json"


class Collector:
    """A pytest plugin that records the documents given to Game.from_position."""

    def __init__(self) -> None:
        self.docs: list[Any] = []
        self.seen: set[str] = set()

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        del session
        original = Game.from_position.__func__  # type: ignore[attr-defined]
        collector = self

        def recording(cls: type[Game], doc: Any, *, events: bool = True) -> Game:
            try:
                text = json.dumps(doc, sort_keys=True)
            except TypeError:
                text = None
            if text is not None and text not in collector.seen:
                collector.seen.add(text)
                collector.docs.append(json.loads(text))
            return original(cls, doc, events=events)  # type: ignore[no-any-return]

        Game.from_position = classmethod(recording)  # type: ignore[method-assign,assignment]


def main() -> int:
    collector = Collector()
    args = ["-q", "-p", "no:cacheprovider", "-x", str(ROOT / "tests" / "rules")]
    code = pytest.main(args, plugins=[collector])
    if code != 0:
        return int(code)
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps({"positions": collector.docs}, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len(collector.docs)} positions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
