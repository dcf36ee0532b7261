"""What an env does with an action outside the mask: the ``illegal`` option of every env.

``illegal="lose"`` (the default, PettingZoo's convention for its classic games, its
``TerminateIllegalWrapper``): the episode ends at once as that seat's forfeit, reward -1 to it and
0 to every other seat, the game left as it was; the first time in an env it warns with
:class:`IllegalActionWarning`. ``illegal="raise"``: :class:`~unotable.errors.IllegalActionError`,
and nothing changes. Standard library only (``unotable.env`` re-exports the warning without numpy).

>>> check_illegal("raise")
'raise'
>>> "illegal='raise'" in illegal_message("seat_1", 12)
True
"""
from __future__ import annotations

import warnings

__all__ = ["ILLEGAL", "IllegalActionWarning", "check_illegal", "illegal_message", "warn_illegal"]

ILLEGAL = ("lose", "raise")


class IllegalActionWarning(UserWarning):
    """An env received an action outside its agent's mask and ended the episode as that agent's
    forfeit (the default ``illegal="lose"``); given once per env."""


def check_illegal(illegal: object) -> str:
    """``illegal``, checked: ``"lose"`` or ``"raise"`` (``ValueError`` otherwise)."""
    if illegal not in ILLEGAL:
        raise ValueError(f"illegal={illegal!r} is not one of {', '.join(ILLEGAL)}")
    return str(illegal)


def illegal_message(agent: str, index: object) -> str:
    """The warning's text: what happened and how to avoid it (nothing about hidden cards)."""
    return (f"{agent} chose action {index!r}, which is not in its action mask: the episode ends as "
            f"its forfeit (reward -1 to it, 0 to the others). Mask the actions: sample with "
            f"action_space.sample(mask) from obs['action_mask'] or info['action_mask'], or use "
            f"action_masks() (sb3-contrib's MaskablePPO); pass illegal='raise' to raise "
            f"IllegalActionError instead. This warning is given once per env.")


def warn_illegal(agent: str, index: object, stacklevel: int = 3) -> None:
    warnings.warn(illegal_message(agent, index), IllegalActionWarning, stacklevel=stacklevel)
