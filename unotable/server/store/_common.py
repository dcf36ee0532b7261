"""What both backends share: JSON in and out, argument checks, and the migration files."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from unotable.server.store import STATUSES, StoreError

# U+0000 as json.dumps writes it (an escape preceded by an even number of backslashes, so a
# literal backslash followed by "u0000" in a string does not match).
_NUL_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")

SCHEMA_VERSION_DDL = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    " version INTEGER PRIMARY KEY,"
    " name TEXT NOT NULL,"
    " applied DOUBLE PRECISION NOT NULL)"
)


def encode_json(value: dict[str, Any], what: str) -> str:
    """``value`` as JSON text, or :class:`StoreError` when it is not storable JSON in both backends
    (not a dict, not serializable, NaN or infinity, a lone surrogate, or a U+0000 character).

    >>> encode_json({"card": "🃏", "n": 1}, "entry")
    '{"card":"🃏","n":1}'
    """
    if not isinstance(value, dict):
        raise StoreError(f"{what} must be a dict, not {type(value).__name__}")
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise StoreError(f"{what} is not storable JSON: {exc}") from exc
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate: no database stores it as UTF-8
        raise StoreError(f"{what} is not storable JSON: {exc.reason} at position {exc.start}") from exc
    if _NUL_ESCAPE.search(text):
        raise StoreError(f"{what} contains the character U+0000, which PostgreSQL's JSONB cannot store")
    return text


def decode_json(text: str, what: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError as exc:  # a row written by something else than this module
        raise StoreError(f"stored {what} is not valid JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise StoreError(f"stored {what} is not a JSON object")
    return value


def check_status(status: str) -> None:
    if status not in STATUSES:
        raise ValueError(f"unknown table status {status!r}: expected one of {', '.join(STATUSES)}")


def check_seq(seq: int) -> None:
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
        raise ValueError(f"seq must be an integer >= 1, not {seq!r}")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


def migrations(backend: str) -> list[Migration]:
    """The migration files of ``backend`` (``sqlite`` or ``postgres``) in version order.

    >>> [m.version for m in migrations("sqlite")][:1]
    [1]
    """
    folder = resources.files("unotable.server.store").joinpath("migrations", backend)
    found: dict[int, Migration] = {}
    for item in folder.iterdir():
        match = _MIGRATION_NAME.match(item.name)
        if match is None:
            continue
        version = int(match.group(1))
        if version in found:
            raise StoreError(f"two {backend} migrations numbered {version:04d}")
        found[version] = Migration(version, item.name, item.read_text(encoding="utf-8"))
    ordered = [found[v] for v in sorted(found)]
    if [m.version for m in ordered] != list(range(1, len(ordered) + 1)):
        raise StoreError(f"{backend} migrations are not numbered 0001, 0002, ... without gaps")
    return ordered


def check_known(applied: set[int], known: list[Migration], where: str) -> None:
    """Refuse a database migrated by a newer unotable (versions this one does not know)."""
    unknown = applied - {m.version for m in known}
    if unknown:
        raise StoreError(
            f"{where} has schema version {max(unknown)}, newer than this unotable knows "
            f"({known[-1].version if known else 0}): upgrade unotable"
        )
