"""What a client may offer a host (``GET /api/options``), read from the engine and the bot registry.

The presets (each with every option's value and the seat counts it allows), every rule option
(its kind, and its values when they are a closed set), the bot levels (weakest first), and the
limits of the table's timings: a page or a terminal builds its forms from this, never from a copy.

>>> doc = options()
>>> doc["presets"][0]["name"], doc["bot_levels"][0], doc["options"]["jump_in"]["kind"]
('official', 'random', 'bool')
>>> doc["options"]["stacking"]["values"]
['none', 'same_kind', 'plus4_on_plus2', 'by_value']
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from unotable.rules import PRESET_NAMES, Ruleset
from unotable.server.table import TIMING_LIMITS, TableSettings
from unotable.server.table.offer import current as offered
from unotable.server.table.settings import ONLINE_OPTIONS

__all__ = ["options"]


def _option(value: object) -> dict[str, Any]:
    if isinstance(value, Enum):
        return {"kind": "choice", "values": [member.value for member in type(value)]}
    if isinstance(value, bool):
        return {"kind": "bool"}
    return {"kind": "int"}


def options() -> dict[str, Any]:
    """The presets, the rule options, the bot levels and the timing limits, as JSON-ready data."""
    presets = []
    for name in PRESET_NAMES:
        rules = Ruleset.preset(name)
        presets.append({"name": name, "values": rules.to_dict(), "seats": list(rules.seat_counts)})
    official = Ruleset.preset("official")
    defaults = TableSettings()
    return {
        "presets": presets,
        "options": {name: _option(getattr(official, name)) for name in official.to_dict()},
        "bot_levels": list(offered().names()),
        "bots": offered().doc(),
        "defaults": {"preset": defaults.preset, "seats": defaults.seats, "bot_level": defaults.bot_level,
                     "catch_reaction": defaults.catch_reaction},
        "online_options": dict(ONLINE_OPTIONS),
        "timings": {name: {"min": 0, "max": most} for name, most in TIMING_LIMITS.items()},
    }
