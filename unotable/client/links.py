"""A table's link, the tokens kept for it, and creating a table over HTTP (``POST /api/tables``).

Tokens live in ``tokens.json`` (mode 0600) in the user's data directory: ``$UNOTABLE_DATA_DIR``,
else ``$XDG_DATA_HOME/unotable``, else ``~/.local/share/unotable``; keyed by the table's link.

>>> parse_table_url("http://127.0.0.1:8000/t/abc_DEF-123")
TableUrl(base='http://127.0.0.1:8000', table='abc_DEF-123')
>>> parse_table_url("ws://127.0.0.1:8000/ws/abc").link
'http://127.0.0.1:8000/t/abc'
>>> parse_table_url("ftp://x/t/abc")
Traceback (most recent call last):
...
unotable.client.links.ClientError: 'ftp://x/t/abc' is not a table's link: expected http://HOST:PORT/t/TABLE
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["ClientError", "TableUrl", "TokenStore", "create_table", "data_dir", "parse_table_url"]


class ClientError(Exception):
    """A link, an address or a server answer that makes no session (its text is for the user)."""


@dataclass(frozen=True, slots=True)
class TableUrl:
    """A table's address: the server's base URL (``http://HOST:PORT``) and the table id."""

    base: str
    table: str

    @property
    def link(self) -> str:
        """The link a host shares (the key of the saved tokens)."""
        return f"{self.base}/t/{self.table}"

    @property
    def ws(self) -> str:
        scheme, rest = self.base.split("://", 1)
        return f"{'wss' if scheme == 'https' else 'ws'}://{rest}/ws/{self.table}"


_TABLE_PATH = re.compile(r"(?P<prefix>.*?)/(?:t|ws|api/tables)/(?P<table>[A-Za-z0-9_-]+)/?")


def parse_table_url(url: str) -> TableUrl:
    """The table of a link: ``http(s)://HOST[:PORT]/t/TABLE`` (also ``ws://.../ws/TABLE``)."""
    parts = urllib.parse.urlsplit(url.strip())
    scheme = {"http": "http", "https": "https", "ws": "http", "wss": "https"}.get(parts.scheme.lower())
    match = _TABLE_PATH.fullmatch(parts.path)
    if scheme is None or not parts.netloc or match is None:
        raise ClientError(f"{url!r} is not a table's link: expected http://HOST:PORT/t/TABLE")
    return TableUrl(f"{scheme}://{parts.netloc}{match['prefix']}", match["table"])


def data_dir() -> Path:
    """Where the client keeps its tokens: ``$UNOTABLE_DATA_DIR``, ``$XDG_DATA_HOME/unotable`` or
    ``~/.local/share/unotable``."""
    explicit = os.environ.get("UNOTABLE_DATA_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        return Path(xdg) / "unotable"
    return Path.home() / ".local" / "share" / "unotable"


class TokenStore:
    """``tokens.json``: for each table link, the seat token (and the host token) to come back with.

    The file is written whole, atomically, readable by its owner only (0600)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.path = (directory if directory is not None else data_dir()) / "tokens.json"

    def load(self) -> dict[str, dict[str, Any]]:
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(doc, dict):
            return {}
        return {k: v for k, v in doc.items() if isinstance(k, str) and isinstance(v, dict)}

    def get(self, link: str) -> dict[str, Any]:
        return dict(self.load().get(link, {}))

    def update(self, link: str, **fields: Any) -> None:
        """Merge ``fields`` into the entry of ``link`` (a None value removes the field)."""
        doc = self.load()
        entry = dict(doc.get(link, {}))
        for key, value in fields.items():
            if value is None:
                entry.pop(key, None)
            else:
                entry[key] = value
        if entry:
            doc[link] = entry
        else:
            doc.pop(link, None)
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = self.path.with_name(f".tokens.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(doc, f, indent=1, sort_keys=True)
                f.write("\n")
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


def create_table(
    base_url: str,
    preset: str = "official",
    seats: int = 4,
    bots: int | Sequence[str | None] = 0,
    options: Mapping[str, object] | None = None,
    *,
    bot_level: str = "heuristic",
    timeout: float = 10.0,
) -> tuple[str, str]:
    """Create a table on the server at ``base_url`` (``POST /api/tables``): its link and host token.

    ``bots`` is a count (bots take the last seats, at ``bot_level``) or a level per seat (None for a
    person)."""
    if isinstance(bots, int):
        if not 0 <= bots < seats:
            raise ClientError(f"{bots} bots leave no seat for a person at a table of {seats}")
        per_seat: list[str | None] = [None] * (seats - bots) + [bot_level] * bots
    else:
        per_seat = list(bots)
    body: dict[str, Any] = {"preset": preset, "seats": seats, "bots": per_seat}
    if options:
        body["options"] = dict(options)
    base = base_url.strip().rstrip("/")
    parts = urllib.parse.urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ClientError(f"{base_url!r} is not a server's address: expected http://HOST:PORT")
    request = urllib.request.Request(
        f"{base}/api/tables",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            doc = json.loads(response.read())
    except urllib.error.HTTPError as exc:
        try:
            problem = json.loads(exc.read())
            why = f"{problem['message']}"
        except (ValueError, KeyError, TypeError):
            why = f"HTTP {exc.code}"
        raise ClientError(f"the server would not create the table: {why}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise ClientError(f"could not reach {base}: {getattr(exc, 'reason', exc)}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("url"), str) or not isinstance(
        doc.get("host_token"), str
    ):
        raise ClientError("the server's answer names no table")
    return doc["url"], doc["host_token"]
