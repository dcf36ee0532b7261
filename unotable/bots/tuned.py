"""mixbot2-tuned: :class:`~unotable.bots.mixbot2.MixBot2` with the options that won most against it.

The options were tuned in the native core by coordinate ascent (research/tune_mixbot2.py) on
heads-up rounds against ``mixbot2`` under MixBot's rules, seeded and seats rotated, and verified on
fresh seed bases (docs/research/2026-12-06-tuned-at-volume.md, docs/anchors.md). Against the
defaults (wild limit 2, Wild Draw Four limit 4, drawn-wild limit 2, ranking D2,S,N,R,W4,W, attack
D2,W4,S,R,N,W) it holds a Wild Draw Four longer (one non-wild card at most), plays a Wild sooner
(three), ranks the Wild above the Wild Draw Four, and in the end game a Wild above a number.
Every option can still be set (``mixbot2-tuned:wild_limit=2``); the core plays it as mixbot2
with these options.

>>> bot = MixBot2Tuned()
>>> bot.name, bot.wild_limit, bot.wd4_limit, bot.ranking
('mixbot2-tuned', 3, 1, 'D2,S,N,R,W,W4')
"""
from __future__ import annotations

from unotable.bots.mixbot2 import MixBot2

__all__ = ["TUNED", "MixBot2Tuned"]

TUNED: dict[str, int | str] = {
    "wild_limit": 3,
    "wd4_limit": 1,
    "drawn_wild_limit": 2,
    "ranking": "D2,S,N,R,W,W4",
    "attack": "D2,W4,S,R,W,N",
}
"""The tuned options (MixBot2's keyword arguments)."""


class MixBot2Tuned(MixBot2):
    """MixBot2 with :data:`TUNED` as its defaults."""

    name = "mixbot2-tuned"

    def __init__(self, wild_limit: int = 3, wd4_limit: int = 1, drawn_wild_limit: int = 2,
                 ranking: str = "D2,S,N,R,W,W4", attack: str = "D2,W4,S,R,W,N",
                 colors: str = "ranked", counting: bool = True) -> None:
        super().__init__(wild_limit=wild_limit, wd4_limit=wd4_limit, drawn_wild_limit=drawn_wild_limit,
                         ranking=ranking, attack=attack, colors=colors, counting=counting)
