"""Table ids and secret tokens: made with :mod:`secrets`, kept only as hashes, compared in constant time.

A table id is public (it is the link a host shares): 96 random bits, URL-safe. A seat token and
the host token are secrets of 192 bits each: the server hands a token to its owner once and keeps
only its SHA-256 hash, so neither its store nor its logs ever hold a usable token.

>>> token = new_token()
>>> len(token) >= 32, matches(token, token_hash(token)), matches("guess", token_hash(token))
(True, True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

__all__ = ["TABLE_ID", "matches", "new_table_id", "new_token", "token_hash"]

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{16}$")
"""What a table id looks like (16 URL-safe characters: 96 bits)."""


def new_table_id() -> str:
    return secrets.token_urlsafe(12)


def new_token() -> str:
    """A seat or host token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def matches(token: str | None, stored_hash: str | None) -> bool:
    """Whether ``token`` is the one whose hash is stored (in constant time)."""
    if not token or not stored_hash:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)
