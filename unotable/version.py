"""The engine's version and the version of the rules it implements.

``__version__`` is the package's version. ``RULES_VERSION`` changes whenever the engine's
behaviour changes for some record: a different event, a different deal, a different outcome from
the same start and actions. A record carries both; :func:`unotable.record.replay` refuses a record
of another rules version unless it replays to the same final position.
"""
from __future__ import annotations

__all__ = ["RULES_VERSION", "__version__"]

__version__ = "0.2.0"
RULES_VERSION = 1
