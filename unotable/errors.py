"""The exception family of unotable.

Every error the engine raises on bad input is a :class:`UnoError`, which is a ``ValueError``:

>>> issubclass(IllegalActionError, ValueError)
True

- :class:`NotationError`: text that is not valid card, action or position notation.
- :class:`InvalidActionError`: an action that is malformed whatever the position
  (a wild without a color where one is needed, a target seat that does not exist).
- :class:`IllegalActionError`: a well-formed action that the rules forbid now.
- :class:`NotYourTurnError`: a seat that may not act now tried to act.
- :class:`RulesetError`: a ruleset option outside its allowed values, or a forbidden combination.
- :class:`RecordError`: a record or position document that cannot be read or replayed.
"""
from __future__ import annotations


class UnoError(ValueError):
    """Base class of every error unotable raises on bad input."""


class NotationError(UnoError):
    """Text that is not valid notation for a card, an action or a position."""


class InvalidActionError(UnoError):
    """An action that is malformed whatever the position."""


class IllegalActionError(UnoError):
    """A well-formed action that the rules do not allow in the current state."""


class NotYourTurnError(IllegalActionError):
    """An action from a seat that may not act now."""


class RulesetError(UnoError):
    """An invalid ruleset option or combination (RULES.md GEN-1), or an unknown preset."""


class RecordError(UnoError):
    """A game record or position that cannot be parsed, validated or replayed."""
