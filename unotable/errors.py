"""The exception family of unotable.

Every error the engine raises on bad input is a :class:`UnoError`, which is a ``ValueError``,
and carries a stable ``code`` that a protocol can send as it is:

>>> issubclass(IllegalActionError, ValueError), NotYourTurnError.code, PositionError("x").code
(True, 'not_your_turn', 'position')

- :class:`NotationError` (``notation``): text that is not valid card, action or position notation.
- :class:`InvalidActionError` (``invalid``): an action that is malformed whatever the position
  (a wild without a color where one is needed, a target seat that does not exist, an out-of-turn
  action without an explicit seat).
- :class:`IllegalActionError` (``illegal``): a well-formed action that the rules forbid now.
- :class:`NotYourTurnError` (``not_your_turn``): a seat that may not act now tried to act.
- :class:`RulesetError` (``ruleset``): a ruleset option outside its allowed values, or a forbidden
  combination.
- :class:`RecordError` (``record``): a record that cannot be parsed, validated or replayed.
- :class:`PositionError` (``position``): a position document that is malformed or describes a
  situation that cannot arise; ``field`` names the field at fault.

The text of an error about an action is a message to the seat that sent it: it is built only from
what that seat may see (its own hand and the public table), never another seat's cards.
"""
from __future__ import annotations

from typing import ClassVar

__all__ = [
    "ERROR_CODES",
    "IllegalActionError",
    "InvalidActionError",
    "NotYourTurnError",
    "NotationError",
    "PositionError",
    "RecordError",
    "RulesetError",
    "UnoError",
]


class UnoError(ValueError):
    """Base class of every error unotable raises on bad input."""

    code: ClassVar[str] = "error"


class NotationError(UnoError):
    """Text that is not valid notation for a card, an action or a position."""

    code: ClassVar[str] = "notation"


class InvalidActionError(UnoError):
    """An action that is malformed whatever the position."""

    code: ClassVar[str] = "invalid"


class IllegalActionError(UnoError):
    """A well-formed action that the rules do not allow in the current state."""

    code: ClassVar[str] = "illegal"


class NotYourTurnError(IllegalActionError):
    """An action from a seat that may not act now."""

    code: ClassVar[str] = "not_your_turn"


class RulesetError(UnoError):
    """An invalid ruleset option or combination (GEN-1), or an unknown preset."""

    code: ClassVar[str] = "ruleset"


class RecordError(UnoError):
    """A game record that cannot be parsed, validated or replayed."""

    code: ClassVar[str] = "record"


class PositionError(RecordError):
    """A position that is malformed or impossible; ``field`` names the field at fault."""

    code: ClassVar[str] = "position"

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


ERROR_CODES: tuple[str, ...] = tuple(
    cls.code for cls in (NotationError, InvalidActionError, NotYourTurnError, IllegalActionError,
                         RulesetError, RecordError, PositionError)
)
"""Every code an engine error may carry."""
